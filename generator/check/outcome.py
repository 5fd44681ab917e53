"""What a check found: each :class:`Stage`'s outcome and the :class:`CheckReport` with its
verdict and exit code (:data:`EXIT_CODES`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deckpress.generator import exitcodes
from deckpress.generator.content.errors import ContentError
from deckpress.generator.content.variant import ContentDiff

EXIT_CODES = {"accept": exitcodes.OK, "review": exitcodes.CONTENT, "reject": exitcodes.USAGE,
              "unreadable": exitcodes.UNREADABLE, "could not finish": exitcodes.COULD_NOT_FINISH}


@dataclass
class Stage:
    """One stage's outcome (``passed``, ``failed`` or ``skipped``; the verdict's name for the last
    stage) and what it found."""

    name: str
    status: str
    notes: list[str] = field(default_factory=list)


@dataclass
class CheckReport:
    """Everything a check found; :attr:`exit_code` follows the verdict."""

    variant_path: str
    meta: dict[str, Any] = field(default_factory=dict)
    stages: list[Stage] = field(default_factory=list)
    errors: list[ContentError] = field(default_factory=list)
    content_diff: ContentDiff | None = None
    parameter_diff: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    effective_parameters: dict[str, Any] = field(default_factory=dict)
    preview: str | None = None
    preview_cards: list[str] = field(default_factory=list)
    simulation: dict[str, Any] | None = None
    skill: dict[str, Any] | None = None  # {"base": ..., "variant": ..., "change_points": ...} (run_skill_bounded)
    verdict: str = "reject"
    reasons: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """0 accept, 1 review, 2 reject, 3 the file could not be read at all, 5 could not finish
        (a limit deckpress runs under was reached: not a verdict on the variant)."""
        return EXIT_CODES[self.verdict]

    def stop(self, stage: str, verdict: str, reasons: list[str]) -> "CheckReport":
        """End the check at a failed ``stage``."""
        self.stages.append(Stage(stage, "failed", reasons))
        self.verdict, self.reasons = verdict, reasons
        return self

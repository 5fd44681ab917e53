"""How ``deckpress check`` checks a variant: :class:`CheckOptions`, the value the CLI parses its
options into and :func:`deckpress.generator.check.run_check` takes."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from deckpress.generator.check.thresholds import Thresholds


class Progress(Protocol):
    """``progress(stage, done, total)``: a stage starts (done and total None) or simulated games finish."""

    def __call__(self, stage: str, done: int | None = None, total: int | None = None, /) -> None: ...


@dataclass(frozen=True)
class CheckOptions:
    """How to check: games per side (None: the game's own ``GameInfo.check_games``), seed, bots
    (None: the game's default), whether to simulate, the thresholds, the limits of the simulation
    stage (s, MiB; the skill stage has the same limits of its own), worker processes, where to
    write the preview, the game folder to check against (``content``; None: the shipped game the
    variant ``extends``), and the skill signal's games per side (0: skipped) and search
    iterations a decision."""

    games: int | None = None
    seed: int = 1
    bots: tuple[str, ...] | None = None
    simulate: bool = True
    thresholds: Thresholds = Thresholds()
    time_limit_s: float = 300.0
    memory_mb: int = 2048
    workers: int = 2
    preview_path: Path | None = None
    content: Path | None = None  # the game folder the variant extends (default: the shipped game of its id)
    skill_games: int = 0  # games per side of the skill signal (ismcts against greedy); 0: the stage is skipped
    skill_iterations: int = 50  # the search bot's iterations a decision in the skill signal
    skill_bot: str | None = None  # the skill signal's search bot instead of ismcts:<skill_iterations> (rollout, rollout:N)
    #: ``progress(stage, done, total)``: told as each stage starts (done and total None) and as
    #: simulated games finish (stage "5. simulation: base" ..., "6. skill signal: base" ...), for a progress bar
    progress: Progress | None = None

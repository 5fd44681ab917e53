"""Reporters: turn a validation result into text or JSON.  Only reporters print; chosen by name
from :data:`REPORTERS`."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable, TextIO

from deckpress.generator.errors import ContentError


@dataclass
class ValidationResult:
    """What ``deckpress validate`` found: the targets checked and every error, by target."""

    checked: list[str] = field(default_factory=list)
    errors: list[ContentError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no errors were found."""
        return not self.errors

    @property
    def exit_code(self) -> int:
        """0 when clean, 1 when any error was found."""
        return 0 if self.ok else 1


def text_report(result: ValidationResult, out: TextIO) -> None:
    """One line per error (``file:line:column: message``), then a summary line."""
    for err in result.errors:
        print(err, file=out)
    files = len({e.path for e in result.errors})
    if result.ok:
        print(f"ok: {', '.join(result.checked)} ({len(result.checked)} checked, no errors)", file=out)
    else:
        print(f"{len(result.errors)} error{'s' * (len(result.errors) != 1)} in {files} file{'s' * (files != 1)}", file=out)


def json_report(result: ValidationResult, out: TextIO) -> None:
    """``{"ok": bool, "checked": [...], "errors": [{path, line, column, message}, ...]}``."""
    json.dump({"ok": result.ok, "checked": result.checked, "errors": [e.as_dict() for e in result.errors]}, out, indent=2, ensure_ascii=False)
    out.write("\n")


REPORTERS: dict[str, Callable[[ValidationResult, TextIO], None]] = {"text": text_report, "json": json_report}

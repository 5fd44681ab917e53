"""Reporters: turn a validation result into text or JSON.  Only reporters print; chosen by name
from :data:`REPORTERS`."""
from __future__ import annotations

import json
import re
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


#: Errors of one kind in one file shown before the rest are summarised in one line.
SHOWN_PER_KIND = 5
_VARIABLE = re.compile(r"\[\d+\]|'[^']*'|\"[^\"]*\"|-?\d+(?:\.\d+)?")


def kind_of(err: ContentError) -> tuple[str, str]:
    """What makes errors "alike": the same file and the same message once its variable parts
    (record indices ``[12]``, numbers, quoted values) are taken out."""
    return err.path, _VARIABLE.sub("#", err.message)


def summarised(errors: list[ContentError], shown: int = SHOWN_PER_KIND) -> list[str]:
    """Error lines for people: every error, except that after ``shown`` errors of one kind in a
    file the rest of that kind become one line "... and N more like it" (a folder of 4,000
    broken records reads as a few lines, not 72,000).  ``--format json`` lists them all."""
    counts: dict[tuple[str, str], int] = {}
    lines: list[str] = []
    for err in errors:
        kind = kind_of(err)
        counts[kind] = counts.get(kind, 0) + 1
        if counts[kind] <= shown:
            lines.append(str(err))
    for (path, _), n in counts.items():
        if n > shown:
            lines.append(f"{path}: ... and {n - shown:,} more like {'it' if shown == 1 else 'these'} (--format json lists them all)")
    return lines


def text_report(result: ValidationResult, out: TextIO) -> None:
    """One line per error (``file:line:column: message``; floods of one kind summarised by
    :func:`summarised`), then a summary line."""
    for line in summarised(result.errors):
        print(line, file=out)
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

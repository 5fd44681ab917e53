"""Reporters: turn a validation result into text or JSON.  Only reporters print; chosen by name
from :data:`REPORTERS`."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Callable, TextIO

from deckpress.generator.content.errors import ContentError
from deckpress.generator.content.safetext import escape, json_safe


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
#: Where the whole list is, as the summary line of `deckpress validate` (and `check`) says it.
ALL_ERRORS = "--format json lists them all"
#: The variable parts of a message: a record index ``[12]``, a quoted value (``'x'`` or ``"x"``,
#: an escape inside it too), a number.
_VARIABLE = re.compile(r"\[\d+\]|'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|-?\d+(?:[.,]\d+)*")


def kind_of(err: ContentError) -> tuple[str, str]:
    """What makes errors "alike": the same file and the same message once its variable parts are
    taken out: record indices (``states[12]``), quoted values (``'forest'``, ``"60"``) and numbers
    (``line 12``, ``1,000``).  So ``cards[3].colour: the text "#zz" is not a colour`` and
    ``cards[97].colour: the text "red!" is not a colour`` are one kind; an error about another
    field, or of another check, is another kind."""
    return err.path, _VARIABLE.sub("#", err.message)


def summarised(errors: list[ContentError], shown: int = SHOWN_PER_KIND, where_all: str = ALL_ERRORS) -> list[str]:
    """Error lines for people.  Every error, in the order given, except a flood: when a file has
    more than ``shown`` errors of one kind (:func:`kind_of`), the first ``shown`` of them stand
    together where the first one stood, followed by one line for the rest,
    ``"FILE: ... and 3,995 more like these (--format json lists them all)"``.  A folder of 4,000
    broken records reads as a few dozen lines, not 72,000; the JSON reporter keeps every error.
    ``where_all`` says where the whole list is (a command without ``--format json`` says
    ``"deckpress validate --format json lists them all"``).  Each line is escaped."""
    by_kind: dict[tuple[str, str], list[ContentError]] = {}
    for err in errors:
        by_kind.setdefault(kind_of(err), []).append(err)
    lines: list[str] = []
    for err in errors:
        alike = by_kind[kind_of(err)]
        if len(alike) <= shown:
            lines.append(str(err))
        elif err is alike[0]:  # a flood: its examples and its count, together
            lines += [str(e) for e in alike[:shown]] + [_more(err.path, len(alike) - shown, shown, where_all)]
    return lines


def _more(path: str, more: int, shown: int, where_all: str) -> str:
    """The line that stands for ``more`` errors like the ``shown`` ones before it."""
    return escape(f"{path}: ... and {more:,} more like {'it' if shown == 1 else 'these'} ({where_all})")


def text_report(result: ValidationResult, out: TextIO) -> None:
    """One line per error (``file:line:column: message``; floods of one kind summarised by
    :func:`summarised`), then a summary line counting every error.  Everything is escaped: a
    folder's name is the user's too."""
    for line in summarised(result.errors):
        print(line, file=out)
    files = len({e.path for e in result.errors})
    if result.ok:
        print(escape(f"ok: {', '.join(result.checked)} ({len(result.checked)} checked, no errors)"), file=out)
    else:
        print(f"{len(result.errors):,} error{'s' * (len(result.errors) != 1)} in {files:,} file{'s' * (files != 1)}", file=out)


def json_report(result: ValidationResult, out: TextIO) -> None:
    """``{"ok": bool, "checked": [...], "errors": [{path, line, column, message}, ...]}``: every
    error, none summarised.  Characters that could reorder or hide text are JSON escapes
    (:func:`deckpress.generator.content.safetext.json_safe`), the same strings once decoded."""
    report = {"ok": result.ok, "checked": result.checked, "errors": [e.as_dict() for e in result.errors]}
    out.write(json_safe(json.dumps(report, indent=2, ensure_ascii=False)) + "\n")


REPORTERS: dict[str, Callable[[ValidationResult, TextIO], None]] = {"text": text_report, "json": json_report}

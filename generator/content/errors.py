"""Content errors: one line each, location first (``file:line:column: message``).

Every problem found in content (YAML syntax, schema, semantic checks, layout fitting) becomes a
:class:`ContentError`.  Loaders and checkers *collect* them rather than raising on the first one,
so a user sees every error of a file in one run.  :class:`ContentErrors` is the exception that
carries a batch of them to the CLI, which prints them and exits 1: no traceback for bad input.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, order=True)
class ContentError:
    """One problem in a content file.

    ``line`` and ``column`` are 1-based; 0 means "the whole file" (for example a file that is
    missing or too large).  ``message`` says what is wrong and what was expected.
    """

    path: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        """``file:line:column: message`` (``file: message`` for the whole file) on one line: every
        control character (newlines too), bidirectional control and invisible format character of
        the path and the message is written as an escape (``\\x1b``, ``\\u202e``), so nothing raw
        from a user's file reaches a terminal or a CI log."""
        from deckpress.generator.content.safetext import escape

        if self.line:
            return escape(f"{self.path}:{self.line}:{self.column}: {self.message}")
        return escape(f"{self.path}: {self.message}")

    def as_dict(self) -> dict:
        """The error as a JSON-ready dict (keys ``path``, ``line``, ``column``, ``message``)."""
        return {"path": self.path, "line": self.line, "column": self.column, "message": self.message}


class ContentErrors(Exception):
    """A batch of :class:`ContentError`, raised when content cannot be used at all."""

    def __init__(self, errors: list[ContentError]):
        self.errors = sorted(errors)
        super().__init__("\n".join(str(e) for e in self.errors))


def display_path(path: Path | str) -> str:
    """``path`` relative to the working directory when it lies below it; a shipped file as
    ``deckpress/content/...`` (never the installation's absolute path); else as given.  A byte of
    the name that is not UTF-8 (a name made on another system) is shown as ``\\xE9``, so that
    every message and report that names the file can be printed and written."""
    p = Path(os.path.abspath(path))  # links are not followed: a link is named as it stands in the folder
    try:
        return _printable(str(p.relative_to(Path.cwd().resolve())))
    except ValueError:
        pass
    from deckpress.generator.paths import PACKAGE_DIR

    try:  # shipped content: named inside the package, not by the installation's absolute path
        return "deckpress/" + _printable(str(p.relative_to(PACKAGE_DIR.resolve())))
    except ValueError:
        return _printable(str(p))


def _printable(name: str) -> str:
    """A file name as text: the bytes Python kept as lone surrogates (``os.fsdecode``) as ``\\xNN``."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")

"""Text that cannot fool a reader: which characters content may not hold, and how any value from
a user is shown in a message, a terminal or a report.

Control characters (NUL, BEL, ESC, ...) and bidirectional overrides (U+202A-U+202E,
U+2066-U+2069) in a card name can hide or reorder what a reader sees, in a PDF, a terminal or a
CI log (``shared/notes/untrusted-input.md``).  Content that holds them is refused at its line;
anything shown from a user's file is escaped and shortened first.
"""
from __future__ import annotations

import re
import unicodedata

#: Bidirectional embedding, override and isolate controls.
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
#: Ordinary white space allowed in text.
_ALLOWED_CONTROLS = frozenset("\t\n\r")
#: Every refused character (Unicode Cc but tab, newline, CR; the bidi controls): a fast screen.
_SCREEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
#: How many characters of a value a message quotes at most.
EXCERPT_CHARS = 60


def refused(c: str) -> bool:
    """Whether character ``c`` may not appear in content: a control character other than tab,
    newline and carriage return (Unicode category Cc), or a bidirectional control."""
    return (c not in _ALLOWED_CONTROLS and unicodedata.category(c) == "Cc") or c in BIDI_CONTROLS


def refused_characters(text: str) -> list[str]:
    """The refused characters of ``text``, each once in order of appearance, named for people
    (``'U+0000 (NULL)'``, ``'U+202E (RIGHT-TO-LEFT OVERRIDE)'``)."""
    if not _SCREEN.search(text):  # the common case, in compiled code
        return []
    seen: list[str] = []
    for c in text:
        if refused(c) and c not in seen:
            seen.append(c)
    return [f"U+{ord(c):04X} ({unicodedata.name(c, _CONTROL_NAMES.get(ord(c), 'control character'))})" for c in seen]


def escape(text: str) -> str:
    """``text`` with every control character (newlines and tabs too: one message, one line),
    bidirectional control and other invisible format character written as an escape (``\\x00``,
    ``\\n``-style ``\\x0a``, ``\\u202e``), safe to print to a terminal or log."""
    out = []
    for c in text:
        if unicodedata.category(c) == "Cc" or c in BIDI_CONTROLS or (unicodedata.category(c) == "Cf" and c != "\u00ad"):
            code = ord(c)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(c)
    return "".join(out)


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """A short, escaped excerpt of ``value`` for a message: at most ``limit`` characters of its
    text, then ``… (N characters)`` when it was longer."""
    text = value if isinstance(value, str) else repr(value)
    shown = escape(text)
    if len(shown) <= limit:
        return shown
    return f"{shown[:limit]}… ({len(text):,} characters)"


_CONTROL_NAMES = {0: "NULL", 7: "BELL", 8: "BACKSPACE", 0x1B: "ESCAPE", 0x7F: "DELETE"}


def choices(wrong: str, options: list[str], shown: int = 8) -> str:
    """What to say after an unknown name: ``"did you mean 'forest'?"`` for near misses, else the
    options themselves, at most ``shown`` of them (``"known: a, b, ... and 28 more"``)."""
    import difflib

    close = difflib.get_close_matches(str(wrong), options, n=3)
    if close:
        return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"
    more = f", ... and {len(options) - shown} more" if len(options) > shown else ""
    return "known: " + ", ".join(options[:shown]) + more

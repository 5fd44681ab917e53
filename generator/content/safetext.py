"""Text that cannot fool a reader: which characters content may not hold, and how any value from
a user is shown in a message, a terminal or a report.

Control characters (NUL, BEL, ESC, ...) and bidirectional overrides (U+202A-U+202E,
U+2066-U+2069) in a card name can hide or reorder what a reader sees, in a PDF, a terminal or a
CI log (``docs/untrusted-input.md``).  Content that holds them is refused at its line;
anything shown from a user's file is escaped and shortened first.
"""
from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

#: How many characters of a value a message quotes at most.
EXCERPT_CHARS = 60
#: Why refused characters are refused, as every message about them says it.
REFUSAL = "control characters and bidirectional overrides are not allowed in content"

#: Control characters (Unicode category Cc) but tab, newline and carriage return.
_CC = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
#: Format characters (Unicode 15 category Cf) but the soft hyphen U+00AD: the bidirectional
#: controls, zero-width characters, the byte-order mark, invisible tag characters.
_CF = ("\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f"
       "\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
       "\U000e0001\U000e0020-\U000e007f")
#: The refused control characters alone: YAML cannot read a file that holds one raw, so a loader
#: looks for these in the raw text before parsing.
CONTROLS = re.compile(f"[{_CC}]")
#: Every refused character: the controls and the bidirectional controls.
_REFUSED = re.compile(f"[{_CC}\u202a-\u202e\u2066-\u2069]")
#: What :func:`escape` writes as an escape: every control character (tab and newline too) and
#: every format character.
_ESCAPED = re.compile(f"[\x00-\x1f\x7f-\x9f{_CF}]")
#: What :func:`json_safe` escapes (JSON escapes the control characters itself).
_FORMAT = re.compile(f"[{_CF}]")

#: Names of the control characters (Unicode gives them none, only aliases): C0, DELETE, and the C1
#: controls a terminal acts on.
_CONTROL_NAMES = dict(enumerate((
    "NULL", "START OF HEADING", "START OF TEXT", "END OF TEXT", "END OF TRANSMISSION", "ENQUIRY", "ACKNOWLEDGE", "BELL",
    "BACKSPACE", "TAB", "LINE FEED", "LINE TABULATION", "FORM FEED", "CARRIAGE RETURN", "SHIFT OUT", "SHIFT IN",
    "DATA LINK ESCAPE", "DEVICE CONTROL ONE", "DEVICE CONTROL TWO", "DEVICE CONTROL THREE", "DEVICE CONTROL FOUR",
    "NEGATIVE ACKNOWLEDGE", "SYNCHRONOUS IDLE", "END OF TRANSMISSION BLOCK", "CANCEL", "END OF MEDIUM", "SUBSTITUTE",
    "ESCAPE", "FILE SEPARATOR", "GROUP SEPARATOR", "RECORD SEPARATOR", "UNIT SEPARATOR")))
_CONTROL_NAMES.update({0x7F: "DELETE", 0x85: "NEXT LINE", 0x90: "DEVICE CONTROL STRING", 0x9B: "CONTROL SEQUENCE INTRODUCER",
                       0x9C: "STRING TERMINATOR", 0x9D: "OPERATING SYSTEM COMMAND"})


def refused(c: str) -> bool:
    """Whether character ``c`` may not appear in content: a control character other than tab,
    newline and carriage return (Unicode category Cc), or a bidirectional control."""
    return _REFUSED.match(c) is not None


def refused_characters(text: str) -> list[str]:
    """The refused characters of ``text``, each once in order of appearance, named for people
    (``'U+0000 (NULL)'``, ``'U+202E (RIGHT-TO-LEFT OVERRIDE)'``)."""
    if _REFUSED.search(text) is None:  # nearly always: one scan, nothing built
        return []
    seen = dict.fromkeys(m.group() for m in _REFUSED.finditer(text))
    return [f"U+{ord(c):04X} ({unicodedata.name(c, _CONTROL_NAMES.get(ord(c), 'C1 control character'))})" for c in seen]


def refusal(text: str) -> str | None:
    """The message for a value that holds refused characters, naming each of them once
    (``"contains U+0000 (NULL): control characters and bidirectional overrides are not allowed in
    content"``), or None when ``text`` is clean.  The caller puts the value's place in front."""
    bad = refused_characters(text)
    return f"contains {', '.join(bad)}: {REFUSAL}" if bad else None


def escape(text: str) -> str:
    """``text`` with every control character (newlines and tabs too: one message, one line),
    bidirectional control and other invisible format character written as an escape (``\\x00``,
    ``\\x0a``, ``\\u202e``), safe to print to a terminal or log."""
    return _ESCAPED.sub(lambda m: _escaped(m.group()), text)


def _escaped(c: str) -> str:
    code = ord(c)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """A short, escaped excerpt of ``value`` for a message: its text (a string as it is, anything
    else as ``repr``) escaped as :func:`escape` does, cut after at most ``limit`` characters with
    ``… (N characters)`` saying how long it was.  An escape is never cut in half."""
    text = value if isinstance(value, str) else repr(value)
    pieces = [_escaped(c) if _ESCAPED.match(c) else c for c in text[:limit + 1]]
    if len(text) <= limit and sum(map(len, pieces)) <= limit:
        return "".join(pieces)
    kept, used = [], 0
    for piece in pieces:
        if used + len(piece) > limit:
            break
        kept.append(piece)
        used += len(piece)
    return f"{''.join(kept)}… ({len(text):,} characters)"


def quoted(value: object) -> str:
    """``value`` as a message quotes it: its ``repr``, escaped and cut to a short :func:`excerpt`
    that says how long it was (values from logs, files and command lines are untrusted and may be
    of any length).  A long text is quoted as it is, so that the length given is its own."""
    if isinstance(value, str) and len(value) > EXCERPT_CHARS:
        return f"'{excerpt(value)}'"
    return excerpt(repr(value))


def strict_json(text: str) -> Any:
    """``json.loads`` of untrusted ``text``, refusing ``NaN``, ``Infinity`` and ``-Infinity``, which
    Python reads but JSON does not have (RFC 8259, section 6) and which pass every range check.

    Raises:
        json.JSONDecodeError: not JSON, or such a constant (placed at its first occurrence).
    """
    def refuse(name: str):
        raise json.JSONDecodeError(f"{name} is not a JSON number: JSON numbers are finite", text, max(text.find(name), 0))

    return json.loads(text, parse_constant=refuse)


def json_safe(text: str) -> str:
    """JSON text with every raw bidirectional control and invisible format character (Unicode Cf,
    but the soft hyphen) written as a JSON ``\\uXXXX`` escape: the same JSON once decoded, but
    nothing that reorders or hides text when a person reads it in a terminal.  (``json.dumps``
    escapes control characters itself, but with ``ensure_ascii=False`` it writes U+202E raw.)
    ``text`` must be JSON: these characters can only stand inside its strings, where the escape
    means the same character."""
    return _FORMAT.sub(lambda m: _json_escape(m.group()), text)


def _json_escape(c: str) -> str:
    """``c`` as a JSON escape: ``\\u202e``; beyond U+FFFF a surrogate pair, as JSON requires."""
    code = ord(c)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def para_escape(text: str) -> str:
    """``text`` safe inside reportlab's paragraph markup (a ``Paragraph`` of the cover, never card
    faces: their text engine draws no markup): ``&``, ``<`` and ``>`` as ``&amp;``, ``&lt;`` and
    ``&gt;``, as ``xml.sax.saxutils.escape`` writes them, so no value can open a tag (a link, an
    image, a font), break the markup or name an entity.  (Not that module: it imports
    ``urllib.request`` and the mail and TLS modules with it, a tenth of deckpress's start-up.)"""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def choices(wrong: str, options: list[str], shown: int = 8) -> str:
    """What to say after an unknown name: ``"did you mean 'forest'?"`` for near misses, else the
    options themselves, at most ``shown`` of them (``"known: a, b, ... and 28 more"``)."""
    import difflib

    close = difflib.get_close_matches(str(wrong), options, n=3)
    if close:
        return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"
    more = f", ... and {len(options) - shown} more" if len(options) > shown else ""
    return "known: " + ", ".join(options[:shown]) + more


def numeric(text: str) -> bool:
    """Whether ``text`` reads as a number (``"60"``, ``"1.5"``): a value written in quotes where a
    number was meant, for the hint "write it without quotes"."""
    try:
        float(text)
    except ValueError:
        return False
    return True

"""Card files kept as spreadsheets: a CSV (or TSV) file read into the same :class:`Document` as a
YAML card file, ``{"cards": [record, ...]}``, with every cell's line and column for error messages.

Read with Python's :mod:`csv` (the dialect spreadsheets write: comma-separated, or tab-separated
for ``.tsv``, ``"`` quoting, UTF-8 with or without a byte-order mark, lines ended as Windows,
Unix or the classic Mac OS end them: CR LF, LF or CR).  The first row names the fields; each further row is a
card.  A cell that reads as a JSON number (``12``, ``-3``, ``2.5``) becomes a number, an empty
cell leaves its field out (so a schema's ``required`` catches it), anything else is text, printed
literally.  Control characters and bidirectional overrides are refused
(:mod:`deckpress.generator.content.safetext`).
"""
from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

from deckpress.generator.content import gate, safetext
from deckpress.generator.content.errors import ContentError
from deckpress.generator.content.yamlsafe import Document

#: At most this many cards in one CSV file, unless the deck raises it
#: (:class:`deckpress.generator.content.cardfiles.CardLimits`).
MAX_ROWS = 50_000
#: The most digits of a number's whole part (and of its fraction) that a cell is read as a number
#: with: past 16 digits a float keeps no more, so a longer number stays text.
MAX_DIGITS = 16
#: A field name: what a layout's ``{field}`` can name.
FIELD_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_NUMBER = re.compile(r"^-?(?:0|[1-9][0-9]{0,15})(?:\.[0-9]{1,15})?$")
_NUMBER_START = frozenset("-0123456789")
_MAYBE_NUMBER = _NUMBER_START | frozenset(" \t")
_LONG_NUMBER = re.compile(r"^-?[0-9]+(?:\.[0-9]+)?$")
_LINE_END = re.compile(r"\r\n|\r|\n")


def number_hint(text: object, suffix: str = ".csv") -> str:
    """What to do with a cell's number that was read as text (a schema wanted a number): in a
    spreadsheet (``suffix`` ``.xlsx``), a cell formatted as text; else a number of more than
    :data:`MAX_DIGITS` digits is past the cap, and anything else (``1e3``, ``+5``, ``007``) is to
    be written as plain digits."""
    if suffix == ".xlsx":
        return " (the cell is formatted as text: format it as a number)"
    if isinstance(text, str) and _LONG_NUMBER.match(text.strip()):
        return (f" (a cell is read as a number when it has at most {MAX_DIGITS} digits before the point and 15 after it: "
                "a float keeps no more, so this one stayed text)")
    return " (write it as plain digits, such as 12 or 1.5)"


def load_csv(path: Path, display: str, root: Path | None = None, max_bytes: int = gate.MAX_FILE_BYTES, delimiter: str = ",",
             max_rows: int = MAX_ROWS, hint: str = "") -> tuple[Document | None, list[ContentError]]:
    """Read a CSV card file through the gate: ``delimiter`` ``","`` (CSV) or ``"\t"`` (TSV), at
    most ``max_bytes`` and ``max_rows`` cards (``hint``: how to raise that limit, said when it is
    reached).

    Returns:
        ``(document, [])`` whose ``data`` is ``{"cards": [{field: value}, ...]}``, or
        ``(None, errors)`` with every problem found (a file that is not UTF-8, a bad header, a row
        with more cells than the header, refused characters, too many rows, a row the reader
        cannot read: a quote never closed, after which nothing more is read, the rows before
        it still checked), each at its line and column.
    """
    try:
        text = gate.read_text(Path(path), root, max_bytes)
    except gate.GateError as exc:
        return None, [ContentError(display, exc.line, exc.column, f"file {exc}")]
    doc = Document(path=Path(path), data=None, display=display, first_line=_LINE_END.split(text, 1)[0])
    errors: list[ContentError] = []
    rows: list[tuple[int, list[str], str]] = []
    broken: list[ContentError] = []  # after the errors of the rows read before it, which are still checked
    try:
        for row in _rows(text, delimiter):  # one by one: the rows read before an unreadable one are kept
            rows.append(row)
            if len(rows) > max_rows + 1:  # the header and one card too many: nothing more is read
                break
    except _Unreadable as exc:
        broken.append(ContentError(display, exc.line, 1, f"not a readable CSV file from this row on: {exc}"))
        if not rows:
            return None, broken
    if not rows:
        return None, [ContentError(display, 1, 1, "the file is empty: its first row must name the fields (for example id,title,text)")]
    header_line, header, header_raw = rows[0]
    header_cols = _columns(header_raw, len(header), delimiter)
    names = [name.strip() for name in header]
    for col, name in zip(header_cols, names):
        if not FIELD_NAME.match(name):
            # one column whose name holds ';' or a tab: a spreadsheet's export with another separator
            other = next((sep for sep in (";", "\t") if len(names) == 1 and sep in name and sep != delimiter), None)
            separated = (f": the fields are separated by {'semicolons' if other == ';' else 'tabs'}, and deckpress reads "
                         + ("commas (save as 'CSV UTF-8 (comma delimited)', or name the file .tsv for tabs)" if delimiter == "," else "tabs in a .tsv file")
                         ) if other else ""
            errors.append(ContentError(display, header_line, col, f"column '{safetext.excerpt(name)}': a field name is letters, digits and _, "
                                                                  f"starting with a letter (a layout names it as {{field}}){separated}"))
    for dup in sorted({n for n in names if names.count(n) > 1}):
        errors.append(ContentError(display, header_line, header_cols[names.index(dup)], f"column '{dup}' appears {names.count(dup)} times: each field once"))
    if len(rows) - 1 > max_rows:
        return None, errors + broken + [ContentError(display, rows[max_rows + 1][0], 1, f"more than {max_rows:,} cards in one file"
                                                     + (f": {hint}" if hint else ""))]
    cards: list[dict[str, Any]] = []
    placed: list[tuple[int, list[str], str]] = []  # each card's row, for its cells' places when an error needs them
    refused = bool(safetext.refused_characters(text))  # one pass over the file: only then is each cell looked at
    width = len(names)
    for line, cells, raw in rows[1:]:
        if all(not value or value.isspace() for value in cells):
            continue  # a blank row, as spreadsheets leave at the end
        if len(cells) > width:
            errors.append(ContentError(display, line, _columns(raw, len(cells), delimiter)[width], f"row has {len(cells)} cells, but the header names {width} fields"))
        record: dict[str, Any] = {}
        for k, (name, value) in enumerate(zip(names, cells)):
            if refused:
                bad = safetext.refused_characters(value)
                if bad:
                    errors.append(ContentError(display, line, _columns(raw, len(cells), delimiter)[k], f"{name}: contains {', '.join(bad)}: "
                                                                                                      "control characters and bidirectional overrides are not allowed in content"))
                    continue
            if not value or value.isspace():
                continue
            record[name] = _typed(value) if value[0] in _MAYBE_NUMBER else value  # most cells are text: no call
        cards.append(record)
        placed.append((line, cells, raw))
    doc.data = {"cards": cards}
    errors += broken
    if errors:
        return None, errors

    def positions() -> tuple[dict, dict]:
        values: dict = {(): (1, 1), ("cards",): (header_line, 1)}
        values.update({("columns", name): (header_line, col) for col, name in zip(header_cols, names)})  # a header's fault is told at its cell
        keys: dict = {}
        for i, ((line, cells, raw), record) in enumerate(zip(placed, cards)):
            values[("cards", i)] = (line, 1)
            for name, col in zip(names, _columns(raw, len(cells), delimiter)):
                if name in record:
                    values[("cards", i, name)] = keys[("cards", i, name)] = (line, col)
        return values, keys

    from deckpress.generator.content.cardfiles import LazyTable

    memo: dict[str, dict] = {}

    def table(which: str) -> dict:
        if not memo:
            memo["values"], memo["keys"] = positions()
        return memo[which]

    doc.positions = LazyTable(lambda: table("values"))  # type: ignore[assignment]
    doc.key_positions = LazyTable(lambda: table("keys"))  # type: ignore[assignment]
    return doc, []


class WrittenFloat(float):
    """A number read from a cell whose text is not the number's own (``3.10``, ``-0.0``): it
    compares and computes as the number, and prints as written (``str``), so a card shows what
    its designer typed; ``written`` holds that text."""

    written: str

    def __str__(self) -> str:
        return self.written


class WrittenInt(int):
    """As :class:`WrittenFloat`, for a whole number written otherwise than Python would (``-0``)."""

    written: str

    def __str__(self) -> str:
        return self.written


def written(value: Any) -> Any:
    """A cell's number as its text as written (``3.10`` stays ``3.10``); any other value as it is."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return value


def _typed(value: str) -> Any:
    """A JSON number for a cell that reads as one, else the text as written.  A number that
    Python would print otherwise than written keeps the text it was written as
    (:class:`WrittenFloat`, :class:`WrittenInt`)."""
    stripped = value.strip()
    if stripped[:1] in _NUMBER_START and _NUMBER.match(stripped):
        number: Any = float(stripped) if "." in stripped else int(stripped)
        if str(number) != stripped:
            number = (WrittenFloat if isinstance(number, float) else WrittenInt)(number)
            number.written = stripped
        return number
    return value


class _Unreadable(Exception):
    """A row the CSV reader cannot read, from its first ``line`` on; ``str()`` says why."""

    def __init__(self, line: int, reason: str):
        super().__init__(_CSV_HINTS.get(reason, reason))
        self.line = line


#: What Python's CSV reader's errors mean for a person who wrote the file.
_CSV_HINTS = {
    "unexpected end of data": 'a cell that starts with " never ends with one (a " inside a quoted cell is written "")',
    "',' expected after '\"'": 'a quoted cell goes on after its closing " (a " inside a quoted cell is written "")',
}


def _rows(text: str, delimiter: str = ","):
    """``(line, [cell, ...], first line's text)`` for each row: the 1-based line the row starts
    on, its cells, and the text of that line, where :func:`_columns` finds each cell's column.
    Lines end at CR LF, LF or CR, as the reader's own count has them.

    Raises:
        _Unreadable: a row the reader cannot read (a quote never closed), at the line it starts on.
    """
    lines = _LINE_END.split(text)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True, delimiter=delimiter)
    start = 1
    try:
        for row in reader:
            yield start, row, lines[start - 1] if start - 1 < len(lines) else ""
            start = reader.line_num + 1
    except csv.Error as exc:
        raise _Unreadable(start, str(exc)) from None


def _columns(raw: str, count: int, delimiter: str = ",") -> list[int]:
    """The 1-based column where each of ``count`` cells starts on the row's first line."""
    if '"' not in raw:  # no quoted cell: each cell starts after a separator
        cols, col = [1], 1
        for cell in raw.split(delimiter)[:-1]:
            col += len(cell) + 1
            cols.append(col)
    else:
        cols, in_quotes, col = [1], False, 1
        for ch in raw:
            col += 1
            if ch == '"':
                in_quotes = not in_quotes
            elif ch == delimiter and not in_quotes:
                cols.append(col)
    while len(cols) < count:
        cols.append(cols[-1])
    return cols[:count]

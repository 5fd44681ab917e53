"""Card files kept as spreadsheets (``.xlsx``), read with openpyxl into the same
:class:`~deckpress.generator.content.yamlsafe.Document` as any card file, ``{"cards": [...]}``.

The deck's ``sheet`` (or else the workbook's first sheet of cells, not a chart) holds the cards: its first row names the
fields, each further row is a card, a blank row is skipped.  A number cell is a number, a text
cell text (a number typed into a cell formatted as text stays text), a date its ISO text
(``2024-05-01``), TRUE/FALSE a yes/no value; an empty cell leaves its field out.

Untrusted input (``docs/security.md``): the file passes the gate (inside the game's folder, its
size checked before it is read); the zip's parts are measured before any is opened (at most
:data:`UNPACKED_FACTOR` times the file's limit unpacked, no document type declarations, which no
spreadsheet needs and which XML entity expansion rides on); the workbook is opened read-only; a
formula is read as the value the spreadsheet saved with it, never evaluated, and a formula saved
without one is refused.  Errors name the cell as spreadsheets do: ``cards.xlsx: Sheet1!C7``.
"""
from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
import zlib
from pathlib import Path
from typing import Any

from deckpress.generator.content import gate, safetext
from deckpress.generator.content.cardfiles import DEFAULT_LIMITS, CardLimits
from deckpress.generator.content.csvfile import FIELD_NAME
from deckpress.generator.content.errors import ContentError
from deckpress.generator.content.yamlsafe import Document

#: How much larger a spreadsheet's parts may be unpacked than the file's byte limit: XML packs
#: about tenfold in a zip.
UNPACKED_FACTOR = 10
#: How far into an XML part its first element must stand: what comes before it (the prolog) is
#: where a document type would be declared.
_PROLOG_BYTES = 65_536
_ROOT = re.compile(rb"<[A-Za-z_]")
#: Most columns of a card sheet.
MAX_COLUMNS = 1000
#: A spreadsheet's error values (``#DIV/0!``, ``#N/A``, ...): openpyxl's list, once it is imported.
ERROR_CODES: tuple[str, ...] = ()


def cell_name(row: int, column: int) -> str:
    """``(7, 3)`` as ``C7``: a cell's name in a spreadsheet (1-based row and column)."""
    letters = ""
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(65 + rest) + letters
    return f"{letters}{row}"


class SheetDocument(Document):
    """A card file read from a sheet: ``positions`` hold (row, column) of each cell, and errors
    name the cell (``cards.xlsx: Sheet1!C7: ...``) instead of a line and column."""

    sheet: str = ""

    def error(self, path, message: str, key: bool = False) -> ContentError:
        """As :meth:`Document.error`, at the cell: ``file: Sheet!C7: message``."""
        found = super().error(path, message, key)
        if found.path != (self.display or str(self.path)) or not found.line:
            return found  # a variant's part, in its own file
        return cell_error(self.display, self.sheet, found.line, found.column, message)


def cell_error(shown: str, sheet: str, row: int, column: int, message: str) -> ContentError:
    """An error at a cell: printed ``shown: Sheet!C7: message`` (a spreadsheet has no lines)."""
    return ContentError(shown, 0, 0, f"{safetext.excerpt(sheet, 40)}!{cell_name(row, column)}: {message}")


def load_xlsx(path: Path, shown: str, root: Path | None, limits: CardLimits = DEFAULT_LIMITS,
              sheet: str | None = None) -> tuple[Document | None, list[ContentError]]:
    """Read an ``.xlsx`` card file (see the module's notes).

    Returns:
        ``(document, [])`` or ``(None, errors)`` with every problem found, at its cell: a header
        that is not a field name or names a field twice, a formula without a saved value, an
        error value (``#DIV/0!``), refused characters, too many cards or columns.
    """
    try:
        raw = gate.read_bytes(Path(path), root, limits.max_bytes)
    except gate.GateError as exc:
        hint = f": {limits.raise_hint('megabytes')}" if "larger than" in str(exc) else ""
        return None, [ContentError(shown, 0, 0, f"file {exc}{hint}")]
    problem = _unsafe_zip(raw, limits.max_bytes * UNPACKED_FACTOR)
    if problem:
        return None, [ContentError(shown, 0, 0, problem)]
    import openpyxl  # read-only workbooks of spreadsheets as card files (MIT)

    global ERROR_CODES
    from openpyxl.cell.cell import ERROR_CODES

    try:
        workbook = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=False)
    except Exception as exc:  # noqa: BLE001 -- openpyxl raises many kinds for a damaged file; each is one line here
        return None, [ContentError(shown, 0, 0, f"is not a readable .xlsx spreadsheet ({type(exc).__name__}: {safetext.excerpt(str(exc), 120)}): "
                                                "save it again as 'Excel Workbook (.xlsx)'")]
    names = workbook.sheetnames
    if sheet is not None and sheet not in names:
        return None, [ContentError(shown, 0, 0, f"has no sheet '{safetext.excerpt(sheet, 40)}' ({safetext.choices(sheet, names)})")]
    if sheet is None and not workbook.worksheets:
        return None, [ContentError(shown, 0, 0, "has no sheet of cells (only charts)")]
    title = sheet if sheet is not None else workbook.worksheets[0].title  # the first sheet of cells
    if not hasattr(workbook[title], "iter_rows"):
        return None, [ContentError(shown, 0, 0, f"'{safetext.excerpt(title, 40)}' is a chart, not a sheet of cells: name the sheet of cards "
                                                f"in game.yaml (sheet: ...; sheets: {', '.join(safetext.excerpt(n, 30) for n in names[:8])})")]
    try:
        rows, formulas, errors = _read(workbook[title], shown, title, limits)
        workbook.close()
        if formulas and not errors:
            _cached(raw, title, formulas)
    except Exception as exc:  # noqa: BLE001 -- a damaged sheet's XML fails as it is read: one line, never a traceback
        return None, [ContentError(shown, 0, 0, f"sheet '{safetext.excerpt(title, 40)}' cannot be read ({type(exc).__name__}: "
                                                f"{safetext.excerpt(str(exc), 120)}): save the file again as 'Excel Workbook (.xlsx)'")]
    doc = SheetDocument(path=Path(path), data=None, display=shown)
    doc.sheet = title
    if errors:
        return None, errors
    return _records(doc, rows, formulas)


def _unsafe_zip(raw: bytes, max_unpacked: int) -> str | None:
    """Why the spreadsheet's zip must not be opened, or None: not a zip that can be read, parts
    larger unpacked than ``max_unpacked`` bytes in all, or a document type declaration in a part."""
    damaged = "is not a readable .xlsx spreadsheet (not a zip archive, or a damaged one): save it again as 'Excel Workbook (.xlsx)'"
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
        infos = archive.infolist()
        unpacked = sum(info.file_size for info in infos)
        if unpacked > max_unpacked:
            return f"unpacks to {unpacked:,} bytes, more than the limit of {max_unpacked:,} for a spreadsheet of this size"
        for info in infos:
            if info.filename.endswith((".xml", ".rels")):
                with archive.open(info) as part:
                    head = part.read(_PROLOG_BYTES)
                root = _ROOT.search(head)  # a declaration stands before the root element, where the prolog ends
                prolog = head[:root.start()] if root else head
                if b"<!DOCTYPE" in prolog or b"<!ENTITY" in prolog:
                    return f"its part {safetext.excerpt(info.filename, 60)} declares a document type, which no spreadsheet needs: refused"
                if root is None and len(head) == _PROLOG_BYTES:
                    return f"its part {safetext.excerpt(info.filename, 60)} has no element in its first {_PROLOG_BYTES:,} bytes: refused"
    except (zipfile.BadZipFile, zlib.error, OSError, ValueError, EOFError, NotImplementedError, RuntimeError):
        return damaged
    return None


def _read(ws, shown: str, title: str, limits: CardLimits):
    """``(rows, formulas, errors)``: each row as ``[(row number, [(column, value), ...])]`` (empty
    cells left out), the cells that hold a formula, and the errors of the sheet's shape."""
    rows: list[tuple[int, list[tuple[int, Any, str]]]] = []
    formulas: dict[tuple[int, int], Any] = {}
    errors: list[ContentError] = []
    for r, row in enumerate(ws.iter_rows(), 1):
        cells = []
        for c, cell in enumerate(row, 1):
            value = getattr(cell, "value", None)
            if value is None:
                continue
            if c > MAX_COLUMNS:
                errors.append(cell_error(shown, title, r, c, f"more than {MAX_COLUMNS} columns: a card's fields are at most {MAX_COLUMNS}"))
                return rows, formulas, errors
            if cell.data_type == "f":
                formulas[(r, c)] = None
            cells.append((c, value, cell.data_type))
        if cells:
            rows.append((r, cells))
            if len(rows) > limits.cards + 1:
                errors.append(cell_error(shown, title, r, 1, f"more than {limits.cards:,} cards in one sheet: {limits.raise_hint('cards')}"))
                return rows, formulas, errors
    return rows, formulas, errors


def _cached(raw: bytes, title: str, formulas: dict[tuple[int, int], Any]) -> None:
    """The values the spreadsheet saved with its formulas (None: saved without one), into ``formulas``."""
    import openpyxl

    workbook = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    last = max(r for r, _ in formulas)
    for r, row in enumerate(workbook[title].iter_rows(max_row=last), 1):
        for c, cell in enumerate(row, 1):
            if (r, c) in formulas:
                formulas[(r, c)] = getattr(cell, "value", None)
    workbook.close()


def _value(value: Any) -> Any:
    """A cell's value as card data: numbers and text as they are, a whole float as an integer
    (spreadsheets store every number as a float), a date or time as its ISO text."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2 ** 53:
        return int(value)
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(sep=" ")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return str(value)
    return value


def _records(doc: SheetDocument, rows, formulas) -> tuple[Document | None, list[ContentError]]:
    """The card file of a sheet's rows: the first names the fields, each further one is a card."""
    errors: list[ContentError] = []
    shown, title = doc.display, doc.sheet
    if not rows:
        return None, [cell_error(shown, title, 1, 1, "the sheet is empty: its first row must name the fields (for example id, title, text)")]
    header_row, header = rows[0]
    names: dict[int, str] = {}
    for c, value, _ in header:
        name = str(value).strip()
        if not FIELD_NAME.match(name):
            errors.append(cell_error(shown, title, header_row, c, f"column '{safetext.excerpt(name)}': a field name is letters, digits and _, "
                                                                  "starting with a letter (a layout names it as {field})"))
        elif name in names.values():
            errors.append(cell_error(shown, title, header_row, c, f"column '{name}' appears twice: each field once"))
        names[c] = name
    doc.positions[()] = (header_row, 1)
    doc.positions[("cards",)] = (header_row, 1)
    cards: list[dict[str, Any]] = []
    for r, cells in rows[1:]:
        i = len(cards)
        doc.positions[("cards", i)] = (r, 1)
        record: dict[str, Any] = {}
        for c, value, kind in cells:
            field_name = names.get(c)
            if field_name is None:
                errors.append(cell_error(shown, title, r, c, "a value in a column without a field name in the first row: name the column, or clear the cell"))
                continue
            name = field_name
            if kind == "f":
                value = formulas.get((r, c))
                if value is None:
                    errors.append(cell_error(shown, title, r, c, f"{name}: a formula saved without its value (deckpress never evaluates "
                                                                 "formulas): open the file in a spreadsheet and save it, or paste the values"))
                    continue
            if kind == "e" or kind == "f" and value in ERROR_CODES:
                errors.append(cell_error(shown, title, r, c, f"{name}: the cell holds the spreadsheet error {safetext.excerpt(value, 20)}"))
                continue
            value = _value(value)
            if isinstance(value, str):
                problem = safetext.refusal(value)
                if problem:
                    errors.append(cell_error(shown, title, r, c, f"{name}: {problem}"))
                    continue
                if not value.strip():
                    continue
            record[name] = value
            doc.positions[("cards", i, name)] = (r, c)
            doc.key_positions[("cards", i, name)] = (r, c)
        cards.append(record)
    doc.data = {"cards": cards}
    return (None, errors) if errors else (doc, [])

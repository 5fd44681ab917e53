"""Card files as designers have them: every format a deck's ``file`` may be, read into the same
:class:`~deckpress.generator.content.yamlsafe.Document` (``{"cards": [record, ...]}``), with every value's
place for error messages.

=================  =====================================================================
``.csv``, ``.tsv``  the first row names the fields, each further row is a card
                    (:mod:`deckpress.generator.content.csvfile`)
``.json``           a top-level list of cards, ``{"cards": [...]}``, or the records under the
                    deck's ``path`` (``data``, ``packs[*].white``: the cards of every
                    pack, each keeping its pack's own text and number fields, such as its
                    ``name``, where it has no field of that name); a plain text is a card
                    whose ``text`` it is; nested values stay nested (``{stats.attack}``)
``.yaml``, ``.yml`` as JSON: a top-level list, a ``cards`` list, or the records at ``path``
``.xlsx``           a spreadsheet: the deck's ``sheet`` or else the first; the first row names
                    the fields; errors name the cell (``cards.xlsx: Sheet1!C7``)
=================  =====================================================================

Untrusted input (``docs/security.md``): the size is checked before anything is read (the gate),
and the count of cards before they are built; JSON is strict (no ``NaN``, no duplicate keys,
numbers of at most 40 characters), nests at most :data:`MAX_DEPTH` levels and holds no control
characters; a spreadsheet's formulas are read as the value the spreadsheet saved with them, or
refused, never evaluated; a spreadsheet's compressed parts are measured before they are opened.

Limits: :class:`CardLimits`, whose defaults fit a whole published card database, and which a
game raises for one deck in ``game.yaml`` (``limits: {megabytes: 200, cards: 200000}``), up to
hard caps.
"""
from __future__ import annotations

import json
import math
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deckpress.generator.content import gate, safetext
from deckpress.generator.content.errors import ContentError
from deckpress.generator.content.yamlsafe import Document, dotted, load_yaml

#: Deepest nesting of a card file (as :data:`deckpress.generator.content.yamlsafe.MAX_DEPTH`).
MAX_DEPTH = 32
#: The longest number JSON may write (as YAML's): longer digit strings are errors, never 4,300-digit integers.
MAX_NUMBER_CHARS = 40
#: The formats, by the file's suffix.
FORMATS = {".csv": "CSV", ".tsv": "TSV", ".json": "JSON", ".yaml": "YAML", ".yml": "YAML", ".xlsx": "a spreadsheet"}


@dataclass(frozen=True)
class CardLimits:
    """How large one deck's card file may be: ``megabytes`` (MB, 10^6 bytes, of the file as it is
    stored) and ``cards`` (records).  The defaults fit a whole published card database (tens of MB,
    tens of thousands of cards); a game raises them for a deck in ``game.yaml``
    (``limits: {megabytes: 200, cards: 200000}``) up to :data:`HARD_MEGABYTES` and
    :data:`HARD_CARDS`."""

    megabytes: int = 64
    cards: int = 50_000

    @property
    def max_bytes(self) -> int:
        """The file's byte limit."""
        return self.megabytes * 1_000_000

    @property
    def max_values(self) -> int:
        """Most values (records, fields and nested values) in a JSON or YAML card file: 100 a card."""
        return self.cards * 100

    @classmethod
    def of(cls, deck: dict) -> CardLimits:
        """The limits a deck of ``game.yaml`` sets (its schema bounds them), else the defaults."""
        own = deck.get("limits", {})
        return cls(own.get("megabytes", cls.megabytes), own.get("cards", cls.cards))

    def raise_hint(self, what: str) -> str:
        """How to raise the limit named by ``what`` (``"megabytes"`` or ``"cards"``) in game.yaml."""
        now = {"megabytes": self.megabytes, "cards": self.cards}
        return f"raise it for this deck in game.yaml: limits: {{{what}: {now[what] * 4}}}"


#: The limits of a deck that sets none.
DEFAULT_LIMITS = CardLimits()
#: The highest limits a game may set: the memory a card file takes grows with it.
HARD_MEGABYTES = 1000
HARD_CARDS = 1_000_000


def load_card_file(path: Path, shown: str, root: Path | None, deck: dict) -> tuple[Document | None, list[ContentError]]:
    """Read the card file ``path`` of ``deck`` (a deck of ``game.yaml``: its ``path``, ``sheet``
    and ``limits``) by its suffix, through the gate (inside ``root``, size checked first).

    Returns:
        ``(document, [])`` whose ``data`` is ``{"cards": [...]}``, or ``(None, errors)`` with every
        problem found, each at its line and column (a spreadsheet's at its cell).

    Raises:
        ValueError: a suffix that is not in :data:`FORMATS` (the caller checks it first).
    """
    from deckpress.generator.content.csvfile import load_csv

    limits = CardLimits.of(deck)
    suffix = path.suffix.lower()
    if suffix in (".csv", ".tsv"):
        doc, errors = load_csv(path, shown, root, limits.max_bytes, delimiter="\t" if suffix == ".tsv" else ",", max_rows=limits.cards,
                               hint=limits.raise_hint("cards"))
        return doc, [_with_hint(e, limits) if "is larger than" in e.message else e for e in errors]
    if suffix == ".xlsx":
        from deckpress.generator.content.spreadsheet import load_xlsx

        return load_xlsx(path, shown, root, limits, deck.get("sheet"))
    if suffix == ".json":
        doc, errors = load_json(path, shown, root, limits)
    elif suffix in (".yaml", ".yml"):
        doc, errors = _load_yaml_cards(path, shown, root, limits)
    else:
        raise ValueError(f"not a card file: {path.name}")
    if doc is None:
        return None, errors
    return records_at(doc, deck.get("path"), limits)


#: The largest YAML card file: YAML is read about a hundred times more slowly than JSON, and its
#: parse tree takes some 50 bytes of memory for each byte of the file (a 6 MB file: 9 s, 300 MB).
#: A card database that large is kept as JSON or CSV.
YAML_MAX_BYTES = 16_000_000
#: Past this size, a YAML card file's values are counted on the event stream (nothing built)
#: before its tree is built.
_YAML_COUNT_FROM = 2_000_000


def _load_yaml_cards(path: Path, shown: str, root: Path | None, limits: CardLimits) -> tuple[Document | None, list[ContentError]]:
    """A YAML card file, through :func:`deckpress.generator.content.yamlsafe.load_yaml` with the deck's
    limits (at most :data:`YAML_MAX_BYTES`); a large file's values are counted before its tree is built."""
    max_bytes = min(limits.max_bytes, YAML_MAX_BYTES)
    try:
        size = gate.inside(Path(path), root).stat().st_size if root is not None else Path(path).stat().st_size
    except (gate.GateError, OSError):
        size = 0  # load_yaml says why it cannot read it
    if size > max_bytes:
        more = (f": {limits.raise_hint('megabytes')}" if max_bytes == limits.max_bytes else
                " for a YAML card file, which is slow to read: save the cards as JSON or CSV")
        return None, [ContentError(shown, 0, 0, f"file is larger than {max_bytes // 1_000_000} MB ({size:,} bytes){more}")]
    if size > _YAML_COUNT_FROM:
        count = _yaml_values(path, limits.max_values)
        if count > limits.max_values:
            return None, [ContentError(shown, 0, 0, f"more than {limits.max_values:,} values in one file: {limits.raise_hint('cards')}")]
    doc, errors = load_yaml(path, shown, root=root, max_bytes=max_bytes, max_nodes=limits.max_values)
    return doc, [_with_hint(e, limits) for e in errors]


def _yaml_values(path: Path, most: int) -> int:
    """The values (scalars, lists, mappings) of a YAML file, counted on its event stream up to
    ``most + 1``; 0 when it cannot be parsed (the loader then says why)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    count = 0
    try:
        with open(path, encoding="utf-8-sig") as stream:
            for event in yaml.parse(stream, Loader=loader):
                if isinstance(event, (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                    count += 1
                    if count > most:
                        break
    except (yaml.YAMLError, UnicodeDecodeError, OSError):
        return 0
    return count


def _json_values(text: str, most: int) -> int:
    """At most how many values a JSON text holds, counted without parsing it: its commas and
    opening brackets outside strings, plus one (a quick count that takes those in strings too
    when that is no more than ``most``)."""
    rough = text.count(",") + text.count("[") + text.count("{") + 1
    if rough <= most:
        return rough
    bare = _STRING.sub('""', text)  # commas and brackets inside strings are none of its values'
    return bare.count(",") + bare.count("[") + bare.count("{") + 1


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _with_hint(error: ContentError, limits: CardLimits) -> ContentError:
    """A limit's error with how to raise it."""
    for phrase, what in (("is larger than", "megabytes"), ("values in one file", "cards")):
        if phrase in error.message:
            return ContentError(error.path, error.line, error.column, f"{error.message}: {limits.raise_hint(what)}")
    return error


# ---------------------------------------------------------------------------------------------
# Records under a path


_STEP = re.compile(r"\[\*\]|[^.\[\]]+")


def parse_path(text: str) -> list[str] | None:
    """``packs[*].white`` as ``["packs", "*", "white"]``: keys and ``[*]`` (every item of a list);
    None when ``text`` is not such a path."""
    if not re.fullmatch(r"(?:\[\*\]|[^.\[\]]+)(?:\.[^.\[\]]+|\[\*\])*", text):
        return None
    return ["*" if step == "[*]" else step for step in _STEP.findall(text)]


def records_at(doc: Document, path: str | None, limits: CardLimits = DEFAULT_LIMITS) -> tuple[Document | None, list[ContentError]]:
    """``doc`` as a card file, ``{"cards": [...]}``: the records under ``path`` (see
    :func:`parse_path`), or with no path, the file's top-level list or its ``cards`` list.  Under
    ``[*]``, a card keeps the text, number and yes/no fields of the item it is found in (a pack's
    ``name``) that it has no field of the same name for; a record that is a plain text or number
    is a card whose ``text`` it is.  The records' places are kept (``("cards", 3, "cost")`` is where the fourth record's ``cost`` stands
    in the file).  A file whose records are not where the path says is one error at its top, naming
    the keys it has."""
    data = doc.data
    if path is None:
        if isinstance(data, dict) and "cards" in data:
            return doc, []  # the shape deckpress has always read: the card-file schema checks the rest
        if isinstance(data, list):
            steps: list[str] = []
        else:
            keys = [k for k, v in data.items() if isinstance(v, list)] if isinstance(data, dict) else []
            hint = f"name the one that holds the cards in game.yaml, for example path: {keys[0]}" if keys else \
                "a card file is a list of cards, or an object with a list of them"
            return None, [doc.error((), f"the cards are not at the top of the file nor in a 'cards' list: {hint}"
                                        + (f" (lists here: {', '.join(safetext.excerpt(k, 30) for k in keys[:8])})" if keys else ""))]
    else:
        steps = parse_path(path) or []
    # each place found, with the fields its cards inherit: {name: path of the value}
    found: list[tuple[tuple, Any, dict[str, tuple]]] = [((), data, {})]
    for n, step in enumerate(steps):
        following = []
        for at, value, inherited in found:
            if step == "*":
                if isinstance(value, list):
                    following += [(at + (i,), item, {**inherited, **_scalars(item, at + (i,))}) for i, item in enumerate(value)]
                    continue
            elif isinstance(value, dict) and step in value:
                following.append((at + (step,), value[step], inherited))
                continue
            shown = "".join(f"[{s}]" if s == "*" else f".{s}" for s in steps[:n + 1]).lstrip(".")
            have = f" (keys here: {', '.join(safetext.excerpt(k, 30) for k in list(value)[:8])})" if isinstance(value, dict) else \
                f" (here is a {type(value).__name__ if not isinstance(value, list) else 'list'})"
            return None, [doc.error(at, f"path '{safetext.excerpt(path)}': nothing at {shown}{have}")]
        found = following
    origins: list[tuple] = []
    cards: list[Any] = []
    kept: dict[int, dict[str, tuple]] = {}  # by card: the fields it inherits and where they stand
    for at, value, inherited in found:
        if not isinstance(value, list):
            return None, [doc.error(at, f"path '{safetext.excerpt(path or '')}' leads to a {type(value).__name__}, not a list of cards")]
        for i, record in enumerate(value):
            if isinstance(record, (str, int, float)) and not isinstance(record, bool):
                record = {"text": record}  # a list of plain texts (a party game's answers): each is a card's text
                kept.setdefault(len(cards), {})["text"] = at + (i,)
            if inherited and isinstance(record, dict):
                own = {k: where for k, where in inherited.items() if k not in record}
                if own:
                    kept.setdefault(len(cards), {}).update(own)
                    record = {**{k: _at(data, where) for k, where in own.items()}, **record}
            origins.append(at + (i,))
            cards.append(record)
    if len(cards) > limits.cards:
        return None, [doc.error(origins[limits.cards], f"more than {limits.cards:,} cards in one file: {limits.raise_hint('cards')}")]
    first_list = origins[0][:-1] if origins else ()
    out = Document(path=doc.path, data={"cards": cards}, display=doc.display, first_line=doc.first_line)
    out.positions, out.key_positions = _remapped(doc, origins, first_list, kept)
    return out, []


def _scalars(item: Any, at: tuple) -> dict[str, tuple]:
    """The fields of a list's item (an object) that its cards inherit: its text, numbers and
    yes/no values (a pack's ``name``), each with its path."""
    if not isinstance(item, dict):
        return {}
    return {k: at + (k,) for k, v in item.items() if isinstance(v, (str, int, float, bool))}


def _at(data: Any, path: tuple) -> Any:
    for part in path:
        data = data[part]
    return data


def _remapped(doc: Document, origins: list[tuple], first_list: tuple, kept: dict[int, dict[str, tuple]]):
    """The positions of ``doc`` under the paths of a card file: ``origins[i]`` is where record
    ``i`` stands in ``doc``, ``kept[i]`` where the fields it inherits stand; computed when first
    asked for (a valid file never asks)."""
    index = {at: i for i, at in enumerate(origins)}
    lengths = sorted({len(at) for at in origins})

    def remap(table: dict) -> dict:
        out: dict[tuple, tuple[int, int]] = {(): doc.positions.get((), (1, 1)), ("cards",): doc.positions.get(first_list, (1, 1))}
        for p, where in table.items():
            for length in lengths:
                i = index.get(p[:length])
                if i is not None:
                    out[("cards", i, *p[length:])] = where
                    break
        for i, fields in kept.items():
            for name, at in fields.items():
                if at in table:
                    out[("cards", i, name)] = table[at]
        return out

    return LazyTable(lambda: remap(doc.positions)), LazyTable(lambda: remap(doc.key_positions))


class LazyTable(MutableMapping):
    """A ``{path: (line, column)}`` table filled by ``fill()`` when first read: working out every
    value's place in a large card file costs seconds, and only an error needs one."""

    def __init__(self, fill: Callable[[], dict]):
        self._fill: Callable[[], dict] | None = fill
        self._table: dict = {}

    @property
    def table(self) -> dict:
        """The filled table."""
        if self._fill is not None:
            fill, self._fill = self._fill, None
            self._table = fill()
        return self._table

    def __getitem__(self, key):
        return self.table[key]

    def __setitem__(self, key, value) -> None:
        self.table[key] = value

    def __delitem__(self, key) -> None:
        del self.table[key]

    def __iter__(self) -> Iterator:
        return iter(self.table)

    def __len__(self) -> int:
        return len(self.table)

    def __contains__(self, key) -> bool:
        return key in self.table

    # the filled dict's own views: a large table is read whole when a file's columns are looked
    # for (schema.validate_items), and the Mapping mixins would look each key up again
    def keys(self):
        return self.table.keys()

    def items(self):
        return self.table.items()

    def values(self):
        return self.table.values()


# ---------------------------------------------------------------------------------------------
# JSON


class _NumberRefused(Exception):
    def __init__(self, text: str, message: str):
        super().__init__(message)
        self.text = text


def _int(text: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:
        raise _NumberRefused(text, f"a number of {len(text)} characters is too long (at most {MAX_NUMBER_CHARS})")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise _NumberRefused(text, f"a number of {len(text)} characters is too long (at most {MAX_NUMBER_CHARS})")
    number = float(text)
    if math.isinf(number):
        raise _NumberRefused(text, f"{text} is too large a number (at most about 1.8e308)")
    return number


def _constant(name: str):
    raise _NumberRefused(name, f"{name} is not a JSON number: JSON numbers are finite")


#: Escapes of a refused character (a control character, a bidirectional control) in JSON text:
#: where none stands, and no refused character stands raw, no string needs looking at.
_REFUSED_ESCAPE = re.compile(r"\\u(?:00[01][0-9a-fA-F]|00[78][0-9a-fA-F]|009[0-9a-fA-F]|202[a-eA-E]|206[6-9])")


def load_json(path: Path, shown: str, root: Path | None, limits: CardLimits = DEFAULT_LIMITS,
              text: str | None = None) -> tuple[Document | None, list[ContentError]]:
    """Read a JSON card file strictly: RFC 8259 JSON (no ``NaN`` or ``Infinity``), each key once
    in an object, numbers of at most :data:`MAX_NUMBER_CHARS` characters and finite, nesting at most
    :data:`MAX_DEPTH` deep, at most ``limits.max_values`` values, no control character or
    bidirectional control in a key or a string.  Parsed by Python's :mod:`json` (its C parser);
    the place of every value is worked out only when an error needs one.

    Returns:
        ``(document, [])`` or ``(None, errors)``, each at its line and column.
    """
    if text is None:
        try:
            text = gate.read_text(Path(path), root, limits.max_bytes)
        except gate.GateError as exc:
            hint = f": {limits.raise_hint('megabytes')}" if "larger than" in str(exc) else ""
            return None, [ContentError(shown, exc.line, exc.column, f"file {exc}{hint}")]
    doc = Document(path=Path(path), data=None, display=shown, first_line=text.split("\n", 1)[0])
    duplicated: list[bool] = []

    def pairs(items: list[tuple[str, Any]]) -> dict:
        out = dict(items)
        if len(out) != len(items):
            duplicated.append(True)
        return out

    if _json_values(text, limits.max_values) > limits.max_values:  # counted before anything is built
        return None, [ContentError(shown, 0, 0, f"more than {limits.max_values:,} values in one file: {limits.raise_hint('cards')}")]
    try:
        doc.data = json.loads(text, object_pairs_hook=pairs, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        return None, [ContentError(shown, exc.lineno, exc.colno, f"not valid JSON: {_json_hint(exc.msg)}")]
    except _NumberRefused as exc:
        line, col = _line_col(text, text.find(exc.text))
        return None, [ContentError(shown, line, col, str(exc))]
    except RecursionError:
        return None, [ContentError(shown, 0, 0, f"nesting is deeper than the limit of {MAX_DEPTH} levels")]
    positions = _JsonPositions(text)
    doc.positions = LazyTable(lambda: positions.table()[0])  # type: ignore[assignment]
    doc.key_positions = LazyTable(lambda: positions.table()[1])  # type: ignore[assignment]
    problems = _walk(doc.data, limits.max_values, bool(safetext._REFUSED.search(text) or _REFUSED_ESCAPE.search(text)))
    errors = [doc.error(at, message, key) for at, message, key in problems]
    if len(problems) == 1 and problems[0][1].startswith("more than"):
        errors = [ContentError(shown, 0, 0, f"{problems[0][1]}: {limits.raise_hint('cards')}")]
    if duplicated:
        errors += [ContentError(shown, line, col, f"{dotted(at)}: duplicate key '{safetext.excerpt(at[-1], 40)}' (first defined on line "
                                                  f"{first}): each key may appear once")
                   for at, (line, col), first in positions.table()[2]]
    return (None, errors) if errors else (doc, [])


def _json_hint(message: str) -> str:
    """Python's JSON message, with what a person who wrote the file can do about it."""
    hints = {"Expecting property name enclosed in double quotes": "a key in double quotes, or a comma too many before '}'",
             "Expecting value": "a value (a comma too many before ']' or '}', or a quote that is not \")",
             "Extra data": "text after the end of the JSON value (two values in one file, or a bracket too many)",
             "Invalid control character at": "a raw control character (a tab or a line break) inside a string: write it as \\t or \\n"}
    return next((f"{message.lower()}: expected {hint}" for start, hint in hints.items() if message.startswith(start)), message)


def _walk(data: Any, max_values: int, strings: bool) -> list[tuple[tuple, str, bool]]:
    """``(path, message, at_key)`` of every value past the depth limit or the count of values, and,
    when ``strings``, every key and string that holds a refused character."""
    problems: list[tuple[tuple, str, bool]] = []
    count = 0
    stack: list[tuple[tuple, Any]] = [((), data)]
    while stack:
        at, value = stack.pop()
        count += 1
        if count > max_values:
            return [((), f"more than {max_values:,} values in one file", False)]
        if isinstance(value, dict):
            if len(at) >= MAX_DEPTH:
                problems.append((at, f"nesting is deeper than the limit of {MAX_DEPTH} levels", False))
                continue
            for key, item in value.items():
                if strings and safetext._REFUSED.search(key):
                    problems.append((at + (key,), f"{dotted(at + (key,))}: {safetext.refusal(key)}", True))
                stack.append((at + (key,), item))
        elif isinstance(value, list):
            if len(at) >= MAX_DEPTH:
                problems.append((at, f"nesting is deeper than the limit of {MAX_DEPTH} levels", False))
                continue
            stack += [(at + (i,), item) for i, item in enumerate(value)]
        elif strings and isinstance(value, str) and safetext._REFUSED.search(value):
            problems.append((at, f"{dotted(at)}: {safetext.refusal(value)}", False))
    return problems


def _line_col(text: str, offset: int) -> tuple[int, int]:
    offset = max(offset, 0)
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


#: A JSON token after any white space: a string, a bracket or separator, or a number or literal.
_TOKEN = re.compile(r'[ \t\r\n]*(?:("(?:[^"\\]|\\.)*")|([{}\[\],:])|([^ \t\r\n{}\[\],:"]+))')


class _JsonPositions:
    """Where every value and key of a JSON text (already parsed without error) stands: one pass
    over its tokens, made when first asked for."""

    def __init__(self, text: str):
        self.text = text
        self._table: tuple[dict, dict, list] | None = None

    def table(self) -> tuple[dict, dict, list]:
        """``(positions, key_positions, duplicates)``: ``{path: (line, column)}`` of every value and
        every key, and ``(path, (line, column), first line)`` of every key written twice in one object."""
        if self._table is None:
            self._table = self._scan()
        return self._table

    def _scan(self) -> tuple[dict, dict, list]:
        text = self.text
        breaks = [m.start() for m in re.finditer("\n", text)]

        def place(offset: int) -> tuple[int, int]:
            line = bisect_right(breaks, offset - 1)
            return line + 1, offset - (breaks[line - 1] + 1 if line else 0) + 1

        positions: dict = {}
        keys: dict = {}
        duplicates: list = []
        stack: list[list] = []  # [is_object, path, next index or current key, {key: first line}]
        expect = "value"
        for m in _TOKEN.finditer(text):
            string, mark = m.group(1), m.group(2)
            offset = m.start(1 if string else 2 if mark else 3)
            if expect == "key":
                if mark == "}":
                    stack.pop()
                    expect = "next"
                    continue
                frame = stack[-1]
                key = json.loads(string)
                at = frame[1] + (key,)
                where = place(offset)
                if key in frame[3]:
                    duplicates.append((at, where, frame[3][key]))
                else:
                    frame[3][key] = where[0]
                    keys[at] = where
                frame[2] = key
                expect = "colon"
            elif expect == "colon":
                expect = "value"
            elif expect == "next":
                if mark == ",":
                    expect = "key" if stack[-1][0] else "value"
                else:
                    stack.pop()
            else:  # a value
                if mark == "]":  # an empty list
                    stack.pop()
                    expect = "next"
                    continue
                if not stack:
                    at = ()
                else:
                    at = stack[-1][1] + (stack[-1][2],)
                    if not stack[-1][0]:
                        stack[-1][2] += 1
                if at not in positions:  # a key written twice: its first value's place, as its key's
                    positions[at] = place(offset)
                if mark == "{":
                    stack.append([True, at, None, {}])
                    expect = "key"
                elif mark == "[":
                    stack.append([False, at, 0, {}])
                    expect = "value"
                else:
                    expect = "next"
        return positions, keys, duplicates

"""A starter game made from a card file a designer already has (``deckpress init NAME --from
FILE``): the fields its cards hold and their types, a JSON Schema for one card that says what
was found (for the designer to tighten), and a layout that places every field, so that the
first build shows all the data.

The layout is a plain list: the card's name (its ``name`` or ``title`` field, else the first
text field) in bold at the top, then one line per field, ``field: {field}`` (two short fields to
a line), each box as tall as the field's longest value needs (text shrinks to fit, down to :data:`MIN_FONT_PT`).  A field some
cards lack is shown only on the cards that have it (``when``); a yes/no field prints its name on
the cards where it is true; a list or a group of fields has no printed form and is named in a
comment of ``layout.yaml`` instead (a ``rows`` element prints a list, ``{group.part}`` a part).
"""
from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

#: A field a layout's ``{field}`` can name.
PLACEABLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: The card the starter layout is drawn for: poker size, mm.
CARD_MM = (63.0, 88.0)
#: Margin inside the trim, mm (the safe area).
MARGIN_MM = 4.0
#: The smallest text of the starter layout, pt: small, but every value is on the card.
MIN_FONT_PT = 1.5
#: A field whose values are at most this many characters long is placed two to a line.
SHORT_CHARS = 24
#: JSON Schema's type of a value.
_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (list, "array"), (dict, "object"))


@dataclass
class Field:
    """What the cards hold under one field name: its JSON Schema types, how many cards have it
    (not null), and the longest value's printed length in characters."""

    name: str
    types: Counter = field(default_factory=Counter)
    present: int = 0
    longest: int = 0
    nulls: int = 0
    parts: list[str] = field(default_factory=list)  # a group's field names, for the layout's note
    values: set = field(default_factory=set)  # its distinct texts and numbers

    @property
    def printable(self) -> bool:
        """Text or numbers only: what a ``{field}`` prints."""
        return bool(self.types) and set(self.types) <= {"string", "integer", "number"}

    @property
    def schema_type(self) -> str | list[str]:
        """The JSON Schema type of the values found (``integer`` and ``number`` together are ``number``;
        ``null`` where some card holds null)."""
        kinds = sorted(self.types) + (["null"] if self.nulls else [])
        if "integer" in kinds and "number" in kinds:
            kinds.remove("integer")
        return kinds[0] if len(kinds) == 1 else kinds


def survey(cards: list[dict[str, Any]]) -> list[Field]:
    """The fields of ``cards`` (card records) in the order they first appear, with their types."""
    fields: dict[str, Field] = {}
    for card in cards:
        for name, value in card.items():
            f = fields.setdefault(name, Field(name))
            if value is None:
                f.nulls += 1
                continue
            kind = next(t for cls, t in _TYPES if isinstance(value, cls))
            if kind == "object":
                f.parts += [k for k in value if k not in f.parts and PLACEABLE.match(k)][:8 - len(f.parts)]
            f.types[kind] += 1
            f.present += 1
            if kind in ("string", "integer", "number"):
                f.longest = max(f.longest, len(str(value)))
                f.values.add(value)
    return list(fields.values())


def card_schema(fields: list[Field], cards: int, deck: str, file: str) -> dict:
    """A JSON Schema (draft 2020-12) for one card: each field's types as found; ``required`` the
    fields every card has."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"One card of the deck '{deck}' (a record of {file})",
        "description": f"Written by deckpress init --from from the {cards:,} cards of {file}: the types found. Tighten it: "
                       "enum for a field of a few values, minimum and maximum for numbers, maxLength for text.",
        "type": "object",
        "properties": {f.name: {"type": f.schema_type} for f in fields if f.types or f.nulls},
        "required": [f.name for f in fields if f.present == cards and f.types],
    }


def title_field(fields: list[Field]) -> Field | None:
    """The field printed as the card's name: ``name``, ``title`` (any case), else the first text
    field; one that tells cards apart (a pack's name that every card of the pack keeps does not)."""
    present = max((f.present for f in fields), default=0)
    texts = [f for f in fields if f.printable and PLACEABLE.match(f.name) and "string" in f.types and len(f.values) * 2 >= present]
    for wanted in ("name", "title", "card_name", "cardname"):
        found = next((f for f in texts if f.name.lower() == wanted), None)
        if found:
            return found
    return texts[0] if texts else None


def layout_yaml(fields: list[Field], cards: int, kind: str, back_text: str) -> str:
    """The text of a ``layout.yaml`` whose card kind ``kind`` places every field of ``fields``
    (see the module's notes) on a poker card, with a plain back that prints ``back_text``."""
    w, h = CARD_MM
    inner = w - 2 * MARGIN_MM
    head = title_field(fields)
    body = [f for f in fields if f is not head and PLACEABLE.match(f.name) and (f.printable or set(f.types) == {"boolean"})]
    left_out = [f for f in fields if f is not head and f not in body]
    lines = [
        "# yaml-language-server: $schema=.schemas/layout.schema.json",
        "# Written by deckpress init --from: every field on the card, to see all the data at the first build.",
        "# Then make it a card: move, size and drop elements; millimetres from the trim's top-left corner.",
    ]
    if left_out:
        lines.append("# Not placed (no printed form as they are): " + ", ".join(
            f"{f.name} ({_kind_words(f)})" for f in left_out) + ".")
    lines += ["palette:", '  ink: "#1b1b1b"', '  paper: "#ffffff"', '  line: "#9a9a9a"', '  back: "#2e294e"', "cards:", f"  {kind}:",
              f"    trim: {{width_mm: {w:g}, height_mm: {h:g}}}", "    card_size: poker", "    bleed_mm: 3", f"    safe_mm: {MARGIN_MM:g}",
              "    face:", f"      - {{type: rect, x_mm: 0, y_mm: 0, w_mm: {w:g}, h_mm: {h:g}, fill: paper, bleed: true}}"]
    y = MARGIN_MM
    if head is not None:
        tall = round(min(30.0, max(8.0, 8 * (head.longest / 40) ** 0.5)), 1)  # a long name (a party game's card text) gets room
        lines.append(f"      - {_text(head, MARGIN_MM, y, inner, tall, 12, 'bold', cards, label=False)}")
        y += tall + 1
        lines.append(f"      - {{type: line, x1_mm: {MARGIN_MM:g}, y1_mm: {y - 0.5:g}, x2_mm: {w - MARGIN_MM:g}, y2_mm: {y - 0.5:g}, stroke: line, stroke_pt: 0.5}}")
    room = h - MARGIN_MM - y - 1  # 1 mm to spare above the safe area's edge
    short = [f for f in body if f.longest <= SHORT_CHARS]
    rows = [short[i:i + 2] for i in range(0, len(short), 2)] + [[f] for f in body if f not in short]  # short fields two a row
    weights = [max(1.0, max(f.longest for f in row) * len(row) / 30) ** 0.8 for row in rows]
    total = sum(weights) or 1
    for row, weight in zip(rows, weights):
        height = math.floor(room * weight / total * 10) / 10  # rounded down: the boxes never pass the safe area
        width = inner if len(row) == 1 else (inner - 2) / 2
        for k, f in enumerate(row):
            lines.append(f"      - {_text(f, MARGIN_MM + k * (width + 2), round(y, 2), width, height, 8, 'regular', cards)}")
        y += height
    lines += ["    back:", f"      - {{type: rect, x_mm: 0, y_mm: 0, w_mm: {w:g}, h_mm: {h:g}, fill: back, bleed: true}}",
              (f"      - {{type: text, x_mm: 6, y_mm: 38, w_mm: {w - 12:g}, h_mm: 12, text: {json.dumps(back_text, ensure_ascii=False)}, "
               "font: bold, font_pt: 20, min_font_pt: 6, align: center, colour: paper}")]
    return "\n".join(lines) + "\n"


def _kind_words(f: Field) -> str:
    if not f.types:
        return "always empty"
    if not PLACEABLE.match(f.name):
        return "a name a layout cannot write as {field}: rename the column or key"
    words = {"array": "a list: print it with a rows element", "boolean": "yes/no values",
             "object": "a group of fields: print its parts by name, " + ", ".join(f"{{{f.name}.{part}}}" for part in f.parts)}
    return " or ".join(words.get(t, t) for t in sorted(f.types))


#: A tag in a text value: ``<b>``, ``</i>``, ``<br/>``.
_TAG = re.compile(r"<\s*/?\s*([A-Za-z][A-Za-z0-9]*)[^<>]*>")
#: The tags ``markup: html`` draws (docs/rich-text.md), which a starter layout turns on for.
_DRAWN_TAGS = {"b", "strong", "i", "em", "br", "hr"}


def _html(f: Field) -> bool:
    """Whether ``f``'s texts hold the simple HTML of published card data (``<b>``, ``<i>``,
    ``<br>``, ``<hr>``) and no other tag: then its element reads them with ``markup: html``."""
    tags = {m.lower() for v in f.values if isinstance(v, str) for m in _TAG.findall(v)}
    return bool(tags) and tags <= _DRAWN_TAGS


def _text(f: Field, x: float, y: float, w: float, h: float, font_pt: float, font: str, cards: int, label: bool = True) -> str:
    """One text element for field ``f`` as a YAML flow mapping."""
    if set(f.types) == {"boolean"}:
        text = f.name  # printed where true
    else:
        text = f"{f.name}: {{{f.name}}}" if label else f"{{{f.name}}}"
    when = f", when: {f.name}" if f.present < cards or set(f.types) == {"boolean"} else ""
    when += ", markup: html" if _html(f) else ""
    return (f"{{type: text, x_mm: {x:g}, y_mm: {y:g}, w_mm: {w:g}, h_mm: {h:g}, text: {json.dumps(text, ensure_ascii=False)}, "
            f"font: {font}, font_pt: {font_pt:g}, min_font_pt: {MIN_FONT_PT:g}, wrap: true, align: left, valign: top, colour: ink{when}}}")

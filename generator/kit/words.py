"""The words every kit prints around the cards, whatever the game: the sheets' labels, the notes
on blank backs, fold-over sheets, tuck boxes and board tiles, the cover's shared headings and
facts (players, ages, sizes).  Each is a :class:`Phrase`: one whole sentence or label with
``{placeholders}``, translated as one entry of a game's catalogue (``kit/...`` contexts, see
:mod:`deckpress.generator.kit.translation`), so that a translator never assembles a sentence
from pieces.  :data:`PHRASES` lists them all, which is how ``deckpress translate extract``
finds them without building a kit with every option.

The game-specific sentences of each cover are with that game's adapter
(:mod:`deckpress.generator.kit.adapters`), and the "How to print" paragraphs in the template
``generator/templates/how-to-print.txt.j2``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from deckpress.generator.kit.translation import number, tr


@dataclass(frozen=True)
class Phrase:
    """A text the kit composes: ``phrase(name=value, ...)`` is it in the language being built,
    its placeholders filled (:func:`deckpress.generator.kit.translation.tr`).

    Attributes:
        context: the catalogue's ``msgctxt`` (``kit/sheet/faces``).
        source: the English text, with ``{placeholders}``.
        comment: what and where it is, for the translator.
    """

    context: str
    source: str
    comment: str

    def __call__(self, **values: Any) -> str:
        return tr(self.context, self.source, self.comment, **values)


#: Every phrase of this module, in the order a catalogue lists them.
PHRASES: list[Phrase] = []


def _phrase(context: str, source: str, comment: str) -> Phrase:
    phrase = Phrase(context, source, comment)
    PHRASES.append(phrase)
    return phrase


# --- the sheets ---------------------------------------------------------------------------------
SHEET_FACES = _phrase("kit/sheet/faces", "{deck} · {sheet}/{sheets} · faces",
                      "the label under a sheet of card faces: the deck's name, which sheet of how many")
SHEET_BACKS_LONG = _phrase("kit/sheet/backs-long", "{deck} · {sheet}/{sheets} · backs (long edge)",
                           "the label under a sheet of card backs, printed double-sided flipping on the long edge")
SHEET_BACKS_SHORT = _phrase("kit/sheet/backs-short", "{deck} · {sheet}/{sheets} · backs (short edge, turned 180°)",
                            "the label under a sheet of card backs, printed double-sided flipping on the short edge")
SHEET_FOLD = _phrase("kit/sheet/fold-over", "{deck} · {sheet}/{sheets} · fold on the dashed line, glue, then cut",
                     "the label under a fold-over sheet (each face beside its back)")
FOLD = _phrase("kit/sheet/fold", "fold", "printed at both ends of a fold-over sheet's dashed fold line (a few letters)")
BLANK_BACK = _phrase("kit/sheet/blank-back",
                     "(back of the previous page: left blank so that each sheet of faces and its backs print on one sheet)",
                     "printed on a page left blank in a double-sided kit")
TUCK_BOX_CARDS = _phrase("kit/tuck-box/cards", "{n} cards", "on a tuck box: how many cards it holds (more than one)")
TUCK_BOX_ONE_CARD = _phrase("kit/tuck-box/one-card", "1 card", "on a tuck box that holds one card")
TUCK_BOX_HOW = _phrase("kit/tuck-box/how", "{deck} · tuck box · cut the solid line, fold the dashed ones, glue the side flap and the bottom",
                       "under a tuck box's net: the deck's name and how to make the box")

# --- a board printed in tiles -----------------------------------------------------------------------
BOARD_BLANK_BACK = _phrase("kit/board/blank-back", "(back of {board} tile {tile}: left blank, so that no tile prints on another's back)",
                           "printed on the blank back of a board's tile; {board} is the board's name as printed on it (Board), {tile} the tile's (A1)")
BOARD_ONE_SHEET = _phrase("kit/board/one-sheet", "{board} · one sheet", "the title of a board printed on one sheet")
BOARD_ONE_SHEET_HOW = _phrase("kit/board/one-sheet-how",
                              "Print at 100 % (actual size): the bar above must measure {bar} mm. Cut along the crop marks at the corners.",
                              "under a board printed on one sheet; the bar is a scale bar printed beside the title")
BOARD_TILE = _phrase("kit/board/tile", "{board} · tile {tile} ({n} of {count}: {rows} x {cols})",
                     "the title of one tile of a board; {rows} and {cols} are the phrases 'N rows' and 'N columns'")
BOARD_ROWS = _phrase("kit/board/rows", "{n} rows", "in a board tile's title: how many rows of tiles (more than one)")
BOARD_ONE_ROW = _phrase("kit/board/one-row", "1 row", "in a board tile's title: one row of tiles")
BOARD_COLUMNS = _phrase("kit/board/columns", "{n} columns", "in a board tile's title: how many columns of tiles (more than one)")
BOARD_ONE_COLUMN = _phrase("kit/board/one-column", "1 column", "in a board tile's title: one column of tiles")
BOARD_TILES_HOW = _phrase("kit/board/tiles-how",
                          "Print at 100 % (the bar must measure {bar} mm). Cut every tile along its crop marks. Tiles overlap by "
                          "{overlap} mm: glue the washed-out strip, lay the named tile over it and line its cut edge up with the "
                          "centres of the crosses.",
                          "under every tile of a board printed in tiles")
BOARD_GLUE = _phrase("kit/board/glue", "GLUE · {tile} on top", "printed along a tile's glue strip: which tile is laid over it")
BOARD_LAY_OVER = _phrase("kit/board/lay-over", "{tile}: cut here, lay over {other}", "printed along the edge of a tile that is laid over another")

# --- the cover ----------------------------------------------------------------------------------
CHECKLIST = _phrase("kit/cover/checklist", "Component checklist", "a heading of the cover: the table of what the kit holds")
COMPONENT = _phrase("kit/cover/component", "Component", "a column heading of the component checklist")
COUNT = _phrase("kit/cover/count", "Count", "a column heading of the component checklist: how many")
SIZE = _phrase("kit/cover/size", "Size", "a column heading of the component checklist")
SIZE_MM = _phrase("kit/cover/size-mm", "{width} x {height} mm", "a card's size, width by height")
ROUND_SIZE = _phrase("kit/cover/round-size", "round, {diameter} mm across", "the size of a round card")
PLAYERS = _phrase("kit/cover/players", "{min}-{max} players", "in the cover's subtitle: how many players")
EXACT_PLAYERS = _phrase("kit/cover/exact-players", "{n} players", "in the cover's subtitle: how many players, when only one number is possible")
AGES = _phrase("kit/cover/ages", "ages {ages}+", "in the cover's subtitle: the youngest age the game is for")
MINUTES = _phrase("kit/cover/minutes", "{minutes} min", "in the cover's subtitle: how long a game lasts")
MINUTES_RANGE = _phrase("kit/cover/minutes-range", "{min}-{max} min", "in the cover's subtitle: how long a game lasts")
DESIGNED_BY = _phrase("kit/cover/designed-by", "designed by {designer}", "in the cover's subtitle")
HOW_TO_PRINT = _phrase("kit/cover/how-to-print", "How to print", "a heading of the cover: the printing instructions")
#: Where a fact comes from (common.schema.json's ``provenance``), as the cover's tables print it.
PROVENANCE = {
    key: _phrase(f"kit/provenance/{key}", key, f"where a fact comes from, in a table of the cover: {meaning}")
    for key, meaning in (("official", "printed by the publisher"), ("sourced", "taken from a named public report"),
                         ("reconstructed", "rebuilt from partial information"), ("designed", "made up for this kit to fill a gap"))
}


def size_mm(width_mm: float, height_mm: float) -> str:
    """A rectangular card's trim as the cover prints it: ``63 x 88 mm``."""
    return SIZE_MM(width=number(width_mm), height=number(height_mm))


def round_size(diameter_mm: float) -> str:
    """A round card's size as the cover prints it: ``round, 80 mm across``."""
    return ROUND_SIZE(diameter=number(diameter_mm))


def players(low: int, high: int) -> str:
    """``2-6 players``, or ``2 players`` when both are the same."""
    return EXACT_PLAYERS(n=low) if low == high else PLAYERS(min=low, max=high)


def minutes(low: int | None, high: int) -> str:
    """``20-30 min``, or ``20 min`` without a lower bound or when both are the same."""
    return MINUTES(minutes=high) if low is None or low == high else MINUTES_RANGE(min=low, max=high)


def checklist_header(*more: str) -> list[str]:
    """The component checklist's header row: Component, Count, Size and ``more`` columns."""
    return [COMPONENT(), COUNT(), SIZE(), *more]


def cards(n: int) -> str:
    """``54 cards`` or ``1 card`` (a tuck box's count)."""
    return TUCK_BOX_ONE_CARD() if n == 1 else TUCK_BOX_CARDS(n=n)

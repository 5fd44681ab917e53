"""Plain data passed from a game module to the renderer: decks of cards, boards and the kit's cover.

Nothing here knows about reportlab.  A card is a dict of *fields* (strings, numbers, lists of
dicts) that the layout's ``{field}`` templates read.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# the content layer chooses a card's own layout (LAYOUT_KEY); the kit reads it
from deckpress.generator.content.derived import LAYOUT_KEY


@dataclass(frozen=True)
class Deck:
    """Cards of one kind, printed on their own sheets.

    Attributes:
        kind: the card kind; its face and back are ``cards.<kind>`` in the game's layout.yaml.
        name: the deck's name for people ("State cards").
        cards: one field dict per card.  Every card has ``id`` (used in error messages) and
            ``source`` (the content file it came from).
        set: which set of the game the deck belongs to ('base', or an expansion's id), for
            building only some sets (``deckpress build --sets``).
    """

    kind: str
    name: str
    cards: list[dict[str, Any]]
    set: str = "base"

    def kind_of(self, fields: dict[str, Any]) -> str:
        """The card kind one card of the deck is drawn with: its own (:data:`LAYOUT_KEY`, a
        layout per card chosen by its data), else the deck's."""
        return fields.get(LAYOUT_KEY, self.kind)


@dataclass(frozen=True)
class Board:
    """A board (or any sheet larger than a card), printed on one sheet of paper when it fits,
    else in tiles across several (``generator/render/board.py``).

    Attributes:
        kind: its size and drawing are ``boards.<kind>`` in the game's layout.yaml.
        name: the board's name for people ("Board").
        fields: the values its layout's ``{field}`` templates read, as a card's fields; with
            ``id`` and ``source`` (used in error messages).
        set: which set of the game the board belongs to, as :attr:`Deck.set`.
    """

    kind: str
    name: str
    fields: dict[str, Any]
    set: str = "base"


@dataclass(frozen=True)
class Section:
    """A section of the cover page: a heading, paragraphs and an optional table (plain text)."""

    heading: str
    paragraphs: list[str] = field(default_factory=list)
    table: list[list[str]] | None = None  # first row is the header
    column_widths: list[float] | None = None  # relative widths of the table's columns
    paragraph_sets: tuple[str | None, ...] | None = None  # the set each paragraph is about (None: every kit)
    set_column: int | None = None  # the table's column naming each row's set (a kit built with --sets keeps those rows)


@dataclass(frozen=True)
class Cover:
    """The first page of a print-and-play kit."""

    title: str
    subtitle: str
    sections: list[Section]

"""The one-up pages an export is made from: the game's decks cut to the sets and cards asked
for, drawn one card a page (:func:`deckpress.generator.render.oneup.one_up_pdf`), on a print
service's template where one fits.  Every format of :mod:`.formats` writes from these pages."""
from __future__ import annotations

from dataclasses import dataclass

from deckpress.generator.content import GameContent
from deckpress.generator.content.errors import ContentErrors
from deckpress.generator.export import (
    SERVICES,
    Service,
    kept_own_size,
    service_template,
)
from deckpress.generator.export.options import ExportOptions, ExportRefused
from deckpress.generator.export.selection import hand_cards, only_cards
from deckpress.generator.kit.adapters import kit_module
from deckpress.generator.kit.printdata import Deck
from deckpress.generator.render.kit import drawn_as, only_sets
from deckpress.generator.render.layout import compile_layout
from deckpress.generator.render.oneup import Page, one_up_pdf


@dataclass(frozen=True)
class CardPages:
    """A one-up PDF (``pdf``, bytes) and its pages in order, of ``decks``; ``name`` names the
    files (the game's id or the variant file's stem); ``fmt`` the format they are for;
    ``service`` is the print service whose templates the cards were fitted to (None: their own
    trim and bleed); ``round_kinds`` the card kinds cut round (a hand draws them as discs)."""

    fmt: str
    name: str
    decks: list[Deck]
    pdf: bytes
    pages: list[Page]
    service: Service | None
    round_kinds: frozenset[str]

    def kept_own_size(self) -> list[str]:
        """For png and pdf with a service: a line naming each deck that no template of the
        service fits (it keeps its own trim and bleed); nothing otherwise."""
        return kept_own_size(self.service, self.pages) if self.service and self.fmt in ("png", "pdf") else []


def card_pages(content: GameContent, name: str, options: ExportOptions) -> CardPages:
    """The one-up pages of ``content``'s cards that ``options`` asks for: its ``sets``; for png and
    pdf its ``cards``, every copy; for hand the cards a hand shows (:func:`.selection.hand_cards`),
    faces only; fitted to the ``service``'s templates.

    Raises:
        ExportRefused: a set or card the game does not have, or more cards than a hand shows.
        ContentErrors: a card cannot be laid out, or a font the game declares cannot be used.
    """
    fmt, cards = options.fmt, options.cards
    decks = kit_module(content.game_id).decks(content)
    if options.sets:
        try:
            decks, _ = only_sets(content.game_id, decks, [], options.sets)
        except ContentErrors as exc:
            raise ExportRefused(exc.errors[0].message) from None
    if cards and fmt in ("png", "pdf"):
        decks = only_cards(decks, cards)
    layout = content.documents["layout"]
    round_kinds: frozenset[str] = frozenset()
    if fmt == "hand":
        kinds = compile_layout(layout).cards
        decks = hand_cards(decks, cards, lambda deck: kinds[deck.kind].trim_mm)
        round_kinds = frozenset(k for k, c in kinds.items() if c.shape == "circle")
    service = SERVICES[options.service] if options.service else None
    pdf, pages = one_up_pdf(layout, decks, (lambda trim: service_template(service, trim)) if service else None, backs=fmt != "hand",
                            title=f"{content['game']['title']}: one card per page", cmyk=options.cmyk, **drawn_as(content))
    return CardPages(fmt, name, decks, pdf, pages, service, round_kinds)

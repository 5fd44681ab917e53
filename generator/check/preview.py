"""The preview of a checked variant (stage 4 of :mod:`deckpress.generator.check`): its added and
changed cards, both faces, laid out with the game's layouts; and the layout errors of those cards
when other errors stop the check earlier."""
from __future__ import annotations

from pathlib import Path

from deckpress.generator.content import GameContent
from deckpress.generator.content.errors import ContentError, ContentErrors, display_path
from deckpress.generator.content.variant import Variant, relocate
from deckpress.generator.kit.adapters import kit_module
from deckpress.generator.output import write_atomic


def preview_changed_cards(base: GameContent, merged: GameContent, art: dict[str, str], path: Path | None,
                          render: bool = False) -> tuple[str | None, list[str]]:
    """Render the added and changed cards (both faces) of ``merged`` to ``path``, with the
    variant's checked ``art`` in each card's ``art`` field; returns the path written (None if
    nothing changed or no path) and the cards' ids.  With no path the cards are still laid out
    (so that their errors are found) when ``render`` is set.

    Raises:
        ContentErrors: a changed card cannot be laid out (the variant's fault).
        OutputError: ``path`` cannot be written.
    """
    from deckpress.generator.kit.printdata import Deck

    module = kit_module(base.game_id)
    before = {(d.kind, c["id"]): c for d in module.decks(base) for c in d.cards}
    decks, ids = [], []
    for deck in module.decks(merged):
        cards = [{**c, "art": art[c["id"]]} if c["id"] in art else c for c in deck.cards]
        cards = [c for c in cards if before.get((deck.kind, c["id"])) != c]
        if cards:
            decks.append(Deck(deck.kind, deck.name, cards, deck.set))
            ids += [c["id"] for c in cards]
    if not decks or (path is None and not render):
        return None, ids
    from deckpress.generator.render.kit import (  # a quarter second: only with cards to draw
        PrintOptions,
        drawn_as,
        render_pdf,
    )

    pdf = render_pdf(merged.documents["layout"], decks, None, PrintOptions(), title=f"{merged['game']['title']}: variant preview",
                     checked_images=frozenset(art.values()), **drawn_as(merged))
    if path is None:
        return None, ids
    write_atomic(path, pdf)
    return display_path(path), ids


def fitting_errors(base: GameContent, merged: GameContent, art: dict[str, str], variant: Variant) -> list[ContentError]:
    """The layout errors of the changed cards (text that does not fit, a field the layout needs),
    found while other errors keep the check in stage 2: listed in the same run, at the variant's
    lines.  Nothing when the merged data cannot even be made into cards (its schema errors say why)."""
    try:
        preview_changed_cards(base, merged, art, None, render=True)
    except ContentErrors as exc:
        return [relocate(e, variant, base) for e in exc.errors]
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):  # cards from data the schema refused
        pass
    return []

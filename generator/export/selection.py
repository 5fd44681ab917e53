"""Which cards an export draws: the cards ``--cards`` names for png and pdf, every copy of each
(:func:`only_cards`), and the few cards a hand shows (:func:`hand_cards`)."""
from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import replace
from typing import Any

from deckpress.generator.export.options import ExportRefused
from deckpress.generator.kit.printdata import Deck
from deckpress.generator.render.kit import unknown_cards

#: Cards a hand shows when none are named: the first card of each deck in turn.
HAND_DEFAULT_CARDS = 5


def only_cards(decks: list[Deck], cards: tuple[str, ...]) -> list[Deck]:
    """The decks cut to the cards ``cards`` names (``--cards`` of png and pdf), every copy of each
    as the whole export has them, in the decks' order, so each PNG's name (copy numbers included)
    is the one the whole export gives it and a re-export of a fixed card replaces its files;
    decks left without cards are dropped.

    Raises:
        ExportRefused: an id that no card has (every such id, with the nearest ids).
    """
    unknown = unknown_cards(decks, cards)
    if unknown:
        raise ExportRefused("; ".join([unknown[0], *(message.removeprefix("--cards: ") for message in unknown[1:])]))
    wanted = set(cards)
    cut = [replace(deck, cards=[fields for fields in deck.cards if fields["id"] in wanted]) for deck in decks]
    return [deck for deck in cut if deck.cards]


def hand_cards(decks: list[Deck], cards: tuple[str, ...] | None, size_of: Callable[[Deck], Hashable]) -> list[Deck]:
    """The decks cut to the cards a hand shows, one copy each: ``cards`` (ids, in that order), or
    the first card of each deck of the first deck's size (``size_of(deck)``) in turn, five in all.

    Raises:
        ExportRefused: an id that no card has (with the nearest ids), or more cards than a hand shows.
    """
    from deckpress.generator.export.hand import MAX_CARDS

    first: dict[str, tuple[Deck, dict[str, Any]]] = {}  # id -> (deck, fields): each card's first copy
    for deck in decks:
        for fields in deck.cards:
            first.setdefault(fields["id"], (deck, fields))
    if cards:
        wanted = list(dict.fromkeys(cards))
        unknown = unknown_cards(decks, tuple(wanted))
        if unknown:
            raise ExportRefused(unknown[0])
        if len(wanted) > MAX_CARDS:
            raise ExportRefused(f"--cards: a hand shows at most {MAX_CARDS} cards, not {len(wanted)}")
    elif not first:
        raise ExportRefused("--to hand: there are no cards to show")
    else:
        queues = [list(dict.fromkeys(f["id"] for f in deck.cards)) for deck in decks if size_of(deck) == size_of(decks[0])]
        wanted = []
        while len(wanted) < HAND_DEFAULT_CARDS and any(queues):
            for queue in queues:
                if queue and len(wanted) < HAND_DEFAULT_CARDS:
                    wanted.append(queue.pop(0))
    # one single-card deck per card, in the hand's order
    return [replace(first[card_id][0], cards=[first[card_id][1]]) for card_id in wanted]

"""Print side of Games made from data alone: each declared deck's records as cards, for the kit.

This module turns validated content into the cards, boards and cover of the kit; the files,
checks and facts it reads, with their sources, are in :mod:`deckpress.generator.content.data`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from deckpress.generator.content.derived import default_layout, per_card_layouts
from deckpress.generator.content.layout_kinds import kind_spec
from deckpress.generator.kit import words
from deckpress.generator.kit.adapters import how_to_play
from deckpress.generator.kit.printdata import Cover, Deck, Section
from deckpress.generator.kit.translation import tr


def decks(content) -> list[Deck]:
    """Every declared deck as plain field dicts, each card repeated for its copies.  A field whose
    value is ``null`` is left out, as an empty CSV cell is: null is an absent value, never the
    text ``None``.  Each card carries its file's name as ``source`` (where messages and the studio
    find it), unless the card has a ``source`` field of its own: the data's own value is printed
    as it is, never replaced by a file name."""
    out = []
    for index, deck in enumerate(content["game"].get("decks", [])):
        doc = content.documents[deck["id"]]
        source = Path(deck["file"]).name
        cards: list[dict[str, Any]] = []
        kinds = per_card_layouts(deck, index, doc.data["cards"])
        for n, record in enumerate(doc.data["cards"], 1):
            copies = record[deck["copies"]] if isinstance(deck.get("copies"), str) else deck.get("copies", 1)
            card = {"source": source, **present(record), **kinds[n - 1]}
            card["id"] = str(card.get("id", f"{deck['id']}-{n}"))
            cards += [card] * copies
        out.append(Deck(default_layout(deck), deck["name"], cards))
    return out


def present(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` without its ``null`` fields, in groups of fields and lists of them too."""
    return _clean(record)


def _clean(value: Any) -> Any:
    """``value`` without ``null`` fields at any depth.  (A module function: a nested one that
    calls itself is a reference cycle per card, left for the garbage collector.)"""
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def cover(content) -> Cover:
    """The kit's first page, for players: the title, a checklist of decks at the size they print
    and how to play (game.yaml's modes and rulebook; its ``notes`` are for editors, not printed)."""
    game = content["game"]
    facts = [words.players(game["players"]["min"], game["players"]["max"])] if "players" in game else []
    if "ages" in game:
        facts.append(words.AGES(ages=game["ages"]))
    if "duration" in game:
        facts.append(words.minutes(game["duration"].get("min"), game["duration"]["max"]))
    facts += [game["publisher"]] if "publisher" in game else []
    facts += [words.DESIGNED_BY(designer=game["designer"])] if "designer" in game else []
    facts += [str(game["year"])] if "year" in game else []
    checklist = [[tr("kit/cover/deck", "Deck", "a column heading of the cover's checklist of decks"),
                  tr("kit/cover/cards", "Cards", "a column heading of the cover's checklist of decks: how many cards"), words.SIZE()]]
    for deck in game.get("decks", []):
        layout = kind_spec(content["layout"]["cards"], default_layout(deck))
        size = game["card_sizes"].get(layout.get("card_size", deck.get("card_size", "")), layout["trim"])  # the size it prints at
        checklist.append([deck["name"], str(_count(deck, content.documents[deck["id"]].data["cards"])),
                          words.size_mm(size["width_mm"], size["height_mm"])])
    sections = [Section(words.CHECKLIST(), [], checklist, [3, 1, 2]), *how_to_play(game)]
    return Cover(title=tr("kit/cover/title", "{title}: print-and-play kit", "the cover's title", title=game["title"]), subtitle=" · ".join(facts), sections=sections)


def _count(deck: dict[str, Any], records: list[dict[str, Any]]) -> int:
    """How many cards a deck prints: each record for its copies, as :func:`decks` repeats them."""
    copies = deck.get("copies", 1)
    return sum(max(record[copies], 0) for record in records) if isinstance(copies, str) else max(copies, 0) * len(records)

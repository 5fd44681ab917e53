"""A log event in a player's words, as one seat may know it: ``{seat: 2, play: Goa}`` is "Seat 2
played Goa", ``{chance: deal, seat: 1, cards: [...]}`` is "Seat 1 was dealt 3 cards" for the
other seats and "You were dealt Goa, Kerala, Assam" for seat 1.

The words are those of the log's keys (docs/game-logs.md), shared by the four engines; a key
without words here is said as the log writes it (``key: value``).  What a move or a round *did*
(a point card won, a fight, a medal) is the engine's own :meth:`State.news`, said after the move.
"""
from __future__ import annotations

from typing import Any

#: A seat's move, by the event's key: ``{value}`` is the key's value.
MOVE_WORDS: dict[str, str] = {
    "play": "played {value}",
    "mission": "chose the mission {value}",
    "propose": "proposed {value}",
    "vote": "voted {value}",
    "collect": "collected {value}",
    "adjust": "adjusted {value}",
    "centre": "sent {value} to the city centre",
    "attack": "attacked with {value}",
    "defend": "defended with {value}",
    "officer": "posted the officer at the {value} door",
    "door": "went for the {value} door",
    "keep": "kept {value}",
    "give": "gave {value}",
}
#: A secret choice not revealed yet, by the event's key (its value is not said).
SECRET_WORDS: dict[str, str] = {"vote": "voted in secret", "door": "chose a door in secret",
                                "officer": "placed the officer in secret"}
#: A move's second key, said after its first (``play: X, slot: 2`` is "played X on pile 2").
DETAIL_WORDS: dict[str, str] = {"slot": "on pile {value}", "pile": "on the {value} pile", "to": "to seat {value}"}
#: A chance event, by its kind: ``{who}`` the seat it went to, ``{cards}`` the cards.
CHANCE_WORDS: dict[str, str] = {
    "deal": "{who} dealt {cards}",
    "draw": "{who} drew {cards}",
    "face-up": "Face up: {cards}",
    "market": "The market: {cards}",
    "master": "The Master card: {cards}",
    "mission": "New mission: {cards}",
    "reshuffle": "The deck is shuffled again",
}
#: The log's mark for a card a seat did not see.
UNSEEN = "?"


def in_words(event: dict[str, Any], viewer: int | None, hidden: bool = False) -> str:
    """``event`` (a log event: ``{seat: N, play: Goa}``, ``{chance: draw, seat: 1, card: Goa}``)
    as one line for seat ``viewer`` (None: a spectator).  A chance event's cards sent to another
    seat than ``viewer`` are counted, never named; ``hidden``: the move is a secret submission not
    yet revealed (a vote, a door): said without its value."""
    if "chance" in event:
        return _chance(event, viewer)
    seat = event.get("seat")
    who = "You" if seat is not None and seat == viewer else f"Seat {_n(seat)}"
    parts = [(k, v) for k, v in event.items() if k != "seat"]
    if not parts:
        return f"{who} moved"
    key, value = parts[0]
    if hidden and seat != viewer:
        return f"{who} " + SECRET_WORDS.get(key, "chose in secret")
    said = [MOVE_WORDS.get(key, f"{key}: {{value}}").format(value=_value(value))]
    said += [DETAIL_WORDS.get(k, f"{k}: {{value}}").format(value=_value(v)) for k, v in parts[1:]]
    return f"{who} " + " ".join(said)


def _chance(event: dict[str, Any], viewer: int | None) -> str:
    kind = str(event.get("chance"))
    seat = event.get("seat")
    cards = event.get("cards", [event["card"]] if "card" in event else [])
    cards = cards if isinstance(cards, list) else [cards]
    if seat is not None and seat != viewer:
        shown = "a card" if len(cards) == 1 else f"{len(cards)} cards"
    else:
        shown = ", ".join(_value(c) for c in cards) or "nothing"
    if seat is None:
        who = ""
    elif seat == viewer:
        who = "You were" if kind == "deal" else "You"
    else:
        who = f"Seat {_n(seat)} was" if kind == "deal" else f"Seat {_n(seat)}"
    words = CHANCE_WORDS.get(kind, kind + ": {cards}")
    return words.format(who=who, cards=shown).strip()


def _n(seat: Any) -> Any:
    """A seat as people count it, from 1 (the engines count from 0: seat 0 is "Seat 1")."""
    return seat + 1 if isinstance(seat, int) and not isinstance(seat, bool) else seat


def _value(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_value(v) for v in value)
    return str(value)

"""Maybe Missions' cards as compact tables, and the numbers of actions.

Cards are numbered once for the whole game: mission cards ``0..M-1`` (missions.yaml order), then
Master cards ``M..M+K-1`` (masters.yaml), then shop cards (shop.yaml).  A two-sided card has a
green SUCCESS side (:data:`GREEN`) and a red FAIL side (:data:`RED`); for each side the tables
hold its *net* icons per resource (plain +1, crossed -1: what it scores), its *plain* icons per
resource (what it pays in the shop: the shop schema's "crossed icons pay nothing") and the set of
resources it *shows* (plain or crossed, as a bit mask: the vocabulary's "SHOWS r").

Vote cards are their printed numbers.  Actions are small integers:

* ``1..MAX_VOTE``: a vote card by number (to vote, pass, discard, give, take back);
* :data:`PASS`: "none" or "done" (decline an offer, end a proposal);
* :data:`BUY_GENERAL`: buy from the general shop card;
* ``DELTA + d``: change one's vote numbers by ``d`` (renumber_vote, ``|d| <= MAX_DELTA``);
* ``SEAT + s``: choose seat ``s``;
* ``CARD + c``: choose card ``c`` (propose, collect, pay, flip, swap, play a Master card, ...);
* ``PUBLIC + i`` / ``SECRET + i``: chance outcomes dealing identity ``i``.
"""
from __future__ import annotations

from typing import Any, Iterable

RESOURCES = ("gold", "reputation", "weapons", "intelligence")
R = len(RESOURCES)
GREEN, RED = 0, 1
SIDE_NAMES = ("green", "red")
#: What became of a round's Master card besides a side up (``MaybeMissionsState.award``): none was
#: revealed (the Master deck was empty), discarded after an all-NO round, or after a unanimous end.
NO_MASTER, ALL_NO, UNANIMOUS = -1, -2, -3
NO, YES = 0, 1
VOTE_TYPES = ("NO", "YES")

MAX_VOTE = 99
PASS = 100
BUY_GENERAL = 101
MAX_DELTA = 30
DELTA = 150
SEAT = 200
MAX_SEATS = 10
CARD = 300
MAX_CARDS = 300
PUBLIC = 600
SECRET = 800
MAX_IDENTITIES = 200


def side_tables(sides: Iterable[list[dict]]) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """For each side given: ``(net icons per resource, plain icons per resource, shown-resource mask)``.

    ``sides`` are icon lists as in the content (``[{resource: gold}, {resource: weapons, crossed: true}]``).
    """
    out = []
    for icons in sides:
        net, plain, shows = [0] * R, [0] * R, 0
        for icon in icons:
            r = RESOURCES.index(icon["resource"])
            shows |= 1 << r
            if icon.get("crossed"):
                net[r] -= 1
            else:
                net[r] += 1
                plain[r] += 1
        out.append((tuple(net), tuple(plain), shows))
    return out


def vote_number(value: Any) -> int | None:
    """A vote number written in a log (``17`` or ``"17"``), or None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():  # not "¹" or "٣"
        return int(value.strip())
    return None


"""Public identity powers (Secret Identities expansion): how one seat votes and collects, every round.

Each power kind of the vocabulary (``schemas/maybe-missions.vocabulary.schema.json``, family
``public_power``) is one small function here, registered in :data:`PUBLIC_POWERS` by its name: it
writes its effect into the seat's :class:`SeatPowers`, which the round flow reads where the power
applies (the vote's legal cards, the reveal order, the tally weights, the collecting order and
choices).  A kind missing from the registry is a validation error (``deckpress validate``), never
ignored.  Source: the rulebook's "Secret Identities" ("The Public Identity shows a special ability
that only you possess. You must follow it at all times.") and each kind's description.

Precedence (vocabulary: "a Master card's rule wins over identity powers"): a Master card's
``forced_vote`` replaces ``resource_forces_vote`` and ``copy_neighbour`` for that round.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from deckpress.rules.maybe_missions.cards import NO, RESOURCES, YES

Effect = Mapping[str, Any]


class SeatPowers:
    """What a seat's public identity changes (all neutral for a seat without one).

    ``weight[t]``: multiplier of the seat's counted votes of type ``t`` (NO=0, YES=1);
    ``shift``: added to its vote numbers (effective numbers); ``late``: reveals after everyone
    (vote_last); ``copy``: +1 copies the left neighbour (next clockwise), -1 the right one;
    ``forced_when``: ``(resource mask, vote type)`` pairs; ``forbidden``: mask of resources it may
    not collect; ``collect_rank``: -1 collects first, +1 last; ``plays_masters``: may play won
    Master cards.  Built once per identity card; never changed afterwards.
    """

    __slots__ = ("weight", "shift", "late", "copy", "forced_when", "forbidden", "collect_rank", "plays_masters")

    def __init__(self) -> None:
        self.weight = [1, 1]
        self.shift = 0
        self.late = False
        self.copy = 0
        self.forced_when: tuple[tuple[int, int], ...] = ()
        self.forbidden = 0
        self.collect_rank = 0
        self.plays_masters = False

    @property
    def votes_late(self) -> bool:
        """True when the seat votes after others (vote_last or copy_neighbour)."""
        return self.late or self.copy != 0


def _vote_type(name: str) -> int:
    return YES if name == "YES" else NO


def own_vote_weight(powers: SeatPowers, effect: Effect) -> None:
    """Each counted vote of yours (only of type ``vote``, if given) adds ``weight`` instead of 1;
    weights from several effects multiply."""
    for t in ((_vote_type(effect["vote"]),) if "vote" in effect else (NO, YES)):
        powers.weight[t] *= effect["weight"]


def vote_last(powers: SeatPowers, effect: Effect) -> None:
    """You reveal (and choose) your vote after all other players have revealed theirs."""
    powers.late = True


def collect_first(powers: SeatPowers, effect: Effect) -> None:
    """Your collecting turns come before everyone else's."""
    powers.collect_rank -= 1


def collect_last(powers: SeatPowers, effect: Effect) -> None:
    """Your collecting turns come after everyone else's."""
    powers.collect_rank += 1


def play_masters(powers: SeatPowers, effect: Effect) -> None:
    """Before a round, you may play one Master card you collected green side up (the rulebook's
    variant, for you alone)."""
    powers.plays_masters = True


def vote_shift(powers: SeatPowers, effect: Effect) -> None:
    """Your votes' effective numbers are the printed ones plus ``up`` (or minus ``down``)."""
    powers.shift += effect.get("up", 0) - effect.get("down", 0)


def resource_forces_vote(powers: SeatPowers, effect: Effect) -> None:
    """If a proposed card's green side shows ``resource``, you must vote ``vote`` if you can."""
    powers.forced_when += ((1 << RESOURCES.index(effect["resource"]), _vote_type(effect["vote"])),)


def forbidden_resource(powers: SeatPowers, effect: Effect) -> None:
    """You may not take a mission card whose side that would be up shows ``resource``."""
    powers.forbidden |= 1 << RESOURCES.index(effect["resource"])


def copy_neighbour(powers: SeatPowers, effect: Effect) -> None:
    """You vote after your ``side`` neighbour and must vote the same type (their first vote) if you can."""
    powers.copy = 1 if effect["side"] == "left" else -1


#: Every public power kind the engine implements, by the vocabulary's name.
PUBLIC_POWERS: dict[str, Callable[[SeatPowers, Effect], None]] = {
    fn.__name__: fn for fn in (own_vote_weight, vote_last, collect_first, play_masters, vote_shift,
                               resource_forces_vote, forbidden_resource, copy_neighbour, collect_last)
}

NEUTRAL = SeatPowers()


def seat_powers(effects: list[Effect]) -> SeatPowers:
    """The powers of an identity card (its helpful and its harmful power, in that order)."""
    powers = SeatPowers()
    for effect in effects:
        PUBLIC_POWERS[effect["kind"]](powers, effect)
    return powers

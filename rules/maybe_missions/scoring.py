"""Scoring, with the secret identity powers (Secret Identities expansion).

Rulebook "Objective": of the collected cards only the side pointing up counts; each resource icon
is worth 1 point (a crossed icon -1: card-facts.md); "the resource which you have the most counts
double, the least does not count", and in a tie the player picks any one of the options.  With
``c_r`` = plain minus crossed icons of ``r`` on the up sides and ``v_r = w_r x c_r`` (a secret
identity changes a resource's worth ``w_r``):

* ``count`` (the default, the rulebook's words): the resource of the highest count ``c_r`` counts
  double and the one of the lowest count not at all; among tied resources the player picks, so
  the best ``v_r`` of the most-held and the lowest ``v_r`` of the least-held.  With a secret
  "-1 per weapon" identity, five weapons and nothing else score -10.
* ``value`` (the reading this engine played at first): ``sum v_r + max v_r - min v_r``, the
  best *value* twice and the worst not at all, so hoarding a resource worth -1 costs nothing
  (the same five weapons score 0).

Both agree whenever every resource is worth 1 (no secret identity changes a worth).

Which cards a secret identity reads (parameter ``identity_cards``).  Rulebook "Secret Identities":
"When a secret identity talks about icons showing on a card, it's always about a collected Mission
Card, and only the side that points up."  With ``missions`` (the default, the sentence) a secret
power reads the icons of collected Mission Cards only: its worths ``w_r`` apply to the mission
cards' icons and its bonuses count them (and ``card_bonus`` counts mission cards), while the usual
scoring ("on top of the usual scoring rules") counts every collected card, a won Master card
included, each icon worth 1.  So ``v_r = w_r x m_r + (c_r - m_r)``, ``m_r`` the mission cards'
count.  The Ghost (reputation worth -1) holding only master-01 green side up (gold, reputation,
intelligence) scores 4, the usual score.  With ``all`` (the count this engine played before) the
Master cards' icons are read by the identity too: the same Ghost scores 2.

Each secret power kind (family ``secret_power``) is one function in :data:`SECRET_POWERS`: it
either changes a resource's worth ``w_r`` (``resource_value``) or adds a bonus computed from the
counts.  A secret identity is compiled once into a :class:`ScoreProfile`.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from deckpress.rules.maybe_missions.cards import RESOURCES

Effect = Mapping[str, Any]
#: A bonus: (counts c_r, cards green side up, cards red side up) -> points.
Bonus = Callable[[Sequence[int], int, int], int]


#: How the most- and least-held resources are found (see the module docstring).
SCORING_READINGS = ("count", "value")
#: Which collected cards a secret identity reads (see the module docstring).
IDENTITY_CARDS = ("missions", "all")
#: The worth of every resource without a secret identity.
_UNIT_WEIGHTS = [1] * len(RESOURCES)


class ScoreProfile:
    """How one seat scores: each resource's worth ``weights[r]``, its bonuses (built once), and
    the reading of "the resource you have the most" (``by_count``: by icons held, the rulebook's
    words; else by points)."""

    __slots__ = ("weights", "bonuses", "by_count")

    def __init__(self, by_count: bool = True) -> None:
        self.weights = [1] * len(RESOURCES)
        self.bonuses: list[Bonus] = []
        self.by_count = by_count

    def score(self, counts: Sequence[int], greens: int = 0, reds: int = 0,
              own: tuple[Sequence[int], int, int] | None = None) -> int:
        """The score for resource counts ``c_r`` and the numbers of cards lying green / red side up.

        ``own``: ``(m_r, greens, reds)`` of the cards the secret identity reads (its collected
        Mission Cards, ``identity_cards: missions``), when they are not all the collected cards;
        None: the identity reads the same counts as the usual scoring."""
        w = self.weights
        identity = own if own is not None else (counts, greens, reds)
        if w == _UNIT_WEIGHTS:  # every resource worth 1: both readings double the most-held and drop the least-held
            total = sum(counts) + max(counts) - min(counts)
        else:
            m = identity[0]
            values = [w[r] * m[r] + counts[r] - m[r] for r in range(len(counts))]
            total = self._doubled(values, counts)
        for bonus in self.bonuses:
            total += bonus(*identity)
        return total

    def _doubled(self, values: Sequence[int], counts: Sequence[int]) -> int:
        """The sum of the resources' values ``v_r``, the most-held counted twice and the least-held
        not at all (by count or by value, see the module docstring)."""
        if self.by_count:
            most, least = max(counts), min(counts)
            return (sum(values) + max(v for v, c in zip(values, counts) if c == most)
                    - min(v for v, c in zip(values, counts) if c == least))
        return sum(values) + max(values) - min(values)


def resource_value(profile: ScoreProfile, effect: Effect) -> None:
    """``v_r`` for ``resource`` is ``points x c_r`` instead of ``1 x c_r``."""
    profile.weights[RESOURCES.index(effect["resource"])] = effect["points"]


def threshold_bonus(profile: ScoreProfile, effect: Effect) -> None:
    """``points`` once if the count of ``resource`` (or the sum of all counts) is ``at_least`` or more."""
    at_least, points = effect["at_least"], effect["points"]
    if "resource" in effect:
        r = RESOURCES.index(effect["resource"])
        profile.bonuses.append(lambda c, g, red: points if c[r] >= at_least else 0)
    else:
        profile.bonuses.append(lambda c, g, red: points if sum(c) >= at_least else 0)


def pair_bonus(profile: ScoreProfile, effect: Effect) -> None:
    """``points`` per pair of one ``first`` and one ``second`` (min of the counts, none if either
    is 0 or less); of one resource with itself, ``floor(c / 2)`` pairs."""
    a, b, points = RESOURCES.index(effect["first"]), RESOURCES.index(effect["second"]), effect["points"]
    if a == b:
        profile.bonuses.append(lambda c, g, red: points * (c[a] // 2) if c[a] > 0 else 0)
    else:
        profile.bonuses.append(lambda c, g, red: points * min(c[a], c[b]) if c[a] > 0 and c[b] > 0 else 0)


def parity_bonus(profile: ScoreProfile, effect: Effect) -> None:
    """``points`` once if the count of ``resource`` is ``parity`` (0 is even; Python's ``%`` makes
    -3 odd and -2 even, as usual)."""
    r, points, want = RESOURCES.index(effect["resource"]), effect["points"], 0 if effect["parity"] == "even" else 1
    profile.bonuses.append(lambda c, g, red: points if c[r] % 2 == want else 0)


def card_bonus(profile: ScoreProfile, effect: Effect) -> None:
    """``points`` per collected card the identity reads (mission cards; with ``identity_cards: all``
    Master cards too), or only those ``side`` side up."""
    points, side = effect["points"], effect.get("side")
    if side == "green":
        profile.bonuses.append(lambda c, g, red: points * g)
    elif side == "red":
        profile.bonuses.append(lambda c, g, red: points * red)
    else:
        profile.bonuses.append(lambda c, g, red: points * (g + red))


#: Every secret power kind the engine implements, by the vocabulary's name.
SECRET_POWERS: dict[str, Callable[[ScoreProfile, Effect], None]] = {
    fn.__name__: fn for fn in (resource_value, threshold_bonus, pair_bonus, parity_bonus, card_bonus)
}

PLAIN = ScoreProfile()


def score_profile(effects: list[Effect], by_count: bool = True) -> ScoreProfile:
    """The scoring of a secret identity (its helpful and harmful powers), with the reading of the
    most- and least-held resource (see :class:`ScoreProfile`)."""
    profile = ScoreProfile(by_count)
    for effect in effects:
        SECRET_POWERS[effect["kind"]](profile, effect)
    return profile


def bonus_bound(effect: Effect, icons: int, cards: int) -> int:
    """The most a secret power can add or take away, with ``icons`` icons and ``cards`` cards in
    the game (for the declared score range)."""
    points = abs(effect.get("points", 0))
    if effect["kind"] == "pair_bonus":
        return points * icons
    if effect["kind"] == "card_bonus":
        return points * cards
    return 0 if effect["kind"] == "resource_value" else points

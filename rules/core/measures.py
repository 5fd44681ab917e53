"""Measures: the figures a game reports from a simulation, computed from its summed tallies.

A game's :meth:`~deckpress.rules.core.game.Game.measures` turns the named counts its states tally (see
:meth:`~deckpress.rules.core.game.State.tally`) into measures, grouped into tables by ``group``:

* a **rate**: successes out of trials (an agent's fights won of fought, games reaching a medal of
  games played), reported with its Wilson 95 % interval so that a reader (and ``deckpress
  check``) can tell a difference from noise;
* a **per-game mean**: a total over the run divided by the number of games.

A measure named after a card carries the card's id as its ``key``: the name is the card as
printed (``Forest +7``), which a variant or a sweep point that changes the card's values changes
too; ``deckpress check`` and ``sweep`` compare and list measures by ``key`` where there is one.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from deckpress.rules.core.stats import wilson


@dataclass(frozen=True)
class Measure:
    """One figure of a simulation report (see the module docstring for the two kinds)."""

    group: str
    name: str
    kind: str  # "rate" or "per_game"
    successes: int = 0
    trials: int = 0
    total: float = 0.0
    key: str | None = None  # a card's id, for a measure named after a card (see the module docstring)

    def value(self, games: int) -> float | None:
        """The rate (0..1) or the mean per game; None when there is nothing to divide by."""
        if self.kind == "rate":
            return self.successes / self.trials if self.trials else None
        return self.total / games if games else None

    def as_dict(self, games: int) -> dict[str, Any]:
        """The measure as JSON-ready data (with the interval for a rate)."""
        value = self.value(games)
        out: dict[str, Any] = {"group": self.group, "name": self.name, "kind": self.kind,
                               "value": None if value is None else round(value, 4)}
        if self.key is not None:
            out["key"] = self.key
        if self.kind == "rate":
            low, high = wilson(self.successes, self.trials)
            out.update(successes=self.successes, trials=self.trials, interval_95=[round(low, 4), round(high, 4)])
        else:
            out["total"] = self.total
        return out


def rate(group: str, name: str, successes: int, trials: int, key: str | None = None) -> Measure:
    """A rate measure: ``successes`` of ``trials`` (``key``: the card's id, for one named after a card)."""
    return Measure(group, name, "rate", successes=successes, trials=trials, key=key)


def per_game(group: str, name: str, total: float) -> Measure:
    """A per-game mean: ``total`` over the run, divided by the games played when reported."""
    return Measure(group, name, "per_game", total=total)

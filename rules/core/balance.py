"""Findings a designer must see in a simulation, in words: seat order beyond the noise, and the
cards and rules whose effect never changed a result.

``deckpress simulate`` prints them at the top of its report and ``deckpress check`` lists them in
its simulation stage; both come from :func:`findings` on a simulation's plain data
(:func:`deckpress.rules.core.results.simulation_dict`).

* **Seat order.**  A seat's fair share is an equal part of the games not drawn, ``(1 - draws) /
  players`` (a shared best result is a draw, and ``wins`` counts sole wins).  A seat differs from
  it beyond the noise when its Wilson interval (:func:`~deckpress.rules.core.stats.wilson`) at 95 %
  for all seats together (Bonferroni: each seat's interval at ``1 - 0.05 / players``) leaves the
  fair share out.  Wilson 1927; Bonferroni's correction as in any statistics text (the
  NIST/SEMATECH e-Handbook of Statistical Methods, section 7.4.7.3).
* **Inert cards and rules.**  An engine counts, for the rules it can judge, how often the rule had
  a chance to act (``in force: K``, a round under a Master card of kind ``K``) and how often its
  effect changed a result (``changed the result: K``); :meth:`Game.inert_effects` names the card or
  rule and :func:`inert` keeps those that never changed anything in at least one chance.
"""
from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Mapping

from deckpress.rules.core.stats import wilson


@dataclass(frozen=True)
class Effect:
    """How often one card or rule had a chance to act in a run, and how often it changed a result.

    ``what``: the card or rule in words ("master-08 (Each YES vote counts as 2 votes.)");
    ``chances``: the times it could act (rounds in force, missions on display); ``changed``: the
    times its effect changed a result; ``unit``: what a chance is, plural ("rounds in force")."""

    what: str
    chances: int
    changed: int
    unit: str
    result: str = "changed a round's result"


def tally_effects(tallies: Mapping[str, int]) -> list[Effect]:
    """The effects a game's tallies count with the keys ``in force: K`` and ``changed the result:
    K`` (a Master rule kind of Maybe Missions, say): one :class:`Effect` per ``K`` with both."""
    out = []
    for key, chances in sorted(tallies.items()):
        if key.startswith("in force: ") and f"changed the result: {key[len('in force: '):]}" in tallies:
            kind = key[len("in force: "):]
            out.append(Effect(kind, chances, tallies[f"changed the result: {kind}"], "rounds in force"))
    return out


def inert(effects: list[Effect]) -> list[Effect]:
    """The effects that had a chance to act and never changed a result."""
    return [e for e in effects if e.chances > 0 and e.changed == 0]


def seat_order(sim: Mapping[str, Any]) -> dict[str, Any] | None:
    """The seats whose win share differs from the fair share beyond the noise (see the module
    docstring), as ``{"kind": "seat order", "text": ..., "fair_share": ..., "seats": [{"seat",
    "win_rate", "difference_points"}]}``; None for a cooperative game, a run of no games, or when
    every seat is within the noise."""
    if sim.get("cooperative") or not sim.get("games"):
        return None
    seats, games = sim["seats"], sim["games"]
    n = len(seats)
    fair = (1 - (sim["draw_rate"] or 0)) / n
    z = NormalDist().inv_cdf(1 - 0.025 / n)
    off = []
    for s in seats:
        low, high = wilson(s["wins"], games, z)
        if not low <= fair <= high:
            off.append({"seat": s["seat"], "win_rate": s["win_rate"], "difference_points": round(100 * (s["win_rate"] - fair), 1)})
    if not off:
        return None
    more = [s for s in off if s["difference_points"] > 0]
    less = [s for s in off if s["difference_points"] < 0]

    def listed(items: list[str]) -> str:
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

    def part(group: list[dict[str, Any]], word: str) -> str:
        seats_ = listed([str(s["seat"]) for s in group])
        rates = listed([f"{100 * s['win_rate']:.1f} %" for s in group])
        points = listed([f"{abs(s['difference_points']):.1f}" for s in group])
        return (f"seat{'s' * (len(group) > 1)} {seats_} win{'s' * (len(group) == 1)} {rates} of games, {points} "
                f"point{'s' * (len(group) > 1 or abs(group[0]['difference_points']) != 1)} {word} the fair share")

    parts = [part(g, w) for g, w in ((more, "above"), (less, "below")) if g]
    text = (f"Seat order matters: {'; '.join(parts)} of {100 * fair:.1f} % (an equal part of the games not drawn), beyond "
            f"the noise of {games:,} games (95 % intervals taken together for the {n} seats).")
    return {"kind": "seat order", "text": text, "fair_share": round(fair, 4), "seats": off}


def findings(game, sim: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every finding of a simulation, most important first: the seat order (:func:`seat_order`),
    then each card or rule that never changed a result (``{"kind": "inert", "what", "chances",
    "unit", "text"}``)."""
    out = []
    seats = seat_order(sim)
    if seats:
        note = game.seat_order_note()
        if note:
            seats["text"] += f" {note}"
        out.append(seats)
    for e in inert(game.inert_effects(sim.get("tallies", {}))):
        out.append({"kind": "inert", "what": e.what, "chances": e.chances, "unit": e.unit,
                    "text": f"{e.what} never {e.result} in {e.chances:,} {e.unit} over {sim['games']:,} games: a dead card at "
                            "these parameters."})
    return out

"""What a Maybe Missions simulation reports, and the per-game counts it is computed from.

Definitions (each a count a reader can check by hand on a log):

* **score spread**: per game, the winner's score minus the last seat's, and minus the runner-up's
  (means per game);
* **which resources swing games**: in games with one winner, how often each resource is the
  winner's *doubled* resource (the one with the highest value ``v_r``; a tie counts for each);
* **which Master rules swing games**: for the rules that change how votes are counted or judged
  (vote_cutoff, vote_weight, active_vote_weight, success_margin), the share of rounds in force
  whose result differs from the result of the same votes each counted once under the usual test;
  for every rule, the share of its rounds that succeeded, and how often the seat holding a Master
  card of that rule at the end is among the winners (compare with 1 / players);
* identities (Secret Identities): how often the holder of each identity is among the winners;
* shop (Gadget Shopping): purchases per game by reward kind.
"""
from __future__ import annotations

from typing import Any, Mapping

from deckpress.rules.core.game import TERMINAL
from deckpress.rules.core.measures import Measure, per_game, rate
from deckpress.rules.maybe_missions.cards import RESOURCES
from deckpress.rules.maybe_missions.masters import TALLY_KINDS

_COUNTS = ("rounds", "successes", "all-NO rounds", "rounds ended by unanimity", "redeals", "cards proposed", "cards collected",
           "masters played", "purchases", "redraws", "variety rule waived")


def final_tally(state) -> dict[str, int]:
    """The state's running counts, plus (once the game is over) the winners' resources, Master
    cards and identities."""
    out = dict(state.counts)
    if state.current != TERMINAL:
        return out
    game = state.game
    scores = [state.score(s) for s in range(game.players)]
    ordered = sorted(scores, reverse=True)
    out["winner minus last"] = ordered[0] - ordered[-1]
    out["winner minus runner-up"] = ordered[0] - ordered[1]
    winners = [s for s, x in enumerate(scores) if x == ordered[0]]

    def add(key: str, k: int = 1) -> None:
        out[key] = out.get(key, 0) + k

    if len(winners) == 1:
        add("games with one winner")
        counts, _, _ = state.resource_counts(winners[0])
        weights = state.profile(winners[0]).weights
        values = [w * c for w, c in zip(weights, counts)]
        for r, v in enumerate(values):
            if v == max(values):
                add(f"winner's doubled resource: {RESOURCES[r]}")
    for seat, cards in enumerate(state.collected):
        for card in cards:
            if card >= game.n_missions:
                kind = game.master_rule[card]["kind"]
                add(f"held at the end: {kind}")
                add(f"held by a winner: {kind}", seat in winners)
        if game.identities:
            for what, i, names in (("public", state.public_id[seat], game.public_names), ("secret", state.secret_id[seat], game.secret_names)):
                add(f"{what} identity dealt: {names[i]}")
                add(f"{what} identity won: {names[i]}", seat in winners)
    return out


def measures(tallies: Mapping[str, int], games: int) -> list[Measure]:
    """The report's tables from the summed tallies (see the module docstring)."""
    t: Any = tallies
    g = lambda key: t.get(key, 0)  # noqa: E731
    out = [per_game("Score spread (mean per game)", name, g(name)) for name in ("winner minus last", "winner minus runner-up")]
    out += [rate("Resources: the winner's doubled resource (share of games with one winner; a tie counts for each)", r,
                 g(f"winner's doubled resource: {r}"), g("games with one winner")) for r in RESOURCES]
    kinds = sorted(k[len("in force: "):] for k in t if k.startswith("in force: "))
    out += [rate("Master rules: rounds whose result their vote counting changed (share of rounds in force)", k,
                 g(f"changed the result: {k}"), g(f"in force: {k}")) for k in kinds if k in TALLY_KINDS]
    out.append(rate("Master rules: rounds that succeeded (share of rounds in force)", "every round", g("successes"), g("rounds")))
    out += [rate("Master rules: rounds that succeeded (share of rounds in force)", k, g(f"succeeded: {k}"), g(f"in force: {k}")) for k in kinds]
    held = sorted(k[len("held at the end: "):] for k in t if k.startswith("held at the end: "))
    out += [rate("Master cards: the holder at the end is among the winners (share of cards held; compare 1/players)", k,
                 g(f"held by a winner: {k}"), g(f"held at the end: {k}")) for k in held]
    for what in ("public", "secret"):
        names = sorted(k[len(f"{what} identity dealt: "):] for k in t if k.startswith(f"{what} identity dealt: "))
        out += [rate(f"{what.capitalize()} identities: the holder is among the winners (share of games dealt)", name,
                     g(f"{what} identity won: {name}"), g(f"{what} identity dealt: {name}")) for name in names]
    out += [per_game("Shop: purchases per game by reward", k[len("bought: "):], total) for k, total in sorted(t.items()) if k.startswith("bought: ")]
    out += [per_game("Counts per game", name, g(name)) for name in _COUNTS if name in t]
    return out

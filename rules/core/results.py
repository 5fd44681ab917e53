"""A finished simulation as plain data: what ``deckpress simulate --format json`` prints, what
``deckpress check`` compares and keeps in its report.  Numbers are rounded so that the same spec
gives the same data on every machine; ``timing`` is the only part that changes between runs."""
from __future__ import annotations

from typing import Any

from deckpress.rules.core.balance import findings
from deckpress.rules.core.stats import percentile, wilson


def simulation_dict(result) -> dict[str, Any]:
    """The report of a simulation as plain data (what ``--format json`` prints).  ``timing`` is
    the only part that changes between runs of the same spec.

    A competitive game reports ``seats`` (wins per seat) and ``draws``; a cooperative game
    (``"cooperative": true``) reports ``team`` instead: the games the team won and the
    distribution of the result every seat shares (its mean, percentiles and histogram).

    ``findings``: what a designer must see, in words, most important first
    (:func:`deckpress.rules.core.balance.findings`): seats whose win share differs from the fair
    share beyond the noise, and every card or rule whose effect never changed a result.

    ``skill``: when exactly one seat is a search bot (``ismcts``, ``rollout``, or with ``:N``) and every
    other seat ``greedy``, its skill signal from this run (:func:`skill_dict`); else None."""
    spec, engine, t = result.spec, result.game, result.tally
    played = t.games
    lengths = {f"p{q}": percentile(t.lengths, q) for q in (10, 50, 90, 99)} if played else {}
    if played:
        lengths.update({"max": max(t.lengths), "mean": round(t.moves / played, 2)})
    outcome: dict[str, Any] = {"cooperative": engine.info.cooperative}
    if engine.info.cooperative:
        outcome["team"] = _team_dict(t, engine.info.result_name)
    else:
        outcome.update(seats=_seats(t, spec.bots, engine.players), draws=t.draws, draw_rate=_ratio(t.draws, played))
    out = {
        "game": engine.info.id, "engine": engine.engine_version(), "content_hash": engine.content_hash,
        "params": dict(engine.params), "bots": list(spec.bots), "seed": spec.seed, "batched": spec.engine == "batched",
        "games_requested": spec.games, "games": played, "cut_off_by_move_bound": t.cut_off,
        "move_bound": engine.max_length(), "stopped_by_time_limit": t.stopped_by_time, "time_limit_s": spec.time_limit,
        **outcome,
        "length_in_moves": lengths, "decision_rate": _ratio(t.decisions, t.moves),
        "tallies": dict(sorted(t.events.items())),
        "measures": [m.as_dict(played) for m in engine.measures(t.events, played)],
        "skill": skill_dict(result),
        "timing": {"workers": spec.workers, "elapsed_s": round(result.elapsed, 3),
                   "games_per_s": round(played / result.elapsed, 1) if result.elapsed else None,
                   "actions_per_s": round(t.actions / result.elapsed) if result.elapsed else None},
    }
    out["findings"] = findings(engine, out)
    return out


def skill_seat(bots: tuple[str, ...] | list[str]) -> int | None:
    """The seat of the one search bot (:func:`~deckpress.rules.core.bots.is_search_bot`:
    ``ismcts``, ``rollout``, with or without ``:N``) when every other seat is ``greedy``; else None."""
    from deckpress.rules.core.bots import is_search_bot

    search = [seat for seat, name in enumerate(bots) if is_search_bot(name)]
    if len(search) != 1 or any(name != "greedy" for seat, name in enumerate(bots) if seat != search[0]):
        return None
    return search[0]


def skill_dict(result) -> dict[str, Any] | None:
    """The skill signal (:mod:`deckpress.rules.core.skill`) of a run with one search bot seat
    against greedy seats, from that one run and, when the run kept one, ``result.baseline``: the
    same games with every seat greedy.  A competitive game: the search bot's win share (ties
    shared) in its one seat, with its Wilson 95 % interval, the even share, and greedy's own share
    in that seat.  A cooperative game: the team's mean result, and with the baseline the gain
    over every seat greedy with its 95 % interval.  None for other bots."""
    from deckpress.rules.core.skill import signal_from_tallies

    seat = skill_seat(result.spec.bots)
    if seat is None:
        return None
    return signal_from_tallies(result.game, result.spec.bots[seat], result.spec.seed, [(seat, result.tally)], result.baseline).as_dict()


def _seats(t, bots: tuple[str, ...], players: int) -> list[dict[str, Any]]:
    played = t.games
    seats = []
    for seat in range(players):
        low, high = wilson(t.wins[seat], played)
        seats.append({"seat": seat, "bot": bots[seat], "wins": t.wins[seat],
                      "win_rate": _ratio(t.wins[seat], played), "win_rate_95": [round(low, 4), round(high, 4)],
                      "shared_wins": t.shared[seat], "mean_score": round(t.score_sums[seat] / played, 3) if played else None})
    return seats


def _team_dict(t, result_name: str) -> dict[str, Any]:
    """A cooperative game's team result: wins (``winners()`` gave every seat) with their Wilson
    interval, and the shared result's mean, nearest-rank percentiles and histogram."""
    played = t.games
    low, high = wilson(t.team_wins, played)
    results = {_number(k): v for k, v in sorted(t.team_results.items())}
    out: dict[str, Any] = {"result": result_name, "wins": t.team_wins, "win_rate": _ratio(t.team_wins, played),
                           "win_rate_95": [round(low, 4), round(high, 4)], "mean": None, "percentiles": {}, "histogram": results}
    if played:
        out["mean"] = round(sum(k * v for k, v in t.team_results.items()) / played, 3)
        out["percentiles"] = {f"p{q}": _number(percentile(t.team_results, q)) for q in (10, 25, 50, 75, 90)}
        out["percentiles"].update(min=_number(min(t.team_results)), max=_number(max(t.team_results)))
    return out


def _number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


def _ratio(k: int, n: int) -> float | None:
    return round(k / n, 4) if n else None



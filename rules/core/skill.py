"""The skill signal: how much playing well pays off in a game.

One seat is played by the search bot ``ismcts:N`` (:mod:`deckpress.rules.core.ismcts`), which
looks ahead, and every other seat by the game's ``greedy`` bot, which does not.  The more often
the search bot wins, the more the game rewards skill; a variant that lowers the figure makes luck
decide more.

*Competitive games* report the search bot's **win share**, in % of games: a game it wins alone
counts 1, a game whose best result it shares counts a part of a win (see
:func:`win_credit`), so the seats' shares add up to 100 % and an **even share** is
``1 / players``; with its Wilson 95 % interval (:func:`deckpress.rules.core.stats.wilson`).  Where
the seats are not rotated (``deckpress simulate``'s one run) the baseline is greedy's own share in
that seat over the same seeds with every seat greedy, and the **gain** is the difference, with
Newcombe's 95 % interval (:func:`deckpress.rules.core.stats.difference_interval`).

*Cooperative games* (``GameInfo.cooperative``: 50 Missions) have no seat to win: they report the
team's mean result (``GameInfo.result_name``, e.g. missions completed) with one search bot seat
and with every seat greedy, over the same seeds, and the **gain**, in the result's units, with an
approximate 95 % interval (normal approximation to the difference of two means).

:attr:`SkillSignal.signal_points` puts both on one scale, in percentage points, for
``deckpress check``'s threshold: the win share (competitive), or the gain as a share of the
game's whole result range ``GameInfo.score_range`` (cooperative: 2 missions more out of 50 is
4 points).

To avoid seat bias the search bot changes seats: the games are split over the seats (seat ``s``
plays games ``0..n_s-1`` with the search bot in seat ``s``), each part one run of
:func:`deckpress.rules.core.simulate.simulate` with the same seed, so every seat's part starts
from the same deals, and the figures are the same for any number of workers.

Source: ``docs/engine-conventions.md``, "Balance by simulation" (a skill signal): reports give the
win rate of one ``ismcts`` seat against ``greedy`` seats, with its interval.
"""
from __future__ import annotations

import math
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from deckpress.rules.core.stats import Z95, difference_interval, wilson

#: Iterations a decision of the search bot in a skill signal (``deckpress check --skill-iterations``):
#: fewer than the plain ``ismcts`` bot's 100, for speed.
SKILL_ITERATIONS = 50
#: The bot every other seat plays.
OPPONENT = "greedy"


@dataclass(frozen=True)
class SkillSignal:
    """The figures of a skill signal (see the module docstring).  Shares are 0..1; ``by_seat``
    gives each seat's part (``seat``, ``games``, and ``win_share`` or ``team_mean``)."""

    game: str
    bot: str  # the search bot's name: "ismcts:50"
    against: str  # every other seat's bot: "greedy"
    players: int
    seed: int
    games: int  # finished games with the search bot (cut-off games are not counted)
    cut_off: int  # games with the search bot stopped by the move bound
    cooperative: bool
    # competitive games
    wins: int | None = None  # games the search bot won alone
    shared_best: int | None = None  # games whose best result it shared
    win_share: float | None = None  # ties shared, 0..1
    win_share_95: tuple[float, float] | None = None
    even_share: float | None = None  # 1 / players
    greedy_share: float | None = None  # greedy's share in the search bot's seats, the same seeds, every seat greedy
    # ``gain`` and ``gain_95`` below, when greedy_share is known: win_share - greedy_share, 0..1
    # cooperative games
    result: str | None = None  # what the team's result counts ("missions completed")
    score_range: tuple[float, float] | None = None
    team_mean: float | None = None  # with one search bot seat
    greedy_team_mean: float | None = None  # with every seat greedy, the same seeds
    greedy_games: int | None = None
    gain: float | None = None  # team_mean - greedy_team_mean, in the result's units (competitive: see above)
    gain_95: tuple[float, float] | None = None
    team_win_rate: float | None = None
    greedy_team_win_rate: float | None = None
    by_seat: list[dict[str, Any]] = field(default_factory=list)

    @property
    def signal_points(self) -> float | None:
        """The figure ``deckpress check`` compares, in percentage points: the win share
        (competitive), or the gain as a share of the result's range (cooperative)."""
        if not self.cooperative:
            return None if self.win_share is None else 100 * self.win_share
        if self.gain is None or self.score_range is None:
            return None
        low, high = self.score_range
        return 100 * self.gain / ((high - low) or 1.0)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready, numbers rounded (the same figures on every machine)."""
        out: dict[str, Any] = {"game": self.game, "bot": self.bot, "against": self.against, "players": self.players,
                               "seed": self.seed, "games": self.games, "cut_off_by_move_bound": self.cut_off,
                               "cooperative": self.cooperative}
        if self.cooperative:
            out.update(result=self.result, score_range=list(self.score_range) if self.score_range else None,
                       team_mean=_round(self.team_mean, 3), greedy_team_mean=_round(self.greedy_team_mean, 3),
                       greedy_games=self.greedy_games, gain=_round(self.gain, 3),
                       gain_95=[round(x, 3) for x in self.gain_95] if self.gain_95 else None,
                       team_win_rate=_round(self.team_win_rate, 4), greedy_team_win_rate=_round(self.greedy_team_win_rate, 4))
        else:
            out.update(wins=self.wins, shared_best=self.shared_best, win_share=_round(self.win_share, 4),
                       win_share_95=[round(x, 4) for x in self.win_share_95] if self.win_share_95 else None,
                       even_share=_round(self.even_share, 4), greedy_share=_round(self.greedy_share, 4),
                       gain=_round(self.gain, 4), gain_95=[round(x, 4) for x in self.gain_95] if self.gain_95 else None)
        out["signal_points"] = _round(self.signal_points, 2)
        out["by_seat"] = self.by_seat
        return out


def skill_signal(game_id: str, params: Mapping[str, Any], games: int, seed: int, iterations: int = SKILL_ITERATIONS,
                 workers: int = 1, content_dir: str | Path | None = None,
                 progress: Callable[[int], None] | None = None, bot: str | None = None) -> SkillSignal:
    """The skill signal of a game: ``games`` games with one ``ismcts:<iterations>`` seat (in each
    seat in turn) against ``greedy`` seats; a cooperative game also plays ``games`` games with
    every seat greedy.  ``params``: effective parameters or overrides (``players`` among them);
    ``workers``: processes, each running whole parts (the figures do not depend on it);
    ``progress(games_done)`` as parts finish (after each chunk with one worker); ``bot``: another
    search bot in that seat instead (``rollout``, ``rollout:N``; ``iterations`` is then unused).

    Raises:
        ParameterError: unknown game or parameter, a game without a ``greedy`` bot, iterations
            out of range, or ``bot`` not a search bot of the game.
        deckpress.generator.content.errors.ContentErrors: invalid content.
    """
    from deckpress.rules.core.bots import check_search_bot, make_bot
    from deckpress.rules.core.ismcts import IsmctsBot
    from deckpress.rules.core.registry import load
    from deckpress.rules.core.simulate import SimulationSpec

    if bot is None:
        bot = IsmctsBot(iterations).name
    check_search_bot(bot)
    game = load(game_id, overrides=dict(params), content_dir=Path(content_dir) if content_dir else None)
    make_bot(game_id, bot)  # a rollout seat needs the game's greedy bot: fail before any game
    players = game.players
    folder = str(content_dir) if content_dir else None
    effective = dict(game.params)
    runs: list[tuple[int | None, SimulationSpec]] = []
    for seat in range(players):
        part = games // players + (seat < games % players)
        if part:
            bots = tuple(bot if s == seat else OPPONENT for s in range(players))
            runs.append((seat, SimulationSpec(game_id, effective, bots, part, seed, content_dir=folder)))
    if game.info.cooperative:
        runs.append((None, SimulationSpec(game_id, effective, (OPPONENT,) * players, games, seed, content_dir=folder)))
    tallies = _run_all([spec for _, spec in runs], workers, progress)
    return signal_from_tallies(game, bot, seed, [(seat, t) for (seat, _), t in zip(runs, tallies) if seat is not None],
                               next((t for (seat, _), t in zip(runs, tallies) if seat is None), None))


def signal_from_tallies(game, bot: str, seed: int, parts: Sequence[tuple[int, Any]], all_greedy=None) -> SkillSignal:
    """A skill signal from simulation tallies (:class:`~deckpress.rules.core.simulate.Tally`):
    ``parts`` pairs the search bot's seat with the tally of the games it played there (every
    other seat greedy); ``all_greedy`` is the tally of the same seeds with every seat greedy.
    A cooperative game's gain needs it (without it the gain is None); in a competitive game it
    gives ``greedy_share``, what greedy itself won in the search bot's seats: the baseline when
    the seats are not rotated, as in ``deckpress simulate``'s one run with one search bot seat,
    where the seat's own advantage would otherwise pass for skill (three-seat Maybe Missions:
    greedy in seat 0 wins some 40 % of all-greedy games, not an even 33 %)."""
    players, cooperative = game.players, game.info.cooperative
    played = sum(t.games for _, t in parts)
    common = dict(game=game.info.id, bot=bot, against=OPPONENT, players=players, seed=seed, games=played,
                  cut_off=sum(t.cut_off for _, t in parts), cooperative=cooperative)
    if cooperative:
        results = _merged_results([t for _, t in parts])
        mean, var = _mean_var(results)
        by_seat = [{"seat": s, "games": t.games, "team_mean": _round(_mean_var(t.team_results)[0], 3)} for s, t in parts]
        out = SkillSignal(**common, result=game.info.result_name, score_range=tuple(game.score_range()), team_mean=mean,
                          team_win_rate=sum(t.team_wins for _, t in parts) / played if played else None, by_seat=by_seat)
        if all_greedy is None or mean is None or not all_greedy.games:
            return out
        base_mean, base_var = _mean_var(all_greedy.team_results)
        if base_mean is None:  # no result counted, as with no game
            return out
        team_gain = mean - base_mean
        half = Z95 * math.sqrt(var / played + base_var / all_greedy.games)
        return replace(out, greedy_team_mean=base_mean, greedy_games=all_greedy.games, gain=team_gain,
                       gain_95=(team_gain - half, team_gain + half),
                       greedy_team_win_rate=all_greedy.team_wins / all_greedy.games)
    credit = sum(win_credit(t, s) for s, t in parts)
    by_seat = [{"seat": s, "games": t.games, "win_share": _round(win_credit(t, s) / t.games, 4) if t.games else None} for s, t in parts]
    greedy_share: float | None = None
    gain: float | None = None
    gain_95: tuple[float, float] | None = None
    if all_greedy is not None and all_greedy.games and played:  # weighted as the search bot's games are over its seats
        greedy_share = sum(win_credit(all_greedy, s) / all_greedy.games * t.games for s, t in parts) / played
        gain = credit / played - greedy_share
        gain_95 = difference_interval(credit, played, greedy_share * all_greedy.games, all_greedy.games)
    return SkillSignal(**common, wins=sum(t.wins[s] for s, t in parts), shared_best=sum(t.shared[s] for s, t in parts),
                       win_share=credit / played if played else None, win_share_95=wilson(credit, played) if played else None,
                       even_share=1 / players, greedy_share=greedy_share, gain=gain, gain_95=gain_95, by_seat=by_seat)


def change_interval(base: SkillSignal, variant: SkillSignal) -> tuple[float, float] | None:
    """The 95 % interval of the variant's :attr:`~SkillSignal.signal_points` minus the base's, in
    percentage points, or None when either has no figure.  Competitive: Newcombe's interval for
    the difference of the two win shares (:func:`~deckpress.rules.core.stats.difference_interval`);
    cooperative: the normal one for the difference of the two gains (their halves added in
    quadrature), as a share of the result's range.  Base and variant are separate runs, so the
    interval takes them as independent (with the same seeds, it errs on the wide side)."""
    if variant.signal_points is None or base.signal_points is None:
        return None
    if base.cooperative:
        if base.gain is None or variant.gain is None or base.gain_95 is None or variant.gain_95 is None or base.score_range is None:
            return None
        low, high = base.score_range
        half = math.hypot(base.gain_95[1] - base.gain, variant.gain_95[1] - variant.gain) * 100 / ((high - low) or 1.0)
        change = variant.signal_points - base.signal_points
        return change - half, change + half
    if variant.win_share is None or base.win_share is None:  # as signal_points says
        return None
    low, high = difference_interval(variant.win_share * variant.games, variant.games, base.win_share * base.games, base.games)
    return 100 * low, 100 * high


def win_credit(tally, seat: int) -> float:
    """The wins of ``seat`` in ``tally``, a shared best result counting as a part of a win.

    A :class:`~deckpress.rules.core.simulate.Tally` counts a seat's games won alone and the games
    whose best result it shared, not with how many seats: a shared game counts ``1 / k``, ``k``
    the mean number of seats sharing the best result in the tally's shared games
    (``sum(shared) / draws``).  That is exact with two seats (``k`` = 2) and whenever every tie has
    the same number of seats; in every case the seats' credits add up to the finished games
    (a competitive game always has a best result)."""
    shared_slots = sum(tally.shared)
    return tally.wins[seat] + (tally.shared[seat] * tally.draws / shared_slots if shared_slots else 0.0)


def _run_all(specs: list, workers: int, progress: Callable[[int], None] | None) -> list:
    """The tallies of ``specs``, in order: one after the other, or whole specs on ``workers``
    processes."""
    from deckpress.rules.core.simulate import simulate

    tallies: list = [None] * len(specs)
    done = 0
    if workers <= 1 or len(specs) <= 1:
        for i, spec in enumerate(specs):
            tell = (lambda n, before=done: progress(before + n)) if progress else None
            tallies[i] = simulate(spec, progress=tell).tally
            done += spec.games
        return tallies
    with ProcessPoolExecutor(max_workers=min(workers, len(specs))) as pool:
        pending = {pool.submit(_tally, spec): i for i, spec in enumerate(specs)}
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                i = pending.pop(future)
                tallies[i] = future.result()
                done += specs[i].games
                if progress:
                    progress(done)
    return tallies


def _tally(spec):
    """One spec's tally (a worker's unit of work: the tally pickles small, the game does not)."""
    from deckpress.rules.core.simulate import simulate

    return simulate(spec).tally


def _merged_results(tallies) -> dict[float, int]:
    merged: dict[float, int] = {}
    for t in tallies:
        for value, count in t.team_results.items():
            merged[value] = merged.get(value, 0) + count
    return merged


def _mean_var(histogram: Mapping[float, int]) -> tuple[float | None, float]:
    """Mean and (sample) variance of values counted in ``histogram``."""
    n = sum(histogram.values())
    if not n:
        return None, 0.0
    mean = sum(k * v for k, v in histogram.items()) / n
    var = sum(v * (k - mean) ** 2 for k, v in histogram.items()) / (n - 1) if n > 1 else 0.0
    return mean, var


def _round(x: float | None, digits: int) -> float | None:
    return None if x is None else round(x, digits)


def total_games(games: int, cooperative: bool) -> int:
    """The games a skill signal of ``games`` plays in all (a cooperative game adds its all-greedy run)."""
    return 2 * games if cooperative else games

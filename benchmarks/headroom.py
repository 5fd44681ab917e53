"""How much skill is left above greedy?  The most one decision can gain over the ``greedy`` bot's
choice, measured by long paired roll-outs (why no search bot beats greedy in
a game).

Decision points are taken from games of ``greedy`` against ``greedy``: every ``--every``-th
decision where one seat is due with two legal actions or more (a simultaneous step, such as
Geheime Mission's back door, is left out: its choices are a guessing game).  At each one, every legal
action is played on ``--samples`` states and ``greedy`` plays every seat to the end of the game,
all actions on the same sampled luck (common random numbers, as ``rollout`` compares them).  The
states are drawn from the seat's view (:meth:`~deckpress.rules.core.game.View.sample_state`: the
other hands dealt again from what the seat cannot see), or with ``--seen`` they are the real state
(the other hands as they are; chance events are still drawn as the roll-out goes, since every
engine draws them when they happen): a bound from above for what a bot could learn of the hands.

The figure is the **gain of a one-step improver**: half the samples pick the action that did best,
the other half measure its result against greedy's own choice, and then the halves swap (so the
pick's luck does not count as gain).  Its mean over the decisions is printed with a 95 % interval
against the baseline, greedy's own choice, which gains 0: an interval around 0 means that no action
was found better than greedy's by as many roll-outs as a decision here had.  Result: the seat's win credit (1 a win, 1/2 a shared
first place, 0 otherwise) in a competitive game, the team's result in a cooperative one; the
margin over the best other seat is printed too.  A seat makes many decisions a game, so a gain
per decision is multiplied by them in a whole game (approximately).  Figures of 2026-11: in the
docstring of ``rules/core/rollout.py`` (Geheime Mission against Mission Emission).

Usage: ``python benchmarks/headroom.py GAME [--players 2] [--decisions 200] [--samples 400] [--seen]``.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from typing import Iterator

from deckpress.rules.core.bots import make_bot
from deckpress.rules.core.game import TERMINAL, State
from deckpress.rules.core.registry import load
from deckpress.rules.core.rollout import play_on
from deckpress.rules.core.simulate import game_rng


def decision_points(game, greedy, seed: int, every: int) -> Iterator[tuple[State, int, list[int], int]]:
    """``(state, seat, legal actions, greedy's choice)`` at every ``every``-th real decision (one
    seat due, two legal actions or more) of greedy games seeded ``seed``; the state is a copy."""
    count = 0
    for index in range(1_000_000):
        rng, state = game_rng(seed, index), game.new_state()
        while state.current != TERMINAL:
            seat = state.current
            legal = state._legal_actions(seat) if seat >= 0 else []
            if len(legal) > 1:
                count += 1
                if count % every == 0:
                    yield state.clone(), seat, legal, greedy.act(state.view(seat), legal, random.Random(count))
            play_on(state, greedy, rng, 1)


def results(game, greedy, state: State, seat: int, legal: list[int], samples: int, seen: bool,
            rng: random.Random) -> tuple[dict[int, list[float]], dict[int, list[float]]]:
    """Per legal action, its ``samples`` roll-out results: the seat's win credit and its margin
    over the best other seat; in a cooperative game the team's result, and no margins."""
    credit: dict[int, list[float]] = {a: [] for a in legal}
    margin: dict[int, list[float]] = {a: [] for a in legal}
    cooperative = game.info.cooperative
    for _ in range(samples):
        start = state.clone() if seen else state.view(seat).sample_state(rng)
        luck = rng.getstate()
        for action in legal:
            rng.setstate(luck)
            played = start.clone()
            played.apply_trusted(action, seat)
            play_on(played, greedy, rng, game.max_length())
            scores = played.returns()
            if cooperative:
                credit[action].append(scores[seat])
                continue
            best_other = max(scores[:seat] + scores[seat + 1:])
            margin[action].append(scores[seat] - best_other)
            credit[action].append(1.0 if scores[seat] > best_other else 0.5 if scores[seat] == best_other else 0.0)
    return credit, margin


def split_gain(values: dict[int, list[float]], default: int) -> float:
    """The one-step improver's gain over ``default``: the best action on one half of the samples,
    measured on the other half against ``default``, both ways round, averaged.  Equal totals keep
    ``default``."""
    half = len(values[default]) // 2
    gains = []
    for pick_part, measure_part in ((slice(None, half), slice(half, None)), (slice(half, None), slice(None, half))):
        pick = max(values, key=lambda a: (sum(values[a][pick_part]), a == default))
        measured = values[pick][measure_part]
        gains.append((sum(measured) - sum(values[default][measure_part])) / len(measured))
    return sum(gains) / 2


def interval(xs: list[float]) -> str:
    """Mean with its normal 95 % interval."""
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return f"{mean:+.4f} (95 % {mean - half:+.4f} to {mean + half:+.4f})"


def main() -> None:
    """One line per measure: the mean gain a decision over greedy with its interval."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--samples", type=int, default=400, help="roll-outs of each action at a decision")
    parser.add_argument("--every", type=int, default=9, help="take every N-th decision (spreads them over the game)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--seen", action="store_true", help="the real state: the other hands seen")
    args = parser.parse_args()
    game = load(args.game, None, {"players": args.players})
    greedy = make_bot(args.game, "greedy")
    rng = random.Random(f"headroom/{args.seed}")
    started = time.process_time()
    credit_gains, margin_gains, decisions = [], [], 0
    for state, seat, legal, choice in decision_points(game, greedy, args.seed, args.every):
        if decisions == args.decisions:
            break
        credit, margin = results(game, greedy, state, seat, legal, args.samples, args.seen, rng)
        credit_gains.append(split_gain(credit, choice))
        if not game.info.cooperative:
            margin_gains.append(split_gain(margin, choice))
        decisions += 1
    result = "team result" if game.info.cooperative else "win credit"
    hands = "the real state (other hands seen)" if args.seen else "states sampled from the seat's view"
    print(f"{args.game}, {args.players} seats: {decisions} decisions, {args.samples} paired roll-outs to the end per action, "
          f"{hands}; {time.process_time() - started:.0f} s CPU")
    print(f"  gain a decision over greedy's choice, {result}: {interval(credit_gains)}")
    if not game.info.cooperative:
        print(f"  gain a decision over greedy's choice, margin over the best other seat: {interval(margin_gains)}")


if __name__ == "__main__":
    main()

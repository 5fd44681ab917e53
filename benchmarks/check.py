"""Speed of ``deckpress check`` (issue 13): every shipped example variant checked at its default
games per side, and the 50 Missions greedy bot that was its bottleneck.

1. **Examples**: each file of ``content/variants/`` through :func:`deckpress.generator.check.run_check`
   with the default options (2,000 games a side, 2 workers), as ``deckpress check`` runs it: the
   wall-clock time, the games per side and the verdict.  Target: under 60 s each on this project's
   2-core machine.
2. **50 Missions greedy bot**, three seats on one core, against its baseline in the same run: the
   same heuristic evaluated condition by condition, as the bot did before its answers were
   memoised (:class:`ConditionByCondition`, kept here only as that baseline).  The two must choose
   the same moves (the games' results are compared); target: at least 20 times faster was asked,
   and the figure says how far it gets.

Usage: ``python benchmarks/check.py [--games 300] [--skip-examples]``.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from deckpress.generator.check import CheckOptions, run_check
from deckpress.rules.core.bots import make_bot
from deckpress.rules.core.registry import load
from deckpress.rules.core.simulate import game_rng, play_game
from deckpress.rules.fifty_missions.state import SLOTS

EXAMPLES = Path(__file__).resolve().parents[1] / "content" / "variants"
TARGET_S = 60.0
SPEED_UP_TARGET = 20.0


class ConditionByCondition:
    """The greedy heuristic of ``rules/fifty_missions/greedy.py``, every condition evaluated on
    every candidate row (the bot before issue 13): the baseline, same choices, no memo."""

    name = "greedy-unmemoised"
    uses_view = True

    def act(self, view, legal, rng) -> int:
        game = view.game
        kinds = game.kinds
        face_up = view.face_up
        missions = [game.met[m] for m in view.missions if m >= 0]
        unseen = [game.copies] * game.n_kinds
        for c in face_up + [c for pile in view.covered or () for c in pile]:
            unseen[c] -= 1
        talk, following = view.talk, view.next_seat
        only = talk[following] if talk is not None and following is not None and following != view.seat else None
        best, choice = None, legal[0]
        for action in legal:
            card, slot = divmod(action, SLOTS)
            row = face_up[:]
            row[slot] = card
            display = tuple(kinds[c] for c in row)
            accomplished = sum(met(display) for met in missions)
            options = 0
            for j, top in enumerate(row):
                for k in game.coverers[top]:
                    if unseen[k] > 0:
                        after = display[:j] + (kinds[k],) + display[j + 1:]
                        options += any(met(after) for met in missions)
            key = (accomplished, only != [slot], options, rng.random())
            if best is None or key > best:
                best, choice = key, action
        return choice


def bot_speed(games: int) -> None:
    """Games/s of the memoised bot and of the baseline on the same seeded games."""
    game = load("fifty-missions", overrides={"players": 3})
    results = {}
    for label, bot in (("baseline: condition by condition", ConditionByCondition()), ("greedy (memoised)", make_bot("fifty-missions", "greedy"))):
        started = time.perf_counter()
        finals = [play_game(game, [bot] * 3, game_rng(1, i))[0] for i in range(games)]
        elapsed = time.perf_counter() - started
        results[label] = (games / elapsed, [f.history for f in finals])
        print(f"  {label:34} {games / elapsed:8.1f} games/s")
    (slow, slow_games), (fast, fast_games) = results.values()
    same = "same moves in every game" if slow_games == fast_games else "DIFFERENT MOVES: the memo changed the bot"
    print(f"  speed-up {fast / slow:.1f}x ({same}; asked: {SPEED_UP_TARGET:g}x)")


def examples() -> None:
    """Each example variant checked with the default options."""
    for path in sorted(EXAMPLES.glob("*.yaml")):
        started = time.perf_counter()
        report = run_check(path, CheckOptions())
        elapsed = time.perf_counter() - started
        games = report.simulation["variant"]["games"] if report.simulation else 0
        mark = "ok" if elapsed < TARGET_S else "OVER TARGET"
        print(f"  {path.name:42} {elapsed:6.1f} s  {games:,} games a side  verdict {report.verdict:7} {mark} (target {TARGET_S:g} s)")


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games for the bot comparison [300]")
    parser.add_argument("--skip-examples", action="store_true", help="only the bot comparison")
    args = parser.parse_args()
    print(f"50 Missions greedy bot, 3 seats, {args.games} games, one core:")
    bot_speed(args.games)
    if not args.skip_examples:
        print("deckpress check on every shipped example variant (defaults: 2,000 games a side, 2 workers):")
        examples()


if __name__ == "__main__":
    main()

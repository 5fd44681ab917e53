"""Speed of ``deckpress check``: every shipped example variant checked at its default
games per side, and the 50 Missions greedy bot that was its bottleneck.

1. **Examples**: each file of ``content/variants/`` through :func:`deckpress.generator.check.run_check`
   with the default options (2,000 games a side, 2 workers), as ``deckpress check`` runs it: the
   wall-clock time, the games per side and the verdict.  Target: under 60 s each on this project's
   2-core machine.
2. **50 Missions greedy bot**, three seats on one core, against its baseline in the same run: the
   same heuristic evaluated condition by condition, as the bot did before its answers were
   memoised (:class:`ConditionByCondition`, kept here only as that baseline).  The two must choose
   the same moves (the games' histories are compared).  Printed: the bot's own time per decision
   (the engine's time left out) and whole games per second, with a cold table and over the 2,000
   games of one side of a default check (the table is shared by every game a process plays);
   then a game's time split into the bot's decisions and the rest (the engine, which reads the
   missions met from the same table, the views, the driver).  Each bot plays on a game object of
   its own, so the baseline's games do not warm the memoised bot's table.
   Target: at least 20 times faster was asked, and the figures say how far it gets.

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
    every candidate row (the bot before it kept a memo): the baseline, same choices, no memo."""

    name = "greedy-unmemoised"
    uses_view = True

    def act(self, view, legal, rng) -> int:
        """The legal action the heuristic rates best, every condition checked on every row."""
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


class Timed:
    """Wraps a bot and adds up the time spent in its decisions (s), so that the bot is measured
    apart from the engine it plays in."""

    uses_view = True

    def __init__(self, bot):
        self.bot, self.name, self.seconds, self.decisions = bot, bot.name, 0.0, 0

    def act(self, view, legal, rng) -> int:
        """The wrapped bot's action, its thinking time (s) and decision counted."""
        started = time.perf_counter()
        action = self.bot.act(view, legal, rng)
        self.seconds += time.perf_counter() - started
        self.decisions += 1
        return action


def _play(game, bot, games: int, first: int = 0):
    """Seeded three-seat games ``first`` .. ``first + games - 1``: (final states, wall-clock s)."""
    started = time.perf_counter()
    finals = [play_game(game, [bot] * 3, game_rng(1, i))[0] for i in range(first, first + games)]
    return finals, time.perf_counter() - started


def bot_speed(games: int, check_games: int) -> None:
    """The memoised bot against its baseline on the same seeded games: the bot's own time per
    decision (us) and whole games per second (engine included); then the memoised bot over as
    many games as one side of a default check, whose table warms as games go on.  Each bot plays on
    a game object of its own: the engine reads the missions met from the game's memo too, and the
    baseline's games must not warm the memoised bot's table."""
    slow, fast = Timed(ConditionByCondition()), Timed(make_bot("fifty-missions", "greedy"))
    slow_games, slow_s = _play(load("fifty-missions", overrides={"players": 3}), slow, games)
    game = load("fifty-missions", overrides={"players": 3})
    fast_games, fast_s = _play(game, fast, games)
    same = [f.history for f in slow_games] == [f.history for f in fast_games]
    per = {bot: bot.seconds / bot.decisions * 1e6 for bot in (slow, fast)}
    print(f"  {'baseline: condition by condition':34} {games / slow_s:8.1f} games/s  {per[slow]:7.1f} us a decision")
    print(f"  {'greedy (memoised), cold table':34} {games / fast_s:8.1f} games/s  {per[fast]:7.1f} us a decision")
    print(f"  same moves in every game: {'yes' if same else 'NO: the memo changed the bot'}")
    warm = Timed(fast.bot)
    _, warm_s = _play(game, warm, check_games - games, first=games)
    total_decisions = fast.decisions + warm.decisions
    total_bot = (fast.seconds + warm.seconds) / total_decisions * 1e6
    print(f"  greedy over {check_games:,} games (one side of a check): {check_games / (fast_s + warm_s):.1f} games/s, "
          f"{total_bot:.1f} us a decision")
    print(f"  speed-up of the bot's decisions: {per[slow] / per[fast]:.1f}x cold, {per[slow] / total_bot:.1f}x over "
          f"{check_games:,} games; of whole games (engine included): {(games / fast_s) / (games / slow_s):.1f}x cold, "
          f"{(check_games / (fast_s + warm_s)) / (games / slow_s):.1f}x over {check_games:,} (asked: {SPEED_UP_TARGET:g}x)")
    slow_bot, fast_bot = slow.seconds / games * 1e3, (fast.seconds + warm.seconds) / check_games * 1e3
    print(f"  a game's time, the bot's decisions + the rest (engine, views, driver): baseline {slow_bot:.2f} + "
          f"{slow_s / games * 1e3 - slow_bot:.2f} ms, greedy {fast_bot:.2f} + {(fast_s + warm_s) / check_games * 1e3 - fast_bot:.2f} ms "
          f"over {check_games:,} games")


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
    parser.add_argument("--check-games", type=int, default=2000, help="games for the warm-table figure [2000]")
    parser.add_argument("--skip-examples", action="store_true", help="only the bot comparison")
    args = parser.parse_args()
    print(f"50 Missions greedy bot, 3 seats, {args.games} games, one core:")
    bot_speed(args.games, max(args.check_games, args.games))
    if not args.skip_examples:
        print("deckpress check on every shipped example variant (defaults: 2,000 games a side, 2 workers):")
        examples()


if __name__ == "__main__":
    main()

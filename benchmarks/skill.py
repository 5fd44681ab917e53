"""Does the search bot beat greedy? The skill signal of every game with an engine.

For each game: ``--games`` games with one ``ismcts:N`` seat (or ``--bot rollout``, the roll-out
bot, :mod:`deckpress.rules.core.rollout`) against ``greedy`` seats, the search bot in every seat in turn (:func:`deckpress.rules.core.skill.skill_signal`, as ``deckpress check
--skill-games`` measures it), against the baseline in the same run:

* a competitive game: the search bot's win share with its Wilson 95 % interval, against the even
  share ``1 / players`` (the seats rotate, so a seat's own advantage cancels out);
* a cooperative game (50 Missions): the team's mean result with one search bot seat against
  every seat greedy over the same seeds, and the gain with its 95 % interval.

A verdict says whether the interval lies above the baseline ("beats greedy"), below it, or
overlaps it.  These runs take minutes (a search bot of 100 iterations plays a decision in tens of
milliseconds), which is why the tests hold fewer games (``tests/rules/test_ismcts.py``: Mission
Emission; ``tests/rules/test_rollout.py``: Maybe Missions, and 50 Missions with ``rollout:8``).  Figures of 2026-11:
in the docstrings of ``rules/core/ismcts.py`` (``ismcts:100``) and ``rules/core/rollout.py``.

Usage: ``python benchmarks/skill.py [--games 150] [--iterations 100] [--bot rollout] [--only GAME] [--workers 2]``.
"""
from __future__ import annotations

import argparse
import time

from deckpress.rules.core.skill import skill_signal

#: (game, players) measured: every game with an engine, at a seat count its rulebook favours.
CASES = [("mission-emission", 2), ("geheime-mission", 2), ("maybe-missions", 3), ("fifty-missions", 2)]


def verdict(low: float, high: float, baseline: float) -> str:
    """Where an interval ``low..high`` lies against ``baseline``."""
    return "beats greedy" if low > baseline else "below greedy" if high < baseline else "not told apart from greedy"


def main() -> None:
    """One line per game: the search bot's figure, its interval, the baseline and the verdict."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bot", default=None, help="another search bot than ismcts:ITERATIONS (rollout, rollout:N)")
    parser.add_argument("--only", default=None, help="one game id")
    args = parser.parse_args()
    for game_id, players in CASES:
        if args.only and game_id != args.only:
            continue
        started = time.time()
        s = skill_signal(game_id, {"players": players}, args.games, seed=args.seed, iterations=args.iterations, workers=args.workers,
                         bot=args.bot)
        took = time.time() - started
        if s.cooperative:
            if s.gain is None or s.gain_95 is None:
                print(f"{game_id:<17} {players} seats: no finished games")
                continue
            low, high = s.gain_95
            print(f"{game_id:<17} {players} seats  {s.result}: {s.team_mean:.2f} with one {s.bot} seat, {s.greedy_team_mean:.2f} "
                  f"all greedy; gain {s.gain:+.2f} (95 % {low:+.2f} to {high:+.2f})  {verdict(low, high, 0.0)}  "
                  f"({s.games} games, {took:.0f} s)")
        else:
            if s.win_share is None or s.win_share_95 is None or s.even_share is None:
                print(f"{game_id:<17} {players} seats: no finished games")
                continue
            low, high = s.win_share_95
            print(f"{game_id:<17} {players} seats  {s.bot} won {100 * s.win_share:.1f} % (95 % {100 * low:.1f}-{100 * high:.1f} %), "
                  f"even share {100 * s.even_share:.1f} %  {verdict(low, high, s.even_share)}  ({s.games} games, {took:.0f} s)")


if __name__ == "__main__":
    main()

"""A million Mission Emission base games with random bots on two cores.

The long goal: under a minute.  Measured here, in the same run:

* **batched**: ``deckpress simulate mission-emission --games 1000000 --workers 2 --batched``
  (``rules/mission_emission/batched/base.py``, NumPy, every unfinished game's round at once);
* **baseline**: the reference engine (every game through its State and bots, the readable truth)
  on ``--reference-games`` games on the same two workers, its time scaled to a million games.

It also prints both runs' win shares, mean rounds and tie rate, which should agree within the
noise (``tests/rules/test_mission_emission_batched.py`` tests that).

Usage: ``python benchmarks/million.py [--games 1000000] [--reference-games 40000] [--workers 2]``.
"""
from __future__ import annotations

import argparse

from deckpress.rules.core.registry import load
from deckpress.rules.core.simulate import SimulationSpec, simulate

TARGET_S = 60.0


def run(games: int, workers: int, engine: str) -> tuple[float, list[float], float, float]:
    """``(seconds, win share per seat, rounds a game, tied rounds a game)`` of one run, 4 seats."""
    game = load("mission-emission", "base", {"players": 4})
    result = simulate(SimulationSpec("mission-emission", dict(game.params), ("random",) * 4, games, 1, workers=workers, engine=engine))
    t = result.tally
    return result.elapsed, [w / t.games for w in t.wins], t.events["rounds"] / t.games, t.events["tied rounds"] / t.games


def main() -> None:
    """Print the baseline, the batched run and the verdict against the one-minute goal."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--reference-games", type=int, default=40_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    for label, games, engine in (("reference", args.reference_games, "reference"), ("batched", args.games, "batched")):
        elapsed, wins, rounds, ties = run(games, args.workers, engine)
        per_million = elapsed * 1_000_000 / games
        print(f"{label:<10} {games:>9,} games in {elapsed:7.2f} s on {args.workers} workers: {games / elapsed:>9,.0f} games/s, "
              f"{per_million:6.1f} s a million | wins {' '.join(f'{w:.3f}' for w in wins)} | rounds {rounds:.3f} | ties {ties:.3f}")
        if label == "reference":
            baseline = per_million
    print(f"batched: {baseline / per_million:.1f}x the reference engine; a million games in {per_million:.1f} s "
          f"({'meets' if per_million < TARGET_S else 'misses'} the goal of under {TARGET_S:g} s on {args.workers} cores)")


if __name__ == "__main__":
    main()

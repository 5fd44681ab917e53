"""The measured effect of every reading of a rulebook (``GameInfo.readings``): the figures that
``deckpress describe`` and ``docs/rules-audit.md`` quote.

For each reading of each game (or of ``--only GAME``), the same seeded games (``game_rng(seed,
i)``, random bots unless ``--bots``) are played under each of its values, with the reading's
``measure`` parameters (the expansion it belongs to, a player count).  Printed per value:

* a game played by each side (``competitive``): the mean winning score, the share of games with
  a shared win, each seat's win share;
* a cooperative game: the team's mean result and its win rate (a medal, say);
* against the default, on the same seeds: the share of games whose winners (a cooperative game:
  whose result) differ.  Where a reading changes only the final count (a secret identity's
  scoring, say) random bots play the very same games under both values, so this is the share of
  games the reading decides; where it changes play, the games part ways and the share also counts
  games that merely went differently.

Usage: ``python benchmarks/readings.py [--only GAME] [--param NAME] [--games 1000] [--seed 1] [--bots greedy]``.
"""
from __future__ import annotations

import argparse
import time

from deckpress.rules.core.bots import make_bot
from deckpress.rules.core.registry import game_class, known_games, load
from deckpress.rules.core.simulate import game_rng, play_game


def outcomes(game_id: str, params: dict, games: int, seed: int, bot: str) -> list[tuple]:
    """``(winners, returns)`` of ``games`` seeded games under ``params``."""
    game = load(game_id, None, params)
    bots = [make_bot(game_id, bot)] * game.players
    out = []
    for i in range(games):
        state = play_game(game, bots, game_rng(seed, i))[0]
        out.append((tuple(state.winners()), tuple(state.returns())))
    return out


def describe_side(results: list[tuple], cooperative: bool, players: int) -> str:
    """One value's figures in words."""
    n = len(results)
    if cooperative:
        mean = sum(r[1][0] for r in results) / n
        won = sum(1 for r in results if r[0]) / n
        return f"team result {mean:.2f} a game, won {100 * won:.1f} %"
    top = sum(max(r[1]) for r in results) / n
    shared = sum(1 for r in results if len(r[0]) > 1) / n
    shares = [sum(1 for r in results if s in r[0]) / n for s in range(players)]
    return (f"winning score {top:.2f}, shared wins {100 * shared:.1f} %, seat win shares "
            + " / ".join(f"{100 * x:.1f}" for x in shares) + " %")


def main(argv: list[str] | None = None) -> None:
    """Print the figures of every reading (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="one game id")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", help="one bot for every seat (default: each reading's own, random or greedy)")
    parser.add_argument("--param", help="only this reading")
    args = parser.parse_args(argv)
    print(f"{time.strftime('%Y-%m-%d')}: python benchmarks/readings.py --games {args.games} --seed {args.seed}" + (f" --bots {args.bots}" if args.bots else ""))
    for game_id in known_games():
        if args.only and game_id != args.only:
            continue
        info = game_class(game_id).info
        for reading in info.readings:
            if args.param and reading.param != args.param:
                continue
            base = dict(reading.measure)
            bot = args.bots or reading.bots
            default_game = load(game_id, None, base)
            default = default_game.params[reading.param]
            print(f"\n{game_id}: {reading.param} ({', '.join(f'{k}={v}' for k, v in base.items()) or 'defaults'}; "
                  f"{default_game.players} players, {args.games} games, {bot} bots)")
            started = time.perf_counter()
            first = outcomes(game_id, {**base, reading.param: default}, args.games, args.seed, bot)
            print(f"  {default!s:>20} (default): {describe_side(first, info.cooperative, default_game.players)}")
            for value in reading.values():
                if value == default:
                    continue
                other = outcomes(game_id, {**base, reading.param: value}, args.games, args.seed, bot)
                key = 1 if info.cooperative else 0
                differ = sum(1 for a, b in zip(first, other) if a[key] != b[key]) / args.games
                print(f"  {value!s:>20}: {describe_side(other, info.cooperative, default_game.players)}; "
                      f"{'result' if info.cooperative else 'winners'} differ in {100 * differ:.1f} % of the same seeded games")
            print(f"  ({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()

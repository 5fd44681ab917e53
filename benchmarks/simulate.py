"""Speed of the rules engines on one core: games/s and actions/s per mode with random bots.

For each Mission Emission mode it measures, on the same seeded games:

* **baseline**: a bare Python loop drawing one random number per action (the floor any pure-Python
  engine pays);
* **fast path**: ``play_game`` (bots' actions through ``State.apply_trusted``), as simulations run;
* **validated**: the recorded actions applied again through ``State.apply`` (every check on);
* **log replay**: the recorded games as logs (names, not numbers) through ``deckpress.rules.core.replay``,
  as ``deckpress replay`` runs.

Targets (issue 3): at least 300,000 actions/s on the fast path and 100,000 validated.
Usage: ``python benchmarks/simulate.py [--games 2000] [--players 4] [--bots random]``.
"""
from __future__ import annotations

import argparse
import random
import time

from deckpress.generator.content import load_game
from deckpress.rules.core.bots import make_bot
from deckpress.rules.core.log import record
from deckpress.rules.core.replay import replay
from deckpress.rules.core.simulate import game_rng, play_game
from deckpress.rules.mission_emission import MissionEmissionGame

FAST_TARGET = 300_000
VALIDATED_TARGET = 100_000


def measure(mode: str, players: int, games: int, bot: str, content) -> list[tuple[str, float, float]]:
    """``(path, games/s, actions/s)`` for each path on ``games`` seeded games of ``mode``."""
    game = MissionEmissionGame.create(content, overrides={"mode": mode, "players": players})
    bots = [make_bot(game.info.id, bot) for _ in range(players)]

    started = time.perf_counter()
    finals = [play_game(game, bots, game_rng(1, i))[0] for i in range(games)]
    fast = time.perf_counter() - started
    histories = [s.history for s in finals]
    actions = sum(len(h) for h in histories)

    rng = random.Random(1)
    started = time.perf_counter()
    for _ in range(actions):
        rng.random()
    baseline = time.perf_counter() - started

    started = time.perf_counter()
    for history in histories:
        state = game.new_state()
        for seat, action in history:
            state.apply(action, seat)
    validated = time.perf_counter() - started

    logs = [record(game, h) for h in histories[: max(1, games // 4)]]
    log_actions = sum(len(h) for h in histories[: len(logs)])
    started = time.perf_counter()
    for log in logs:
        assert replay(log, content=content).ok
    replayed = time.perf_counter() - started

    return [("baseline: bare loop, 1 random number per action", games / baseline, actions / baseline),
            ("fast path (simulation)", games / fast, actions / fast),
            ("validated apply", games / validated, actions / validated),
            ("log replay (names parsed, validated)", len(logs) / replayed, log_actions / replayed)]


def main() -> None:
    """Print one line per mode and path: games/s, actions/s and the verdict against the targets."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="random")
    args = parser.parse_args()
    content = load_game("mission-emission")
    print(f"Mission Emission, {args.players} players, {args.bots} bots, {args.games} games per mode, one core")
    print(f"{'mode':<9} {'path':<48} {'games/s':>10} {'actions/s':>12}  target")
    for mode in ("base", "strategy", "kids"):
        for path, games_s, actions_s in measure(mode, args.players, args.games, args.bots, content):
            target = FAST_TARGET if path.startswith("fast") else VALIDATED_TARGET if path.startswith("validated") else None
            verdict = "" if target is None else f"{'ok' if actions_s >= target else 'BELOW'} (>= {target:,})"
            print(f"{mode:<9} {path:<48} {games_s:>10,.0f} {actions_s:>12,.0f}  {verdict}")


if __name__ == "__main__":
    main()

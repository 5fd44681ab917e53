"""Golden playthroughs (OpenSpiel's integration_tests/playthroughs): for a fixed seed, every
step of a game -- who is due, the state, the acting seat's view, the legal actions and the action
taken, all in the log form -- written to a text file and diffed on each run.

Regenerate after an intended rules change, and review the diff:
``DECKPRESS_REGEN_GOLDEN=1 python -m pytest tests/rules/test_golden.py``.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from deckpress.rules.core.bots import make_bot
from deckpress.rules.core.game import CHANCE, TERMINAL
from deckpress.rules.core.log import format_event
from deckpress.rules.core.simulate import game_rng
from tests.rules.helpers import me

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = {"base": 3, "strategy": 3, "kids": 4}
SEED = 1
BOTS = ("greedy", "random", "random", "random")


def playthrough(mode: str, players: int) -> str:
    """The playthrough text of game 0 of seed :data:`SEED` (greedy seat 0, random others)."""
    game = me(mode=mode, players=players)
    bots = [make_bot(game.info.id, name) for name in BOTS[:players]]
    rng = game_rng(SEED, 0)
    state = game.new_state()
    lines = [f"# golden playthrough: {game.info.id}, seed {SEED}, game 0, bots {', '.join(BOTS[:players])}",
             "# regenerate: DECKPRESS_REGEN_GOLDEN=1 python -m pytest tests/rules/test_golden.py",
             f"params: {format_event(dict(game.params))}"]
    step = 0
    while state.current != TERMINAL:
        step += 1
        lines.append(f"step {step}: {state.due()}")
        if state.current == CHANCE:
            outcomes = state.chance_outcomes()
            action = state.sample_chance(rng.random())
            lines.append(f"  outcomes: {len(outcomes)}, each p={outcomes[0][1]:.4f}")
        else:
            seat = state.current
            legal = state.legal_actions()
            lines.append(f"  state: {json.dumps(state.to_dict(), ensure_ascii=False)}")
            lines.append(f"  view of seat {seat}: {json.dumps(state.view(seat).to_dict(), ensure_ascii=False)}")
            lines.append(f"  legal: {format_event([state.action_to_event(a, seat) for a in legal])}")
            action = bots[seat].act(state.view(seat), legal, rng)
        lines.append(f"  -> {format_event(state.action_to_event(action, state.current))}")
        state.apply(action, state.current)
    lines.append(f"final state: {json.dumps(state.to_dict(), ensure_ascii=False)}")
    lines.append(f"returns: {state.returns()}; winners: {state.winners()}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("mode", sorted(CASES))
def test_golden_playthrough(mode):
    path = GOLDEN / f"mission-emission-{mode}.txt"
    text = playthrough(mode, CASES[mode])
    if os.environ.get("DECKPRESS_REGEN_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    assert path.exists(), f"{path} is missing: run with DECKPRESS_REGEN_GOLDEN=1 to create it"
    assert text == path.read_text("utf-8"), f"{path.name} differs: review the change, then regenerate with DECKPRESS_REGEN_GOLDEN=1"

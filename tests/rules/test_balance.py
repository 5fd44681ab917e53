"""Balance findings a designer must see (``rules/core/balance.py``): seat order beyond the noise,
stated in words at the top of ``simulate``, and the cards or rules that never changed a result,
listed by ``simulate`` and ``check`` with the chances they had."""
from __future__ import annotations

import json

import pytest

from deckpress.rules.core.balance import Effect, inert, seat_order


def _sim(wins: list[int], games: int, draws: int = 0) -> dict:
    return {"cooperative": False, "games": games, "draw_rate": draws / games,
            "seats": [{"seat": s, "wins": w, "win_rate": w / games} for s, w in enumerate(wins)]}


def test_seats_within_the_noise_give_no_finding_and_a_clear_gap_is_stated_in_words():
    assert seat_order(_sim([510, 490, 500, 500], 2000)) is None
    assert seat_order({"cooperative": True, "games": 100}) is None
    found = seat_order(_sim([700, 500, 500, 300], 2000))
    assert [s["seat"] for s in found["seats"]] == [0, 3] and found["fair_share"] == 0.25
    assert found["text"].startswith("Seat order matters: seat 0 wins 35.0 % of games, 10.0 points above the fair share; "
                                    "seat 3 wins 15.0 % of games, 10.0 points below the fair share of 25.0 %")


def test_the_fair_share_leaves_out_the_drawn_games():
    # 20 % of games drawn: an equal part of the other 80 % is 20 % a seat at four seats
    assert seat_order(_sim([400, 400, 400, 400], 2000, draws=400)) is None


def test_only_effects_that_had_a_chance_and_never_acted_are_inert():
    effects = [Effect("a", 10, 0, "rounds"), Effect("b", 10, 1, "rounds"), Effect("c", 0, 0, "rounds")]
    assert [e.what for e in inert(effects)] == ["a"]


def test_a_six_seat_maybe_missions_simulation_states_the_seat_effect(cli):
    # seats 4 and 5 are the active player once in a game of 5 votes a seat where 0 to 3 are twice
    result = cli("simulate", "maybe-missions", "--players", "6", "--games", "3000", "--batched")
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert text.index("finding: Seat order matters: seats 0") < text.index("Win rate per seat")  # at the top
    assert "seats 0 to 3 are the active player twice and seats 4 and 5 once" in text  # and why
    data = json.loads(cli("simulate", "maybe-missions", "--players", "6", "--games", "3000", "--batched", "--format", "json").stdout)
    seats = next(f for f in data["findings"] if f["kind"] == "seat order")["seats"]
    assert {4, 5} <= {s["seat"] for s in seats if s["difference_points"] < 0}


@pytest.mark.slow
def test_a_four_seat_maybe_missions_check_names_master_08_as_inert(cli, tmp_path):
    # master-08, "Each YES vote counts as 2 votes", never changes a four-seat base game's result
    # (game.yaml notes): the check of a four-seat variant says so, with the rounds it was in force
    variant = tmp_path / "four.yaml"
    variant.write_text("extends: maybe-missions\nname: Four seats, short market\nauthor: test\nversion: '1.0'\n"
                       "description: Four seats and a market of 5.\nruleset: base\nparameters:\n  players: 4\n  market: 5\n", "utf-8")
    result = cli("check", variant, "--games", "200", "--report", tmp_path / "out")
    assert 'variant: master-08 ("Each YES vote counts as 2 votes.") never changed a round\'s result in ' in result.stdout, result.output
    assert "rounds in force over 200 games" in result.stdout

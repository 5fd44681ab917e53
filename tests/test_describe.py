"""deckpress describe: modes, rulesets, parameters with type,
range, default, meaning and source, bots, and the readings; the same as the engine and game.yaml."""
from __future__ import annotations

import json

import pytest

from deckpress.rules.core.registry import game_class


@pytest.mark.parametrize("game_id", ["mission-emission", "fifty-missions", "maybe-missions", "geheime-mission"])
def test_describe_lists_what_the_engine_and_game_yaml_declare(game_id, cli):
    result = cli("describe", game_id, "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    info = game_class(game_id).info
    assert [p["name"] for p in data["parameters"]] == [p.name for p in info.params]
    assert all(p["meaning"] and p["source"] and p["range"] for p in data["parameters"])
    assert {m["id"] for m in data["modes"]} <= set(data["rulesets"])  # every mode can be asked for by its name
    assert {b["name"] for b in data["bots"]} >= {"random", "greedy"} and all(b["about"] for b in data["bots"])
    assert data["readings"] and data["notes"]
    text = cli("describe", game_id).stdout
    assert "parameters (-p NAME=VALUE):" in text and "readings of the rulebook" in text and "notes (game.yaml):" in text
    # the search bots are described to players, with their budgets, not in the code's markup
    about = {b["name"]: b["about"] for b in data["bots"]}
    assert "100 searches a decision" in about["ismcts"] and "ismcts:N" in about["ismcts"]
    assert "24 states sampled" in about["rollout"] and "rollout:N" in about["rollout"]
    assert not any("``" in text or ":data:" in text for text in about.values()), about


def test_a_default_from_content_is_shown_as_played(cli):
    # 50 Missions' medal places come from medals.yaml: describe shows the numbers, not a placeholder
    data = json.loads(cli("describe", "fifty-missions", "--format", "json").stdout)
    places = next(p for p in data["parameters"] if p["name"] == "medal_places")
    assert isinstance(places["default"], list) and all(isinstance(n, int) for n in places["default"])


def test_a_game_made_from_data_alone_has_no_engine_to_describe(cli, tmp_path):
    assert cli("init", tmp_path / "mygame").exit_code == 0
    data = json.loads(cli("describe", tmp_path / "mygame", "--format", "json").stdout)
    assert data["engine"] is None and data["parameters"] == [] and data["bots"] == []


@pytest.mark.parametrize("game_id", ["mission-emission", "fifty-missions", "maybe-missions", "geheime-mission"])
def test_every_reading_names_its_parameter_default_alternatives_sentence_and_measured_effect(game_id, cli):
    data = json.loads(cli("describe", game_id, "--format", "json").stdout)
    params = {p["name"]: p for p in data["parameters"]}
    for r in data["readings"]:
        param = params[r["parameter"]]
        values = [a["value"] for a in r["alternatives"]]
        assert r["default"] == param["default"] and r["default"] in values and len(values) >= 2, r
        if param["type"] == "str":  # every value of the parameter is one of the readings, and only those
            assert set(values) == set(param["range"].split("|")), r
        assert r["rulebook"] == data["rulebook"] and r["section"] and r["quote"] and r["where"], r
        # a figure comes with its date and the command that prints it
        assert "2026-" in r["effect"] and "benchmarks/readings.py" in r["effect"], r


@pytest.mark.slow
@pytest.mark.parametrize("game_id, parameter, default, other", [
    ("maybe-missions", "identity_cards", "missions", "all"),
    ("maybe-missions", "adjust_removed", "market", "discard"),
    ("fifty-missions", "game_end", "seat-due", "any-seat")])
def test_the_identity_master_19_and_stuck_seat_readings_are_listed(game_id, parameter, default, other, cli):
    data = json.loads(cli("describe", game_id, "--format", "json").stdout)
    reading = next(r for r in data["readings"] if r["parameter"] == parameter)
    assert reading["default"] == default and other in [a["value"] for a in reading["alternatives"]]


def test_master_08_is_said_to_change_nothing_at_four_seats(cli):
    # "Each YES vote counts as 2 votes" with one vote a seat: at 4 seats YES wins with 2 votes
    # either way (2 x 2 >= 2 and 2 >= 2; 1 x 2 < 3), so the card never changes a base game's result
    notes = json.loads(cli("describe", "maybe-missions", "--format", "json").stdout)["notes"]
    assert "MASTER-08" in notes and "never changes a result in a four-seat base game" in " ".join(notes.split())

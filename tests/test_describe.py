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
    assert data["readings"]
    text = cli("describe", game_id).stdout
    assert "parameters (-p NAME=VALUE):" in text and "readings (game.yaml notes):" in text
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

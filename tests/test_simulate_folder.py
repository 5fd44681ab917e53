"""What ``simulate`` (and replay, check) say of a game folder without a rules engine: they agree
with ``validate`` about whether the folder can be validated and built."""
from __future__ import annotations

from conftest import edit, line_of


def test_simulate_does_not_promise_a_build_that_validate_refuses(cli, tmp_path):
    assert cli("init", tmp_path / "g").exit_code == 0
    game = tmp_path / "g" / "game.yaml"
    edit(game, "id: g", "id: ../../etc")
    validated = cli("validate", tmp_path / "g")
    assert validated.exit_code != 0
    simulated = cli("simulate", tmp_path / "g")
    assert simulated.exit_code == 2 and "can validate and build" not in simulated.output
    line = line_of(game, "id: ../../etc")
    assert "has no rules engine, and validate refuses it" in simulated.output
    assert f"game.yaml:{line}:5: id:" in simulated.output  # its first error, where validate puts it
    assert "deckpress validate" in simulated.output and "Traceback" not in simulated.output


def test_simulate_still_says_a_valid_folder_without_rules_can_be_validated_and_built(cli, tmp_path):
    assert cli("init", tmp_path / "g").exit_code == 0
    assert cli("validate", tmp_path / "g").exit_code == 0
    simulated = cli("simulate", tmp_path / "g")
    assert simulated.exit_code == 2 and "has no rules engine: deckpress can validate and build it" in simulated.output

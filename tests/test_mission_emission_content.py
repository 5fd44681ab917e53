"""Mission Emission content: the shipped data reproduces the rulebook, and broken copies of each
file are rejected with the right file, line and message."""
import json

import pytest
from conftest import edit, errors_of, line_of

from deckpress.generator.content import load_game
from deckpress.generator.content.mission_emission import mission_extremes


@pytest.fixture(scope="module")
def content():
    return load_game("mission-emission")


def test_printed_max_and_min_are_reproduced(content):
    # Rulebook, "Fun facts" page: Max/Min of each mission.
    assert mission_extremes(content) == {
        "forest": (90, 4), "energy": (863, 0), "water": (40, 1),
        "smoke": (217, 29), "crowd": (1134, 2), "garbage": (503, 16),
    }


def test_karnataka_forest_is_19(content):
    # Rulebook, strategy game example: "Karnataka State Card on it (Forest 19)".
    karnataka = next(s for s in content["states"]["states"] if s["name"] == "Karnataka")
    assert karnataka["values"]["forest"]["value"] == 19


def test_the_pre_2019_set_of_36(content):
    # card-facts.md: 29 states (Telangana, undivided Jammu & Kashmir) and 7 union territories.
    states = content["states"]["states"]
    kinds = [s["kind"] for s in states]
    names = {s["name"] for s in states}
    assert (kinds.count("state"), kinds.count("union-territory")) == (29, 7)
    assert {"Telangana", "Jammu & Kashmir", "Dadra & Nagar Haveli", "Daman & Diu"} <= names
    assert "Ladakh" not in names


def test_every_value_says_where_it_comes_from(content):
    for state in content["states"]["states"]:
        for mission, fact in state["values"].items():
            assert fact["source"] and fact["confidence"], (state["id"], mission)
            if fact["provenance"] in ("reconstructed", "designed"):
                assert fact["method"], (state["id"], mission)


def test_point_piles_follow_the_rulebook(content):
    # Base game set-up: Forest, Energy, Water piles have +3 on top; Smoke, Crowd, Garbage -1 on top.
    top = {p["mission"]: p["points"] for p in content["point-cards"]["point_cards"] if p["position"] == 1}
    assert top == {"forest": 3, "energy": 3, "water": 3, "smoke": -1, "crowd": -1, "garbage": -1}




def test_wrong_type_is_reported_at_its_line(game_copy):
    folder = game_copy("mission-emission")
    states = folder / "states.yaml"
    edit(states, "forest:  {value: 19,", "forest:  {value: nineteen,")
    line = line_of(states, "nineteen")
    error, stopped = errors_of(folder)
    assert error.startswith(f"{states}:{line}:")
    assert 'states[11].values.forest.value: expected a whole number, found the text "nineteen"' in error
    # the cross-file checks could not read past it, and say so rather than stay silent
    assert stopped == f"{folder / 'game.yaml'}: the cross-file checks stopped at data the schema refused: they run in full once the errors above are fixed"


def test_missing_field(game_copy):
    folder = game_copy("mission-emission")
    edit(folder / "missions.yaml", "    better: lower\n    unit: \"PM10", "    unit: \"PM10")
    [error] = errors_of(folder)
    assert "missions.yaml:" in error and "missions[3]: missing key 'better'" in error


def test_duplicate_key(game_copy):
    folder = game_copy("mission-emission")
    game = folder / "game.yaml"
    edit(game, "ages: 7\n", "ages: 7\nages: 8\n")
    first = line_of(game, "ages: 7")
    [error] = errors_of(folder)
    assert error == f"{game}:{first + 1}:1: duplicate key 'ages' (first defined on line {first}): each key may appear once"


def test_35_states_do_not_match_the_box(game_copy):
    folder = game_copy("mission-emission")
    states = folder / "states.yaml"
    text = states.read_text()
    start = text.index("  - id: puducherry")
    states.write_text(text[:start])
    [error] = errors_of(folder)
    count_line = line_of(folder / "game.yaml", "count: 36")
    assert error == f"{states}:{line_of(states, '- id: andhra-pradesh')}:3: states: 35 records, but game.yaml (line {count_line}) says the box has 36 state cards (component 'state'): make the two agree"


def test_unknown_mission(game_copy):
    folder = game_copy("mission-emission")
    edit(folder / "point-cards.yaml", "{id: smoke-top, mission: smoke,", "{id: smoke-top, mission: smog,")
    [error] = errors_of(folder)
    assert "point-cards.yaml:" in error and "point_cards[9].mission: unknown mission 'smog' (expected one of: forest, energy, water, smoke, crowd, garbage)" in error


def test_value_outside_its_missions_range(game_copy):
    folder = game_copy("mission-emission")
    edit(folder / "states.yaml", "forest:  {value: 19,", "forest:  {value: 190,")
    [error] = errors_of(folder)
    assert "(Karnataka): Forest value 190 is outside the mission's range 0..100 (missions.yaml)" in error


def test_all_errors_of_a_file_in_one_run(game_copy):
    folder = game_copy("mission-emission")
    edit(folder / "states.yaml", "kind: union-territory", "kind: territory")
    edit(folder / "states.yaml", "forest:  {value: 19,", "forest:  {value: -5.5,")
    errors = errors_of(folder)
    assert len(errors) == 2
    assert any('the text "territory" is not one of: state, union-territory' in e for e in errors)
    assert any("expected a whole number, found the number -5.5" in e for e in errors)


def test_schema_comment_must_name_the_schema(game_copy):
    folder = game_copy("mission-emission")
    edit(folder / "missions.yaml", "mission-emission.missions.schema.json", "missions.schema.json")
    [error] = errors_of(folder)
    assert error.endswith(":1:1: the first line names the schema 'missions.schema.json' for editors, but this file is checked by "
                          "'mission-emission.missions.schema.json': write '# yaml-language-server: $schema=<folder>/mission-emission.missions.schema.json'")


def test_unknown_key_lists_the_expected_ones(game_copy):
    folder = game_copy("mission-emission")
    edit(folder / "states.yaml", "    kind: state\n", "    kind: state\n    capital: Panaji\n")
    [error] = errors_of(folder)
    assert "unknown key 'capital' (known: colour, id, kind, name, note, values)" in error


def test_cli_validate_reports_and_exits_1(game_copy, cli):
    folder = game_copy("mission-emission")
    edit(folder / "states.yaml", "forest:  {value: 19,", "forest:  {value: 190,")
    result = cli("validate", folder)
    assert result.exit_code == 1
    assert "Forest value 190 is outside" in result.stdout
    assert result.stdout.rstrip().endswith("1 error in 1 file")
    as_json = json.loads(cli("validate", folder, "--format", "json").stdout)
    assert as_json["ok"] is False and as_json["errors"][0]["line"] > 1


@pytest.mark.slow
def test_cli_validate_clean_content_exits_0(cli):
    result = cli("validate")
    assert result.exit_code == 0 and result.stdout.startswith("ok: ")


def test_a_designed_value_without_its_provenance_is_one_error_naming_every_missing_key(game_copy):
    # the schema requires source, year and confidence of every value, and a method of a designed
    # one (if/then): one fact to the person fixing it, one error, not one per schema rule
    folder = game_copy("mission-emission")
    edit(folder / "states.yaml", 'forest:  {value: 19, provenance: official, source: "Mission Emission rulebook, Strategy game example '
         '(Karnataka, Forest 19)", year: 2013, confidence: high, note: "Agrees with the Forest Survey of India, India State of Forest '
         'Report 2013 (about 19 %)."}', "forest:  {value: 19, provenance: designed}")
    errors = [e for e in errors_of(folder) if "values.forest" in e]
    assert errors == [f"{folder / 'states.yaml'}:{line_of(folder / 'states.yaml', 'provenance: designed}')}:16: states[11].values.forest: "
                      "missing keys 'source', 'year', 'confidence', 'method' (required here: value, provenance, source, year, confidence, method)"]


def test_garbage_file_gives_an_error_not_a_traceback(game_copy, cli):
    folder = game_copy("mission-emission")
    (folder / "states.yaml").write_bytes(b"\xff\xfe not yaml at all")
    result = cli("validate", folder)
    assert result.exit_code == 1 and "states.yaml:1:1: file is not UTF-8 text: byte 0xFF is no UTF-8 character" in result.stdout


def test_layout_errors_are_located(game_copy):
    folder = game_copy("mission-emission")
    layout = folder / "layout.yaml"
    edit(layout, "font: bold, font_pt: 17,", "font: bold, font_size: 17,")
    errors = errors_of(folder)
    line = line_of(layout, "font_size: 17")
    assert any(f"layout.yaml:{line}:" in e and "unknown key 'font_size'" in e for e in errors), errors
    assert any(f"layout.yaml:{line}:" in e and "missing key 'font_pt'" in e for e in errors), errors


def test_a_yaml_error_in_one_file_hides_no_error_of_the_others(game_copy):
    # All errors at once: a syntax error in states.yaml and a schema error in
    # point-cards.yaml, both in one run.
    folder = game_copy("mission-emission")
    states, points = folder / "states.yaml", folder / "point-cards.yaml"
    edit(states, "  - id: goa\n", "  - id: goa\n\tbroken: tab\n")
    edit(points, "points: 3, position: 1", "points: three, position: 1")
    errors = errors_of(folder)
    assert any(e.startswith(f"{states}:") and "a tab: YAML indents with spaces only" in e for e in errors), errors
    assert any(e.startswith(f"{points}:") and 'expected a whole number, found the text "three"' in e for e in errors), errors

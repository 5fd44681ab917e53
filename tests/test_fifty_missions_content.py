"""50 Missions content: the shipped deck, missions and medals follow the rulebook and card-facts,
broken copies are rejected at their file and line, and `deckpress missions` lists the odds."""
import json
import re
from collections import Counter

import pytest
from conftest import edit, errors_of, line_of

from deckpress.generator.content import load_game
from deckpress.generator.content.fifty_missions import mission_conditions, symbol_deck
from deckpress.generator.content.fifty_missions_conditions import odds
from deckpress.generator.kit.adapters.fifty_missions import decks


@pytest.fixture(scope="module")
def content():
    return load_game("fifty-missions")


def test_56_symbol_cards_two_of_each_value_per_symbol(content):
    # Rulebook, Material: "56 Symbol cards: 2 times from 1 to 7 for each symbol/colour".
    symbols = decks(content)[0].cards
    assert len(symbols) == 56
    per_kind = Counter((c["icon"], c["value"]) for c in symbols)
    assert set(per_kind.values()) == {2}
    assert {icon for icon, _ in per_kind} == {"lighter", "binoculars", "knife", "compass"}  # card-facts.md
    assert {v for _, v in per_kind} == {str(v) for v in range(1, 8)}
    assert len({c["id"] for c in symbols}) == 56


def test_four_colours_one_per_symbol_orange_is_yellow(content):
    # card-facts.md: red, blue, green and orange/yellow; reviews quote both words for one colour.
    colours = {s["colour"]: s for s in content["symbols"]["symbols"]}
    assert set(colours) == {"red", "blue", "green", "yellow"}
    assert colours["yellow"]["also_called"] == ["orange"]
    assert all(s["provenance"] == "reconstructed" and s["method"] for s in colours.values())


def test_50_missions_all_achievable(content):
    deck = symbol_deck(content)
    conditions = mission_conditions(content)
    assert len(conditions) == 50
    assert all(odds(c, deck) > 0 for c in conditions.values())


def test_provenance_of_every_mission(content):
    missions = content["missions"]["missions"]
    quoted = [m for m in missions if m["provenance"] == "reconstructed"]
    # card-facts.md quotes 15 missions; every one is in the set, the rest are designed.
    assert len(quoted) == 15 and all(m["quote"] and m["source"] and m["method"] for m in quoted)
    assert all(m["provenance"] == "designed" and m["method"] for m in missions if m not in quoted)


def test_medals_after_15_19_and_23_missions(content):
    # Rulebook, Preparation: bronze after 15 cards, silver 4 cards further down, gold 4 further.
    medals = content["medals"]["medals"]
    assert [(m["id"], m["after_missions"]) for m in medals] == [("bronze", 15), ("silver", 19), ("gold", 23)]


def test_medals_are_printed_in_the_mission_deck(content):
    # They are slid face down into the mission deck, so they need the missions' shape and back.
    kinds = {d.kind: [c["id"] for c in d.cards] for d in decks(content)}
    assert kinds["mission"][-3:] == ["bronze", "silver", "gold"] and len(kinds["mission"]) == 53


# --- broken copies -----------------------------------------------------------------------------



def test_impossible_mission(game_copy):
    folder = game_copy("fifty-missions")
    missions = folder / "missions.yaml"
    edit(missions, "condition: {sum: {of: {colour: blue}, equals: 11}}", "condition: {sum: {of: {colour: blue}, equals: 30}}")
    [error] = errors_of(folder)
    assert error == (f"{missions}:{line_of(missions, 'equals: 30')}:16: missions[12] (blue-sum-11): impossible: none of the "
                     "8,814,960 ordered rows of 4 symbol cards meets 'The blue binoculars cards add up to exactly 30.'")


def test_mission_met_by_every_row(game_copy):
    folder = game_copy("fifty-missions")
    edit(folder / "missions.yaml", "condition: {sum: {at_least: 22}}", "condition: {sum: {at_least: 4}}")
    [error] = errors_of(folder)
    assert "missions[31] (total-22-or-more): always met: every one of the 8,814,960 ordered rows" in error


def test_unknown_colour_in_a_condition(game_copy):
    folder = game_copy("fifty-missions")
    missions = folder / "missions.yaml"
    edit(missions, "{count: {of: {colour: red}, equals: 3}}", "{count: {of: {colour: purple}, equals: 3}}")
    [error] = errors_of(folder)
    line = line_of(missions, "purple")
    assert error == (f"{missions}:{line}:38: missions[11] (exactly-three-red): unknown colour 'purple' "
                     "(this deck's colours: red, blue, yellow, green)")


def test_orange_is_pointed_to_yellow(game_copy):
    folder = game_copy("fifty-missions")
    edit(folder / "missions.yaml", "equals: {sum: {colour: yellow}}", "equals: {sum: {colour: orange}}")
    [error] = errors_of(folder)
    assert "unknown colour 'orange'" in error and "'orange' is another name for yellow in some sources: write 'yellow'" in error


def test_wrong_symbol_count(game_copy):
    folder = game_copy("fifty-missions")
    edit(folder / "symbols.yaml", "copies: 2", "copies: 3")
    [error] = errors_of(folder)
    symbols = folder / "symbols.yaml"
    count_line = line_of(folder / "game.yaml", "count: 56")
    assert error == (f"{symbols}:{line_of(symbols, 'values: {min: 1')}:3: deck: 4 symbols x 7 values x 3 copies = 84 cards, "
                     f"but game.yaml (line {count_line}) says the box has 56 symbol cards")


def test_wrong_mission_count(game_copy):
    folder = game_copy("fifty-missions")
    edit(folder / "game.yaml", "count: 50", "count: 49")
    [error] = errors_of(folder)
    assert "missions: 50 records, but game.yaml (line" in error and "says the box has 49 mission cards" in error


def test_two_kinds_in_one_condition(game_copy):
    folder = game_copy("fifty-missions")
    missions = folder / "missions.yaml"
    edit(missions, "condition: {sum: {equals: 20}}", "condition: {sum: {equals: 20}, every: {parity: even}}")
    [error] = errors_of(folder)
    assert error.startswith(f"{missions}:{line_of(missions, '{equals: 20}, every')}:16: missions[3] (total-20): a condition has exactly one kind")
    assert "found 'sum' and 'every' (to require several things, list them under 'all')" in error


def test_misspelt_kind_lists_the_known_ones(game_copy):
    folder = game_copy("fifty-missions")
    missions = folder / "missions.yaml"
    edit(missions, "condition: {sum: {equals: 16}}", "condition: {summ: {equals: 16}}")
    [error] = errors_of(folder)
    assert error.startswith(f"{missions}:{line_of(missions, 'summ')}:")
    assert "missions[4].condition.summ: unknown key 'summ' (did you mean 'sum'?)" in error


def test_two_comparisons(game_copy):
    folder = game_copy("fifty-missions")
    edit(folder / "missions.yaml", "{sum: {of: {colour: green}, equals: 6}}", "{sum: {of: {colour: green}, equals: 6, at_most: 9}}")
    [error] = errors_of(folder)
    assert "missions[14] (green-sum-6): sum: give exactly one comparison" in error and "found equals and at_most" in error


def test_medal_too_deep(game_copy):
    folder = game_copy("fifty-missions")
    medals = folder / "medals.yaml"
    edit(medals, "after_missions: 23", "after_missions: 47")
    [error] = errors_of(folder)
    assert error.startswith(f"{medals}:{line_of(medals, 'after_missions: 47')}:")
    assert "medals[2] (gold): after 47 missions, but only 46 are left in the deck once 4 are on the table" in error


def test_two_symbols_with_one_icon(game_copy):
    folder = game_copy("fifty-missions")
    edit(folder / "symbols.yaml", "icon: knife", "icon: lighter")
    [error] = errors_of(folder)
    assert "symbols[2].icon: 'lighter' is already the icon of 'lighter'" in error and "cannot tell the colours apart" in error


# --- deckpress missions ------------------------------------------------------------------------

def test_missions_command_lists_50_with_odds_hardest_first(cli):
    result = cli("missions", "fifty-missions")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "fifty-missions: 50 missions; odds that a random row meets each, out of 8,814,960 ordered rows"
    rows = lines[2:-1]
    assert len(rows) == 50
    odds_shown = [float(r.split("%")[0]) for r in rows]
    assert odds_shown == sorted(odds_shown)
    # all 4 of one colour: 4 x 14x13x12x11 / (56x55x54x53) = 1.090 %
    assert rows[0].split()[:5] == ["1.090%", "91.7", "No.", "47", "one-colour"]  # odds, 1 in N, the number its card prints, id
    assert lines[-1].startswith("hardest 1.090% (one-colour), easiest") and lines[-1].endswith("impossible: 0")


def test_missions_command_json(cli):
    result = cli("missions", "fifty-missions", "--format", "json", "--sort", "file")
    data = json.loads(result.stdout)
    assert data["ok"] and [m["id"] for m in data["missions"]][:2] == ["all-five-or-more", "all-below-four"]
    first = data["missions"][0]
    assert first["text"] == "All 4 values are 5 or more." and first["total"] == 8_814_960


def test_a_hand_written_mission_is_counted_and_an_impossible_one_flagged(game_copy, cli):
    folder = game_copy("fifty-missions")
    missions = folder / "missions.yaml"
    missions.write_text(missions.read_text() + (
        "  - id: fan-red-seven-beside-blue-one\n"
        "    condition: {adjacent: [{colour: red, value: 7}, {colour: blue, value: 1}]}\n"
        "    provenance: designed\n    method: \"a fan's mission\"\n"
        "  - id: fan-impossible\n"
        "    condition: {count: {of: {value: 7}, at_least: 5}}\n"
        "    provenance: designed\n    method: \"too much\"\n"))
    edit(folder / "game.yaml", "count: 50", "count: 52")
    result = cli("missions", folder)
    assert result.exit_code == 1
    assert "fan-red-seven-beside-blue-one  designed       A red lighter card of value 7 next to a blue binoculars card of value 1." in result.stdout
    assert re.search(r"IMPOSSIBLE        -  No\. 5\d +fan-impossible", result.stdout)
    assert f"{missions}:{line_of(missions, 'value: 7}, at_least: 5')}:16: missions[51] (fan-impossible): impossible" in result.stderr


def test_missions_command_for_a_game_without_conditions(cli):
    result = cli("missions", "mission-emission")
    assert result.exit_code == 2 and "no missions with conditions" in result.stderr

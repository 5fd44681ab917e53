"""Geheime Mission content: the designed deck follows its stated rule and the rulebook's facts,
and broken copies are rejected with file, line and message."""
from collections import Counter
from itertools import permutations

import pytest
from conftest import edit, errors_of, line_of

from deckpress.generator.content import load_game
from deckpress.generator.content.geheime_mission import VALUES, max_rounds, value_counts
from deckpress.generator.kit.adapters.geheime_mission import decks


@pytest.fixture(scope="module")
def content():
    return load_game("geheime-mission")


@pytest.fixture(scope="module")
def agents(content):
    return content["agents"]["agents"]


def test_bands_follow_the_design_rule(content, agents):
    # agents.yaml header: 9 stars (budget 18, values 3..9), 33 field agents (15, 2..8), 12 rookies (12, 1..7).
    by_band = {b["id"]: [a for a in agents if a["band"] == b["id"]] for b in content["agents"]["design"]["bands"]}
    summary = {band: (len(members), {sum(a[v] for v in VALUES) for a in members},
                      min(a[v] for a in members for v in VALUES), max(a[v] for a in members for v in VALUES))
               for band, members in by_band.items()}
    assert summary == {"star": (9, {18}, 3, 9), "field": (33, {15}, 2, 8), "rookie": (12, {12}, 1, 7)}
    assert len(agents) == content["game"]["components"][0]["count"] == 54


def test_not_every_agent_can_be_an_009(agents):
    # Rulebook, Introduction: "Not every agent can be an 009": the 00 agents are few and strong,
    # and each pays for its 9 with a weakness.
    stars = [a for a in agents if a["call_number"].startswith("00")]
    assert "009" in {a["call_number"] for a in stars}
    assert len(stars) == 9 and all(a["band"] == "star" for a in stars)
    assert all(min(a[v] for v in VALUES) <= 3 for a in stars)
    nines = [a for a in agents if 9 in (a[v] for v in VALUES)]
    assert nines == stars


def test_no_agent_is_best_at_everything(agents):
    # Nobody holds the deck's top value in two colours, and every agent is beaten in some value.
    top = {v: max(a[v] for a in agents) for v in VALUES}
    assert all(sum(a[v] == top[v] for v in VALUES) <= 1 for a in agents)
    for a in agents:
        assert any(b[v] > a[v] for b in agents for v in VALUES), a["code_name"]


def test_every_colour_uses_the_same_values(agents):
    counts = value_counts(agents)
    assert counts["attack"] == counts["centre"] == counts["defence"]
    assert counts["attack"] == Counter({1: 1, 2: 5, 3: 10, 4: 8, 5: 9, 6: 8, 7: 6, 8: 4, 9: 3})


def test_ties_are_possible_but_not_frequent(agents):
    # Two different agents tie on one colour (a replayed duel) 11.9 % of the time, as the header says.
    pairs = list(permutations(agents, 2))
    for v in VALUES:
        rate = sum(a[v] == b[v] for a, b in pairs) / len(pairs)
        assert 0.05 < rate < 0.2 and rate == pytest.approx(0.119, abs=0.001)
    attack_meets_defence = sum(a["attack"] == b["defence"] for a, b in pairs) / len(pairs)
    assert attack_meets_defence == pytest.approx(0.138, abs=0.001)


def test_every_agent_is_marked_designed_with_its_method(agents):
    assert all(a["provenance"] == "designed" and a["method"] for a in agents)
    assert len({a["call_number"] for a in agents}) == len({a["code_name"] for a in agents}) == 54


def test_board_doors_and_chips_follow_the_rulebook(content):
    # Rulebook: Embassy - City Centre - Embassy; three back doors and back-door chips, blue, yellow, red.
    components = content["components"]
    assert [f["kind"] for f in components["board"]["fields"]] == ["embassy", "city-centre", "embassy"]
    assert [d["id"] for d in components["back_doors"]["doors"]] == ["blue", "yellow", "red"]
    counts = {c["id"]: c["count"] for c in content["game"]["components"]}
    assert counts["door-chip"] == 3 and counts["officer"] == 1 and counts["board"] == 1
    # 54 - 2 x 5 = 44 cards to draw, at least 4 per round: at most 11 rounds, each with one suitcase.
    assert max_rounds(content) == 11 <= counts["suitcase"] == 20
    assert components["suitcase_chips"]["provenance"] == "designed"


def test_door_chips_share_one_back(content):
    chips = next(d for d in decks(content) if d.kind == "chip").cards
    doors = [c for c in chips if c["id"].startswith("door-")]
    backs = [{k: v for k, v in c.items() if k.startswith("back_")} for c in doors]
    assert len(doors) == 3 and backs[0] == backs[1] == backs[2]
    assert len({c["face_fill"] for c in doors}) == 3




KESTREL = "code_name: Kestrel, band: field, attack: 8, centre: 5, defence: 2"


def test_value_out_of_range(game_copy):
    folder = game_copy("geheime-mission")
    agents = folder / "agents.yaml"
    edit(agents, KESTREL, "code_name: Kestrel, band: field, attack: 12, centre: 1, defence: 2")
    line = line_of(agents, "code_name: Kestrel")
    errors = errors_of(folder)
    band_line = line_of(agents, "{id: field,")
    column = agents.read_text().splitlines()[line - 1].index("attack: 12") + len("attack: ") + 1
    assert f"{agents}:{line}:{column}: agents[9] (Kestrel, 011): attack 12 is outside the range 2..8 of the Field agent band (line {band_line})" in errors
    assert any(e.startswith(f"{agents}:{line}:") and "centre 1 is outside the range 2..8" in e for e in errors)


def test_duplicate_call_number(game_copy):
    folder = game_copy("geheime-mission")
    agents = folder / "agents.yaml"
    edit(agents, 'call_number: "013"', 'call_number: "011"')
    [error] = errors_of(folder)
    assert error.startswith(f"{agents}:{line_of(agents, 'code_name: Marble')}:")
    assert f"agents[10] (Marble, 011): duplicate call number '011' (first used on line {line_of(agents, 'code_name: Kestrel')})" in error


def test_count_that_does_not_match_the_box(game_copy):
    folder = game_copy("geheime-mission")
    game = folder / "game.yaml"
    edit(game, "count: 54", "count: 55")
    [error] = errors_of(folder)
    agents = folder / "agents.yaml"
    assert error == f"{agents}:{line_of(agents, 'id: vesper')}:3: agents: 54 records, but game.yaml (line {line_of(game, 'count: 55')}) says the box has 55 agent cards (component 'agent'): make the two agree"


def test_band_count_that_does_not_match_its_agents(game_copy):
    folder = game_copy("geheime-mission")
    agents = folder / "agents.yaml"
    edit(agents, "{id: rookie, name: Rookie, count: 12,", "{id: rookie, name: Rookie, count: 13,")
    [error] = errors_of(folder)
    assert error.startswith(f"{agents}:{line_of(agents, 'id: rookie, name: Rookie')}:")
    assert error.endswith("design.bands[2] (Rookie): count 13, but 12 agents are in the band")


def test_values_over_the_budget(game_copy):
    folder = game_copy("geheime-mission")
    agents = folder / "agents.yaml"
    edit(agents, KESTREL, "code_name: Kestrel, band: field, attack: 8, centre: 6, defence: 2")
    errors = errors_of(folder)
    assert f"{agents}:{line_of(agents, 'code_name: Kestrel')}:5: agents[9] (Kestrel, 011): attack + centre + defence = 16, but the Field agent band (line {line_of(agents, '{id: field,')}) has the budget 15" in errors
    assert any("design.same_values_per_colour: the colours use different values (agents showing each value: 5: attack 9, centre 8, defence 9; 6: attack 8, centre 9, defence 8)" in e for e in errors)


def test_a_star_without_a_weakness(game_copy):
    folder = game_copy("geheime-mission")
    agents = folder / "agents.yaml"
    edit(agents, "code_name: Cobalt, band: star, attack: 6, centre: 3, defence: 9", "code_name: Cobalt, band: star, attack: 6, centre: 4, defence: 8")
    errors = errors_of(folder)
    assert any(e.startswith(f"{agents}:{line_of(agents, 'code_name: Cobalt')}:") and e.endswith(f"agents[3] (Cobalt, 004): no value is 3 or lower, but the 00 agent band (line {line_of(agents, '{id: star,')}) gives every agent a weakness") for e in errors)


def test_colours_that_drift_apart(game_copy):
    # Kestrel's 8-5-2 reordered stays within every band rule, but attack and centre now differ.
    folder = game_copy("geheime-mission")
    agents = folder / "agents.yaml"
    edit(agents, KESTREL, "code_name: Kestrel, band: field, attack: 5, centre: 8, defence: 2")
    [error] = errors_of(folder)
    assert error.startswith(f"{agents}:{line_of(agents, 'same_values_per_colour')}:")
    assert error.endswith("the colours use different values (agents showing each value: 5: attack 10, centre 8, defence 9; 8: attack 3, centre 5, defence 4)")


def test_call_number_outside_its_band(game_copy):
    folder = game_copy("geheime-mission")
    agents = folder / "agents.yaml"
    edit(agents, 'call_number: "011"', 'call_number: "150"')
    [error] = errors_of(folder)
    assert "agents[9] (Kestrel, 150): call number 150 is outside 010..099, the call numbers of the Field agent band" in error


def test_too_few_suitcases_for_the_longest_game(game_copy):
    folder = game_copy("geheime-mission")
    game = folder / "game.yaml"
    edit(game, "count: 20", "count: 10")
    [error] = errors_of(folder)
    assert error == f"{game}:{line_of(game, 'count: 10')}:12: components[1] (suitcase): 10 chips, but a game can start 11 rounds, each with a suitcase in the city centre"


def test_board_out_of_order(game_copy):
    folder = game_copy("geheime-mission")
    components = folder / "components.yaml"
    edit(components, "{id: city-centre, kind: city-centre, name: City centre}", "{id: city-centre, kind: embassy, name: City centre, owner: Nobody}")
    [error] = errors_of(folder)
    assert error.startswith(f"{components}:{line_of(components, 'id: west-embassy')}:")
    assert error.endswith("board.fields: the rulebook's board is embassy, city-centre, embassy from left to right; found embassy, embassy, embassy")


def test_unknown_band_and_schema_errors_in_one_run(game_copy):
    folder = game_copy("geheime-mission")
    agents = folder / "agents.yaml"
    edit(agents, "code_name: Kestrel, band: field,", "code_name: Kestrel, band: fieldd,")
    edit(agents, 'call_number: "013"', 'call_number: "13"')
    errors = errors_of(folder)
    # the schema error does not hide the semantic checks: both mistakes in one run
    assert any("agents[10].call_number: the text \"13\" does not have the required form: The agent's call number, three digits" in e for e in errors)
    assert any("agents[9].band: unknown band 'fieldd' (expected one of: star, field, rookie)" in e for e in errors)

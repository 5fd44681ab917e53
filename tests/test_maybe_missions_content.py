"""Maybe Missions content: the shipped card set, the vocabulary of rules, powers and rewards, the
checks that reject broken content at file:line, and the seeded card generator.

Facts asserted here come from docs/card-facts.md (Maybe Missions section): 60 votes,
even YES and odd NO; 40 missions and 20 Master cards with a green and a red side; 18 public and
18 secret identities; 20 shop cards with a cost of 1-3 resources per side.
"""
from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import edit

from deckpress.generator.content import check_game, load_game
from deckpress.generator.content import maybe_missions_generate as gen
from deckpress.generator.content.maybe_missions_vocabulary import (
    FAMILIES,
    SCHEMA_NAME,
    VocabularyError,
    effect_text,
    kind_uses,
    kinds_of,
    placeholders,
    unsupported_kinds,
    vocabulary,
)
from deckpress.generator.paths import SCHEMAS_DIR

GAME = "maybe-missions"


@pytest.fixture(scope="module")
def content():
    return load_game(GAME)


def test_shipped_set_has_the_publishers_counts(content):
    votes = content["votes"]["votes"]
    assert sorted(v["number"] for v in votes) == list(range(1, 61))
    assert all(v["vote"] == ("YES" if v["number"] % 2 == 0 else "NO") for v in votes)
    assert len(content["missions"]["missions"]) == 40
    assert len(content["masters"]["masters"]) == 20
    assert len(content["public-identities"]["identities"]) == 18
    assert len(content["secret-identities"]["identities"]) == 18
    assert len(content["shop"]["shop"]) == 20
    for card in content["shop"]["shop"]:
        assert 1 <= len(card["success"]["cost"]) <= 3 and 1 <= len(card["fail"]["cost"]) <= 3


def test_shipped_set_is_balanced_as_card_facts_describe(content):
    """Green sides 1-4 icons, red sides fewer (one icon when green has one), nearly all crossed."""
    cards = content["missions"]["missions"] + content["masters"]["masters"]
    for card in cards:
        green, red = len(card["success"]), len(card["fail"])
        assert not any(i.get("crossed") for i in card["success"]), card["id"]
        assert red < green or red == green == 1, card["id"]
    red_icons = [i for card in cards for i in card["fail"]]
    assert sum(bool(i.get("crossed")) for i in red_icons) / len(red_icons) >= 0.85
    per_resource = Counter(i["resource"] for card in content["missions"]["missions"] for i in card["success"])
    assert len(set(per_resource.values())) == 1, per_resource


def test_every_master_rule_kind_is_on_a_card(content):
    used = {m["rule"]["kind"] for m in content["masters"]["masters"]}
    assert used == set(kinds_of("master_rule"))


# --------------------------------------------------------------------------- the vocabulary

def test_every_kind_has_a_meaning_and_one_template_per_parameter_set():
    for kind in vocabulary().values():
        assert len(kind.meaning) > 40, kind.name
        assert len(kind.templates) == len(kind.parameter_sets), kind.name
        for params, template in zip(kind.parameter_sets, kind.templates):
            assert placeholders(template) == params, (kind.name, template)
            assert params <= set(kind.parameters), kind.name
        assert set().union(*kind.parameter_sets) == set(kind.parameters), f"{kind.name}: a parameter no template prints"


def test_each_family_lists_exactly_its_kinds():
    defs = json.loads((SCHEMAS_DIR / SCHEMA_NAME).read_text("utf-8"))["$defs"]
    for family in FAMILIES:
        listed = defs[family]["properties"]["kind"]["enum"]
        dispatched = [rule["if"]["properties"]["kind"]["const"] for rule in defs[family]["allOf"]]
        assert listed == dispatched == kinds_of(family)
        assert all(defs[name]["x-family"] == family for name in listed)
    assert sum(len(kinds_of(f)) for f in FAMILIES) == len(vocabulary())


@pytest.mark.parametrize("effect, text", [
    ({"kind": "vote_cutoff", "above": 15}, "Votes above 15 don't count."),
    ({"kind": "vote_cutoff", "below": 16}, "Votes below 16 don't count."),
    ({"kind": "pass_votes", "count": 1}, "Round start: everyone passes 1 vote to the left."),
    ({"kind": "pass_votes", "count": 3}, "Round start: everyone passes 3 votes to the left."),
    ({"kind": "parity_bonus", "resource": "gold", "parity": "odd", "points": -2}, "-2 if your gold count is odd."),
    ({"kind": "card_bonus", "side": "red", "points": 1}, "+1 for each card you collected red side up."),
    ({"kind": "own_vote_weight", "vote": "NO", "weight": 2}, "Your NO votes count as 2 votes."),
])
def test_card_text_is_made_from_kind_and_parameters(effect, text):
    assert effect_text(effect) == text


def test_card_text_refuses_unknown_kinds_and_parameter_sets():
    with pytest.raises(VocabularyError, match="unknown kind 'teleport'"):
        effect_text({"kind": "teleport"})
    with pytest.raises(VocabularyError, match=r"vote_cutoff takes exactly \(above\) or \(below\)"):
        effect_text({"kind": "vote_cutoff", "above": 15, "below": 3})


def test_engine_can_report_kinds_it_does_not_implement(content):
    """A rules engine passes the kinds it knows; every other effect is an error at its line."""
    supported = {family: set(kinds_of(family)) for family in FAMILIES}
    assert unsupported_kinds(content, supported) == []
    supported["master_rule"].discard("vote_cutoff")
    errors = unsupported_kinds(content, supported)
    cutoffs = [u for u in kind_uses(content) if u.effect["kind"] == "vote_cutoff"]
    assert len(errors) == len(cutoffs) >= 1
    doc = content.documents["masters"]
    for err, use in zip(errors, cutoffs):
        assert err.path.endswith("masters.yaml")
        assert err.line == doc.where(use.path + ("kind",))[0]
        assert "master rule kind 'vote_cutoff'" in err.message and "not implemented" in err.message


# --------------------------------------------------------------------------- broken content

BROKEN = [
    ("masters.yaml", "rule: {kind: vote_cutoff, above: 45}", "rule: {kind: vote_cutof, above: 45}", "\"vote_cutof\" is not one of the"),
    ("masters.yaml", "rule: {kind: vote_cutoff, above: 45}", "rule: {kind: vote_cutoff, above: 75}", "above: 75 is out of range: it must be at most 59"),
    ("masters.yaml", "rule: {kind: vote_cutoff, above: 45}", "rule: {kind: vote_cutoff, abov: 45}", "unknown key 'abov' (did you mean 'above'?)"),
    ("masters.yaml", "rule: {kind: vote_cutoff, above: 45}", "rule: {kind: vote_cutoff, above: 45, below: 3}", "takes exactly (above) or (below)"),
    ("votes.yaml", '{number: 3, vote: "NO"}', '{number: 3, vote: "YES"}', "number 3 is odd, so the card is NO"),
    ("votes.yaml", '{number: 5, vote: "NO"}', '{vote: "NO", number: 3}', "3 is already on the card of line 9"),
    ("votes.yaml", '{number: 3, vote: "NO"}', "{number: 3, vote: MAYBE}", "the text \"MAYBE\" is not one of: YES, NO"),
    ("missions.yaml", "{resource: reputation}]", "{resource: silver}]", "the text \"silver\" is not one of"),
    ("missions.yaml", 'title: "Swap the briefcases"', 'title: "crack the hotel SAFE"', "is already the title of the card on line 10"),
    ("secret-identities.yaml", "points: 3}", "points: -3}", "a helpful power must help its owner"),
    ("shop.yaml", "reward: {kind: collect_extra}", "reward: {kind: vote_cutoff, above: 3}", "the text \"vote_cutoff\" is not one of"),
]


@pytest.mark.parametrize("file, old, new, message", BROKEN, ids=[b[3][:40] for b in BROKEN])
def test_broken_content_is_rejected_at_its_line(game_copy, file, old, new, message):
    folder = game_copy(GAME)
    path = folder / file
    edit(path, old, new)
    line = next(n for n, text in enumerate(path.read_text("utf-8").splitlines(), 1) if new in text)
    content, errors = check_game(folder)
    assert content is None
    matching = [e for e in errors if message in e.message]
    assert matching, [str(e) for e in errors]
    assert matching[0].path.endswith(file) and matching[0].line == line, str(matching[0])


def test_wrong_number_of_votes_is_rejected(game_copy):
    folder = game_copy(GAME)
    edit(folder / "votes.yaml", '  - {number: 60, vote: "YES"}\n', "")
    _, errors = check_game(folder)
    assert [str(e) for e in errors] == [f"{errors[0].path}:7:3: votes: 59 records, but game.yaml (line 21) says the box has 60 vote cards (component 'vote'): make the two agree"]


def test_unquoted_no_stays_a_no_vote(game_copy):
    """YAML 1.1 would read NO as false; deckpress's loader keeps it the word NO."""
    folder = game_copy(GAME)
    edit(folder / "votes.yaml", '{number: 3, vote: "NO"}', "{number: 3, vote: NO}")
    assert check_game(folder)[1] == []


# --------------------------------------------------------------------------- the generator

def test_generator_is_seeded_and_reproducible():
    first = gen.generate(gen.DEFAULT_SEED)
    assert first == gen.generate(gen.DEFAULT_SEED)
    assert first["missions"] != gen.generate(gen.DEFAULT_SEED + 1)["missions"]


def test_generated_set_passes_every_check(game_copy):
    folder = game_copy(GAME)
    for stem, text in gen.generate(12345).items():
        (folder / f"{stem}.yaml").write_text(text, "utf-8")
    content, errors = check_game(folder)
    assert errors == []
    rewards = {side["reward"]["kind"] for card in content["shop"]["shop"] for side in (card["success"], card["fail"])}
    assert rewards == set(kinds_of("reward"))

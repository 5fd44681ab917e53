"""Fan variants, stages 1-3: safe loading, merging changes by card id with errors at the
variant's lines, and the field-by-field diff."""
from pathlib import Path

import pytest

from deckpress.generator.content import load_game
from deckpress.generator.content.variant import diff, load_variant, merge

HEADER = "extends: mission-emission\nname: Test\nauthor: A Fan\nversion: \"1.0\"\ndescription: A test variant.\n"


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "variant.yaml"
    path.write_text(HEADER + body)
    return path


def merged(tmp_path, body):
    variant, errors = load_variant(write(tmp_path, body))
    assert errors == []
    return merge(variant, load_game("mission-emission"))


@pytest.mark.slow
def test_replace_add_remove_and_the_diff(tmp_path):
    content, errors = merged(tmp_path, """\
changes:
  - replace: {file: states, id: karnataka, fields: {values.forest.value: 21, name: Karunadu}}
  - remove: {file: states, id: goa}
  - add:
      file: states
      card:
        id: goa-new
        name: Goa
        kind: state
        colour: forest
        values:
          forest: {value: 60, provenance: designed, source: test, year: 2013, confidence: low, method: test}
          energy: {value: 1, provenance: designed, source: test, year: 2015, confidence: low, method: test}
          water: {value: 4, provenance: designed, source: test, year: 2012, confidence: low, method: test}
          smoke: {value: 55, provenance: designed, source: test, year: 2014, confidence: low, method: test}
          crowd: {value: 39, provenance: designed, source: test, year: 2020, confidence: low, method: test}
          garbage: {value: 125, provenance: designed, source: test, year: 2015, confidence: low, method: test}
""")
    assert errors == []
    d = diff(load_game("mission-emission"), content)
    assert d.added == [("states", "goa-new")] and d.removed == [("states", "goa")]
    assert d.lines()[2:4] == ["~ states: karnataka: name: Karnataka -> Karunadu", "~ states: karnataka: values.forest.value: 19 -> 21"]


def test_errors_in_changed_cards_point_at_the_variant_line(tmp_path):
    content, errors = merged(tmp_path, "changes:\n  - replace: {file: states, id: kerala, fields: {values.forest.value: 4000}}\n")
    assert [str(e) for e in errors] == [f"{tmp_path / 'variant.yaml'}:7:71: states[12] (Kerala): Forest value 4000 is outside the mission's range 0..100 (missions.yaml)"]


def test_unknown_card_id_suggests_a_close_one(tmp_path):
    content, errors = merged(tmp_path, "changes:\n  - remove: {file: states, id: kerela}\n")
    assert str(errors[0]).endswith("remove.id: no card 'kerela' in states.yaml (did you mean 'kerala'?)")
    assert ":7:" in str(errors[0])


def test_yaml_11_scalars_and_aliases_in_a_variant_are_refused(tmp_path):
    variant, errors = load_variant(write(tmp_path, "parameters: &p {tie_wins: NO}\nruleset: base\n"))
    assert variant is None
    assert "YAML anchor '&p' is not allowed" in str(errors[0])

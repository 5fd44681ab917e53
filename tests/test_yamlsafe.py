"""The hardened YAML loader: every hazard of shared/notes/untrusted-input.md is refused with a
line and column, and YAML 1.1 surprises stay plain strings."""
from pathlib import Path

from deckpress.generator.yamlsafe import load_yaml


def load(text: str, **limits):
    return load_yaml(Path("f.yaml"), text=text, **limits)


def only_error(text: str, **limits) -> str:
    doc, errors = load(text, **limits)
    assert doc is None and len(errors) >= 1
    return str(errors[0])


def test_yaml_11_scalars_stay_strings():
    # A Maybe Missions vote "NO" must not become False; 1:20 must not become 80 (sexagesimal).
    doc, errors = load("vote: NO\nswitch: on\ntime: 1:20\ncode: 010\nday: 2020-01-01\nbig: 1.0e3\n")
    assert errors == []
    assert doc.data == {"vote": "NO", "switch": "on", "time": "1:20", "code": "010", "day": "2020-01-01", "big": 1000.0}


def test_json_scalars_are_typed():
    doc, _ = load("a: 12\nb: -1.5\nc: true\nd: null\ne: '12'\n")
    assert doc.data == {"a": 12, "b": -1.5, "c": True, "d": None, "e": "12"}


def test_duplicate_key_names_both_lines():
    assert only_error("a: 1\nb: 2\na: 3\n") == "f.yaml:3:1: duplicate key 'a' (first defined on line 1): each key may appear once"


def test_alias_bomb_is_refused_before_expansion():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
    message = only_error(bomb)
    assert message.startswith("f.yaml:1:4: YAML anchor '&a' is not allowed")


def test_python_tags_are_refused():
    assert "YAML tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed" in only_error("a: !!python/object/apply:os.system [ls]\n")


def test_deep_nesting_is_refused_without_recursion():
    message = only_error("a: " + "[" * 50_000 + "]" * 50_000, max_bytes=10**6)
    assert "nesting is deeper than the limit of 32 levels" in message


def test_size_limit(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * 3000)
    doc, errors = load_yaml(big, "big.yaml", max_bytes=1000)
    assert doc is None and str(errors[0]) == "big.yaml: file is larger than 1 kB (3,003 bytes)"


def test_huge_integer_is_an_error_not_a_crash():
    assert "number with 5000 characters is too long" in only_error("a: " + "9" * 5000)


def test_syntax_error_has_position():
    assert only_error("a: [1, 2\nb: 3\n").startswith("f.yaml:2:2: YAML syntax error")


def test_positions_of_values_and_keys():
    doc, _ = load("states:\n  - id: goa\n    values: {forest: 60}\n")
    assert doc.where(("states", 0, "values", "forest")) == (3, 22)
    assert doc.where(("states", 0, "values", "forest"), key=True) == (3, 14)
    assert doc.where(("states", 0, "missing")) == (2, 5)  # falls back to the enclosing record

"""The hardened YAML loader: every hazard of docs/untrusted-input.md is refused with a
line and column, and YAML 1.1 surprises stay plain strings."""
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from deckpress.generator.content.yamlsafe import load_yaml


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


def test_a_number_past_the_largest_float_is_an_error_not_infinity():
    # 1e400 read as float('inf') passed every "positive number" check (a check threshold of infinity)
    assert only_error("a: {b: -1e400}") == "f.yaml:1:8: a.b: -1e400 is too large a number (at most about 1.8e308)"


def test_syntax_error_has_position():
    assert only_error("a: [1, 2\nb: 3\n").startswith("f.yaml:2:2: YAML syntax error")


def test_positions_of_values_and_keys():
    doc, _ = load("states:\n  - id: goa\n    values: {forest: 60}\n")
    assert doc.where(("states", 0, "values", "forest")) == (3, 22)
    assert doc.where(("states", 0, "values", "forest"), key=True) == (3, 14)
    assert doc.where(("states", 0, "missing")) == (2, 5)  # falls back to the enclosing record


def _both_loaders(text: str):
    """The document and errors of ``text`` read by libyaml's fast path and by the pure-Python
    loader alone."""
    from deckpress.generator.content import yamlsafe

    fast = yamlsafe._FastJsonScalarLoader
    assert fast is not None, "PyYAML here has no libyaml: the fast path is not tested"
    first = load_yaml(Path("x.yaml"), text=text)
    yamlsafe._FastJsonScalarLoader = None
    try:
        second = load_yaml(Path("x.yaml"), text=text)
    finally:
        yamlsafe._FastJsonScalarLoader = fast
    return first, second


def _same(first, second) -> bool:
    (a, e1), (b, e2) = first, second
    if [str(e) for e in e1] != [str(e) for e in e2]:
        return False
    return (a is None) == (b is None) and (a is None or (a.data, a.positions, a.key_positions) == (b.data, b.positions, b.key_positions))


@pytest.mark.slow
def test_the_fast_loader_reads_every_shipped_file_as_the_pure_one_does():
    """libyaml reads a file the studio re-reads at each save several times faster: the data, the
    positions errors point at, and the errors must be exactly the pure-Python loader's."""
    from deckpress.generator.paths import CONTENT_DIR

    files = sorted(CONTENT_DIR.rglob("*.yaml"))
    assert len(files) > 30
    for path in files:
        assert _same(*_both_loaders(path.read_text(encoding="utf-8"))), path


@pytest.mark.slow
@given(st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=20),
       st.sampled_from([True, False]))
@settings(max_examples=150, deadline=None)
def test_the_fast_loader_agrees_with_the_pure_one_on_any_data(data, flow):
    text = yaml.safe_dump(data, default_flow_style=flow, allow_unicode=True)
    assert _same(*_both_loaders(text)), text


@pytest.mark.parametrize("text", ["a: 1\n\tb: 2\n", "a: [1, 2\n", "a: b: c\n", "a: &x 1\nb: *x\n", "a: 1\na: 2\n", "- !!python/object {}\n"])
def test_broken_files_get_the_pure_loaders_errors(text):
    first, second = _both_loaders(text)
    assert first[0] is None and first[1]
    assert _same(first, second)

"""Text that cannot fool a reader: control and bidirectional characters refused at
their line, messages in a person's words that quote short escaped excerpts, floods of one kind
summarised (the JSON reporter keeps every error)."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from deckpress.generator.content.errors import ContentError
from deckpress.generator.content.schema import validate_with
from deckpress.generator.content.yamlsafe import load_yaml
from deckpress.generator.paths import CONTENT_DIR
from tests.conftest import edit, line_of

REFUSED = "control characters and bidirectional overrides are not allowed in content"
RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def errors_of_text(tmp_path: Path, text: str) -> list[str]:
    """The errors of a YAML file holding ``text`` (written as UTF-8 bytes), as printed."""
    path = tmp_path / "f.yaml"
    path.write_bytes(text.encode("utf-8"))
    doc, errors = load_yaml(path, "f.yaml")
    assert doc is None
    return [str(e) for e in errors]


def only_message_line(result, needle: str) -> str:
    [line] = [line for line in result.stdout.splitlines() if needle in line]
    return line


# 1. Control and bidirectional characters


def test_escaped_control_and_bidi_characters_are_refused_at_each_value(game_copy, cli):
    folder = game_copy("mission-emission")
    states = folder / "states.yaml"
    edit(states, "name: Andhra Pradesh", 'name: "Andhra\\u202ePradesh\\x1b[31m"')
    edit(states, "name: Assam", 'name: "As\\0sam\\a"')
    edit(states, "kind: state", '"ki\\u2066nd": state')
    result = cli("validate", folder)
    assert result.exit_code == 1
    out = result.stdout
    andhra, assam, kind = (line_of(states, needle) for needle in ('name: "Andhra', 'name: "As', '"ki'))
    assert f"states.yaml:{andhra}:11: states[0].name: contains U+202E (RIGHT-TO-LEFT OVERRIDE), U+001B (ESCAPE): {REFUSED}" in out
    assert f"states.yaml:{assam}:11: states[2].name: contains U+0000 (NULL), U+0007 (BELL): {REFUSED}" in out
    assert f"states.yaml:{kind}:5: states[0].ki\\u2066nd: contains U+2066 (LEFT-TO-RIGHT ISOLATE): {REFUSED}" in out
    assert out.rstrip().endswith("3 errors in 1 file")
    assert not RAW.search(result.output)


def test_raw_bidi_characters_are_refused_in_values_and_keys(tmp_path):
    errors = errors_of_text(tmp_path, "a: 1\nname: Go\u202ea\nk\u2067ey: 2\nlist: [x, \"y\u2069\"]\n")
    assert errors == [
        f"f.yaml:2:7: name: contains U+202E (RIGHT-TO-LEFT OVERRIDE): {REFUSED}",
        f"f.yaml:3:1: k\\u2067ey: contains U+2067 (RIGHT-TO-LEFT ISOLATE): {REFUSED}",
        f"f.yaml:4:11: list[1]: contains U+2069 (POP DIRECTIONAL ISOLATE): {REFUSED}",
    ]


def test_raw_control_characters_yaml_cannot_read_are_each_reported_at_their_line(tmp_path):
    # YAML stops at the first raw control character; every line holding one is named instead.
    text = "a: 1\nname: Go\x00a\nb: \x07\x1b[2J \u202e\nc: ok\nd: x\x7f\ne: x\x85y\nf: \x9b31m\n"
    assert errors_of_text(tmp_path, text) == [
        f"f.yaml:2:9: contains U+0000 (NULL): {REFUSED}",
        f"f.yaml:3:4: contains U+0007 (BELL), U+001B (ESCAPE), U+202E (RIGHT-TO-LEFT OVERRIDE): {REFUSED}",
        f"f.yaml:5:5: contains U+007F (DELETE): {REFUSED}",
        f"f.yaml:6:5: contains U+0085 (NEXT LINE): {REFUSED}",
        f"f.yaml:7:4: contains U+009B (CONTROL SEQUENCE INTRODUCER): {REFUSED}",
    ]


def test_a_file_full_of_control_characters_gives_a_bounded_list(tmp_path):
    errors = errors_of_text(tmp_path, "a: b\n" + "x: \x00\n" * 200_000)
    assert len(errors) == 1001
    assert errors[-1] == f"f.yaml: control characters on 199,000 more lines: {REFUSED}"


def test_tab_newline_and_carriage_return_stay_allowed(tmp_path):
    path = tmp_path / "f.yaml"
    path.write_bytes(b'a: "x\\ty"\r\nb: |\r\n  two\r\n  lines\r\n')
    doc, errors = load_yaml(path, "f.yaml")
    assert errors == [] and doc.data == {"a": "x\ty", "b": "two\nlines\n"}


def test_an_error_line_never_prints_a_raw_control_character():
    error = ContentError("a\u202eb.yaml", 3, 1, "name 'x\ny\x1b[31m\u2066'")
    assert str(error) == "a\\u202eb.yaml:3:1: name 'x\\x0ay\\x1b[31m\\u2066'"


# 2. Short excerpts, in a person's words


def test_a_huge_value_is_quoted_in_a_short_excerpt(game_copy, cli):
    folder = game_copy("mission-emission")
    edit(folder / "states.yaml", "forest:  {value: 17,", f"forest:  {{value: \"{'9' * 100_000}\",")
    edit(folder / "states.yaml", "kind: state", f"{'k' * 1000}: state")  # YAML's longest key: 1,024 characters
    result = cli("validate", folder)
    assert result.exit_code == 1
    value = only_message_line(result, "forest.value")
    quoted = value[value.index('"'):value.rindex('"') + 1]
    assert len(quoted) <= 100 and quoted.endswith('… (100,000 characters)"') and value.endswith("(write it without quotes)")
    assert "expected a whole number, found the text" in value
    key = only_message_line(result, "unknown key")
    assert len(key.split(": ", 1)[1]) < 200 and "(1,000 characters)" in key
    assert max(len(e["message"]) for e in json.loads(cli("validate", folder, "--format", "json").stdout)["errors"]) < 300


def test_schema_errors_say_what_was_found_and_what_was_expected(game_copy, cli):
    folder = game_copy("mission-emission")
    states = folder / "states.yaml"
    edit(states, "forest:  {value: 17,", 'forest:  {value: "60",')
    edit(states, "kind: state\n    colour: crowd", "kind: territory\n    colour: crowd")
    edit(states, "    colour: energy\n", "")
    edit(states, "name: Assam", "name: Assam\n    capital: Dispur")
    result = cli("validate", folder)
    assert result.exit_code == 1
    out = result.stdout
    forest = line_of(states, 'forest:  {value: "60"')
    assert f'{forest}:24: states[0].values.forest.value: expected a whole number, found the text "60" (write it without quotes)' in out
    assert f"{line_of(states, 'kind: territory')}:11: states[1].kind: the text \"territory\" is not one of: state, union-territory" in out
    assert "states[0]: missing key 'colour' (required here: id, name, kind, colour, values)" in out
    assert f"{line_of(states, 'capital')}:5: states[2].capital: unknown key 'capital' (known: colour, id, kind, name, note, values)" in out
    assert "is not of type" not in out and "is a required property" not in out


def test_every_missing_key_of_a_record_is_named(tmp_path):
    doc, _ = load_yaml(tmp_path / "f.yaml", "f.yaml", text="card: {id: a}\n")
    schema = {"properties": {"card": {"required": ["id", "name", "cost"]}}}
    assert [str(e) for e in validate_with(doc, schema)] == [
        "f.yaml:1:7: card: missing keys 'name', 'cost' (required here: id, name, cost)"]


def test_a_pattern_says_what_its_schema_says_never_the_expression(tmp_path):
    doc, _ = load_yaml(tmp_path / "f.yaml", "f.yaml", text="code: '12'\nnames: {Bad Key: 1}\ntag: x\n")
    schema = {"properties": {
        "code": {"pattern": "^[0-9]{3}$", "patternErrorMessage": "must be three digits, such as 007"},
        "names": {"propertyNames": {"pattern": "^[a-z]+$", "patternErrorMessage": "must be lowercase letters"}},
        "tag": {"pattern": "^#", "description": "a hash sign, then the tag"}}}
    assert [str(e) for e in validate_with(doc, schema)] == [
        'f.yaml:1:7: code: the text "12" must be three digits, such as 007',
        'f.yaml:2:9: names.Bad Key: the key "Bad Key" must be lowercase letters',
        'f.yaml:3:6: tag: the text "x" does not have the required form: a hash sign, then the tag',
    ]


def test_an_absolute_art_path_is_refused_in_words(tmp_path, cli):
    variant = tmp_path / "fan" / "v.yaml"
    variant.parent.mkdir()
    shutil.copy(CONTENT_DIR / "variants" / "mission-emission-set-collection.yaml", variant)
    with variant.open("a", encoding="utf-8") as f:
        f.write('art:\n  goa: "C:\\\\art\\\\goa.png"\n')
    result = cli("validate", variant)
    assert result.exit_code == 1
    assert f"v.yaml:{line_of(variant, 'goa:')}:8: art.goa: the text \"C:\\art\\goa.png\" must be a relative path to a PNG or JPEG " \
           "file beside the variant, such as art/goa.png (folders separated by /)" in result.stdout
    assert "pattern" not in result.stdout and "^" not in result.stdout


# 3. Floods summarised


def broken_deck(folder: Path, records: int) -> None:
    """``records`` cards, each broken five ways (id form, a missing title, colour form, value out of
    range, copies out of range), and a column the schema does not know."""
    rows = ["id,title,text,colour,value,copies,extra"] + [f"C{i},,x,#zzzzzz,{100 + i},-1,{i}" for i in range(records)]
    (folder / "cards.csv").write_text("\n".join(rows) + "\n", "utf-8")


@pytest.mark.slow
def test_a_flood_of_one_kind_is_summarised_and_json_keeps_every_error(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cli("init", "g")
    rows = ["id,title,text,colour,value,copies"] + [f"c{i},T{i},x,#zzzzzz,1,1" for i in range(4000)]
    (tmp_path / "g" / "cards.csv").write_text("\n".join(rows) + "\n")
    result = cli("validate", "g")
    lines = result.stdout.splitlines()
    assert result.exit_code == 1 and len(lines) == 7
    assert [line.split(":")[1] for line in lines[:5]] == ["2", "3", "4", "5", "6"]
    assert lines[5] == "g/cards.csv: ... and 3,995 more like these (--format json lists them all)"
    assert lines[6] == "4,000 errors in 1 file"
    assert len(json.loads(cli("validate", "g", "--format", "json").stdout)["errors"]) == 4000
    build = cli("build", "g")
    assert build.exit_code == 1 and len(build.stderr.splitlines()) == 7


@pytest.mark.slow
def test_4000_records_broken_six_ways_read_as_a_few_dozen_lines(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cli("init", "g")
    broken_deck(tmp_path / "g", 4000)
    result = cli("validate", "g")
    lines = result.stdout.splitlines()
    assert result.exit_code == 1 and len(lines) <= 40
    summaries = [i for i, line in enumerate(lines) if "more like these" in line]
    # the unknown column is the header's fault: one error at its cell, not one per card
    assert lines[0] == "g/cards.csv:1:35: column 'extra' is not a field of a card (did you mean 'text'? 4,000 cards fill it)"
    assert len(summaries) == 5 and lines[-1] == "20,001 errors in 1 file"
    for i in summaries:  # each summary follows the five examples of its own kind
        examples = [re.sub(r"\[\d+\]|\d+", "#", line) for line in lines[i - 5:i]]
        assert len(set(examples)) == 1, lines[i - 5:i]
    assert len(json.loads(cli("validate", "g", "--format", "json").stdout)["errors"]) == 20_001


def test_json_keeps_exact_values_with_nothing_that_reorders_text(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name = "fan\u202egpj"
    cli("init", "g")
    (tmp_path / "g").rename(tmp_path / name)
    broken_deck(tmp_path / name, 1)
    text = cli("validate", name)
    assert "fan\\u202egpj/cards.csv:2:1" in text.stdout and not RAW.search(text.output)
    raw = cli("validate", name, "--format", "json").stdout
    assert "\u202e" not in raw and "\\u202e" in raw
    assert {e["path"] for e in json.loads(raw)["errors"]} == {f"{name}/cards.csv"}


@pytest.mark.parametrize("shown, expected", [(1, "more like it"), (5, "more like these")])
def test_the_summary_line_reads_naturally(shown, expected):
    from deckpress.generator.content.reporters import summarised

    errors = [ContentError("f.yaml", n, 1, f"cards[{n}].cost: {n} is out of range") for n in range(1, 8)]
    lines = summarised(errors, shown=shown, where_all="deckpress validate --format json lists them all")
    assert len(lines) == shown + 1
    assert lines[-1] == f"f.yaml: ... and {7 - shown} {expected} (deckpress validate --format json lists them all)"


def test_yaml_syntax_errors_come_with_a_plain_hint(tmp_path):
    cases = {
        "a:\n\tb: 1\n": "2:1: YAML syntax error: a tab: YAML indents with spaces only",
        "a:\n  b: 1\n c: 2\n": "3:2: YAML syntax error: this line's indentation does not line up",
        "name: Goa: the smallest state\n": "1:10: YAML syntax error: a ':' inside a value: put the value in quotes",
    }
    for text, expected in cases.items():
        path = tmp_path / "broken.yaml"
        path.write_text(text)
        [error] = load_yaml(path, "broken.yaml")[1]
        assert str(error).startswith(f"broken.yaml:{expected}"), str(error)

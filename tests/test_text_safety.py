"""Text that cannot fool a reader (issue 20): characters refused at their line, messages that
quote short escaped excerpts in a person's words, floods of one kind summarised."""
from __future__ import annotations

import json

from tests.conftest import line_of


def edit(path, old, new):
    text = path.read_text("utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), "utf-8")


def test_control_and_bidi_characters_are_refused_at_their_line(game_copy, cli):
    folder = game_copy("mission-emission")
    states = folder / "states.yaml"
    edit(states, "name: Andhra Pradesh", 'name: "Andhra\\u202ePradesh\\x1b[31m"')
    result = cli("validate", folder)
    assert result.exit_code == 1
    line = line_of(states, "Andhra\\u202e")
    assert f"states.yaml:{line}:11: contains U+202E (RIGHT-TO-LEFT OVERRIDE), U+001B (ESCAPE): control characters" in result.stdout
    assert "\x1b" not in result.output and "\u202e" not in result.output


def test_a_huge_value_is_quoted_in_a_short_excerpt(game_copy, cli):
    folder = game_copy("mission-emission")
    edit(folder / "states.yaml", "forest:  {value: 17,", f"forest:  {{value: \"{'9' * 100_000}\",")
    result = cli("validate", folder)
    assert result.exit_code == 1
    [line] = [line for line in result.stdout.splitlines() if "forest.value" in line]
    assert len(line) < 300 and "(100,000 characters)" in line
    assert "expected a whole number, found the text" in line and "(write it without quotes)" in line


def test_a_flood_of_one_kind_is_summarised_and_json_keeps_every_error(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cli("init", "g")
    rows = ["id,title,text,colour,value,copies"] + [f"c{i},T{i},x,#zzzzzz,1,1" for i in range(4000)]
    (tmp_path / "g" / "cards.csv").write_text("\n".join(rows) + "\n")
    result = cli("validate", "g")
    lines = result.stdout.splitlines()
    assert result.exit_code == 1 and len(lines) == 7
    assert lines[5] == "g/cards.csv: ... and 3,995 more like these (--format json lists them all)"
    assert lines[6] == "4000 errors in 1 file"
    assert len(json.loads(cli("validate", "g", "--format", "json").stdout)["errors"]) == 4000
    build = cli("build", "g")
    assert build.exit_code == 1 and len(build.stderr.splitlines()) == 7


def test_yaml_syntax_errors_come_with_a_plain_hint(tmp_path):
    from deckpress.generator.yamlsafe import load_yaml

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

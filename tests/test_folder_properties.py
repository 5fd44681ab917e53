"""Property tests: a shipped game folder (Mission Emission) and the ``deckpress init`` starter game,
mutated as a careless or hostile editor would (a value replaced by one of another type, a record
removed or copied, a path changed, a file removed or replaced), end in ``validate`` and ``build``
either in success or in clean errors:

* exit 0, or exit 1 with no traceback and every error line ``path:line:col: message`` or
  ``path: message``, the path a file of the game folder;
* ``validate`` and ``build`` agree: what ``validate`` passes, ``build`` prints, and what ``build``
  refuses, ``validate`` refuses.

Both run in-process (click's CliRunner) for speed, in the folder holding the game, as a user runs
them.  YAML is mutated by loading it with PyYAML, changing the data and dumping it back (the
first-line ``# yaml-language-server`` comment kept); CSV with the csv module; JSON with json.
"""
from __future__ import annotations

import contextlib
import copy
import csv
import io
import json
import os
import re
import shutil
import tempfile
import traceback
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from PIL import Image

from deckpress.generator.cli import main
from deckpress.generator.paths import CONTENT_DIR

#: Seeded and without a database; no shrinking: a mutation is one step, readable as drawn, and
#: shrinking a Mission Emission example (0.7 s each) took over five minutes.
SETTINGS = {"derandomize": True, "deadline": None, "database": None, "suppress_health_check": [HealthCheck.too_slow],
            "phases": [Phase.explicit, Phase.generate]}
#: An error line longer than this quotes something whole (the short-line rule is checked, with
#: known exceptions, by the tests after the properties and in test_hostile_folders.py).
MAX_LINE = 1000

#: Paths an editor (or an attacker) might write where a file or an image is named.
PATHS = [
    "cards.csv", "card.schema.json", "game.yaml", "layout.yaml", "states.yaml", "art.png",
    "missing.csv", "missing.yaml", "missing.png", "missing.json", "cards.yaml", "CARDS.CSV", "cards.txt",
    "../outside.png", "../outside.csv", "../../../../etc/passwd", "/etc/passwd", "/dev/zero",
    "https://example.com/art.png", "file:///etc/passwd", "C:\\art.png", "~/art.png",
    "", " ", ".", "..", "sub", "sub/", "art.png/", "./art.png", "sub/../art.png",
    "{title}", "{id}", "{nope}", "{art}", "{", "}", "pipe.csv",
]

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 200),
    st.sampled_from([-1, 0, 10**6, 2**63, -(2**63)]),
    st.floats(-1000, 1000, allow_nan=False, width=32),
    st.text(max_size=12),
    st.sampled_from(["", "x", "poker", "base", "state", "forest", "{name}", "#zzzzzz", "#ffffff", "NO", "1:20", "1e3"]),
)
#: Replacement values by kind: a mutation swaps a value for one of another kind.
VALUES = {
    "null": st.none(),
    "bool": st.booleans(),
    "int": st.integers(-10, 200) | st.sampled_from([-1, 0, 10**6, 2**63]),
    "float": st.floats(-1000, 1000, allow_nan=False, width=32),
    "str": st.text(max_size=12) | st.sampled_from(["", "x", "poker", "{name}", "cards.csv", "../x"]),
    "list": st.lists(SCALARS, max_size=3),
    "dict": st.dictionaries(st.text(max_size=6), SCALARS, max_size=3),
}

#: What a layout's text or icon element might be changed to: typos, broken braces, odd fields.
TEMPLATES = ["{nmae}", "{name", "name}", "{", "}", "{}", "{{name}}", "{name}{kind}", "{values}", "{missions}", "{0}",
             "{name.upper}", "{__class__}", "{title!r}", "{value:>99999}", "plain text", "", "x" * 300, "{id}", "{copies}"]

ERROR_LINE = re.compile(r"^(?P<path>[^\s:][^:]*?)(?::(?P<line>\d+):(?P<col>\d+))?: (?P<message>.+)$")


def kind_of(value: Any) -> str:
    if value is None:
        return "null"
    for name, cls in (("bool", bool), ("int", int), ("float", float), ("str", str), ("list", list), ("dict", dict)):
        if isinstance(value, cls):
            return name
    return "other"


# --------------------------------------------------------------------------------------------
# Mutations


def pick_path(data, root: Any) -> tuple:
    """A path into ``root``: from the top, descend into a random child three times in four."""
    path, node = (), root
    while isinstance(node, (dict, list)) and node and data.draw(st.integers(0, 3), label="descend") != 0:
        key = data.draw(st.sampled_from(list(node.keys()) if isinstance(node, dict) else list(range(len(node)))), label="key")
        path, node = path + (key,), node[key]
    return path


def get(root: Any, path: tuple) -> Any:
    for key in path:
        root = root[key]
    return root


def mutate_data(data, root: Any) -> tuple[Any, str]:
    """``root`` with one mutation: a value of another type, a record removed or copied, a key
    removed or added.  Returns the new root and what was done."""
    path = pick_path(data, root)
    node = get(root, path)
    choices = ["retype"]
    if path:
        choices.append("remove")
        if isinstance(get(root, path[:-1]), list):
            choices.append("duplicate")
    if isinstance(node, dict):
        choices.append("add-key")
    how = data.draw(st.sampled_from(choices), label="how")
    if how == "retype":
        kind = data.draw(st.sampled_from([k for k in VALUES if k != kind_of(node)]), label="kind")
        value = data.draw(VALUES[kind], label="value")
        if not path:
            return value, f"the whole file -> {value!r}"
        get(root, path[:-1])[path[-1]] = value
        return root, f"{path} -> {value!r}"
    if how == "remove":
        parent = get(root, path[:-1])
        del parent[path[-1]]
        return root, f"{path} removed"
    if how == "duplicate":
        parent = get(root, path[:-1])
        parent.insert(data.draw(st.integers(0, len(parent)), label="at"), copy.deepcopy(node))
        return root, f"{path} copied"
    key = data.draw(st.sampled_from(["id", "name", "extra", "file", "image", "copies", "layout", "when"]) | st.text(max_size=6), label="new key")
    node[key] = data.draw(SCALARS, label="new value")
    return root, f"{path}.{key} added"


def read_yaml(path: Path) -> tuple[str, Any]:
    text = path.read_text("utf-8")
    first = text.split("\n", 1)[0]
    return (first if first.startswith("# yaml-language-server") else ""), yaml.safe_load(text)


def write_yaml(path: Path, first: str, value: Any) -> None:
    body = yaml.safe_dump(value, sort_keys=False, allow_unicode=True, width=120)
    path.write_text((first + "\n" if first else "") + body, "utf-8")


def mutate_yaml(data, path: Path) -> str:
    first, root = read_yaml(path)
    root, what = mutate_data(data, root)
    write_yaml(path, first, root)
    return f"{path.name}: {what}"


def mutate_json(data, path: Path) -> str:
    root = json.loads(path.read_text("utf-8"))
    root, what = mutate_data(data, root)
    path.write_text(json.dumps(root, indent=2, ensure_ascii=False), "utf-8")
    return f"{path.name}: {what}"


def mutate_csv(data, path: Path) -> str:
    rows = list(csv.reader(io.StringIO(path.read_text("utf-8"))))
    how = data.draw(st.sampled_from(["cell", "remove-row", "copy-row", "remove-column", "add-column", "short-row", "long-row"]), label="csv how")
    r = data.draw(st.integers(0, len(rows) - 1), label="row")
    c = data.draw(st.integers(0, len(rows[0]) - 1), label="column")
    if how == "cell":
        rows[r][c] = data.draw(st.text(max_size=12) | st.sampled_from(["", "-1", "0", "21", "1.5", "1e3", "abc", "#12345", "[1]", "{a: 1}", "null", "true", "x" * 500]), label="cell")
    elif how == "remove-row":
        del rows[r]
    elif how == "copy-row":
        rows.insert(r, list(rows[r]))
    elif how == "remove-column":
        for row in rows:
            del row[c:c + 1]
    elif how == "add-column":
        name = data.draw(st.sampled_from(["extra", "id", "", "bad name", "title"]), label="column name")
        for i, row in enumerate(rows):
            row.append(name if i == 0 else "v")
    elif how == "short-row":
        rows[r] = rows[r][:c]
    else:
        rows[r] = rows[r] + ["surplus"]
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    path.write_text(buf.getvalue(), "utf-8")
    return f"{path.name}: {how} at row {r + 1}, column {c + 1}"


def mutate_template(data, layout_path: Path) -> str:
    """A text or icon element of the layout given another template (a typo, broken braces)."""
    first, layout = read_yaml(layout_path)
    elements = []
    for kind, card in layout["cards"].items():
        for side in ("face", "back"):
            for i, element in enumerate(card.get(side, [])):
                for key in ("text", "icon", "fill", "colour"):
                    if key in element:
                        elements.append((kind, side, i, key))
    kind, side, i, key = data.draw(st.sampled_from(elements), label="element")
    value = data.draw(st.sampled_from(TEMPLATES) | st.text(max_size=12), label="template")
    layout["cards"][kind][side][i][key] = value
    write_yaml(layout_path, first, layout)
    return f"layout.yaml: cards.{kind}.{side}[{i}].{key} -> {value!r}"


def mutate_file(data, folder: Path, names: list[str]) -> str:
    """A file of the game removed, renamed, made a folder, or replaced by a link to another file
    of the folder."""
    name = data.draw(st.sampled_from(names), label="file")
    how = data.draw(st.sampled_from(["remove", "rename", "folder", "link", "empty"]), label="file how")
    path = folder / name
    if how == "remove":
        path.unlink()
    elif how == "rename":
        path.rename(folder / (name + ".bak"))
    elif how == "folder":
        path.unlink()
        path.mkdir()
    elif how == "link":
        other = data.draw(st.sampled_from([n for n in names if n != name]), label="link to")
        path.unlink()
        path.symlink_to(other)
    else:
        path.write_text("", "utf-8")
    return f"{name}: {how}"


# --------------------------------------------------------------------------------------------
# Running validate and build


def run(*args: str):
    result = CliRunner().invoke(main, list(args), catch_exceptions=True)
    return result


def assert_clean(result, folder_name: str, what: str, command: str) -> None:
    shown = f"{command} after {what}: exit {result.exit_code}\n{result.output[-4000:]}"
    assert result.exception is None or isinstance(result.exception, SystemExit), f"{shown}\n{''.join(traceback.format_exception(*result.exc_info)) if result.exc_info else ''}"
    assert result.exit_code in (0, 1), shown
    assert "Traceback" not in result.output, shown
    if result.exit_code == 0:
        return
    # A line is what a terminal shows: split at newlines only (str.splitlines() also splits at
    # \x1c-\x1e and U+2028, which a mutated value may hold; raw control characters in messages
    # are test_hostile_folders.py's concern).
    errors = [line for line in result.output.split("\n") if line and not _summary(line, folder_name)]
    assert errors, shown
    for line in errors:
        m = ERROR_LINE.match(line)
        assert m, f"not 'path:line:col: message' nor 'path: message': {line!r}\n{shown}"
        path = m["path"]
        assert path == folder_name or path.startswith(folder_name + "/"), f"the error names {path!r}, not a file of the game folder\n{shown}"
        assert len(line) < MAX_LINE, f"a line of {len(line)} characters\n{shown}"


def _summary(line: str, folder_name: str) -> bool:
    """validate's and build's own lines: the count of errors, what was (not) written."""
    return bool(re.fullmatch(r"\d[\d,]* errors? in \d[\d,]* files?", line)
                or re.fullmatch(r"ok: .*", line)
                or re.fullmatch(r"wrote .*", line)
                or re.fullmatch(r"[^\s:]+: not built \(\d[\d,]* errors?\); (.* left as it was|nothing was written)", line))


@contextlib.contextmanager
def in_folder(path: Path):
    here = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(here)


def check_both(work: Path, folder_name: str, what: str) -> None:
    """validate then build the game in ``work/folder_name``: each clean, and the two agree."""
    with in_folder(work):
        v = run("validate", folder_name)
        assert_clean(v, folder_name, what, "validate")
        b = run("build", folder_name, "--out", "out")
        assert_clean(b, folder_name, what, "build")
    assert v.exit_code == b.exit_code, (
        f"validate and build disagree after {what}: validate exit {v.exit_code}, build exit {b.exit_code}\n"
        f"--- validate\n{v.output[-3000:]}\n--- build\n{b.output[-3000:]}")
    made = sorted(str(p.relative_to(work)) for p in work.rglob("*") if p.is_file() and not p.is_relative_to(work / folder_name)
                  and p.name not in ("outside.png", "outside.csv"))
    assert all(p.startswith("out/") and p.endswith(".pdf") for p in made), f"build wrote outside --out: {made}"


# --------------------------------------------------------------------------------------------
# The games


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """Mission Emission as shipped, and the init starter game with an image ``art.png`` beside
    its files; ``outside.png`` and ``outside.csv`` next to the game folders."""
    root = tmp_path_factory.mktemp("pristine")
    shutil.copytree(CONTENT_DIR / "mission-emission", root / "me")
    with in_folder(root):
        result = run("init", "starter")
    assert result.exit_code == 0, result.output
    Image.new("RGB", (40, 30), (200, 30, 30)).save(root / "starter" / "art.png")
    Image.new("RGB", (40, 30), (30, 30, 200)).save(root / "outside.png")
    (root / "outside.csv").write_text("id,title,text,colour,value,copies\nfar,Far,Far away,#000000,1,1\n", "utf-8")
    return root


@contextlib.contextmanager
def fresh(pristine: Path, game: str):
    """A throw-away copy of ``pristine/game`` (and the files beside it)."""
    with tempfile.TemporaryDirectory(prefix="deckpress-prop-") as tmp:
        work = Path(tmp)
        shutil.copytree(pristine / game, work / game, symlinks=True)
        for name in ("outside.png", "outside.csv"):
            shutil.copy(pristine / name, work / name)
        yield work


ME_FILES = ["game.yaml", "layout.yaml", "missions.yaml", "point-cards.yaml", "states.yaml"]
STARTER_FILES = ["game.yaml", "layout.yaml", "cards.csv", "card.schema.json"]


@pytest.mark.slow
def test_the_unmutated_games_pass_after_a_round_trip(pristine):
    """The mutations' baseline: loading and dumping every file back changes nothing deckpress
    sees, so a failure below is the mutation's."""
    for game, files in (("me", ME_FILES), ("starter", ["game.yaml", "layout.yaml"])):
        with fresh(pristine, game) as work:
            for name in files:
                first, value = read_yaml(work / game / name)
                write_yaml(work / game / name, first, value)
            check_both(work, game, "a round trip")
            with in_folder(work):
                assert run("validate", game).exit_code == 0


@pytest.mark.slow
@settings(max_examples=40, **SETTINGS)
@given(data=st.data())
def test_a_mutated_mission_emission_ends_clean_and_validate_agrees_with_build(pristine, data):
    with fresh(pristine, "me") as work:
        folder = work / "me"
        how = data.draw(st.sampled_from(["data", "data", "data", "image", "template", "file"]), label="mutation")
        if how == "data":
            what = mutate_yaml(data, folder / data.draw(st.sampled_from(ME_FILES), label="file"))
        elif how == "image":
            first, layout = read_yaml(folder / "layout.yaml")
            element = layout["cards"]["state"]["face"][1]
            assert element["type"] == "image"
            element["image"] = data.draw(st.sampled_from(PATHS) | st.text(max_size=20), label="image")
            if data.draw(st.booleans(), label="drop when"):
                element.pop("when")
            write_yaml(folder / "layout.yaml", first, layout)
            what = f"layout image -> {element['image']!r}, when {'kept' if 'when' in element else 'dropped'}"
        elif how == "template":
            what = mutate_template(data, folder / "layout.yaml")
        else:
            what = mutate_file(data, folder, ME_FILES)
        check_both(work, "me", what)


@pytest.mark.slow
@settings(max_examples=50, **SETTINGS)
@given(data=st.data())
def test_a_mutated_starter_game_ends_clean_and_validate_agrees_with_build(pristine, data):
    with fresh(pristine, "starter") as work:
        folder = work / "starter"
        how = data.draw(st.sampled_from(["yaml", "csv", "csv", "schema", "deck-path", "image", "template", "file"]), label="mutation")
        if how == "yaml":
            what = mutate_yaml(data, folder / data.draw(st.sampled_from(["game.yaml", "layout.yaml"]), label="file"))
        elif how == "csv":
            what = mutate_csv(data, folder / "cards.csv")
        elif how == "schema":
            what = mutate_json(data, folder / "card.schema.json")
        elif how == "deck-path":
            first, game = read_yaml(folder / "game.yaml")
            key = data.draw(st.sampled_from(["file", "schema"]), label="which path")
            game["decks"][0][key] = data.draw(st.sampled_from(PATHS) | st.text(max_size=20), label="path")
            write_yaml(folder / "game.yaml", first, game)
            what = f"decks[0].{key} -> {game['decks'][0][key]!r}"
        elif how == "image":
            first, layout = read_yaml(folder / "layout.yaml")
            side = data.draw(st.sampled_from(["face", "back"]), label="side")
            image = data.draw(st.sampled_from(PATHS) | st.text(max_size=20), label="image")
            layout["cards"]["card"][side].append({"type": "image", "x_mm": 5, "y_mm": 20, "w_mm": 20, "h_mm": 20, "image": image})
            write_yaml(folder / "layout.yaml", first, layout)
            what = f"an image {image!r} on the {side}"
        elif how == "template":
            what = mutate_template(data, folder / "layout.yaml")
        else:
            what = mutate_file(data, folder, STARTER_FILES)
        check_both(work, "starter", what)


# --------------------------------------------------------------------------------------------
# What the properties found, pinned


def test_an_unknown_icon_is_refused_in_one_short_line(pristine):
    with fresh(pristine, "me") as work:
        layout = work / "me" / "layout.yaml"
        text = layout.read_text("utf-8")
        assert "icon: cloud," in text
        layout.write_text(text.replace("icon: cloud,", "icon: clod,", 1), "utf-8")
        with in_folder(work):
            result = run("validate", "me")
    assert result.exit_code == 1 and "icon 'clod' is not in the icon set" in result.output, result.output
    assert all(len(line) < 300 for line in result.output.splitlines()), result.output


@pytest.mark.parametrize("game, key", [("mission-emission", "ages"), ("mission-emission", "duration"),
                                       ("fifty-missions", "ages"), ("fifty-missions", "duration"), ("geheime-mission", "players")])
def test_a_shipped_game_without_an_optional_key_ends_clean(tmp_path, game, key):
    """Found by the properties: built without the key, or refused at game.yaml; never a traceback."""
    shutil.copytree(CONTENT_DIR / game, tmp_path / "g")
    first, data = read_yaml(tmp_path / "g" / "game.yaml")
    del data[key]
    write_yaml(tmp_path / "g" / "game.yaml", first, data)
    check_both(tmp_path, "g", f"game.yaml: {key} removed")


def test_an_error_quoting_a_value_with_a_newline_stays_on_one_line(pristine):
    with fresh(pristine, "starter") as work:
        layout = work / "starter" / "layout.yaml"
        text = layout.read_text("utf-8")
        assert "fill: back, bleed: true" in text
        layout.write_text(text.replace("fill: back, bleed: true", 'fill: "no\\nsuch", bleed: true', 1), "utf-8")
        with in_folder(work):
            result = run("validate", "starter")
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.split("\n") if line]
    assert len(lines) == 2 and ERROR_LINE.match(lines[0]) and "unknown colour" in lines[0], result.output


@pytest.mark.parametrize("mutation", ["deck file is layout.yaml", "a 500-character column"])
def test_a_schema_error_quotes_a_short_excerpt(pristine, mutation):
    with fresh(pristine, "starter") as work:
        folder = work / "starter"
        if mutation == "deck file is layout.yaml":
            first, game = read_yaml(folder / "game.yaml")
            game["decks"][0]["file"] = "layout.yaml"
            write_yaml(folder / "game.yaml", first, game)
        else:
            cards = folder / "cards.csv"
            cards.write_text(cards.read_text("utf-8").replace("copies", "x" * 500, 1), "utf-8")
        with in_folder(work):
            result = run("validate", "starter")
    assert result.exit_code == 1, result.output
    assert all(len(line) < 300 for line in result.output.split("\n")), max(result.output.split("\n"), key=len)

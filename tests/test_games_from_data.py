"""A game is what its game.yaml says, wherever it lives; games made from data alone (init, CSV,
their own schemas); the schemas for editors.  Through the CLI, as a user runs it."""
from __future__ import annotations

import json
import os
import shutil

import pytest
from conftest import line_of, pdf_text
from jsonschema import Draft202012Validator
from pypdf import PdfReader

from deckpress.generator.content.yamlsafe import load_yaml
from deckpress.generator.paths import CONTENT_DIR


def test_init_then_build_gives_a_pdf_of_the_starter_cards(cli, here):
    result = cli("init", "mygame")
    assert result.exit_code == 0, result.output
    assert {p.name for p in (here / "mygame").iterdir()} == {"game.yaml", "cards.csv", "card.schema.json", "layout.yaml", ".schemas"}
    result = cli("build", "mygame")
    assert result.exit_code == 0, result.output
    text = pdf_text(here / "output" / "mygame.pdf")
    # 3 + 2 + 1 copies of the three starter cards, on one sheet of faces and one of backs after the cover.
    assert text.count("Spark") == 3 and text.count("Tide") == 2 and text.count("Stone") == 1
    assert len(PdfReader(here / "output" / "mygame.pdf").pages) == 4
    # the cover's checklist counts the copies the cards' own field asks for
    assert "Cards\n6\n63 x 88 mm" in PdfReader(here / "output" / "mygame.pdf").pages[0].extract_text()


def test_init_says_at_once_when_the_title_needs_a_font_deckpress_lacks(cli, here):
    # the starter game prints its title; in a script the shipped fonts lack, build would fail on it
    result = cli("init", "日本語ゲーム")
    assert result.exit_code == 0 and (here / "日本語ゲーム" / "game.yaml").is_file()
    assert "note: the title has characters no font draws (U+65E5 CJK UNIFIED IDEOGRAPH-65E5 '日'" in result.stderr
    assert "declare them in game.yaml, for example fonts: [{regular: fonts/YourFont-Regular.ttf" in result.stderr
    result = cli("init", "Spiel für Zwei")
    assert "note:" not in result.stderr  # Latin letters with accents are Lato's
    assert "then run: deckpress build 'Spiel für Zwei'" in result.stdout  # quoted, so that it can be pasted
    assert cli("build", "Spiel für Zwei").exit_code == 0


def test_init_refuses_a_folder_that_is_not_empty(cli, here):
    (here / "taken").mkdir()
    (here / "taken" / "notes.txt").write_text("mine")
    result = cli("init", "taken")
    assert result.exit_code == 2 and "exists and is not an empty folder" in result.output
    assert (here / "taken" / "notes.txt").read_text() == "mine"


@pytest.mark.slow
def test_a_copy_of_a_shipped_game_is_that_game_whatever_its_folder(cli, here):
    shutil.copytree(CONTENT_DIR / "mission-emission", here / "me-india")
    assert cli("validate", "me-india").exit_code == 0
    result = cli("build", "me-india")
    assert result.exit_code == 0 and (here / "output" / "mission-emission.pdf").is_file(), result.output
    result = cli("simulate", "me-india", "--games", "20", "--format", "json")
    assert result.exit_code == 0 and json.loads(result.stdout)["game"] == "mission-emission"
    # An edition's own numbers are what its errors point at.
    states = here / "me-india" / "states.yaml"
    states.write_text(states.read_text().replace("forest:  {value: 17,", "forest:  {value: 170,", 1))
    result = cli("validate", "me-india")
    assert result.exit_code == 1 and f"me-india/states.yaml:{line_of(states, 'value: 170')}:" in result.stdout


@pytest.mark.slow
def test_variants_are_checked_against_an_edition(cli, here):
    shutil.copytree(CONTENT_DIR / "mission-emission", here / "me-india")
    variant = here / "set.yaml"
    shutil.copy(CONTENT_DIR / "variants" / "mission-emission-set-collection.yaml", variant)
    result = cli("check", str(variant), "--content", "me-india", "--no-simulate", "--report", str(here / "report"))
    assert result.exit_code == 0 and "verdict: accept" in result.stdout, result.output
    cli("init", "mygame")
    result = cli("check", str(variant), "--content", "mygame", "--no-simulate", "--report", str(here / "report"))
    assert result.exit_code == 2
    assert f"set.yaml:{line_of(variant, 'extends:')}:10: extends: 'mission-emission', but the game in mygame is 'mygame'" in result.stdout


def test_a_game_without_rules_says_so(cli, here):
    cli("init", "mygame")
    result = cli("simulate", "mygame")
    assert result.exit_code == 2 and "has no rules engine" in result.stderr and "Traceback" not in result.output


def test_csv_errors_point_at_the_cell(cli, here):
    cli("init", "mygame")
    cards = here / "mygame" / "cards.csv"
    cards.write_text("id,title,text,colour,value,copies\n"
                     "spark,Spark,Burn.,#d1495b,high,3\n"
                     "tide,Tide,Swap.,#00798c,2,2,extra\n"
                     "stone,,Hold.,#6c757d,3,1\n")
    result = cli("validate", "mygame")
    assert result.exit_code == 1
    out = result.stdout
    assert "mygame/cards.csv:3:29: row has 7 cells, but the header names 6 fields" in out
    cards.write_text(cards.read_text().replace(",2,2,extra", ",2,2"))
    out = cli("validate", "mygame").stdout
    assert "mygame/cards.csv:2:27: card 'spark': value:" in out  # 'high' is not an integer: at the cell
    assert "title" in out.split("mygame/cards.csv:4:1: card 'stone':")[1].splitlines()[0]  # an empty title is a missing field
    cards.write_text("id,title,text,colour,value,copies\nspark,Spark,Burn.,#d1495b,1e3,3\n")  # no quotes to lose in a CSV cell
    assert "card 'spark': value: expected a whole number, found the text \"1e3\" (write it as plain digits, such as 12 or 1.5)" in cli("validate", "mygame").stdout
    cards.write_text("id;title;text;colour;value;copies\nspark;Spark;Burn.;#d1495b;1;3\n")  # a spreadsheet's European export
    assert "the fields are separated by semicolons, and deckpress reads commas" in cli("validate", "mygame").stdout
    # a spreadsheet's export in Windows-1252: at the first byte that is not UTF-8, with how to save it
    cards.write_bytes(b"id,title,text,colour,value,copies\nspark,Caf\xe9,Burn.,#d1495b,1,3\n")
    assert ("mygame/cards.csv:2:10: file is not UTF-8 text: byte 0xE9 is no UTF-8 character (a file saved in another "
            "encoding, such as Windows-1252: save it as UTF-8, in a spreadsheet as 'CSV UTF-8')") in cli("validate", "mygame").stdout
    # a quote never closed: at the row it opens on, the rows before it still checked
    cards.write_text('id,title,text,colour,value,copies\nspark,Sp\x07ark,Burn.,#d1495b,1,3\ntide,"Tide,Swap.,#00798c,2,2\n'
                     "stone,Stone,Hold.,#6c757d,3,1\n")
    out = cli("validate", "mygame").stdout
    assert "mygame/cards.csv:2:7: title: contains U+0007 (BELL)" in out
    assert ('mygame/cards.csv:3:1: not a readable CSV file from this row on: a cell that starts with " never ends with one '
            '(a " inside a quoted cell is written "")') in out and out.rstrip().endswith("2 errors in 1 file")
    cards.write_text("id,title,text,colour,value,copies\n")  # the field names and no card: a kit of nothing
    result = cli("build", "mygame")
    assert result.exit_code == 1 and "mygame/cards.csv:1:1: deck 'cards' has no cards: each row after the field names is a card" in result.stderr


def test_a_layout_field_no_card_has_fails_validate_at_its_line(cli, here):
    cli("init", "mygame")
    layout = here / "mygame" / "layout.yaml"
    layout.write_text(layout.read_text().replace('text: "{title}"', 'text: "{titel}"'))
    result = cli("validate", "mygame")
    assert result.exit_code == 1
    assert f"mygame/layout.yaml:{line_of(layout, '{titel}')}:" in result.stdout and "'{titel}' names no field" in result.stdout
    assert cli("build", "mygame").exit_code == 1  # validate and build agree


def test_yaml_card_files_and_numbers_of_copies_from_data(cli, here):
    cli("init", "mygame")
    game = here / "mygame" / "game.yaml"
    game.write_text(game.read_text().replace("file: cards.csv", "file: cards.yaml").replace("copies: copies", "copies: 2"))
    (here / "mygame" / "cards.yaml").write_text(
        "cards:\n  - {id: one, title: One, text: First., colour: '#112233', value: 1, copies: 1}\n"
        "  - {id: two, title: Two, text: Second., colour: '#445566', value: 2, copies: 1}\n")
    result = cli("build", "mygame")
    assert result.exit_code == 0, result.output
    assert pdf_text(here / "output" / "mygame.pdf").count("Two") == 2
    assert "Cards\n4\n63 x 88 mm" in PdfReader(here / "output" / "mygame.pdf").pages[0].extract_text()  # 2 cards, 2 copies each


def test_a_modeline_may_point_anywhere_but_must_name_the_right_schema(cli, here):
    cli("init", "mygame")
    layout = here / "mygame" / "layout.yaml"
    layout.write_text(layout.read_text().replace("$schema=.schemas/layout.schema.json", "$schema=../elsewhere/layout.schema.json"))
    assert cli("validate", "mygame").exit_code == 0
    layout.write_text(layout.read_text().replace("elsewhere/layout.schema.json", "elsewhere/game.schema.json"))
    result = cli("validate", "mygame")
    assert result.exit_code == 1 and "mygame/layout.yaml:1:1: the first line names the schema 'game.schema.json'" in result.stdout


@pytest.mark.slow
def test_validate_checks_the_game_here_or_the_shipped_ones_never_nothing(cli, here, monkeypatch):
    result = cli("validate")
    assert result.exit_code == 0 and "(4 checked, no errors)" in result.stdout
    cli("init", "mygame")
    monkeypatch.chdir(here / "mygame")
    result = cli("validate")
    assert result.exit_code == 0 and "ok: . (1 checked" in result.stdout
    (here / "notes.yaml").write_text("a: 1\n")
    result = cli("validate", str(here / "notes.yaml"))
    assert result.exit_code == 1 and "not deckpress content" in result.stdout
    result = cli("validate", "--skip-other", str(here / "notes.yaml"))
    assert result.exit_code == 0 and "nothing to check" in result.stderr and "ok" not in result.stdout
    # a CI workflow's anchors, a tag, a file past the variant size limit: not variants, so skipped;
    # a variant broken the same way is still shown
    (here / "ci.yml").write_text("env: &env\n  A: 1\njob:\n  env: *env\n")
    (here / "gitlab.yml").write_text("script: !reference [.setup, script]\n")
    (here / "big.yaml").write_text("rows:\n" + "  - 1234567890\n" * 40_000)
    (here / "broken-variant.yaml").write_text("extends: mission-emission\nname: &n Broken\n")
    result = cli("validate", "--skip-other", *(str(here / n) for n in ("ci.yml", "gitlab.yml", "big.yaml", "broken-variant.yaml")))
    assert result.exit_code == 1 and "broken-variant.yaml:2:7: YAML anchor '&n' is not allowed" in result.stdout
    assert "ci.yml" not in result.stdout and "gitlab.yml" not in result.stdout and "big.yaml" not in result.stdout
    # a path that is there with nothing to read: said so (it was "no such game folder"), or skipped
    (here / "dangling.yaml").symlink_to("nowhere.yaml")
    os.mkfifo(here / "pipe.yaml")
    for name, what in (("dangling.yaml", "a link to nothing (or a link that leads back to itself)"),
                       ("pipe.yaml", "not a regular file (a device, a pipe or a socket)")):
        result = cli("validate", str(here / name))
        assert result.exit_code == 2 and f"{name}: {what}: give a game folder, a file in one, or a variant file" in result.output
    assert cli("validate", "--skip-other", str(here / "dangling.yaml"), str(here / "pipe.yaml")).exit_code == 0


@pytest.mark.slow
def test_schemas_are_self_contained_for_editors(cli, here):
    assert cli("schemas", "sch").exit_code == 0
    written = sorted((here / "sch").glob("*.schema.json"))
    assert len(written) == len(list((CONTENT_DIR.parent / "schemas").glob("*.schema.json")))
    for path in written:
        schema = json.loads(path.read_text())
        Draft202012Validator.check_schema(schema)
        refs = [r for r in json.dumps(schema).split('"$ref": "')[1:]]
        assert all(r.startswith("#") for r in refs), path.name  # nothing refers to another file
    # variant.schema.json copied alone validates a variant without common.schema.json beside it.
    lone = json.loads((here / "sch" / "variant.schema.json").read_text())
    doc, _ = load_yaml(CONTENT_DIR / "variants" / "mission-emission-set-collection.yaml")
    assert list(Draft202012Validator(lone).iter_errors(doc.data)) == []
    doc.data["extends"] = "Not An Id"
    assert list(Draft202012Validator(lone).iter_errors(doc.data))


def test_a_variant_of_a_game_made_from_data_alone(cli, here):
    cli("init", "mygame")
    variant = here / "hot.yaml"
    variant.write_text("extends: mygame\nname: Hotter spark\nauthor: Fan\nversion: '1.0'\ndescription: Spark is worth more.\n"
                       "changes:\n  - replace: {file: cards, id: spark, fields: {value: 5}}\n")
    result = cli("check", variant, "--content", "mygame", "--report", here / "r")
    assert result.exit_code == 0 and "has no rules engine yet" in result.stdout and "value: 1 -> 5" in result.stdout, result.stdout
    variant.write_text(variant.read_text().replace("value: 5", "value: 500"))
    result = cli("check", variant, "--content", "mygame", "--report", here / "r")
    assert result.exit_code == 2 and "hot.yaml:7:55: card 'spark': value: 500 is out of range: it must be at most 99" in result.stdout


def test_a_cards_own_source_field_prints_as_written_not_the_file_name(cli, here):
    # A published card list often says which set a card came from in a column named source.
    (here / "sets.csv").write_text("name,source,id\nAlpha,Core Set,7\nBeta,Expansion,8\n", encoding="utf-8")
    assert cli("init", "ts", "--from", "sets.csv").exit_code == 0
    assert cli("build", "ts").exit_code == 0
    text = pdf_text(here / "output" / "ts.pdf")
    assert "Core Set" in text and "Expansion" in text and "sets.csv" not in text

"""Card data as a designer has it: values that print as they are (null is absent, a yes/no or a
list is refused where it stands), one Tabletop Simulator deck per deck, ``init``'s values that
read back; JSON, spreadsheets, TSV and YAML lists as card files; ``init --from``; the limits a
game may raise.  Through the CLI, as a user runs it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from deckpress.generator.yamlsafe import load_yaml
from tests.conftest import line_of


@pytest.fixture
def here(tmp_path, monkeypatch):
    """An empty folder to run commands in, as a user would (outputs land in ./output)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def starter(cli, here: Path, name: str = "mygame", schema: bool = True) -> Path:
    """``deckpress init NAME``: the starter game, without its card schema unless ``schema``."""
    assert cli("init", name).exit_code == 0
    folder = here / name
    if not schema:
        game = folder / "game.yaml"
        game.write_text("".join(line for line in game.read_text().splitlines(keepends=True) if "schema: card.schema.json" not in line))
    return folder


@pytest.mark.parametrize("name", ["null", "true", "no", "123", "False"])
def test_init_writes_values_that_read_back_as_written(cli, here, name):
    # `deckpress init null` once wrote `id: null`: the new game's own game.yaml then failed to validate
    folder = starter(cli, here, name)
    doc, errors = load_yaml(folder / "game.yaml")
    assert not errors and isinstance(doc.data["id"], str) and doc.data["title"] == name.capitalize()
    result = cli("validate", name)
    assert result.exit_code == 0, result.output


def test_null_is_an_absent_value_never_the_text_none(cli, here):
    folder = starter(cli, here, schema=False)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("file: cards.csv", "file: cards.yaml"))
    (folder / "cards.yaml").write_text(
        "cards:\n  - {id: one, title: One, text: First., colour: '#112233', value: 1, copies: 1}\n"
        "  - {id: two, title: Two, text: null, colour: '#445566', value: 2, copies: 1}\n")
    result = cli("validate", "mygame")
    # printed as 'None' before; now the card has no text, as an empty CSV cell
    assert result.exit_code == 1 and "'{text}' names no field of this card" in result.stdout
    layout = folder / "layout.yaml"
    layout.write_text(layout.read_text().replace('text: "{text}",', 'text: "{text}", when: text,'))
    assert cli("build", "mygame").exit_code == 0
    text = pdf_text(here / "output" / "mygame.pdf")
    assert "Two" in text and "None" not in text


def test_a_value_with_no_printed_form_is_refused_where_it_stands(cli, here):
    folder = starter(cli, here, schema=False)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("file: cards.csv", "file: cards.yaml"))
    cards = folder / "cards.yaml"
    cards.write_text(
        "cards:\n"
        "  - {id: one, title: One, text: First., colour: '#112233', value: 0, copies: 1}\n"
        "  - {id: two, title: false, text: Second., colour: '#445566', value: 2, copies: 1}\n"
        "  - id: three\n    title: Three\n    text: [1, 2]\n    colour: '#445566'\n    value: 3\n    copies: 1\n")
    result = cli("validate", "mygame")
    assert result.exit_code == 1
    out = result.stdout
    # at the value's own line and column, saying what it is and what to do; 0 is a value and prints
    assert (f"mygame/cards.yaml:3:22: card 'two': title: a yes/no value (false) has no printed form, and the layout "
            "prints {title}: test it with when:, or write the text to print") in out
    assert f"mygame/cards.yaml:{line_of(cards, 'text: [1, 2]')}:11: card 'three': text: a list ([1, 2]) has no printed form" in out
    assert "card 'one'" not in out and out.rstrip().endswith("2 errors in 1 file")
    assert cli("build", "mygame").exit_code == 1  # never printed as False or [1, 2]


def test_two_decks_of_one_layout_are_two_tts_decks(cli, here):
    folder = starter(cli, here)
    game = folder / "game.yaml"
    text = game.read_text()
    deck = text[text.index("  - id: cards"):]
    game.write_text(text + deck.replace("id: cards", "id: more").replace("name: Cards", "name: More cards").replace("cards.csv", "more.csv"))
    (folder / "more.csv").write_text("id,title,text,colour,value,copies\nember,Ember,Burn a card.,#d1495b,4,2\n")
    result = cli("export", "mygame", "--to", "tts", "--dpi", "72", "--out", "tts")
    assert result.exit_code == 0, result.output
    assert "wrote 2 Tabletop Simulator decks" in result.stdout
    decks = {p.name: json.loads(p.read_text())["ObjectStates"][0] for p in (here / "tts").glob("*.json")}
    assert set(decks) == {"mygame-cards.json", "mygame-more-cards.json"}
    assert decks["mygame-cards.json"]["Nickname"] == "Cards" and len(decks["mygame-cards.json"]["ContainedObjects"]) == 6
    assert [c["Nickname"] for c in decks["mygame-more-cards.json"]["ContainedObjects"]] == ["Ember", "Ember"]
    assert decks["mygame-more-cards.json"]["CustomDeck"]["1"]["FaceURL"].startswith("file:///")


def test_tts_images_at_a_base_url_for_decks_shared_online(cli, here):
    starter(cli, here)
    result = cli("export", "mygame", "--to", "tts", "--dpi", "72", "--out", "tts", "--base-url", "https://example.org/my game/tts/")
    assert result.exit_code == 2 and "--base-url: 'https://example.org/my game/tts/' is not a web address of a folder" in result.output
    result = cli("export", "mygame", "--to", "tts", "--dpi", "72", "--out", "tts", "--base-url", "https://example.org/mygame/tts/")
    assert result.exit_code == 0, result.output
    assert "upload the .png files to https://example.org/mygame/tts" in result.stdout
    custom = json.loads((here / "tts" / "mygame-card.json").read_text())["ObjectStates"][0]["CustomDeck"]["1"]
    assert custom["FaceURL"] == "https://example.org/mygame/tts/mygame-card-1.png"
    assert custom["BackURL"] == "https://example.org/mygame/tts/mygame-card-back.png"
    assert {p.name for p in (here / "tts").glob("*.png")} == {"mygame-card-1.png", "mygame-card-back.png"}
    assert cli("export", "mygame", "--to", "png", "--base-url", "https://example.org/").exit_code == 2

"""A designer's first hour with a game made by ``deckpress init``: each mistake a first hour makes
is told once, at the place to change, with the nearest name where one is near.  Through the CLI,
as a user runs it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckpress.generator.content.variant import _set


@pytest.fixture
def game(cli, tmp_path, monkeypatch) -> Path:
    """A fresh ``deckpress init`` game, ``mygame/``, in an empty working folder."""
    monkeypatch.chdir(tmp_path)
    assert cli("init", "mygame").exit_code == 0
    return tmp_path / "mygame"


def errors(result) -> list[str]:
    """The error lines of a validate run (its last line counts them)."""
    return [line for line in result.stdout.splitlines() if line.startswith("mygame/")]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_a_copies_field_that_no_column_holds_is_one_error_at_game_yaml(cli, game):
    edit(game / "game.yaml", "copies: copies ", "copies: copis ")
    result = cli("validate", "mygame")
    assert result.exit_code == 1
    line = next(n for n, text in enumerate((game / "game.yaml").read_text().splitlines(), 1) if "copies: copis" in text)
    assert errors(result) == [(f"mygame/game.yaml:{line}:13: decks[0].copies: 'copis' is not a column of mygame/cards.csv (did you mean 'copies'?); "
                              "copies is a number, or the field that holds each card's copies")]
    assert "None" not in result.stdout


def test_an_empty_copies_cell_says_so_and_names_the_card_by_its_id(cli, game):
    edit(game / "cards.csv", "#00798c,2,2", "#00798c,2,")
    edit(game / "game.yaml", "    schema: card.schema.json", "    # no schema")  # the deck's own schema would say it first
    out = cli("validate", "mygame").stdout
    assert "card 'tide': copies: expected a whole number of copies from 0 to 1000, found nothing (the cell is empty)" in out
    assert "None" not in out and "card 2" not in out


def test_a_header_typo_is_one_error_at_its_cell_with_the_field_it_meant(cli, game):
    edit(game / "cards.csv", "id,title,", "id,tittle,")
    result = cli("validate", "mygame")
    assert errors(result) == [("mygame/cards.csv:1:4: column 'tittle' is not a field of a card (did you mean 'title'? every card needs a 'title' "
                              "and no column holds one; it touches 3 cards)")]


def test_a_missing_column_and_an_unknown_column_are_each_told_once(cli, game):
    (game / "cards.csv").write_text("id,title,text,colour,copies\nspark,Spark,Burn.,#d1495b,3\ntide,Tide,Swap.,#00798c,2\n"
                                    "stone,Stone,Hold.,#6c757d,1\n")  # no 'value' column
    out = errors(cli("validate", "mygame"))
    assert out == ["mygame/cards.csv:1:1: no column 'value', which every card needs (3 cards lack it): add a column 'value'"]


def test_a_wrong_icon_on_the_back_is_one_error_at_the_layout_with_how_many_cards(cli, game):
    edit(game / "layout.yaml", "    back:\n", "    back:\n      - {type: icon, icon: bolts, x_mm: 20, y_mm: 60, size_mm: 10, colour: paper}\n")
    out = errors(cli("validate", "mygame"))
    assert len(out) == 1 and out[0].startswith("mygame/layout.yaml:")
    assert "card back, card 'spark' (cards.csv) (and 2 more cards): icon 'bolts' is not in the icon set (did you mean 'bolt'?)" in out[0]


def test_an_icon_no_name_is_near_says_where_the_list_is(cli, game):
    edit(game / "layout.yaml", "    back:\n", "    back:\n      - {type: icon, icon: zzzzzz, x_mm: 20, y_mm: 60, size_mm: 10}\n")
    out = errors(cli("validate", "mygame"))
    assert "'deckpress icons GAME' lists every one" in out[0] and ", ... and" not in out[0]


def test_a_palette_name_in_the_wrong_case_is_answered_with_the_palette_name(cli, game):
    edit(game / "layout.yaml", "colour: ink}", "colour: Ink}")
    out = errors(cli("validate", "mygame"))
    assert len(out) == 1 and "colour: unknown colour 'Ink' (did you mean 'ink'?)" in out[0]


def test_a_missing_card_file_is_told_at_the_game_yaml_line_that_names_it(cli, game):
    edit(game / "game.yaml", "file: cards.csv ", "file: card.csv ")
    line = next(n for n, text in enumerate((game / "game.yaml").read_text().splitlines(), 1) if "card.csv " in text)
    assert errors(cli("validate", "mygame")) == [f"mygame/game.yaml:{line}:11: decks[0].file: 'card.csv' does not exist (did you mean 'cards.csv'?)"]


def test_a_group_path_that_is_not_there_gets_the_nearest_group():
    card = {"id": "goa", "values": {"forest": {"value": 3}}}
    assert _set(card, ["values", "forrest", "value"], 5) == "'values.forrest' is not a group of fields in this card (did you mean 'forest'?)"


@pytest.mark.slow
def test_a_sweep_group_path_typo_is_told_once_for_all_its_values(cli, tmp_path):
    result = cli("sweep", "mission-emission", "--vary", "states:goa.values.forrest.value=10,20", "--games", "5", "--players", "2",
                 "--workers", "1", "--out", tmp_path)
    assert result.exit_code != 0
    assert result.output.count("is not a group of fields") == 1, result.output
    assert "states:goa.values.forrest.value=10, 20: " in result.output and "(did you mean 'forest'?)" in result.output, result.output


def test_an_image_that_is_not_there_gets_the_nearest_file(cli, game):
    from PIL import Image

    (game / "art").mkdir()
    Image.new("RGB", (40, 40), "#336699").save(game / "art" / "a.png")
    edit(game / "layout.yaml", "    back:\n", "    back:\n      - {type: image, image: art/ab.png, x_mm: 10, y_mm: 10, w_mm: 20, h_mm: 20}\n")
    out = errors(cli("validate", "mygame"))
    assert len(out) == 1 and "image 'art/ab.png' does not exist (did you mean 'art/a.png'?)" in out[0], out


# Nothing printed off the card unnoticed


def test_an_icon_past_the_trim_fails_validate_once_at_its_element(cli, game):
    edit(game / "layout.yaml", "    back:\n", "    back:\n      - {type: icon, icon: bolt, x_mm: 55, y_mm: 60, size_mm: 20, colour: paper}\n")
    result = cli("validate", "mygame")
    line = next(n for n, text in enumerate((game / "layout.yaml").read_text().splitlines(), 1) if "x_mm: 55" in text)
    assert result.exit_code == 1 and errors(result) == [
        (f"mygame/layout.yaml:{line}:9: cards.card.back[0]: icon 'bolt' crosses the safe area (3 mm inside the cut) by 15.0 mm at the right, "
        "where the cut may take it off: move or shrink it, or lower the card's safe_mm")]
    assert cli("build", "mygame").exit_code == 1 and not (game.parent / "output" / "mygame.pdf").exists()


def test_an_icon_or_image_a_card_kind_inherits_through_extends_is_checked_on_its_own_trim(cli, game):
    from PIL import Image

    Image.new("RGB", (40, 40), "#336699").save(game / "art.png")
    edit(game / "layout.yaml", "    back:\n", "    back:\n      - {type: icon, icon: bolt, x_mm: 5, y_mm: 68, size_mm: 12}\n"
                                              "      - {type: image, image: art.png, x_mm: 5, y_mm: 66, w_mm: 12, h_mm: 12}\n")
    layout = game / "layout.yaml"
    layout.write_text(layout.read_text() + "  base:\n    extends: card\n    trim: {width_mm: 88, height_mm: 63}\n"
                      "  ice:\n    extends: base\n    back:\n      - {type: icon, icon: tree, x_mm: 30, y_mm: 68, size_mm: 5}\n")
    out = errors(cli("validate", "mygame"))
    line = next(n for n, text in enumerate(layout.read_text().splitlines(), 1) if "y_mm: 68, size_mm: 12" in text)
    assert any(e.startswith(f"mygame/layout.yaml:{line}:9: cards.card.back[0] (drawn on card kind 'base'): icon 'bolt' crosses the safe area") for e in out), out
    assert sum("cards.card.back[0]" in e for e in out) == 1, out  # base and ice share the trim: told once
    assert any("cards.card.back[1] (drawn on card kind 'base'): image 'art.png' crosses the cut" in e for e in out), out
    assert any("cards.ice.back[0]: icon 'tree' crosses the safe area" in e for e in out), out  # ice's own, on base's trim


def test_an_icon_typo_in_a_constant_back_text_is_one_error_at_the_layout_with_how_many_cards(cli, game):
    edit(game / "layout.yaml", "    back:\n", "    back:\n      - {type: text, x_mm: 6, y_mm: 60, w_mm: 51, h_mm: 12, text: 'go :bolts:', font_pt: 12, inline_icons: true}\n")
    out = errors(cli("validate", "mygame"))
    line = next(n for n, text in enumerate((game / "layout.yaml").read_text().splitlines(), 1) if "go :bolts:" in text)
    assert out == [(f"mygame/layout.yaml:{line}:9: card back, card 'spark' (cards.csv) (and 2 more cards): text 'go :bolts:' = 'go :bolts:': "
                    "':bolts:' is not in the icon set (did you mean 'bolt'?)")], out


def test_an_icon_pattern_over_the_whole_card_is_a_background(cli, game):
    edit(game / "layout.yaml", "    back:\n", "    back:\n      - {type: icon, icon: drop, x_mm: -10, y_mm: -5, size_mm: 100, colour: paper}\n")
    assert cli("validate", "mygame").exit_code == 0


def test_an_image_that_the_cut_takes_part_of_fails_and_one_that_bleeds_passes(cli, game):
    from PIL import Image

    Image.new("RGB", (40, 40), "#336699").save(game / "art.png")
    edit(game / "layout.yaml", "    back:\n", "    back:\n      - {type: image, image: art.png, x_mm: 50, y_mm: 10, w_mm: 20, h_mm: 20}\n")
    out = errors(cli("validate", "mygame"))
    assert len(out) == 1 and ("cards.card.back[0]: image 'art.png' crosses the cut, so the cut takes part of it: at the right it runs "
                              "4.0 mm past the bleed (3 mm), where nothing prints") in out[0]
    edit(game / "layout.yaml", "x_mm: 50, y_mm: 10, w_mm: 20, h_mm: 20", "x_mm: -3, y_mm: -3, w_mm: 69, h_mm: 94")  # full bleed art
    assert cli("validate", "mygame").exit_code == 0


# Small things a first hour meets


def search_hint(page: str) -> str:
    return re.search(r'placeholder="search: a word, or field=value \(([^)]*)\)"', page).group(1)


@pytest.mark.slow
@pytest.mark.parametrize("shipped", [None, "fifty-missions"])
def test_the_studios_search_hint_names_the_games_own_fields_and_finds_a_card(game, shipped):
    from starlette.testclient import TestClient

    from deckpress.generator.paths import CONTENT_DIR
    from deckpress.generator.studio.app import Studio, create_app

    target = game if shipped is None else CONTENT_DIR / shipped
    studio = Studio(target, dpi=20)
    with TestClient(create_app(studio, watch=False), base_url="http://127.0.0.1") as client:
        client.get(f"/?token={studio.secret}")  # the address the studio prints: its cookie opens the rest
        hint = search_hint(client.get("/").text)
        if shipped is None:
            assert hint == "title=Spark"
        assert "values.forest" not in hint
        found = client.get("/", params={"q": hint}).text
        assert 1 <= len(re.findall(r'<article class="card[^"]*"', found)) < len(re.findall(r'<article class="card[^"]*"', client.get("/").text))


def test_duplex_none_says_in_help_what_the_printing_page_says(cli):
    from deckpress.generator.paths import PACKAGE_DIR

    def squeezed(text: str) -> str:  # click wraps the help at spaces and hyphens
        return re.sub(r"\s+", "", text.replace("`", ""))

    said = squeezed("--duplex none prints faces only for decks whose backs are all alike, and fold-over sheets for decks whose backs differ")
    help_text = squeezed(cli("build", "--help").stdout)
    assert said.replace("--duplexnone", "'none'") in help_text and "leavesoutthebacks" not in help_text
    printing = PACKAGE_DIR / "docs" / "printing.md"
    if printing.is_file():  # a checkout: the printing page says the same
        assert said in squeezed(printing.read_text())

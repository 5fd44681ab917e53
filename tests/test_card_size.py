"""A card size is one fact: game.yaml's card_sizes is what prints, a layout names the
size its card kind prints at, and a build can print at another size with the elements scaled."""
from __future__ import annotations

import pypdfium2
import pytest
from conftest import edit, line_of
from pypdf import PdfReader

PT_PER_MM = 72 / 25.4
GAMES = ("mission-emission", "fifty-missions", "maybe-missions", "geheime-mission")


def _trim_sizes(pdf) -> set[tuple[float, float]]:
    """Each page's TrimBox as (width, height) mm."""
    sizes = set()
    for page in PdfReader(pdf).pages:
        x0, y0, x1, y1 = (float(v) / PT_PER_MM for v in page.trimbox)
        sizes.add((round(x1 - x0, 2), round(y1 - y0, 2)))
    return sizes


@pytest.mark.parametrize("game", GAMES)
def test_every_shipped_deck_builds_at_us_poker_size(cli, tmp_path, game):
    result = cli("build", game, "--card-size", "poker=63.5x88.9", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    pdf = tmp_path / f"{game}.pdf"
    assert (190.5, 266.7) in _trim_sizes(pdf)  # a full A4 sheet: 3 x 3 cards of 63.5 x 88.9 mm
    assert (189.0, 264.0) not in _trim_sizes(pdf)  # no sheet of 63 x 88 mm cards is left
    cover = "".join(page.extract_text() for page in PdfReader(pdf).pages[:2]).replace("\n", " ")
    assert "63.5 x 88.9 mm" in cover and "63 x 88 mm" not in cover


@pytest.mark.slow
def test_scaled_cards_abut_with_no_white_gap(cli, tmp_path):
    # Mission Emission's state cards are coloured to the trim: at the cut between two columns
    # the colour runs on, never a white sliver (once "a white 0.5 / 0.9 mm gap")
    assert cli("build", "mission-emission", "--card-size", "poker=63.5x88.9", "--out", tmp_path).exit_code == 0
    pdf = pypdfium2.PdfDocument(tmp_path / "mission-emission.pdf")
    page = PdfReader(tmp_path / "mission-emission.pdf").pages[2]
    left, bottom, right, top = (float(v) / PT_PER_MM for v in page.trimbox)
    dpmm = 600 / 25.4
    image = pdf[2].render(scale=600 / 72).to_pil().convert("RGB")
    height_mm = float(page.mediabox[3]) / PT_PER_MM
    for cut in (left + 63.5, left + 127.0):
        for dx in (-0.4, -0.1, 0.1, 0.4):  # across the cut line, 0.1 to 0.4 mm either side
            x = round((cut + dx) * dpmm)
            # a band 2 mm below the sheet's top trim, in each card's coloured title band
            y = round((height_mm - top + 2) * dpmm)
            r, g, b = image.getpixel((x, y))
            assert min(r, g, b) < 200, f"white at {cut + dx:.1f} mm"


def test_the_size_in_game_yaml_is_the_size_printed(game_copy, cli, tmp_path):
    folder = game_copy("mission-emission")
    edit(folder / "game.yaml", "    width_mm: 63\n    height_mm: 88", "    width_mm: 63.5\n    height_mm: 88.9")
    result = cli("build", folder, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "mission-emission.pdf"
    assert (190.5, 266.7) in _trim_sizes(pdf)
    cover = PdfReader(pdf).pages[0].extract_text().replace("\n", " ")
    assert "63.5 x 88.9 mm" in cover and "63 x 88 mm" not in cover


def test_a_layout_whose_size_is_no_card_size_is_refused(game_copy, cli):
    folder = game_copy("mission-emission")
    edit(folder / "game.yaml", "    width_mm: 63\n    height_mm: 88", "    width_mm: 63.5\n    height_mm: 88.9")
    edit(folder / "layout.yaml", "    card_size: poker   # game.yaml's card_sizes: the size it prints at\n", "")
    result = cli("validate", folder)
    assert result.exit_code == 1
    line = line_of(folder / "layout.yaml", "trim: {width_mm: 63, height_mm: 88}")
    assert f"layout.yaml:{line}:" in result.output
    assert "cards.state.trim: 63 x 88 mm is none of game.yaml's card_sizes (poker 63.5 x 88.9 mm): name the size" in result.output


def test_unknown_card_sizes_are_refused(game_copy, cli, tmp_path):
    folder = game_copy("mission-emission")
    edit(folder / "layout.yaml", "    card_size: poker", "    card_size: tarot")
    result = cli("validate", folder)
    assert result.exit_code == 1 and "cards.state.card_size: unknown size 'tarot' (game.yaml's card_sizes: poker 63 x 88 mm)" in result.output
    result = cli("build", "mission-emission", "--card-size", "tarot=70x120", "--out", tmp_path)
    assert result.exit_code == 1 and "--card-size: the game has no card size 'tarot' (its card_sizes: poker)" in result.output
    result = cli("build", "mission-emission", "--card-size", "poker=63.5", "--out", tmp_path)
    assert result.exit_code == 2 and "expected NAME=WxH in mm" in result.output


def test_a_bleed_background_that_stops_short_of_the_trim_is_refused(game_copy, cli):
    folder = game_copy("mission-emission")
    edit(folder / "layout.yaml", "{type: rect, x_mm: 0, y_mm: 0, w_mm: 63, h_mm: 88, fill: \"{colour}\", bleed: true}",
         "{type: rect, x_mm: 0, y_mm: 0, w_mm: 62, h_mm: 88, fill: \"{colour}\", bleed: true}")
    result = cli("validate", folder)
    assert result.exit_code == 1
    assert "cards.state.face[0]: a rectangle marked bleed stops short of the trim (right by 1.00 mm), leaving a white sliver" in result.output


def test_a_game_made_by_init_prints_at_another_size_and_its_decks_follow_the_layout(cli, tmp_path):
    # A designer's own game (deckpress init): --card-size and an edited card_sizes entry both
    # print its cards at the new size, the layout's elements scaled to it; a deck that names
    # another size than its layout prints at is refused at the deck's line.
    game = tmp_path / "mygame"
    assert cli("init", game).exit_code == 0
    result = cli("build", game, "--card-size", "poker=63.5x88.9", "--out", tmp_path / "us")
    assert result.exit_code == 0, result.output
    assert (190.5, 177.8) in _trim_sizes(tmp_path / "us" / "mygame.pdf")  # its six cards, 3 x 2 of 63.5 x 88.9 mm
    edit(game / "game.yaml", "poker: {width_mm: 63, height_mm: 88", "poker: {width_mm: 70, height_mm: 120")
    result = cli("build", game, "--out", tmp_path / "tarot")
    assert result.exit_code == 0, result.output
    assert (140.0, 240.0) in _trim_sizes(tmp_path / "tarot" / "mygame.pdf")  # 2 x 2 cards of 70 x 120 mm
    edit(game / "game.yaml", "poker: {width_mm: 70", "mini: {width_mm: 44, height_mm: 67}\n  poker: {width_mm: 70")
    edit(game / "game.yaml", "    card_size: poker", "    card_size: mini")
    result = cli("validate", game)
    assert result.exit_code == 1
    assert (f"game.yaml:{line_of(game / 'game.yaml', 'card_size: mini')}:16: decks[0].card_size: 'mini', but layout 'card' prints at "
            "card_size 'poker': name the same size in both") in result.output

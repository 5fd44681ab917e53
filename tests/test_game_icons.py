"""Icons a designer can find and add: ``deckpress icons`` lists every icon a game can name, with a
picture sheet; a game's own SVG icons print like the shipped ones and are read as untrusted
input; a character no font has but an icon depicts is answered with that icon."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

#: A meeple in a 24 x 24 viewBox, with a white eye (a cut-out): what an icon site gives.
MEEPLE = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M12 2a3 3 0 0 1 3 3c0 1-.5 2-1.2 2.5L20 10c1 .4 1.5 '
          '1.5 1 2.5s-1.5 1-2.5.8l-2.5-.8 2.5 8.5H14l-2-4-2 4H5.5L8 12.5l-2.5.8c-1 .2-2 .2-2.5-.8s0-2.1 1-2.5l6.2-2.5C9.5 7 9 6 9 5a3 3 0 '
          '0 1 3-3z"/><circle cx="12" cy="5" r="1.2" fill="#fff"/></svg>')


@pytest.fixture
def game(cli, tmp_path, monkeypatch) -> Path:
    """A ``deckpress init`` game with the icon ``meeple`` of its own, in an empty working folder."""
    monkeypatch.chdir(tmp_path)
    assert cli("init", "mygame").exit_code == 0
    (tmp_path / "mygame" / "icons").mkdir()
    (tmp_path / "mygame" / "icons" / "meeple.svg").write_text(MEEPLE)
    return tmp_path / "mygame"


def on_back(game: Path, element: str) -> None:
    """Add ``element`` to the card's back, over its background."""
    layout = game / "layout.yaml"
    text = layout.read_text()
    assert "      - {type: text, x_mm: 6, y_mm: 38" in text
    layout.write_text(text.replace("      - {type: text, x_mm: 6, y_mm: 38", f"      - {element}\n      - {{type: text, x_mm: 6, y_mm: 38"))


def test_icons_lists_every_icon_by_family_with_the_games_own_and_a_picture_sheet(cli, game):
    result = cli("icons", "mygame", "--out", "icons.pdf")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "deckpress: common.yaml:" and "  star (for ★)" in lines and "  bolt (for ⚡)" in lines
    assert lines[lines.index("mygame/icons/:") + 1] == "  meeple"
    assert "38 icons; add your own as SVG files in mygame/icons/" in lines
    sheet = PdfReader(game.parent / "icons.pdf")
    text = "\n".join(page.extract_text() for page in sheet.pages)
    assert all(name in text for name in ("meeple", "star", "mm-stripes", "officer-upside-down", "mygame/icons/"))
    listed = json.loads(cli("icons", "mygame", "--format", "json").stdout)["icons"]
    assert {"name": "meeple", "source": "mygame/icons/meeple.svg", "characters": ""} in listed and len(listed) == 38


def test_icons_without_a_game_lists_deckpress_s_own(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli("icons")
    assert result.exit_code == 0 and "  tree" in result.stdout and "meeple" not in result.stdout
    assert result.stdout.splitlines()[-1] == "37 icons; a game adds its own as SVG files in its icons/ folder"


def test_an_svg_icon_of_the_game_prints_in_the_element_colour_with_its_cut_out(cli, game):
    on_back(game, "{type: icon, icon: meeple, x_mm: 21.5, y_mm: 55, size_mm: 20, colour: paper, knockout: back}")
    assert cli("export", "mygame", "--to", "png", "--out", "png").exit_code == 0
    back = Image.open(game.parent / "png" / "card" / "stone-back.png").convert("RGB")
    dpi = back.info.get("dpi", (300, 300))[0]

    def at(x_mm: float, y_mm: float) -> tuple[int, int, int]:  # on the trim; the image has 3 mm of bleed
        return back.getpixel((round((x_mm + 3) / 25.4 * dpi), round((y_mm + 3) / 25.4 * dpi)))

    assert at(31.5, 67) == (255, 255, 255)  # the meeple's body, in the element's colour (paper)
    assert at(31.5, 59.2) == (0x2E, 0x29, 0x4E)  # its eye, white in the SVG: the element's knockout colour (back)
    assert at(23, 56) == (0x2E, 0x29, 0x4E)  # beside it: the back


@pytest.mark.parametrize("svg, message", [
    ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY e "x">]><svg xmlns="http://www.w3.org/2000/svg"><rect width="3" height="3"/></svg>',
     "mygame/icons/bad.svg:1:1: an SVG icon may not have a DOCTYPE or entities"),
    (('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><use xlink:href="../../etc/x.svg#a"/>'
     '<rect width="3" height="3"/></svg>'),
     "mygame/icons/bad.svg:1:101: <use href='../../etc/x.svg#a'>: an icon may refer only to its own parts (#id), never to another file or address"),
    ('<svg xmlns="http://www.w3.org/2000/svg"><image href="art.png" width="3" height="3"/></svg>',
     "mygame/icons/bad.svg:1:41: <image>: an image inside an icon is not drawn"),
    ('<svg xmlns="http://www.w3.org/2000/svg"><rect width="3" height="3" fill="url(http://example.org/p)"/></svg>',
     "an icon may refer only to its own parts (url(#id))"),
    ('<svg xmlns="http://www.w3.org/2000/svg"><rect width="3" height="3"/>' + " " * 300_000 + "</svg>",
     "mygame/icons/bad.svg: icon file is larger than"),
    ("<svg xmlns='http://www.w3.org/2000/svg'><rect", "mygame/icons/bad.svg:1:"),
])
def test_an_svg_icon_is_untrusted_input(cli, game, svg, message):
    (game / "icons" / "bad.svg").write_text(svg)
    result = cli("validate", "mygame")
    assert result.exit_code == 1 and message in result.stdout, result.stdout


def test_an_icon_of_the_game_may_not_take_a_shipped_name(cli, game):
    (game / "icons" / "star.svg").write_text(MEEPLE)
    result = cli("validate", "mygame")
    assert "mygame/icons/star.svg:1:1: icon 'star' is already one of deckpress's icons (common.yaml): give yours another name" in result.stdout


def test_a_character_no_font_has_is_answered_with_the_icon_that_depicts_it(cli, game):
    cards = game / "cards.csv"
    # (the shipped symbol fallback, DejaVu Sans, draws the star: a tree drawn as an emoji no font has)
    cards.write_text(cards.read_text().replace("Draw a card.", "Draw a 🌳 card."))
    out = cli("validate", "mygame").stdout
    assert "U+1F333 DECIDUOUS TREE" in out and "or draw the icon instead: ':tree:' for '🌳' in a text with inline_icons: true" in out


#: Tabler Icons' acorn (tabler/tabler-icons, icons/outline/acorn.svg; MIT licence, (c) Paweł Kuna):
#: an outline icon as icon sites give them, stroked in currentColor with round ends and joins.
TABLER_ACORN = """<!--
tags: [acorn, oak, nut, seed, forest, nature, autumn, wildlife, tree, woodland]
category: Nature
-->
<svg
  xmlns="http://www.w3.org/2000/svg"
  width="24"
  height="24"
  viewBox="0 0 24 24"
  fill="none"
  stroke="currentColor"
  stroke-width="2"
  stroke-linecap="round"
  stroke-linejoin="round"
>
  <path d="M18 10l-.45 4.1a8.36 8.36 0 0 1 -5.18 6.83a1 1 0 0 1 -.74 0a8.36 8.36 0 0 1 -5.18 -6.83l-.45 -4.1" />
  <path d="M13 3a4.9 4.9 0 0 0 -1 3" />
  <path d="M8 6h8a3 3 0 0 1 3 3a1 1 0 0 1 -1 1h-12a1 1 0 0 1 -1 -1a3 3 0 0 1 3 -3" />
</svg>
"""


def test_an_outline_icon_from_an_icon_set_keeps_its_strokes_and_round_ends(cli, game):
    (game / "icons" / "acorn.svg").write_text(TABLER_ACORN)
    on_back(game, "{type: icon, icon: acorn, x_mm: 21.5, y_mm: 55, size_mm: 24, colour: paper}")
    assert cli("export", "mygame", "--to", "png", "--out", "png").exit_code == 0
    back = Image.open(game.parent / "png" / "card" / "stone-back.png").convert("RGB")
    dpi = back.info.get("dpi", (300, 300))[0]

    def at(x_mm: float, y_mm: float) -> tuple[int, int, int]:
        return back.getpixel((round((x_mm + 3) / 25.4 * dpi), round((y_mm + 3) / 25.4 * dpi)))

    # in the 24-unit box drawn 24 mm wide, one unit is a millimetre: the cap's top edge runs along y = 6
    assert at(21.5 + 12, 55 + 6) == (255, 255, 255)  # the stroke, in the element's colour
    assert at(21.5 + 12, 55 + 14) == (0x2E, 0x29, 0x4E)  # inside the nut: not filled (fill="none")
    # the stalk's free end (13, 3) is round: the stroke reaches half its width (1 mm) past it, up the line
    assert at(21.5 + 13.05, 55 + 2.3) == (255, 255, 255)


def test_the_studio_redraws_a_card_when_its_svg_icon_is_saved(game):
    import os

    from deckpress.generator.studio.catalogue import CardCatalogue

    on_back(game, "{type: icon, icon: meeple, x_mm: 21.5, y_mm: 55, size_mm: 20, colour: paper}")
    catalogue = CardCatalogue(game, dpi=20)
    catalogue.refresh()
    backs = {c.token for c in catalogue.cards if c.side == "back"}
    icon = game / "icons" / "meeple.svg"
    icon.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24"/></svg>')  # a square now
    os.utime(icon, ns=(icon.stat().st_atime_ns, icon.stat().st_mtime_ns + 10**9))
    assert backs <= set(catalogue.refresh().changed)


def test_an_svg_file_whose_name_is_no_icon_name_says_what_to_rename_it(cli, game):
    (game / "icons" / "Big Meeple.svg").write_text(MEEPLE)
    out = cli("validate", "mygame").stdout
    assert ("mygame/icons/Big Meeple.svg: 'Big Meeple.svg' does not name an icon: a name is lowercase letters, digits and dashes, "
            "starting with a letter (rename it big-meeple.svg)") in out


def test_an_svg_icon_that_nests_references_is_refused_before_it_multiplies(cli, game):
    # each level draws the one before ten times: ten levels would be ten billion rectangles
    levels = "".join(f'<g id="l{n}">' + f'<use href="#l{n - 1}"/>' * 10 + "</g>" for n in range(1, 11))
    (game / "icons" / "bomb.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><defs><rect id="l0" width="1" height="1"/>'
                                             f'{levels}</defs><use href="#l10"/></svg>')
    out = cli("validate", "mygame").stdout
    assert "mygame/icons/bomb.svg:1:" in out and "nested references are not followed" in out

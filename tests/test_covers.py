"""Covers are for players: what is in the kit, how to play and how to print, without
file names, content syntax or generator scripts."""
from __future__ import annotations

import re

import pytest
import yaml
from pypdf import PdfReader

from deckpress.generator.paths import CONTENT_DIR

#: What a cover must not show a player: content file names, scripts, notes, schema paths, effect syntax.
DEVELOPER = re.compile(r"\S*(?:\.ya?ml|\.py|\.md|\{kind|schemas/|content/|shared/|--seed)\S*")


@pytest.mark.parametrize("game", ["mission-emission", "fifty-missions", "maybe-missions", "geheime-mission"])
def test_each_cover_speaks_to_players_and_gives_the_rules_summary(cli, tmp_path, game):
    assert cli("build", game, "--out", tmp_path).exit_code == 0
    reader = PdfReader(tmp_path / f"{game}.pdf")
    cover = " ".join(page.extract_text() for page in reader.pages if page.trimbox == page.mediabox).replace("\n", " ")
    assert DEVELOPER.findall(cover) == []
    info = yaml.safe_load((CONTENT_DIR / game / "game.yaml").read_text("utf-8"))
    assert "How to play" in cover and f"The full rules: {info['rulebook']}" in " ".join(cover.split())
    for mode in info["modes"]:
        assert mode["name"] in cover
    assert "How to print" in cover


def test_a_kit_of_some_sets_tells_only_the_ways_to_play_it_holds(cli, tmp_path):
    """Maybe Missions built with --sets base has no identity or shop card: its cover must not
    offer the Secret Identities or Gadget Shopping games."""
    assert cli("build", "maybe-missions", "--sets", "base", "--out", tmp_path).exit_code == 0
    reader = PdfReader(tmp_path / "maybe-missions.pdf")
    cover = " ".join(" ".join(page.extract_text() for page in reader.pages if page.trimbox == page.mediabox).split())
    assert "Base game:" in cover and "Playing Master cards (variant)" in cover
    assert "Secret Identities:" not in cover and "Gadget Shopping:" not in cover
    assert "The full rules:" in cover


@pytest.mark.slow
def test_a_cover_title_on_small_paper_wraps_between_words(cli, tmp_path):
    # 80 x 130 mm leaves 50 mm for the title: at 24 pt "print-and-play" is wider, and was split
    # inside the word ("pri" / "nt-and-play"); the title's size now lets its widest word fit
    assert cli("build", "maybe-missions", "--paper", "80x130mm", "--out", tmp_path).exit_code == 0
    lines = PdfReader(tmp_path / "maybe-missions.pdf").pages[0].extract_text().splitlines()
    assert "print-and-play" in lines and not any(line.endswith("pri") for line in lines), lines[:6]


def test_the_cover_tells_round_cards_by_their_cut_circle_not_crop_marks(cli, tmp_path):
    # 50 Missions' missions and medals are round (80 mm) and print a cut circle, no crop marks: the
    # cover said every card "measures 80 x 80 mm between its crop marks"
    assert cli("build", "fifty-missions", "--out", tmp_path).exit_code == 0
    cover = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(tmp_path / "fifty-missions.pdf").pages[:2])
    assert "80 x 80 mm between its crop marks" not in cover
    assert "Round cards (80 mm across) have no crop marks: cut along the circle printed round each" in cover


def test_a_cover_paragraph_shaped_for_devanagari_keeps_latin_letters_apart():
    """A Hindi cover paragraph is shaped (HarfBuzz) as a whole, Latin words too: "deckpress" must
    print its nine letters, not Lato's discretionary c_k ligature ("dećkpress")."""
    from reportlab.pdfbase.ttfonts import shapeStr

    import deckpress.generator.render.cover  # noqa: F401  (the cover's shaping settings)
    from deckpress.generator.render.fonts import register

    register()
    assert len(shapeStr("deckpress", "Lato", 9, force=True).__shapeData__) == 9
    assert len(shapeStr("--back-offset", "Lato", 9, force=True).__shapeData__) == 13  # no ff ligature: it pastes as typed


def test_a_data_games_cover_subtitle_says_ages_length_designer_and_year(cli, here):
    """What game.yaml says of the box (players, ages, duration, publisher, designer, year) prints
    under the title of a game made from data, as on the shipped games' covers."""
    assert cli("init", "g").exit_code == 0
    with open(here / "g" / "game.yaml", "a", encoding="utf-8") as f:
        f.write("players: {min: 2, max: 4}\nages: 10\nduration: {min: 20, max: 30}\ndesigner: Ada\nyear: 2026\npublisher: Me\n")
    assert cli("build", "g", "--out", here / "o").exit_code == 0
    cover = " ".join(PdfReader(here / "o" / "g.pdf").pages[0].extract_text().split())
    assert "2-4 players · ages 10+ · 20-30 min · Me · designed by Ada · 2026" in cover

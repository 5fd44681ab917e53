"""The expression language of a game made from data alone (docs/expressions.md): ``when``,
derived fields, maps, a layout per card and layout reuse, as a designer uses them through the CLI."""
from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.conftest import line_of


@pytest.fixture
def here(tmp_path, monkeypatch):
    """An empty folder to run commands in, as a user would (outputs land in ./output)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def face_texts(path: Path) -> list[str]:
    """The text of each face sheet of a kit (the pages after the cover whose label says faces)."""
    return [t for t in (page.extract_text() for page in PdfReader(path).pages) if "· faces" in t]


def _game(cli, here: Path, csv: str, face: str, extra_game: str = "") -> Path:
    """A game from ``deckpress init`` with its cards replaced by ``csv`` (no schema) and its face by
    the elements ``face`` (YAML flow mappings, one a line)."""
    assert cli("init", "mygame").exit_code == 0
    folder = here / "mygame"
    (folder / "cards.csv").write_text(csv)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("    schema: card.schema.json # what a card must hold (JSON Schema): validate checks every row\n", "")
                    .replace("    copies: copies           # the field that says how many of each card to print\n", "") + extra_game)
    layout = folder / "layout.yaml"
    text = layout.read_text()
    start, end = text.index("    face:\n") + len("    face:\n"), text.index("    back:\n")
    layout.write_text(text[:start] + "".join(f"      - {line}\n" for line in face.strip().splitlines()) + text[end:])
    return folder


def test_when_shows_a_field_whose_value_is_zero(cli, here):
    # a card that costs nothing prints its 0; a card without a cost prints no cost box
    _game(cli, here, "id,title,cost\nfree,Free,0\ndear,Dear,3\nnone,None,\n",
          "{type: text, x_mm: 5, y_mm: 5, w_mm: 53, h_mm: 10, text: '{title}', font_pt: 12}\n"
          "{type: text, x_mm: 5, y_mm: 30, w_mm: 53, h_mm: 10, text: 'cost {cost}', font_pt: 12, when: cost}")
    result = cli("build", "mygame")
    assert result.exit_code == 0, result.output
    text = pdf_text(here / "output" / "mygame.pdf")
    assert "cost 0" in text and "cost 3" in text
    assert text.count("cost ") == 2  # the card with an empty cost cell prints none


def test_when_and_templates_take_field_names_as_the_data_writes_them(cli, here):
    # CSV headers are the data's own: capitalised names work in {Field} and in when
    _game(cli, here, "id,Title,Cost\nfree,Free,0\n",
          "{type: text, x_mm: 5, y_mm: 5, w_mm: 53, h_mm: 10, text: '{Title}', font_pt: 12}\n"
          "{type: text, x_mm: 5, y_mm: 30, w_mm: 53, h_mm: 10, text: 'costs {Cost}', font_pt: 12, when: Cost}")
    result = cli("build", "mygame")
    assert result.exit_code == 0, result.output
    text = pdf_text(here / "output" / "mygame.pdf")
    assert "Free" in text and "costs 0" in text and "{Title}" not in text

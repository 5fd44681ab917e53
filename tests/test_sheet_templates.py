"""Sheet templates (``deckpress build --sheet FILE``): cards printed where pre-cut or perforated
stock has its slots, each back behind its face, and a template's mistakes reported at their lines."""
from __future__ import annotations

from pathlib import Path

import pypdfium2
import pytest
from conftest import line_of
from pypdf import PdfReader

MM = 72 / 25.4
#: A Letter sheet of poker cards 2 mm apart, not centred: 12 mm from the left, 15 mm from the top.
PERFORATED = """\
name: Perforated Letter poker 6-up
paper: letter
card: {width_mm: 63, height_mm: 88}
bleed_mm: 1
grid: {cols: 3, rows: 2, x_mm: 12, y_mm: 15, dx_mm: 65, dy_mm: 90}
"""


@pytest.fixture
def mygame(cli, tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    assert cli("init", "mygame").exit_code == 0
    return tmp_path / "mygame"


def _centres(page: pypdfium2.PdfPage, word: str) -> list[tuple[float, float]]:
    """The centre of every ``word`` on ``page``, mm from the sheet's top-left corner (of the box
    around its first and last letters: a word drawn upside down runs right to left)."""
    text, height = page.get_textpage(), page.get_height()
    found, searcher = [], text.search(word)
    while (hit := searcher.get_next()) is not None:
        boxes = [text.get_charbox(hit[0]), text.get_charbox(hit[0] + hit[1] - 1)]
        left, right = min(b[0] for b in boxes), max(b[2] for b in boxes)
        bottom, top = min(b[1] for b in boxes), max(b[3] for b in boxes)
        found.append(((left + right) / 2 / MM, (height - (top + bottom) / 2) / MM))
    return found


def _near(found: list[float], expected: list[float], mm: float = 0.3) -> bool:
    """Whether the positions ``found`` are ``expected``, each within ``mm`` (a glyph's side bearings)."""
    return len(found) == len(expected) and all(abs(a - b) <= mm for a, b in zip(found, expected))


def test_cards_print_into_the_templates_slots_and_their_backs_behind_them(cli, mygame, tmp_path):
    (tmp_path / "stock.yaml").write_text(PERFORATED)
    result = cli("build", mygame, "--sheet", tmp_path / "stock.yaml", "--out", "out")
    assert result.exit_code == 0, result.stderr
    pdf = tmp_path / "out" / "mygame.pdf"
    reader, document = PdfReader(pdf), pypdfium2.PdfDocument(pdf)
    faces = next(i for i in range(len(document)) if "· faces" in document[i].get_textpage().get_text_range())
    # the stock's sheets are Letter, though the build's paper (the cover's) is A4
    assert [round(float(v) / MM, 1) for v in reader.pages[0].mediabox[2:]] == [210.0, 297.0]
    assert [round(float(v) / MM, 1) for v in reader.pages[faces].mediabox[2:]] == [215.9, 279.4]
    trim = [round(float(v) / MM, 2) for v in reader.pages[faces].trimbox]
    assert trim == [12.0, round(279.4 - 15 - 178, 2), 12.0 + 193, round(279.4 - 15, 2)]
    # the back sheet's TrimBox is where its backs are: mirrored across the long edge, 10.9 to 203.9 mm
    assert [round(float(v) / MM, 2) for v in reader.pages[faces + 1].trimbox] == [round(215.9 - 12 - 193, 2), trim[1], round(215.9 - 12, 2), trim[3]]
    # the six cards in the slots' order, each title centred in its slot
    titles = sorted(_centres(document[faces], "Spark") + _centres(document[faces], "Tide") + _centres(document[faces], "Stone"),
                    key=lambda p: (round(p[1]), p[0]))
    assert _near([x for x, _ in titles], [12 + 31.5, 12 + 65 + 31.5, 12 + 130 + 31.5] * 2)
    # each back on the mirror image of its slot across the long edge: where the face lies once turned over
    backs = sorted(_centres(document[faces + 1], "Mygame"), key=lambda p: (round(p[1]), p[0]))
    assert _near([x for x, _ in backs], [215.9 - 12 - 130 - 31.5, 215.9 - 12 - 65 - 31.5, 215.9 - 12 - 31.5] * 2)
    # no crop marks: the stock is perforated; the margin above the cards is blank
    strip = document[faces].render(scale=2).to_pil().convert("L").crop((0, 0, int(215.9 * MM * 2), int(12 * MM * 2)))
    assert strip.getextrema() == (255, 255)
    cover = " ".join((reader.pages[0].extract_text() + reader.pages[1].extract_text()).split())
    assert "Stock: Cards print onto 'Perforated Letter poker 6-up' (LETTER), 6 cards to a sheet, each in its slot" in cover


def test_on_the_short_edge_each_back_lies_behind_its_slot_turned_top_to_bottom(cli, mygame, tmp_path):
    (tmp_path / "stock.yaml").write_text(PERFORATED)
    assert cli("build", mygame, "--sheet", tmp_path / "stock.yaml", "--duplex", "short", "--out", "out").exit_code == 0
    document = pypdfium2.PdfDocument(tmp_path / "out" / "mygame.pdf")
    backs = next(i for i in range(len(document)) if "· backs" in document[i].get_textpage().get_text_range())
    rows = sorted({round(y, 1) for _, y in _centres(document[backs], "Mygame")})
    # the back's text (44 mm below its card's top) on the cards mirrored top to bottom: 279.4 - 15 - 88
    # and 279.4 - 105 - 88 mm from the sheet's top; on the long edge they would stay at 15 and 105
    assert _near(rows, [279.4 - 105 - 88 + 44, 279.4 - 15 - 88 + 44], mm=1.0), rows
    columns = sorted({round(x, 1) for x, _ in _centres(document[backs], "Mygame")})
    assert _near(columns, [12 + 31.5, 12 + 65 + 31.5, 12 + 130 + 31.5])  # columns stay where they are


def test_a_templates_mistakes_are_reported_at_their_lines_and_nothing_is_built(cli, mygame, tmp_path):
    stock = tmp_path / "stock.yaml"
    stock.write_text("paper: a4\ncard: {width_mm: 63, height_mm: 88}\nslots:\n  - {x_mm: 10, y_mm: 10}\n  - {x_mm: 60, y_mm: 10}\n"
                     "  - {x_mm: 150, y_mm: 200}\n")
    result = cli("build", mygame, "--sheet", stock, "--out", "out")
    assert result.exit_code == 1
    assert f"stock.yaml:{line_of(stock, 'x_mm: 60')}:5: slot 2: the card at 60, 10 mm overlaps slot 1's, at 10, 10 mm (cards are 63 x 88 mm)" in result.stderr
    assert f"stock.yaml:{line_of(stock, 'x_mm: 150')}:5: slot 3: the card at 150, 200 mm reaches 213, 288 mm, past the a4 sheet (210 x 297 mm)" in result.stderr
    assert "not a sheet template (2 errors); nothing was built" in result.stderr and not (tmp_path / "out").exists()

    stock.write_text(PERFORATED.replace("dx_mm: 65", "dx_mm: 60").replace("rows: 2", "rows: 3"))
    result = cli("build", mygame, "--sheet", stock)
    assert "grid.dx_mm: a step of 60 mm is less than the card's width, 63 mm: the cards would overlap" in result.stderr
    assert "grid.rows: the last card ends 283 mm from the sheet's top edge, past the letter sheet's height of 279.4 mm" in result.stderr

    stock.write_text(PERFORATED.replace("width_mm: 63, height_mm: 88", "width_mm: 44, height_mm: 67"))
    result = cli("build", mygame, "--sheet", stock)
    assert result.exit_code == 1
    assert ("stock.yaml:1:1: sheet template 'Perforated Letter poker 6-up': no deck is 44 x 67 mm, its card's size (Cards 63 x 88 mm): "
            "print a deck at that size with --card-size NAME=44x67") in result.stderr
    result = cli("build", mygame, "--sheet", stock, "--gap", "2")
    assert result.exit_code == 2 and "a sheet template places its cards itself" in result.stderr

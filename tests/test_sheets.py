"""Print-and-play sheets for print shops and home printers (issue 11, "Sheets"): trim, bleed and
art boxes on every card sheet, a gap with each card's own bleed, custom paper sizes, and crop
marks kept inside a printer's printable area; read back from the PDF."""
from __future__ import annotations

import pytest
from pypdf import PdfReader

from deckpress.generator.imposition import ImpositionError, grid, paper_size

MM_PER_PT = 25.4 / 72


def _box(page, name: str) -> list[float]:
    return [round(float(v) * MM_PER_PT, 2) for v in getattr(page, name)]


def test_card_sheets_carry_trim_and_bleed_boxes(cli, tmp_path):
    # Prepress tools find the trim with pdfinfo -box: on A4, three 63 x 88 mm columns and rows
    # abut in a centred grid (189 x 264 mm), the bleed 3 mm beyond it; the cover has no boxes.
    assert cli("build", "mission-emission", "--out", tmp_path).exit_code == 0
    reader = PdfReader(tmp_path / "mission-emission.pdf")
    cover, faces, backs = reader.pages[0], reader.pages[2], reader.pages[3]
    assert _box(cover, "trimbox") == _box(cover, "mediabox") == [0, 0, 210, 297]
    for page in (faces, backs):
        assert _box(page, "trimbox") == [10.5, 16.5, 199.5, 280.5]
        assert _box(page, "bleedbox") == _box(page, "artbox") == [7.5, 13.5, 202.5, 283.5]


def test_a_gap_gives_every_card_its_own_bleed():
    g = grid("a4", (63, 88), 3.0, gap_mm=6)
    assert (g.cols, g.rows) == (3, 3)
    assert all(s.bleed_mm == (3, 3, 3, 3) for s in g.slots)  # a guillotine may miss by 3 mm
    xs, _ = g.cut_lines()
    assert len(xs) == 6 and round(xs[1] - xs[0], 6) == 63 and round(xs[2] - xs[1], 6) == 6
    narrow = grid("a4", (63, 88), 3.0, gap_mm=2)
    assert narrow.slots[4].bleed_mm == (1, 1, 1, 1)  # half the gap on inner sides


@pytest.mark.parametrize("paper, size", [("300x450mm", (300, 450)), ("8.5x14in", (215.9, 355.6)), ("A3", (297, 420))])
def test_custom_paper_sizes(paper, size):
    assert paper_size(paper) == size


@pytest.mark.parametrize("paper, message", [("tabloid", "unknown paper 'tabloid'"), ("10x10mm", "each side must be 50 to 2000 mm")])
def test_unknown_or_absurd_paper_is_refused(paper, message):
    with pytest.raises(ImpositionError, match=message):
        paper_size(paper)


def test_crop_marks_stay_inside_the_printable_area(cli, tmp_path):
    # A printer that cannot print its outer 5 mm: every mark starts 5 mm in and keeps at least
    # 3 mm of length there, on a custom sheet too.
    g = grid("letter", (63, 88), 3.0, printer_margin_mm=5)
    sw, sh = g.sheet_mm
    for x1, y1, x2, y2 in g.crop_marks():
        assert min(x1, x2) >= 5 and min(y1, y2) >= 5 and max(x1, x2) <= sw - 5 and max(y1, y2) <= sh - 5
        assert max(abs(x2 - x1), abs(y2 - y1)) >= 3
    result = cli("build", "mission-emission", "--paper", "300x450mm", "--gap", "6", "--margin", "5", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    page = PdfReader(tmp_path / "mission-emission.pdf").pages[2]
    assert _box(page, "mediabox") == [0, 0, 300, 450]
    left, bottom, right, top = _box(page, "trimbox")
    assert round(right - left, 2) == 4 * 63 + 3 * 6  # four columns and three gaps on 300 mm

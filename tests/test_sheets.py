"""Print-and-play sheets for print shops and home printers : trim, bleed and
art boxes on every card sheet, a gap with each card's own bleed, custom paper sizes, and crop
marks kept inside a printer's printable area; read back from the PDF."""
from __future__ import annotations

import pytest
from pypdf import PdfReader

from deckpress.generator.kit.imposition import ImpositionError, grid, paper_size

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


def test_fold_over_puts_every_back_behind_its_face():
    from deckpress.generator.kit.imposition import fold_grid

    g = fold_grid("a4", (63, 88), 3.0)
    assert g.sheet_mm == (297, 210) and g.per_sheet == 4  # landscape holds four cards with their backs
    for face, back in zip(g.faces, g.backs):
        # folding on the line x = 148.5 maps x to 297 - x: the back's trim is the face's, mirrored
        assert round(face.x_mm + back.x_mm + 63, 6) == 297 and face.y_mm == back.y_mm
        assert face.x_mm + 63 <= g.fold_x_mm - 3 and back.x_mm >= g.fold_x_mm + 3


@pytest.mark.slow
def test_maybe_missions_without_duplex_folds_its_two_sided_cards(cli, tmp_path):
    # --duplex none once exited 0 with every red (fail) side gone ... while its cover still
    # said to print double-sided.  Now every two-sided card prints beside its back.
    import pypdfium2 as pdfium

    assert cli("build", "maybe-missions", "--duplex", "none", "--out", tmp_path).exit_code == 0
    path = tmp_path / "maybe-missions.pdf"
    reader = PdfReader(path)
    cover = "".join(p.extract_text() for p in reader.pages[:2])
    assert "Print single-sided. Fold-over sheets (Mission cards, Master cards, Shop cards)" in cover
    assert "Print double-sided" not in cover
    fold_pages = [i for i, p in enumerate(reader.pages) if "fold on the dashed line" in p.extract_text()]
    text = " ".join(" ".join(reader.pages[i].extract_text() for i in fold_pages).split())  # titles may wrap
    from deckpress.generator.content import load_game

    missions = load_game("maybe-missions")["missions"]["missions"]
    assert len(missions) == 40 and all(text.count(m["title"]) >= 2 for m in missions)  # each card's green side and red side
    assert text.count("Crack the hotel safe") == 2
    # green face left of the fold, its red back at the mirror place right of it
    page = pdfium.PdfDocument(path)[fold_pages[0]]
    image = page.render(scale=254 / 72).to_pil().convert("RGB")  # 10 px per mm
    from deckpress.generator.kit.imposition import fold_grid

    g = fold_grid("a4", (63, 88), 3.0)
    face, back = g.faces[0], g.backs[0]
    fx, fy = round((face.x_mm + 5) * 10), round((face.y_mm + 5) * 10)
    bx = round((back.x_mm + 63 - 5) * 10)
    r, gr, b = image.getpixel((fx, fy))
    assert gr > r and gr > b  # green: SUCCESS
    r, gr, b = image.getpixel((bx, fy))
    assert r > gr and r > b  # red: FAIL


def test_calibration_sheet_scales_are_centred_and_true_to_size(cli, tmp_path):
    import pypdfium2 as pdfium

    from deckpress.generator.render.calibration import SCALE_OFFSET_MM

    result = cli("calibrate", "--paper", "a4", "--out", tmp_path / "cal.pdf")
    assert result.exit_code == 0
    reader = PdfReader(tmp_path / "cal.pdf")
    # the offset is read as seen from the face side: the scales are on the front, the
    # cross on the back shows through them
    assert len(reader.pages) == 2 and "--back-offset X,Y" in reader.pages[0].extract_text()
    assert "with this side towards you" in reader.pages[0].extract_text()
    image = pdfium.PdfDocument(tmp_path / "cal.pdf")[0].render(scale=254 / 72).to_pil().convert("L")  # 10 px per mm
    row = round((297 / 2 - SCALE_OFFSET_MM - 1) * 10)  # just above the horizontal scale's base line
    dark = [x for x in range(image.width) if image.getpixel((x, row)) < 128]
    ticks = [x for i, x in enumerate(dark) if i == 0 or x - dark[i - 1] > 1]  # one x per tick
    assert len(ticks) == 41  # -10 to +10 mm every 0.5 mm
    assert abs(ticks[20] - 1050) <= 1  # zero on the page's centre line (105 mm)
    assert abs((ticks[-1] - ticks[0]) - 200) <= 2  # 20 mm end to end


def test_calibration_text_wraps_to_small_paper_and_paper_too_small_is_refused(cli, tmp_path):
    # On A5 the instructions ran past the page's edge; on 100 x 100 mm the scale was printed over
    # the title.  The instructions wrap below the scales, and a paper that cannot hold them is refused.
    assert cli("calibrate", "--paper", "148x210mm", "--out", tmp_path / "a5.pdf").exit_code == 0
    page = PdfReader(tmp_path / "a5.pdf").pages[0]
    runs = []
    page.extract_text(visitor_text=lambda text, cm, tm, font, size: runs.append((text, tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5], size))
                      if text.strip() else None)
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from deckpress.generator.render import fonts

    fonts.register()
    for text, x, _y, size in runs:
        assert (x + stringWidth(text, "Lato", size)) * MM_PER_PT <= 148 - 10, text  # inside a 10 mm edge
    body = [y * MM_PER_PT for text, x, y, size in runs if "double-sided" in text or "back-offset" in text]
    assert body and max(body) < 210 / 2 - 15  # below the right-hand scale, which ends 10 mm below the centre
    result = cli("calibrate", "--paper", "100x100mm", "--out", tmp_path / "small.pdf")
    assert result.exit_code == 2 and not (tmp_path / "small.pdf").exists()
    assert "does not fit on 100 x 100 mm paper: its scales and instructions need at least 120 x 132 mm" in result.output


def test_a_short_sheet_has_no_empty_cells_and_every_cut_line_has_a_tick_in_the_bleed():
    # Empty cells: one 40 x 100 mm officer strip once got a 5 x 2 grid with nine empty cells.
    g = grid("a4", (40, 100), 3.0, cards=1)
    assert (g.cols, g.rows) == (1, 1) and len(g.crop_marks()) == 8  # two cuts each way, marked on both sides
    assert grid("a4", (63, 88), 3.0, cards=2).cols == 2 and grid("a4", (63, 88), 3.0, cards=5).rows == 2
    # a tick across the outer bleed at every cut line, findable where a printer leaves its edge blank
    xs, ys = g.cut_lines()
    assert len(g.bleed_ticks()) == 2 * (len(xs) + len(ys))
    assert all(abs((x2 - x1) + (y2 - y1)) == 3.0 for x1, y1, x2, y2 in g.bleed_ticks())


@pytest.mark.slow
def test_the_sheet_label_sits_between_two_cut_lines(cli, tmp_path):
    # Labels: on 4-column sheets the label was once centred on the middle cut, crossed by its mark.
    assert cli("build", "maybe-missions", "--out", tmp_path).exit_code == 0
    page = next(p for p in PdfReader(tmp_path / "maybe-missions.pdf").pages if "Vote cards · 1/" in p.extract_text())
    runs = []
    page.extract_text(visitor_text=lambda text, cm, tm, font, size: runs.append((text, tm[4] * cm[0] + cm[4])) if "Vote cards" in text else None)
    (text, x_pt), = runs
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from deckpress.generator.render import fonts

    fonts.register()
    g = grid("a4", (44, 67), 3.0)
    xs, _ = g.cut_lines()
    left = x_pt * MM_PER_PT
    width = max(stringWidth(text, "Lato", size) for size in (4, 6)) * MM_PER_PT
    assert len(xs) == 5 and xs[0] < left and left + width < xs[1]  # clear of every cut line and its mark

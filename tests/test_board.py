"""Boards larger than a sheet: the tiling geometry (tiles cover the board, neighbours overlap by
exactly the stated overlap, every tile fits its sheet, alignment marks on every shared edge), and
the printed tiles read back and measured on rendered pages."""
from __future__ import annotations

from math import cos, hypot, radians, sin
from pathlib import Path

import pypdfium2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth

from deckpress.generator.content.yamlsafe import load_yaml
from deckpress.generator.kit.imposition import PAPERS, ImpositionError
from deckpress.generator.kit.printdata import Board, Deck
from deckpress.generator.render import fonts
from deckpress.generator.render.board import (
    CROSS_LABEL_PT,
    CROSS_RING_MM,
    CROSS_RING_STROKE_PT,
    SCALE_BAR_MM,
    SHEET_MARGIN_MM,
    alignment_marks,
    tile_board,
)
from deckpress.generator.render.kit import PrintOptions, render_pdf

MM = 72 / 25.4


def test_a_390_by_180_board_takes_two_landscape_a4_sheets():
    t = tile_board((390, 180), "a4", overlap_mm=10)
    assert (t.rows, t.cols, t.sheet_mm, t.landscape) == (1, 2, (297.0, 210.0), True)
    assert [(tile.label, tile.x_mm, tile.w_mm, tile.h_mm) for tile in t.tiles] == [("A1", 0, 200, 180), ("A2", 190, 200, 180)]


def test_a_board_that_fits_is_one_sheet_without_overlap():
    t = tile_board((390, 180), "a3", overlap_mm=10)
    assert (len(t.tiles), t.overlap_mm, t.sheet_mm) == (1, 0.0, (420.0, 297.0))
    assert alignment_marks(t) == []


def test_a_big_board_tiles_in_rows_and_columns():
    # portrait: 4 x 2 tiles of at most 186 x 273 mm; landscape would need 3 x 3
    t = tile_board((600, 400), "a4", overlap_mm=10)
    assert (t.rows, t.cols, t.landscape) == (2, 4, False)
    assert [tile.label for tile in t.tiles] == ["A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4"]


@settings(derandomize=True, max_examples=200, deadline=None)
@given(width=st.floats(20, 1000), height=st.floats(20, 1000), paper=st.sampled_from(sorted(PAPERS)), overlap=st.floats(5, 30))
def test_tiles_cover_the_board_and_overlap_exactly(width, height, paper, overlap):
    t = tile_board((width, height), paper, overlap_mm=overlap)
    usable = (t.sheet_mm[0] - 2 * SHEET_MARGIN_MM, t.sheet_mm[1] - 2 * SHEET_MARGIN_MM)
    step = t.overlap_mm
    for tile in t.tiles:  # every tile fits its sheet inside the margins
        assert tile.w_mm <= usable[0] + 1e-9 and tile.h_mm <= usable[1] + 1e-9
    for r in range(t.rows):  # along each row: from 0 to the width, neighbours overlapping by the overlap
        row = [t.tile(r, c) for c in range(t.cols)]
        assert row[0].x_mm == 0 and row[-1].x_mm + row[-1].w_mm == pytest.approx(width)
        for a, b in zip(row, row[1:]):
            assert a.x_mm + a.w_mm - b.x_mm == pytest.approx(step) and step == overlap
    for c in range(t.cols):
        col = [t.tile(r, c) for r in range(t.rows)]
        assert col[0].y_mm == 0 and col[-1].y_mm + col[-1].h_mm == pytest.approx(height)
        for a, b in zip(col, col[1:]):
            assert a.y_mm + a.h_mm - b.y_mm == pytest.approx(step)
    # no sheet is wasted: one tile fewer in either direction could not cover the board
    for n, length, room in ((t.cols, width, usable[0]), (t.rows, height, usable[1])):
        if n > 1:
            assert (n - 1) * room - (n - 2) * overlap < length


def test_marks_lie_on_the_upper_tiles_cut_inside_the_lower_tiles_glue_strip():
    t = tile_board((600, 400), "a4", overlap_mm=12)
    marks = alignment_marks(t)
    shared_edges = t.rows * (t.cols - 1) + t.cols * (t.rows - 1)
    assert len(marks) == 3 * shared_edges
    by_label = {tile.label: tile for tile in t.tiles}
    for m in marks:
        under, over = by_label[m.under], by_label[m.over]
        if over.col > under.col:  # a vertical seam: the cross sits on the right tile's left cut
            assert m.x_mm == over.x_mm and under.x_mm + under.w_mm - 12 <= m.x_mm <= under.x_mm + under.w_mm
            assert over.y_mm <= m.y_mm <= over.y_mm + over.h_mm
        else:
            assert m.y_mm == over.y_mm and under.y_mm + under.h_mm - 12 <= m.y_mm <= under.y_mm + under.h_mm
            assert over.x_mm <= m.x_mm <= over.x_mm + over.w_mm


def test_impossible_tiling_is_a_clear_error():
    with pytest.raises(ImpositionError, match="unknown paper 'a5'"):
        tile_board((300, 200), "a5")
    with pytest.raises(ImpositionError, match="not more than the 200 mm overlap"):
        tile_board((300, 200), "a4", overlap_mm=200)


BOARD_LAYOUT = """\
cards:
  test:
    trim: {width_mm: 63, height_mm: 88}
    face: []
    back: []
boards:
  plain:
    size: {width_mm: 330, height_mm: 150}
    overlap_mm: 10
    elements:
      - {type: rect, x_mm: 0, y_mm: 0, w_mm: 330, h_mm: 150, fill: "#dddddd", bleed: true}
      - {type: text, x_mm: 10, y_mm: 10, w_mm: 100, h_mm: 10, text: "{title}", font_pt: 14}
"""


def _board(folder: Path, layout_text: str) -> Path:
    """The PDF of the test board drawn with ``layout_text``, written in ``folder``."""
    layout, errors = load_yaml(folder / "layout.yaml", text=layout_text)
    assert not errors
    board = Board("plain", "Test board", {"id": "b", "source": "test", "title": "HELLO BOARD"})
    path = folder / "board.pdf"
    path.write_bytes(render_pdf(layout, [Deck("test", "Test", [])], None, PrintOptions(), boards=[board]))
    return path


@pytest.fixture(scope="module")
def board_pdf(tmp_path_factory) -> Path:
    return _board(tmp_path_factory.mktemp("board"), BOARD_LAYOUT)


def test_tile_pages_say_how_they_join(board_pdf):
    reader = PdfReader(board_pdf)
    # two A4 tiles (330 x 150 mm: 170 + 170 with 10 mm overlap), each followed by a blank back
    assert len(reader.pages) == 4
    assert [(round(float(p.mediabox.width) / MM), round(float(p.mediabox.height) / MM)) for p in reader.pages] == [(210, 297)] * 4
    first, second = reader.pages[0].extract_text(), reader.pages[2].extract_text()
    assert "Test board · tile A1 (1 of 2" in first and "GLUE · A2 on top" in first and "A1|A2" in first
    assert "Test board · tile A2 (2 of 2" in second and "A2: cut here, lay over A1" in second and "A1|A2" in second
    assert "HELLO BOARD" in first
    assert "left blank" in reader.pages[1].extract_text()


def _render(path: Path, index: int, dpi: int = 254):
    page = pypdfium2.PdfDocument(str(path))[index]
    return page.render(scale=dpi / 72).to_pil().convert("L"), dpi / 25.4


def test_crosses_print_at_the_same_board_point_on_both_tiles(board_pdf):
    t = tile_board((330, 150), "a4", overlap_mm=10)
    ox, oy = t.origin_mm()
    for page, tile in ((0, t.tiles[0]), (2, t.tiles[1])):
        image, px = _render(board_pdf, page)
        for m in alignment_marks(t):
            # the cross's centre on this sheet, and points on its arms 3 mm away: dark (black lines)
            cx, cy = ox + m.x_mm - tile.x_mm, oy + m.y_mm - tile.y_mm
            for dx, dy in ((3, 0), (-3, 0), (0, 3), (0, -3)):
                assert image.getpixel((round((cx + dx) * px), round((cy + dy) * px))) < 110, (tile.label, m, dx, dy)
            # and the paper between the arms is not dark
            assert image.getpixel((round((cx + 3) * px), round((cy + 3) * px))) > 150


def test_scale_bar_measures_50_mm(board_pdf):
    t = tile_board((330, 150), "a4", overlap_mm=10)
    image, px = _render(board_pdf, 0)
    _, oy = t.origin_mm()
    row = round((oy - 5) * px)  # the bar sits 5 mm above the tile
    runs, start = [], None  # runs of dark pixels along the row: the longest is the bar
    for x in range(image.width + 1):
        dark = x < image.width and image.getpixel((x, row)) < 128
        if dark and start is None:
            start = x
        elif not dark and start is not None:
            runs.append(x - start)
            start = None
    assert max(runs) / px == pytest.approx(SCALE_BAR_MM, abs=0.3)


def test_crop_marks_sit_on_the_tile_edges(board_pdf):
    t = tile_board((330, 150), "a4", overlap_mm=10)
    ox, oy = t.origin_mm()
    image, px = _render(board_pdf, 2)
    row = round((oy + t.tiles[1].h_mm + 7) * px)  # below the tile: the vertical crop marks cross this line
    dark = [x / px for x in range(image.width) if image.getpixel((x, row)) < 128]
    assert dark[0] == pytest.approx(ox, abs=0.3) and dark[-1] == pytest.approx(ox + t.tiles[1].w_mm, abs=0.3)


def test_a_missing_board_layout_is_reported(tmp_path):
    from deckpress.generator.content.errors import ContentErrors

    layout, _ = load_yaml(tmp_path / "layout.yaml", text=BOARD_LAYOUT)
    board = Board("city", "Board", {"id": "b", "source": "test.yaml"})
    with pytest.raises(ContentErrors) as exc:
        render_pdf(layout, [], None, PrintOptions(), boards=[board])
    assert "no layout for board kind 'city' (Board); board layouts exist for: plain" in str(exc.value)


@pytest.fixture(scope="module")
def grid_pdf(tmp_path_factory) -> Path:
    """A 330 x 330 mm board: 2 x 2 A4 tiles, so it has crosses on seams between columns and
    between rows, each printed on the tile under the seam and on the tile over it."""
    text = BOARD_LAYOUT.replace("width_mm: 330, height_mm: 150", "width_mm: 330, height_mm: 330").replace("h_mm: 150", "h_mm: 330")
    return _board(tmp_path_factory.mktemp("grid"), text)


def _cross_labels(page) -> list[tuple[str, float, float, float, float]]:
    """The registration crosses' labels ('A1|A2') on a tile's page, each with its box in mm from
    the sheet's top-left: (text, left, right, top, bottom), the box being the text's width by the
    font's ascent and descent."""
    fonts.register()
    ascent, descent = getAscentDescent("Lato", CROSS_LABEL_PT)
    height = float(page.mediabox.height)
    found = []

    def visit(text, cm, tm, font, size):
        text = text.strip()
        if len(text) == 5 and text[2] == "|":
            assert size == CROSS_LABEL_PT
            x, base = tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5]
            found.append((text, x / MM, (x + stringWidth(text, "Lato", size)) / MM, (height - base - ascent) / MM, (height - base - descent) / MM))

    page.extract_text(visitor_text=visit)
    return found


def test_cross_labels_stay_clear_of_the_ring(grid_pdf):
    # The 5 pt labels once overlapped the crosses' rings. Read from the PDF: each cross on a
    # tile has its label, the label's box keeps off the ring (radius plus half its stroke) and
    # lies in one quadrant between the arms, where it is hidden once the tiles are glued: in the
    # glue strip on the tile under the seam, beyond the cut on the tile over it.
    t = tile_board((330, 330), "a4", overlap_mm=10)
    assert (t.rows, t.cols) == (2, 2)
    ox, oy = t.origin_mm()
    ring = CROSS_RING_MM + CROSS_RING_STROKE_PT / 2 / MM
    reader = PdfReader(grid_pdf)
    for k, tile in enumerate(t.tiles):
        labels = _cross_labels(reader.pages[2 * k])
        marks = [m for m in alignment_marks(t) if tile.label in (m.under, m.over)]
        assert len(labels) == len(marks) > 0, (tile.label, labels)
        for m in marks:
            cx, cy = ox + m.x_mm - tile.x_mm, oy + m.y_mm - tile.y_mm
            text, left, right, top, bottom = min(labels, key=lambda b: hypot((b[1] + b[2]) / 2 - cx, (b[3] + b[4]) / 2 - cy))
            assert text == f"{m.under}|{m.over}"
            gap = hypot(max(left - cx, 0, cx - right), max(top - cy, 0, cy - bottom))
            assert gap > ring + 0.3, f"tile {tile.label}: label {text} comes within {gap:.2f} mm of the cross's centre; the ring reaches {ring:.2f} mm"
            assert (left > cx or right < cx) and (top > cy or bottom < cy), f"tile {tile.label}: label {text} lies across an arm of its cross"
            assert hypot(max(abs(left - cx), abs(right - cx)), max(abs(top - cy), abs(bottom - cy))) < 9, "the label is far from its cross"
            region = (ox, ox + tile.w_mm, oy, oy + tile.h_mm)  # the tile's part of the board on its sheet
            if tile.label == m.under:  # in the glue strip: inside the region, within the overlap of its far edge
                assert region[0] <= left and right <= region[1] and region[2] <= top and bottom <= region[3], (tile.label, text)
                assert left >= region[1] - 10 or top >= region[3] - 10, (tile.label, text)
            else:  # beyond the cut, in the margin that is cut away
                assert right <= region[0] or bottom <= region[2], (tile.label, text)


@pytest.mark.slow
def test_paper_around_each_cross_ring_is_clear(grid_pdf):
    # Rendered: just outside each ring, between the arms, only paper or the washed-out board shows
    # (no label glyph touches the ring).
    t = tile_board((330, 330), "a4", overlap_mm=10)
    ox, oy = t.origin_mm()
    radius = CROSS_RING_MM + 0.35
    for k, tile in enumerate(t.tiles):
        image, px = _render(grid_pdf, 2 * k, dpi=400)
        for m in alignment_marks(t):
            if tile.label not in (m.under, m.over):
                continue
            cx, cy = ox + m.x_mm - tile.x_mm, oy + m.y_mm - tile.y_mm
            for degrees in range(0, 360, 3):
                if min(degrees % 90, 90 - degrees % 90) < 10:  # the arms
                    continue
                ux, uy = cos(radians(degrees)), sin(radians(degrees))
                grey = image.getpixel((round((cx + radius * ux) * px), round((cy + radius * uy) * px)))
                assert grey > 150, (tile.label, m, degrees, grey)

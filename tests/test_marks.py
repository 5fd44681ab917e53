"""Every cut line of every shipped kit can be found on a home printer (sheets that
survive every home printer), measured on the PDF itself: rendered at 10 px per mm with its
outer 5 mm blanked (a printer that cannot print there), each cut line of each card sheet still
shows a mark that stands out from what is around it, and every cell of the grid holds a card (no
marks around an empty cell), on A4, Letter and A3; and no sheet label lies on a cut line or on
the art."""
from __future__ import annotations

import ctypes
import re

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest
import yaml
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from deckpress.generator.paths import CONTENT_DIR
from deckpress.generator.render import fonts

PX_PER_MM = 10
PT_PER_MM = 72 / 25.4
DEAD_MM = 5.0  # the unprintable edge of the worst home printers
GAMES = ("mission-emission", "fifty-missions", "maybe-missions", "geheime-mission")


def _card_sizes(game: str) -> list[tuple[float, float]]:
    """The rectangular card kinds' sizes (round cards are cut along their circle, not on lines)."""
    layout = yaml.safe_load((CONTENT_DIR / game / "layout.yaml").read_text("utf-8"))
    return [(c["trim"]["width_mm"], c["trim"]["height_mm"]) for c in layout["cards"].values() if c.get("shape", "rect") == "rect"]


def _grid(page, sizes) -> tuple[list[float], list[float], tuple[float, float, float, float]] | None:
    """The cut lines (x and y, mm from the top-left) of a card sheet, from its TrimBox and the card
    sizes, and the trim box (left, top, right, bottom mm); None for a page that is no card sheet."""
    if page.trimbox == page.mediabox:
        return None
    h = float(page.mediabox[3]) / PT_PER_MM
    x0, y0, x1, y1 = (float(v) / PT_PER_MM for v in page.trimbox)
    left, top, right, bottom = x0, h - y1, x1, h - y0
    for w, hh in sizes:
        cols, rows = (right - left) / w, (bottom - top) / hh
        if abs(cols - round(cols)) < 0.01 and abs(rows - round(rows)) < 0.01 and round(cols) and round(rows):
            return ([left + i * w for i in range(round(cols) + 1)], [top + j * hh for j in range(round(rows) + 1)], (left, top, right, bottom))
    return None


def _sheet_labels(page) -> list[tuple[str, float, float, float]]:
    """The sheet labels (the lines with " · faces" or " · backs") of a pypdfium2 page: ``(text,
    x mm of its first glyph's origin from the left, y mm of its baseline from the top, font size
    pt)``.  pdfium reads text in C, some 50 times faster than pypdf here (a whole kit's labels read
    the same both ways, checked when this was written)."""
    textpage, height_pt = page.get_textpage(), page.get_height()
    labels, start = [], 0
    for line in textpage.get_text_range().split("\r\n"):  # pdfium's generated line breaks count as characters
        if " · faces" in line or " · backs" in line:
            first = start + len(line) - len(line.lstrip())
            x, y = ctypes.c_double(), ctypes.c_double()
            pdfium_c.FPDFText_GetCharOrigin(textpage.raw, first, x, y)
            labels.append((line.strip(), x.value / PT_PER_MM, (height_pt - y.value) / PT_PER_MM,
                           pdfium_c.FPDFText_GetFontSize(textpage.raw, first)))
        start += len(line) + 2
    return labels


def _stands_out(image, x: int, y: int, vertical: bool) -> bool:
    """A dark thin line through (x, y) with lighter pixels beside it across the line (white paper, or
    the mark's white underlay on a coloured bleed): a mark, whatever the background.  A 0.3 pt line
    is one pixel wide here, greyed by anti-aliasing over two."""
    def lum(dx: int) -> int:
        px, py = (x + dx, y) if vertical else (x, y + dx)
        return image.getpixel((px, py))
    dark = min(lum(-1), lum(0), lum(1))
    return dark < 170 and max(lum(-3), lum(-2), lum(-1)) - dark > 60 and max(lum(1), lum(2), lum(3)) - dark > 60


def _findable(image, line_mm: float, span: tuple[float, float], vertical: bool) -> bool:
    """Some point of the cut line at ``line_mm`` between ``span`` (mm along it) shows a mark."""
    c = round(line_mm * PX_PER_MM)
    return any(_stands_out(image, c, round(t * PX_PER_MM), True) if vertical else _stands_out(image, round(t * PX_PER_MM), c, False)
               for t in (span[0] + k / PX_PER_MM for k in range(int((span[1] - span[0]) * PX_PER_MM))))


@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
@pytest.mark.parametrize("game", GAMES)
def test_every_cut_line_is_findable_beyond_a_5_mm_dead_edge(cli, tmp_path, game, paper):
    assert cli("build", game, "--paper", paper, "--out", tmp_path).exit_code == 0
    path = tmp_path / f"{game}.pdf"
    reader, document = PdfReader(path), pypdfium2.PdfDocument(path)
    sizes = _card_sizes(game)
    checked = 0
    for n, page in enumerate(reader.pages):
        grid = _grid(page, sizes)
        # each deck's first sheet of faces (and its last, which may be short): cutting is done
        # from the face side, so the marks are there, not on the backs
        text = document[n].get_textpage().get_text_range()
        if grid is None or " · faces" not in text or not re.search(r" · (1|(\d+))/\2? · faces", text):
            continue
        xs, ys, (left, top, right, bottom) = grid
        image = document[n].render(scale=PX_PER_MM / PT_PER_MM).to_pil().convert("L")
        w, h = image.width / PX_PER_MM, image.height / PX_PER_MM
        for x in xs:
            for span in ((DEAD_MM, top), (bottom, h - DEAD_MM)):
                assert _findable(image, x, span, vertical=True), f"page {n + 1} ({text[-40:]!r}): cut x = {x:.1f} mm, y in {span}"
        for y in ys:
            for span in ((DEAD_MM, left), (right, w - DEAD_MM)):
                assert _findable(image, y, span, vertical=False), f"page {n + 1} ({text[-40:]!r}): cut y = {y:.1f} mm, x in {span}"
        for x0, x1 in zip(xs, xs[1:]):  # no empty cell: every cell of the grid holds a card's art
            for y0, y1 in zip(ys, ys[1:]):
                cell = image.crop((round(x0 * PX_PER_MM), round(y0 * PX_PER_MM), round(x1 * PX_PER_MM), round(y1 * PX_PER_MM)))
                assert cell.getextrema()[0] < 200, f"page {n + 1}: the cell at {x0:.1f}, {y0:.1f} mm is empty"
        checked += 1
    assert checked >= len(sizes)  # a sheet of each rectangular card kind at least


@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
@pytest.mark.parametrize("game", GAMES)
def test_no_sheet_label_lies_on_a_cut_line_or_on_the_art(cli, tmp_path, game, paper):
    fonts.register()
    assert cli("build", game, "--paper", paper, "--out", tmp_path).exit_code == 0
    sizes = _card_sizes(game)
    labels = 0
    path = tmp_path / f"{game}.pdf"
    document = pypdfium2.PdfDocument(path)
    for n, page in enumerate(PdfReader(path).pages):
        grid = _grid(page, sizes)
        if grid is None:
            continue
        xs, _, (_, _, _, bottom) = grid
        for text, x, y, size in _sheet_labels(document[n]):
            width = stringWidth(text, "Lato", size) / PT_PER_MM
            assert not any(x - 0.5 < cut < x + width + 0.5 for cut in xs), f"label {text!r} crosses a cut line"
            assert y > bottom + 3.0 - size / PT_PER_MM, f"label {text!r} lies on the bleed"  # below the bleed (3 mm)
            labels += 1
    assert labels >= 2

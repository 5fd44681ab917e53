"""Boards larger than a sheet: printed on one sheet when they fit, else across several sheets
("tiles") that overlap and carry alignment marks, to be cut and glued together.

Geometry first, pure and in millimetres (no drawing): :func:`tile_board` splits a board into
tiles for a paper size, :func:`alignment_marks` gives the registration crosses that neighbouring
tiles share.  :func:`draw_board` then prints the tiles with the layout's ``boards.<kind>``
elements (the same element kinds as cards, drawn by the :class:`Painter`).

How the tiles go together (the usual poster-tiling convention, as in Acrobat's "tile large
pages" and PosteRazor): tiles are named by row letter and column number (A1, A2, ... B1, ...).
Neighbouring tiles both print the overlap strip.  Every tile is cut along its crop marks; the
strip along a tile's right (and bottom) edge is the glue strip, and the next tile is laid over
it so that its cut edge runs through the centres of the crosses printed in the strip: the
crosses' halves left on the cut edge then complete the crosses underneath.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import ceil

from reportlab.lib.colors import Color, black, white
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth
from reportlab.pdfgen.canvas import Canvas

from deckpress.generator.kit import words
from deckpress.generator.kit.imposition import ImpositionError, paper_size
from deckpress.generator.kit.printdata import Board
from deckpress.generator.kit.translation import number
from deckpress.generator.render.elements import LayoutError, Painter, compile_elements
from deckpress.generator.render.layout import Layout
from deckpress.generator.render.scripts import note

#: Room left on every side of a tile's sheet, mm: printers' unprintable edge, crop marks, labels.
SHEET_MARGIN_MM = 12.0
DEFAULT_OVERLAP_MM = 10.0
DEFAULT_BLEED_MM = 3.0
#: Crop marks start this far outside the cut (beyond the bleed) and are this long, mm.
MARK_GAP_MM = 1.0
MARK_LENGTH_MM = 5.0
#: Registration crosses: arm length and ring radius, mm; crosses per shared edge.
CROSS_ARM_MM = 4.0
CROSS_RING_MM = 1.8
CROSSES_PER_EDGE = 3
CROSS_LABEL_PT = 5.0
#: A registration cross's ring is stroked this wide, pt; its label keeps this much paper clear
#: between the ring's outer edge and the label's box (the font's full ascent and descent), mm.
CROSS_RING_STROKE_PT = 0.4
CROSS_LABEL_CLEAR_MM = 0.5
#: A ruler printed on every tile, to check that the sheet was printed at 100 %.
SCALE_BAR_MM = 50.0
#: Margin notes start this far right of the tile's left cut, clear of the corner's crop marks, mm.
NOTE_INDENT_MM = 10.0
GLUE_INK = Color(0.25, 0.25, 0.25)


@dataclass(frozen=True)
class Tile:
    """The part of a board printed on one sheet: the board region ``(x_mm, y_mm, w_mm, h_mm)``
    measured from the board's top-left corner, y downward."""

    row: int
    col: int
    x_mm: float
    y_mm: float
    w_mm: float
    h_mm: float

    @property
    def label(self) -> str:
        """'A1' for the first row's first column, 'B3' for the second row's third."""
        return f"{chr(ord('A') + self.row)}{self.col + 1}"


@dataclass(frozen=True)
class Mark:
    """A registration cross at board position ``(x_mm, y_mm)``, printed on two tiles: inside
    the glue strip of ``under`` and on the cut edge of ``over`` (labels such as 'A1')."""

    x_mm: float
    y_mm: float
    under: str
    over: str


@dataclass(frozen=True)
class Tiling:
    """A board split into tiles for a paper: every tile the same size and on a sheet of
    ``sheet_mm`` (the paper, portrait or landscape), its region centred on the sheet.
    Neighbouring tiles overlap by ``overlap_mm`` (0 when one tile holds the whole board)."""

    board_mm: tuple[float, float]
    paper: str
    sheet_mm: tuple[float, float]
    overlap_mm: float
    rows: int
    cols: int
    tiles: tuple[Tile, ...]

    @property
    def landscape(self) -> bool:
        """Whether the sheets are turned to landscape."""
        return self.sheet_mm[0] > self.sheet_mm[1]

    def origin_mm(self) -> tuple[float, float]:
        """Where a tile's region's top-left corner lies on its sheet, mm from the sheet's
        top-left (the same for every tile: regions are centred)."""
        tile = self.tiles[0]
        return (self.sheet_mm[0] - tile.w_mm) / 2, (self.sheet_mm[1] - tile.h_mm) / 2

    def tile(self, row: int, col: int) -> Tile | None:
        """The tile at ``(row, col)``, or None beyond the edge."""
        if 0 <= row < self.rows and 0 <= col < self.cols:
            return self.tiles[row * self.cols + col]
        return None


def tile_board(board_mm: tuple[float, float], paper: str, overlap_mm: float = DEFAULT_OVERLAP_MM,
               margin_mm: float = SHEET_MARGIN_MM) -> Tiling:
    """Split a ``board_mm`` (width, height) board into the fewest equal tiles that fit ``paper``
    (see :func:`deckpress.generator.kit.imposition.paper_size`) with ``margin_mm`` free on every side, trying
    the paper portrait and landscape (portrait on a tie).

    Neighbouring tiles overlap by exactly ``overlap_mm``; the tiles together cover the board.
    A board that fits one sheet is one tile with no overlap.

    Raises:
        ImpositionError: unknown paper, or a tile cannot be wider (or higher) than the overlap
            on this paper, so tiling would never cover the board.
    """
    width, height = board_mm
    pw, ph = paper_size(paper)
    best = None
    for sheet in ((pw, ph), (ph, pw)):
        usable = (sheet[0] - 2 * margin_mm, sheet[1] - 2 * margin_mm)
        if min(usable) <= overlap_mm:
            raise ImpositionError(f"{paper} paper leaves {min(usable):g} mm for a board tile, not more than the {overlap_mm:g} mm overlap")
        cols, rows = _count(width, usable[0], overlap_mm), _count(height, usable[1], overlap_mm)
        if best is None or cols * rows < best[1] * best[2]:
            best = (sheet, cols, rows)
    assert best is not None  # the loop's first sheet sets it
    sheet, cols, rows = best
    overlap = overlap_mm if cols * rows > 1 else 0.0
    w = (width + (cols - 1) * overlap) / cols
    h = (height + (rows - 1) * overlap) / rows
    tiles = tuple(Tile(r, c, c * (w - overlap), r * (h - overlap), w, h) for r in range(rows) for c in range(cols))
    return Tiling((width, height), paper, sheet, overlap, rows, cols, tiles)


def _count(length: float, usable: float, overlap: float) -> int:
    """Tiles needed along one side: n tiles of at most ``usable`` cover n*usable - (n-1)*overlap."""
    if length <= usable:
        return 1
    return ceil((length - overlap) / (usable - overlap))


def alignment_marks(tiling: Tiling) -> list[Mark]:
    """The registration crosses of every edge two tiles share: :data:`CROSSES_PER_EDGE` crosses
    on the line where the upper tile (right or lower neighbour) is cut, spread along the shared
    edge.  Empty for a single tile."""
    marks = []
    for tile in tiling.tiles:
        right, below = tiling.tile(tile.row, tile.col + 1), tiling.tile(tile.row + 1, tile.col)
        if right is not None:
            marks += [Mark(right.x_mm, tile.y_mm + tile.h_mm * f, tile.label, right.label) for f in _spread()]
        if below is not None:
            marks += [Mark(tile.x_mm + tile.w_mm * f, below.y_mm, tile.label, below.label) for f in _spread()]
    return marks


def _spread() -> list[float]:
    return [(i + 0.5) / CROSSES_PER_EDGE for i in range(CROSSES_PER_EDGE)]


def cross_label_box(label: str, right: bool, up: bool) -> tuple[float, float, float, float, float]:
    """Where a registration cross's ``label`` goes, in pt from the cross's centre (y up): in the
    quadrant to the ``right`` (else left) and ``up`` (else down), its box (the text's width by the
    font's ascent and descent at :data:`CROSS_LABEL_PT`) clear of the ring: the box's corner
    nearest the centre lies on the diagonal, :data:`CROSS_LABEL_CLEAR_MM` outside the ring's outer
    edge, so no part of the box comes nearer (and the arms, on the axes, are not touched either).

    Returns ``(x, baseline, left, bottom, top)``: where to draw the text from (its left end and
    baseline) and the box's left, bottom and top edges; the box is ``stringWidth`` wide.  Needs
    the shipped fonts registered (:func:`deckpress.generator.render.fonts.register`).
    """
    width = stringWidth(label, "Lato", CROSS_LABEL_PT)
    ascent, descent = getAscentDescent("Lato", CROSS_LABEL_PT)
    near = (CROSS_RING_MM * mm + CROSS_RING_STROKE_PT / 2 + CROSS_LABEL_CLEAR_MM * mm) / 2 ** 0.5
    left = near if right else -near - width
    bottom = near if up else -near - (ascent - descent)
    return left, bottom - descent, left, bottom, bottom + ascent - descent


def draw_board(c: Canvas, painter: Painter, layout: Layout, board: Board, paper: str, backs: bool, failures: dict) -> None:
    """Print ``board`` with its layout ``boards.<kind>``: one page per tile of
    :func:`tile_board` (turned to landscape where that needs fewer sheets), each followed by a
    blank page when ``backs`` (duplex printing: the tiles must not print on each other's backs).

    A failing element (a missing field, an unknown colour, text that does not fit) is recorded
    in ``failures`` as :func:`deckpress.generator.render.kit.render_pdf` does for cards; so is a board
    kind the layout does not define.

    Raises:
        ImpositionError: the paper cannot hold a tile (see :func:`tile_board`).
    """
    spec = layout.doc.data.get("boards", {}).get(board.kind)
    if spec is None:
        known = ", ".join(layout.doc.data.get("boards", {})) or "none"
        failures.setdefault((("boards",), board.kind, "board", f"no layout for board kind '{board.kind}' ({board.name}); board layouts exist for: {known}", False), []).append(_who(board))
        return
    path = ("boards", board.kind, "elements")
    elements = compile_elements(spec["elements"], path)
    size = (spec["size"]["width_mm"], spec["size"]["height_mm"])
    bleed = spec.get("bleed_mm", DEFAULT_BLEED_MM)
    tiling = tile_board(size, paper, spec.get("overlap_mm", DEFAULT_OVERLAP_MM))
    marks = alignment_marks(tiling)
    restore = c._pagesize
    c.setPageSize((tiling.sheet_mm[0] * mm, tiling.sheet_mm[1] * mm))
    for tile in tiling.tiles:
        _draw_tile_art(painter, board, elements, tiling, tile, bleed, failures)
        _draw_glue_strips(c, tiling, tile)
        _draw_marks(c, tiling, tile, marks, bleed)
        _draw_margin_notes(c, board, tiling, tile)
        c.showPage()
        if backs:
            note(c, tiling.sheet_mm[0] * mm / 2, 10 * mm, words.BOARD_BLANK_BACK(board=board.name, tile=tile.label), 8, align="center")
            c.showPage()
    c.setPageSize(restore)


def _who(board: Board) -> str:
    return f"'{board.fields.get('id', '?')}' ({board.fields.get('source', '?')})"


class _Sheet:
    """Board millimetres to PDF points on the current tile's sheet (y up)."""

    def __init__(self, tiling: Tiling, tile: Tile):
        self.ox, self.oy = tiling.origin_mm()
        self.tile, self.height = tile, tiling.sheet_mm[1]

    def x(self, board_x_mm: float) -> float:
        return (self.ox + board_x_mm - self.tile.x_mm) * mm

    def y(self, board_y_mm: float) -> float:
        return (self.height - self.oy - board_y_mm + self.tile.y_mm) * mm


def _outer_sides(tiling: Tiling, tile: Tile) -> tuple[bool, bool, bool, bool]:
    """Which of the tile's sides (left, right, top, bottom) are the board's outer edge."""
    return tile.col == 0, tile.col == tiling.cols - 1, tile.row == 0, tile.row == tiling.rows - 1


def _draw_tile_art(painter: Painter, board: Board, elements, tiling: Tiling, tile: Tile, bleed: float, failures: dict) -> None:
    """The board's elements, clipped to the tile's region plus the bleed on outer edges."""
    c = painter.canvas
    s = _Sheet(tiling, tile)
    width, height = tiling.board_mm
    painter.place(s.x(0), s.y(0), width * mm, height * mm, (bleed * mm,) * 4)
    left, right, top, bottom = (bleed if outer else 0.0 for outer in _outer_sides(tiling, tile))
    c.saveState()
    clip = c.beginPath()
    x1, x2 = s.x(tile.x_mm - left), s.x(tile.x_mm + tile.w_mm + right)
    y1, y2 = s.y(tile.y_mm + tile.h_mm + bottom), s.y(tile.y_mm - top)
    clip.rect(x1, y1, x2 - x1, y2 - y1)
    c.clipPath(clip, stroke=0, fill=0)
    for el in elements:
        try:
            if el.visible(board.fields):
                el.draw(painter, board.fields, 0.0, 0.0)
        except LayoutError as exc:  # once per board, not once per tile
            boards = failures.setdefault((exc.path, board.kind, "board", str(exc), False), [])
            if _who(board) not in boards:
                boards.append(_who(board))
    c.restoreState()


def _draw_glue_strips(c: Canvas, tiling: Tiling, tile: Tile) -> None:
    """Wash out the overlap strips along the right and bottom edges (where the next tile is
    glued on) and label them between the crosses."""
    s = _Sheet(tiling, tile)
    ov = tiling.overlap_mm
    strips = []
    right, below = tiling.tile(tile.row, tile.col + 1), tiling.tile(tile.row + 1, tile.col)
    if right is not None:
        strips.append((tile.x_mm + tile.w_mm - ov, tile.y_mm, ov, tile.h_mm, right.label, 90))
    if below is not None:
        strips.append((tile.x_mm, tile.y_mm + tile.h_mm - ov, tile.w_mm, ov, below.label, 0))
    for x, y, w, h, other, angle in strips:
        c.saveState()
        c.setFillColor(white)
        c.setFillAlpha(0.6)
        c.rect(s.x(x), s.y(y + h), w * mm, h * mm, stroke=0, fill=1)
        c.restoreState()
        c.saveState()
        c.setFillColor(GLUE_INK)
        c.setFont("Lato-Bold", 6.5)
        c.translate(s.x(x + w / 2), s.y(y + h / 2))
        c.rotate(angle)
        length = max(w, h)
        for i in range(1, CROSSES_PER_EDGE):  # midway between neighbouring crosses
            along = (i / CROSSES_PER_EDGE - 0.5) * length * mm
            note(c, along, -2.2, words.BOARD_GLUE(tile=other), 6.5, align="center", style="bold")
        c.restoreState()


def _draw_marks(c: Canvas, tiling: Tiling, tile: Tile, marks: list[Mark], bleed: float) -> None:
    """Crop marks at the tile's corners and the registration crosses it shares."""
    s = _Sheet(tiling, tile)
    c.setStrokeColor(black)
    c.setLineWidth(0.3)
    left, right, top, bottom = tile.x_mm, tile.x_mm + tile.w_mm, tile.y_mm, tile.y_mm + tile.h_mm
    outer = _outer_sides(tiling, tile)
    for x, xdir, x_outer in ((left, -1, outer[0]), (right, 1, outer[1])):
        for y, ydir, y_outer in ((top, -1, outer[2]), (bottom, 1, outer[3])):
            gx = MARK_GAP_MM + (bleed if x_outer else 0.0)
            gy = MARK_GAP_MM + (bleed if y_outer else 0.0)
            # vertical mark above/below the corner (on the x cut), horizontal one beside it (on the y cut)
            c.line(s.x(x), s.y(y + ydir * gy), s.x(x), s.y(y + ydir * (gy + MARK_LENGTH_MM)))
            c.line(s.x(x + xdir * gx), s.y(y), s.x(x + xdir * (gx + MARK_LENGTH_MM)), s.y(y))
    c.setLineWidth(CROSS_RING_STROKE_PT)
    c.setFont("Lato", CROSS_LABEL_PT)
    by_label = {t.label: t for t in tiling.tiles}
    for m in marks:
        if tile.label not in (m.under, m.over):
            continue
        cx, cy = s.x(m.x_mm), s.y(m.y_mm)
        arm, ring = CROSS_ARM_MM * mm, CROSS_RING_MM * mm
        c.setFillColor(white)
        c.circle(cx, cy, ring, stroke=1, fill=1)
        c.line(cx - arm, cy, cx + arm, cy)
        c.line(cx, cy - arm, cx, cy + arm)
        c.setFillColor(black)
        # the label goes where it is hidden once assembled, clear of the ring: in the glue strip on
        # the lower tile, in the margin that is cut away on the upper one
        label = f"{m.under}|{m.over}"
        across = m.x_mm == by_label[m.over].x_mm  # a seam between columns
        if tile.label == m.under:
            x, base, *_ = cross_label_box(label, right=True, up=across)
        else:
            x, base, *_ = cross_label_box(label, right=not across, up=True)
        c.drawString(cx + x, cy + base, label)


def _draw_margin_notes(c: Canvas, board: Board, tiling: Tiling, tile: Tile) -> None:
    """The tile's name and how to assemble it (top and bottom margins), a scale bar, and the
    name of the tile this one lies over at its left and top edges."""
    sw, sh = tiling.sheet_mm
    ox, oy = tiling.origin_mm()
    count = len(tiling.tiles)
    if count == 1:
        title = words.BOARD_ONE_SHEET(board=board.name)
        how = words.BOARD_ONE_SHEET_HOW(bar=number(SCALE_BAR_MM))
    else:
        rows = words.BOARD_ROWS(n=tiling.rows) if tiling.rows > 1 else words.BOARD_ONE_ROW()
        cols = words.BOARD_COLUMNS(n=tiling.cols) if tiling.cols > 1 else words.BOARD_ONE_COLUMN()
        title = words.BOARD_TILE(board=board.name, tile=tile.label, n=tiling.tiles.index(tile) + 1, count=count, rows=rows, cols=cols)
        how = words.BOARD_TILES_HOW(bar=number(SCALE_BAR_MM), overlap=number(tiling.overlap_mm))
    left, right = (ox + NOTE_INDENT_MM) * mm, (sw - ox - NOTE_INDENT_MM) * mm
    top, bottom = (sh - oy) * mm, oy * mm
    c.setFillColor(black)
    note(c, left, top + 4 * mm, title, 10, style="bold")
    c.setLineWidth(0.6)  # scale bar, top right
    bar_y = top + 5 * mm
    c.line(right - SCALE_BAR_MM * mm, bar_y, right, bar_y)
    for x in (right - SCALE_BAR_MM * mm, right):
        c.line(x, bar_y - 1 * mm, x, bar_y + 1 * mm)
    c.setFont("Lato", 6.5)
    c.drawRightString(right - (SCALE_BAR_MM + 2) * mm, bar_y - 0.8 * mm, f"{SCALE_BAR_MM:g} mm")
    for n, line in enumerate(simpleSplit(how, "Lato", 6.5, right - left)):
        note(c, left, bottom - (3.5 + 2.8 * n) * mm, line, 6.5)
    c.setFont("Lato-Bold", 7)
    west, north = tiling.tile(tile.row, tile.col - 1), tiling.tile(tile.row - 1, tile.col)
    if west is not None:  # rotated to read along the left edge
        c.saveState()
        c.translate((ox - 8) * mm, sh / 2 * mm)
        c.rotate(90)
        note(c, 0, 0, words.BOARD_LAY_OVER(tile=tile.label, other=west.label), 7, align="center", style="bold")
        c.restoreState()
    if north is not None:
        note(c, sw / 2 * mm, (sh - oy + 8) * mm, words.BOARD_LAY_OVER(tile=tile.label, other=north.label), 7, align="center", style="bold")

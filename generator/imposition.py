"""Imposition: where cards sit on a sheet, where the crop marks go, and where each back lands.

Pure geometry in millimetres, measured from the sheet's top-left corner with y downward; nothing
here draws.  Conventions (``shared/notes/print-and-engines.md``): cards abut in a centred grid
(shared cut lines), bleed only on the grid's outer edges, crop marks in the margin aligned with
every card edge and running to the sheet's edge, and for duplex printing the back sheet mirrors
the column order (flip on the long edge) or the row order (flip on the short edge).
"""
from __future__ import annotations

from dataclasses import dataclass
from math import floor

#: Paper sizes in mm (ISO 216 and US Letter).
PAPERS: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
}

#: Gap between the bleed and the start of a crop mark, mm.
MARK_GAP_MM = 1.0
DUPLEX_EDGES = ("long", "short", "none")


class ImpositionError(ValueError):
    """The cards do not fit the paper (raised with the sizes involved)."""


@dataclass(frozen=True)
class Slot:
    """One card position: trim top-left ``(x_mm, y_mm)`` on the sheet, and bleed per side in mm
    (left, right, top, bottom): the bleed is only on sides on the grid's outer edge."""

    row: int
    col: int
    x_mm: float
    y_mm: float
    bleed_mm: tuple[float, float, float, float]


@dataclass(frozen=True)
class Grid:
    """A sheet's grid of card slots, in reading order (left to right, top to bottom)."""

    paper: str
    sheet_mm: tuple[float, float]
    card_mm: tuple[float, float]
    cols: int
    rows: int
    slots: tuple[Slot, ...]
    bleed_mm: float

    @property
    def per_sheet(self) -> int:
        """Cards per sheet."""
        return self.cols * self.rows

    @property
    def origin_mm(self) -> tuple[float, float]:
        """Top-left corner of the grid's trim, mm."""
        return self.slots[0].x_mm, self.slots[0].y_mm

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """The x positions of every vertical card edge and the y positions of every horizontal
        one, mm: where the crop marks go."""
        x0, y0 = self.origin_mm
        w, h = self.card_mm
        return [x0 + i * w for i in range(self.cols + 1)], [y0 + j * h for j in range(self.rows + 1)]

    def crop_marks(self) -> list[tuple[float, float, float, float]]:
        """Crop mark segments ``(x1, y1, x2, y2)`` in mm: outside the grid (beyond its bleed and
        a small gap), from the grid's edge out to the sheet's edge, one per card edge and side."""
        xs, ys = self.cut_lines()
        sw, sh = self.sheet_mm
        left, top = xs[0] - self.bleed_mm - MARK_GAP_MM, ys[0] - self.bleed_mm - MARK_GAP_MM
        right, bottom = xs[-1] + self.bleed_mm + MARK_GAP_MM, ys[-1] + self.bleed_mm + MARK_GAP_MM
        marks = []
        for x in xs:
            marks.append((x, 0.0, x, top))
            marks.append((x, bottom, x, sh))
        for y in ys:
            marks.append((0.0, y, left, y))
            marks.append((right, y, sw, y))
        return marks

    def back_slot(self, index: int, duplex: str) -> Slot:
        """The slot on the back sheet that lies behind front slot ``index`` when the sheet is
        flipped on its ``duplex`` edge ('long': columns mirrored; 'short': rows mirrored).

        Raises:
            ValueError: for an unknown duplex edge.
        """
        s = self.slots[index]
        if duplex == "long":
            row, col = s.row, self.cols - 1 - s.col
        elif duplex == "short":
            row, col = self.rows - 1 - s.row, s.col
        else:
            raise ValueError(f"duplex must be 'long' or 'short' for backs, not {duplex!r}")
        return self.slots[row * self.cols + col]


def grid(paper: str, card_mm: tuple[float, float], bleed_mm: float = 3.0, min_margin_mm: float = 4.0) -> Grid:
    """The largest abutting grid of ``card_mm`` (width, height) cards centred on ``paper``.

    Args:
        paper: a key of :data:`PAPERS`.
        card_mm: trim size of one card, mm.
        bleed_mm: bleed on the outer edges, mm.
        min_margin_mm: room left for the bleed and crop marks on every side, mm.

    Raises:
        ImpositionError: unknown paper, or not even one card fits with its margin.
    """
    if paper not in PAPERS:
        raise ImpositionError(f"unknown paper '{paper}' (expected one of: {', '.join(PAPERS)})")
    sw, sh = PAPERS[paper]
    w, h = card_mm
    room = 2 * max(min_margin_mm, bleed_mm + MARK_GAP_MM)
    cols, rows = floor((sw - room) / w), floor((sh - room) / h)
    if cols < 1 or rows < 1:
        raise ImpositionError(f"a {w} x {h} mm card does not fit on {paper} ({sw} x {sh} mm) with {room / 2} mm margins")
    x0, y0 = (sw - cols * w) / 2, (sh - rows * h) / 2
    slots = []
    for r in range(rows):
        for c in range(cols):
            bleed = (bleed_mm if c == 0 else 0.0, bleed_mm if c == cols - 1 else 0.0,
                     bleed_mm if r == 0 else 0.0, bleed_mm if r == rows - 1 else 0.0)
            slots.append(Slot(r, c, x0 + c * w, y0 + r * h, bleed))
    return Grid(paper, (sw, sh), (w, h), cols, rows, tuple(slots), bleed_mm)

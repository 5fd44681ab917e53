"""Imposition: where cards sit on a sheet, where the crop marks go, and where each back lands.

Pure geometry in millimetres, measured from the sheet's top-left corner with y downward; nothing
here draws.  Conventions (``docs/print-conventions.md``): cards abut in a centred grid
(shared cut lines), bleed only on the grid's outer edges, crop marks in the margin aligned with
every card edge and running to the sheet's edge, and for duplex printing the back sheet mirrors
the column order (flip on the long edge) or the row order (flip on the short edge).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import floor

from deckpress.generator.content.safetext import excerpt

#: Paper sizes in mm (ISO 216 and US Letter).
PAPERS: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
}

#: Gap between the bleed and the start of a crop mark, mm.
MARK_GAP_MM = 1.0
#: Shortest crop mark drawn inside a printer's printable area (``printer_margin_mm``), mm.
MIN_MARK_MM = 3.0
#: Custom paper sizes deckpress accepts, mm (a business card to a large-format sheet).
CUSTOM_PAPER_MM = (50.0, 2000.0)
_UNITS_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4}
#: How backs are printed: on the back of the sheet flipped on its long or short edge; beside
#: their faces with a fold line (``fold``, for printers without duplex); or ``none``: no backs,
#: except for cards whose backs differ, which are then printed as ``fold``.
DUPLEX_EDGES = ("long", "short", "fold", "none")


class ImpositionError(ValueError):
    """The cards do not fit the paper (raised with the sizes involved)."""


def paper_size(paper: str) -> tuple[float, float]:
    """The (width, height) in mm of ``paper``: a key of :data:`PAPERS`, or a custom size written
    ``WxH`` with a unit (``300x450mm``, ``8.5x14in``, ``30x45cm``; portrait or landscape as given).

    Raises:
        ImpositionError: an unknown name, a size not written so, or a side outside
            :data:`CUSTOM_PAPER_MM`.
    """
    key = paper.strip().lower()
    if key in PAPERS:
        return PAPERS[key]
    unit = next((u for u in _UNITS_MM if key.endswith(u)), None)
    try:
        w, h = (float(v) * _UNITS_MM[unit] for v in key[:-len(unit)].split("x")) if unit else (None, None)
    except ValueError:
        w = h = None
    if w is None or h is None:
        raise ImpositionError(f"unknown paper '{excerpt(paper)}' (expected one of: {', '.join(PAPERS)}, or a size such as 300x450mm or 8.5x14in)")
    low, high = CUSTOM_PAPER_MM
    if not (low <= w <= high and low <= h <= high):
        raise ImpositionError(f"paper '{paper}' is {w:g} x {h:g} mm: each side must be {low:g} to {high:g} mm")
    return (round(w, 3), round(h, 3))


@dataclass(frozen=True)
class Slot:
    """One card position: trim top-left ``(x_mm, y_mm)`` on the sheet, and bleed per side in mm
    (left, right, top, bottom): the bleed is only on sides on the grid's outer edge."""

    row: int
    col: int
    x_mm: float
    y_mm: float
    bleed_mm: tuple[float, float, float, float]


class _CutSheet:
    """What a sheet of cards has whatever its arrangement, from its :meth:`cut_lines`: the boxes
    prepress tools read and the crop marks (the subclass gives ``sheet_mm``, ``bleed_mm`` and
    ``printer_margin_mm``)."""

    sheet_mm: tuple[float, float]
    bleed_mm: float
    printer_margin_mm: float

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """The x and the y of every cut, mm from the sheet's top-left corner: given by the subclass."""
        raise NotImplementedError

    def _cuts(self) -> tuple[list[float], list[float]]:
        """:meth:`cut_lines`, worked out once per sheet (the sheet is frozen; every sheet of a
        deck asks for its boxes, marks and label room); read, never changed."""
        found = self.__dict__.get("_cut_lines")
        if found is None:
            found = self.cut_lines()
            object.__setattr__(self, "_cut_lines", found)
        return found

    def trim_box_mm(self) -> tuple[float, float, float, float]:
        """Every card's trim: ``(left, top, right, bottom)`` in mm from the sheet's top-left
        corner (a sheet's TrimBox)."""
        xs, ys = self._cuts()
        return xs[0], ys[0], xs[-1], ys[-1]

    def bleed_box_mm(self) -> tuple[float, float, float, float]:
        """The trim box with the outer bleed (a sheet's BleedBox and ArtBox)."""
        left, top, right, bottom = self.trim_box_mm()
        b = self.bleed_mm
        return left - b, top - b, right + b, bottom + b

    def bleed_ticks(self) -> list[tuple[float, float, float, float]]:
        """Short marks across the outer bleed at every cut line, ``(x1, y1, x2, y2)`` in mm: the
        bleed is cut away, so they cost no art, and they stay findable where a printer leaves its
        outer millimetres blank and the margin marks with them (as home printers do on Letter paper)."""
        xs, ys = self._cuts()
        b = self.bleed_mm
        ticks = []
        for x in xs:
            ticks += [(x, ys[0] - b, x, ys[0]), (x, ys[-1], x, ys[-1] + b)]
        for y in ys:
            ticks += [(xs[0] - b, y, xs[0], y), (xs[-1], y, xs[-1] + b, y)]
        return ticks

    def crop_marks(self) -> list[tuple[float, float, float, float]]:
        """Crop mark segments ``(x1, y1, x2, y2)`` in mm, one per cut line and side: outside the
        cards (beyond their bleed and a small gap), out to the printer's margin (the sheet's
        edge when it is 0)."""
        xs, ys = self._cuts()
        sw, sh = self.sheet_mm
        m, reach = self.printer_margin_mm, self.bleed_mm + MARK_GAP_MM
        marks = []
        for x in xs:
            marks += [(x, m, x, ys[0] - reach), (x, ys[-1] + reach, x, sh - m)]
        for y in ys:
            marks += [(m, y, xs[0] - reach, y), (xs[-1] + reach, y, sw - m, y)]
        return marks


@dataclass(frozen=True)
class Grid(_CutSheet):
    """A sheet's grid of card slots, in reading order (left to right, top to bottom)."""

    paper: str
    sheet_mm: tuple[float, float]
    card_mm: tuple[float, float]
    cols: int
    rows: int
    slots: tuple[Slot, ...]
    bleed_mm: float
    gap_mm: float = 0.0
    printer_margin_mm: float = 0.0

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
        one, mm: where the crop marks go (two per gap between cards when there is a gap)."""
        x0, y0 = self.origin_mm
        w, h = self.card_mm
        g = self.gap_mm
        xs = sorted({round(x0 + i * (w + g) + d, 6) for i in range(self.cols) for d in (0.0, w)})
        ys = sorted({round(y0 + j * (h + g) + d, 6) for j in range(self.rows) for d in (0.0, h)})
        return xs, ys

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


@lru_cache(maxsize=64, typed=True)  # typed: (63, 88) and (63.0, 88.0) give grids that print alike
def grid(paper: str, card_mm: tuple[float, float], bleed_mm: float = 3.0, min_margin_mm: float = 4.0,
         gap_mm: float = 0.0, printer_margin_mm: float = 0.0, cards: int | None = None) -> Grid:
    """The largest grid of ``card_mm`` (width, height) cards centred on ``paper`` (the same
    frozen :class:`Grid` for the same arguments: a deck asks for its sheet's grid on every sheet).

    Args:
        paper: a key of :data:`PAPERS` or a custom size (see :func:`paper_size`).
        card_mm: trim size of one card, mm.
        bleed_mm: bleed on the grid's outer edges, mm.
        min_margin_mm: room left for the bleed and crop marks on every side, mm.
        gap_mm: space between neighbouring cards, mm (0: cards abut and share their cuts).  With
            a gap each card has its own bleed, up to half the gap, on its inner sides: a
            guillotine's tolerance.
        printer_margin_mm: the edge a home printer cannot print on, mm: crop marks stop there,
            and the grid leaves at least :data:`MIN_MARK_MM` of every mark inside it.
        cards: how many cards this sheet holds, when fewer than fit: the grid shrinks to the
            columns and rows they need (centred), in the shape with the fewest empty cells, so
            that no cut line serves only empty cells.

    Raises:
        ImpositionError: unknown paper, or not even one card fits with its margin.
    """
    sw, sh = paper_size(paper)
    w, h = card_mm
    edge = bleed_mm + MARK_GAP_MM + (printer_margin_mm + MIN_MARK_MM if printer_margin_mm > 0 else 0.0)
    room = 2 * max(min_margin_mm, edge)
    cols, rows = floor((sw - room + gap_mm) / (w + gap_mm)), floor((sh - room + gap_mm) / (h + gap_mm))
    if cols < 1 or rows < 1:
        raise ImpositionError(f"a {w:g} x {h:g} mm card does not fit on {paper} ({sw:g} x {sh:g} mm) with {room / 2:g} mm margins")
    if cards is not None and 0 < cards < cols * rows:
        # the shape with the fewest empty cells, then the widest: 6 cards on a 4 x 2 sheet go 3 x 2
        cols, rows = min(((c, -(-cards // c)) for c in range(1, cols + 1) if -(-cards // c) <= rows),
                         key=lambda shape: (shape[0] * shape[1] - cards, -shape[0]))
    x0, y0 = (sw - cols * w - (cols - 1) * gap_mm) / 2, (sh - rows * h - (rows - 1) * gap_mm) / 2
    inner = min(bleed_mm, gap_mm / 2)
    slots = []
    for r in range(rows):
        for c in range(cols):
            bleed = (bleed_mm if c == 0 else inner, bleed_mm if c == cols - 1 else inner,
                     bleed_mm if r == 0 else inner, bleed_mm if r == rows - 1 else inner)
            slots.append(Slot(r, c, x0 + c * (w + gap_mm), y0 + r * (h + gap_mm), bleed))
    return Grid(paper, (sw, sh), (w, h), cols, rows, tuple(slots), bleed_mm, gap_mm, printer_margin_mm)


@dataclass(frozen=True)
class FoldGrid(_CutSheet):
    """A fold-over (gutterfold) sheet: faces on the left half, each back on the right half at the
    mirror image of its face's place across the vertical fold line, so that folding the sheet
    along the line puts every back behind its face, upright; glue, then cut along the marks.

    ``faces[i]`` and ``backs[i]`` are the slots of one card; each face's trim ends one bleed
    before the fold line, so face and back bleed meet at the fold."""

    paper: str
    sheet_mm: tuple[float, float]
    card_mm: tuple[float, float]
    cols: int
    rows: int
    faces: tuple[Slot, ...]
    backs: tuple[Slot, ...]
    bleed_mm: float
    fold_x_mm: float
    printer_margin_mm: float = 0.0

    @property
    def per_sheet(self) -> int:
        """Cards per sheet (each face with its back)."""
        return self.cols * self.rows

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """x of every vertical card edge (both halves) and y of every horizontal one, mm."""
        w, h = self.card_mm
        xs = sorted({round(s.x_mm + d, 6) for s in self.faces + self.backs for d in (0.0, w)})
        ys = sorted({round(s.y_mm + d, 6) for s in self.faces for d in (0.0, h)})
        return xs, ys


def fold_grid(paper: str, card_mm: tuple[float, float], bleed_mm: float = 3.0, min_margin_mm: float = 4.0,
              printer_margin_mm: float = 0.0) -> FoldGrid:
    """The fold-over sheet holding the most cards of ``card_mm`` on ``paper``, portrait or
    landscape (portrait on a tie); margins as :func:`grid`.

    Raises:
        ImpositionError: not even one card with its back fits.
    """
    pw, ph = paper_size(paper)
    w, h = card_mm
    edge = bleed_mm + MARK_GAP_MM + (printer_margin_mm + MIN_MARK_MM if printer_margin_mm > 0 else 0.0)
    room = max(min_margin_mm, edge)
    best = None
    for sw, sh in ((pw, ph), (ph, pw)):
        cols, rows = floor((sw / 2 - bleed_mm - room) / w), floor((sh - 2 * room) / h)
        if cols >= 1 and rows >= 1 and (best is None or cols * rows > best[2] * best[3]):
            best = (sw, sh, cols, rows)
    if best is None:
        raise ImpositionError(f"a {w:g} x {h:g} mm card and its back do not fit side by side on {paper} ({pw:g} x {ph:g} mm)")
    sw, sh, cols, rows = best
    fold = sw / 2
    y0 = (sh - rows * h) / 2
    faces, backs = [], []
    for r in range(rows):
        for c in range(cols):
            x = fold - bleed_mm - (cols - c) * w
            top, bottom = bleed_mm if r == 0 else 0.0, bleed_mm if r == rows - 1 else 0.0
            outer, inner = (bleed_mm if c == 0 else 0.0), (bleed_mm if c == cols - 1 else 0.0)
            faces.append(Slot(r, c, x, y0 + r * h, (outer, inner, top, bottom)))
            backs.append(Slot(r, 2 * cols - 1 - c, sw - x - w, y0 + r * h, (inner, outer, top, bottom)))
    return FoldGrid(paper, (sw, sh), (w, h), cols, rows, tuple(faces), tuple(backs), bleed_mm, fold, printer_margin_mm)


#: How close a card's trim must be to a sheet template's card to print into its slots, mm.
TEMPLATE_FIT_MM = 0.01


@dataclass(frozen=True)
class SheetTemplate:
    """A sheet template as read from its file (``schemas/sheet.schema.json``): pre-cut or
    perforated stock.  ``places_mm`` are the slots' trim top-left corners in mm from the sheet's
    top-left, in the order cards fill them; ``bleed_mm`` the art past each trim (at most half
    the way to the next slot, see :func:`template_sheet`); ``source`` the file, for messages."""

    name: str
    paper: str
    sheet_mm: tuple[float, float]
    card_mm: tuple[float, float]
    places_mm: tuple[tuple[float, float], ...]
    bleed_mm: float = 0.0
    crop_marks: bool = False
    source: str = ""

    def fits(self, card_mm: tuple[float, float]) -> bool:
        """Whether cards of trim ``card_mm`` (width, height) print into the slots (within
        :data:`TEMPLATE_FIT_MM`)."""
        return all(abs(a - b) <= TEMPLATE_FIT_MM for a, b in zip(card_mm, self.card_mm))


@dataclass(frozen=True)
class TemplateSheet(_CutSheet):
    """A sheet laid out by a :class:`SheetTemplate`: its slots where the template puts them."""

    paper: str
    sheet_mm: tuple[float, float]
    card_mm: tuple[float, float]
    slots: tuple[Slot, ...]
    bleed_mm: float
    printer_margin_mm: float = 0.0

    @property
    def per_sheet(self) -> int:
        """Cards per sheet."""
        return len(self.slots)

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """x of every vertical card edge and y of every horizontal one, mm."""
        w, h = self.card_mm
        xs = sorted({round(s.x_mm + d, 6) for s in self.slots for d in (0.0, w)})
        ys = sorted({round(s.y_mm + d, 6) for s in self.slots for d in (0.0, h)})
        return xs, ys

    def back_slot(self, index: int, duplex: str) -> Slot:
        """Where the back of slot ``index`` prints: the slot's mirror image across the sheet's
        vertical centre line (flipped on the long edge) or its horizontal one (short edge), which
        is behind it once the sheet is turned over, whether or not the template has a slot there.

        Raises:
            ValueError: for an unknown duplex edge.
        """
        s = self.slots[index]
        (sw, sh), (w, h) = self.sheet_mm, self.card_mm
        left, right, top, bottom = s.bleed_mm
        if duplex == "long":
            return Slot(s.row, s.col, sw - s.x_mm - w, s.y_mm, (right, left, top, bottom))
        if duplex == "short":
            return Slot(s.row, s.col, s.x_mm, sh - s.y_mm - h, (left, right, bottom, top))
        raise ValueError(f"duplex must be 'long' or 'short' for backs, not {duplex!r}")


def template_sheet(template: SheetTemplate, printer_margin_mm: float = 0.0) -> TemplateSheet:
    """The sheet of ``template``: a slot per place, numbered by row and column (the ranks of its
    distinct y and x), each side's bleed the template's, or half the gap to the nearest slot on
    that side when that is less (0 where slots abut)."""
    w, h = template.card_mm
    places = template.places_mm
    cols = sorted({x for x, _ in places})
    rows = sorted({y for _, y in places})

    def room(x: float, y: float, side: str) -> float:
        gaps = [template.bleed_mm * 2]
        for ox, oy in places:
            across, down = oy < y + h and y < oy + h, ox < x + w and x < ox + w
            if side == "left" and across and ox + w <= x:
                gaps.append(x - ox - w)
            elif side == "right" and across and ox >= x + w:
                gaps.append(ox - x - w)
            elif side == "top" and down and oy + h <= y:
                gaps.append(y - oy - h)
            elif side == "bottom" and down and oy >= y + h:
                gaps.append(oy - y - h)
        return min(gaps) / 2

    slots = tuple(Slot(rows.index(y), cols.index(x), x, y, (room(x, y, "left"), room(x, y, "right"), room(x, y, "top"), room(x, y, "bottom")))
                  for x, y in places)
    return TemplateSheet(template.paper, template.sheet_mm, template.card_mm, slots, template.bleed_mm, printer_margin_mm)

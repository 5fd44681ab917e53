"""The duplex calibration sheet (``deckpress calibrate``): printed double-sided, it shows how far
a printer shifts the back of a page against its front, as the ``--back-offset`` to build with.

The back has a cross through the page's centre: a vertical line and a horizontal line, 120 mm
long.  Flipping on either edge maps the centre onto itself, so a perfect printer puts that cross
exactly on the zeros of two scales printed on the front.  Held against a light with the front
towards you, the back's lines show through: where the vertical line crosses the horizontal scale
is X, where the horizontal line crosses the vertical scale is Y, in mm, to the right and down as
seen from the face side: the numbers ``--back-offset X,Y`` takes, the same for either duplex edge
(:func:`deckpress.generator.render.kit.back_shift_mm` turns them into the back sheets'
correction).  Ticks every 0.5 mm (longer every mm), numbers every 5 mm, over +-10 mm.

The title sits above the scales and the instructions below them, wrapped to the paper's width;
a paper too small for them (or for the cross to reach the scales) is refused with the size needed.
"""
from __future__ import annotations

import io
from math import ceil

from reportlab.lib.colors import black
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from deckpress.generator.kit.imposition import ImpositionError, paper_size
from deckpress.generator.render import fonts

#: Half the length of the front's cross lines, mm.
CROSS_MM = 60.0
#: The scales' reach either side of zero, and their step, mm.
SCALE_MM, STEP_MM = 10.0, 0.5
#: Where the scales sit: this far from the centre along the line they measure, mm.
SCALE_OFFSET_MM = 30.0
LINE_PT = 0.25
#: The text's margin, the title's baseline from the top, the instructions' first baseline below
#: the centre and their line step, mm; the instructions' size, pt.
MARGIN_MM, TITLE_MM, BODY_BELOW_MM, LINE_MM, BODY_PT = 12.0, 20.0, 20.0, 4.2, 8
#: The room the scales and their labels take: across, from the centre to the right-hand scale's
#: label's end; up, from the centre to the top of the upper scale's label, mm.
SCALES_RIGHT_MM, SCALES_UP_MM = 60.0, 43.0


def calibration_pdf(paper: str, duplex: str) -> bytes:
    """The two-page calibration sheet for ``paper`` (see :func:`deckpress.generator.kit.imposition.paper_size`)
    and the ``duplex`` edge ('long' or 'short') the kit will be printed with.

    Raises:
        ImpositionError: an unknown paper.
        ValueError: ``duplex`` is not 'long' or 'short'.
    """
    if duplex not in ("long", "short"):
        raise ValueError(f"a calibration sheet is for duplex printing: 'long' or 'short', not {duplex!r}")
    fonts.register()
    w, h = paper_size(paper)
    body = [f"Print this sheet double-sided at 100 % (actual size), flipping on the {duplex} edge, as you will print the kit.",
            "Hold the printed sheet against a light with this side towards you: the back's cross shows through.",
            "Its vertical line crosses the upper scale at X; its horizontal line crosses the right-hand scale at Y (mm).",
            "Build with --back-offset X,Y (for example --back-offset 0.5,-1). Both read 0: your printer needs no offset."]
    lines = [piece for line in body for piece in simpleSplit(line, "Lato", BODY_PT, (w - 2 * MARGIN_MM) * mm)]
    need_w = 2 * SCALES_RIGHT_MM
    need_h = ceil(max(2 * (TITLE_MM + SCALES_UP_MM + 3), 2 * (BODY_BELOW_MM + LINE_MM * (len(lines) - 1) + MARGIN_MM)))
    if w < need_w or h < need_h:
        raise ImpositionError(f"a calibration sheet does not fit on {w:g} x {h:g} mm paper: its scales and instructions need at "
                              f"least {need_w:g} x {need_h:g} mm (A5, 148 x 210 mm, or larger)")
    cross = min(CROSS_MM, w / 2 - 5, h / 2 - 5)  # it still reaches past the scales: they need 40 mm
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(w * mm, h * mm), invariant=1, initialFontName="Lato", initialFontSize=10)
    c.setTitle("deckpress duplex calibration")
    c.setCreator("deckpress")
    c.setAuthor("deckpress")
    cx, cy = w / 2, h / 2
    _text(c, h, "deckpress duplex calibration: front", lines, cy + BODY_BELOW_MM)
    _scale(c, h, (cx, cy - SCALE_OFFSET_MM), horizontal=True)
    _scale(c, h, (cx + SCALE_OFFSET_MM, cy), horizontal=False)
    c.setFont("Lato", 7)
    c.drawCentredString(cx * mm, (h - cy + SCALE_OFFSET_MM + 10) * mm, "X (mm, + right)")
    c.drawString((cx + SCALE_OFFSET_MM + 10) * mm, (h - cy - 0.7) * mm, "Y (mm, + down)")
    c.showPage()
    _text(c, h, "deckpress duplex calibration: back", ["Read the scales on the front, with the front towards you."], TITLE_MM + 8)
    c.setStrokeColor(black)
    c.setLineWidth(LINE_PT)
    c.line(cx * mm, (h - cy - cross) * mm, cx * mm, (h - cy + cross) * mm)
    c.line((cx - cross) * mm, (h - cy) * mm, (cx + cross) * mm, (h - cy) * mm)
    c.showPage()
    c.save()
    return buf.getvalue()


def _scale(c: Canvas, h: float, zero: tuple[float, float], horizontal: bool) -> None:
    """A ruler whose zero is at ``zero`` (mm from the top-left): ticks every 0.5 mm over +-10 mm,
    longer every mm, longest and numbered every 5 mm; values grow to the right (horizontal) or
    downward (vertical)."""
    zx, zy = zero
    c.setStrokeColor(black)
    c.setLineWidth(LINE_PT)
    c.setFont("Lato", 6)
    steps = int(SCALE_MM / STEP_MM)
    for k in range(-steps, steps + 1):
        d = k * STEP_MM
        numbered = k % 10 == 0
        length = 6.0 if numbered else 4.0 if k % 2 == 0 else 2.5
        if horizontal:
            x = zx + d
            c.line(x * mm, (h - zy) * mm, x * mm, (h - zy + length) * mm)
            if numbered:
                c.drawCentredString(x * mm, (h - zy + length + 1) * mm, f"{d:+g}" if d else "0")
        else:
            y = zy + d
            c.line(zx * mm, (h - y) * mm, (zx + length) * mm, (h - y) * mm)
            if numbered:
                c.drawString((zx + length + 1) * mm, (h - y - 0.7) * mm, f"{d:+g}" if d else "0")


def _text(c: Canvas, h: float, title: str, lines: list[str], first_mm: float) -> None:
    """``title`` at the top, ``lines`` from ``first_mm`` below the top down (mm), one under another."""
    c.setFillColor(black)
    c.setFont("Lato", 11)
    c.drawString(MARGIN_MM * mm, (h - TITLE_MM) * mm, title)
    c.setFont("Lato", BODY_PT)
    for i, line in enumerate(lines):
        c.drawString(MARGIN_MM * mm, (h - first_mm - LINE_MM * i) * mm, line)

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
"""
from __future__ import annotations

import io

from reportlab.lib.colors import black
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from deckpress.generator.imposition import paper_size
from deckpress.generator.render import fonts

#: Half the length of the front's cross lines, mm.
CROSS_MM = 60.0
#: The scales' reach either side of zero, and their step, mm.
SCALE_MM, STEP_MM = 10.0, 0.5
#: Where the scales sit: this far from the centre along the line they measure, mm.
SCALE_OFFSET_MM = 30.0
LINE_PT = 0.25


def calibration_pdf(paper: str, duplex: str) -> bytes:
    """The two-page calibration sheet for ``paper`` (see :func:`deckpress.generator.imposition.paper_size`)
    and the ``duplex`` edge ('long' or 'short') the kit will be printed with.

    Raises:
        ImpositionError: an unknown paper.
        ValueError: ``duplex`` is not 'long' or 'short'.
    """
    if duplex not in ("long", "short"):
        raise ValueError(f"a calibration sheet is for duplex printing: 'long' or 'short', not {duplex!r}")
    fonts.register()
    w, h = paper_size(paper)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(w * mm, h * mm), invariant=1, initialFontName="Lato", initialFontSize=10)
    c.setTitle("deckpress duplex calibration")
    c.setCreator("deckpress")
    c.setAuthor("deckpress")
    cx, cy = w / 2, h / 2
    _text(c, w, h, [
        "deckpress duplex calibration: front",
        f"Print this sheet double-sided at 100 % (actual size), flipping on the {duplex} edge, as you will print the kit.",
        "Hold the printed sheet against a light with this side towards you: the back's cross shows through.",
        "Its vertical line crosses the upper scale at X; its horizontal line crosses the right-hand scale at Y (mm).",
        "Build with --back-offset X,Y (for example --back-offset 0.5,-1). Both read 0: your printer needs no offset.",
    ])
    _scale(c, h, (cx, cy - SCALE_OFFSET_MM), horizontal=True)
    _scale(c, h, (cx + SCALE_OFFSET_MM, cy), horizontal=False)
    c.setFont("Lato", 7)
    c.drawCentredString(cx * mm, (h - cy + SCALE_OFFSET_MM + 10) * mm, "X (mm, + right)")
    c.drawString((cx + SCALE_OFFSET_MM + 10) * mm, (h - cy - 0.7) * mm, "Y (mm, + down)")
    c.showPage()
    _text(c, w, h, ["deckpress duplex calibration: back", "Read the scales on the front, with the front towards you."])
    c.setStrokeColor(black)
    c.setLineWidth(LINE_PT)
    c.line(cx * mm, (h - cy - CROSS_MM) * mm, cx * mm, (h - cy + CROSS_MM) * mm)
    c.line((cx - CROSS_MM) * mm, (h - cy) * mm, (cx + CROSS_MM) * mm, (h - cy) * mm)
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


def _text(c: Canvas, w: float, h: float, lines: list[str]) -> None:
    c.setFillColor(black)
    c.setFont("Lato", 11)
    c.drawString(15 * mm, (h - 20) * mm, lines[0])
    c.setFont("Lato", 8)
    for i, line in enumerate(lines[1:]):
        c.drawString(15 * mm, (h - 28 - 5 * i) * mm, line)

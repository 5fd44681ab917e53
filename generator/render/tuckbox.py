"""Tuck boxes (``deckpress build --tuck-boxes``): a box for each deck, sized to its cards, on a
sheet of its own after the decks: cut along the solid line, fold along the dashed ones, glue the
side flap and the bottom, and tuck the lid in.

The net is the classic one-piece tuck box of playing-card decks (back, side, front, side and a
glue flap in a row; a lid with its tuck flap above the back, dust flaps on the sides, bottom flaps
below), as print-and-play kits and the box makers' templates draw it.  The box is
:data:`CLEARANCE_MM` larger than the cards each way, and as deep as the deck at
:data:`CARD_THICKNESS_MM` a card, twice that for cards glued from a fold-over sheet.  That
thickness is an estimate for a card printed at home on heavy paper (about 300 g/m²), not a
measured figure: no source at hand gave one; a box a little deep still closes.  Its front shows
the deck's back art (its first card's back), its back the deck's name, count and game.
"""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import Color, black
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from deckpress.generator.kit import words
from deckpress.generator.kit.imposition import ImpositionError, Slot, paper_size
from deckpress.generator.kit.printdata import Deck
from deckpress.generator.render import scripts
from deckpress.generator.render.fonts import Fonts

#: Room around the cards inside the box, each way, mm.
CLEARANCE_MM = 1.5
#: Thickness of one card, mm, and the least depth of a box (a box of a few cards still closes).
CARD_THICKNESS_MM, MIN_DEPTH_MM = 0.32, 5.0
#: The glue flap's width, the tuck flap's height (at most a third of the box's), and the thumb
#: notch's radius on the front's open edge, mm.
GLUE_MM, TUCK_MM, NOTCH_MM = 8.0, 15.0, 8.0
#: The least margin round the net on the sheet, mm.
MARGIN_MM = 8.0
FOLD_INK = Color(0.45, 0.45, 0.45)


@dataclass(frozen=True)
class TuckBox:
    """A box's inside: ``width``, ``height`` and ``depth`` in mm; its net's size follows."""

    width: float
    height: float
    depth: float

    @property
    def tuck(self) -> float:
        """The tuck flap's height above the lid, mm."""
        return min(TUCK_MM, self.height / 3)

    @property
    def net_mm(self) -> tuple[float, float]:
        """The flat net's width and height, mm: back, side, front, side and glue flap across; tuck
        flap, lid, body and bottom flaps down."""
        w, h, d = self.width, self.height, self.depth
        return 2 * w + 2 * d + GLUE_MM, self.tuck + 2 * d + h


def box_for(card_mm: tuple[float, float], cards: int, layers: int = 1) -> TuckBox:
    """The box for ``cards`` cards of trim ``card_mm`` (width, height mm), each ``layers`` sheets
    thick (2: glued from a fold-over sheet)."""
    w, h = card_mm
    return TuckBox(w + CLEARANCE_MM, h + CLEARANCE_MM, max(MIN_DEPTH_MM, cards * layers * CARD_THICKNESS_MM + CLEARANCE_MM))


def sheet_for(box: TuckBox, paper: str) -> tuple[float, float]:
    """The page the net prints on: ``paper`` as it is, or turned when only that fits (mm).

    Raises:
        ImpositionError: the net fits neither way, with the sizes.
    """
    pw, ph = paper_size(paper)
    nw, nh = box.net_mm
    for sheet in ((pw, ph), (ph, pw)):
        if nw + 2 * MARGIN_MM <= sheet[0] and nh + 2 * MARGIN_MM <= sheet[1]:
            return sheet
    raise ImpositionError(f"its tuck box ({box.width:g} x {box.height:g} x {box.depth:.1f} mm; the net {nw:.0f} x {nh:.0f} mm) "
                          f"does not fit on {paper} ({pw:g} x {ph:g} mm) either way: build with a larger --paper")


def draw_tuck_box(c: Canvas, box: TuckBox, sheet: tuple[float, float], deck: Deck, game_title: str, front_art, fonts: Fonts) -> None:
    """The net of ``box`` centred on a page of size ``sheet`` (mm), with its labels in the game's
    ``fonts``; ``front_art(slot)`` draws the deck's back art with its trim's top-left corner at the
    slot (a :class:`~deckpress.generator.kit.imposition.Slot`, mm on the page).  Ends the page."""
    w, h, d, t = box.width, box.height, box.depth, box.tuck
    nw, nh = box.net_mm
    ox, oy = (sheet[0] - nw) / 2, (sheet[1] - nh) / 2
    c.setPageSize((sheet[0] * mm, sheet[1] * mm))

    def at(x: float, y: float) -> tuple[float, float]:
        """Net mm (x right, y down from its top-left corner) as page points."""
        return (ox + x) * mm, (sheet[1] - oy - y) * mm

    body, bottom = t + d, t + d + h
    front_art(Slot(0, 0, ox + w + d + CLEARANCE_MM / 2, oy + body + CLEARANCE_MM / 2, (0.0, 0.0, 0.0, 0.0)))
    f, taper, r = 0.9 * d, 0.25 * d, min(5.0, t / 2)
    notch = min(NOTCH_MM, w / 4)
    path = c.beginPath()
    path.moveTo(*at(0, body))
    path.lineTo(*at(0, r))
    path.arcTo(*at(0, 0), *at(2 * r, 2 * r), startAng=180, extent=-90)  # the tuck flap's rounded corners
    path.lineTo(*at(w - r, 0))
    path.arcTo(*at(w - 2 * r, 0), *at(w, 2 * r), startAng=90, extent=-90)
    for x, y in ((w, body), (w + taper, body - f), (w + d, body - f), (w + d, body),  # first side's dust flap
                 (w + d + w / 2 - notch, body)):
        path.lineTo(*at(x, y))
    path.arcTo(*at(w + d + w / 2 - notch, body - notch), *at(w + d + w / 2 + notch, body + notch), startAng=180, extent=180)  # the thumb notch
    for x, y in ((2 * w + d, body), (2 * w + d, body - f), (2 * w + 2 * d - taper, body - f), (2 * w + 2 * d, body),
                 (2 * w + 2 * d + GLUE_MM, body + 3), (2 * w + 2 * d + GLUE_MM, bottom - 3), (2 * w + 2 * d, bottom),  # glue flap
                 (2 * w + 2 * d - taper, bottom + f), (2 * w + d, bottom + f), (2 * w + d, bottom),  # second side's dust flap
                 (2 * w + d - 2, bottom + d), (w + d + 2, bottom + d), (w + d, bottom),  # the front's bottom flap
                 (w + d, bottom + f), (w + taper, bottom + f), (w, bottom),  # first side's dust flap
                 (w, bottom + d), (0, bottom + d)):  # the back's bottom flap
        path.lineTo(*at(x, y))
    path.close()
    c.saveState()
    c.setStrokeColor(black)
    c.setLineWidth(0.5)
    c.drawPath(path, stroke=1, fill=0)
    c.setStrokeColor(FOLD_INK)
    c.setDash([2, 1.5])
    folds = [(x, body, x, bottom) for x in (w, w + d, 2 * w + d, 2 * w + 2 * d)]
    folds += [(0, t, w, t), (0, body, w, body), (w, body, w + d, body), (2 * w + d, body, 2 * w + 2 * d, body), (0, bottom, 2 * w + 2 * d, bottom)]
    for x1, y1, x2, y2 in folds:
        c.line(*at(x1, y1), *at(x2, y2))
    c.restoreState()
    c.setFillColor(black)
    bold, regular = fonts.chain("bold"), fonts.chain("regular")
    _label(c, at(w / 2, body + h * 0.4), deck.name, bold, 16, w - 6)
    _label(c, at(w / 2, body + h * 0.4 + 9), words.cards(len(deck.cards)), regular, 10, w - 6)
    _label(c, at(w / 2, body + h * 0.4 + 16), game_title, regular, 10, w - 6)
    _label(c, at(w / 2, t + d / 2 + 1.2), game_title, bold, min(9, d * 2), w - 6)  # the lid
    for x in (w + d / 2, 2 * w + 1.5 * d):  # the sides, read from below
        c.saveState()
        c.translate(*at(x, body + h / 2))
        c.rotate(90)
        _label(c, (0, -min(8, d * 2) * 0.35), deck.name, regular, min(8, d * 2), h - 6)
        c.restoreState()
    scripts.note(c, sheet[0] * mm / 2, 4 * mm, words.TUCK_BOX_HOW(deck=deck.name), 6, align="center")
    c.showPage()


def _label(c: Canvas, xy: tuple[float, float], text: str, chain: tuple[str, ...], size: float, room_mm: float) -> None:
    """``text`` centred at ``xy`` (pt), in the font ``chain`` at ``size`` pt or smaller to fit ``room_mm``."""
    size = min(size, room_mm * mm / max(1e-6, scripts.width(text, chain, 1.0)))
    scripts.draw(c, xy[0], xy[1], text, chain, size, "center")

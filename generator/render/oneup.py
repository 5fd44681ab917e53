"""One card per page: the form print services take (DriveThruCards' card PDFs) and the page each
per-card image is rasterised from, drawn by the same card drawing as the sheets
(:func:`deckpress.generator.render.kit.draw_card`), so the two can never drift apart.

Each page's MediaBox is the card's trim plus its bleed on every side; its TrimBox is the card's
trim and its BleedBox the whole page, so prepress tools find the cut (``pdfinfo -box``).  A print
service's template may be larger than the card (US poker 63.5 x 88.9 mm around deckpress's
63 x 88 mm): the card is then centred in the service's canvas and its bleed drawn out to fill
it, never scaled, so nothing of the card moves and only background lies beyond its trim.
"""
from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from deckpress.generator.content.errors import ContentErrors
from deckpress.generator.kit.imposition import Slot
from deckpress.generator.kit.printdata import Deck
from deckpress.generator.render.colour_space import CmykConversion
from deckpress.generator.render.elements import Painter
from deckpress.generator.render.fonts import SHIPPED, Fonts
from deckpress.generator.render.fonts import register as register_fonts
from deckpress.generator.render.icons import game_icons
from deckpress.generator.render.images import ImageSource
from deckpress.generator.render.kit import draw_card, layout_errors, summarise
from deckpress.generator.render.layout import CardLayout, compile_layout, same_back


@dataclass(frozen=True)
class Page:
    """One page of a one-up PDF: the deck kind, the card's id and name (its ``name``, ``title`` or
    ``code_name`` field, else its id), its copy number (1 for the first of identical cards), the side
    (``face`` or ``back``), the page size and the bleed around the trim (left, right, top,
    bottom), in mm."""

    kind: str
    card_id: str
    name: str
    copy: int
    side: str
    size_mm: tuple[float, float]
    bleed_mm: tuple[float, float, float, float]
    deck: int = 0  # the index of the card's deck among the decks drawn: TTS makes one deck of each


@dataclass(frozen=True)
class CardPage:
    """Where a card sits on its page, in mm: the page (width, height), the bleed on each side
    (left, right, top, bottom) around the card's trim, and the page's TrimBox (width, height,
    centred): the card's trim, or a print service's where its template is larger."""

    page_mm: tuple[float, float]
    bleed_mm: tuple[float, float, float, float]
    trim_box_mm: tuple[float, float]


#: How much smaller (mm, on a side's length) a print service's trim may be than the card it is
#: used for: services round their sizes (MakePlayingCards' editor to 1/100 in, 0.254 mm steps), so
#: a product named for the card's size can come out a hair smaller (MPC's "44 x 67 mm" is 43.94 mm
#: wide).  The cut then falls at most 0.05 mm inside the card's edge, far within a cutter's
#: tolerance (about 1 mm) and the cards' 3 mm safe area.
ROUNDING_MM = 0.1


def card_canvas(card: CardLayout, template_mm: tuple[tuple[float, float], float] | None = None) -> CardPage:
    """The page of one card: its trim plus its own bleed; or, with ``template_mm`` (a print
    service's trim and bleed per side, mm), the service's canvas with the card centred in it
    and the service's trim as the TrimBox.

    Raises:
        ValueError: the service's trim is smaller than the card's by more than
            :data:`ROUNDING_MM` (it would cut into the card).
    """
    w, h = card.trim_mm
    if template_mm is None:
        b = card.bleed_mm
        return CardPage((w + 2 * b, h + 2 * b), (b, b, b, b), (w, h))
    (tw, th), bleed = template_mm
    if tw < w - ROUNDING_MM or th < h - ROUNDING_MM:
        raise ValueError(f"a {tw:g} x {th:g} mm template is smaller than the {w:g} x {h:g} mm card")
    cw, ch = tw + 2 * bleed, th + 2 * bleed
    bx, by = (cw - w) / 2, (ch - h) / 2
    return CardPage((cw, ch), (bx, bx, by, by), (tw, th))


@dataclass(frozen=True)
class Guides:
    """Where a card's cut line and safe area lie on its one-up page (:func:`card_canvas`, the
    card's own trim and bleed), for proofing guides drawn over its image (as Squib's ``cut_zone``
    and ``safe_zone``): each box as its distances from the page's left, top, right and bottom
    edges, in percent of the page's width (left, right) or height (top, bottom).  ``round``: the
    card is cut round, and both boxes are squares holding the cut circle and the safe circle.
    The safe area is the one text is checked against (:meth:`~deckpress.generator.render.elements.Painter.beyond_safe`):
    ``safe_mm`` inside the cut, in the layout's mm, stretched with the card where it prints at
    another size."""

    cut: tuple[float, float, float, float]
    safe: tuple[float, float, float, float]
    round: bool


def guides_of(card: CardLayout) -> Guides:
    """The :class:`Guides` of ``card`` on its own one-up page."""
    page = card_canvas(card)
    (pw, ph), (left, right, top, bottom) = page.page_mm, page.bleed_mm
    w, h = card.trim_mm
    round_cut = card.shape == "circle"
    if round_cut:  # the circle inscribed in the trim, centred in it
        side = min(w, h)
        left, right, top, bottom = left + (w - side) / 2, right + (w - side) / 2, top + (h - side) / 2, bottom + (h - side) / 2
    sx, sy = card.scale
    inset_x, inset_y = card.safe_mm * sx, card.safe_mm * sy

    def box(l_mm: float, t_mm: float, r_mm: float, b_mm: float) -> tuple[float, float, float, float]:
        return round(100 * l_mm / pw, 3), round(100 * t_mm / ph, 3), round(100 * r_mm / pw, 3), round(100 * b_mm / ph, 3)

    return Guides(box(left, top, right, bottom), box(left + inset_x, top + inset_y, right + inset_x, bottom + inset_y), round_cut)


def one_up_pdf(layout_doc, decks: list[Deck], template_for: Callable[[tuple[float, float]], tuple[tuple[float, float], float] | None] | None = None,
               backs: bool = True, title: str = "deckpress", checked_images: frozenset[str] = frozenset(), locate=None,
               fonts: Fonts = SHIPPED, sizes: Mapping[str, tuple[float, float]] | None = None,
               cmyk: CmykConversion | None = None) -> tuple[bytes, list[Page]]:
    """Every card of ``decks`` on a page of its own, face then back (``backs``), card after card,
    copies numbered; ``template_for(trim_mm)`` gives a print service's (trim, bleed) for a card of
    that trim, or None for the card's own trim and bleed (see :func:`card_canvas`).  Returns the PDF bytes and
    the pages in order.  ``locate`` puts a card's layout errors at its own line
    (:func:`deckpress.generator.render.kit.summarise`); ``fonts`` are the game's font chains and
    ``sizes`` its card sizes (as :func:`deckpress.generator.render.kit.render_pdf`); ``cmyk`` the
    conversion to a print shop's press, or None for the design's RGB
    (:mod:`deckpress.generator.render.colour_space`).

    Raises:
        ContentErrors: a card that cannot be laid out (as :func:`deckpress.generator.render.kit.build_kit`).
    """
    register_fonts()
    layout = compile_layout(layout_doc, sizes=sizes)
    errors = layout_errors(layout, decks, None)
    if errors:
        raise ContentErrors(errors)
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1, initialFontName="Lato", initialFontSize=10, enforceColorSpace=cmyk.colour if cmyk else None)
    if cmyk:
        cmyk.mark(c)
    c.setTitle(title)
    c.setCreator("deckpress")
    c.setAuthor("deckpress")
    painter = Painter(c, layout.colour, open_image=ImageSource(layout_doc.path.parent, checked_images, cmyk), fonts=fonts,
                      icons=game_icons(layout_doc.path.parent))
    failures: dict[tuple, list[str]] = {}
    pages: list[Page] = []
    places: dict[str, CardPage] = {}
    for index, deck in enumerate(decks):
        seen: dict[str, int] = {}
        for fields in deck.cards:
            kind = deck.kind_of(fields)  # a card of a deck with a layout per card: its own, upright or sideways
            card = layout.cards[kind]
            if kind not in places:
                places[kind] = card_canvas(card, _turned(template_for, card.trim_mm) if template_for else None)
            place = places[kind]
            copy = seen[fields["id"]] = seen.get(fields["id"], 0) + 1
            upright = layout.cards[deck.kind]
            for side in ("face", "back") if backs else ("face",):
                if side == "back" and card.trim_mm != upright.trim_mm and same_back(card, upright):
                    # a sideways card with its deck's upright back: that back, turned onto the card's page
                    _page(c, painter, upright, side, fields, place, failures, sideways=-90)
                else:
                    _page(c, painter, card, side, fields, place, failures)
                name = str(fields.get("name") or fields.get("title") or fields.get("code_name") or fields["id"])
                pages.append(Page(kind, fields["id"], name, copy, side, place.page_mm, place.bleed_mm, index))
    errors = summarise(layout, failures, locate)
    if errors:
        raise ContentErrors(errors)
    c.save()
    return buf.getvalue(), pages


def _turned(template_for: Callable[[tuple[float, float]], tuple[tuple[float, float], float] | None],
            trim_mm: tuple[float, float]) -> tuple[tuple[float, float], float] | None:
    """A print service's template for a card of ``trim_mm``; for a sideways card (wider than
    high), the template for the card upright, turned, so the page follows the card."""
    if trim_mm[0] <= trim_mm[1]:
        return template_for(trim_mm)
    template = template_for((trim_mm[1], trim_mm[0]))
    if template is None:
        return None
    (w, h), bleed = template
    return (h, w), bleed


def _page(c: Canvas, painter: Painter, card: CardLayout, side: str, fields: dict, place: CardPage, failures: dict, sideways: int = 0) -> None:
    """One card side on a page of its own, with the page's TrimBox and BleedBox set; ``sideways``:
    ``card`` turned by as much onto a page that is it turned (see :func:`~deckpress.generator.render.kit.draw_card`)."""
    pw, ph = place.page_mm
    tw, th = place.trim_box_mm
    c.setPageSize((pw * mm, ph * mm))
    c.setBleedBox((0, 0, pw * mm, ph * mm))
    c.setTrimBox(((pw - tw) / 2 * mm, (ph - th) / 2 * mm, (pw + tw) / 2 * mm, (ph + th) / 2 * mm))
    left, _, top, _ = place.bleed_mm
    draw_card(painter, card, side, fields, Slot(0, 0, left, top, place.bleed_mm), failures, sideways=sideways)
    c.showPage()

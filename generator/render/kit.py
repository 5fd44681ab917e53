"""A game's print-and-play kit as one PDF: the cover, then each deck's sheets of faces, each
followed by its sheet of backs (mirrored for the duplex edge and shifted by the back offset).

Output is deterministic: the same content and options give byte-identical PDFs (reportlab's
invariant mode; the embedded Lato font is the canvas's initial font, so no Helvetica is used).
"""
from __future__ import annotations

import difflib
import gc
import io
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from reportlab.lib.colors import HexColor, black, white
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, PATH_OPS, Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from deckpress.generator.content import GameContent, card_locator
from deckpress.generator.content.errors import ContentError, ContentErrors
from deckpress.generator.content.safetext import excerpt
from deckpress.generator.kit import words
from deckpress.generator.kit.adapters import kit_module
from deckpress.generator.kit.imposition import (
    PAPERS,
    FoldGrid,
    Grid,
    ImpositionError,
    SheetTemplate,
    TemplateSheet,
    fold_grid,
    grid,
    paper_size,
    template_sheet,
)
from deckpress.generator.kit.printdata import Board, Cover, Deck, Section
from deckpress.generator.kit.translation import number
from deckpress.generator.render import scripts
from deckpress.generator.render.board import draw_board
from deckpress.generator.render.colour_space import CmykConversion
from deckpress.generator.render.cover import draw_cover
from deckpress.generator.render.elements import LayoutError, Painter
from deckpress.generator.render.fonts import SHIPPED, Fonts, game_fonts
from deckpress.generator.render.fonts import register as register_fonts
from deckpress.generator.render.icons import game_icons
from deckpress.generator.render.images import ImageSource
from deckpress.generator.render.layout import (
    CardLayout,
    Layout,
    card_sizes,
    compile_layout,
    same_back,
    shared_back,
)
from deckpress.generator.render.prose import paragraphs
from deckpress.generator.render.scripts import Unprintable
from deckpress.generator.render.tuckbox import box_for, draw_tuck_box, sheet_for

CROP_MARK_PT = 0.3
CUT_LINE_PT = 0.4
#: Colours of the proof guides (``build --guides``): the studio's.
PROOF_CUT, PROOF_SAFE = HexColor("#d50000"), HexColor("#0050d0")
#: Abutting cards overlap by this much (mm) on inner edges, so viewers show no hairline seam
#: between two backgrounds; it lies beyond the cut and is trimmed away.
SEAM_OVERLAP_MM = 0.15


@dataclass(frozen=True)
class PrintOptions:
    """How to print: paper ('a4', 'letter', 'a3'), duplex edge ('long', 'short', or 'none' for no
    back sheets), back offset in mm: how far the printer puts the backs right of and below where
    they belong, as seen from the face side (read off ``deckpress calibrate``'s sheet; the same
    numbers for either duplex edge), which the kit corrects (:func:`back_shift_mm`); whether to draw crop marks, ``ink_friendly`` (use the layout's ink-friendly
    palette: light backgrounds, greyscale-safe), ``sets`` (only decks of these sets; None for
    all), ``card_sizes``: (name, width mm, height mm) that replace entries of game.yaml's
    ``card_sizes`` for this build (``--card-size poker=63.5x88.9``), the cover included, and
    ``cmyk``: None for the design's RGB, or the conversion to a print shop's press
    (:mod:`deckpress.generator.render.colour_space`), and ``sheet``: a sheet template
    (:mod:`deckpress.generator.kit.sheets`) whose slots the decks of its card size print into, and
    ``cards``: only these cards, one copy for each time an id is named, without the cover and
    boards (a reprint), ``guides``: each card's cut line and safe area drawn over it (a proof), and
    ``tuck_boxes``: a tuck box for each deck after the decks; ``show_overflow``: a text that does not
    fit its box drawn past it and framed in red (a pseudo-localised proof, ``--lang qps``)."""

    paper: str = "a4"
    duplex: str = "long"
    gap_mm: float = 0.0
    printer_margin_mm: float = 0.0
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    crop_marks: bool = True
    ink_friendly: bool = False
    sets: tuple[str, ...] | None = None
    card_sizes: tuple[tuple[str, float, float], ...] = ()
    cmyk: CmykConversion | None = None
    sheet: SheetTemplate | None = None
    cards: tuple[str, ...] = ()
    guides: bool = False
    tuck_boxes: bool = False
    #: A proof of a pseudo-localised kit (``--lang qps``): a text that does not fit its box is
    #: drawn past it, the box framed in red, instead of failing the build.
    show_overflow: bool = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused for a build, and started again after it (left as
    it was if something else paused it): a context manager, or a decorator of the functions that
    build (:func:`build_kit`, :func:`render_pdf`).  A build makes hundreds of thousands of small objects
    (fitted lines, PDF operators) that reference counting frees; the collector's passes over them
    found almost nothing: on a 1,000-card deck, 57 passes during a build freed 119 objects in all,
    and a build with the collector paused left 163 behind for the next pass (measured 2026-11-28).
    The passes cost about a twentieth of the build.  What the build leaves alive (the loaded
    cards, the text caches) is then moved to the collector's oldest generation, as a long run of
    passes would have put it, rather than walked by the first young pass after (``gc.freeze``
    then ``gc.unfreeze``; skipped when the program keeps frozen objects of its own)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        if not gc.get_freeze_count():
            gc.freeze()
            gc.unfreeze()
        gc.enable()


@collector_paused()
def build_kit(content: GameContent, options: PrintOptions = PrintOptions(), write: bool = True) -> bytes:
    """The kit of ``content``'s game as PDF bytes (with ``write`` false, every card laid out and
    checked but no PDF made: empty bytes, as ``validate`` needs).  A game module may also define
    ``boards(content) -> list[Board]``: its boards print after the decks (tiled across sheets
    when larger than the paper).

    Raises:
        ContentErrors: a card cannot be laid out (text that does not fit even at its minimum
            size, an unknown field, icon or colour), with every such error, each at the card's
            own line in its card file with the layout element's line as context (at the element
            for cards no file writes as a record); a card larger than the paper, at its
            layout's trim; an image the gate refuses, at the layout element.
        ImpositionError: a board's tiles cannot fit the paper.
    """
    if options.card_sizes:
        content = resized(content, options.card_sizes)
    module = kit_module(content.game_id)
    decks = module.decks(content)
    boards = module.boards(content) if hasattr(module, "boards") else []
    cover = module.cover(content)
    layout_doc = content.documents["layout"]
    if options.ink_friendly and not layout_doc.data.get("ink_friendly_palette"):
        raise ContentErrors([layout_doc.error((), f"--ink-friendly: {content.game_id}'s layout has no ink_friendly_palette, so the option "
                                                  "would change nothing: add one to layout.yaml (light backgrounds, greyscale-safe "
                                                  "colours) or leave the option out")])
    if options.sets is not None:
        decks, boards = only_sets(content.game_id, decks, boards, options.sets)
        cover = _only_sets(cover, options.sets)
    if options.cards:
        decks, boards, cover = only_cards(content.game_id, decks, options.cards), [], None
    return render_pdf(content.documents["layout"], decks, cover, options, title=content["game"]["title"], boards=boards,
                      write=write, **drawn_as(content))


def drawn_as(content: GameContent) -> dict:
    """What every drawing of ``content``'s cards takes besides the cards, as keyword arguments of
    :func:`render_pdf` and :func:`deckpress.generator.render.oneup.one_up_pdf`: where a card's
    errors are reported (``locate``), the game's font chains (``fonts``) and its card sizes (``sizes``).

    Raises:
        ContentErrors: a font game.yaml declares cannot be used (:func:`game_fonts`).
    """
    return {"locate": card_locator(content), "fonts": game_fonts(content.documents["game"], content.root),
            "sizes": card_sizes(content["game"])}


def back_shift_mm(options: PrintOptions) -> tuple[float, float]:
    """How far the back sheets are moved to correct ``options.back_offset_mm``, in the back page's
    own coordinates (mm right, mm down).  The offset is seen from the face side: flipping on the
    long edge mirrors left and right between the face and the back, flipping on the short edge
    mirrors up and down, so the correction (the offset reversed) changes sign on the mirrored axis."""
    x, y = options.back_offset_mm
    return (x, -y) if options.duplex == "long" else (-x, y)


def resized(content: GameContent, sizes: tuple[tuple[str, float, float], ...]) -> GameContent:
    """``content`` with entries of game.yaml's ``card_sizes`` replaced by ``sizes`` ((name, width
    mm, height mm)), for a build at another card size; the content itself is not changed.

    Raises:
        ContentErrors: a name that is not one of the game's card sizes.
    """
    game = content.documents["game"]
    known = game.data["card_sizes"]
    unknown = [name for name, _, _ in sizes if name not in known]
    if unknown:
        raise ContentErrors([game.error(("card_sizes",), f"--card-size: the game has no card size '{name}' (its card_sizes: {', '.join(known)})")
                             for name in unknown])
    data = {**game.data, "card_sizes": {**known, **{name: {**known[name], "width_mm": w, "height_mm": h,
                                                            "description": f"{w:g} x {h:g} mm (built with --card-size)"}
                                                     for name, w, h in sizes}}}
    return replace(content, documents={**content.documents, "game": replace(game, data=data)})


def only_sets(game_id: str, decks: list[Deck], boards: list[Board], sets: tuple[str, ...]) -> tuple[list[Deck], list[Board]]:
    """The decks and boards of ``sets`` (``--sets`` of build and export).

    Raises:
        ContentErrors: the game has only one set to choose from, or a set it does not have.
    """
    known = sorted({d.set for d in decks} | {b.set for b in boards})
    if len(known) == 1:
        raise ContentErrors([ContentError(game_id, 0, 0, f"--sets: {game_id} has no sets to choose from "
                                                         "(every card is in its one set): leave --sets out")])
    unknown = [s for s in sets if s not in known]
    if unknown:
        raise ContentErrors([ContentError(game_id, 0, 0, f"unknown set '{excerpt(u)}' (this game's sets: {', '.join(known)})") for u in unknown])
    return [d for d in decks if d.set in sets], [b for b in boards if b.set in sets]


def unknown_cards(decks: list[Deck], ids: tuple[str, ...]) -> list[str]:
    """A message for each of ``ids`` that no card of ``decks`` has, with the nearest ids
    (``--cards`` of build and export)."""
    known = list(dict.fromkeys(f["id"] for d in decks for f in d.cards))
    messages = []
    for card_id in dict.fromkeys(ids):
        if card_id not in known:
            near = difflib.get_close_matches(card_id, known, n=3)
            messages.append(f"--cards: no card '{card_id}' in this game" + (f" (did you mean {' or '.join(repr(n) for n in near)}?)" if near else ""))
    return messages


def only_cards(game_id: str, decks: list[Deck], ids: tuple[str, ...]) -> list[Deck]:
    """The decks cut to the cards ``ids`` (``build --cards``, to reprint a few): one copy of a card
    for each time its id is named, in the decks' order; decks left without cards are dropped.

    Raises:
        ContentErrors: an id that no card has (every such id, with the nearest ones).
    """
    errors = unknown_cards(decks, ids)
    if errors:
        raise ContentErrors([ContentError(game_id, 0, 0, message) for message in errors])
    wanted = {card_id: ids.count(card_id) for card_id in ids}
    cut = []
    for deck in decks:
        first: dict[str, dict[str, Any]] = {}
        for fields in deck.cards:
            first.setdefault(fields["id"], fields)
        cards = [fields for card_id, fields in first.items() for _ in range(wanted.get(card_id, 0))]
        if cards:
            cut.append(replace(deck, cards=cards))
    return cut


def _only_sets(cover: Cover, sets: tuple[str, ...]) -> Cover:
    """The cover of a kit built with only ``sets``: a table with a set column (:attr:`Section.set_column`) keeps only the
    rows of those sets, and a paragraph about one set (:attr:`Section.paragraph_sets`, a way to play
    that needs an expansion) only if that set is printed, so the cover speaks of what was printed."""
    sections = []
    for section in cover.sections:
        table, paragraphs = section.table, section.paragraphs
        if table and section.set_column is not None:
            column = section.set_column
            table = [table[0]] + [row for row in table[1:] if not row[column] or row[column] in sets]
        if section.paragraph_sets:
            paragraphs = [p for p, s in zip(paragraphs, section.paragraph_sets, strict=True) if s is None or s in sets]
        sections.append(Section(section.heading, paragraphs, table, section.column_widths, section.paragraph_sets and
                                tuple(s for s in section.paragraph_sets if s is None or s in sets), section.set_column))
    return Cover(cover.title, cover.subtitle, sections)


@collector_paused()
def render_pdf(layout_doc, decks: list[Deck], cover: Cover | None, options: PrintOptions, title: str = "deckpress",
               boards: Sequence[Board] = (), checked_images: frozenset[str] = frozenset(), locate=None, fonts: Fonts = SHIPPED,
               sizes: Mapping[str, tuple[float, float]] | None = None, write: bool = True) -> bytes:
    """Render ``decks`` (and ``cover`` if given) with the layouts of ``layout_doc``: see
    :func:`build_kit`.  Used directly for previews of a subset of cards.  Images are named
    relative to the layout's folder (the game's) and opened through the gate; ``checked_images``
    are absolute paths already checked elsewhere (a variant's art); ``locate`` puts a card's
    layout errors at its own line (see :func:`summarise`); ``fonts`` are the game's font chains
    (:func:`deckpress.generator.render.fonts.game_fonts`) and ``sizes`` its card sizes
    (:func:`deckpress.generator.render.layout.card_sizes`), which the card kinds print at; with
    ``write`` false the PDF is not made (empty bytes returned) once everything is checked."""
    register_fonts()
    layout = compile_layout(layout_doc, ink_friendly=options.ink_friendly, sizes=sizes)
    errors = layout_errors(layout, decks, options)
    if errors:
        raise ContentErrors(errors)
    buf = io.BytesIO()
    sheet = paper_size(options.paper)
    c = Canvas(buf, pagesize=(sheet[0] * mm, sheet[1] * mm), invariant=1, initialFontName="Lato", initialFontSize=10,
               enforceColorSpace=options.cmyk.colour if options.cmyk else None)
    if options.cmyk:
        options.cmyk.mark(c)
    c.setTitle(title)
    c.setCreator("deckpress")
    c.setAuthor("deckpress")
    if cover is not None:
        cover = Cover(cover.title, cover.subtitle, cover.sections + [printing_section(options, layout, decks)])
        try:
            pages = draw_cover(c, cover, sheet, fonts)
        except Unprintable as exc:
            # cover text is the game's (title, notes, tables of its cards): reported against its game.yaml
            game_yaml = str(Path(layout_doc.display).with_name("game.yaml"))
            raise ContentErrors([ContentError(game_yaml, 0, 0, f"the cover's text {exc}")]) from None
        if options.duplex != "none" and pages % 2:
            _blank_back(c, sheet)
    painter = Painter(c, layout.colour, open_image=ImageSource(layout_doc.path.parent, checked_images, options.cmyk),
                      fonts=fonts, icons=game_icons(layout_doc.path.parent), overflow=[] if options.show_overflow else None)
    failures: dict[tuple, list[str]] = {}
    for deck in decks:
        _draw_deck(c, painter, layout, deck, options, failures)
    clear_boxes(c)
    if options.tuck_boxes:
        _draw_tuck_boxes(c, painter, layout, decks, options, title, failures)
    for board in boards:
        draw_board(c, painter, layout, board, options.paper, options.duplex != "none", failures)
    errors += summarise(layout, failures, locate)
    if errors:
        raise ContentErrors(errors)
    if not write:
        return b""
    c.save()
    return buf.getvalue()


def printing_section(options: PrintOptions, layout: Layout, decks: Sequence[Deck] = ()) -> Section:
    """How to print this kit, from the options it was built with and the decks in it (which of
    them, without duplex, print on fold-over sheets): the facts here, the words in the template
    ``generator/templates/how-to-print.txt.j2`` (:mod:`deckpress.generator.render.prose`)."""
    sheet = options.sheet
    fold = [d.name for d in decks if folded(options, layout.cards[d.kind], d)] if decks else []
    stock = None if sheet is None else [
        d.name for d in decks if sheet.fits(layout.cards[d.kind].trim_mm) and not folded(options, layout.cards[d.kind], d)]
    x, y = options.back_offset_mm
    paras = paragraphs(
        "how-to-print.txt.j2",
        paper=options.paper.upper() if options.paper in PAPERS else options.paper, custom=options.paper not in PAPERS,
        sizes=sorted({words.size_mm(*c.trim_mm) for c in layout.cards.values() if c.shape != "circle"}),
        # round cards print a cut circle instead of crop marks (render.kit._circle_cut_lines)
        rounds=sorted({f"{number(c.trim_mm[0])} mm" for c in layout.cards.values() if c.shape == "circle"}),
        gap=number(options.gap_mm) if options.gap_mm else None,
        tuck_boxes=options.tuck_boxes, guides=options.guides, cmyk=options.cmyk.name if options.cmyk else None,
        stock=stock, sheet_name=sheet.name if sheet else None,
        sheet_paper=(sheet.paper.upper() if sheet.paper in PAPERS else sheet.paper) if sheet else None,
        sheet_places=len(sheet.places_mm) if sheet else None, sheet_crop_marks=sheet.crop_marks if sheet else None,
        stock_only=stock is not None and len(stock) < len(decks),
        duplex=options.duplex, fold=fold, plain=[d.name for d in decks if d.name not in fold],
        offset_x=number(x), offset_y=number(y), moved=(x, y) != (0, 0))
    return Section(words.HOW_TO_PRINT(), paras)


def layout_errors(layout: Layout, decks: list[Deck], options: "PrintOptions | None") -> list[ContentError]:
    """Decks whose kind has no layout, else card kinds too large for the paper of ``options``
    (None: no paper, one card per page), each at its place in layout.yaml; else a back offset
    that would move the backs' art off the paper; else a sheet template no deck prints into; else
    a tuck box larger than the paper."""
    return (_missing_kinds(layout, decks) or (_unprintable_kinds(layout, decks, options) if options else [])
            or (_offset_errors(layout, decks, options) if options else []) or (_unused_sheet(layout, decks, options) if options else [])
            or (_oversized_boxes(layout, decks, options) if options else []))


def _oversized_boxes(layout: Layout, decks: list[Deck], options: "PrintOptions") -> list[ContentError]:
    """With ``--tuck-boxes``, each deck whose box does not fit the paper, at its card kind's trim."""
    errors = []
    for deck in (d for d in decks if d.cards and options.tuck_boxes):
        try:
            card = layout.cards[deck.kind]
            sheet_for(box_for(card.trim_mm, len(deck.cards), 2 if folded(options, card, deck) else 1), options.paper)
        except ImpositionError as exc:
            errors.append(layout.doc.error(("cards", deck.kind, "trim"), f"--tuck-boxes: {deck.name}: {exc}"))
    return errors


def _unused_sheet(layout: Layout, decks: list[Deck], options: "PrintOptions") -> list[ContentError]:
    """A sheet template that no deck of the build prints into (none is its card's size, or every
    such deck prints on fold-over sheets), at the top of its file."""
    template = options.sheet
    if template is None or any(template.fits(layout.cards[d.kind].trim_mm) and not folded(options, layout.cards[d.kind], d) for d in decks):
        return []
    sizes = ", ".join(dict.fromkeys(f"{d.name} {layout.cards[d.kind].trim_mm[0]:g} x {layout.cards[d.kind].trim_mm[1]:g} mm" for d in decks))
    w, h = template.card_mm
    why = (f"no deck is {w:g} x {h:g} mm, its card's size ({sizes}): print a deck at that size with --card-size NAME={w:g}x{h:g}"
           if not any(template.fits(layout.cards[d.kind].trim_mm) for d in decks) else
           f"its {w:g} x {h:g} mm decks print on fold-over sheets (--duplex {options.duplex}): build with --duplex long or short")
    return [ContentError(template.source, 1, 1, f"sheet template '{template.name}': {why}")]


def _offset_errors(layout: Layout, decks: list[Deck], options: "PrintOptions") -> list[ContentError]:
    """``--back-offset`` may move a back sheet only as far as its art (cards and bleed) stays on
    the paper (else ``--back-offset 30,0`` would be accepted and cut 22 mm of art off the page)."""
    dx, dy = options.back_offset_mm
    if options.duplex not in ("long", "short") or (dx, dy) == (0, 0):
        return []
    room_x = room_y = float("inf")
    for kind in dict.fromkeys(d.kind for d in decks):
        g = sheet_grid(options, layout.cards[kind])
        left, top, right, bottom = g.bleed_box_mm()
        sw, sh = g.sheet_mm
        room_x, room_y = min(room_x, left, sw - right), min(room_y, top, sh - bottom)
    if abs(dx) <= room_x and abs(dy) <= room_y:
        return []
    return [ContentError(layout.doc.display, 0, 0, f"--back-offset {dx:g},{dy:g}: the backs' art would leave the {options.paper} sheet; "
                                                   f"this kit takes at most {room_x:.1f} mm across and {room_y:.1f} mm up or down "
                                                   "(measure the shift again with deckpress calibrate)")]


def sheet_grid(options: "PrintOptions", card: CardLayout, cards: int | None = None) -> Grid | TemplateSheet:
    """The grid of ``card`` on the options' paper, with their gap and printer margin; with
    ``cards``, shrunk to the cells a sheet of that many cards needs.  A card of the options' sheet
    template's size goes into its slots instead, its bleed the template's or the card's own,
    whichever is less.

    Raises:
        ImpositionError: not even one card fits.
    """
    if options.sheet is not None and options.sheet.fits(card.trim_mm):
        return template_sheet(replace(options.sheet, bleed_mm=min(options.sheet.bleed_mm, card.bleed_mm)), options.printer_margin_mm)
    return grid(options.paper, card.trim_mm, card.bleed_mm, gap_mm=options.gap_mm, printer_margin_mm=options.printer_margin_mm,
                cards=cards)


def _missing_kinds(layout: Layout, decks: list[Deck]) -> list[ContentError]:
    doc = layout.doc
    return [doc.error(("cards",), f"cards: no layout for card kind '{d.kind}' ({d.name}); layouts exist for: {', '.join(layout.cards)}")
            for d in decks if d.kind not in layout.cards]


def _unprintable_kinds(layout: Layout, decks: list[Deck], options: "PrintOptions") -> list[ContentError]:
    """A card kind too large for the paper, at its ``trim`` in layout.yaml."""
    errors = []
    for kind in dict.fromkeys(d.kind for d in decks):
        card = layout.cards[kind]
        try:
            sheet_grid(options, card)
        except ImpositionError as exc:
            errors.append(layout.doc.error(("cards", kind, "trim"), f"cards.{kind}.trim: {exc}{_larger_paper(card)}"))
    return errors


def _larger_paper(card: CardLayout) -> str:
    """'; build with --paper a3' when the largest paper takes the card, else why no paper does."""
    try:
        grid("a3", card.trim_mm, card.bleed_mm)
    except ImpositionError:
        return "; no standard paper (a4, letter, a3) takes a card this size: give a larger one, such as --paper 300x450mm"
    return "; build with --paper a3"


def _blank_back(c: Canvas, sheet: tuple[float, float]) -> None:
    scripts.note(c, sheet[0] * mm / 2, 10 * mm, words.BLANK_BACK(), 8, align="center")
    c.showPage()



def summarise(layout: Layout, failures: dict[tuple, list], locate=None) -> list[ContentError]:
    """The layout failures as errors.  Where a card's own data is at fault (``of_card``: its text
    does not fit, its icon or image is not there) and ``locate(source, card_id) -> (document,
    path) | None`` (:func:`deckpress.generator.content.card_locator`) finds it, each failing card
    is an error at its own line in its card file, the layout element's place given as context;
    otherwise one error per failing element and problem, at the element, naming the first card
    and how many others.  A card is named once however many copies of it print."""
    errors = []
    for (path, kind, side, message, of_card), cards in failures.items():
        element = layout.doc.where(path)
        unplaced = []
        for card in dict.fromkeys(cards):  # a card printed in several copies fails once
            where = locate(card[1], card[0]) if locate and of_card else None
            if where is None:
                unplaced.append(card)
                continue
            doc, record = where
            errors.append(doc.error(record, f"{kind} {side}, card '{card[0]}': {message} "
                                            f"(layout element at {layout.doc.display}:{element[0]}:{element[1]})"))
        if unplaced:
            first = unplaced[0] if isinstance(unplaced[0], str) else f"'{unplaced[0][0]}' ({unplaced[0][1]})"
            more = f" (and {len(unplaced) - 1} more card{'s' * (len(unplaced) > 2)})" if len(unplaced) > 1 else ""
            errors.append(layout.doc.error(path, f"{kind} {side}, card {first}{more}: {message}"))
    return errors


def folded(options: "PrintOptions", card: CardLayout, deck: Deck) -> bool:
    """Whether ``deck`` prints on fold-over sheets: always with ``duplex: fold``; with ``none``
    when its cards' backs differ (a two-sided card cannot lose its back); never with duplex."""
    return options.duplex == "fold" or (options.duplex == "none" and not shared_back(card, deck.cards))


def _draw_deck(c: Canvas, painter: Painter, layout: Layout, deck: Deck, options: PrintOptions, failures: dict) -> None:
    card = layout.cards[deck.kind]
    if folded(options, card, deck):
        _draw_fold_deck(c, painter, layout, card, deck, options, failures)
        return
    full = sheet_grid(options, card)
    stock = isinstance(full, TemplateSheet)
    if stock:
        c.setPageSize((full.sheet_mm[0] * mm, full.sheet_mm[1] * mm))
    sheets = [deck.cards[i:i + full.per_sheet] for i in range(0, len(deck.cards), full.per_sheet)]
    for n, cards in enumerate(sheets, 1):
        g = sheet_grid(options, card, len(cards))  # a short sheet gets no empty cells, nor their marks
        where = {"deck": deck.name, "sheet": n, "sheets": len(sheets)}
        _sheet_boxes(c, g)
        for i, fields in enumerate(cards):
            own, turn = _own(layout, card, deck, fields, "face")
            draw_card(painter, own, "face", fields, g.slots[i], failures, options.guides, sideways=turn)
        marked = not stock or (options.sheet is not None and options.sheet.crop_marks)  # pre-cut stock: no marks, nor a round card's cut line
        if marked and card.shape == "circle":
            _circle_cut_lines(c, g, g.slots[:len(cards)])
        elif marked and options.crop_marks:
            _crop_marks(c, g)
        _label(c, g, words.SHEET_FACES(**where))
        c.showPage()
        if options.duplex == "none":
            continue
        shift = back_shift_mm(options)
        _sheet_boxes(c, g, shift, options.duplex)
        c.saveState()
        c.translate(shift[0] * mm, -shift[1] * mm)
        for i, fields in enumerate(cards):
            own, turn = _own(layout, card, deck, fields, "back")
            draw_card(painter, own, "back", fields, g.back_slot(i, options.duplex), failures, options.guides,
                      turned=options.duplex == "short", sideways=turn)
        c.restoreState()
        _label(c, g, (words.SHEET_BACKS_LONG if options.duplex == "long" else words.SHEET_BACKS_SHORT)(**where))
        c.showPage()
    if stock:
        paper = paper_size(options.paper)
        c.setPageSize((paper[0] * mm, paper[1] * mm))


def _draw_tuck_boxes(c: Canvas, painter: Painter, layout: Layout, decks: list[Deck], options: PrintOptions, title: str,
                     failures: dict) -> None:
    """A tuck box for each deck (:mod:`deckpress.generator.render.tuckbox`), each on a sheet of its
    own with a blank back when the kit is printed double-sided, then the paper as it was."""
    for deck in (d for d in decks if d.cards):
        card = layout.cards[deck.kind]
        box = box_for(card.trim_mm, len(deck.cards), 2 if folded(options, card, deck) else 1)
        sheet = sheet_for(box, options.paper)  # checked by layout_errors: it fits
        art = (lambda slot, card=card, first=deck.cards[0]: draw_card(painter, card, "back", first, slot, failures))
        draw_tuck_box(c, box, sheet, deck, title, art, painter.fonts)
        if options.duplex not in ("none", "fold"):
            _blank_back(c, sheet)
    paper = paper_size(options.paper)
    c.setPageSize((paper[0] * mm, paper[1] * mm))


def _own(layout: Layout, card: CardLayout, deck: Deck, fields: dict, side: str) -> tuple[CardLayout, int]:
    """The card kind one side of a card of ``deck`` is drawn with in a slot of the deck's ``card``,
    and how far it is turned (degrees anticlockwise): the deck's own kind upright; a card's own
    kind (a deck with a layout per card) upright when it is ``card``'s size, else sideways (its trim
    ``card``'s turned): its face turned 90 (its top along the slot's left edge) and its back -90,
    so that turned over on the long edge (or folded) the two agree; but a sideways kind whose back
    is ``card``'s (left out where it ``extends`` it) has that back, upright, as the deck's others."""
    kind = deck.kind_of(fields)
    own = card if kind == deck.kind else layout.cards[kind]
    if own.trim_mm == card.trim_mm:
        return own, 0
    if side == "back" and same_back(own, card):
        return card, 0
    return own, (90 if side == "face" else -90)


def _draw_fold_deck(c: Canvas, painter: Painter, layout: Layout, card: CardLayout, deck: Deck, options: PrintOptions, failures: dict) -> None:
    """Fold-over sheets: each face beside its back, mirrored across a dashed fold line
    (:func:`deckpress.generator.kit.imposition.fold_grid`), on the paper turned as fits most cards."""
    g = fold_grid(options.paper, card.trim_mm, card.bleed_mm, printer_margin_mm=options.printer_margin_mm)
    paper = paper_size(options.paper)
    sheets = [deck.cards[i:i + g.per_sheet] for i in range(0, len(deck.cards), g.per_sheet)]
    for n, cards in enumerate(sheets, 1):
        c.setPageSize((g.sheet_mm[0] * mm, g.sheet_mm[1] * mm))
        _sheet_boxes(c, g)
        for i, fields in enumerate(cards):
            for side, slot in (("face", g.faces[i]), ("back", g.backs[i])):
                own, turn = _own(layout, card, deck, fields, side)
                draw_card(painter, own, side, fields, slot, failures, options.guides, sideways=turn)
        if card.shape == "circle":
            _circle_cut_lines(c, g, g.faces[:len(cards)] + g.backs[:len(cards)])
        elif options.crop_marks:
            _crop_marks(c, g)
        _fold_line(c, g)
        _label(c, g, words.SHEET_FOLD(deck=deck.name, sheet=n, sheets=len(sheets)))
        c.showPage()
    c.setPageSize((paper[0] * mm, paper[1] * mm))


def _fold_line(c: Canvas, g: FoldGrid) -> None:
    """The fold: a dashed line down the middle of the sheet, named at its ends."""
    sw, sh = g.sheet_mm
    x = g.fold_x_mm * mm
    c.saveState()
    c.setStrokeColor(black)
    c.setLineWidth(CUT_LINE_PT)
    c.setDash(3, 2)
    c.line(x, 0, x, sh * mm)
    c.restoreState()
    c.setFillColor(black)
    top, bottom = g.trim_box_mm()[1], sh - g.trim_box_mm()[3]
    for y in (sh - top / 2, bottom / 2):
        scripts.note(c, x + 1 * mm, y * mm, words.FOLD(), 6)


def draw_card(painter: Painter, card: CardLayout, side: str, fields: dict, slot, failures: dict, guides: bool = False,
              turned: bool = False, sideways: int = 0) -> None:
    """Draw one side of a card in its slot; a failing element is recorded in ``failures`` (keyed
    by element and problem, listing the cards) and the rest of the card is still drawn.  A card
    that prints at another size than its elements are placed for (:attr:`CardLayout.scale`) is
    drawn scaled about its trim's top-left corner, bleed included, so it fills its trim exactly.
    A text that crosses the card's safe area is drawn and recorded (:meth:`Painter.beyond_safe`).
    With ``guides``, the card's cut line and safe area are drawn over it (:func:`_proof_guides`).
    ``turned``: drawn upside down, turned 180 degrees about its trim's centre (a back on a sheet
    flipped on its short edge: upright once the card is turned over sideways, as on the long edge).
    ``sideways`` (0, 90 or -90 degrees anticlockwise): a card whose trim is the slot's turned (a
    landscape card of a deck of upright ones: ICE, a base) is drawn turned by as much about the
    slot's centre, so every card of the sheet is cut alike."""
    c = painter.canvas
    sheet_h = c._pagesize[1]
    x0, y0 = slot.x_mm * mm, sheet_h - slot.y_mm * mm
    w, h = card.trim_mm[0] * mm, card.trim_mm[1] * mm
    if sideways:  # the slot is the card turned
        w, h = h, w
    left, right, top, bottom = (b * mm for b in slot.bleed_mm)
    seam = SEAM_OVERLAP_MM * mm
    cl, cr, ct, cb = (b or seam for b in (left, right, top, bottom))
    c.saveState()
    c.addLiteral(_clip_rect(x0 - cl, y0 - h - cb, w + cl + cr, h + ct + cb, c._fillMode))
    if turned:  # the art's left is the slot's right, its top the slot's bottom
        c.translate(2 * x0 + w, 2 * y0 - h)
        c.rotate(180)
        left, right, top, bottom = right, left, bottom, top
    if sideways:  # about the slot's centre; the art's top along the slot's left (90) or right (-90) edge
        c.translate(x0 + w / 2, y0 - h / 2)
        c.rotate(sideways)
        w, h = h, w
        x0, y0 = -w / 2, h / 2
        left, right, top, bottom = (bottom, top, left, right) if sideways == 90 else (top, bottom, right, left)
    sx, sy = card.scale
    safe, round_cut = card.safe_mm * mm, card.shape == "circle"  # in the layout's mm, as its elements
    if (sx, sy) == (1.0, 1.0):
        frame = (x0, y0, w, h)
        painter.place(x0, y0, w, h, (left, right, top, bottom), safe, round_cut)
    else:
        c.translate(x0, y0)
        c.scale(sx, sy)
        frame = (0.0, 0.0, w / sx, h / sy)
        painter.place(0.0, 0.0, w / sx, h / sy, (left / sx, right / sx, top / sy, bottom / sy), safe, round_cut)
    for el in getattr(card, side):
        try:
            if el.visible(fields):
                el.draw(painter, fields, 0.0, 0.0)
        except LayoutError as exc:
            failures.setdefault((exc.path, card.kind, side, str(exc), exc.of_card), []).append((str(fields.get("id", "?")), str(fields.get("source", "?"))))
    if guides:
        _proof_guides(c, frame, safe, round_cut)
    c.restoreState()


@lru_cache(maxsize=1024)
def _clip_rect(x: float, y: float, w: float, h: float, fill_mode: int) -> str:
    """A clip to the rectangle ``(x, y, w, h)`` (pt), as ``Canvas.clipPath`` writes a path of that
    rectangle with the canvas's ``fill_mode``: the same slots recur on every sheet."""
    path = PDFPathObject()
    path.rect(x, y, w, h)
    return f"{path.getCode()}{' W* ' if fill_mode == FILL_EVEN_ODD else ' W '}{PATH_OPS[0, 0, fill_mode]}"


def _proof_guides(c: Canvas, frame: tuple[float, float, float, float], safe: float, round_cut: bool) -> None:
    """The cut line (red) and the safe area (blue) of a card whose trim has its top-left corner
    at ``frame[:2]`` and is ``frame[2:]`` wide and high, in pt in the canvas's current frame;
    ``safe`` in pt.  Dashed, on a white halo so that they show on any colour: the studio's guides
    (``render/oneup.py: guides_of``), on paper, as Squib's ``cut_zone`` and ``safe_zone``."""
    x, y, w, h = frame
    c.saveState()
    for colour, inset in ((PROOF_CUT, 0.0), (PROOF_SAFE, safe)):
        for stroke, width, dash in ((white, 3 * CUT_LINE_PT, ()), (colour, CUT_LINE_PT, (3, 2))):
            c.setStrokeColor(stroke)
            c.setLineWidth(width)
            c.setDash(list(dash))
            if round_cut:
                c.circle(x + w / 2, y - h / 2, min(w, h) / 2 - inset, stroke=1, fill=0)
            else:
                c.rect(x + inset, y - h + inset, w - 2 * inset, h - 2 * inset, stroke=1, fill=0)
    c.restoreState()


def _crop_marks(c: Canvas, g: Grid | FoldGrid | TemplateSheet) -> None:
    """The crop marks in the margins, and ticks across the outer bleed at every cut line (black on
    a white underlay, so they show on any background colour)."""
    marks, ticks = _mark_lines(tuple(g.crop_marks()), tuple(g.bleed_ticks()), g.sheet_mm[1])
    c.setStrokeColor(black)
    c.setLineWidth(CROP_MARK_PT)
    if marks:  # nothing written for no line, as Canvas.line
        c.addLiteral(marks)
    for colour, width in ((white, 3 * CROP_MARK_PT), (black, CROP_MARK_PT)):
        c.setStrokeColor(colour)
        c.setLineWidth(width)
        if ticks:
            c.addLiteral(ticks)


@lru_cache(maxsize=64)
def _mark_lines(marks: tuple[tuple[float, float, float, float], ...], ticks: tuple[tuple[float, float, float, float], ...],
                sheet_h_mm: float) -> tuple[str, str]:
    """The PDF operators of the crop marks and of the bleed ticks (each ``(x1, y1, x2, y2)`` in mm
    from the top-left of a sheet ``sheet_h_mm`` high): the very lines ``Canvas.line`` writes, one
    per line of the page's stream, written once for every sheet of the same grid."""
    sheet_h = sheet_h_mm * mm
    return tuple("\n".join(f"n {fp_str(x1 * mm, sheet_h - y1 * mm)} m {fp_str(x2 * mm, sheet_h - y2 * mm)} l S" for x1, y1, x2, y2 in lines)
                 for lines in (marks, ticks))  # type: ignore[return-value]


def _circle_cut_lines(c: Canvas, g: Grid | FoldGrid | TemplateSheet, slots) -> None:
    """Round cards: the cut line is the circle inscribed in each card's trim, for ``slots``."""
    sheet_h = g.sheet_mm[1] * mm
    w, h = g.card_mm
    c.setStrokeColor(black)
    c.setLineWidth(CUT_LINE_PT)
    for slot in slots:
        c.circle((slot.x_mm + w / 2) * mm, sheet_h - (slot.y_mm + h / 2) * mm, min(w, h) / 2 * mm, stroke=1, fill=0)


def _sheet_boxes(c: Canvas, g: Grid | FoldGrid | TemplateSheet, offset_mm: tuple[float, float] = (0.0, 0.0),
                 duplex: str | None = None) -> None:
    """This sheet's TrimBox (the cards' trim), BleedBox and ArtBox (with the outer bleed), for
    prepress tools (``pdfinfo -box``); on a back sheet (``duplex`` 'long' or 'short') mirrored as
    its backs are, across the sheet's vertical or horizontal centre line, and moved by the back
    offset (``offset_mm``, mm right and down)."""
    sw, sh = g.sheet_mm
    dx, dy = offset_mm

    def box(left, top, right, bottom):
        if duplex == "long":
            left, right = sw - right, sw - left
        elif duplex == "short":
            top, bottom = sh - bottom, sh - top
        return ((left + dx) * mm, (sh - bottom - dy) * mm, (right + dx) * mm, (sh - top - dy) * mm)

    c.setTrimBox(box(*g.trim_box_mm()))
    c.setBleedBox(box(*g.bleed_box_mm()))
    c.setArtBox(box(*g.bleed_box_mm()))


def clear_boxes(c: Canvas) -> None:
    """No TrimBox, BleedBox or ArtBox on the pages from here on (a cover or a board, where they
    mean nothing): reportlab keeps a box for every later page once set."""
    for name in ("_trimBox", "_bleedBox", "_artBox"):
        setattr(c, name, None)


def _label(c: Canvas, g: Grid | FoldGrid | TemplateSheet, text: str) -> None:
    """The sheet's label in the bottom margin below the bleed, between two vertical cut lines (or
    between the outer cut line and the sheet's edge) so that no crop mark crosses it:
    the first such gap that takes it at 6 pt, else the one that takes it largest (down to 4 pt).
    Drawn in the shipped regular chain, so that a deck named in another script (an edition's
    "अंक कार्ड") prints; a character no shipped font has leaves the label in Lato alone."""
    c.setFillColor(black)
    xs, _ = g.cut_lines()
    edge = max(g.printer_margin_mm, 3.0)
    gaps = list(zip(xs, xs[1:])) + [(edge, xs[0]), (xs[-1], g.sheet_mm[0] - edge)]
    free = g.sheet_mm[1] - g.bleed_box_mm()[3]  # below the bleed, mm: the label never sits on the art
    top = min(6.0, max(4.0, free * mm * 0.7))
    try:
        chain = SHIPPED.chain("regular")
        unit = scripts.width(text, chain, 1.0)
    except Unprintable:
        chain, unit = ("Lato",), stringWidth(text, "Lato", 1.0)

    def size_in(gap: tuple[float, float]) -> float:
        room = (gap[1] - gap[0] - 2) * mm
        return min(top, room / unit) if room > 0 else 0.0

    best = max(gaps, key=size_in)  # the first of equally good gaps
    size = max(4.0, size_in(best))
    x, y = (best[0] + best[1]) / 2 * mm, (free * mm - size * 0.7) / 2
    if len(chain) == 1:
        c.setFont("Lato", size)
        c.drawCentredString(x, y, text)
    else:
        scripts.draw(c, x, y, text, chain, size, align="center")
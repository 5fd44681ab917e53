"""The first page(s) of a kit: title, sections of text and tables, laid out with reportlab's
platypus.  Every string from content is escaped before it reaches a Paragraph, so card data
prints literally and can never inject markup (links, images, broken tags).  Each string is drawn
in the game's font chains as card text is (:mod:`deckpress.generator.render.scripts`): every
character in the first font that has it, shaped where its script needs it."""
from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Frame, Paragraph, Spacer, Table, TableStyle

from deckpress.generator.content.safetext import para_escape as escape
from deckpress.generator.kit.printdata import Cover
from deckpress.generator.render.fonts import SHIPPED, Fonts
from deckpress.generator.render.scripts import needs_shaping, runs

_TITLE = ParagraphStyle("title", fontName="Lato-Bold", fontSize=24, leading=28, spaceAfter=2 * mm)
_SUBTITLE = ParagraphStyle("subtitle", fontName="Lato", fontSize=11, leading=14, textColor=colors.HexColor("#444444"), spaceAfter=4 * mm)
_HEADING = ParagraphStyle("heading", fontName="Lato-Bold", fontSize=13, leading=16, spaceBefore=3 * mm, spaceAfter=1.5 * mm)
_BODY = ParagraphStyle("body", fontName="Lato", fontSize=9, leading=11.5, spaceAfter=1.2 * mm)
_CELL = ParagraphStyle("cell", fontName="Lato", fontSize=7.5, leading=9)
_HEAD_CELL = ParagraphStyle("headcell", parent=_CELL, fontName="Lato-Bold")
_MARGIN_MM = 15


def _no_discretionary_ligatures() -> None:
    """Turn off the Latin ligatures that reportlab's paragraph shaping asks HarfBuzz for by
    default (``reportlab.pdfbase.ttfonts.shapeFragWord``'s ``features``, reportlab 4.x): the
    discretionary ones (``dlig``), which OpenType leaves off unless a reader asks (Lato's ``c_k``
    printed "deckpress" as "dećkpress" in a cover paragraph shaped for its Devanagari), and the
    standard ones (``liga``), so that an option in such a paragraph ("--back-offset") prints
    letter by letter, as in an unshaped paragraph, and pastes as it reads.  Devanagari's conjuncts
    come from the script's own features, which HarfBuzz applies regardless (a Hindi cover drawn
    with and without them differs only in Latin letters).  Kerning stays on.  Only paragraphs
    that need shaping are shaped, so the kits of Latin-script editions are unchanged."""
    from reportlab.pdfbase import ttfonts

    defaults = getattr(ttfonts.shapeFragWord, "__defaults__", None) or ()
    for value in defaults:
        if isinstance(value, dict) and "dlig" in value:
            value["dlig"] = False
            value["liga"] = False


_no_discretionary_ligatures()


def _paragraph(text: str, style: ParagraphStyle, fonts: Fonts) -> Paragraph:
    """``text`` (escaped) as a Paragraph in ``style``, each run in its font of the chain.

    Raises:
        Unprintable: a character no font draws, or right-to-left text.
    """
    chain = fonts.chain("bold" if style.fontName.endswith("Bold") else "regular")
    parts = runs(text, chain)
    if len(parts) <= 1 and (not parts or parts[0][0] == style.fontName):
        return Paragraph(escape(text), style)
    markup = "".join(escape(part) if font == style.fontName else f'<font name="{font}">{escape(part)}</font>' for font, part in parts)
    return Paragraph(markup, ParagraphStyle(style.name + "-shaped", parent=style, shaping=int(needs_shaping(text))))


def _fitted(style: ParagraphStyle, text: str, width_pt: float, smallest_pt: float = 12.0) -> ParagraphStyle:
    """``style``, its size lowered (down to ``smallest_pt``) until the widest word of ``text`` fits
    ``width_pt``: a title on small paper wraps between words, never inside one ("pri / nt-and-play")."""
    widest = max((stringWidth(word, style.fontName, style.fontSize) for word in text.split()), default=0.0)
    if widest <= width_pt:
        return style
    size = max(smallest_pt, style.fontSize * width_pt / widest)
    return ParagraphStyle(style.name + "-fitted", parent=style, fontSize=size, leading=size * style.leading / style.fontSize)


def cover_flowables(cover: Cover, width_pt: float, fonts: Fonts = SHIPPED) -> list:
    """The cover as platypus flowables for a frame ``width_pt`` wide (all text escaped).

    Raises:
        Unprintable: cover text with a character no font of the game's chains draws.
    """
    story = [_paragraph(cover.title, _fitted(_TITLE, cover.title, width_pt), fonts), _paragraph(cover.subtitle, _SUBTITLE, fonts)]
    for section in cover.sections:
        story.append(_paragraph(section.heading, _HEADING, fonts))
        story.extend(_paragraph(p, _BODY, fonts) for p in section.paragraphs)
        if section.table:
            rows = [[_paragraph(str(cell), _HEAD_CELL if r == 0 else _CELL, fonts) for cell in row]
                    for r, row in enumerate(section.table)]
            rel = section.column_widths or [1] * len(section.table[0])
            widths = [width_pt * w / sum(rel) for w in rel]
            table = Table(rows, colWidths=widths, repeatRows=1)
            table.setStyle(TableStyle([
                ("FONTNAME", (0, 0), (-1, -1), "Lato"),
                ("GRID", (0, 0), (-1, -1), 0.3, colors.HexColor("#999999")),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]))
            story.extend([table, Spacer(1, 2 * mm)])
    return story


def draw_cover(c: Canvas, cover: Cover, sheet_mm: tuple[float, float], fonts: Fonts = SHIPPED) -> int:
    """Draw the cover on as many pages as it needs; returns the number of pages drawn.

    Raises:
        Unprintable: as :func:`cover_flowables`.
    """
    w, h = sheet_mm[0] * mm, sheet_mm[1] * mm
    m = _MARGIN_MM * mm
    story = cover_flowables(cover, w - 2 * m, fonts)
    pages = 0
    while story:
        frame = Frame(m, m, w - 2 * m, h - 2 * m, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        before = len(story)
        frame.addFromList(story, c)
        c.showPage()
        pages += 1
        if len(story) == before:  # a flowable larger than a page: stop rather than loop
            raise ValueError("a cover section is too large for one page")
    return pages

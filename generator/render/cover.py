"""The first page(s) of a kit: title, sections of text and tables, laid out with reportlab's
platypus.  Every string from content is escaped before it reaches a Paragraph, so card data
prints literally and can never inject markup (links, images, broken tags)."""
from __future__ import annotations

from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Frame, Paragraph, Spacer, Table, TableStyle

from deckpress.generator.model import Cover

_TITLE = ParagraphStyle("title", fontName="Lato-Bold", fontSize=24, leading=28, spaceAfter=2 * mm)
_SUBTITLE = ParagraphStyle("subtitle", fontName="Lato", fontSize=11, leading=14, textColor=colors.HexColor("#444444"), spaceAfter=4 * mm)
_HEADING = ParagraphStyle("heading", fontName="Lato-Bold", fontSize=13, leading=16, spaceBefore=3 * mm, spaceAfter=1.5 * mm)
_BODY = ParagraphStyle("body", fontName="Lato", fontSize=9, leading=11.5, spaceAfter=1.2 * mm)
_CELL = ParagraphStyle("cell", fontName="Lato", fontSize=7.5, leading=9)
_HEAD_CELL = ParagraphStyle("headcell", parent=_CELL, fontName="Lato-Bold")
_MARGIN_MM = 15


def cover_flowables(cover: Cover, width_pt: float) -> list:
    """The cover as platypus flowables for a frame ``width_pt`` wide (all text escaped)."""
    story = [Paragraph(escape(cover.title), _TITLE), Paragraph(escape(cover.subtitle), _SUBTITLE)]
    for section in cover.sections:
        story.append(Paragraph(escape(section.heading), _HEADING))
        story.extend(Paragraph(escape(p), _BODY) for p in section.paragraphs)
        if section.table:
            rows = [[Paragraph(escape(str(cell)), _HEAD_CELL if r == 0 else _CELL) for cell in row]
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


def draw_cover(c: Canvas, cover: Cover, sheet_mm: tuple[float, float]) -> int:
    """Draw the cover on as many pages as it needs; returns the number of pages drawn."""
    w, h = sheet_mm[0] * mm, sheet_mm[1] * mm
    m = _MARGIN_MM * mm
    story = cover_flowables(cover, w - 2 * m)
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

"""Drawable element kinds of a card layout, one small class each.

A layout file (``content/<game>/layout.yaml``, schema ``schemas/layout.schema.json``) is compiled
once into these objects; drawing a card then only fills ``{field}`` templates and paints.  Each
class takes its element dict (the keys the schema allows for its ``type``) and draws with a
:class:`Painter`, which holds the canvas and the current card's geometry.  Units: layouts are in
mm from the trim's top-left, y downward; the painter converts to PDF points (y upward).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from math import atan2, degrees, hypot
from typing import Any, Callable

from reportlab.lib.colors import Color
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import PATH_OPS, Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from deckpress.generator.content.expressions import (
    ExpressionError,
    compile_expression,
    key_of,
    lookup,
)
from deckpress.generator.content.safetext import choices, excerpt
from deckpress.generator.render import scripts
from deckpress.generator.render.fonts import SHIPPED, Fonts
from deckpress.generator.render.icons import Icons, draw_icon, icon_hint, icon_set
from deckpress.generator.render.markup import MarkupError
from deckpress.generator.render.text import (
    ICON_DROP_EM,
    ICON_EM,
    ICON_TOKEN,
    TextOverflow,
    draw_rich_line,
    fit,
    fit_markup,
    pieces,
)

#: What a colour can be, for an unknown colour with no near name in the palette.
_COLOUR_FORMS = "use a palette name, '#rrggbb' or 'cmyk(C, M, Y, K)'"
_COLOUR_KEYS = ("fill", "stroke", "colour", "knockout")
#: Where on a round card a point lies, by its angle from the centre in steps of 45 degrees
#: (anticlockwise from the right, y up).
_DIRECTIONS = ("right", "top right", "top", "top left", "left", "bottom left", "bottom", "bottom right")
#: A ``{field}`` placeholder: a field name as a card file writes it (a CSV header, a YAML key: letters of
#: either case, digits, ``_``), or a dotted path into nested values (``{stats.attack}``).
_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}")
_MISSING = object()


class LayoutError(ValueError):
    """An element cannot be drawn for a card: ``path`` locates the element in layout.yaml;
    ``of_card`` says the card's own data is at fault (its text does not fit, it names an icon or
    image that is not there), not the layout (reported at the card's line where it has one)."""

    def __init__(self, path: tuple, message: str, of_card: bool = False):
        super().__init__(message)
        self.path = path
        self.of_card = of_card


class Template:
    """A string with ``{field}`` placeholders filled from a card's fields (``{stats.attack}``: the
    field ``attack`` of the mapping in ``stats``).  Nothing else is interpreted: no attribute
    access, no format specs, no expressions (those are written in derived fields and maps:
    :mod:`deckpress.generator.content.expressions`)."""

    __slots__ = ("source", "parts")

    def __init__(self, source: str):
        self.source = source
        self.parts = _FIELD.split(source)  # even indices literal, odd indices field names

    def render(self, fields: dict[str, Any], path: tuple) -> str:
        """The filled string.

        Raises:
            LayoutError: a placeholder names a field the card does not have.
        """
        if len(self.parts) == 1:
            return self.source
        out = []
        for i, part in enumerate(self.parts):
            if i % 2 == 0:
                out.append(part)
            elif (value := _find(fields, part)) is not _MISSING:
                out.append(str(value))
            else:
                raise LayoutError(path, f"'{{{part}}}' names no field of this card ({choices(part, sorted(k for k in fields if not k.startswith('_')))})")
        return "".join(out)

    def varies(self) -> bool:
        """Whether the card's data fills this template (it holds a ``{field}``)."""
        return len(self.parts) > 1


def _find(fields: dict[str, Any], path: str) -> Any:
    """The value at ``path`` (a field name, or a dotted path into nested mappings), or
    :data:`_MISSING`: :func:`deckpress.generator.content.expressions.lookup`."""
    return lookup(fields, path, _MISSING)


class Choice:
    """A value chosen by a card's data (a map in layout.yaml: ``{by: faction, map: {Blob: green,
    Trade Federation: blue}, default: grey}``): ``by`` is an expression (a field name is one), its
    value is looked up in ``map`` as text (:func:`~deckpress.generator.content.expressions.key_of`),
    else ``default`` is taken.  The chosen entry is a :class:`Template` (it may hold ``{field}``),
    so a Choice fills in where a template does."""

    __slots__ = ("key", "source", "by", "map", "default")

    def __init__(self, spec: dict[str, Any], key: str):
        self.key = key  # the element's key holding the map ('fill', 'icon')
        self.source = spec["by"]
        self.by = compile_expression(spec["by"])
        self.map = {str(k): Template(v) for k, v in spec["map"].items()}
        self.default = Template(spec["default"]) if "default" in spec else None

    def render(self, fields: dict[str, Any], path: tuple) -> str:
        """The chosen entry, filled.

        Raises:
            LayoutError: at the map's ``by`` when its expression fails on the card; at the map
                when the value has no entry and there is no default (of the card's data).
        """
        try:
            key = key_of(self.by.value(fields))
        except ExpressionError as exc:
            raise LayoutError(path + (self.key, "by"), f"{self.key}: by '{excerpt(self.source)}' {exc}") from None
        chosen = self.map.get(key) if key is not None else None
        if chosen is None:
            chosen = self.default
        if chosen is None:
            shown = "no value" if key is None else f"'{excerpt(key)}'"
            raise LayoutError(path, f"{self.key}: by '{excerpt(self.source)}': {shown} has no entry in the map "
                                    f"({choices(key or '', sorted(self.map))}) and the map has no default", of_card=True)
        return chosen.render(fields, path)

    def varies(self) -> bool:
        """Whether an entry of the map is filled from the card's data (the choice itself is the
        card's, but a constant entry that is wrong is the layout's fault, told once)."""
        return any(t.varies() for t in (*self.map.values(), *([self.default] if self.default else [])))


def template(value: str | dict[str, Any], key: str) -> Template | Choice:
    """The layout value under ``key`` that may be filled from a card: a ``{field}`` template, or a map."""
    return Choice(value, key) if isinstance(value, dict) else Template(value)


@dataclass
class Painter:
    """Draws elements for one card at a time on ``canvas``.

    ``resolve_colour`` maps a colour string (palette name, '#rrggbb' or 'cmyk(C, M, Y, K)') to a reportlab colour.
    Before drawing a card, :meth:`place` sets its trim origin (PDF pt, top-left, y up), trim size
    (pt), bleed per side (pt: left, right, top, bottom) and, for a card, its safe area: the
    margin inside the trim that text stays out of (pt) and whether the card is cut round.
    """

    canvas: Canvas
    resolve_colour: Callable[[str], Color]
    x0: float = 0.0
    y0: float = 0.0
    width: float = 0.0
    height: float = 0.0
    bleed: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    forms: set[str] = field(default_factory=set)  # icon forms already in the document
    open_image: Callable[[str], Any] | None = None  # image name -> ImageReader, through the gate
    fonts: Fonts = SHIPPED  # font chains by style: the game's own fonts, then the shipped ones
    icons: Icons | None = None  # the game's icons and the shipped ones (render.icons.game_icons); None: the shipped set

    safe: float | None = None  # the current card's safe margin (pt); None: no safe area (a board)
    round_cut: bool = False  # the current card is cut along the circle inscribed in its trim
    #: None: a text that does not fit its box fails the build.  A list (a pseudo-localised proof,
    #: ``--lang qps``): such a text is drawn anyway at its smallest size, running past its box,
    #: the box framed in red; the element's message is added to the list.
    overflow: list[str] | None = None

    def place(self, x0: float, y0: float, width: float, height: float, bleed: tuple[float, float, float, float],
              safe: float | None = None, round_cut: bool = False) -> None:
        """Set the current card's geometry (all in pt); ``safe`` None for a drawing with no safe
        area (a board, whose text no cut reaches)."""
        self.x0, self.y0, self.width, self.height, self.bleed = x0, y0, width, height, bleed
        self.safe, self.round_cut = safe, round_cut

    def beyond_safe(self, boxes: list[tuple[float, float, float, float]]) -> str | None:
        """How far the ``boxes`` (each ``(left, bottom, right, top)``, pt, y up: a line of text as
        placed on the card) leave the card's safe area, in words (``"by 1.2 mm at the right"``),
        or None when they stay inside it (or there is none).  The safe area is the trim inset by
        the safe margin; on a round card, the circle inscribed in the trim, inset alike
        (print-and-engines.md: "Safe area: about 3 mm inside the trim; nothing important outside it")."""
        if self.safe is None or not boxes:
            return None
        s, tolerance = self.safe, 0.01 * mm
        if self.round_cut:
            cx, cy = self.x0 + self.width / 2, self.y0 - self.height / 2
            radius = min(self.width, self.height) / 2 - s
            reach, x, y = max((hypot(x - cx, y - cy), x - cx, y - cy) for box in boxes for x in box[0::2] for y in box[1::2])
            if reach <= radius + tolerance:
                return None
            side = _DIRECTIONS[round(degrees(atan2(y, x)) / 45) % 8]
            return f"by {(reach - radius) / mm:.1f} mm at the {side}"
        left, right, bottom, top = self.x0 + s, self.x0 + self.width - s, self.y0 - self.height + s, self.y0 - s
        if all(x1 >= left - tolerance and x2 <= right + tolerance and y1 >= bottom - tolerance and y2 <= top + tolerance for x1, y1, x2, y2 in boxes):
            return None  # inside: every card's every text asks, so this is answered first
        lefts, bottoms, rights, tops = zip(*boxes)
        over = {"left": left - min(lefts), "right": max(rights) - right, "top": max(tops) - top, "bottom": bottom - min(bottoms)}
        return "by " + ", ".join(f"{gap / mm:.1f} mm at the {side}" for side, gap in over.items() if gap > tolerance)


class Element:
    """Base of the element kinds: keeps the element's dict, its layout path and its ``when``."""

    kind = ""

    def __init__(self, spec: dict[str, Any], path: tuple):
        self.spec = spec
        self.path = path
        self.when = compile_expression(spec["when"]) if "when" in spec else None
        self.colours = {k: template(spec[k], k) for k in _COLOUR_KEYS if k in spec}

    def visible(self, fields: dict[str, Any]) -> bool:
        """Whether to draw for these fields: ``when`` holds
        (:meth:`~deckpress.generator.content.expressions.Expression.holds`: a bare field name holds
        when the card has a value there, ``0`` included; an expression when it is true).

        Raises:
            LayoutError: at ``when``: its expression fails on these fields.
        """
        if self.when is None:
            return True
        try:
            return self.when.holds(fields)
        except ExpressionError as exc:
            raise LayoutError(self.path + ("when",), f"when: '{excerpt(self.when.source)}': {exc}") from None

    def colour(self, painter: Painter, key: str, fields: dict[str, Any], default: str | None = None) -> Color | None:
        """The colour under ``key`` (template filled, palette resolved), or None if absent."""
        template = self.colours.get(key)
        if template is None:
            if default is None:
                return None
            return painter.resolve_colour(default)
        name = template.render(fields, self.path)
        try:
            return painter.resolve_colour(name)
        except KeyError as exc:
            hint = str(exc.args[0]) if exc.args and str(exc.args[0]).startswith("did you mean") else _COLOUR_FORMS  # the palette's near names
            raise LayoutError(self.path, f"{key}: unknown colour '{excerpt(name)}' ({hint})") from None

    def draw(self, p: Painter, fields: dict[str, Any], dx: float, dy: float) -> None:
        """Draw at offset ``(dx, dy)`` mm from the card's trim top-left."""
        raise NotImplementedError


def _box(p: Painter, spec: dict, dx: float, dy: float) -> tuple[float, float, float, float]:
    """An element's box in PDF points: (x, y_bottom, w, h)."""
    x, y, w, h = (spec["x_mm"] + dx) * mm, (spec["y_mm"] + dy) * mm, spec["w_mm"] * mm, spec["h_mm"] * mm
    return p.x0 + x, p.y0 - y - h, w, h


class Rect(Element):
    """A rectangle; with ``bleed: true`` it extends into the bleed where it touches the trim."""

    kind = "rect"

    def draw(self, p, fields, dx, dy):
        x, y, w, h = _box(p, self.spec, dx, dy)
        if self.spec.get("bleed"):
            left, right, top, bottom = p.bleed
            eps = 0.01
            if x <= p.x0 + eps:
                x, w = x - left, w + left
            if x + w >= p.x0 + p.width - eps:
                w += right
            if y + h >= p.y0 - eps:
                h += top
            if y <= p.y0 - p.height + eps:
                y, h = y - bottom, h + bottom
        radius = self.spec.get("radius_mm")
        _shape(self, p, fields, lambda c, s, f: c.addLiteral(f"{_round_rect(x, y, w, h, radius * mm)}\n{PATH_OPS[s, f, c._fillMode]}")
               if radius else c.rect(x, y, w, h, stroke=s, fill=f))


@lru_cache(maxsize=4096)
def _round_rect(x: float, y: float, w: float, h: float, radius: float) -> str:
    """The path of a rectangle with rounded corners (pt), as ``Canvas.roundRect`` writes it before
    its painting operator (one operator a line): the same places recur on every sheet."""
    code: list[str] = []
    PDFPathObject(code=code).roundRect(x, y, w, h, radius)
    return "\n".join(code)


class Circle(Element):
    """A circle, filled and/or outlined (dashed with ``dash_pt``)."""

    kind = "circle"

    def draw(self, p, fields, dx, dy):
        cx, cy, r = p.x0 + (self.spec["cx_mm"] + dx) * mm, p.y0 - (self.spec["cy_mm"] + dy) * mm, self.spec["r_mm"] * mm
        _shape(self, p, fields, lambda c, s, f: c.circle(cx, cy, r, stroke=s, fill=f))


class Line(Element):
    """A straight line (dashed with ``dash_pt``)."""

    kind = "line"

    def draw(self, p, fields, dx, dy):
        s = self.spec
        _shape(self, p, fields, lambda c, st, f: c.line(p.x0 + (s["x1_mm"] + dx) * mm, p.y0 - (s["y1_mm"] + dy) * mm,
                                                          p.x0 + (s["x2_mm"] + dx) * mm, p.y0 - (s["y2_mm"] + dy) * mm),
               default_stroke="#000000")


def _shape(el: Element, p: Painter, fields, paint, default_stroke: str | None = None) -> None:
    c = p.canvas
    fill = el.colour(p, "fill", fields)
    stroke = el.colour(p, "stroke", fields, default_stroke)
    if fill is None and stroke is None:
        return
    dash = el.spec.get("dash_pt")
    if stroke is not None:
        c.setStrokeColor(stroke)
        c.setLineWidth(el.spec.get("stroke_pt", 0.5))
        if dash:
            c.setDash(dash)
    if fill is not None:
        c.setFillColor(fill)
    paint(c, int(stroke is not None), int(fill is not None))
    if dash:
        c.setDash()


#: A text's ``rotate`` (degrees clockwise, as seen on the card) as the (a, b, c, d) of a PDF
#: transformation matrix: exact numbers, so a rotated text's bytes never hold rounding noise.
_TURNS = {90: (0, -1, 1, 0), 180: (-1, 0, 0, -1), 270: (0, 1, -1, 0)}


def _turned(box: tuple[float, float, float, float], turn: tuple[int, int, int, int], cx: float, cy: float) -> tuple[float, float, float, float]:
    """``box`` ``(left, bottom, right, top)`` in a turned text's own frame (pt, origin at its box's
    centre) as placed on the card: turned by ``turn`` (a :data:`_TURNS` matrix) about ``(cx, cy)``."""
    a, b, c, d = turn
    corners = [(u, v) for u in box[0::2] for v in box[1::2]]
    xs = [a * u + c * v + cx for u, v in corners]
    ys = [b * u + d * v + cy for u, v in corners]
    return min(xs), min(ys), max(xs), max(ys)


def _draw_with_icons(p: Painter, x: float, base: float, line: str, chain: tuple[str, ...], size: float, colour: Color, knockout: Color,
                     images: dict[str, Any]) -> None:
    """One line of a text with inline icons, starting at ``x`` on baseline ``base`` (pt): its
    words as :func:`~deckpress.generator.render.scripts.draw` draws them, its ``:name:`` icons
    :data:`~deckpress.generator.render.text.ICON_EM` square, sunk :data:`~deckpress.generator.render.text.ICON_DROP_EM`
    below the baseline: the image ``images`` holds for the name (an ImageReader, fitted in the
    square), else the icon of the icon set."""
    side = ICON_EM * size
    for part, is_icon in pieces(line):
        if is_icon:
            bottom = base - ICON_DROP_EM * size
            if part in images:
                p.canvas.drawImage(images[part], x, bottom, side, side, preserveAspectRatio=True, anchor="c", mask="auto")
            else:
                draw_icon(p.canvas, part, x, bottom + side, side, colour, knockout, p.forms, p.icons)
            x += side
        else:
            scripts.draw(p.canvas, x, base, part, chain, size)
            x += scripts.width(part, chain, size)


def _open_image(p: Painter, source: str, path: tuple, prefix: str = "", of_card: bool = True) -> Any:
    """The image ``source`` (a path in the game's folder) through the painter's gate, as a reader.

    Raises:
        LayoutError: at ``path``: no image source here, or the gate refuses it (``prefix`` starts
            the message; ``of_card``: the card's data named it, not the layout).
    """
    if p.open_image is None:
        raise LayoutError(path, "images cannot be drawn here (no image source)")
    try:
        return p.open_image(source)
    except ValueError as exc:
        raise LayoutError(path, f"{prefix}image '{excerpt(source)}' {exc}", of_card=of_card) from None


class Text(Element):
    """Text fitted in its box (see :func:`deckpress.generator.render.text.fit`); printed literally.

    ``rotate`` (0, 90, 180 or 270 degrees, clockwise as seen on the card) turns the text about the
    centre of its box, and the box stays where it is: at 180 the text is fitted in the box as it is
    and printed upside down (a playing card's bottom-right index), at 90 and 270 it is fitted in
    the box turned on its side (``h_mm`` long, ``w_mm`` high) and runs down (90) or up (270).
    With ``inline_icons``, ``:name:`` in the text draws icon ``name`` of the icon set in the line,
    in the text's colour with ``knockout`` (default white) for its inner details; with
    ``inline_images`` (name -> image file of the game's folder, through the image gate),
    ``:name:`` draws that image, fitted in the same :data:`~deckpress.generator.render.text.ICON_EM`
    square.  A name neither has fails the card.  With ``markup`` ('html' or 'markdown'), or icon
    tokens the game declares where icons are drawn, the text is rich
    (:func:`deckpress.generator.render.text.fit_markup`): bold, italic, line breaks, rules, icons.
    """

    kind = "text"

    def __init__(self, spec, path):
        super().__init__(spec, path)
        self.template = Template(spec["text"])
        self.style = spec.get("font", "regular")
        self.size = spec["font_pt"]
        self.min_size = spec.get("min_font_pt", min(self.size, 6))
        self.align = spec.get("align", "left")
        self.valign = spec.get("valign", "middle")
        self.wrap = spec.get("wrap", False)
        self.leading = spec.get("leading", 1.15)
        self.rotate = spec.get("rotate", 0)
        self.icon_set = spec.get("inline_icons", False)
        self.images: dict[str, str] = spec.get("inline_images", {})
        self.icons = self.icon_set or bool(self.images)  # :name: tokens are drawn, not printed
        self.markup = spec.get("markup", "none")
        self.html_tags = tuple(sorted(spec.get("html_tags", {}).items()))  # the data's own tags, and what each draws

    def draw(self, p, fields, dx, dy):
        text = self.template.render(fields, self.path)
        if not text:
            return
        rich = self.markup != "none" or (self.icons and bool(p.fonts.tokens))
        images = self._inline_images(p, text) if self.icons and not rich else {}
        x, y, w, h = _box(p, self.spec, dx, dy)
        turn = _TURNS.get(self.rotate)
        if turn is not None:
            # lay the text out in the box's own frame: origin at its centre, turned with the text
            cx, cy = x + w / 2, y + h / 2
            if self.rotate != 180:
                w, h = h, w
            x, y = -w / 2, -h / 2
        chain = p.fonts.chain(self.style)
        overflowing = False
        try:
            try:
                f = self._fit(text, rich, p, chain, w, h, self.size)
            except TextOverflow as exc:
                message = f"text '{self.template.source}' = '{text}' {exc} in its {self.spec['w_mm']} x {self.spec['h_mm']} mm box"
                if p.overflow is None:
                    raise LayoutError(self.path, message, of_card=self.template.varies()) from None
                p.overflow.append(message)
                overflowing = True  # drawn at its smallest size, as much room as it takes
                try:
                    f = self._fit(text, rich, p, chain, w if self.wrap else _UNBOUNDED, _UNBOUNDED, self.min_size)
                except TextOverflow:  # a word wider than the box: on one line
                    f = self._fit(text, rich, p, chain, _UNBOUNDED, _UNBOUNDED, self.min_size)
        except (scripts.Unprintable, MarkupError) as exc:
            raise LayoutError(self.path, f"text '{self.template.source}' = '{text}' {exc}", of_card=self.template.varies()) from None
        if rich and self.icons:
            images = self._inline_images(p, text, f.icons)
        c = p.canvas
        colour = self.colour(p, "colour", fields, "#000000")
        if turn is not None:
            c.saveState()
            c.transform(*turn, cx, cy)
        c.setFillColor(colour)
        step = f.size * self.leading
        block = (len(f.lines) - 1) * step + (f.ascent - f.descent)
        if self.valign == "top":
            base = y + h - f.ascent
        elif self.valign == "bottom":
            base = y + block - f.ascent
        else:
            base = y + (h + block) / 2 - f.ascent
        if self.align == "center":
            anchor, shift = x + w / 2, 0.5
        elif self.align == "right":
            anchor, shift = x + w, 1.0
        else:
            anchor, shift = x, 0.0
        inks = [(anchor - shift * wl, base - i * step + f.descent, anchor + (1 - shift) * wl, base - i * step + f.ascent)
                for i, wl in enumerate(f.widths)]  # each line's box (pt) in the text's own frame
        knockout = self.colour(p, "knockout", fields, "#ffffff") if self.icons else None
        try:
            for (left, *_), line in zip(inks, f.lines):
                if rich:
                    draw_rich_line(c, left, base, line, f, w, p.fonts, colour, knockout, images, p.forms, p.icons)
                elif knockout is None:
                    if f.font is not None and line:
                        scripts.draw_in(c, anchor, base, line, f.font, f.size, self.align)
                    else:
                        scripts.draw(c, anchor, base, line, chain, f.size, self.align)
                else:
                    _draw_with_icons(p, left, base, line, chain, f.size, colour, knockout, images)
                base -= step
        finally:
            if turn is not None:
                c.restoreState()
        if overflowing:
            _frame_overflow(c, x, y, w, h, turn, cx if turn is not None else 0.0, cy if turn is not None else 0.0)
            return
        if turn is not None:
            inks = [_turned(box, turn, cx, cy) for box in inks]
        beyond = p.beyond_safe(inks)
        if beyond is not None:
            raise LayoutError(self.path, f"text '{self.template.source}' = '{text}' crosses the safe area "
                                         f"({p.safe / mm:g} mm inside the cut) {beyond}, where the cut may take it off: move or narrow "
                                         "its box, or lower the card's safe_mm", of_card=self.template.varies())

    def _fit(self, text: str, rich: bool, p: Painter, chain: tuple[str, ...], w: float, h: float, size: float):
        """The text fitted in a ``w`` x ``h`` pt box, from ``size`` down to the element's smallest.

        Raises:
            TextOverflow: it does not fit even at the smallest size.
        """
        if rich:
            return fit_markup(text, self.markup, p.fonts, self.style, self.icons, size, self.min_size, w, h, self.wrap, self.leading,
                              self.html_tags)
        return fit(text, chain, size, self.min_size, w, h, self.wrap, self.leading, self.icons)

    def _inline_images(self, p: Painter, text: str, icons: tuple[str, ...] | None = None) -> dict[str, Any]:
        """The images of the ``:name:`` tokens of ``text`` (or of the ``icons`` named, from rich
        text) that name one of ``inline_images`` (name -> ImageReader).

        Raises:
            LayoutError: a token that names neither one of ``inline_images`` nor (with
                ``inline_icons``) an icon of the icon set, with the nearest names; an image the
                gate refuses.
        """
        names = list(dict.fromkeys(ICON_TOKEN.findall(text) if icons is None else icons))
        available = p.icons if p.icons is not None else icon_set()
        unknown = [name for name in names if name not in self.images and not (self.icon_set and name in available)]
        if unknown:
            known = sorted(set(self.images) | (set(available) if self.icon_set else set()))
            where = " or ".join(what for what, used in (("inline_images", self.images), ("the icon set", self.icon_set)) if used)
            hint = icon_hint if self.icon_set else choices
            raise LayoutError(self.path, f"text '{self.template.source}' = '{text}': " + "; ".join(
                (f"':{excerpt(name)}:'" if icons is None else f"icon '{excerpt(name)}'") + f" is not in {where} ({hint(name, known)})"
                for name in unknown), of_card=self.template.varies())
        return {name: _open_image(p, self.images[name], self.path, f"inline_images.{name}: ", of_card=False)
                for name in names if name in self.images}


#: A box too large to overflow (pt): a text fitted in it takes the room it needs.
_UNBOUNDED = 1e6


def _frame_overflow(c: Canvas, x: float, y: float, w: float, h: float, turn, cx: float, cy: float) -> None:
    """A red dashed frame round a text box (pt, in the text's own frame, turned by ``turn`` about
    ``(cx, cy)`` when given) whose text runs past it: a pseudo-localised proof's mark."""
    c.saveState()
    if turn is not None:
        c.transform(*turn, cx, cy)
    c.setStrokeColorRGB(0.85, 0.1, 0.1)
    c.setLineWidth(0.8)
    c.setDash(2, 1.5)
    c.rect(x, y, w, h, stroke=1, fill=0)
    c.restoreState()


class Icon(Element):
    """A vector icon from the icon set, ``size_mm`` square; ``rotate`` (0, 90, 180 or 270 degrees,
    clockwise as seen on the card) turns it about its centre."""

    kind = "icon"

    def __init__(self, spec, path):
        super().__init__(spec, path)
        self.template = template(spec["icon"], "icon")
        self.turn = _TURNS.get(spec.get("rotate", 0))

    def draw(self, p, fields, dx, dy):
        name = self.template.render(fields, self.path)
        icons = p.icons if p.icons is not None else icon_set()
        if name not in icons:  # the card's fault when its field names the icon; else the layout's, told once
            raise LayoutError(self.path, f"icon '{excerpt(name)}' is not in the icon set ({icon_hint(name, icons)})", of_card=self.template.varies())
        size = self.spec["size_mm"] * mm
        x, y = p.x0 + (self.spec["x_mm"] + dx) * mm, p.y0 - (self.spec["y_mm"] + dy) * mm  # top-left, pt
        colour, knockout = self.colour(p, "colour", fields, "#000000"), self.colour(p, "knockout", fields, "#ffffff")
        if self.turn is None:
            draw_icon(p.canvas, name, x, y, size, colour, knockout, p.forms, p.icons)
            return
        c = p.canvas
        c.saveState()
        c.transform(*self.turn, x + size / 2, y - size / 2)  # about the icon's centre
        draw_icon(c, name, -size / 2, size / 2, size, colour, knockout, p.forms, p.icons)
        c.restoreState()


class Rows(Element):
    """Its elements drawn once per item of a list field, stepping by ``dx_mm``/``dy_mm``; each
    item's fields are added to the card's."""

    kind = "rows"

    def __init__(self, spec, path):
        super().__init__(spec, path)
        self.elements = compile_elements(spec["elements"], path + ("elements",))

    def draw(self, p, fields, dx, dy):
        items = _find(fields, self.spec["items"])
        if not isinstance(items, list):
            raise LayoutError(self.path, f"items: '{self.spec['items']}' is not a list field of this card")
        x, y = dx + self.spec["x_mm"], dy + self.spec["y_mm"]
        for item in items:
            merged = {**fields, **item}
            for el in self.elements:
                if el.visible(merged):
                    el.draw(p, merged, x, y)
            x += self.spec.get("dx_mm", 0)
            y += self.spec.get("dy_mm", 0)


class Image(Element):
    """A raster image scaled to cover its box (cropped at the edges).  ``image`` is a path, or a
    ``{field}`` holding one, relative to the game's folder; the painter's ``open_image``
    (:class:`deckpress.generator.render.images.ImageSource`) resolves and checks it through the
    gate (inside the folder, PNG or JPEG, verified, within the limits) or raises."""

    kind = "image"

    def __init__(self, spec, path):
        super().__init__(spec, path)
        self.template = template(spec["image"], "image")

    def draw(self, p, fields, dx, dy):
        source = self.template.render(fields, self.path)
        x, y, w, h = _box(p, self.spec, dx, dy)
        reader = _open_image(p, source, self.path)
        iw, ih = reader.getSize()
        scale = max(w / iw, h / ih)
        c = p.canvas
        c.saveState()
        clip = c.beginPath()
        clip.rect(x, y, w, h)
        c.clipPath(clip, stroke=0, fill=0)
        c.drawImage(reader, x + (w - iw * scale) / 2, y + (h - ih * scale) / 2, iw * scale, ih * scale)
        c.restoreState()


ELEMENT_KINDS: dict[str, type[Element]] = {cls.kind: cls for cls in (Rect, Circle, Line, Text, Icon, Rows, Image)}


def compile_elements(specs: list[dict], path: tuple, paths: list[tuple] | None = None) -> list[Element]:
    """Element objects for a validated list of element dicts at ``path`` in layout.yaml, or each
    at its own place ``paths`` (elements a card kind takes from the one it extends)."""
    return [ELEMENT_KINDS[spec["type"]](spec, paths[i] if paths is not None else path + (i,)) for i, spec in enumerate(specs)]


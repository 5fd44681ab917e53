"""Fitting text in a box: shrink to fit in both directions, down to a minimum, then fail loudly.

Sizes in points.  Widths are those of the text as drawn (:mod:`deckpress.generator.render.scripts`:
each character in the first font of the chain that has it, shaped where the script needs it), so a
Hindi name shrinks or wraps like a Latin one.  Heights are the chain's first font's.  Results are
cached: the same text in the same box is fitted once per run.

With ``icons`` (a text element's ``inline_icons`` or ``inline_images``), ``:name:`` in the text stands
for an icon of the icon set or a picture of the game's, drawn in the line as a square :data:`ICON_EM`
wide and high (Squib's ``embed``, nanDECK's inline images): it is measured, wrapped and shrunk with
the words around it.

Rich text (:func:`fit_rich`, :func:`draw_rich_line`): a text in markup
(:mod:`deckpress.generator.render.markup`) is runs in several styles (bold, italic), icons (with a
number drawn on them, from the game's icon tokens), line breaks and horizontal rules; it is fitted
by the same rule (shrink to fit, then fail loudly) and drawn run by run, each run shaped and
measured as plain text is.  Plain text keeps its own path, so a layout without markup prints as it
always did.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import groupby
from typing import NamedTuple

from reportlab.lib.rl_accel import fp_str
from reportlab.lib.utils import (
    _simpleSplit,  # reportlab's greedy line breaker, given our width function
)
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth
from reportlab.pdfgen.canvas import Canvas

from deckpress.generator.render.fonts import Fonts
from deckpress.generator.render.icons import Icons, draw_icon
from deckpress.generator.render.markup import NO_TOKENS, Run, parse
from deckpress.generator.render.scripts import (
    TextOps,
    draw,
    glyph_ops,
    needs_shaping,
    runs,
    size_ops,
    width,
)

_STEP_PT = 0.25
#: How many fitted texts are kept for reuse (the most recent): a text drawn again (a card's copies,
#: a back's, the studio's next look at a card) is fitted once, and a large deck's texts, each
#: drawn once, do not all stay in memory for the garbage collector to walk again and again.
FITTED_KEPT = 512
#: An inline icon in a text: ``:name:``, an icon of the icon set or one of the element's ``inline_images``.
ICON_TOKEN = re.compile(r":([a-z][a-z0-9-]*):")
#: An inline icon's width and height, in ems of the text's size (pt per pt), and how far it
#: reaches below the baseline, in ems: it sits on the line as a capital letter does, a little lower.
ICON_EM, ICON_DROP_EM = 1.0, 0.15


def pieces(text: str) -> list[tuple[str, bool]]:
    """``text`` as ``(words, False)`` and ``(icon name, True)`` pieces in order, its ``:name:``
    tokens being the icons (empty words left out)."""
    parts = ICON_TOKEN.split(text)  # even indices words, odd indices icon names
    return [(part, i % 2 == 1) for i, part in enumerate(parts) if part]


def measure(text: str, chain: tuple[str, ...], size_pt: float, icons: bool = False) -> float:
    """The drawn width of ``text`` at ``size_pt`` (pt), its ``:name:`` icons :data:`ICON_EM` wide
    each with ``icons``.

    Raises:
        Unprintable: as :func:`~deckpress.generator.render.scripts.width`.
    """
    if not icons:
        return width(text, chain, size_pt)
    return sum(ICON_EM * size_pt if is_icon else width(part, chain, size_pt) for part, is_icon in pieces(text))


@dataclass(frozen=True)
class Fitted:
    """Text laid out in a box: the size chosen (pt), its lines, the font's ascent and descent at
    that size (pt; descent is negative), the width of each line as drawn (pt), and the one font
    that draws the whole text unshaped (the chain's first; None when the text needs more, or
    shaping, or has icons): then each line is drawn in it
    (:func:`~deckpress.generator.render.scripts.draw_in`)."""

    size: float
    lines: tuple[str, ...]
    ascent: float
    descent: float
    widths: tuple[float, ...]
    font: str | None = None


class TextOverflow(ValueError):
    """The text does not fit its box even at the minimum size."""


def split(text: str, chain: tuple[str, ...], size_pt: float, w_pt: float, icons: bool = False) -> list[str]:
    """``text`` broken into lines at spaces and line breaks, each at most ``w_pt`` wide where a
    break allows (a longer word stays whole on its line); with ``icons``, as :func:`measure`.

    Text that the chain's first font draws whole, unshaped (most Latin text), is measured by
    reportlab's ``stringWidth`` directly: the same widths as :func:`measure` gives (every part of
    it is drawn in that font too), without the look-ups."""
    if not icons and _one_font(text, chain):
        font = chain[0]
        measured = lambda s: stringWidth(s, font, size_pt)
    else:
        measured = lambda s: measure(s, chain, size_pt, icons)
    lines = []
    for line in text.split("\n"):
        lines.extend(_simpleSplit(line, w_pt, measured))
    return lines


@lru_cache(maxsize=65536)
def _one_font(text: str, chain: tuple[str, ...]) -> bool:
    """Whether the first font of ``chain`` draws all of ``text``, unshaped: then so it does every
    part of it (each word of a part lies within a word of ``text``).

    Raises:
        Unprintable: as :func:`~deckpress.generator.render.scripts.runs`.
    """
    parts = runs(text, chain)
    return all(font == chain[0] for font, _ in parts) and not needs_shaping(text)


@lru_cache(maxsize=FITTED_KEPT)
def fit(text: str, chain: tuple[str, ...], size_pt: float, min_pt: float, w_pt: float, h_pt: float, wrap: bool, leading: float,
        icons: bool = False) -> Fitted:
    """Lay ``text`` out in a ``w_pt`` x ``h_pt`` box in the fonts of ``chain``, at ``size_pt`` or smaller.

    One line unless ``wrap``; wrapped text breaks at spaces and line breaks.  With ``icons``, its
    ``:name:`` tokens are inline icons (:func:`measure`).

    Raises:
        TextOverflow: if even ``min_pt`` does not fit (the message gives the size needed).
        Unprintable: a character no font of the chain draws, or right-to-left text (the message
            names the characters).
    """
    asc, desc = getAscentDescent(chain[0], 1.0)
    height_per_pt = asc - desc
    # a text the chain's first font draws whole and unshaped is one run of it, and so is each of
    # its lines (words of it joined by spaces): measured and drawn in that font, with no look-ups
    font = chain[0] if text and not icons and _one_font(text, chain) else None
    if not wrap:
        one = stringWidth(text, font, 1.0) if font is not None else measure(text, chain, 1.0, icons)
        size = min(size_pt, w_pt / one if one else size_pt, h_pt / height_per_pt)
        if size + 1e-9 < min_pt:
            raise TextOverflow(f"needs {size:.1f} pt to fit on one line, below the minimum of {min_pt} pt")
        return Fitted(round(size, 3), (text,), asc * size, desc * size, (one * round(size, 3),), font)
    size = size_pt
    while size + 1e-9 >= min_pt:
        lines = tuple(split(text, chain, size, w_pt, icons))
        widths = (tuple([stringWidth(line, font, size) for line in lines]) if font is not None
                  else tuple(measure(line, chain, size, icons) for line in lines))
        total = (len(lines) - 1) * size * leading + size * height_per_pt
        if all(w <= w_pt + 0.01 for w in widths) and total <= h_pt + 0.01:
            return Fitted(size, lines, asc * size, desc * size, widths, font)
        size -= _STEP_PT
    n = len(split(text, chain, min_pt, w_pt, icons))
    raise TextOverflow(f"takes {n} line{'s' * (n != 1)} even at the minimum of {min_pt} pt, more than its box holds")


# Rich text: runs in several styles, icons with their numbers, forced line breaks and rules
# (:mod:`deckpress.generator.render.markup` reads them from a card's markup).

#: Where words break: spaces, tabs (a no-break space U+00A0 does not).
_SPACES = " \t\r\n\f\v"
_SPACE = re.compile(f"[{re.escape(_SPACES)}]+")
#: A horizontal rule's thickness, in ems of the text's size (at least :data:`RULE_MIN_PT`), and
#: the size of a number drawn on an icon, in ems of the icon's side.
RULE_EM, RULE_MIN_PT, LABEL_EM = 0.06, 0.4, 0.6


class RichLine(NamedTuple):
    """One line of rich text as laid out: its runs (words with their spaces, icons) left to right,
    or a horizontal rule (``rule``; no runs); for each run, the one font that draws it whole and
    unshaped (None: drawn run by run, :func:`deckpress.generator.render.scripts.draw`) and its
    width at 1 pt (pt per pt).  (A named tuple: a deck makes thousands.)"""

    runs: tuple[Run, ...] = ()
    rule: bool = False
    fonts: tuple[str | None, ...] = ()
    units: tuple[float, ...] = ()


@dataclass(frozen=True)
class RichFitted:
    """Rich text laid out in a box, as :class:`Fitted`: the size chosen (pt), its lines, the base
    style's ascent and descent at that size (pt; descent negative) and each line's width as drawn
    (pt; a rule's is the box's)."""

    size: float
    lines: tuple[RichLine, ...]
    ascent: float
    descent: float
    widths: tuple[float, ...]
    icons: tuple[str, ...] = ()


#: Widths at 1 pt (pt per pt) of the words met so far, per chain, with the one font that draws each
#: whole and unshaped (or None): words recur from card to card.
_UNIT: dict[tuple[str, ...], dict[str, tuple[float, str | None]]] = {}
_UNIT_MAX = 200_000


def _measured(word: str, chain: tuple[str, ...], known: dict[str, tuple[float, str | None]]) -> tuple[float, str | None]:
    """``word``'s width at 1 pt in ``chain`` and the font that draws it whole (or None), kept in ``known``.

    Raises:
        Unprintable: as :func:`deckpress.generator.render.scripts.runs`.
    """
    found = known[word] = (width(word, chain, 1.0), chain[0] if _one_font(word, chain) else None)
    return found


def _unit_widths(chain: tuple[str, ...]) -> dict[str, tuple[float, str | None]]:
    """The cache of word widths at 1 pt for ``chain`` (cleared with :func:`fit_rich`'s cache)."""
    found = _UNIT.get(chain)
    if found is None or len(found) > _UNIT_MAX:
        found = _UNIT[chain] = {}
    return found


def clear_caches() -> None:
    """Forget every text fitted and every width measured (a benchmark's runs start even)."""
    for cached in (fit, fit_rich, _one_font):
        cached.cache_clear()
    _UNIT.clear()
    _PIECES.clear()


#: A piece of a line as laid out: (words, style, width at 1 pt, the one font that draws them whole
#: and unshaped or None), or an icon's :class:`Run`.
_Piece = tuple


def _words(block: tuple[Run, ...], fonts: Fonts, icons: list[str]) -> list[tuple[list[_Piece], float, _Piece | None, float]]:
    """A block as its words, each ``(pieces, width at 1 pt, the space before it or None, its width
    at 1 pt)``: a word is what lies between spaces, whatever styles and icons it holds; a space is
    one space in the style of the spaces it stands for.  The names of its icons are added to
    ``icons``, in order.

    Raises:
        Unprintable: as :func:`deckpress.generator.render.scripts.runs`.
    """
    words: list[tuple[list[_Piece], float, _Piece | None, float]] = []
    current: list[_Piece] = []
    current_w = 0.0
    pending: _Piece | None = None
    for run in block:
        if run.icon is not None:
            current.append(run)
            current_w += ICON_EM
            icons.append(run.icon.icon)
            continue
        style = run.style
        chain = fonts.chain(style)
        made = _pieces_in(style, chain)
        space = made.get(" ") or _piece(" ", style, chain, made)
        # between two parts of the split, spaces: one space of this style between two words
        for k, word in enumerate(_SPACE.split(run.text)):
            if k:
                if current:
                    words.append((current, current_w, pending if words else None, pending[2] if words else 0.0))  # type: ignore[index]
                    current, current_w = [], 0.0
                pending = space
            if word:
                piece = made.get(word) or _piece(word, style, chain, made)
                current.append(piece)
                current_w += piece[2]
    if current:
        words.append((current, current_w, pending if words else None, pending[2] if words else 0.0))  # type: ignore[index]
    return words


#: The pieces made so far, per style and its chain: word -> its :data:`_Piece`, one tuple for
#: every time the word is met (cleared with :func:`fit_rich`'s cache).
_PIECES: dict[tuple[str, tuple[str, ...]], dict[str, _Piece]] = {}


def _pieces_in(style: str, chain: tuple[str, ...]) -> dict[str, _Piece]:
    """The pieces made so far in ``style``, drawn with ``chain``."""
    found = _PIECES.get((style, chain))
    if found is None or len(found) > _UNIT_MAX:
        found = _PIECES[style, chain] = {}
    return found


def _piece(word: str, style: str, chain: tuple[str, ...], made: dict[str, _Piece]) -> _Piece:
    """``word`` in ``style`` as a :data:`_Piece` (measured at 1 pt in ``chain``), kept in ``made``.

    Raises:
        Unprintable: as :func:`deckpress.generator.render.scripts.runs`.
    """
    known = _unit_widths(chain)
    w, font = known.get(word) or _measured(word, chain, known)
    found = made[word] = (word, style, w, font)
    return found


def _break_lines(words, limit: float) -> list[tuple[list[_Piece], float]]:
    """Greedy lines of ``words`` (as :func:`_words`), each at most ``limit`` wide at 1 pt where a
    break allows (a longer word stays whole on its line, as the plain engine does)."""
    lines: list[tuple[list[_Piece], float]] = []
    line: list[_Piece] = []
    total = 0.0
    for parts, w, gap, gap_w in words:
        if line and total + gap_w + w <= limit + 1e-9:
            if gap is not None:
                line.append(gap)
            line.extend(parts)
            total += gap_w + w
        else:
            if line:
                lines.append((line, total))
            line, total = list(parts), w
    lines.append((line, total))
    return lines


@lru_cache(maxsize=FITTED_KEPT)
def fit_rich(blocks: tuple, fonts: Fonts, base: str, size_pt: float, min_pt: float, w_pt: float, h_pt: float, wrap: bool,
             leading: float) -> RichFitted:
    """Lay out ``blocks`` (:func:`deckpress.generator.render.markup.parse`) in a ``w_pt`` x
    ``h_pt`` box at ``size_pt`` or smaller, down to ``min_pt``, as :func:`fit` does plain text: each
    block starts a line, a rule takes a line of its own, and with ``wrap`` a block breaks at its
    spaces.  Words are measured once, at 1 pt, and scaled: every size tried costs only arithmetic.
    Heights are those of ``base``'s chain's first font.

    Raises:
        TextOverflow: even ``min_pt`` does not fit (the message gives the size or lines needed).
        Unprintable: a character no font of its style's chain draws, or right-to-left text.
    """
    asc, desc = getAscentDescent(fonts.chain(base)[0], 1.0)
    height_per_pt = asc - desc
    names: list[str] = []
    parts = [None if block is None else _words(block, fonts, names) for block in blocks]
    icons = tuple(dict.fromkeys(names))  # the icons drawn, each once, in order

    def lay_out(limit: float) -> list[tuple[list[_Piece], float] | None]:
        out: list[tuple[list[_Piece], float] | None] = []
        for words in parts:
            if words is None:
                out.append(None)
            elif wrap:
                out.extend(_break_lines(words, limit))
            else:
                out.append(_break_lines(words, float("inf"))[0])
        return out

    def result(size: float, lines) -> RichFitted:
        return RichFitted(size, tuple(RichLine(rule=True) if line is None else _merged_line(line[0]) for line in lines),
                          asc * size, desc * size, tuple(w_pt if line is None else line[1] * size for line in lines), icons)

    if not wrap:
        lines = lay_out(float("inf"))
        widest = max((line[1] for line in lines if line is not None), default=0.0)
        tall = (len(lines) - 1) * leading + height_per_pt
        size = min(size_pt, w_pt / widest if widest else size_pt, h_pt / tall)
        if size + 1e-9 < min_pt:
            raise TextOverflow(f"needs {size:.1f} pt to fit, below the minimum of {min_pt} pt")
        return result(round(size, 3), lines)
    size = size_pt
    while size + 1e-9 >= min_pt:
        lines = lay_out((w_pt + 0.01) / size)
        total = (len(lines) - 1) * size * leading + size * height_per_pt
        if all(line is None or line[1] * size <= w_pt + 0.01 for line in lines) and total <= h_pt + 0.01:
            return result(size, lines)
        size -= _STEP_PT
    n = len(lay_out((w_pt + 0.01) / min_pt))
    raise TextOverflow(f"takes {n} line{'s' * (n != 1)} even at the minimum of {min_pt} pt, more than its box holds")


def fit_markup(text: str, markup: str, fonts: Fonts, style: str, icons: bool, size_pt: float, min_pt: float, w_pt: float, h_pt: float,
               wrap: bool, leading: float, tags: tuple[tuple[str, str], ...] = ()) -> RichFitted:
    """``text`` written in ``markup`` ('none', 'html' or 'markdown') read
    (:func:`deckpress.generator.render.markup.parse`: ``style`` is the element's, and with
    ``icons`` its ``:name:`` and the game's icon tokens are icons, ``tags`` its ``html_tags``) and
    fitted (:func:`fit_rich`);
    the result's ``icons`` names the icons it draws.

    Raises:
        MarkupError: markup that cannot be drawn (naming it).
        TextOverflow, Unprintable: as :func:`fit_rich`.
    """
    blocks = parse(text, markup, style, fonts.tokens if icons else NO_TOKENS, icons, tags)
    return fit_rich(blocks, fonts, style, size_pt, min_pt, w_pt, h_pt, wrap, leading)


def _merged_line(pieces: list[_Piece]) -> RichLine:
    """A line's pieces as a :class:`RichLine`, neighbouring words in one style as one run: fewer,
    longer strings to draw.  A run's width at 1 pt is its pieces' summed in order from 0 (the
    width drawn); its font, the one its pieces share, else None."""
    runs: list[Run] = []
    fonts: list[str | None] = []
    units: list[float] = []
    texts: list[str] = []
    style: str | None = None
    font: str | None = None
    unit = 0.0
    for piece in pieces:  # one pass: most lines are words alone
        if piece.__class__ is Run:  # an icon: the line goes the general way
            return _merged_with_icons(pieces)
        if piece[1] == style:
            texts.append(piece[0])
            unit += piece[2]
            if piece[3] != font:
                font = None
            continue
        if texts:
            runs.append(Run("".join(texts), style))  # type: ignore[arg-type]
            fonts.append(font)
            units.append(unit)
        texts, style, unit, font = [piece[0]], piece[1], 0 + piece[2], piece[3]
    if texts:
        runs.append(Run("".join(texts), style))  # type: ignore[arg-type]
        fonts.append(font)
        units.append(unit)
    return RichLine(tuple(runs), False, tuple(fonts), tuple(units))


def _merged_with_icons(pieces: list[_Piece]) -> RichLine:
    """:func:`_merged_line` of a line that holds icons: each icon a run of its own."""
    runs: list[Run] = []
    fonts: list[str | None] = []
    units: list[float] = []
    for style, group in groupby(pieces, _style_of_piece):
        if style is None:  # icons, each a run of its own
            for icon in group:
                assert isinstance(icon, Run)  # _style_of_piece: None for a Run only
                runs.append(icon)
                fonts.append(None)
                units.append(ICON_EM)
            continue
        words = list(group)
        first = words[0][3]
        runs.append(Run("".join([piece[0] for piece in words]), style))
        fonts.append(first if all(piece[3] == first for piece in words) else None)
        units.append(sum([piece[2] for piece in words]))  # from 0.0, in order: the sum drawn
    return RichLine(tuple(runs), False, tuple(fonts), tuple(units))


def _style_of_piece(piece: _Piece) -> str | None:
    """A piece's style, or None for an icon."""
    return None if piece.__class__ is Run else piece[1]


def draw_rich_line(c: Canvas, x: float, base: float, line: RichLine, fitted: RichFitted, box_w: float, fonts: Fonts, colour, knockout,
                   images: dict, forms: set[str], icons: Icons | None = None) -> None:
    """Draw one line of rich text starting at ``x`` (its left end, pt) on baseline ``base`` (pt):
    each run in its style's chain (:func:`deckpress.generator.render.scripts.draw`), each icon an
    :data:`ICON_EM` square sunk :data:`ICON_DROP_EM` below the baseline (the image ``images`` holds
    for its name, else the icon of ``icons`` (:func:`deckpress.generator.render.icons.game_icons`;
    default: the shipped set) in ``colour`` and ``knockout``) with its number, if
    any, centred on it in bold ``knockout``; a rule a line ``box_w`` (pt) long at mid-height of the
    line, :data:`RULE_EM` of the size thick.  The canvas's fill colour is ``colour`` throughout.

    Raises:
        Unprintable: as :func:`deckpress.generator.render.scripts.runs`.
    """
    size = fitted.size
    if line.rule:
        c.saveState()
        c.setStrokeColor(colour)
        c.setLineWidth(max(RULE_MIN_PT, RULE_EM * size))
        y = base + (fitted.ascent + fitted.descent) / 2
        c.line(x, y, x + box_w, y)
        c.restoreState()
        return
    side = ICON_EM * size
    # one text object for the line's runs that one font draws unshaped: its operators written
    # here as reportlab's text object writes them (:func:`~deckpress.generator.render.scripts.glyph_ops`)
    ops: list[str] | None = None
    tf = ""
    for run, font, unit in zip(line.runs, line.fonts, line.units, strict=True):
        if run.icon is None:
            if font is not None:
                if ops is None:
                    ops, tf = ["BT 1 0 0 1 0 0 Tm"], size_ops(size)
                ops.append(f"1 0 0 1 {fp_str(x, base)} Tm")
                glyph_ops(c, font, run.text, tf, ops)
                x += unit * size
            else:
                chain = fonts.chain(run.style)
                draw(c, x, base, run.text, chain, size)
                x += width(run.text, chain, size)
            continue
        bottom = base - ICON_DROP_EM * size
        name = run.icon.icon
        if name in images:
            c.drawImage(images[name], x, bottom, side, side, preserveAspectRatio=True, anchor="c", mask="auto")
        else:
            draw_icon(c, name, x, bottom + side, side, colour, knockout, forms, icons)
        if run.icon.label:
            bold = fonts.chain("bold")
            label = LABEL_EM * side
            label = min(label, 0.9 * side * label / max(width(run.icon.label, bold, label), 1e-9))
            c.setFillColor(knockout)
            draw(c, x + side / 2, bottom + side / 2 - 0.35 * label, run.icon.label, bold, label, "center")
            c.setFillColor(colour)
        x += side
    if ops is not None:
        ops.append("ET")
        c.drawText(TextOps(" ".join(ops)))

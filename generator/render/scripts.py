"""Text in any script: which font of a chain draws each character, shaping, measuring, drawing.

A text is cut into *runs*, each drawn by one font of the chain
(:class:`deckpress.generator.render.fonts.Fonts`): each word goes to the first font that has all
its characters (see :func:`runs`), so a Hindi name is one run of Noto Sans Devanagari, its spaces
included, and "(Assam)" beside it one run of Lato.

A run that holds a combining mark (Unicode category M: a Devanagari virama or vowel sign, a Tamil
pulli, an accent written as a separate character) or a zero-width joiner is *shaped* by HarfBuzz
(through reportlab's ``shapeStr``, which needs ``uharfbuzz``): conjuncts such as क्ष, प्र and
ष्ट्र become one glyph cluster, as HarfBuzz gives them, and widths are the shaped advances.  Other
runs are drawn and measured as reportlab always did, glyph by glyph.

Refused, never dropped: a character no font of the chain has (an emoji, a script the game declares
no font for), named with its code point and Unicode name; and right-to-left text (Hebrew, Arabic
and the other scripts of bidi class R and AL), which reportlab cannot reorder without ``rlbidi``,
a package not on PyPI (``docs/fonts-and-scripts.md``).

What the PDF's text layer loses: reportlab maps a shaped cluster that has no code point of its own
(a conjunct) to a private-use character, so text extraction of a shaped word drops those clusters
(``मध्य प्रदेश`` reads back as ``मय देश``); unshaped text reads back intact.  What is printed is right.
"""
from __future__ import annotations

import re
import unicodedata
import weakref
from functools import lru_cache
from weakref import WeakKeyDictionary

from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
from reportlab.pdfbase.ttfonts import shapeStr
from reportlab.pdfgen.canvas import Canvas

from deckpress.generator.render.fonts import SHIPPED, coverage, named

_JOINERS = {0x200C, 0x200D}  # zero-width non-joiner, zero-width joiner
_RIGHT_TO_LEFT = ("R", "AL")
_WORDS = re.compile(r"(\s+)")
#: What an error about characters no font draws tells the designer to do (``init`` words it its own way).
FONT_ADVICE = ": declare a font that has them under fonts: in game.yaml"


def icon_advice(missing: list[str]) -> str:
    """For characters no font has that an icon depicts (``★``): the icons to write instead."""
    from deckpress.generator.render.icons import depicting

    icons = {ch: depicting(ch) for ch in missing}
    named_icons = [f"':{name}:' for '{ch}'" for ch, name in icons.items() if name]
    return f"; or draw the icon instead: {', '.join(named_icons)} in a text with inline_icons: true" if named_icons else ""


class Unprintable(ValueError):
    """A text that no font of its chain can draw as written; the message names the characters."""


def _stays(ch: str) -> bool:
    """Characters that belong to the run around them: spaces, punctuation, marks, joiners."""
    cat = unicodedata.category(ch)
    return cat[0] in "ZPM" or cat == "Cf"


@lru_cache(maxsize=65536)
def needs_shaping(text: str) -> bool:
    """Whether ``text`` holds a combining mark or a joiner, so that HarfBuzz must shape it."""
    return any(unicodedata.category(ch)[0] == "M" or ord(ch) in _JOINERS for ch in text)


def _describe(chars: list[str]) -> str:
    return ", ".join(f"U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed')} '{ch}'" for ch in chars)


@lru_cache(maxsize=65536)
def runs(text: str, chain: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """``text`` as ``(font, part)`` runs, in order, each drawn by one font of ``chain``.

    Word by word: a word (the characters between spaces) is drawn by the first font that has all
    its characters, so its punctuation looks like its letters and a word is never split between
    fonts (reportlab shapes a word in the font of its first character); a word no single font
    covers is cut character by character, marks and joiners staying with their letter.  Spaces
    stay with the run before them.

    Raises:
        Unprintable: right-to-left characters (refused with the reason), or characters no font of
            the chain has, each named once with its code point and Unicode name.
    """
    rtl = [ch for ch in dict.fromkeys(text) if unicodedata.bidirectional(ch) in _RIGHT_TO_LEFT]
    if rtl:
        raise Unprintable(f"has right-to-left characters ({_describe(rtl[:6])}{', ...' if len(rtl) > 6 else ''}): "
                          "deckpress cannot lay out right-to-left text (reportlab would need rlbidi to reorder it)")
    out: list[list[str]] = []
    missing: list[str] = []

    def add(font: str, part: str) -> None:
        if out and out[-1][0] == font:
            out[-1][1] += part
        else:
            out.append([font, part])

    for word in _WORDS.split(text):
        if not word:
            continue
        if word.isspace():
            last = out[-1][0] if out else chain[0]
            add(last if all(ord(ch) in coverage(last) or ch == "\n" for ch in word) else chain[0], word)
            continue
        drawn = [ch for ch in word if unicodedata.category(ch) != "Cf"]
        whole = next((f for f in chain if all(ord(ch) in coverage(f) for ch in drawn)), None)
        if whole is not None:
            add(whole, word)
            continue
        for ch in word:
            current = out[-1][0] if out else None
            if current is not None and _stays(ch) and ord(ch) in coverage(current):
                add(current, ch)
                continue
            font = next((f for f in chain if ord(ch) in coverage(f)), None)
            if font is not None:
                add(font, ch)
            elif unicodedata.category(ch) == "Cf" and current is not None:  # a joiner no font has: HarfBuzz ignores it
                add(current, ch)
            elif ch not in missing:
                missing.append(ch)
    if missing:
        raise Unprintable(f"has characters no font draws ({_describe(missing[:8])}{', ...' if len(missing) > 8 else ''}; "
                          f"fonts tried: {named(chain)}){FONT_ADVICE}{icon_advice(missing)}")
    return tuple((font, part) for font, part in out)


@lru_cache(maxsize=65536)
def _shaped(part: str, font: str):
    """The HarfBuzz-shaped form of ``part`` in ``font`` (a reportlab ``ShapedStr``) and its
    advance per pt of font size (pt/pt)."""
    s = shapeStr(part, font, 1000, force=True)
    return s, sum(g.x_advance for g in s.__shapeData__) / 1000


def width(text: str, chain: tuple[str, ...], size_pt: float) -> float:
    """The drawn width of ``text`` in ``chain`` at ``size_pt`` (pt), shaped where it is drawn shaped.

    Raises:
        Unprintable: as :func:`runs`.
    """
    total = 0.0
    for font, part in runs(text, chain):
        total += _shaped(part, font)[1] * size_pt if needs_shaping(part) else stringWidth(part, font, size_pt)
    return total


def draw(c: Canvas, x: float, y: float, text: str, chain: tuple[str, ...], size_pt: float, align: str = "left") -> None:
    """Draw one line of ``text`` with its baseline at ``y`` (pt), starting at ``x`` (left), centred
    on it (center) or ending at it (right); run by run, each in its font, shaped where needed.

    Raises:
        Unprintable: as :func:`runs`.
    """
    parts = runs(text, chain)
    if len(parts) == 1 and not needs_shaping(text):  # one font, glyph by glyph: as drawString writes it
        draw_in(c, x, y, text, parts[0][0], size_pt, align)
        return
    if align != "left":
        w = width(text, chain, size_pt)
        x -= w / 2 if align == "center" else w
    for font, part in parts:
        t = c.beginText(x, y)
        t.setFont(font, size_pt)
        if needs_shaping(part):
            shaped, advance = _shaped(part, font)
            t.textOut(shaped)
            x += advance * size_pt
        else:
            t.textOut(part)
            x += stringWidth(part, font, size_pt)
        c.drawText(t)


def draw_in(c: Canvas, x: float, y: float, text: str, font: str, size_pt: float, align: str = "left") -> None:
    """Draw one line of ``text`` (not empty) that ``font`` draws whole and unshaped, at
    ``size_pt`` (pt), as :func:`draw` places it: baseline at ``y``, starting at, centred on or
    ending at ``x`` (pt) as ``align`` says; the operators ``drawString`` writes."""
    c.setFont(font, size_pt)
    if align != "left":
        w = stringWidth(text, font, size_pt)
        x -= 0.5 * w if align == "center" else w
    ops = ["BT", f"1 0 0 1 {fp_str(x, y)} Tm"]
    glyph_ops(c, font, text, size_ops(size_pt), ops)
    ops.append("T* ET")
    c.drawText(TextOps(" ".join(ops)))


@lru_cache(maxsize=4096)
def size_ops(size_pt: float) -> str:
    """The operands of a text's size and leading (``"11 Tf 13.2 TL"``) after its font's name, as
    reportlab's ``setFont`` writes them (leading 1.2 times the size): a deck's texts come in a
    few sizes."""
    return f"{fp_str(size_pt)} Tf {fp_str(size_pt * 1.2)} TL"


class TextOps:
    """A text object's PDF operators, written out: what :meth:`Canvas.drawText` takes (it asks
    for ``getCode()``)."""

    __slots__ = ("code",)

    def __init__(self, code: str) -> None:
        self.code = code

    def getCode(self) -> str:  # noqa: N802 (reportlab's name)
        """The operators, ``BT`` to ``ET``."""
        return self.code


def glyph_ops(c: Canvas, font_name: str, text: str, tf: str, ops: list[str]) -> None:
    """Add to ``ops`` the operators that show ``text`` (drawn whole and unshaped by ``font_name``,
    a TrueType font, as every font of a chain is) at the text position, ``tf`` the size and
    leading (``"11 Tf 13.2 TL"``): each subset's font, then its characters, the very bytes
    reportlab's text object writes after ``setFont`` (the recipe of ``reportlab.pdfbase.ttfonts``),
    without its bookkeeping: a deck's text shows a few thousand strings.

    Words recur from card to card: once a text has been split into the font's subsets (which
    gives each new character its code, in the order met), each of its words is remembered with
    its bytes, escaped as a PDF string (escaping goes byte by byte, so escaped words join as
    their bytes do), and a text made only of remembered words of one subset is joined from them."""
    if not text:
        return  # no subset, no operator (as reportlab)
    learnt = _learnt(c, font_name)
    known = learnt.words
    words = text.split(" ")
    space = known.get(" ")
    if space is not None:
        subset = space[0]
        found = []
        for word in words:
            f = known.get(word)
            if f is None or (f[0] != subset and f[1]):
                break
            found.append(f[1])
        else:
            ops.append(f"{learnt.name(subset)} {tf}")
            ops.append(f"({space[1].join(found)}) Tj")
            return
    current = -1
    font, doc = learnt.font, learnt.doc
    for subset, chunk in font.splitString(text, doc):
        if subset != current:
            ops.append(f"{learnt.name(subset)} {tf}")
            current = subset
        ops.append(f"({escapePDF(chunk)}) Tj")
    if len(known) < _LEARNT_MAX:  # every character of the text has its code now: splitting a word assigns none
        for word in (" ", *words):
            if word not in known:
                split = font.splitString(word, doc)
                known[word] = (split[0][0], escapePDF(split[0][1])) if len(split) == 1 else None


class _Learnt:
    """What :func:`glyph_ops` has learnt of one font on one canvas: the words met (word ->
    (subset, its bytes escaped), or None for a word whose characters lie in more than one subset;
    the empty word is no bytes) and the PDF name of each subset met."""

    __slots__ = ("font", "doc", "words", "names")

    def __init__(self, c: Canvas, font_name: str) -> None:
        self.font = getFont(font_name)
        self.doc = c._doc
        self.words: dict[str, tuple[int, str] | None] = {"": (-1, "")}
        self.names: dict[int, str] = {}

    def name(self, subset: int) -> str:
        """The subset's font name in the PDF (``/F2+0``), as ``getSubsetInternalName`` gives it
        (which also puts the font in the document the first time)."""
        found = self.names.get(subset)
        if found is None:
            found = self.names[subset] = self.font.getSubsetInternalName(subset, self.doc)
        return found


#: What :func:`glyph_ops` has learnt, per canvas and font (a canvas's fonts keep their subsets
#: for its life).
_LEARNT: "WeakKeyDictionary[Canvas, dict[str, _Learnt]]" = WeakKeyDictionary()
_LEARNT_MAX = 100_000


#: The canvas last drawn on (a weak reference) and its fonts' records: a text's runs go to one canvas.
_LAST: "tuple[weakref.ref[Canvas], dict[str, _Learnt]] | None" = None


def _forget(gone: "weakref.ref[Canvas]") -> None:
    """A canvas is gone: its records (which hold its document) are not kept for it."""
    global _LAST
    if _LAST is not None and _LAST[0] is gone:
        _LAST = None


def _learnt(c: Canvas, font_name: str) -> _Learnt:
    """What has been learnt of ``font_name`` on canvas ``c``."""
    global _LAST
    last = _LAST
    if last is not None and last[0]() is c:
        fonts = last[1]
    else:
        found = _LEARNT.get(c)
        if found is None:
            found = _LEARNT[c] = {}
        fonts = found
        _LAST = (weakref.ref(c, _forget), fonts)
    known = fonts.get(font_name)
    if known is None:
        known = fonts[font_name] = _Learnt(c, font_name)
    return known


#: The shipped font of each style that a line of the kit's own words is drawn in (:func:`note`).
_NOTE_FONTS = {"regular": "Lato", "bold": "Lato-Bold"}


def note(c: Canvas, x: float, y: float, text: str, size_pt: float, align: str = "left", style: str = "regular") -> None:
    """A line of the kit's own words (:mod:`deckpress.generator.kit.words`) at ``(x, y)`` pt in the
    canvas's fill colour: in Lato (``style`` "regular") or Lato Bold ("bold") as reportlab draws
    it where that font has every character (the English kit and most editions), else in the
    shipped chain of that style, so that an edition in another script (Hindi's Devanagari)
    prints shaped; a character no shipped font has is drawn in the Lato font alone."""
    font = _NOTE_FONTS[style]
    chain: tuple[str, ...] = (font,)
    if not coverage(font).issuperset(map(ord, text)):
        try:
            chain = SHIPPED.chain(style)
            width(text, chain, 1.0)
        except Unprintable:
            chain = (font,)
    if len(chain) == 1:
        c.setFont(font, size_pt)
        {"left": c.drawString, "center": c.drawCentredString, "right": c.drawRightString}[align](x, y, text)
    else:
        draw(c, x, y, text, chain, size_pt, align=align)

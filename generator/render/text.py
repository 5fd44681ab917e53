"""Fitting text in a box: shrink to fit in both directions, down to a minimum, then fail loudly.

Sizes in points.  Widths are those of the text as drawn (:mod:`deckpress.generator.render.scripts`:
each character in the first font of the chain that has it, shaped where the script needs it), so a
Hindi name shrinks or wraps like a Latin one.  Heights are the chain's first font's.  Results are
cached: the same text in the same box is fitted once per run.

With ``icons`` (a text element's ``inline_icons`` or ``inline_images``), ``:name:`` in the text stands
for an icon of the icon set or a picture of the game's, drawn in the line as a square :data:`ICON_EM`
wide and high (Squib's ``embed``, nanDECK's inline images): it is measured, wrapped and shrunk with
the words around it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from reportlab.lib.utils import _simpleSplit  # reportlab's greedy line breaker, given our width function
from reportlab.pdfbase.pdfmetrics import getAscentDescent

from deckpress.generator.render.scripts import width

_STEP_PT = 0.25
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
    that size (pt; descent is negative), and the width of each line as drawn (pt)."""

    size: float
    lines: tuple[str, ...]
    ascent: float
    descent: float
    widths: tuple[float, ...]


class TextOverflow(ValueError):
    """The text does not fit its box even at the minimum size."""


def split(text: str, chain: tuple[str, ...], size_pt: float, w_pt: float, icons: bool = False) -> list[str]:
    """``text`` broken into lines at spaces and line breaks, each at most ``w_pt`` wide where a
    break allows (a longer word stays whole on its line); with ``icons``, as :func:`measure`."""
    lines = []
    for line in text.split("\n"):
        lines.extend(_simpleSplit(line, w_pt, lambda s: measure(s, chain, size_pt, icons)))
    return lines


@lru_cache(maxsize=65536)
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
    if not wrap:
        one = measure(text, chain, 1.0, icons)
        size = min(size_pt, w_pt / one if one else size_pt, h_pt / height_per_pt)
        if size + 1e-9 < min_pt:
            raise TextOverflow(f"needs {size:.1f} pt to fit on one line, below the minimum of {min_pt} pt")
        return Fitted(round(size, 3), (text,), asc * size, desc * size, (one * round(size, 3),))
    size = size_pt
    while size + 1e-9 >= min_pt:
        lines = tuple(split(text, chain, size, w_pt, icons))
        widths = tuple(measure(line, chain, size, icons) for line in lines)
        total = (len(lines) - 1) * size * leading + size * height_per_pt
        if all(w <= w_pt + 0.01 for w in widths) and total <= h_pt + 0.01:
            return Fitted(size, lines, asc * size, desc * size, widths)
        size -= _STEP_PT
    n = len(split(text, chain, min_pt, w_pt, icons))
    raise TextOverflow(f"takes {n} line{'s' * (n != 1)} even at the minimum of {min_pt} pt, more than its box holds")

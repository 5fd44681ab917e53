"""Fitting text in a box: shrink to fit in both directions, down to a minimum, then fail loudly.

Sizes in points.  Widths are those of the text as drawn (:mod:`deckpress.generator.render.scripts`:
each character in the first font of the chain that has it, shaped where the script needs it), so a
Hindi name shrinks or wraps like a Latin one.  Heights are the chain's first font's.  Results are
cached: the same text in the same box is fitted once per run.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from reportlab.lib.utils import _simpleSplit  # reportlab's greedy line breaker, given our width function
from reportlab.pdfbase.pdfmetrics import getAscentDescent

from deckpress.generator.render.scripts import width

_STEP_PT = 0.25


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


def split(text: str, chain: tuple[str, ...], size_pt: float, w_pt: float) -> list[str]:
    """``text`` broken into lines at spaces and line breaks, each at most ``w_pt`` wide where a
    break allows (a longer word stays whole on its line)."""
    lines = []
    for line in text.split("\n"):
        lines.extend(_simpleSplit(line, w_pt, lambda s: width(s, chain, size_pt)))
    return lines


@lru_cache(maxsize=65536)
def fit(text: str, chain: tuple[str, ...], size_pt: float, min_pt: float, w_pt: float, h_pt: float, wrap: bool, leading: float) -> Fitted:
    """Lay ``text`` out in a ``w_pt`` x ``h_pt`` box in the fonts of ``chain``, at ``size_pt`` or smaller.

    One line unless ``wrap``; wrapped text breaks at spaces and line breaks.

    Raises:
        TextOverflow: if even ``min_pt`` does not fit (the message gives the size needed).
        Unprintable: a character no font of the chain draws, or right-to-left text (the message
            names the characters).
    """
    asc, desc = getAscentDescent(chain[0], 1.0)
    height_per_pt = asc - desc
    if not wrap:
        one = width(text, chain, 1.0)
        size = min(size_pt, w_pt / one if one else size_pt, h_pt / height_per_pt)
        if size + 1e-9 < min_pt:
            raise TextOverflow(f"needs {size:.1f} pt to fit on one line, below the minimum of {min_pt} pt")
        return Fitted(round(size, 3), (text,), asc * size, desc * size, (one * round(size, 3),))
    size = size_pt
    while size + 1e-9 >= min_pt:
        lines = tuple(split(text, chain, size, w_pt))
        widths = tuple(width(line, chain, size) for line in lines)
        total = (len(lines) - 1) * size * leading + size * height_per_pt
        if all(w <= w_pt + 0.01 for w in widths) and total <= h_pt + 0.01:
            return Fitted(size, lines, asc * size, desc * size, widths)
        size -= _STEP_PT
    n = len(split(text, chain, min_pt, w_pt))
    raise TextOverflow(f"takes {n} line{'s' * (n != 1)} even at the minimum of {min_pt} pt, more than its box holds")

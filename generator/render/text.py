"""Fitting text in a box: shrink to fit in both directions, down to a minimum, then fail loudly.

Sizes in points.  Results are cached: the same text in the same box is fitted once per run.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth

_STEP_PT = 0.25


@dataclass(frozen=True)
class Fitted:
    """Text laid out in a box: the size chosen (pt), its lines, and the font's ascent and
    descent at that size (pt; descent is negative)."""

    size: float
    lines: tuple[str, ...]
    ascent: float
    descent: float


class TextOverflow(ValueError):
    """The text does not fit its box even at the minimum size."""


@lru_cache(maxsize=65536)
def fit(text: str, font: str, size_pt: float, min_pt: float, w_pt: float, h_pt: float, wrap: bool, leading: float) -> Fitted:
    """Lay ``text`` out in a ``w_pt`` x ``h_pt`` box in ``font``, at ``size_pt`` or smaller.

    One line unless ``wrap``; wrapped text breaks at spaces and line breaks.

    Raises:
        TextOverflow: if even ``min_pt`` does not fit (the message gives the size needed).
    """
    asc, desc = getAscentDescent(font, 1.0)
    height_per_pt = asc - desc
    if not wrap:
        width = stringWidth(text, font, 1.0)
        size = min(size_pt, w_pt / width if width else size_pt, h_pt / height_per_pt)
        if size + 1e-9 < min_pt:
            raise TextOverflow(f"needs {size:.1f} pt to fit on one line, below the minimum of {min_pt} pt")
        return Fitted(round(size, 3), (text,), asc * size, desc * size)
    size = size_pt
    while size + 1e-9 >= min_pt:
        lines = tuple(simpleSplit(text, font, size, w_pt))
        fits_width = all(stringWidth(line, font, size) <= w_pt + 0.01 for line in lines)
        total = (len(lines) - 1) * size * leading + size * height_per_pt
        if fits_width and total <= h_pt + 0.01:
            return Fitted(size, lines, asc * size, desc * size)
        size -= _STEP_PT
    n = len(simpleSplit(text, font, min_pt, w_pt))
    raise TextOverflow(f"takes {n} line{'s' * (n != 1)} even at the minimum of {min_pt} pt, more than its box holds")

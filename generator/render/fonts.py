"""The fonts deckpress embeds: Lato Regular and Bold (SIL OFL 1.1, ``generator/fonts/OFL.txt``)."""
from __future__ import annotations

from functools import lru_cache

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from deckpress.generator.paths import FONTS_DIR

#: Layout font names -> registered reportlab font names.
FONTS = {"regular": "Lato", "bold": "Lato-Bold"}
_FILES = {"Lato": "Lato-Regular.ttf", "Lato-Bold": "Lato-Bold.ttf"}


@lru_cache(maxsize=1)
def register() -> None:
    """Register the shipped TrueType fonts with reportlab (once).

    Raises:
        FileNotFoundError: a font file is missing from the installation, naming it.
    """
    for name, filename in _FILES.items():
        path = FONTS_DIR / filename
        if not path.is_file():
            raise FileNotFoundError(f"font file {path} is missing: reinstall deckpress")
        pdfmetrics.registerFont(TTFont(name, str(path)))

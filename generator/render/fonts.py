"""The fonts deckpress embeds, and a game's own.

Shipped (SIL OFL 1.1, each licence beside its fonts in ``generator/fonts/``): Lato Regular and
Bold (``OFL.txt``) for Latin, Greek and Cyrillic; Noto Sans Devanagari Regular and Bold
(``NotoSansDevanagari-OFL.txt``) for Hindi, Marathi, Nepali and the other Devanagari languages.

A layout's text element names a style (``font: regular`` or ``bold``); each style is a *chain* of
fonts tried in order, character by character (:mod:`deckpress.generator.render.scripts`): the
game's own fonts first (``fonts:`` in its game.yaml), then Lato, then Noto Sans Devanagari.
"""
from __future__ import annotations

import hashlib
import io
import struct
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from deckpress.generator.content.fontcheck import check_font
from deckpress.generator.errors import ContentErrors
from deckpress.generator.gate import MAX_FONT_BYTES, GateError, read_bytes, resolve
from deckpress.generator.paths import FONTS_DIR

_FILES = {"Lato": "Lato-Regular.ttf", "Lato-Bold": "Lato-Bold.ttf",
          "NotoSansDevanagari": "NotoSansDevanagari-Regular.ttf", "NotoSansDevanagari-Bold": "NotoSansDevanagari-Bold.ttf"}
#: People's names of the registered fonts, for messages.
FAMILY = {"Lato": "Lato", "Lato-Bold": "Lato Bold", "NotoSansDevanagari": "Noto Sans Devanagari",
          "NotoSansDevanagari-Bold": "Noto Sans Devanagari Bold"}


@dataclass(frozen=True)
class Fonts:
    """Font chains by layout style: reportlab font names, tried in order for each character."""

    regular: tuple[str, ...]
    bold: tuple[str, ...]

    def chain(self, style: str) -> tuple[str, ...]:
        """The chain of ``style`` ('regular' or 'bold', as layout.schema.json allows)."""
        return self.bold if style == "bold" else self.regular


#: The shipped chains, for a game that declares no fonts of its own.
SHIPPED = Fonts(("Lato", "NotoSansDevanagari"), ("Lato-Bold", "NotoSansDevanagari-Bold"))


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


@lru_cache(maxsize=256)
def coverage(font: str) -> frozenset[int]:
    """The code points a registered font has glyphs for (its cmap)."""
    return frozenset(pdfmetrics.getFont(font).face.charToGlyph)


def game_fonts(game_doc, root: Path) -> Fonts:
    """The chains for a game: the fonts its ``game.yaml`` declares under ``fonts`` (each
    ``regular``, optionally ``bold``: TrueType files in the game's folder), in order, before the
    shipped ones.  A declared font without ``bold`` draws bold text too.  Each file goes through
    the gate (inside the folder after links, at most ``MAX_FONT_BYTES``) and is registered under a
    name made of its SHA-256, so the same file always embeds the same way.

    Raises:
        ContentErrors: every declared font that is missing, outside the folder, too large or not
            a TrueType font reportlab can embed, each at its line in game.yaml.
    """
    register()
    declared = game_doc.data.get("fonts") or []
    regular, bold, errors = [], [], []
    for i, entry in enumerate(declared):
        names = {}
        for style in ("regular", "bold"):
            if style not in entry:
                continue
            try:
                names[style] = _load(entry[style], root)
            except ValueError as exc:
                errors.append(game_doc.error(("fonts", i, style), f"font '{entry[style]}' {exc}"))
        if "regular" in names:
            regular.append(names["regular"])
            bold.append(names.get("bold", names["regular"]))
    if errors:
        raise ContentErrors(errors)
    return Fonts(tuple(regular) + SHIPPED.regular, tuple(bold) + SHIPPED.bold)


def _load(name: str, root: Path) -> str:
    """Register the font file ``name`` (relative to ``root``) and return its reportlab name."""
    try:
        path = resolve(name, root, root, "font")
        data = read_bytes(path, root, MAX_FONT_BYTES)
    except GateError as exc:
        raise ValueError(str(exc)) from None
    registered = "game-font-" + hashlib.sha256(data).hexdigest()[:16]
    if registered not in pdfmetrics.getRegisteredFontNames():
        check_font(data)  # bounds reportlab's reader: FontError is a ValueError
        try:
            font = TTFont(registered, io.BytesIO(data))
        except (TTFError, ValueError, KeyError, IndexError, struct.error) as exc:
            raise ValueError(f"is not a TrueType font deckpress can embed ({exc}); give a .ttf file "
                             "(OpenType fonts with CFF outlines and font collections are not supported)") from None
        pdfmetrics.registerFont(font)
        FAMILY[registered] = Path(name).name
    return registered


def named(chain: tuple[str, ...]) -> str:
    """A chain as people read it: 'Lato, Noto Sans Devanagari'."""
    return ", ".join(FAMILY.get(f, f) for f in chain)


"""The fonts deckpress embeds, and a game's own.

Shipped, each licence beside its fonts in ``generator/fonts/``: Lato Regular, Bold, Italic and
Bold Italic (SIL OFL 1.1, ``OFL.txt``) for Latin, Greek and Cyrillic; Noto Sans Devanagari Regular
and Bold (SIL OFL 1.1, ``NotoSansDevanagari-OFL.txt``) for Hindi, Marathi, Nepali and the other
Devanagari languages; DejaVu Sans and DejaVu Sans Bold (Bitstream Vera licence, DejaVu's changes
public domain: ``DejaVuSans-LICENSE.txt``), the fallback for symbols: card suits, stars, ticks,
dice, arrows, chess and playing-card signs (5,900 code points).

A layout's text element names a style (``font: regular``, ``bold``, ``italic`` or ``bold-italic``;
markup such as ``<b>`` and ``<i>`` changes it within a text); each style is a *chain* of fonts
tried in order, character by character (:mod:`deckpress.generator.render.scripts`): the game's own
fonts first (``fonts:`` in its game.yaml, in the order given), then Lato, then Noto Sans
Devanagari, then DejaVu Sans.  A character the whole chain lacks is refused, never dropped.

The chains also carry the game's icon tokens (``icon_tokens:`` in game.yaml,
:class:`deckpress.generator.render.tokens.IconTokens`): with the fonts, they are how the game's
text is drawn, and they reach every painter the same way.
"""
from __future__ import annotations

import hashlib
import io
import struct
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from deckpress.generator.content.errors import ContentErrors
from deckpress.generator.content.fontcheck import check_font
from deckpress.generator.content.gate import (
    MAX_FONT_BYTES,
    GateError,
    read_bytes,
    resolve,
)
from deckpress.generator.paths import FONTS_DIR
from deckpress.generator.render.tokens import NO_TOKENS, IconTokens, game_tokens

_FILES = {"Lato": "Lato-Regular.ttf", "Lato-Bold": "Lato-Bold.ttf",
          "NotoSansDevanagari": "NotoSansDevanagari-Regular.ttf", "NotoSansDevanagari-Bold": "NotoSansDevanagari-Bold.ttf"}
#: Shipped fonts registered when first asked for (:func:`ensure`): the italics, which only markup
#: uses, and the symbol fallback, which only a character the others lack reaches.
_LATER = {"Lato-Italic": "Lato-Italic.ttf", "Lato-BoldItalic": "Lato-BoldItalic.ttf",
          "DejaVuSans": "DejaVuSans.ttf", "DejaVuSans-Bold": "DejaVuSans-Bold.ttf"}
#: People's names of the registered fonts, for messages.
FAMILY = {"Lato": "Lato", "Lato-Bold": "Lato Bold", "NotoSansDevanagari": "Noto Sans Devanagari",
          "NotoSansDevanagari-Bold": "Noto Sans Devanagari Bold", "Lato-Italic": "Lato Italic",
          "Lato-BoldItalic": "Lato Bold Italic", "DejaVuSans": "DejaVu Sans", "DejaVuSans-Bold": "DejaVu Sans Bold"}
#: The styles a text is drawn in: a layout's ``font``, changed within a text by its markup.
STYLES = ("regular", "bold", "italic", "bold-italic")


@dataclass(frozen=True)
class Fonts:
    """How a game's text is drawn: font chains by style (reportlab font names, tried in order for
    each character) and the game's icon tokens (``[credit]`` -> the credit icon)."""

    regular: tuple[str, ...]
    bold: tuple[str, ...]
    italic: tuple[str, ...] = ()
    bold_italic: tuple[str, ...] = ()
    tokens: IconTokens = NO_TOKENS

    def chain(self, style: str) -> tuple[str, ...]:
        """The chain of ``style`` (one of :data:`STYLES`; 'regular' for any other), its shipped
        fonts registered (once: every text asks, every run of rich text too)."""
        chains = self.__dict__.get("_chains")
        if chains is None:
            chains = {}
            object.__setattr__(self, "_chains", chains)  # frozen: a record of what it gives, not a field
        found = chains.get(style)
        if found is None:
            found = {"bold": self.bold, "italic": self.italic, "bold-italic": self.bold_italic}.get(style) or self.regular
            ensure(found[0])
            if len(chains) < 16:
                chains[style] = found
        return found


#: The shipped chains, for a game that declares no fonts of its own.
SHIPPED = Fonts(("Lato", "NotoSansDevanagari", "DejaVuSans"), ("Lato-Bold", "NotoSansDevanagari-Bold", "DejaVuSans-Bold"),
                ("Lato-Italic", "NotoSansDevanagari", "DejaVuSans"), ("Lato-BoldItalic", "NotoSansDevanagari-Bold", "DejaVuSans-Bold"))


@lru_cache(maxsize=1)
def register() -> None:
    """Register the shipped TrueType fonts with reportlab (once); the italics and the symbol
    fallback are registered when first used (:func:`ensure`).

    Raises:
        FileNotFoundError: a font file is missing from the installation, naming it.
    """
    for name, filename in _FILES.items():
        _register(name, filename)


def _register(name: str, filename: str) -> None:
    path = FONTS_DIR / filename
    if not path.is_file():
        raise FileNotFoundError(f"font file {path} is missing: reinstall deckpress")
    pdfmetrics.registerFont(TTFont(name, str(path)))


@cache
def ensure(font: str) -> None:
    """Register ``font`` if it is a shipped font not yet registered (the others need nothing).

    Raises:
        FileNotFoundError: as :func:`register`.
    """
    if font in _FILES:
        register()
    elif font in _LATER:
        _register(font, _LATER[font])


@lru_cache(maxsize=256)
def coverage(font: str) -> frozenset[int]:
    """The code points a registered (or shipped) font has glyphs for (its cmap)."""
    ensure(font)
    return frozenset(pdfmetrics.getFont(font).face.charToGlyph)


#: Which file of a declared font draws each style when the entry has no file of its own for it.
_STAND_INS = {"regular": ("regular",), "bold": ("bold", "regular"), "italic": ("italic", "regular"),
              "bold_italic": ("bold_italic", "bold", "italic", "regular")}


def game_fonts(game_doc, root: Path) -> Fonts:
    """How a game's text is drawn: the fonts its ``game.yaml`` declares under ``fonts`` (each
    ``regular``, optionally ``bold``, ``italic`` and ``bold_italic``: TrueType files in the game's
    folder), in order, before the shipped ones, and its ``icon_tokens``
    (:func:`deckpress.generator.render.tokens.game_tokens`).  A declared font without ``bold``
    draws bold text with its regular file, one without ``italic`` italic text (upright), one
    without ``bold_italic`` its bold (or italic, or regular).  Each file goes through the gate
    (inside the folder after links, at most ``MAX_FONT_BYTES``) and is registered under a name
    made of its SHA-256, so the same file always embeds the same way.

    Raises:
        ContentErrors: every declared font that is missing, outside the folder, too large or not
            a TrueType font reportlab can embed, and every icon token that cannot be used, each at
            its line in game.yaml.
    """
    register()
    declared = game_doc.data.get("fonts") or []
    chains: dict[str, list[str]] = {style: [] for style in _STAND_INS}
    errors = []
    for i, entry in enumerate(declared):
        names = {}
        for style in _STAND_INS:
            if style not in entry:
                continue
            try:
                names[style] = _load(entry[style], root)
            except ValueError as exc:
                errors.append(game_doc.error(("fonts", i, style), f"font '{entry[style]}' {exc}"))
        if "regular" in names:
            for style, stand_ins in _STAND_INS.items():
                chains[style].append(next(names[s] for s in stand_ins if s in names))
    tokens, token_errors = game_tokens(game_doc)
    errors += token_errors
    if errors:
        raise ContentErrors(errors)
    return Fonts(tuple(chains["regular"]) + SHIPPED.regular, tuple(chains["bold"]) + SHIPPED.bold,
                 tuple(chains["italic"]) + SHIPPED.italic, tuple(chains["bold_italic"]) + SHIPPED.bold_italic, tokens)


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


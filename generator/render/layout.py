"""A game's ``layout.yaml`` compiled into card layouts the painter can draw."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from reportlab.lib.colors import Color, HexColor

from deckpress.generator.render.elements import Element, compile_elements
from deckpress.generator.yamlsafe import Document


@dataclass(frozen=True)
class CardLayout:
    """One card kind: trim size (mm), cut shape, bleed and safe margins (mm), and the compiled
    elements of its face and back."""

    kind: str
    trim_mm: tuple[float, float]
    shape: str
    bleed_mm: float
    safe_mm: float
    face: tuple[Element, ...]
    back: tuple[Element, ...]


@dataclass(frozen=True)
class Layout:
    """A game's compiled layout file: card kinds and the palette (name -> '#rrggbb')."""

    doc: Document
    cards: dict[str, CardLayout]
    palette: dict[str, str]

    def colour(self, value: str) -> Color:
        """A palette name or '#rrggbb' as a reportlab colour.

        Raises:
            KeyError: neither a palette name nor a hex colour.
        """
        return _colour(self.palette.get(value, value))


@lru_cache(maxsize=4096)
def _colour(value: str) -> Color:
    if len(value) == 7 and value.startswith("#"):
        try:
            return HexColor(value)
        except ValueError:
            pass
    raise KeyError(value)


def compile_layout(doc: Document, ink_friendly: bool = False) -> Layout:
    """Compile a schema-valid layout document; with ``ink_friendly``, the entries of the layout's
    ``ink_friendly_palette`` replace those of its ``palette``."""
    cards = {}
    for kind, spec in doc.data["cards"].items():
        base = ("cards", kind)
        cards[kind] = CardLayout(
            kind=kind,
            trim_mm=(spec["trim"]["width_mm"], spec["trim"]["height_mm"]),
            shape=spec.get("shape", "rect"),
            bleed_mm=spec.get("bleed_mm", 3.0),
            safe_mm=spec.get("safe_mm", 3.0),
            face=tuple(compile_elements(spec["face"], base + ("face",))),
            back=tuple(compile_elements(spec["back"], base + ("back",))),
        )
    palette = dict(doc.data.get("palette", {}))
    if ink_friendly:
        palette.update(doc.data.get("ink_friendly_palette", {}))
    return Layout(doc, cards, palette)


_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


def back_fields(card: CardLayout) -> set[str]:
    """The card fields a kind's back reads (``{field}`` placeholders, ``when`` and ``items``):
    where they are the same for every card of a deck, the deck shares one back."""
    found: set[str] = set()

    def walk(value) -> None:
        if isinstance(value, str):
            found.update(_PLACEHOLDER.findall(value))
        elif isinstance(value, dict):
            for key, item in value.items():
                if key in ("when", "items") and isinstance(item, str):
                    found.add(item)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for element in card.back:
        walk(element.spec)
    return found


def shared_back(card: CardLayout, cards: list[dict]) -> bool:
    """Whether every card of ``cards`` (field dicts of one deck) has the same back."""
    fields = sorted(back_fields(card))
    return len({tuple(repr(c.get(f)) for f in fields) for c in cards}) <= 1

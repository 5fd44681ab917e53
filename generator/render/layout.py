"""A game's ``layout.yaml`` compiled into card layouts the painter can draw."""
from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from reportlab.lib.colors import CMYKColor, Color, HexColor

from deckpress.generator.content.errors import ContentError, ContentErrors
from deckpress.generator.content.expressions import (
    ExpressionError,
    compile_expression,
    lookup,
)
from deckpress.generator.content.layout_kinds import (
    KindSpec,
    card_kinds,
    element_paths,
    expressions_of,
)
from deckpress.generator.content.safetext import excerpt
from deckpress.generator.content.yamlsafe import Document
from deckpress.generator.render.elements import Element, compile_elements


@dataclass(frozen=True)
class CardLayout:
    """One card kind: the size it prints at (``trim_mm``), the size its elements are placed for
    (``design_mm``: the layout's ``trim``; the elements are scaled from it to ``trim_mm`` when the
    two differ), cut shape, bleed and safe margins (mm), and the compiled elements of its face and
    back."""

    kind: str
    trim_mm: tuple[float, float]
    shape: str
    bleed_mm: float
    safe_mm: float
    face: tuple[Element, ...]
    back: tuple[Element, ...]
    design_mm: tuple[float, float] = (0.0, 0.0)

    @property
    def scale(self) -> tuple[float, float]:
        """How much the elements are stretched across and down (1.0: printed as placed)."""
        if not self.design_mm[0]:
            return 1.0, 1.0
        return self.trim_mm[0] / self.design_mm[0], self.trim_mm[1] / self.design_mm[1]


@dataclass(frozen=True)
class Layout:
    """A game's compiled layout file: card kinds and the palette (name -> '#rrggbb')."""

    doc: Document
    cards: dict[str, CardLayout]
    palette: dict[str, str]

    def colour(self, value: str) -> Color:
        """A palette name, '#rrggbb' or 'cmyk(C, M, Y, K)' as a reportlab colour.

        Raises:
            KeyError: neither a palette name nor a hex colour; its argument is the palette's
                nearest names (``"did you mean 'creature'?"``) when it has near ones.
        """
        try:
            return _colour(self.palette.get(value, value))
        except KeyError:
            near = difflib.get_close_matches(value, list(self.palette), n=3)
            raise KeyError("did you mean " + " or ".join(f"'{n}'" for n in near) + "?" if near else value) from None


#: A colour given as printing inks in percent (``schemas/common.schema.json#/$defs/colour``).
_INKS = re.compile(r"cmyk\((\d{1,3}(?:\.\d+)?), ?(\d{1,3}(?:\.\d+)?), ?(\d{1,3}(?:\.\d+)?), ?(\d{1,3}(?:\.\d+)?)\)")


@lru_cache(maxsize=4096)
def _colour(value: str) -> Color:
    """'#rrggbb' as an sRGB colour, 'cmyk(C, M, Y, K)' (percent, each at most 100) as those inks.

    Raises:
        KeyError: neither.
    """
    if len(value) == 7 and value.startswith("#"):
        try:
            return HexColor(value)
        except ValueError:
            pass
    inks = _INKS.fullmatch(value)
    if inks and all(float(v) <= 100 for v in inks.groups()):
        return CMYKColor(*(float(v) / 100 for v in inks.groups()))
    raise KeyError(value)


def compile_layout(doc: Document, ink_friendly: bool = False, sizes: Mapping[str, tuple[float, float]] | None = None) -> Layout:
    """Compile a schema-valid layout document; with ``ink_friendly``, the entries of the layout's
    ``ink_friendly_palette`` replace those of its ``palette``, and an element's own
    ``ink_friendly`` keys its others (a card's colour from its data, lightened).  ``sizes`` are the game's card sizes
    (name -> (width, height) mm, from game.yaml's ``card_sizes``, :func:`card_sizes`): a card kind
    that names one with ``card_size`` prints at it (turned, for a layout that is sideways to it:
    wider than high where the size is higher than wide), its elements scaled from its ``trim``.  A card
    kind that ``extends`` another is compiled as :func:`card_kinds` resolves it.

    Raises:
        ContentErrors: every expression that does not compile (a ``when``, a map's ``by``), at
            its place; every ``extends`` that names no kind or goes round in a circle; with ``sizes``,
            every card kind whose ``card_size`` is not one of them, or
            that names none while its trim is none of them (the two files disagree on the size),
            each at its line in layout.yaml; every rectangle marked ``bleed: true`` that falls
            short of the trim (see :func:`_bleed_errors`).
    """
    kinds, problems = card_kinds(doc.data["cards"])
    errors = [doc.error(path, message) for path, message in problems] + expression_errors(doc)
    if errors:
        raise ContentErrors(errors)
    cards = {}
    for kind, resolved in kinds.items():
        spec = resolved.spec
        base = ("cards", kind)
        design = (spec["trim"]["width_mm"], spec["trim"]["height_mm"])
        trim = design
        if sizes is not None:
            named = spec.get("card_size")
            listed = ", ".join(f"{n} {w:g} x {h:g} mm" for n, (w, h) in sizes.items())
            if named is not None and named not in sizes:
                errors.append(doc.error(resolved.at["card_size"], f"cards.{kind}.card_size: unknown size '{named}' (game.yaml's card_sizes: {listed})"))
            elif named is not None:
                trim = sizes[named]
                if (design[0] > design[1]) != (trim[0] > trim[1]):  # a sideways layout prints at its size turned
                    trim = (trim[1], trim[0])
            elif design not in sizes.values() and (design[1], design[0]) not in sizes.values():
                errors.append(doc.error(resolved.at["trim"], f"cards.{kind}.trim: {design[0]:g} x {design[1]:g} mm is none of game.yaml's card_sizes "
                                                              f"({listed}): name the size this card prints at with card_size"))
        errors += _bleed_errors(doc, base, resolved, design)
        cards[kind] = CardLayout(
            kind=kind,
            trim_mm=trim,
            shape=spec.get("shape", "rect"),
            bleed_mm=spec.get("bleed_mm", 3.0),
            safe_mm=spec.get("safe_mm", 3.0),
            face=tuple(compile_elements(_for_ink(spec["face"], ink_friendly), base + ("face",), resolved.sides["face"])),
            back=tuple(compile_elements(_for_ink(spec["back"], ink_friendly), base + ("back",), resolved.sides["back"])),
            design_mm=design,
        )
    if errors:
        raise ContentErrors(errors)
    palette = dict(doc.data.get("palette", {}))
    if ink_friendly:
        palette.update(doc.data.get("ink_friendly_palette", {}))
    return Layout(doc, cards, palette)


def expression_errors(doc: Document) -> list[ContentError]:
    """Every expression of layout.yaml that does not compile, at its own line and column, with
    what is wrong (:mod:`deckpress.generator.content.expressions`)."""
    errors = []
    sides = [(("cards", kind, side), spec.get(side, [])) for kind, spec in doc.data.get("cards", {}).items() for side in ("face", "back")]
    sides += [(("boards", kind, "elements"), spec.get("elements", [])) for kind, spec in doc.data.get("boards", {}).items()]
    for base, elements in sides:
        for path, element in element_paths(elements, base):
            for key, source in expressions_of(element):
                try:
                    compile_expression(source)
                except ExpressionError as exc:
                    errors.append(doc.error(path + key, f"{'.'.join(key)}: '{excerpt(source)}' {exc}"))
    return errors


def _for_ink(specs: list[dict], ink_friendly: bool) -> list[dict]:
    """Element dicts as drawn: with ``ink_friendly``, each element's ``ink_friendly`` keys replace
    its own (nested ``rows`` elements included)."""
    out = []
    for el in specs:
        drawn = {k: v for k, v in el.items() if k != "ink_friendly"}
        if ink_friendly:
            drawn.update(el.get("ink_friendly", {}))
        if "elements" in el:
            drawn["elements"] = _for_ink(el["elements"], ink_friendly)
        out.append(drawn)
    return out


def _bleed_errors(doc: Document, base: tuple, resolved: KindSpec, design: tuple[float, float]) -> list:
    """A rectangle marked ``bleed: true`` is a background meant to print past the cut: it extends
    into the bleed only at the trim edges it touches, so one that stops short of an edge by less
    than the safe margin (a white sliver after cutting) or touches none is an error."""
    errors = []
    spec = resolved.spec
    safe = spec.get("safe_mm", 3.0)
    for side in ("face", "back"):
        for i, el in enumerate(spec[side]):
            if el.get("type") != "rect" or not el.get("bleed"):
                continue
            gaps = {"left": el["x_mm"], "top": el["y_mm"], "right": design[0] - el["x_mm"] - el["w_mm"],
                    "bottom": design[1] - el["y_mm"] - el["h_mm"]}
            short = [f"{edge} by {gap:.2f} mm" for edge, gap in gaps.items() if 0.01 < gap < safe]
            where = resolved.sides[side][i] + ("bleed",)
            if short:
                errors.append(doc.error(where, f"cards.{base[1]}.{side}[{i}]: a rectangle marked bleed stops short of the trim "
                                               f"({', '.join(short)}), leaving a white sliver after cutting: make it reach the trim edge"))
            elif all(gap > 0.01 for gap in gaps.values()):
                errors.append(doc.error(where, f"cards.{base[1]}.{side}[{i}]: a rectangle marked bleed touches no trim edge, "
                                               "so it cannot bleed: make it reach the trim or leave out bleed"))
    return errors


def card_sizes(game: Mapping) -> dict[str, tuple[float, float]]:
    """game.yaml's ``card_sizes`` (its parsed data ``game``) as name -> (width, height) mm."""
    return {name: (size["width_mm"], size["height_mm"]) for name, size in game["card_sizes"].items()}


_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}")


def back_fields(card: CardLayout) -> set[str]:
    """The card fields a kind's back reads (``{field}`` placeholders, ``when``, maps' ``by`` and
    ``items``): where they are the same for every card of a deck, the deck shares one back."""
    found: set[str] = set()

    def walk(value) -> None:
        if isinstance(value, str):
            found.update(_PLACEHOLDER.findall(value))
        elif isinstance(value, dict):
            for key, item in value.items():
                if key in ("when", "by") and isinstance(item, str):
                    found.update(compile_expression(item).names)
                elif key == "items" and isinstance(item, str):
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
    return len({tuple(repr(lookup(c, f)) for f in fields) for c in cards}) <= 1



def same_back(a: CardLayout, b: CardLayout) -> bool:
    """Whether two card kinds draw the same back (the same elements: a sideways kind that
    ``extends`` an upright one and leaves out its back)."""
    return tuple(e.spec for e in a.back) == tuple(e.spec for e in b.back)

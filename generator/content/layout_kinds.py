"""The card kinds of a game's ``layout.yaml`` as they are drawn: a kind that ``extends`` another
resolved into the keys it takes from it (layout reuse, as protograf's and Squib's layouts inherit:
a ship and a base drawn alike but for the frame).  Content only: the painter compiles what this
resolves (:mod:`deckpress.generator.render.layout`), and the content checks read a kind's trim
and card size from it.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from deckpress.generator.content.safetext import choices, excerpt


@dataclass(frozen=True)
class KindSpec:
    """A card kind of layout.yaml as drawn, ``extends`` resolved: ``spec`` holds every key
    (``trim``, ``face``, ...), inherited ones filled in; ``at`` the path in layout.yaml where each
    key is written (in the kind itself or the one it extends), and ``sides`` the path of each
    element of ``face`` and ``back``, so an error in an inherited part points at its own line."""

    spec: dict
    at: dict[str, tuple]
    sides: dict[str, list[tuple]]


def card_kinds(cards: Mapping[str, dict]) -> tuple[dict[str, KindSpec], list[tuple[tuple, str]]]:
    """Every card kind of layout.yaml's ``cards`` with ``extends`` resolved: a kind that extends
    another takes that one's keys (trim, card_size, shape, bleed and safe margins, face, back) where
    it gives none; where it gives a ``face`` or ``back``, an element with the ``id`` of one of the
    other's takes its place in the drawing order, and the others are drawn after (on top).  (Layout
    reuse as protograf's and Squib's layouts inherit: a ship and a base drawn alike, but for the
    frame.)

    Returns ``(kinds, problems)``: the kinds that resolve, and ``(path, message)`` for each
    ``extends`` that names no kind (with the nearest names) or that goes round in a circle (each
    circle once, naming every kind in it).
    """
    done: dict[str, KindSpec | None] = {}
    problems: list[tuple[tuple, str]] = []
    circles: set[frozenset] = set()

    def resolve(kind: str, chain: tuple[str, ...]) -> KindSpec | None:
        if kind in done:
            return done[kind]
        spec = cards[kind]
        parent = spec.get("extends")
        here = ("cards", kind)
        if parent is None:
            done[kind] = KindSpec(dict(spec), {k: here + (k,) for k in spec},
                                  {side: [here + (side, i) for i in range(len(spec.get(side, [])))] for side in ("face", "back")})
            return done[kind]
        if parent not in cards:
            problems.append((here + ("extends",), f"cards.{kind}.extends: no card kind '{excerpt(parent)}' in this file "
                                                  f"({choices(parent, sorted(k for k in cards if k != kind))})"))
            done[kind] = None
            return None
        if parent in chain or parent == kind:
            circle = (kind,) + (chain[chain.index(parent):] if parent in chain else ())  # from the kind that closes it
            if frozenset(circle) not in circles:
                circles.add(frozenset(circle))
                problems.append((here + ("extends",), f"cards.{kind}.extends: {' → '.join(circle + (kind,))}: these card kinds extend each other "
                                                      "in a circle, so none has a layout to start from: let one of them extend none"))
            done[kind] = None
            return None
        base = resolve(parent, chain + (kind,))
        if base is None:
            done[kind] = None
            return None
        merged = {**base.spec, **{k: v for k, v in spec.items() if k not in ("extends", "face", "back")}}
        at = {**base.at, **{k: here + (k,) for k in spec}}
        sides = {}
        for side in ("face", "back"):
            elements, paths = list(base.spec[side]), list(base.sides[side])
            for i, element in enumerate(spec.get(side, [])):
                ids = [e.get("id") for e in elements]
                if element.get("id") is not None and element["id"] in ids:
                    j = ids.index(element["id"])
                    elements[j], paths[j] = element, here + (side, i)
                else:
                    elements.append(element)
                    paths.append(here + (side, i))
            merged[side], sides[side] = elements, paths
        done[kind] = KindSpec(merged, at, sides)
        return done[kind]

    for kind in cards:
        resolve(kind, ())
    return {kind: spec for kind, spec in done.items() if spec is not None}, problems


def kind_spec(cards: Mapping[str, dict], kind: str) -> dict:
    """The keys of card kind ``kind`` of layout.yaml's ``cards`` as drawn (``extends`` resolved,
    :func:`card_kinds`); the kind's own keys where it does not resolve (reported by validate)."""
    kinds, _ = card_kinds(cards)
    return kinds[kind].spec if kind in kinds else cards[kind]


def element_paths(elements: list, path: tuple):
    """``(path, element)`` of every element of a list, those inside ``rows`` too."""
    for i, element in enumerate(elements):
        yield path + (i,), element
        if element.get("type") == "rows" and isinstance(element.get("elements"), list):
            yield from element_paths(element["elements"], path + (i, "elements"))


def expressions_of(element: dict):
    """``(key path, source)`` of every expression an element holds: its ``when`` and the ``by`` of
    each map (``('fill', 'by')``), its ``ink_friendly`` maps included."""
    if isinstance(element.get("when"), str):
        yield ("when",), element["when"]
    for scope, keys in (((), element), (("ink_friendly",), element.get("ink_friendly") or {})):
        for key, value in keys.items():
            if isinstance(value, dict) and isinstance(value.get("by"), str):
                yield scope + (key, "by"), value["by"]


def unknown_names(kind: KindSpec, known: set[str], label: str) -> list[tuple[tuple, str]]:
    """``(path, message)`` for each expression of a card kind (an element's ``when``, a bare field
    name too, a map's ``by``; not inside ``rows``, whose items bring fields of their own)
    that reads a field not in ``known`` (the fields of every card of a deck drawn with it,
    ``label`` naming it): a typo would otherwise hold for no card, silently (``typ == "ice"``,
    ``when: Strenght`` hiding the strength of every card).
    Expressions that do not compile are left to the layout's own checks."""
    from deckpress.generator.content.expressions import (
        ExpressionError,
        compile_expression,
    )

    problems = []
    for side in ("face", "back"):
        for element, path in zip(kind.spec.get(side, []), kind.sides[side]):
            for key, source in expressions_of(element):
                try:
                    expr = compile_expression(source)
                except ExpressionError:
                    continue
                for name in sorted(expr.names - known):
                    problems.append((path + key, f"{'.'.join(key)}: '{excerpt(source)}' reads '{name}', a field no card of {label} has "
                                                 f"({choices(name, sorted(k for k in known if not k.startswith('_')))})"))
    return problems

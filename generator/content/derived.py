"""What a deck of a game made from data alone computes from its cards' fields, in the expression
language (docs/expressions.md): its derived fields, and the layout each card is drawn with.

In ``game.yaml``::

    decks:
      - id: trade
        ...
        derive:                                   # computed once per card, in this order,
          type_line: "{{ type }} — {{ faction }}" # before the schema and the layout see the card
          pick_label: {value: "PICK {{ pick }}", when: "pick > 1"}
        layout: {by: type, map: {base: base, ship: ship}, default: ship}   # a layout per card

A derived field's text is a Jinja text (``{{ expression }}``, ``{% if %}``); one that is nothing
but one ``{{ expression }}`` keeps the expression's value as it is (a number stays a number); one
that comes out empty, or whose ``when`` does not hold, leaves the field out.  A derived field may
replace a field of the card's own (``title: "{{ title | trim }}"``).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deckpress.generator.content.expressions import (
    Expression,
    ExpressionError,
    Text,
    compile_expression,
    compile_text,
    key_of,
)
from deckpress.generator.content.safetext import choices, excerpt

#: The key of a card's field dict that names the card kind it is drawn with, where a deck's cards
#: are drawn with several (game.yaml's ``layout: {by: ..., map: ...}``); not a field of its data
#: (no layout reads it: a name no card file can write, as it starts with an underscore).
LAYOUT_KEY = "_layout"

#: (path in game.yaml, message): a problem of a deck's expressions, placed by the caller.
Problem = tuple[tuple, str]


def _compiled(deck: Mapping[str, Any], index: int) -> tuple[list[tuple[str, Text, Expression | None]], list[Problem]]:
    """The derived fields of deck ``index`` compiled, each ``(name, text, when)``, and the
    problems of those that do not compile."""
    out, problems = [], []
    for name, spec in deck.get("derive", {}).items():
        source, when = (spec["value"], spec.get("when")) if isinstance(spec, dict) else (spec, None)
        at = ("decks", index, "derive", name)
        try:
            text = compile_text(source)
        except ExpressionError as exc:
            problems.append((at + (("value",) if isinstance(spec, dict) else ()), f"decks[{index}].derive.{name}: '{excerpt(source)}' {exc}"))
            continue
        try:
            condition = compile_expression(when) if when is not None else None
        except ExpressionError as exc:
            problems.append((at + ("when",), f"decks[{index}].derive.{name}.when: '{excerpt(when)}' {exc}"))
            continue
        out.append((name, text, condition))
    return out, problems


def derive(deck: Mapping[str, Any], index: int, records: list[Any]) -> list[Problem]:
    """Add deck ``index``'s derived fields to each of its ``records`` (the card file's mappings,
    changed in place), in the order ``derive`` gives them, each from the card's fields and the
    fields derived before it.

    Returns the problems, each at its expression in game.yaml: one that does not compile; one that
    reads a field no card of the deck has (a typo: with the nearest names); one that fails on a
    card (naming the card by its id or number; the field is then left out of that card).
    """
    fields, problems = _compiled(deck, index)
    if not fields:
        return problems
    cards = [r for r in records if isinstance(r, dict)]
    known = set().union(*(r.keys() for r in cards)) | {"id"}
    for name, text, when in fields:
        at = ("decks", index, "derive", name)
        for expr, where in ((text, at + ("value",) if when else at), (when, at + ("when",))):
            if expr is None:
                continue
            for unknown in sorted(expr.names - known):
                problems.append((where, f"decks[{index}].derive.{name}: '{excerpt(expr.source)}' reads '{unknown}', a field no card of "
                                        f"deck '{deck['id']}' has ({choices(unknown, sorted(known))})"))
        known.add(name)
    if problems:
        return problems
    failed: dict[tuple, list[str]] = {}
    for n, record in enumerate(cards, 1):
        for name, text, when in fields:
            at = ("decks", index, "derive", name)
            try:
                if when is not None and not when.holds(record):
                    record.pop(name, None)
                    continue
            except ExpressionError as exc:
                failed.setdefault((at + ("when",), f"when: '{excerpt(when.source if when else '')}': {exc}"), []).append(_who(record, n))
                continue
            try:
                value = text.value(record)
            except ExpressionError as exc:
                failed.setdefault((at + (("value",) if when else ()), f"'{excerpt(text.source)}' {exc}"), []).append(_who(record, n))
                continue
            if value is None:
                record.pop(name, None)
            else:
                record[name] = value
    for (where, message), who in failed.items():
        more = f" (and {len(who) - 1} more card{'s' * (len(who) > 2)})" if len(who) > 1 else ""
        problems.append((where, f"decks[{index}].derive.{where[3]}: {who[0]}{more}: {message}"))
    return problems


def _who(record: Mapping[str, Any], n: int) -> str:
    """A card as an error names it: by its id, else by its number in the file."""
    return f"card '{excerpt(str(record['id']))}'" if "id" in record else f"card {n}"


def layouts_named(deck: Mapping[str, Any]) -> list[str]:
    """Every layout a deck's ``layout`` names (one, or a map's entries and default), first the one
    its deck is printed as (:func:`default_layout`)."""
    spec = deck["layout"]
    if isinstance(spec, str):
        return [spec]
    return list(dict.fromkeys([default_layout(deck), *spec["map"].values()]))


def default_layout(deck: Mapping[str, Any]) -> str:
    """The layout a deck is printed as (its grid on the sheet, its tuck box, its checklist size):
    its ``layout``, or a map's ``default``, else the map's first entry."""
    spec = deck["layout"]
    if isinstance(spec, str):
        return spec
    return spec.get("default", next(iter(spec["map"].values())))


def card_layouts(deck: Mapping[str, Any], index: int, records: list[Mapping[str, Any]]) -> tuple[list[str], list[Problem]]:
    """The layout of each card of deck ``index`` (``records``: its cards' fields, derived fields
    included), chosen by its ``layout`` map (the layout itself for a deck of one layout), and the
    problems, each at game.yaml's ``layout`` naming the card: a ``by`` that does not compile, that
    fails on a card, or a value the map has no entry for when it has no default."""
    spec = deck["layout"]
    if isinstance(spec, str):
        return [spec] * len(records), []
    at = ("decks", index, "layout", "by")
    try:
        by = compile_expression(spec["by"])
    except ExpressionError as exc:
        return [], [(at, f"decks[{index}].layout.by: '{excerpt(spec['by'])}' {exc}")]
    known = set().union(*(r.keys() for r in records)) | {"id"}
    unknown = sorted(by.names - known)
    if unknown:
        return [], [(at, f"decks[{index}].layout.by: '{excerpt(spec['by'])}' reads '{name}', a field no card of deck '{deck['id']}' has "
                         f"({choices(name, sorted(known))})") for name in unknown]
    chosen: list[str] = []
    failed: dict[tuple[tuple, str], list[str]] = {}
    fallback = spec.get("default")
    for n, record in enumerate(records, 1):
        try:
            key = key_of(by.value(record))
        except ExpressionError as exc:
            failed.setdefault((at, f"by '{excerpt(spec['by'])}' {exc}"), []).append(_who(record, n))
            chosen.append(default_layout(deck))
            continue
        kind = spec["map"].get(key) if key is not None else None
        if kind is None and fallback is None:
            shown = "no value" if key is None else f"'{excerpt(key)}'"
            failed.setdefault((("decks", index, "layout", "map"), f"by '{excerpt(spec['by'])}' gives {shown}, which the map has no layout for "
                                                                  f"({choices(key or '', sorted(spec['map']))}), and it has no default"), []).append(_who(record, n))
        chosen.append(kind or fallback or default_layout(deck))
    problems = []
    for (where, message), who in failed.items():
        more = f" (and {len(who) - 1} more card{'s' * (len(who) > 2)})" if len(who) > 1 else ""
        problems.append((where, f"decks[{index}].layout: {who[0]}{more}: {message}"))
    return chosen, problems


def per_card_layouts(deck: Mapping[str, Any], index: int, records: list[Mapping[str, Any]]) -> list[dict[str, str]]:
    """For each card of a deck of checked content, what its field dict takes to be drawn with its
    own layout: ``{LAYOUT_KEY: kind}`` where the deck's ``layout`` is a map, else nothing.

    Raises:
        ContentErrors: never for checked content (:func:`card_layouts` found no problem at
            validate); the problems, placed in game.yaml's deck, if it does.
    """
    from deckpress.generator.content.errors import ContentError, ContentErrors

    if isinstance(deck["layout"], str):
        return [{}] * len(records)
    kinds, problems = card_layouts(deck, index, records)
    if problems:
        raise ContentErrors([ContentError("game.yaml", 0, 0, message) for _, message in problems])
    return [{LAYOUT_KEY: kind} for kind in kinds]

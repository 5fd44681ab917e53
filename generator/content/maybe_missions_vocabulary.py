"""Maybe Missions vocabulary: the kinds of rules, powers and rewards, and their printed text.

Every Master card rule, identity power and shop reward is an *effect*: a mapping
``{kind: <name>, <parameter>: <value>, ...}`` such as ``{kind: vote_cutoff, above: 15}``.  The kinds
are defined once, in ``schemas/maybe-missions.vocabulary.schema.json``: each kind's ``$defs`` entry
holds its parameters (types and ranges), its exact meaning for the rules engine (``description``),
where it may be used (``x-family``) and its card text (``x-templates``).  This module reads that
file, so the schema that checks the content, the words printed on the cards and the meaning the
engine implements cannot drift apart.

Templates belong to the project (the schema file), never to content: content only chooses kinds
and parameter values.  A template fills ``{name}`` with a parameter, ``{name:noun}`` with the number
and the noun in singular or plural ("1 vote", "3 votes"), ``{name:+}`` with a signed number
("+2", "-1").  Nothing else is interpreted (no attribute access, no expressions).

Nothing here imports the renderer: the rules engine may import this module.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Collection, Iterator, Mapping

from deckpress.generator.content.errors import ContentError
from deckpress.generator.content.schema import dotted
from deckpress.generator.paths import SCHEMAS_DIR

if TYPE_CHECKING:
    from deckpress.generator.content import GameContent

SCHEMA_NAME = "maybe-missions.vocabulary.schema.json"

#: The effect families, in the order of the rulebook: a Master card's rule, a public identity's
#: power (voting and collecting), a secret identity's power (end score), a shop reward.
FAMILIES = ("master_rule", "public_power", "secret_power", "reward")

_PLACEHOLDER = re.compile(r"\{([a-z_]+)(?::([^{}]*))?\}")


class VocabularyError(ValueError):
    """An effect names no kind of the vocabulary, or gives a set of parameters none of its
    kind's templates takes (the message says which sets the kind takes)."""


@dataclass(frozen=True)
class Kind:
    """One kind of effect, as defined in the vocabulary schema.

    Attributes:
        name: the kind's name (``vote_cutoff``).
        family: one of :data:`FAMILIES`.
        meaning: the exact meaning for the rules engine (the schema's ``description``).
        parameters: each parameter's JSON Schema (type, range, description).
        parameter_sets: the allowed sets of parameter names; an effect gives exactly one.
        templates: the card text, one template per parameter set (same order).
        polarity: for identity powers: 'helpful', 'harmful', 'either', or 'points' (helpful when
            the ``points`` parameter is above ``neutral_points``); None for other families.
        neutral_points: see ``polarity``.
    """

    name: str
    family: str
    meaning: str
    parameters: Mapping[str, Mapping[str, Any]]
    parameter_sets: tuple[frozenset[str], ...]
    templates: tuple[str, ...]
    polarity: str | None
    neutral_points: int


@lru_cache(maxsize=1)
def vocabulary() -> dict[str, Kind]:
    """Every kind of the vocabulary by name, read from the vocabulary schema.

    Raises:
        FileNotFoundError, KeyError: the schema file is missing or malformed (a programming
            error: the file ships with deckpress and is tested).
    """
    defs = json.loads((SCHEMAS_DIR / SCHEMA_NAME).read_text("utf-8"))["$defs"]
    kinds = {}
    for family in FAMILIES:
        for name in defs[family]["properties"]["kind"]["enum"]:
            spec = defs[name]
            params = {p: s for p, s in spec["properties"].items() if p != "kind"}
            if "anyOf" in spec:
                sets = tuple(frozenset(alt["required"]) for alt in spec["anyOf"])
            else:
                sets = (frozenset(p for p in spec["required"] if p != "kind"),)
            kinds[name] = Kind(name, spec["x-family"], spec["description"], params, sets,
                               tuple(spec["x-templates"]), spec.get("x-polarity"), spec.get("x-neutral-points", 0))
    return kinds


def kinds_of(family: str) -> list[str]:
    """The names of the kinds of one family, in schema order."""
    return [k.name for k in vocabulary().values() if k.family == family]


def placeholders(template: str) -> frozenset[str]:
    """The parameter names a template prints."""
    return frozenset(m.group(1) for m in _PLACEHOLDER.finditer(template))


def effect_text(effect: Mapping[str, Any]) -> str:
    """The card text of an effect: its kind's template for exactly the parameters it gives.

    >>> effect_text({"kind": "vote_cutoff", "above": 15})
    "Votes above 15 don't count."

    Raises:
        VocabularyError: unknown kind, or no template of the kind takes these parameters.
    """
    kind = vocabulary().get(effect.get("kind", ""))
    if kind is None:
        raise VocabularyError(f"unknown kind '{effect.get('kind')}'")
    given = frozenset(p for p in effect if p != "kind")
    for params, template in zip(kind.parameter_sets, kind.templates):
        if params == given:
            return _PLACEHOLDER.sub(lambda m: _format(effect[m.group(1)], m.group(2)), template)
    expected = " or ".join("(" + (", ".join(sorted(s)) or "no parameters") + ")" for s in kind.parameter_sets)
    raise VocabularyError(f"{kind.name} takes exactly {expected}; this one gives ({', '.join(sorted(given)) or 'no parameters'})")


def _format(value: Any, spec: str | None) -> str:
    if spec is None:
        return str(value)
    if spec == "+":
        return f"{value:+d}"
    noun = spec if value == 1 else spec + "s"
    return f"{value} {noun}"


def helps_owner(effect: Mapping[str, Any]) -> bool | None:
    """Whether an identity power helps its owner (True), hurts (False), or may do either (None).

    Raises:
        VocabularyError: the effect is not an identity power.
    """
    kind = vocabulary().get(effect.get("kind", ""))
    if kind is None or kind.polarity is None:
        raise VocabularyError(f"'{effect.get('kind')}' is not an identity power")
    if kind.polarity == "points":
        return effect["points"] > kind.neutral_points
    return {"helpful": True, "harmful": False, "either": None}[kind.polarity]


@dataclass(frozen=True)
class KindUse:
    """Where content uses an effect: the file ``stem``, the ``path`` of the effect mapping in it,
    the card's id and the effect's ``family``.  The rules engine uses these to report a kind it
    does not implement at the content's ``file:line:column``."""

    family: str
    effect: Mapping[str, Any]
    card_id: str
    stem: str
    path: tuple

    def error(self, content: "GameContent", message: str, key: str | None = None) -> ContentError:
        """A :class:`ContentError` at this effect (or at its ``key``) in its file."""
        path = self.path + ((key,) if key else ())
        return content.documents[self.stem].error(path, f"{dotted(path)}: {message}")


#: Where each family's effects live: (file stem, list key, effect keys inside a record).
_EFFECT_PLACES = (
    ("master_rule", "masters", "masters", (("rule",),)),
    ("public_power", "public-identities", "identities", (("helpful",), ("harmful",))),
    ("secret_power", "secret-identities", "identities", (("helpful",), ("harmful",))),
    ("reward", "shop", "shop", (("success", "reward"), ("fail", "reward"))),
)


def kind_uses(content: "GameContent") -> Iterator[KindUse]:
    """Every effect in a Maybe Missions content set, with its location, in file order."""
    for family, stem, list_key, places in _EFFECT_PLACES:
        for i, record in enumerate(content[stem][list_key]):
            for place in places:
                effect = record
                for key in place:
                    effect = effect[key]
                yield KindUse(family, effect, record["id"], stem, (list_key, i) + place)


def check_effects(content: "GameContent") -> list[ContentError]:
    """Every effect has a template for its parameters, and every identity's helpful power helps
    its owner and its harmful power hurts (``helps_owner``)."""
    errors = []
    for use in kind_uses(content):
        try:
            effect_text(use.effect)
        except VocabularyError as exc:
            errors.append(use.error(content, str(exc)))
            continue
        slot = use.path[-1]
        if use.family in ("public_power", "secret_power"):
            helps = helps_owner(use.effect)
            if helps is not None and helps != (slot == "helpful"):
                errors.append(use.error(content, f"a {slot} power must {'help' if slot == 'helpful' else 'hurt'} its owner, "
                                                 f"but {use.effect['kind']} as given {'helps' if helps else 'hurts'} ('{effect_text(use.effect)}')"))
    return errors


def unsupported_kinds(content: "GameContent", supported: Mapping[str, Collection[str]]) -> list[ContentError]:
    """Errors for effects whose kind an engine does not implement.

    Args:
        supported: the kinds implemented, by family (for example ``{"master_rule": {...}}``); a
            family missing from it supports nothing.

    Returns:
        One error per effect of an unsupported kind, at its ``kind`` key, naming the kinds that
        are supported.
    """
    errors = []
    for use in kind_uses(content):
        known = supported.get(use.family, ())
        if use.effect["kind"] not in known:
            errors.append(use.error(content, f"{use.family.replace('_', ' ')} kind '{use.effect['kind']}' (card '{use.card_id}') is not implemented "
                                             f"by this rules engine (it implements: {', '.join(sorted(known)) or 'none'})", key="kind"))
    return errors

"""Game parameters: declared with type, default and range; bundled into named rulesets.

A game declares its parameters as a tuple of :class:`Param`.  :func:`resolve` turns a ruleset name
and explicit overrides into the *effective* parameters (every declared key, in declaration order),
which go into every log and report.  Resolution order, later wins:

1. each parameter's declared default (or, for the value of the ``mode`` parameter in force, its
   ``by_mode`` default; or a value the game computes from its content, see :data:`FROM_CONTENT`);
2. the named ruleset's values;
3. the explicit overrides.

An unknown key is an error that lists the known ones; a value of the wrong type or outside its
range is an error naming the range.  A later rule (a fan variant's "set collection", say) is one
more :class:`Param` (often a ``bool``) read where the rule applies.

*Models:* OpenSpiel game parameters (``pyspiel.load_game("name(k=v)")``), Ludii options and
rulesets.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from deckpress.generator.content.safetext import (
    choices,
    excerpt,
    numeric,
    quoted,
    strict_json,
)
from deckpress.rules.core.errors import ParameterError


class _FromContent:
    """Sentinel default: the game computes the value from its content (point values, ...)."""

    def __repr__(self) -> str:
        return "<from content>"


#: A :class:`Param` default meaning "the game fills this in from its content files".
FROM_CONTENT = _FromContent()

_TYPE_NAMES = {int: "an integer", float: "a number", bool: "true or false", str: "a string",
               list: "a list", dict: "a mapping"}


@dataclass(frozen=True)
class Param:
    """One game parameter.

    ``kind`` is one of ``int``, ``float``, ``bool``, ``str``, ``list``, ``dict`` (a game checks the
    items of lists and mappings itself).  ``low``/``high`` bound numbers (inclusive); ``choices``
    lists the allowed strings.  ``by_mode`` gives other defaults for some values of the ``mode``
    parameter (for example a hand of 1 card in the kids game); ``modes`` names the modes the rule
    applies to, when not all (a value given for another mode is reported as ignored).  With ``merge``, a mapping given for
    a ``dict`` parameter overrides the default's entries one by one.  ``source`` names where the rule
    comes from (a rulebook section, or "variant").
    """

    name: str
    kind: type
    default: Any
    doc: str
    source: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] | None = None
    by_mode: Mapping[str, Any] = field(default_factory=dict)
    merge: bool = False  # for dict parameters: given entries override the default's, the rest stay
    modes: tuple[str, ...] | None = None  # the values of ``mode`` it applies to (None: every mode)

    def check(self, value: Any) -> Any:
        """``value`` if it fits this parameter (an int is accepted for a float), else raises
        :class:`ParameterError` saying what was expected."""
        ok = isinstance(value, self.kind) and not (self.kind is not bool and isinstance(value, bool))
        if self.kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            hint = " (write it without quotes)" if self.kind in (int, float) and isinstance(value, str) and numeric(value) else ""
            raise ParameterError(f"parameter '{self.name}': expected {_TYPE_NAMES[self.kind]}, got {quoted(value)}{hint}")
        if self.choices is not None and value not in self.choices:
            raise ParameterError(f"parameter '{self.name}': '{excerpt(value)}' is not one of: {', '.join(self.choices)}")
        if self.low is not None and value < self.low or self.high is not None and value > self.high:
            raise ParameterError(f"parameter '{self.name}': {value} is outside {self.range_text()}")
        return value

    def range_text(self) -> str:
        """The allowed values in words: ``2..6``, ``base|strategy|kids``, ``true|false``."""
        if self.choices:
            return "|".join(self.choices)
        if self.kind is bool:
            return "true|false"
        if self.low is not None or self.high is not None:
            return f"{'' if self.low is None else f'{self.low:g}'}..{'' if self.high is None else f'{self.high:g}'}"
        return _TYPE_NAMES[self.kind]


def resolve(declared: tuple[Param, ...], rulesets: Mapping[str, Mapping[str, Any]],
            ruleset: str | None = None, overrides: Mapping[str, Any] | None = None,
            from_content: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
    """The effective parameters, as a read-only mapping in declaration order.

    Args:
        declared: the game's parameter declarations.
        rulesets: the game's named rulesets (name -> values).
        ruleset: a ruleset name, or None.
        overrides: explicit values (from a log header, the command line, a variant).
        from_content: values for parameters whose default is :data:`FROM_CONTENT`.

    Raises:
        ParameterError: unknown ruleset or key (listing the known ones), wrong type or range.
    """
    by_name = {p.name: p for p in declared}
    chosen: dict[str, Any] = {}
    if ruleset is not None:
        if ruleset not in rulesets:
            raise ParameterError(f"unknown ruleset '{excerpt(ruleset)}' ({choices(str(ruleset), list(rulesets)) if rulesets else 'this game has no rulesets'})")
        chosen.update(rulesets[ruleset])
    for key, value in (overrides or {}).items():
        if key not in by_name:
            raise ParameterError(f"unknown parameter '{excerpt(key)}' ({choices(str(key), list(by_name))})")
        chosen[key] = value
    mode = chosen.get("mode", by_name["mode"].default if "mode" in by_name else None)
    effective: dict[str, Any] = {}
    for p in declared:
        if p.name in chosen:
            value = chosen[p.name]
        elif mode is not None and mode in p.by_mode:
            value = p.by_mode[mode]
        else:
            value = p.default
        default = (from_content or {})[p.name] if p.default is FROM_CONTENT else p.default
        if value is FROM_CONTENT:
            value = default
        elif p.merge and isinstance(value, dict) and isinstance(default, dict):
            value = {**default, **value}
        effective[p.name] = p.check(value)
    return MappingProxyType(effective)


def ignored(declared: tuple[Param, ...], effective: Mapping[str, Any], given: Mapping[str, Any],
            from_content: Mapping[str, Any] | None = None) -> list[str]:
    """Messages for the ``given`` parameters that do not apply to the effective ``mode`` and are
    not at their default (a log written by deckpress carries every parameter, at its default when
    it does not apply): ``"kids_winner: applies to the kids game only, ignored in the base game"``.
    ``from_content`` gives the defaults of parameters declared :data:`FROM_CONTENT`."""
    mode = effective.get("mode")
    out = []
    for p in declared:
        default = (from_content or {}).get(p.name) if p.default is FROM_CONTENT else p.default
        if p.name in given and p.modes is not None and mode not in p.modes and given[p.name] != default:
            where = " and ".join(p.modes)
            out.append(f"{p.name}: applies to the {where} game{'s' * (len(p.modes) > 1)} only, ignored in the {mode} game")
    return out


def parse_value(text: str) -> Any:
    """A command-line parameter value: JSON (``3``, ``true``, ``[3, 5, 7]``, ``{"forest": [1, 2, 3]}``)
    when it parses as JSON, else the text itself (``strategy``): so is JSON nested too deeply for
    the parser, and NaN or Infinity, which are not JSON: the parameter's own check then refuses it."""
    try:
        return strict_json(text)
    except (ValueError, RecursionError):
        return text


@dataclass(frozen=True)
class Reading:
    """A rulebook sentence the engine can read more than one way, played as a parameter.

    Where a rulebook is explicit the engine follows it; where it is ambiguous (or where the
    engine's earlier reading departed from it) the reading is the parameter ``param``, whose
    default is the engine's reading.  ``deckpress describe GAME`` lists every reading of a game
    (``GameInfo.readings``) and ``docs/rules-audit.md`` carries the same list, checked by a test.

    Attributes:
        param: the parameter's name (a declared :class:`Param` of the game).
        section: the rulebook's section the sentence is in ("End of the game").
        quote: the sentence, quoted (shortened with "...").
        alternatives: ``(value, meaning)`` pairs, one for each value of the parameter that is a
            reading of the sentence (the default among them).
        where: where the choice matters (which mode, cards, player counts), in words.
        effect: the measured effect, with the number of games, the date and the command that
            prints the figures (``python benchmarks/readings.py GAME``), or why none is needed.
        measure: the parameters under which ``benchmarks/readings.py`` measures it (an expansion
            the reading belongs to, a player count).
        bots: the bot that plays every seat when it is measured (``random``; ``greedy`` where
            random play never reaches the rule, 50 Missions' gold medal).
    """

    param: str
    section: str
    quote: str
    alternatives: tuple[tuple[Any, str], ...]
    where: str
    effect: str
    measure: Mapping[str, Any] = field(default_factory=dict)
    bots: str = "random"

    def values(self) -> list[Any]:
        """The parameter values this reading lists, in order."""
        return [value for value, _ in self.alternatives]

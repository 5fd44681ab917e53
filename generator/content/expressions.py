"""The one expression language of a game's files: Jinja2's expressions, in its sandbox, cut down to
what a card needs (docs/expressions.md).

Where a designer writes one: an element's ``when`` (``type == "ice"``, ``pick > 1``, ``not
unique``, or a bare field name), a map's ``by`` (a colour, icon, image or layout chosen by a value),
and a deck's derived fields in ``game.yaml`` (``"{{ type }} — {{ subtype }}"``).  The names are
the card's fields, as its file writes them (any case); ``stats.attack`` reads a nested value.

Every expression comes from an untrusted file (the guide's rule: "sandboxed expressions, no code
execution"), so beyond Jinja's :class:`~jinja2.sandbox.ImmutableSandboxedEnvironment`:

* no calls, no loops, no macros, no assignments: expressions, filters from a short list, tests,
  and in a derived field's text ``{% if %}`` blocks only; nothing else parses;
* no attributes: ``a.b`` reads the field ``b`` of the mapping ``a`` and nothing of any other value
  (``x.__class__`` is refused in so many words);
* sizes bounded before they are made: a source of at most :data:`MAX_SOURCE` characters nested at
  most :data:`MAX_NESTING` deep, text and lists of at most :data:`MAX_TEXT` items, numbers of at
  most :data:`MAX_BITS` bits (``'a' * 10**9`` and ``9 ** 9 ** 9`` are refused, not computed);
* every failure is one :class:`ExpressionError`: a line for the person, never a traceback.

Each expression is compiled once (:func:`compile_expression`, :func:`compile_text`) and then
evaluated for each card.
"""
from __future__ import annotations

import operator
import re
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import lru_cache
from typing import Any

from jinja2 import TemplateSyntaxError, Undefined, UndefinedError, meta, nodes
from jinja2.exceptions import SecurityError, TemplateAssertionError
from jinja2.sandbox import ImmutableSandboxedEnvironment

#: The longest expression or derived field's text, in characters.
MAX_SOURCE = 2000
#: How deeply brackets may nest in an expression.
MAX_NESTING = 20
#: The most characters of a text, or items of a list, an expression may make.
MAX_TEXT = 100_000
#: The largest whole number an expression may make, in bits (about 1,200 decimal digits).
MAX_BITS = 4096

#: A field name as a card file writes it, or a dotted path into nested mappings (``stats.attack``).
FIELD_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


class ExpressionError(ValueError):
    """An expression that cannot be compiled or evaluated: the message is one line, for people."""


#: The AST nodes an expression may hold (expressions, filters, tests) and, in a derived field's
#: text, the nodes of ``{% if %}`` blocks.
_ALLOWED = (nodes.Template, nodes.Output, nodes.TemplateData, nodes.If, nodes.Name, nodes.Const, nodes.Getattr, nodes.Getitem,
            nodes.Slice, nodes.Compare, nodes.Operand, nodes.And, nodes.Or, nodes.Not, nodes.Neg, nodes.Pos, nodes.Add, nodes.Sub,
            nodes.Mul, nodes.Div, nodes.FloorDiv, nodes.Mod, nodes.Pow, nodes.Concat, nodes.CondExpr, nodes.Filter, nodes.Test,
            nodes.List, nodes.Tuple, nodes.Dict, nodes.Pair, nodes.Expr)


#: Names Jinja gives a meaning of its own in a template.
_RESERVED = frozenset({"self", "loop", "caller", "varargs", "kwargs"})


def _text(value: Any) -> Any:
    """``value`` if it is within :data:`MAX_TEXT` (a text or list) and :data:`MAX_BITS` (a number)."""
    if isinstance(value, (str, list, tuple)) and len(value) > MAX_TEXT:
        raise ExpressionError(f"makes a text or list of {len(value):,} items, more than the {MAX_TEXT:,} an expression may make")
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_BITS:
        raise ExpressionError(f"makes a number of more than {MAX_BITS:,} bits")
    return value


def _size(value: Any) -> int:
    return len(value) if isinstance(value, (str, list, tuple)) else 0


def _times(left: Any, right: Any) -> Any:
    """``*`` with its result's size checked before it is made."""
    for seq, n in ((left, right), (right, left)):
        if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and _size(seq) * max(n, 0) > MAX_TEXT:
            raise ExpressionError(f"makes a text or list of {_size(seq) * n:,} items, more than the {MAX_TEXT:,} an expression may make")
    if isinstance(left, int) and isinstance(right, int) and left.bit_length() + right.bit_length() > MAX_BITS:
        raise ExpressionError(f"makes a number of more than {MAX_BITS:,} bits")
    return left * right


def _power(left: Any, right: Any) -> Any:
    """``**`` with its result's size checked before it is made."""
    if isinstance(left, int) and isinstance(right, int) and right > 0 and abs(left) > 1 and left.bit_length() * right > MAX_BITS:
        raise ExpressionError(f"makes a number of more than {MAX_BITS:,} bits")
    if isinstance(left, float) or isinstance(right, float):
        try:
            return float(left) ** float(right)
        except OverflowError:
            raise ExpressionError("makes a number too large to hold") from None
    return left ** right


def _modulo(left: Any, right: Any) -> Any:
    """``%`` on numbers; on a text it would format it (``'%999999999d' % 1``): refused."""
    if isinstance(left, str):
        raise ExpressionError("'%' formats text: join texts with '~' instead")
    return left % right


def _replace(value: Any, old: Any, new: Any, count: int | None = None) -> str:
    """The ``replace`` filter with its result's size checked before it is made."""
    value, old, new = str(value), str(old), str(new)
    n = value.count(old) if old else len(value) + 1
    if count is not None:
        n = min(n, max(count, 0))
    if len(value) + n * (len(new) - len(old)) > MAX_TEXT:
        raise ExpressionError(f"replace makes a text longer than the {MAX_TEXT:,} characters an expression may make")
    return value.replace(old, new, -1 if count is None else count)


def _join(value: Any, separator: str = "") -> str:
    if not isinstance(value, (list, tuple)):
        raise ExpressionError("join takes a list")
    return _text(str(separator).join(str(v) for v in value))


def _bounded(function):
    """A filter whose result is checked against the size limits."""
    return lambda *args, **kwargs: _text(function(*args, **kwargs))


#: The filters an expression may use, by name (docs/expressions.md lists them).
FILTERS = {
    "upper": _bounded(lambda v: str(v).upper()), "lower": _bounded(lambda v: str(v).lower()),
    "title": _bounded(lambda v: str(v).title()), "capitalize": _bounded(lambda v: str(v).capitalize()),
    "trim": lambda v: str(v).strip(), "string": lambda v: "" if v is None or isinstance(v, Undefined) else str(v),
    "length": len, "count": len, "first": lambda v: v[0] if len(v) else None, "last": lambda v: v[-1] if len(v) else None,
    "join": _join, "replace": _replace, "int": lambda v, default=0: _int(v, default), "float": lambda v, default=0.0: _float(v, default),
    "round": lambda v, precision=0: round(float(v), int(precision)), "abs": abs,
    "min": lambda v: min(v) if len(v) else None, "max": lambda v: max(v) if len(v) else None, "sum": lambda v: _text(sum(v)),
}
_DEFAULTS = ("default", "d")  # Jinja's own: needs its environment's undefined, kept as it is


def _int(value: Any, default: int = 0) -> int:
    try:
        return _text(int(str(value).strip()) if isinstance(value, str) else int(value))
    except (TypeError, ValueError, OverflowError):
        return default


def _float(value: Any, default: float = 0.0) -> float:
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError):
        return default


class _Sandbox(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox with no globals, no calls, no attributes of values, and operators
    whose results are bounded (see the module's docstring)."""

    intercepted_binops = frozenset({"*", "**", "%", "+", "//", "/"})
    intercepted_unops = frozenset({"-"})

    def __init__(self) -> None:
        super().__init__(autoescape=False, undefined=Undefined, keep_trailing_newline=True)
        self.globals.clear()
        keep = {name: self.filters[name] for name in _DEFAULTS}
        self.filters.clear()
        self.filters.update(FILTERS, **keep)
        self.binop_table = {**self.binop_table, "*": _times, "**": _power, "%": _modulo}

    def call_binop(self, context, op, left, right):
        return _text(self.binop_table[op](left, right))

    def call_unop(self, context, op, arg):
        return operator.neg(arg)

    def getattr(self, obj, attribute):
        """``a.b``: the field ``b`` of the mapping ``a``; nothing else of any value."""
        if attribute.startswith("__"):
            raise ExpressionError(f"'.{attribute}': an expression reads a card's fields, never a value's internals")
        if isinstance(obj, Mapping):
            return obj[attribute] if attribute in obj else self.undefined(obj=obj, name=attribute)
        if isinstance(obj, Undefined):
            return self.undefined(obj=obj, name=attribute)
        raise ExpressionError(f"'.{attribute}': {_kind(obj)} has no fields (use a filter, such as '| upper')")

    def getitem(self, obj, argument):
        """``a["b"]`` of a mapping, ``a[0]`` or ``a[1:3]`` of a list or text."""
        if isinstance(argument, str):
            return self.getattr(obj, argument)
        if isinstance(obj, (list, tuple, str)) and isinstance(argument, (int, slice)) and not isinstance(argument, bool):
            try:
                return obj[argument]
            except IndexError:
                return self.undefined(obj=obj, name=str(argument))
        if isinstance(obj, Undefined):
            return self.undefined(obj=obj, name=str(argument))
        raise ExpressionError(f"'[{argument!r}]': {_kind(obj)} cannot be indexed so")

    def call(*args, **kwargs):
        raise ExpressionError("calls are not part of the language: use a filter, such as 'name | upper'")


def _kind(value: Any) -> str:
    """What a value is, in the designer's words."""
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, (list, tuple)):
        return "a list"
    return "this value"


_ENV = _Sandbox()


def _nesting(source: str) -> int:
    """How deeply brackets nest in ``source`` (quoted text skipped, roughly: a bound, not a parse)."""
    depth = deepest = 0
    quote = None
    for ch in source:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in ")]}":
            depth -= 1
    return deepest


def _parse(source: str, text: bool) -> nodes.Template:
    """The checked AST of ``source``: an expression, or with ``text`` a derived field's text.

    Raises:
        ExpressionError: too long, nested too deeply, not valid, or holding what the language
            leaves out (a call, a loop, a macro, an assignment, an unknown filter).
    """
    if not isinstance(source, str):
        raise ExpressionError(f"expected an expression as text, found {_kind(source)}")
    if len(source) > MAX_SOURCE:
        raise ExpressionError(f"is {len(source):,} characters long; an expression is at most {MAX_SOURCE:,}")
    if _nesting(source) > MAX_NESTING:
        raise ExpressionError(f"nests brackets more than {MAX_NESTING} deep")
    if not text and source.lstrip().startswith("{{"):
        raise ExpressionError("is written in '{{ }}': write the expression bare (when: cost > 1); "
                              "'{{' and '}}' belong in a derived field's text")
    try:
        tree = _ENV.parse(source if text else "{{ " + source + " }}")
    except TemplateSyntaxError as exc:
        message = str(exc.message)
        if not text:  # the expression was read inside '{{ }}': speak of it as written
            message = message.replace("token 'end of print statement'", "the end of the expression").replace("'end of print statement'", "end of the expression")
        raise ExpressionError(f"is not a valid expression: {message}") from None
    except RecursionError:
        raise ExpressionError("nests too deeply to read") from None
    for node in tree.find_all(nodes.Node):
        if isinstance(node, nodes.Call):
            raise ExpressionError("calls are not part of the language: use a filter, such as 'name | upper'")
        if isinstance(node, nodes.Filter) and node.name not in _ENV.filters:
            from deckpress.generator.content.safetext import choices

            raise ExpressionError(f"no filter '{node.name}' ({choices(node.name, sorted(_ENV.filters))})")
        if isinstance(node, nodes.Name) and node.name in _RESERVED:
            raise ExpressionError(f"'{node.name}' is a word Jinja keeps for itself, not a field: name the field another way")
        if not isinstance(node, _ALLOWED):
            what = type(node).__name__.lower()
            raise ExpressionError(f"'{what}' is not part of the language: expressions, filters, tests"
                                  + (" and {% if %} blocks" if text else "") + " only")
        if not text and isinstance(node, nodes.Output) and len(node.nodes) != 1:
            raise ExpressionError("is not one expression ('{{' and '}}' belong in a derived field's text)")
    return tree


def _names(tree: nodes.Template) -> frozenset[str]:
    """The top-level field names an AST reads."""
    return frozenset(meta.find_undeclared_variables(tree))


def lookup(fields: Mapping[str, Any], path: str, missing: Any = None) -> Any:
    """The value of field ``path`` (``"cost"``, or ``"stats.attack"`` into nested mappings) of a
    card, or ``missing`` where it has none.  A field whose own name holds the dots is found first."""
    if path in fields:
        return fields[path]
    value: Any = fields
    for part in path.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return missing
        value = value[part]
    return value


def present(value: Any) -> bool:
    """Whether a field's value is there to print: not absent (None), not empty text, list or
    mapping, not ``false``.  ``0`` and ``0.0`` are values (a card that costs nothing prints its 0)."""
    if value is None or value is False or isinstance(value, Undefined):
        return False
    if isinstance(value, (str, list, dict, tuple)):
        return len(value) > 0
    return True


#: How many values of one expression are kept (:meth:`Expression.value`), and of what types.
ANSWERS_KEPT = 1024
_KEPT = frozenset({str, int, float, bool, type(None)})
_KEPT_TEXT = 1000  # a longer text is worked out again rather than kept
_ABSENT = object()


@dataclass(frozen=True)
class Expression:
    """A compiled expression: ``source`` as written, the field ``names`` it reads (top level), and
    ``field``: the field path when it is nothing but one (``cost``, ``stats.attack``), read
    without Jinja."""

    source: str
    names: frozenset[str]
    field: str | None
    _compiled: Any = None
    # values already worked out, by the values of the fields read (see value)
    _answers: dict = dataclass_field(default_factory=dict, compare=False, hash=False, repr=False)

    def value(self, fields: Mapping[str, Any]) -> Any:
        """The expression's value for a card's ``fields`` (None for an absent field).  The
        language is pure (no calls, filters from a fixed list), so a value that is text, a number,
        true/false or none is kept (up to :data:`ANSWERS_KEPT`) by the values of the fields the
        expression reads, each with its type (``1``, ``1.0`` and ``true`` are three values, and so
        are ``0.0`` and ``-0.0``): cards share values, and the next card with them is answered
        without Jinja.

        Raises:
            ExpressionError: it fails on these fields (a field it compares is absent, a text
                compared with a number, a limit passed), in one line.
        """
        if self.field is not None:
            return lookup(fields, self.field)
        try:
            key: tuple | None = tuple([(v.hex(),) if v.__class__ is float else (v.__class__, v)
                                       for v in [fields.get(name, _ABSENT) for name in self.names]])  # one order: this set's
            found = self._answers.get(key, _ABSENT)
        except TypeError:  # a list or mapping among the values: worked out every time
            key, found = None, _ABSENT
        if found is not _ABSENT:
            return found
        result = _evaluate(self._compiled, fields)
        result = None if isinstance(result, Undefined) else result
        if key is not None and result.__class__ in _KEPT and len(self._answers) < ANSWERS_KEPT \
                and (result.__class__ is not str or len(result) <= _KEPT_TEXT):
            self._answers[key] = result
        return result

    def holds(self, fields: Mapping[str, Any]) -> bool:
        """Whether it holds for ``fields``: a bare field name holds when the field is
        :func:`present` (``0`` is), any other expression when its value is true."""
        if self.field is not None:
            return present(lookup(fields, self.field))
        return bool(self.value(fields))


def _evaluate(compiled, fields: Mapping[str, Any]) -> Any:
    """Run a compiled expression or template on ``fields``, every failure one ExpressionError."""
    try:
        return compiled(fields)
    except ExpressionError:
        raise
    except UndefinedError as exc:
        raise ExpressionError(f"{exc.message}: this card has no such field") from None
    except SecurityError as exc:
        raise ExpressionError(f"refused by the sandbox: {exc}") from None
    except RecursionError:
        raise ExpressionError("nests too deeply to evaluate") from None
    except MemoryError:
        raise ExpressionError("needs more memory than an expression may have") from None
    except (TypeError, ValueError, ArithmeticError, LookupError) as exc:
        raise ExpressionError(f"fails on this card: {_plain(exc)}") from None


def _plain(exc: Exception) -> str:
    """An exception's message in the designer's words where Python's are cryptic."""
    text = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
    text = text.replace("'NoneType'", "an absent value").replace("'str'", "text").replace("'int'", "a number").replace("'float'", "a number")
    return text.replace("instances of ", "")


@lru_cache(maxsize=4096)
def compile_expression(source: str) -> Expression:
    """Compile an expression once (a ``when``, a map's ``by``); cached by its source.

    Raises:
        ExpressionError: see :func:`_parse`.
    """
    if isinstance(source, str) and len(source) > MAX_SOURCE:
        raise ExpressionError(f"is {len(source):,} characters long; an expression is at most {MAX_SOURCE:,}")
    stripped = source.strip() if isinstance(source, str) else source
    if isinstance(stripped, str) and FIELD_PATH.fullmatch(stripped) and stripped not in ("true", "false", "none", "True", "False", "None"):
        if any(part.startswith("__") for part in stripped.split(".")):
            raise ExpressionError(f"'{stripped}': an expression reads a card's fields, never a value's internals")
        return Expression(source, frozenset({stripped.split(".")[0]}), stripped)
    tree = _parse(source, text=False)
    try:
        expr = _ENV.compile_expression(source, undefined_to_none=False)
    except (TemplateSyntaxError, TemplateAssertionError) as exc:
        raise ExpressionError(f"is not a valid expression: {exc.message}") from None
    except RecursionError:
        raise ExpressionError("nests too deeply to read") from None
    return Expression(source, _names(tree), None, expr)


@dataclass(frozen=True)
class Text:
    """A compiled derived field's text (``"{{ type }} — {{ subtype }}"``): ``names`` it reads;
    ``native``: the text is one ``{{ expression }}`` and nothing else, whose value is kept as it is
    (a number stays a number)."""

    source: str
    names: frozenset[str]
    native: Expression | None
    _compiled: Any = None

    def value(self, fields: Mapping[str, Any]) -> Any:
        """The text filled from ``fields``, or the one expression's own value; None where it comes
        out empty (the derived field is then absent).

        Raises:
            ExpressionError: as :meth:`Expression.value`.
        """
        if self.native is not None:
            result = self.native.value(fields)
        else:
            result = _evaluate(self._compiled, fields)
        if isinstance(result, str):
            result = _text(result)
        return None if result is None or result == "" or isinstance(result, Undefined) else result


_ONE = re.compile(r"\s*\{\{(?P<expr>(?:(?!\}\}|\{\{|\{%|\{#).)*)\}\}\s*", re.DOTALL)


@lru_cache(maxsize=4096)
def compile_text(source: str) -> Text:
    """Compile a derived field's text once; cached by its source.

    Raises:
        ExpressionError: see :func:`_parse`.
    """
    tree = _parse(source, text=True)
    one = _ONE.fullmatch(source)
    if one is not None:
        return Text(source, _names(tree), compile_expression(one.group("expr").strip()))
    try:
        template = _ENV.from_string(tree)
    except (TemplateSyntaxError, TemplateAssertionError) as exc:
        raise ExpressionError(f"is not a valid text: {exc.message}") from None
    except RecursionError:
        raise ExpressionError("nests too deeply to read") from None
    return Text(source, _names(tree), None, template.render)


def key_of(value: Any) -> str | None:
    """A value as a map's key: text as it is, a whole number as its digits (``2.0`` as ``2``),
    ``true``/``false``; None for an absent value."""
    if value is None or isinstance(value, Undefined):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)

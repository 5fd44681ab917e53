"""The mission-condition language of 50 Missions: compile once, test a display in microseconds.

A mission is met by the row of face-up symbol cards (rulebook, "Preparation" and "Flow of the
game": 4 symbol cards under the 4 missions).  A *display* is that row, left to right, as a tuple
of 4 cards; a *card* is a ``(symbol_id, value)`` tuple, for example ``("lighter", 7)``.  Each
symbol has one colour, so conditions name colours and the compiler maps them to symbols.

The language (full reference in ``schemas/fifty-missions.missions.schema.json``) is data, never
code: every condition is a mapping with exactly one key saying what it checks.

* ``{every: FILTER}``: all 4 cards match the filter.
* ``{count: {of: FILTER, <comparison>}}``, ``{sum: {of: FILTER, <comparison>}}``: how many cards
  match, or their values added up (``of`` left out: all 4 cards).  A sum of cards that are not
  there is no sum: the condition is not met.
* ``{distinct: {of: colour|value, <comparison>}}``: how many different colours (values) show;
  ``{same: {of: colour|value, <comparison>}}``: the largest number of cards sharing one.
* ``<comparison>`` is one of ``equals``, ``not_equals``, ``at_least``, ``at_most``, ``more_than``,
  ``less_than`` (an integer, or another quantity: ``{sum: FILTER}``, ``{count: FILTER}``,
  ``{distinct: colour}``, ``{same: value}``), or ``parity: even|odd``.
* ``{adjacent: [FILTER, FILTER]}``: two neighbouring cards, one matching each filter;
  ``{adjacent: {same: colour}}``: two neighbours of one colour (or value).  ``apart`` is the same
  with at least one card between the two.
* ``{run: {length: 2..4, order: row|any}}``: consecutive values, on neighbouring cards going up or
  down (``row``, the default) or anywhere in any order (``any``).
* ``{ordered: increasing|decreasing}``: values strictly rising (falling) from left to right.
* ``{all: [...]}``, ``{any: [...]}``, ``{not: ...}``: combinations.
* ``FILTER`` is a mapping: ``colour`` (a colour id or a list), ``value`` (an integer, a list, or
  ``{at_least: n, at_most: m}``), ``parity`` (``even``/``odd``); ``{}`` matches every card.

Use (the rules engine and the odds check)::

    deck = SymbolDeck.from_data(content["symbols"])
    condition = compile_condition(mission["condition"], deck)   # raises ConditionError
    condition.met((("lighter", 3), ("knife", 5), ("compass", 7), ("lighter", 2)))  # -> bool
    condition.text                                                # the printed card text
    odds(condition, deck)                                         # Fraction of random displays

Nothing here imports reportlab or any of deckpress's rendering code.
"""
from __future__ import annotations

import operator
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, combinations_with_replacement, permutations
from math import comb, factorial, prod
from typing import Any, Callable, Hashable, Iterable, Mapping

#: Cards in the row under the missions (rulebook, "Preparation": "the first 4 cards ... face up").
DISPLAY_SIZE = 4

Card = tuple[str, int]
Display = tuple[Card, ...]
Path = tuple  # where a part of a condition stands in its document (keys and list indices)

_COMPARATORS: dict[str, Callable[[int, int], bool]] = {
    "equals": operator.eq, "not_equals": operator.ne, "at_least": operator.ge,
    "at_most": operator.le, "more_than": operator.gt, "less_than": operator.lt,
}
_COMPARISON_KEYS = tuple(_COMPARATORS) + ("parity",)
_ASPECTS = ("colour", "value")
#: Most rows :func:`count_displays` may test for one condition: the shipped deck needs at most
#: 614,656 (28 kinds of card, order mattering); a fan deck of many symbols and values would
#: otherwise make validation run for hours.
MAX_TESTED_ROWS = 1_000_000


class OddsTooCostly(ValueError):
    """Counting a condition's odds exactly would test more than :data:`MAX_TESTED_ROWS` rows."""


class ConditionError(ValueError):
    """A condition that cannot be compiled; ``problems`` lists every ``(path, message)`` found,
    ``path`` pointing into the condition (prefixed with the path given to the compiler)."""

    def __init__(self, problems: list[tuple[Path, str]]):
        super().__init__("; ".join(m for _, m in problems))
        self.problems = problems


@dataclass(frozen=True)
class SymbolDeck:
    """The symbol cards a display is drawn from: symbols with their colours and printed names,
    the values each symbol comes in, and how many copies of each (symbol, value) card.

    Attributes:
        symbols: symbol ids in print order.
        colours: symbol id -> colour id (one colour per symbol).
        names: symbol id -> printed name of the symbol ("lighter").
        aliases: other colour words (what other sources call a colour) -> colour id.
        values: the values, ascending.
        copies: copies of each (symbol, value) card.
    """

    symbols: tuple[str, ...]
    colours: Mapping[str, str]
    names: Mapping[str, str]
    values: tuple[int, ...]
    copies: int
    aliases: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "SymbolDeck":
        """From the parsed (schema-valid) data of ``symbols.yaml``."""
        symbols = data["symbols"]
        values = data["deck"]["values"]
        return cls(
            symbols=tuple(s["id"] for s in symbols),
            colours={s["id"]: s["colour"] for s in symbols},
            names={s["id"]: s["name"] for s in symbols},
            values=tuple(range(values["min"], values["max"] + 1)),
            copies=data["deck"]["copies"],
            aliases={a: s["colour"] for s in symbols for a in s.get("also_called", [])},
        )

    @property
    def kinds(self) -> tuple[Card, ...]:
        """Every distinct card, symbol by symbol, values ascending."""
        return tuple((s, v) for s in self.symbols for v in self.values)

    @property
    def size(self) -> int:
        """The number of physical cards (kinds x copies)."""
        return len(self.kinds) * self.copies

    def symbol_of(self, colour: str) -> str | None:
        """The symbol that has ``colour``, or None."""
        return next((s for s, c in self.colours.items() if c == colour), None)


@dataclass(frozen=True)
class Condition:
    """A compiled condition.

    Attributes:
        met: ``met(display) -> bool`` for a display of :data:`DISPLAY_SIZE` cards, left to right.
        text: the card text (a sentence in our words, generated from the condition).
        order_matters: whether the answer can change when the same cards are put in another order.
        features: functions of one card; two cards giving the same results are interchangeable
            for this condition (used to count displays by classes of cards, see :func:`odds`).
        colours: the colours the condition names, in order of first mention.
        negation: a natural wording of "not this" where there is one (used by ``not``).

    A display is a tuple (or list) of cards, each card a ``(symbol_id, value)`` *tuple*.
    """

    met: Callable[[Display], bool]
    text: str
    order_matters: bool
    features: tuple[Callable[[Card], Hashable], ...]
    colours: tuple[str, ...]
    negation: str | None = None


def compile_condition(spec: Mapping[str, Any], deck: SymbolDeck, path: Path = ()) -> Condition:
    """Compile a schema-valid condition for ``deck``.

    Args:
        spec: the condition's parsed data.
        deck: names the colours, symbols and values the condition may use.
        path: where ``spec`` stands in its document, to locate problems.

    Raises:
        ConditionError: with every problem found: not exactly one kind per condition, not exactly
            one comparison, a colour the deck does not have, a value outside the deck's values.
    """
    compiler = _Compiler(deck)
    condition = compiler.condition(spec, path)
    if compiler.problems:
        raise ConditionError(compiler.problems)
    return condition


def odds(condition: Condition, deck: SymbolDeck) -> Fraction:
    """The probability that a random display meets ``condition``: the number of ordered displays
    of :data:`DISPLAY_SIZE` distinct physical cards of ``deck`` that meet it, over all of them
    (56 x 55 x 54 x 53 = 8,814,960 for the 56-card deck).  Exact.

    Cards giving the same ``condition.features`` are interchangeable, so the count runs over
    classes of cards: each multiset of classes is tested once (every distinct order of it, if
    the order of the cards matters) and weighted by the number of physical displays it stands for.
    """
    met, total = count_displays(condition, deck)
    return Fraction(met, total)


def count_displays(condition: Condition, deck: SymbolDeck) -> tuple[int, int]:
    """``(displays meeting the condition, all displays)``, counted as described in :func:`odds`.

    Raises:
        OddsTooCostly: the deck has so many kinds of card that tell this condition apart that the
            count would test more than :data:`MAX_TESTED_ROWS` rows (checked before counting).
    """
    classes: dict[tuple, list[Card]] = {}
    for card in deck.kinds:
        classes.setdefault(tuple(f(card) for f in condition.features), []).append(card)
    n = len(classes)
    tested = n ** DISPLAY_SIZE if condition.order_matters else comb(n + DISPLAY_SIZE - 1, DISPLAY_SIZE)
    if tested > MAX_TESTED_ROWS:
        raise OddsTooCostly(f"counting its odds exactly would test {tested:,} rows of {n} kinds of card it tells apart "
                            f"(the limit is {MAX_TESTED_ROWS:,}): use fewer symbols or values, or a simpler condition")
    reps = [cards[0] for cards in classes.values()]
    sizes = [len(cards) * deck.copies for cards in classes.values()]
    met = condition.met
    hits = 0
    for combo in combinations_with_replacement(range(len(reps)), DISPLAY_SIZE):
        counts = Counter(combo)
        weight = prod(_falling(sizes[c], m) for c, m in counts.items())
        if not weight:
            continue
        if condition.order_matters:
            hits += weight * sum(met(tuple(reps[i] for i in order)) for order in set(permutations(combo)))
        elif met(tuple(reps[i] for i in combo)):
            hits += weight * factorial(DISPLAY_SIZE) // prod(factorial(m) for m in counts.values())
    return hits, _falling(deck.size, DISPLAY_SIZE)


def _falling(n: int, k: int) -> int:
    """n x (n-1) x ... x (n-k+1): ways to deal k distinct cards in order from n."""
    return prod(range(n - k + 1, n + 1)) if k <= n else 0


# --- filters and quantities --------------------------------------------------------------------

@dataclass(frozen=True)
class _Filter:
    """A compiled card filter: the set of card kinds it accepts, and how to name them."""

    kinds: frozenset
    spec: tuple  # canonical form, to tell two filters apart
    colour_words: tuple[str, ...]  # "red lighter", ...
    value_words: str  # "" or " of value 5 or more", " of even value"
    colours: tuple[str, ...]
    value_only: str | None  # for a filter on values alone: "5 or more", "even"

    @property
    def everything(self) -> bool:
        return not self.colour_words and not self.value_words

    def noun(self, n: int = 2) -> str:
        """'red lighter cards of value 5 or more' (n != 1) or '... card ...' (n == 1)."""
        head = "card" if n == 1 else "cards"
        colour = " or ".join(self.colour_words)
        return f"{colour + ' ' if colour else ''}{head}{self.value_words}"

    def one(self) -> str:
        """'a red lighter card'."""
        noun = self.noun(1)
        return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"

    def feature(self) -> Callable[[Card], Hashable]:
        kinds = self.kinds
        return lambda card: card in kinds


@dataclass(frozen=True)
class _Quantity:
    """A compiled number read from a display (None when it does not exist: a sum of no cards)."""

    kind: str  # sum, count, distinct, same
    value: Callable[[Display], int | None]
    phrase: str  # "the number of red lighter cards"
    features: tuple[Callable[[Card], Hashable], ...]
    colours: tuple[str, ...]
    filter: _Filter | None = None  # which cards a count or a sum reads; None for distinct and same
    aspect: str = ""

    def cards(self) -> _Filter:
        """The filter of a count or a sum.  Raises TypeError for distinct and same, which read
        every card and have none."""
        if self.filter is None:
            raise TypeError(f"a {self.kind} quantity has no filter of cards")
        return self.filter


#: The filter of the quantity that stands for a malformed one (reported as a problem).
_NO_CARDS = _Filter(frozenset(), (), (), "", (), None)


class _Compiler:
    """Walks a condition, building closures and texts, collecting problems with their paths."""

    def __init__(self, deck: SymbolDeck):
        self.deck = deck
        self.problems: list[tuple[Path, str]] = []

    def problem(self, path: Path, message: str) -> None:
        self.problems.append((path, message))

    def condition(self, spec: Mapping[str, Any], path: Path) -> Condition:
        kinds = [k for k in spec if k in _CONDITION_KINDS]
        if len(kinds) != 1:
            found = f"found {' and '.join(repr(k) for k in spec)}" if spec else "found none"
            hint = " (to require several things, list them under 'all')" if len(kinds) > 1 else ""
            self.problem(path, f"a condition has exactly one kind ({', '.join(_CONDITION_KINDS)}); {found}{hint}")
            return _never()
        kind = kinds[0]
        return _CONDITION_KINDS[kind](self, spec[kind], path + (kind,))

    def filter(self, spec: Mapping[str, Any], path: Path) -> _Filter:
        colours = self._colours(spec, path)
        values, said = self._values(spec, path)
        deck = self.deck
        # every colour _colours keeps is the deck's, so each has its symbol
        symbols = [s for s in map(deck.symbol_of, colours) if s is not None] if "colour" in spec else list(deck.symbols)
        if "parity" in spec:
            value_words = f" of {spec['parity']} value" + (f" {said}" if said else "")
            value_only = spec["parity"] + (f" and {said}" if said else "")
        else:
            value_words, value_only = (f" of value {said}", said) if said else ("", None)
        canonical = (tuple(sorted(colours)), tuple(values) if value_words else None)
        return _Filter(frozenset((s, v) for s in symbols for v in values), canonical,
                       tuple(f"{deck.colours[s]} {deck.names[s]}" for s in symbols) if colours else (),
                       value_words, colours, None if colours else value_only)

    def _colours(self, spec: Mapping[str, Any], path: Path) -> tuple[str, ...]:
        """The filter's known colours; unknown ones are problems (with a hint for an alias)."""
        if "colour" not in spec:
            return ()
        raw = spec["colour"]
        wanted = [raw] if isinstance(raw, str) else list(raw)
        known = [self.deck.colours[s] for s in self.deck.symbols]
        for i, colour in enumerate(wanted):
            if colour not in known:
                alias = self.deck.aliases.get(colour)
                hint = f"; '{colour}' is another name for {alias} in some sources: write '{alias}'" if alias else ""
                self.problem(path + ("colour",) + (() if isinstance(raw, str) else (i,)),
                             f"unknown colour '{colour}' (this deck's colours: {', '.join(known)}){hint}")
        return tuple(c for c in wanted if c in known)

    def _values(self, spec: Mapping[str, Any], path: Path) -> tuple[list[int], str]:
        """The deck values the filter accepts (value and parity), and how its value constraint
        reads ('7', '2, 4 or 6', '5 or more', '3, 4 or 5', 'from 2 to 6'; '' for none)."""
        deck_values = self.deck.values
        values, said = list(deck_values), ""
        if "value" in spec:
            v = spec["value"]
            if isinstance(v, dict):
                lo, hi = v.get("at_least", min(deck_values)), v.get("at_most", max(deck_values))
                allowed = list(range(lo, hi + 1))
                if "at_least" not in v:
                    said = f"{hi} or less"
                elif "at_most" not in v:
                    said = f"{lo} or more"
                elif lo > hi:
                    said = f"from {lo} to {hi}"
                    self.problem(path + ("value",), f"value {said}: at_least is more than at_most, so no card matches")
                else:  # a short range reads best spelled out
                    said = _or_list([str(x) for x in allowed]) if len(allowed) <= 3 else f"from {lo} to {hi}"
                outside = [] if set(allowed) & set(deck_values) or not allowed else [said]
            else:
                allowed = [v] if isinstance(v, int) else list(v)
                said = _or_list([str(x) for x in allowed])
                outside = [str(x) for x in allowed if x not in deck_values]
            if outside:
                self.problem(path + ("value",), f"value {_or_list(outside)}: outside this deck's values {min(deck_values)} to {max(deck_values)}")
            values = [x for x in values if x in allowed]
        if "parity" in spec:
            values = [x for x in values if x % 2 == (0 if spec["parity"] == "even" else 1)]
        return values, said

    def quantity(self, spec: Mapping[str, Any], path: Path) -> _Quantity:
        """A right-hand side quantity: exactly one of sum, count, distinct, same."""
        keys = [k for k in ("sum", "count", "distinct", "same") if k in spec]
        if len(keys) != 1:
            self.problem(path, f"a quantity has exactly one kind (sum, count, distinct, same); found {' and '.join(repr(k) for k in spec) or 'none'}")
            return _Quantity("count", lambda d: None, "nothing", (), (), _NO_CARDS)
        kind = keys[0]
        if kind in ("sum", "count"):
            return self._measure(kind, self.filter(spec[kind], path + (kind,)))
        return self._group(kind, spec[kind])

    def _measure(self, kind: str, flt: _Filter) -> _Quantity:
        kinds = flt.kinds
        if kind == "count":
            return _Quantity("count", lambda d: sum(c in kinds for c in d), f"the number of {flt.noun()}",
                             (flt.feature(),), flt.colours, flt)
        if flt.everything:
            return _Quantity("sum", lambda d: sum(c[1] for c in d), f"the total of all {DISPLAY_SIZE} cards",
                             (lambda c: c[1],), (), flt)

        def total(d: Display) -> int | None:
            picked = [c[1] for c in d if c in kinds]
            return sum(picked) if picked else None
        return _Quantity("sum", total, f"the total of the {flt.noun()}",
                         (lambda c: c[1] if c in kinds else None,), flt.colours, flt)

    def _group(self, kind: str, aspect: str) -> _Quantity:
        i = _ASPECTS.index(aspect)
        if kind == "distinct":
            value = lambda d: len({c[i] for c in d})
            phrase = f"the number of different {aspect}s"
        else:
            def value(d: Display) -> int:
                seen = [c[i] for c in d]
                return max(seen.count(x) for x in seen)
            phrase = f"the largest number of cards of one {aspect}"
        return _Quantity(kind, value, phrase, (lambda c: c[i],), (), aspect=aspect)


# --- condition kinds: one function each --------------------------------------------------------

def _never() -> Condition:
    return Condition(lambda d: False, "", False, (), ())


def _all(c: _Compiler, specs: list, path: Path) -> Condition:
    parts = [c.condition(s, path + (i,)) for i, s in enumerate(specs)]
    tests = tuple(p.met for p in parts)
    return Condition(lambda d: all(t(d) for t in tests), _and_list([p.text for p in parts]),
                     any(p.order_matters for p in parts), _features(parts), _colours(parts))


def _any(c: _Compiler, specs: list, path: Path) -> Condition:
    parts = [c.condition(s, path + (i,)) for i, s in enumerate(specs)]
    tests = tuple(p.met for p in parts)
    texts = [p.text for p in parts]
    text = f"either {texts[0]}, or {texts[1]}" if len(texts) == 2 else "any one of: " + "; ".join(texts)
    return Condition(lambda d: any(t(d) for t in tests), text, any(p.order_matters for p in parts), _features(parts), _colours(parts))


def _not(c: _Compiler, spec: Mapping, path: Path) -> Condition:
    inner = c.condition(spec, path)
    test = inner.met
    text = inner.negation or f"anything but this: {inner.text}"
    return Condition(lambda d: not test(d), text, inner.order_matters, inner.features, inner.colours, negation=inner.text)


def _every(c: _Compiler, spec: Mapping, path: Path) -> Condition:
    flt = c.filter(spec, path)
    kinds = flt.kinds
    if flt.everything:
        text = f"any {DISPLAY_SIZE} cards"
    elif flt.value_only is not None:
        text = f"all {DISPLAY_SIZE} values are {flt.value_only}"
    else:
        text = f"all {DISPLAY_SIZE} cards are {flt.noun()}"
    return Condition(lambda d: all(x in kinds for x in d), text, False, (flt.feature(),), flt.colours)


def _measured(kind: str) -> Callable[[_Compiler, Mapping, Path], Condition]:
    """``count``/``sum``/``distinct``/``same``: a quantity and exactly one comparison."""

    def compile_(c: _Compiler, spec: Mapping, path: Path) -> Condition:
        if kind in ("count", "sum"):
            left = c._measure(kind, c.filter(spec.get("of", {}), path + ("of",)))
        else:
            left = c._group(kind, spec["of"])
        present = [k for k in _COMPARISON_KEYS if k in spec]
        if len(present) != 1:
            found = f"found {' and '.join(present)}" if present else "found none"
            c.problem(path, f"{kind}: give exactly one comparison ({', '.join(_COMPARISON_KEYS)}); {found}")
            return _never()
        op = present[0]
        raw = spec[op]
        read = left.value
        if op == "parity":
            want = 0 if raw == "even" else 1
            test = lambda d: (x := read(d)) is not None and x % 2 == want
            right = None
        elif isinstance(raw, int):
            compare = _COMPARATORS[op]
            test = lambda d: (x := read(d)) is not None and compare(x, raw)
            right = None
        else:
            right = c.quantity(raw, path + (op,))
            compare, read_right = _COMPARATORS[op], right.value
            test = lambda d: (x := read(d)) is not None and (y := read_right(d)) is not None and compare(x, y)
        features = left.features + (right.features if right else ())
        colours = _unique(left.colours + (right.colours if right else ()))
        text, negation = _measure_text(left, op, raw, right)
        return Condition(test, text, False, features, colours, negation)

    return compile_


def _pair_condition(far: bool) -> Callable[[_Compiler, Any, Path], Condition]:
    """``adjacent`` (far=False) and ``apart`` (far=True): a pair of cards in the row."""
    pairs = tuple((i, j) for i, j in combinations(range(DISPLAY_SIZE), 2) if (j - i >= 2) == far and j - i >= 1)
    where = "with at least one card between them" if far else "side by side"

    def compile_(c: _Compiler, spec: Any, path: Path) -> Condition:
        if isinstance(spec, dict):
            i = _ASPECTS.index(spec["same"])
            test = lambda d: any(d[a][i] == d[b][i] for a, b in pairs)
            text = f"two cards of the same {spec['same']} {where}"
            return Condition(test, text, True, (lambda card: card[i],), (), f"no two cards of the same {spec['same']} {where}")
        first, second = c.filter(spec[0], path + (0,)), c.filter(spec[1], path + (1,))
        f, g = first.kinds, second.kinds
        test = lambda d: any((d[a] in f and d[b] in g) or (d[a] in g and d[b] in f) for a, b in pairs)
        if first.spec == second.spec:
            text, negation = f"two {first.noun()} {where}", f"no two {first.noun()} {where}"
        elif far:
            text, negation = f"{first.one()} and {second.one()} {where}", None
        else:
            text, negation = f"{first.one()} next to {second.one()}", f"no {first.noun(1)} next to {second.one()}"
        return Condition(test, text, True, (first.feature(), second.feature()), _unique(first.colours + second.colours), negation)

    return compile_


def _run(c: _Compiler, spec: Mapping, path: Path) -> Condition:
    length, order = spec["length"], spec.get("order", "row")
    steps = length - 1
    example = {2: (4, 5), 3: (4, 5, 6), 4: (2, 3, 4, 5)}[length]
    if order == "row":
        def side_by_side(d: Display) -> bool:
            diffs = [b[1] - a[1] for a, b in zip(d, d[1:])]
            return any(all(x == 1 for x in diffs[i:i + steps]) or all(x == -1 for x in diffs[i:i + steps])
                       for i in range(len(diffs) - steps + 1))
        like = "-".join(map(str, example))
        if length == DISPLAY_SIZE:
            text = f"the {length} values are consecutive from left to right, counting up or down (like {like})"
        else:
            text = f"{length} cards side by side with consecutive values, counting up or down (like {like})"
        return Condition(side_by_side, text, True, (lambda card: card[1],), ())

    def any_order(d: Display) -> bool:
        seen = {x[1] for x in d}
        return any(all(v + k in seen for k in range(1, length)) for v in seen)
    like = {2: "5, 4", 3: "5, 3, 4", 4: "5, 3, 6, 4"}[length]
    if length == DISPLAY_SIZE:
        text = f"the {length} values are consecutive, in any order (like {like})"
    else:
        text = f"{length} cards with consecutive values, in any order (like {like})"
    return Condition(any_order, text, False, (lambda card: card[1],), ())


def _ordered(c: _Compiler, spec: str, path: Path) -> Condition:
    rising = spec == "increasing"
    compare = operator.lt if rising else operator.gt
    test = lambda d: all(compare(a[1], b[1]) for a, b in zip(d, d[1:]))
    text = f"the values {'rise' if rising else 'fall'} from left to right, each card {'higher' if rising else 'lower'} than the one before"
    return Condition(test, text, True, (lambda card: card[1],), ())


_CONDITION_KINDS: dict[str, Callable[[_Compiler, Any, Path], Condition]] = {
    "all": _all, "any": _any, "not": _not, "every": _every,
    "count": _measured("count"), "sum": _measured("sum"), "distinct": _measured("distinct"), "same": _measured("same"),
    "adjacent": _pair_condition(far=False), "apart": _pair_condition(far=True),
    "run": _run, "ordered": _ordered,
}


# --- wording -----------------------------------------------------------------------------------

_SUM_WORDS = {"equals": "exactly {}", "not_equals": "anything but {}", "at_least": "{} or more", "at_most": "{} or less",
              "more_than": "more than {}", "less_than": "less than {}"}
_SUM_VS = {"equals": "the same as", "not_equals": "something other than", "at_least": "at least as much as",
           "at_most": "at most as much as", "more_than": "more than", "less_than": "less than"}
_IS_WORDS = {"equals": "equal to", "not_equals": "not equal to", "at_least": "at least", "at_most": "at most",
             "more_than": "more than", "less_than": "less than"}


def _measure_text(left: _Quantity, op: str, raw: Any, right: _Quantity | None) -> tuple[str, str | None]:
    """The card text of a measured condition, and a natural negation where one exists."""
    if op == "parity":
        if left.kind == "count":
            return f"an {raw} number of {left.cards().noun()} (none counts as even)", None
        if left.kind == "sum":
            return f"{_sum_subject(left)} add up to an {raw} number", None
        return f"{left.phrase} is {raw}", None
    if right is None:
        special = {"count": _count_text, "sum": _sum_text, "distinct": _distinct_text, "same": _same_text}[left.kind](left, op, raw)
        if special:
            return special
        return f"{left.phrase} is {_IS_WORDS[op]} {raw}", None
    if left.kind == "count" and right.kind == "count":
        f, g = left.cards().noun(), right.cards().noun()
        words = {"equals": f"as many {f} as {g}", "more_than": f"more {f} than {g}", "less_than": f"fewer {f} than {g}",
                 "at_least": f"at least as many {f} as {g}", "at_most": f"at most as many {f} as {g}",
                 "not_equals": f"not as many {f} as {g}"}
        return words[op], None
    if left.kind == "sum" and right.kind == "sum":
        # a sum of cards that are not there is no sum (the condition is not met): the card says so
        # (else "red 5 and no blue": the engine says not met where a player says met)
        other = f"the {DISPLAY_SIZE} cards" if right.cards().everything else f"the {right.cards().noun()}"
        shown = [q.cards().noun(1) for q in (left, right) if not q.cards().everything]
        must = f", with at least one {shown[0]} and one {shown[1]} showing" if len(shown) == 2 else \
            f", with at least one {shown[0]} showing" if shown else ""
        return f"{_sum_subject(left)} add up to {_SUM_VS[op]} {other}{must}", None
    return f"{left.phrase} is {_IS_WORDS[op]} {right.phrase}", None


def _count_text(q: _Quantity, op: str, n: int) -> tuple[str, str | None] | None:
    f = q.cards()
    if n == 0 and op in ("equals", "at_most"):
        return f"no {f.noun()}", f"at least 1 {f.noun(1)}"
    if op == "more_than" and n == 0:
        return f"at least 1 {f.noun(1)}", f"no {f.noun()}"
    words = {"equals": f"exactly {n} {f.noun(n)}", "at_least": f"at least {n} {f.noun(n)}", "at_most": f"at most {n} {f.noun(n)}",
             "more_than": f"more than {n} {f.noun(n)}", "less_than": f"fewer than {n} {f.noun(n)}",
             "not_equals": f"any number of {f.noun()} except {n}"}
    return words[op], None


def _sum_subject(q: _Quantity) -> str:
    return f"the {DISPLAY_SIZE} cards" if q.cards().everything else f"the {q.cards().noun()}"


def _sum_text(q: _Quantity, op: str, n: int) -> tuple[str, str | None]:
    return f"{_sum_subject(q)} add up to {_SUM_WORDS[op].format(n)}", None


def _distinct_text(q: _Quantity, op: str, n: int) -> tuple[str, str | None] | None:
    aspect = q.aspect
    if op == "equals" and n == DISPLAY_SIZE:
        return (f"all {n} cards are of different colours" if aspect == "colour" else f"all {n} values are different"), None
    if op == "equals" and n == 1:
        return (f"all {DISPLAY_SIZE} cards are of the same colour" if aspect == "colour" else f"all {DISPLAY_SIZE} values are the same"), None
    words = {"equals": "exactly {} different {}s", "at_least": "at least {} different {}s", "at_most": "at most {} different {}s",
             "more_than": "more than {} different {}s", "less_than": "fewer than {} different {}s"}
    return (words[op].format(n, aspect), None) if op in words else None


def _same_text(q: _Quantity, op: str, n: int) -> tuple[str, str | None] | None:
    aspect = q.aspect
    if op == "more_than":
        op, n = "at_least", n + 1
    elif op == "less_than":
        op, n = "at_most", n - 1
    if (op in ("at_least", "equals") and n == DISPLAY_SIZE) or (op == "at_least" and n > DISPLAY_SIZE):
        return f"all {DISPLAY_SIZE} cards of the same {aspect}", None
    if (op == "equals" and n == 1) or (op == "at_most" and n == 1):
        return f"no two cards of the same {aspect}", f"at least 2 cards of the same {aspect}"
    if op == "at_least":
        return f"at least {n} cards of the same {aspect}", None
    if op == "at_most":
        return f"no more than {n} cards of any one {aspect}", None
    if op == "equals":
        return f"{n} cards of the same {aspect}, but never {n + 1}", None
    return None


def card_text(condition: Condition) -> str:
    """The condition's text as printed: a capitalised sentence ending with a full stop."""
    text = condition.text
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _and_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _or_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _features(parts: Iterable[Condition]) -> tuple:
    return tuple(f for p in parts for f in p.features)


def _colours(parts: Iterable[Condition]) -> tuple[str, ...]:
    return _unique(tuple(c for p in parts for c in p.colours))


def _unique(items: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))

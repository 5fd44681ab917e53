"""50 Missions: which cards would meet a mission if put in one slot of the row, memoised.

The greedy bot asks, for every legal play and every slot of the row it would leave, which of the
cards that may cover that slot would then meet a mission on display: some 1,400 condition checks
a move when asked one by one.  The answer for a mission depends only on the other three cards,
and, for most conditions, not even on their order or on which of several interchangeable cards
they are (``Condition.order_matters`` and ``Condition.features``); and the card in the open slot
is tried once per class of interchangeable kinds.  :class:`Completions` keeps
the answer as a bit mask over card kinds, computed once per mission and context and then looked
up; a table shared by every game one process plays, so the cost falls as games go on.

Three memos per mission, all filled as questions come (without them the bot was the cost of
``deckpress check`` on 50 Missions variants; they hold only what the conditions say, so they
never change a result):

* ``memos``: a context (a row with one slot open) -> the bit mask of the kinds that meet the
  mission there (:meth:`Completions.mask`);
* ``rows``: a whole row -> the masks of its four contexts, one field of ``width`` bits per slot,
  in one integer (:meth:`Completions.row`).  The bot asks it once per mission for every play it
  weighs (the row that play would leave) instead of asking three contexts; the rows met repeat
  across games (95% of the bot's questions over the 2,000 games of one side of a check, 85%
  already after 100);
* ``_full``: a whole row (up to order and interchangeable cards, as for contexts) -> whether it
  meets the mission.  Contexts that differ in one card share most of the rows they try, so a
  context is filled with some three times fewer condition checks; and the engine reads from it
  which missions the face-up row meets, after every play (:meth:`Completions.met`, which
  reads the key as the sum of two table entries, one for the row's first two cards and one for
  its last two: a sum over a ``map`` was most of that question's cost).

A context is looked up by an integer key that is a sum over the row's slots, so that a caller
can compute it with additions (see :meth:`Completions.key`):

* a condition where order does not matter: the sum of ``4 ** class`` over the three other cards
  (a base-4 count of each class: unique, since at most three cards share one);
* a condition where order matters: the sum of ``class * B ** slot`` over the other three slots,
  plus ``blank * B ** j`` for the open slot ``j`` (``B`` = classes + 1, ``blank`` = classes).

A whole row's key in ``_full`` is the same sum over its four cards (with four cards a class may
count 4, but a sum of exactly four powers of 4 still names one multiset); in ``rows``, the sum of
``class * C ** slot`` over the four slots (``C`` = classes), in order whatever the condition: the
answer has one field per slot, so which slot holds which card matters even where the condition's
order does not (:attr:`Completions.codes`).
"""
from __future__ import annotations

from operator import getitem
from typing import Callable, Sequence

from deckpress.generator.content.fifty_missions_conditions import (
    DISPLAY_SIZE,
    Condition,
)

Card = tuple[str, int]

#: The most whole rows kept per mission in ``Completions.rows`` (some 7 MB at most, per mission
#: that fills it): a bound on memory over a long run, never on a result.
ROWS_PER_MISSION = 1 << 16
assert DISPLAY_SIZE == 4, "Completions.met writes a row's key out over its four slots"
#: SLOTS_IN[s]: the slots of the set ``s`` (bit j: slot j), rising.
SLOTS_IN = [tuple(j for j in range(DISPLAY_SIZE) if s >> j & 1) for s in range(1 << DISPLAY_SIZE)]


class Completions:
    """For each mission ``m``: ``weights[m][i][k]``, what card kind ``k`` in slot ``i`` adds to a
    key; ``blanks[m][j]``, what an open slot ``j`` adds; ``memos[m]``, key -> the bit mask of the
    kinds ``x`` that meet ``m`` when put in the open slot (bit ``x`` for kind ``x``).

    For whole rows: ``codes[m][i][k]``, what kind ``k`` in slot ``i`` adds to a row's key in
    ``rows[m]``, which maps it to :meth:`row`'s packed answer (slot ``j``'s mask ``shifts[j]`` =
    ``width * j`` bits up, ``width`` being the number of kinds).

    Args:
        kinds: every card kind as the conditions read it, ``(symbol id, value)``, by kind number.
        conditions: the compiled condition of each mission, by mission number.

    The memos grow with the contexts and rows met (after the 2,000 games of one side of a default
    check: some 12,000 contexts, 100,000 rows and 53,000 whole rows checked over the 50 missions,
    some 15 MB); they hold only what the conditions say, so they never change a result.  A
    mission's ``rows`` stop growing at :data:`ROWS_PER_MISSION` (only the mission whose classes are
    the 28 kinds themselves gets near it, after some thousands of games): past it a row is worked
    out from the contexts each time it is asked.
    """

    __slots__ = ("kinds", "weights", "blanks", "memos", "codes", "rows", "width", "shifts", "_met", "_alike",
                 "_full", "_probes")

    def __init__(self, kinds: Sequence[Card], conditions: Sequence[Condition]):
        self.kinds = list(kinds)
        self._met: list[Callable] = [c.met for c in conditions]
        self.weights: list[list[list[int]]] = []
        self.blanks: list[list[int]] = []
        self.memos: list[dict[int, int]] = [{} for _ in conditions]
        self.codes: list[list[list[int]]] = []
        self.rows: list[dict[int, int]] = [{} for _ in conditions]
        self._full: list[dict[int, bool]] = [{} for _ in conditions]
        self.width = len(self.kinds)
        self.shifts = tuple(self.width * j for j in range(DISPLAY_SIZE))
        #: per mission: (one kind of a class, the bit mask of every kind of that class)
        self._alike: list[list[tuple[int, int]]] = []
        for condition in conditions:
            classes = _classes(self.kinds, condition.features)
            members: dict[int, list[int]] = {}
            for kind, c in enumerate(classes):
                members.setdefault(c, []).append(kind)
            self._alike.append([(ks[0], sum(1 << k for k in ks)) for ks in members.values()])
            self.codes.append([[c * len(members) ** i for c in classes] for i in range(DISPLAY_SIZE)])
            if condition.order_matters:
                base = max(classes) + 2  # the classes, and one code for the open slot
                self.weights.append([[c * base ** i for c in classes] for i in range(DISPLAY_SIZE)])
                self.blanks.append([(base - 1) * base ** j for j in range(DISPLAY_SIZE)])
            else:
                self.weights.append([[4 ** c for c in classes]] * DISPLAY_SIZE)
                self.blanks.append([0] * DISPLAY_SIZE)
        #: per mission, what :meth:`met` reads: the weights of slots 0 and 1 summed for every pair of
        #: kinds (at ``a * width + b``), the same for slots 2 and 3 (one table where order does not
        #: matter), and the ``_full`` memo's get
        self._probes = []
        for w, full in zip(self.weights, self._full):
            front = _pairs(w[0], w[1])
            self._probes.append((front, front if w[2:] == w[:2] else _pairs(w[2], w[3]), full.get))

    def key(self, m: int, row: Sequence[int], j: int) -> int:
        """The key of mission ``m``'s context: ``row`` (card kinds, left to right) with slot ``j``
        open (its card is ignored)."""
        weights = self.weights[m]
        return sum(weights[i][k] for i, k in enumerate(row) if i != j) + self.blanks[m][j]

    def mask(self, m: int, row: Sequence[int], j: int, key: int | None = None) -> int:
        """The kinds that meet mission ``m`` in slot ``j`` of ``row``, as a bit mask; ``key``, if
        the caller has it, is :meth:`key` of the same context."""
        memo = self.memos[m]
        key = self.key(m, row, j) if key is None else key
        found = memo.get(key)
        if found is None:
            met, kinds, full, column = self._met[m], self.kinds, self._full[m], self.weights[m][j]
            display = [kinds[k] for k in row]
            base = key - self.blanks[m][j]  # the whole row's key, but for the card in slot j
            found = 0
            for x, alike in self._alike[m]:  # interchangeable kinds give the same answer
                whole = base + column[x]
                ok = full.get(whole)
                if ok is None:
                    display[j] = kinds[x]
                    ok = full[whole] = bool(met(display))
                if ok:
                    found |= alike
            memo[key] = found
        return found

    def row(self, m: int, row: Sequence[int], key: int | None = None) -> int:
        """For each slot ``j`` of ``row``, :meth:`mask` of mission ``m`` in slot ``j`` (the kinds that
        would meet ``m`` in place of ``row[j]``), shifted up ``shifts[j]`` bits, all in one integer;
        ``key``, if the caller has it, is the sum of ``codes[m][i][row[i]]``."""
        rows = self.rows[m]
        key = sum(map(getitem, self.codes[m], row)) if key is None else key
        found = rows.get(key)
        if found is None:  # each slot's context key by additions, as :meth:`key` computes it
            weights, blanks, memo = self.weights[m], self.blanks[m], self.memos[m]
            whole = sum(map(getitem, weights, row))
            found = 0
            for j, shift in enumerate(self.shifts):
                context = whole - weights[j][row[j]] + blanks[j]
                mask = memo.get(context)
                if mask is None:
                    mask = self.mask(m, row, j, context)
                found |= mask << shift
            if len(rows) < ROWS_PER_MISSION:
                rows[key] = found
        return found

    def meets(self, m: int, row: Sequence[int]) -> bool:
        """Whether ``row`` (card kinds, left to right) meets mission ``m``: one look-up once any
        context around that row was filled, else one condition check."""
        full = self._full[m]
        key = sum(map(getitem, self.weights[m], row))
        found = full.get(key)
        if found is None:
            kinds = self.kinds
            found = full[key] = bool(self._met[m](tuple([kinds[k] for k in row])))
        return found

    def met(self, missions: Sequence[int], row: Sequence[int], slots: int) -> int:
        """The slots among ``slots`` (bit ``j``: slot ``j``) whose mission ``missions[j]`` (-1:
        none) ``row`` meets, as bits: :meth:`meets` for each, the engine's question after a move
        (its key read from the tables of pairs of slots in ``_probes``: this is asked after every
        play)."""
        probes, width = self._probes, self.width
        a, b, c, d = row
        left, right = a * width + b, c * width + d  # the row's two pairs of kinds
        found = 0
        for j in SLOTS_IN[slots]:
            m = missions[j]
            if m >= 0:
                front, back, known = probes[m]
                ok = known(front[left] + back[right])
                if ok or ok is None and self.meets(m, row):
                    found |= 1 << j
        return found


def _pairs(first: Sequence[int], second: Sequence[int]) -> list[int]:
    """``first[a] + second[b]`` at ``a * len(second) + b``, for every ``a`` and ``b``."""
    return [x + y for x in first for y in second]


def _classes(kinds: Sequence[Card], features) -> list[int]:
    """Number the kinds so that kinds alike in every feature share a number."""
    seen: dict[tuple, int] = {}
    return [seen.setdefault(tuple(f(card) for f in features), len(seen)) for card in kinds]

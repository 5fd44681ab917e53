"""50 Missions: which cards would meet a mission if put in one slot of the row, memoised.

The greedy bot asks, for every legal play and every slot of the row it would leave, which of the
cards that may cover that slot would then meet a mission on display: some 1,400 condition checks
a move when asked one by one.  The answer for a mission depends only on the other three cards,
and, for most conditions, not even on their order or on which of several interchangeable cards
they are (``Condition.order_matters`` and ``Condition.features``); and the card in the open slot
is tried once per class of interchangeable kinds.  :class:`Completions` keeps
the answer as a bit mask over card kinds, computed once per mission and context and then looked
up; a table shared by every game one process plays, so the cost falls as games go on.

A context is looked up by an integer key that is a sum over the row's slots, so that a caller
can compute it with additions (see :meth:`Completions.key`):

* a condition where order does not matter: the sum of ``4 ** class`` over the three other cards
  (a base-4 count of each class: unique, since at most three cards share one);
* a condition where order matters: the sum of ``class * B ** slot`` over the other three slots,
  plus ``blank * B ** j`` for the open slot ``j`` (``B`` = classes + 1, ``blank`` = classes).
"""
from __future__ import annotations

from typing import Callable, Sequence

from deckpress.generator.content.fifty_missions_conditions import DISPLAY_SIZE, Condition

Card = tuple[str, int]


class Completions:
    """For each mission ``m``: ``weights[m][i][k]``, what card kind ``k`` in slot ``i`` adds to a
    key; ``blanks[m][j]``, what an open slot ``j`` adds; ``memos[m]``, key -> the bit mask of the
    kinds ``x`` that meet ``m`` when put in the open slot (bit ``x`` for kind ``x``).

    Args:
        kinds: every card kind as the conditions read it, ``(symbol id, value)``, by kind number.
        conditions: the compiled condition of each mission, by mission number.

    The memos grow with the contexts met (a few thousand entries per mission after thousands of
    games); they hold only what the conditions say, so they never change a result.
    """

    __slots__ = ("kinds", "weights", "blanks", "memos", "_met", "_alike")

    def __init__(self, kinds: Sequence[Card], conditions: Sequence[Condition]):
        self.kinds = list(kinds)
        self._met: list[Callable] = [c.met for c in conditions]
        self.weights: list[list[list[int]]] = []
        self.blanks: list[list[int]] = []
        self.memos: list[dict[int, int]] = [{} for _ in conditions]
        #: per mission: (one kind of a class, the bit mask of every kind of that class)
        self._alike: list[list[tuple[int, int]]] = []
        for condition in conditions:
            classes = _classes(self.kinds, condition.features)
            members: dict[int, list[int]] = {}
            for kind, c in enumerate(classes):
                members.setdefault(c, []).append(kind)
            self._alike.append([(ks[0], sum(1 << k for k in ks)) for ks in members.values()])
            if condition.order_matters:
                base = max(classes) + 2  # the classes, and one code for the open slot
                self.weights.append([[c * base ** i for c in classes] for i in range(DISPLAY_SIZE)])
                self.blanks.append([(base - 1) * base ** j for j in range(DISPLAY_SIZE)])
            else:
                self.weights.append([[4 ** c for c in classes]] * DISPLAY_SIZE)
                self.blanks.append([0] * DISPLAY_SIZE)

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
            met, kinds = self._met[m], self.kinds
            display = [kinds[k] for k in row]
            found = 0
            for x, alike in self._alike[m]:  # interchangeable kinds give the same answer
                display[j] = kinds[x]
                if met(display):
                    found |= alike
            memo[key] = found
        return found


def _classes(kinds: Sequence[Card], features) -> list[int]:
    """Number the kinds so that kinds alike in every feature share a number."""
    seen: dict[tuple, int] = {}
    return [seen.setdefault(tuple(f(card) for f in features), len(seen)) for card in kinds]

"""50 Missions: which cards would meet a mission if put in one slot of the row, memoised.

The greedy bot asks, for every legal play and every slot of the row it would leave, which of the
cards that may cover that slot would then meet a mission on display: some 1,400 condition checks
a move when asked one by one.  The answer for a mission depends only on the other three cards,
and, for most conditions, not even on their order or on which of several interchangeable cards
they are (``Condition.order_matters`` and ``Condition.features``).  :class:`Completions` keeps
the answer as a bit mask over card kinds, computed once per mission and context and then looked
up; a table shared by every game one process plays, so the cost falls as games go on.
"""
from __future__ import annotations

from typing import Callable, Sequence

from deckpress.generator.content.fifty_missions_conditions import Condition

Card = tuple[str, int]


class Completions:
    """``mask(m, row, j)``: the kinds ``x`` (bit ``x`` set) for which the row ``row`` (card kinds,
    left to right) with ``x`` in slot ``j`` meets mission ``m``.

    Args:
        kinds: every card kind as the conditions read it, ``(symbol id, value)``, by kind number.
        conditions: the compiled condition of each mission, by mission number.

    The memo grows with the contexts met (at most missions x 4 slots x kinds^3 entries, each an
    int); it holds only what the conditions say, so it never changes a result.
    """

    __slots__ = ("_kinds", "_met", "_classes", "_ordered", "_memo")

    def __init__(self, kinds: Sequence[Card], conditions: Sequence[Condition]):
        self._kinds = list(kinds)
        self._met: list[Callable] = [c.met for c in conditions]
        self._ordered = [c.order_matters for c in conditions]
        #: _classes[m][k]: the class of kind k for mission m (kinds the condition cannot tell apart share one)
        self._classes = [_classes(self._kinds, c.features) for c in conditions]
        self._memo: dict[tuple, int] = {}

    def mask(self, m: int, row: Sequence[int], j: int) -> int:
        """The kinds that meet mission ``m`` in slot ``j`` of ``row`` (the card in slot ``j`` is
        ignored), as a bit mask: bit ``x`` for kind ``x``."""
        classes = self._classes[m]
        context = [classes[k] for k in row]
        context[j] = -1
        if not self._ordered[m]:
            context.sort()
        key = (m, *context)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._compute(m, row, j)
        return found

    def _compute(self, m: int, row: Sequence[int], j: int) -> int:
        met, kinds = self._met[m], self._kinds
        display = [kinds[k] for k in row]
        mask = 0
        for x, card in enumerate(kinds):
            display[j] = card
            if met(display):
                mask |= 1 << x
        return mask


def _classes(kinds: Sequence[Card], features) -> list[int]:
    """Number the kinds so that kinds alike in every feature share a number."""
    seen: dict[tuple, int] = {}
    return [seen.setdefault(tuple(f(card) for f in features), len(seen)) for card in kinds]

"""50 Missions: the heuristic bot (issue 4, section 3: "plays the card that completes a mission
or keeps the most options open")."""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from deckpress.rules.fifty_missions.state import SLOTS

if TYPE_CHECKING:
    from deckpress.rules.fifty_missions.state import FiftyMissionsView


class GreedyBot:
    """The heuristic of issue 4: play the card that accomplishes the most missions now; else keep
    the most options open -- the most plays, one card on one face-up card, that would accomplish a
    mission on display next, counting every card not known to be out of play (the face-up ones,
    and the covered ones when the rules let it look; its own hand counts, it may play them later).
    With table talk it first avoids covering the only card the next seat says it can cover.  It
    reads its view only (never another hand); ties are broken with the game's seeded generator.

    Which cards would meet a mission in a slot comes from the game's memoised
    :class:`~deckpress.rules.fifty_missions.completions.Completions` (issue 13: the bot was the
    cost of ``deckpress check`` on 50 Missions variants), by integer keys built with additions; a
    move costs some 100 look-ups and bit operations instead of some 1,400 condition checks.
    ``benchmarks/check.py`` measures it against that condition-by-condition baseline."""

    name = "greedy"
    uses_view = True

    def act(self, view: FiftyMissionsView, legal, rng) -> int:
        """The best of ``legal`` by (missions accomplished, the next seat not blocked, options next)."""
        game = view.game
        table = game.completions
        coverers = game.coverer_masks
        face_up = view.face_up
        seen = Counter(face_up)
        for pile in view.covered or ():
            seen.update(pile)
        copies = game.copies
        in_play = game.all_kinds_mask
        for k, n in seen.items():
            if n >= copies:
                in_play ^= 1 << k
        talk, following = view.talk, view.next_seat
        only = talk[following] if talk is not None and following is not None and following != view.seat else None
        # The face-up row with one slot open, per mission: its key, and the kinds that would meet
        # the mission there.  A play in slot s leaves slot s's context as it is (so its answers
        # are these) and changes every other slot's key by one term, the same for each of them.
        missions, open_union = [], [0] * SLOTS
        mask = table.mask
        for m in view.missions:
            if m >= 0:
                weights, blanks, memo = table.weights[m], table.blanks[m], table.memos[m]
                whole = sum(weights[i][k] for i, k in enumerate(face_up))
                keys = [whole - weights[j][face_up[j]] + blanks[j] for j in range(SLOTS)]
                bits = [memo.get(key) for key in keys]
                for j in range(SLOTS):
                    if bits[j] is None:
                        bits[j] = mask(m, face_up, j, keys[j])
                    open_union[j] |= bits[j]
                missions.append((m, weights, memo, keys, bits))
        reachable = [coverers[face_up[j]] & in_play for j in range(SLOTS)]
        others = [[j for j in range(SLOTS) if j != s] for s in range(SLOTS)]
        best, choice = None, legal[0]
        for action in legal:
            card, slot = divmod(action, SLOTS)
            accomplished = 0
            unions = [0] * SLOTS
            for m, weights, memo, keys, bits in missions:
                accomplished += (bits[slot] >> card) & 1
                column = weights[slot]
                delta = column[card] - column[face_up[slot]]
                for j in others[slot]:
                    key = keys[j] + delta
                    found = memo.get(key)
                    if found is None:
                        row = face_up[:]
                        row[slot] = card
                        found = mask(m, row, j, key)
                    unions[j] |= found
            options = (open_union[slot] & coverers[card] & in_play).bit_count()
            for j in others[slot]:
                options += (unions[j] & reachable[j]).bit_count()
            key = (accomplished, only != [slot], options, rng.random())
            if best is None or key > best:
                best, choice = key, action
        return choice

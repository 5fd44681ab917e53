"""50 Missions: the heuristic bot (issue 4, section 3: "plays the card that completes a mission
or keeps the most options open")."""
from __future__ import annotations

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
        unseen = [game.copies] * game.n_kinds
        for c in face_up + [c for pile in view.covered or () for c in pile]:
            unseen[c] -= 1
        in_play = game.all_kinds_mask
        for k, n in enumerate(unseen):
            if n <= 0:
                in_play ^= 1 << k
        talk, following = view.talk, view.next_seat
        only = talk[following] if talk is not None and following is not None and following != view.seat else None
        # Per mission on display: its key weights, open-slot codes and memo, and the key of the
        # face-up row with every card in it (a play changes one term of that sum).
        missions = []
        for m in view.missions:
            if m >= 0:
                weights, blanks = table.weights[m], table.blanks[m]
                missions.append((m, weights, blanks, table.memos[m], sum(weights[i][k] for i, k in enumerate(face_up))))
        mask = table.mask
        best, choice = None, legal[0]
        for action in legal:
            card, slot = divmod(action, SLOTS)
            row = face_up[:]
            row[slot] = card
            unions = [0] * SLOTS
            accomplished = 0
            for m, weights, blanks, memo, whole in missions:
                total = whole - weights[slot][face_up[slot]] + weights[slot][card]
                for j in range(SLOTS):
                    key = total - weights[j][row[j]] + blanks[j]
                    bits = memo.get(key)
                    if bits is None:
                        bits = mask(m, row, j, key)
                    unions[j] |= bits
                    if j == slot:
                        accomplished += (bits >> card) & 1
            options = 0
            for j in range(SLOTS):
                options += (unions[j] & coverers[row[j]] & in_play).bit_count()
            key = (accomplished, only != [slot], options, rng.random())
            if best is None or key > best:
                best, choice = key, action
        return choice

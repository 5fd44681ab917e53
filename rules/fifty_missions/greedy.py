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
    cost of ``deckpress check`` on 50 Missions variants); a move costs some 100 look-ups and bit
    operations instead of some 1,400 condition checks.  ``benchmarks/simulate.py`` measures it."""

    name = "greedy"
    uses_view = True

    def act(self, view: FiftyMissionsView, legal, rng) -> int:
        """The best of ``legal`` by (missions accomplished, the next seat not blocked, options next)."""
        game = view.game
        mask = game.completions.mask
        coverers = game.coverer_masks
        face_up = view.face_up
        missions = [m for m in view.missions if m >= 0]
        unseen = [game.copies] * game.n_kinds
        for c in face_up + [c for pile in view.covered or () for c in pile]:
            unseen[c] -= 1
        in_play = sum(1 << k for k, n in enumerate(unseen) if n > 0)
        talk, following = view.talk, view.next_seat
        only = talk[following] if talk is not None and following is not None and following != view.seat else None
        # slot j of every row left by a play in j: the same for every card played there
        here = [[mask(m, face_up, j) for m in missions] for j in range(SLOTS)]
        best, choice = None, legal[0]
        for action in legal:
            card, slot = divmod(action, SLOTS)
            row = face_up[:]
            row[slot] = card
            meets = 0
            accomplished = 0
            for bits in here[slot]:
                meets |= bits
                accomplished += (bits >> card) & 1
            options = (meets & coverers[card] & in_play).bit_count()
            for j, top in enumerate(row):
                if j != slot:
                    meets = 0
                    for m in missions:
                        meets |= mask(m, row, j)
                    options += (meets & coverers[top] & in_play).bit_count()
            key = (accomplished, only != [slot], options, rng.random())
            if best is None or key > best:
                best, choice = key, action
        return choice

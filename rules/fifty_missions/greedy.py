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

    Cost: about ``legal x 4 slots x 11 cards x missions`` condition checks a move (some 500), so
    it plays some 25 to 35 three-seat games a second on one core, where random bots play 2,000."""

    name = "greedy"
    uses_view = True

    def act(self, view: FiftyMissionsView, legal, rng) -> int:
        """The best of ``legal`` by (missions accomplished, the next seat not blocked, options next)."""
        game = view.game
        kinds = game.kinds
        face_up = view.face_up
        missions = [game.met[m] for m in view.missions if m >= 0]
        unseen = [game.copies] * game.n_kinds
        for c in face_up + [c for pile in view.covered or () for c in pile]:
            unseen[c] -= 1
        talk, following = view.talk, view.next_seat
        only = talk[following] if talk is not None and following is not None and following != view.seat else None
        next_cards: dict[int, list[tuple[str, int]]] = {}  # face-up card -> the unseen cards that may cover it
        best, choice = None, legal[0]
        for action in legal:
            card, slot = divmod(action, SLOTS)
            row = face_up[:]
            row[slot] = card
            display = tuple([kinds[c] for c in row])
            accomplished = sum(met(display) for met in missions)
            options = 0
            for j, top in enumerate(row):
                cards = next_cards.get(top)
                if cards is None:
                    cards = next_cards[top] = [kinds[k] for k in game.coverers[top] if unseen[k] > 0]
                head, tail = display[:j], display[j + 1:]
                for x in cards:
                    after = head + (x,) + tail
                    for met in missions:
                        if met(after):
                            options += 1
                            break
            key = (accomplished, only != [slot], options, rng.random())
            if best is None or key > best:
                best, choice = key, action
        return choice

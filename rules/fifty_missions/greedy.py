"""50 Missions: the heuristic bot, which plays the card that completes a mission
or keeps the most options open."""
from __future__ import annotations

from collections import Counter
from operator import getitem
from typing import TYPE_CHECKING

from deckpress.rules.fifty_missions.state import SLOTS

if TYPE_CHECKING:
    from deckpress.rules.fifty_missions import FiftyMissionsGame
    from deckpress.rules.fifty_missions.state import FiftyMissionsView


class GreedyBot:
    """The heuristic: play the card that accomplishes the most missions now; else keep
    the most options open -- the most plays, one card on one face-up card, that would accomplish a
    mission on display next, counting every card not known to be out of play (the face-up ones,
    and the covered ones when the rules let it look; its own hand counts, it may play them later).
    With table talk it first avoids covering the only card the next seat says it can cover.  It
    reads its view only (never another hand); ties are broken with the game's seeded generator.

    Which cards would meet a mission in a slot comes from the game's memoised
    :class:`~deckpress.rules.fifty_missions.completions.Completions` (without it the bot was the
    cost of ``deckpress check`` on 50 Missions variants).  For each play it weighs it looks up,
    once per mission on display, the whole row that play would leave (``Completions.rows``: every
    slot's answer in one integer, one field of bits per slot), by a key that is the face-up row's
    key with the played slot's term changed: an addition.  The rows met repeat across games (95%
    of these look-ups are answered from the memo over the 2,000 games of one side of a check).
    The missions' answers OR-ed together, one AND with the cards that may cover each slot of that
    row and one bit count give the options; a move costs some 4 look-ups a play instead of some
    1,400 condition checks, and a move with a single legal play is not weighed at all.
    ``benchmarks/check.py`` measures it against that condition-by-condition baseline."""

    name = "greedy"
    uses_view = True

    def act(self, view: FiftyMissionsView, legal, rng) -> int:
        """The best of ``legal`` by (missions accomplished, the next seat not blocked, options next,
        a draw of ``rng``): one ``rng.random()`` per legal play, in order, whatever the plays."""
        if len(legal) == 1:
            rng.random()  # the tie-break every play draws, so that the generator moves on as ever
            return legal[0]
        game = view.game
        table = game.completions
        coverers = game.coverer_masks
        face_up = view.face_up
        in_play = _in_play(game, face_up, view.covered)
        talk, following = view.talk, view.next_seat
        only = talk[following] if talk is not None and following is not None and following != view.seat else None
        blocked = only[0] if only is not None and len(only) == 1 else -1  # the slot not to play in
        # A play's score, one integer ordered as (accomplished, not blocked, options): options < 2 ** step.
        step = (SLOTS * table.width).bit_length()
        # The cards that may cover each face-up card and are in play, one field per slot (as in a
        # row's answers); a play in a slot keeps the other fields and puts the cards that may cover
        # the played card in its own.
        shifts = table.shifts
        reach = [(coverers[k] & in_play) << shift for k, shift in zip(face_up, shifts)]
        whole = sum(reach)
        # Per mission on display: the face-up row's key, the terms of each slot, the row memo.
        codes, rows = table.codes, table.rows
        missions = [(sum(map(getitem, codes[m], face_up)), codes[m], rows[m], m) for m in view.missions if m >= 0]
        # Per slot played in, filled when a play there first comes: per mission, the face-up row's
        # key without that slot's term, and the terms of the kinds that may be played there.
        prepared: list[list[tuple] | None] = [None] * SLOTS
        draw = rng.random
        best, best_draw, choice = -1, 0.0, legal[0]
        for action in legal:
            card, slot = divmod(action, SLOTS)
            entries = prepared[slot]
            if entries is None:
                was = face_up[slot]
                entries = prepared[slot] = [(key - terms[slot][was], terms[slot], memo, m) for key, terms, memo, m in missions]
            union = 0  # every slot's kinds that would meet some mission, once the card is played
            for base, column, memo, m in entries:
                key = base + column[card]
                try:
                    union |= memo[key]
                except KeyError:  # a row not met before (or past the memo's bound): ask the table
                    row = face_up[:]
                    row[slot] = card
                    union |= table.row(m, row, key)
            at = shifts[slot] + card  # the card's own bit: whether it meets a mission where it lies
            accomplished = 0
            if (union >> at) & 1:  # some mission is met now: count them (rarely needed, so not kept above)
                row = face_up[:]
                row[slot] = card
                for base, column, _, m in entries:
                    accomplished += (table.row(m, row, base + column[card]) >> at) & 1
            covering = (whole - reach[slot]) | ((coverers[card] & in_play) << shifts[slot])
            score = (accomplished << (step + 1)) | ((slot != blocked) << step) | (union & covering).bit_count()
            tie = draw()
            if score > best or (score == best and tie > best_draw):
                best, best_draw, choice = score, tie, action
        return choice


def _in_play(game: FiftyMissionsGame, face_up: list[int], covered: list[list[int]] | None) -> int:
    """The kinds not known to be out of play, as a bit mask: every kind but those whose copies all
    lie face up (or covered, when the rules let the bot look)."""
    in_play, copies = game.all_kinds_mask, game.copies
    if covered:
        seen = Counter(face_up)
        for pile in covered:
            seen.update(pile)
        for k, n in seen.items():
            if n >= copies:
                in_play ^= 1 << k
    elif copies == 1 or len(set(face_up)) < len(face_up) and copies <= len(face_up):  # some kind shows twice
        for k in set(face_up):
            if face_up.count(k) >= copies:
                in_play ^= 1 << k
    return in_play

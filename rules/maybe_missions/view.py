"""What one seat of Maybe Missions may see: its own votes and secret identity, everything face up.

Hidden from a seat: the other seats' hands (only their sizes), votes submitted face down and not
yet revealed (only *whether* a seat has submitted: the core keeps pending simultaneous choices out
of the state until all are in), the other seats' secret identities, and the order of every deck.
Public: the market, the mission, the revealed and played Master cards and the known top of the
Master deck, every collection with its up sides, identities lying face up, shops, revealed votes,
announced numbers (announce_vote) and hands shown at a round's end (reveal_hand).  Private
knowledge: the votes this seat has peeked at (peek_votes).
"""
from __future__ import annotations

from typing import Any

from deckpress.rules.core.game import SIMULTANEOUS, View
from deckpress.rules.maybe_missions.cards import SIDE_NAMES


class MaybeMissionsView(View):
    """A seat's view (read-only properties, and :meth:`to_dict` with names)."""

    __slots__ = ()

    # -- this seat's own ---------------------------------------------------------------------------
    @property
    def hand(self) -> list[int]:
        """This seat's vote cards, sorted (without one it has just submitted in secret)."""
        state = self._state
        pending = state._pending.get(self.seat)
        return sorted(n for n in state.hands[self.seat] if n != pending)

    @property
    def face_down(self) -> list[int]:
        """This seat's votes submitted face down and not yet revealed (the one just submitted included)."""
        state = self._state
        pending = [state._pending[self.seat]] if self.seat in state._pending and state.decision[0] == "secret_vote" else []
        return state.face_down[self.seat] + pending

    @property
    def secret_identity(self) -> int:
        """This seat's secret identity (index into ``game.secret_names``; -1: none)."""
        return self._state.secret_id[self.seat]

    @property
    def decision(self) -> tuple[str, tuple] | None:
        """``(decision name, its arguments)`` when this seat is due, else None."""
        state = self._state
        if state.decision is None or self.seat not in state.acting_seats():
            return None
        return state.decision[0], state.decision[2:]

    @property
    def peeks(self) -> dict[int, list[int]]:
        """Votes this seat saw in other hands (peek_votes): seat -> numbers, when it looked."""
        return {s: list(v) for s, v in self._state.peeks[self.seat].items()}

    def own_counts(self) -> tuple[list[int], int, int]:
        """``(c_r per resource, cards green side up, cards red side up)`` of this seat's collection."""
        return self._state.resource_counts(self.seat)

    def profile(self):
        """This seat's scoring (its secret identity's :class:`~deckpress.rules.maybe_missions.scoring.ScoreProfile`)."""
        return self._state.profile(self.seat)

    # -- public ---------------------------------------------------------------------------------------
    @property
    def hand_sizes(self) -> list[int]:
        """How many votes each seat holds."""
        return [len(h) for h in self._state.hands]

    @property
    def submitted(self) -> list[int]:
        """Seats that have submitted a vote face down in the current step (not which one)."""
        state = self._state
        seats = {s for s, v in enumerate(state.face_down) if v}
        if state.current == SIMULTANEOUS:
            seats |= {s for s in state.simultaneous_seats() if state.submitted(s)}
        return sorted(seats)

    @property
    def active(self) -> int:
        """The active seat of this round."""
        return self._state.active

    @property
    def market(self) -> list[int]:
        """The market's mission cards."""
        return list(self._state.market)

    @property
    def mission(self) -> list[int]:
        """The mission cards proposed this round."""
        return list(self._state.mission)

    @property
    def master(self) -> int:
        """This round's revealed Master card, or -1."""
        return self._state.master_now

    @property
    def shop(self) -> int:
        """The general shop card, or -1 (Gadget Shopping)."""
        return self._state.shop_now

    @property
    def collections(self) -> list[list[tuple[int, int]]]:
        """Per seat: ``(card, side up)`` of each collected card."""
        state = self._state
        return [[(c, state.up[c]) for c in cards] for cards in state.collected]

    @property
    def table(self) -> list[tuple[int, int, int]]:
        """``(seat, printed number, effective number)`` of each revealed vote this round."""
        state = self._state
        return list(zip(state.t_seat, state.t_num, state.t_eff))

    @property
    def rules(self):
        """This round's :class:`~deckpress.rules.maybe_missions.masters.RoundRules` (None between rounds)."""
        return self._state.rules

    @property
    def success(self) -> bool | None:
        """The round's result once the votes are tallied, else None."""
        state = self._state
        return state.success if state.t_counted else None

    @property
    def public_identities(self) -> list[int]:
        """Each seat's public identity (index into ``game.public_names``; -1: none)."""
        return list(self._state.public_id)

    def powers(self, seat: int):
        """``seat``'s public powers (they lie face up)."""
        return self._state.powers(seat)

    def to_dict(self) -> dict[str, Any]:
        """Everything this seat sees, with names."""
        state, game = self._state, self.game
        names = game.card_names
        out: dict[str, Any] = {"seat": self.seat, "round": state.round_no, "active": state.active,
                               "hand": self.hand, "hand sizes": self.hand_sizes}
        if self.face_down:
            out["my face-down votes"] = self.face_down
        if self.submitted:
            out["submitted"] = self.submitted
        out["table"] = [{"seat": s, "vote": n, "effective": e} for s, n, e in self.table]
        out["market"] = [names[c] for c in state.market]
        out["mission"] = [names[c] for c in state.mission] + ([names[state.mission_shop]] if state.mission_shop >= 0 else [])
        out["master"] = names[state.master_now] if state.master_now >= 0 else None
        if state.played_masters:
            out["played masters"] = [names[c] for c in state.played_masters]
        if state.master_top:
            out["master deck top"] = [names[c] for c in state.master_top]
        out["collections"] = [[f"{names[c]} ({SIDE_NAMES[side]})" for c, side in coll] for coll in self.collections]
        if game.gadgets:
            out["shop"] = names[state.shop_now] if state.shop_now >= 0 else None
            if any(state.shops):
                out["personal shops"] = [[names[c] for c in s] for s in state.shops]
        if game.identities:
            out["public identities"] = [game.public_names[i] if i >= 0 else None for i in state.public_id]
            out["my secret identity"] = game.secret_names[self.secret_identity] if self.secret_identity >= 0 else None
        if state.announced:
            out["announced"] = dict(state.announced)
        if state.shown:
            out["shown hands"] = {s: list(v) for s, v in state.shown.items()}
        if self.peeks:
            out["peeked"] = self.peeks
        if self.success is not None:
            out["result"] = "SUCCESS" if self.success else "FAIL"
        out["my score"] = state.score(self.seat)
        return out

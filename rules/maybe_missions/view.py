"""What one seat of Maybe Missions may see: its own votes and secret identity, everything face up.

Hidden from a seat: the other seats' hands (only their sizes), votes submitted face down and not
yet revealed (only *whether* a seat has submitted: the core keeps pending simultaneous choices out
of the state until all are in), the other seats' secret identities, and the order of every deck.
Public: the market, the mission, the revealed and played Master cards and the known top of the
Master deck, every collection with its up sides, identities lying face up, shops, revealed votes,
announced numbers (announce_vote) and hands shown at a round's end (reveal_hand).  Private
knowledge: the votes this seat has peeked at (peek_votes).  :meth:`MaybeMissionsView.sample_state`
deals what is hidden again at random, for search bots.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from deckpress.rules.core.game import SIMULTANEOUS, View, shuffled
from deckpress.rules.maybe_missions.cards import NO, SIDE_NAMES, YES

if TYPE_CHECKING:
    from deckpress.rules.maybe_missions import MaybeMissionsGame
    from deckpress.rules.maybe_missions.state import MaybeMissionsState


class MaybeMissionsView(View):
    """A seat's view (read-only properties, and :meth:`to_dict` with names)."""

    __slots__ = ()
    _state: MaybeMissionsState
    game: MaybeMissionsGame

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
        decision = state.decision  # set whenever a seat has a submission pending
        pending = [state._pending[self.seat]] if self.seat in state._pending and decision is not None and decision[0] == "secret_vote" else []
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

    # -- determinisation (search bots) --------------------------------------------------------------------
    def sample_state(self, rng) -> "MaybeMissionsState":
        """A full state consistent with this seat's view (a determinisation, for search bots such as
        ``ismcts``): a clone of the live state with everything this seat cannot see dealt again at
        random with ``rng.random()``, from the cards it cannot see, into the same places in the same
        numbers.  A function of the view (and of what every seat watched happen in the open) and of
        ``rng``: where the hidden cards really are never matters.

        Dealt again:

        * **votes** (:func:`_deal_votes`): the other seats' hands, their votes face down and set aside
          to pass, and the undealt vote deck (plus, once a seat has drawn from it with the reduce
          randomness variant's ``redraw_from: discards``, the discarded votes, a face-down deck
          then).  Each place keeps its size; the other seats' places together keep the number of
          YES and of NO votes the seat can count: the votes dealt at setup are ``votes`` YES and
          ``votes`` NO per player, so they hold those not seen (exactly, until votes are drawn
          from the vote deck; at least, after); while the votes are being dealt, the types dealt
          to the others are drawn as the deal draws them.  Votes the view places in a hand stay
          with that seat: a hand shown at a round's end (reveal_hand), a number announced this
          round (announce_vote), the votes this seat peeked at (peek_votes), and votes given in a
          swap in progress (swap_votes).  While every hand is as dealt, none is of one type only
          (the rulebook deals such a hand again).
        * **secret identities** of the other seats, from those and the undealt ones;
        * **deck orders**: the mission, Master (below its known top), shop and identity decks;
        * what the other seats peeked at (peek_votes): as many votes of the hand they looked at.

        Kept: everything face up (market, mission, Master cards, collections and their sides,
        shops, public identities, the table, the discard piles: every card on them was seen
        going there), this seat's own hand (sorted), face-down votes, set-aside votes and
        submission of a simultaneous step in progress.  The other seats' submissions of that step
        are dropped (they choose again).  The sample's history is empty: the live one names the
        hidden deals and draws.

        Not used (the view does not hold it; a seat may remember it): which votes this seat passed
        to the left (pass_votes) or a seat gave in a swap now over, which votes left the discards
        drawn from, and that an announced number is the lowest (highest) of its hand: a sample may
        deal a lower one there.
        """
        live, me = self._state, self.seat
        new = live.clone()
        new.history = []
        new._pending = {s: a for s, a in live._pending.items() if s == me}
        new.hands[me] = sorted(live.hands[me])
        new.legal = None  # they may depend on the votes dealt again
        _deal_votes(new, me, rng)
        _retell_others_knowledge(new, me, rng)
        if new.game.identities:
            others = [s for s in range(new.game.players) if s != me and new.secret_id[s] >= 0]
            pool = shuffled(sorted(new.secret_deck + [new.secret_id[s] for s in others]), rng)
            for s in others:
                new.secret_id[s] = pool.pop()
            new.secret_deck = pool
            new.public_deck = shuffled(sorted(new.public_deck), rng)
        new.mission_deck = shuffled(sorted(new.mission_deck), rng)
        new.master_deck = shuffled(sorted(new.master_deck), rng)
        new.shop_deck = shuffled(sorted(new.shop_deck), rng)
        return new


#: Tries at a deal with no hand of one type (a sample right after setup); the last one is kept.
_REDEAL_TRIES = 200


def discards_hidden(state) -> bool:
    """True when the discarded votes are a face-down deck to this seat: the reduce randomness
    variant draws from them (``redraw_from: discards``) and some seat has done so, unseen."""
    game = state.game
    return game.reduce_randomness and not game.redraw_from_box and state.counts.get("redraws", 0) > 0


def _seen_votes(state, me: int) -> list[int]:
    """The votes ``me`` sees where they are: its own hand, face-down and set-aside votes, the
    table, the discards (unless :func:`discards_hidden`) and a redraw's votes set aside."""
    seen = state.hands[me] + state.face_down[me] + state.passing[me] + state.t_num + state.redraw_held
    return seen if discards_hidden(state) else seen + state.vote_discard


def _known_places(state, me: int, unseen: set[int]) -> dict[int, list[int]]:
    """Per other seat, the unseen votes the view puts in its hands (most certain first; each vote
    with one seat, and no more than the seat's places hold)."""
    players = state.game.players
    room = {s: len(state.hands[s]) + len(state.face_down[s]) + len(state.passing[s]) for s in range(players) if s != me}
    known: dict[int, list[int]] = {s: [] for s in room}
    placed: set[int] = set()

    def put(seat: int, votes) -> None:
        if seat not in known:
            return
        for v in votes:
            if v in unseen and v not in placed and len(known[seat]) < room[seat]:
                known[seat].append(v)
                placed.add(v)

    step, chance = state.decision, state.chance
    if step is not None and step[0] == "give_vote":  # ("give_vote", giver, other, count, given): given in the open
        put(step[2], step[4])
    if chance is not None and chance[0] in ("take", "peek") and chance[1] == me:  # (kind, seat, other, votes, count)
        put(chance[2], chance[3])
    for s, v in sorted(state.announced.items()):
        put(s, [v])
    for s, votes in sorted(state.shown.items()):
        put(s, votes)
    for s, votes in sorted(state.peeks[me].items()):
        put(s, votes)
    return known


def _as_dealt(state) -> bool:
    """True while every hand is as dealt at setup (after the rulebook's check for hands of one type)."""
    game = state.game
    dealt = game.hand_size * game.players
    return (state.round_no <= 1 and all(len(h) == game.hand_size for h in state.hands) and not state.t_num
            and not state.vote_discard and not any(state.face_down) and not any(state.passing)
            and len(state.box) == len(game.votes_in_play) - dealt
            and not (state.rules is not None and "pass_votes" in state.rules.kinds))


def _deal_votes(state, me: int, rng) -> None:
    """Deal the votes ``me`` cannot see again (see :meth:`MaybeMissionsView.sample_state`)."""
    game = state.game
    types = game.vote_type
    per_type = game.votes_per_type * game.players
    others = [s for s in range(game.players) if s != me]
    seen = _seen_votes(state, me)
    unseen = sorted(set(game.votes_in_play) - set(seen))
    hidden_discard = discards_hidden(state)
    sizes = {s: (len(state.hands[s]), len(state.face_down[s]), len(state.passing[s])) for s in others}
    slots = sum(map(sum, sizes.values())) + (len(state.vote_discard) if hidden_discard else 0)
    dealing = state.round_no == 0 and sum(map(len, state.hands)) < game.hand_size * game.players
    known = _known_places(state, me, set(unseen))
    placed = {v for votes in known.values() for v in votes}
    free = [v for v in unseen if v not in placed]
    tries = _REDEAL_TRIES if _as_dealt(state) else 1
    for _ in range(tries):
        if dealing:
            # the types dealt so far to the others: drawn like the deal draws them (per_type of each type)
            mine = [sum(types[v] == t for v in state.hands[me]) for t in (NO, YES)]
            drawn = shuffled([NO] * (per_type - mine[NO]) + [YES] * (per_type - mine[YES]), rng)[:slots]
            want = [drawn.count(NO), drawn.count(YES)]
        else:
            # the votes out of the vote deck were per_type of each type, plus any drawn since: at least
            # that many of each type not seen are in the others' places
            want = [max(0, per_type - sum(types[v] == t for v in seen)) for t in (NO, YES)]
        for votes in known.values():
            for v in votes:
                want[types[v]] -= 1
        chosen: list[int] = []
        rest: list[int] = []
        for t in (NO, YES):
            pool = shuffled([v for v in free if types[v] == t], rng)
            k = min(max(0, want[t]), len(pool))
            chosen += pool[:k]
            rest += pool[k:]
        rest = shuffled(sorted(rest), rng)
        room = slots - len(placed)
        chosen = shuffled(chosen, rng) + rest
        out, state.box[:] = chosen[:room], chosen[room:]
        out = shuffled(out, rng)
        for s in others:
            h, f, p = sizes[s]
            k = h + f + p - len(known[s])
            votes = shuffled(sorted(known[s] + out[:k]), rng)
            out = out[k:]
            state.hands[s][:], state.face_down[s][:], state.passing[s][:] = votes[:h], votes[h:h + f], votes[h + f:]
        if hidden_discard:
            state.vote_discard[:] = out
        if all(len({types[v] for v in state.hands[s]}) == 2 for s in others):
            break
    if state.round_no == 0:
        state.deal_left = [per_type - sum(types[v] == t for h in state.hands for v in h) for t in (NO, YES)]
        state.deal_pool = None


def _retell_others_knowledge(state, me: int, rng) -> None:
    """What the other seats know of hands, told again from the sample's hands: the votes they
    peeked at (as many, of the hand they looked at), and the votes of a peek or a swap in
    progress that ``me`` did not see."""
    for seat in range(state.game.players):
        if seat != me:
            for other, votes in sorted(state.peeks[seat].items()):
                state.peeks[seat][other] = sorted(shuffled(sorted(state.hands[other]), rng)[:len(votes)])
    chance = state.chance
    if chance is None or chance[0] not in ("peek", "take") or not chance[3]:
        return
    kind, seat, other, votes, count = chance
    if kind == "peek" and seat != me:  # the votes seen so far in this peek: the record just written
        state.chance = (kind, seat, other, tuple(state.peeks[seat][other]), count)
    elif kind == "take" and me not in (seat, other):  # the votes just given, among those the other hand holds
        state.chance = (kind, seat, other, tuple(sorted(shuffled(sorted(state.hands[other]), rng)[:len(votes)])), count)

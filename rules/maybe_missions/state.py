"""The Maybe Missions state: every card's place, the round in progress, and the agenda machinery.

The state holds plain lists and ints (so that it clones, prints and checks cheaply) and runs the
agenda of :mod:`deckpress.rules.maybe_missions.steps`: tasks do their part of the round until one asks a
seat for a decision, asks several seats for a simultaneous one (the secret vote) or needs a
chance event (a deal, a card turned up, a random vote taken from a hand).  The round's tasks live
in :mod:`~deckpress.rules.maybe_missions.flow` (rulebook "Gameplay"), :mod:`~deckpress.rules.maybe_missions.masters`
(Master card rules), :mod:`~deckpress.rules.maybe_missions.moves` (card moves shared by rules and rewards)
and :mod:`~deckpress.rules.maybe_missions.shop` (Gadget Shopping).

Places: votes are in a hand, the box (not dealt: the vote deck that ``draw_votes`` draws from),
face down in front of a seat (submitted, not revealed), set aside to pass (pass_votes), on the
table (revealed this round) or discarded.  Mission cards are in the mission deck, the market, the
mission (proposed this round), a seat's collection or the discard.  Master cards are in the
Master deck (its top cards in a known order once shown), revealed for the round, played (the
variant), in a collection or discarded.  Shop cards are in the shop deck, the general shop, the
mission, a seat's personal shops or discarded.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from deckpress.generator.content.safetext import quoted
from deckpress.rules.core.errors import IllegalAction, Reason
from deckpress.rules.core.events import check_keys, seat_of
from deckpress.rules.core.game import CHANCE, SIMULTANEOUS, TERMINAL, State
from deckpress.rules.core.log import format_event
from deckpress.rules.maybe_missions.aloud import late_proposal, said_aloud
from deckpress.rules.maybe_missions.cards import (
    BUY_GENERAL,
    CARD,
    DELTA,
    GREEN,
    MAX_DELTA,
    PASS,
    PUBLIC,
    SEAT,
    SECRET,
    SIDE_NAMES,
    R,
)
from deckpress.rules.maybe_missions.flow import deal_refused, redeal_why
from deckpress.rules.maybe_missions.identities import NEUTRAL
from deckpress.rules.maybe_missions.scoring import PLAIN
from deckpress.rules.maybe_missions.steps import CHANCES, DECISIONS, TASKS, key_values
from deckpress.rules.maybe_missions.view import MaybeMissionsView

if TYPE_CHECKING:
    from deckpress.rules.maybe_missions import MaybeMissionsGame

_NONE_WORDS = ("none", "done")


class MaybeMissionsState(State):
    """A game of Maybe Missions in progress (see the module docstring for the places of cards)."""

    __slots__ = (
        # votes
        "hands", "box", "deal_left", "deal_pool", "vote_discard", "redraw_held", "face_down", "passing", "need", "t_seat", "t_num", "t_eff", "t_counted",
        # cards
        "mission_deck", "market", "mission", "mission_shop", "mission_discard",
        "master_deck", "master_top", "master_now", "played_masters", "master_discard",
        "owner", "up", "collected", "shop_deck", "shop_now", "shop_discard", "shops",
        "public_deck", "secret_deck", "public_id", "secret_id",
        # the round
        "active", "round_no", "next_active", "choose_next", "choose_now", "renumber_next", "renumber_now", "rules",
        "success", "exceptional", "unanimous", "blocked", "extra", "take_back", "got_card", "bought", "general_open",
        "announced", "shown", "peeks", "counts",
        # what refusals and announcements name (rules/maybe_missions/aloud.py)
        "award", "closed", "redeal",
        # machinery
        "agenda", "decision", "legal", "chance",
    )
    game: MaybeMissionsGame

    def __init__(self, game):
        super().__init__(game)
        n = game.players
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.box: list[int] = list(game.votes_in_play)
        self.deal_left = [game.votes_per_type * n, game.votes_per_type * n]  # NO slots, YES slots still to deal
        self.deal_pool: list[list[int]] | None = None  # while dealing: the box's NO and YES votes (flow._deal_split)
        self.vote_discard: list[int] = []
        self.redraw_held: list[int] = []  # reduce randomness, redraw_from: discards: the votes just discarded
        self.face_down: list[list[int]] = [[] for _ in range(n)]
        self.passing: list[list[int]] = [[] for _ in range(n)]
        self.need = [0] * n
        self.t_seat: list[int] = []
        self.t_num: list[int] = []
        self.t_eff: list[int] = []
        self.t_counted: list[bool] = []
        self.mission_deck = list(game.mission_cards)
        self.market: list[int] = []
        self.mission: list[int] = []
        self.mission_shop = -1
        self.mission_discard: list[int] = []
        self.master_deck = list(game.master_cards)
        self.master_top: list[int] = []
        self.master_now = -1
        self.played_masters: list[int] = []
        self.master_discard: list[int] = []
        self.owner = [-1] * game.n_cards
        self.up = [-1] * game.n_cards
        self.collected: list[list[int]] = [[] for _ in range(n)]
        self.shop_deck = list(game.shop_cards) if game.gadgets else []
        self.shop_now = -1
        self.shop_discard: list[int] = []
        self.shops: list[list[int]] = [[] for _ in range(n)]
        self.public_deck = list(range(len(game.public_names))) if game.identities else []
        self.secret_deck = list(range(len(game.secret_names))) if game.identities else []
        self.public_id = [-1] * n
        self.secret_id = [-1] * n
        self.active = 0  # the rulebook's start player; turns go clockwise (seat + 1)
        self.round_no = 0
        self.next_active = -1
        self.choose_next: list[int] = []  # [seat, count]: choose_master bought for the next round
        self.choose_now: list[int] = []
        self.renumber_next: dict[int, int] = {}
        self.renumber_now: dict[int, int] = {}
        self.rules = None
        self.success = self.exceptional = self.unanimous = False
        self.blocked: list[int] = []
        self.extra: list[int] = []
        self.take_back: list[list[int]] = []  # [seat, vote number]: take_played_votes
        self.got_card = [False] * n
        self.bought = [False] * n
        self.general_open = False
        self.announced: dict[int, int] = {}
        self.shown: dict[int, list[int]] = {}
        self.peeks: list[dict[int, list[int]]] = [{} for _ in range(n)]
        self.counts: dict[str, int] = {}
        #: the last Master card given out: (round, active seat, card or -1, side or NO_MASTER/ALL_NO/UNANIMOUS)
        self.award: tuple[int, int, int, int] | None = None
        #: the last proposal that ended by itself: (round, seat, actions applied then, lo, hi, vmin, vmax)
        self.closed: tuple[int, ...] | None = None
        #: while the votes are dealt again: (seat, vote type) of the first hand that held one type
        self.redeal: tuple[int, int] | None = None
        self.agenda: list[tuple] = [("setup",)]
        self.decision: tuple | None = None
        #: the legal actions of the seat decision due, when the task that asked for it worked them out
        self.legal: list[int] | None = None
        self.chance: tuple | None = None
        self._run()

    # -- the agenda ---------------------------------------------------------------------------
    def push(self, *tasks: tuple) -> None:
        """Put ``tasks`` (in this order) at the front of the agenda."""
        self.agenda[0:0] = tasks

    def ask(self, name: str, seat: int, *args: Any, legal: list[int] | None = None) -> None:
        """Wait for ``seat``'s decision ``name`` (a :class:`~deckpress.rules.maybe_missions.steps.Decision`).
        A task that has just worked out the decision's legal actions (to see whether there is a
        choice at all) passes them as ``legal``: :meth:`_legal_actions` then answers with them."""
        self.decision = (name, seat) + args
        self.legal = legal

    def ask_all(self, name: str, seats: tuple[int, ...], *args: Any) -> None:
        """Wait for a hidden, simultaneous decision ``name`` of every seat in ``seats``."""
        self.decision = (name, tuple(seats)) + args
        self.legal = None

    def draw(self, name: str, *args: Any) -> None:
        """Wait for the chance event ``name``."""
        self.chance = (name,) + args

    def _decision_step(self) -> tuple:
        """The seat decision due, as :meth:`ask` or :meth:`ask_all` put it: ``(name, seat or
        seats, *args)``.  Raises RuntimeError when none is (:meth:`_not_due`)."""
        step = self.decision
        if step is None:
            raise self._not_due("seat decision")
        return step

    def _not_due(self, what: str) -> RuntimeError:
        """The error for reading the seat decision or chance event due when none is: the caller
        asked at the wrong time (the core asks only for what ``current`` says is due), a bug of
        the engine.  The hot paths check inline and raise it."""
        return RuntimeError(f"no {what} is due (current: {self.current})")

    def _run(self) -> None:
        agenda = self.agenda
        while self.decision is None and self.chance is None:
            if not agenda:
                self.current = TERMINAL
                return
            step = agenda.pop(0)
            TASKS[step[0]](self, *step[1:])
        if self.chance is not None:
            self.current = CHANCE
        elif self.decision is not None:  # always, once the loop stops without the end
            who = self.decision[1]
            self.current = who if type(who) is int else SIMULTANEOUS

    def count(self, name: str, k: int = 1) -> None:
        """Add ``k`` to the tally ``name``."""
        self.counts[name] = self.counts.get(name, 0) + k

    # -- the core's contract ------------------------------------------------------------------
    def _legal_actions(self, seat: int) -> list[int]:
        if self.legal is not None:
            return self.legal
        step = self.decision
        if step is None:
            raise self._not_due("seat decision")
        return DECISIONS[step[0]].legal(self, seat, *step[2:])

    def _apply(self, action: int, seat: int) -> None:
        if seat == CHANCE:
            chance = self.chance
            if chance is None:
                raise self._not_due("chance event")
            self.chance = None
            CHANCES[chance[0]].apply(self, action, *chance[1:])
        else:
            step = self.decision
            if step is None:
                raise self._not_due("seat decision")
            self.decision, self.legal = None, None
            apply = DECISIONS[step[0]].apply
            if apply is None:
                raise RuntimeError(f"decision {step[0]} is simultaneous: it is resolved once every seat has submitted, not applied")
            apply(self, seat, action, *step[2:])
        self._run()

    def simultaneous_seats(self) -> tuple[int, ...]:
        """The seats of the simultaneous decision due (the secret vote, passing votes)."""
        return self._decision_step()[1]

    def _resolve_simultaneous(self, submissions: dict[int, int]) -> None:
        step, self.decision = self._decision_step(), None
        resolve = DECISIONS[step[0]].resolve
        if resolve is None:
            raise RuntimeError(f"decision {step[0]} is a single seat's: it is applied, not resolved")
        resolve(self, submissions, *step[2:])
        self._run()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the chance event due, with their probabilities."""
        step = self.chance
        if step is None:
            raise self._not_due("chance event")
        return CHANCES[step[0]].outcomes(self, *step[1:])

    def is_chance_outcome(self, action: int) -> bool:
        """True when ``action`` is an outcome of the chance event due (asked of the chance kind
        when it can tell without listing the outcomes)."""
        step = self.chance
        if step is None:
            raise self._not_due("chance event")
        possible = CHANCES[step[0]].possible
        if possible is not None:
            return possible(self, action, *step[1:])
        return super().is_chance_outcome(action)

    def sample_chance(self, u: float) -> int:
        """The outcome at cumulative probability ``u`` (fast for deals and draws)."""
        step = self.chance
        if step is None:
            raise self._not_due("chance event")
        kind = CHANCES[step[0]]
        if kind.sample is not None:
            return kind.sample(self, u, *step[1:])
        return super().sample_chance(u)

    def due_chance_event(self) -> dict[str, Any]:
        """The chance event due in its log form, without the outcome (``{chance: deal, seat: 2}``)."""
        step = self.chance
        if step is None:
            raise self._not_due("chance event")
        return CHANCES[step[0]].event(self, *step[1:])

    def returns(self) -> list[float]:
        """Each seat's score (rulebook "Objective", with its secret identity): the final result once
        the game is over, the score so far before."""
        return [float(self.score(s)) for s in range(self.game.players)]

    def score(self, seat: int) -> int:
        """``seat``'s score now (see :mod:`deckpress.rules.maybe_missions.scoring`)."""
        counts, greens, reds = self.resource_counts(seat)
        profile = self.profile(seat)
        if profile is PLAIN or not self.game.identity_reads_missions:
            return profile.score(counts, greens, reds)
        return profile.score(counts, greens, reds, own=self.resource_counts(seat, missions_only=True))

    def resource_counts(self, seat: int, missions_only: bool = False) -> tuple[list[int], int, int]:
        """``(c_r for each resource, cards green side up, cards red side up)`` of ``seat``'s collection
        (``missions_only``: of its collected Mission Cards only, what a secret identity reads with
        ``identity_cards: missions``)."""
        net, up = self.game.net, self.up
        cards = self.collected[seat]
        if missions_only:
            cards = [card for card in cards if card < self.game.n_missions]
        sides = [up[card] for card in cards]
        icons = [net[card][side] for card, side in zip(cards, sides)]  # per card: its up side's net icons per resource
        counts = [sum(column) for column in zip(*icons)] if icons else [0] * R
        greens = sides.count(GREEN)
        return counts, greens, len(cards) - greens

    def profile(self, seat: int):
        """``seat``'s :class:`~deckpress.rules.maybe_missions.scoring.ScoreProfile` (its secret identity's)."""
        i = self.secret_id[seat]
        return self.game.secret_profiles[i] if i >= 0 else PLAIN

    def powers(self, seat: int):
        """``seat``'s :class:`~deckpress.rules.maybe_missions.identities.SeatPowers` (its public identity's)."""
        i = self.public_id[seat]
        return self.game.public_powers[i] if i >= 0 else NEUTRAL

    def clockwise(self, start: int) -> tuple[int, ...]:
        """Every seat in turn order (clockwise), starting with ``start``."""
        return self.game.clockwise[start]

    # -- cards moving --------------------------------------------------------------------------
    def give_card(self, seat: int, card: int, side: int) -> None:
        """``card`` (mission or Master) joins ``seat``'s collection with ``side`` up."""
        self.owner[card] = seat
        self.up[card] = side
        self.collected[seat].append(card)

    def take_card(self, card: int) -> int:
        """Remove ``card`` from its owner's collection; returns the side it had up."""
        self.collected[self.owner[card]].remove(card)
        side = self.up[card]
        self.owner[card] = self.up[card] = -1
        return side

    def discard_card(self, card: int) -> None:
        """Put a mission or Master card (out of any collection) on its discard pile."""
        (self.mission_discard if card < self.game.n_missions else self.master_discard).append(card)

    # -- log events ----------------------------------------------------------------------------
    def said_aloud(self, event: dict[str, Any]) -> bool:
        """The Master card won (``{seat: 2, takes_master: master-08}``) and "done" after a proposal
        that ended by itself, said aloud: checked, changing nothing
        (:mod:`deckpress.rules.maybe_missions.aloud`, rulebook "Gameplay").

        Raises:
            IllegalAction: ``phase.wrong`` when the announcement is not true now, with what did happen.
        """
        return said_aloud(self, event)

    def why_due(self) -> str:
        """While the votes are dealt again: the hand of one type and the rulebook's redeal sentence."""
        return redeal_why(self)

    def action_to_event(self, action: int, seat: int) -> dict[str, Any]:
        """The log form of ``action`` by ``seat`` (:data:`CHANCE` for chance) in this state."""
        if seat == CHANCE:
            event = self.due_chance_event()
            event["card"] = self._chance_value(action)
            return event
        d = DECISIONS[self._decision_step()[0]]
        return {"seat": seat, d.key: self._value_name(d, action)}

    def _chance_value(self, action: int) -> Any:
        game = self.game
        if action >= SECRET:
            return game.secret_names[action - SECRET]
        if action >= PUBLIC:
            return game.public_names[action - PUBLIC]
        if action >= CARD:
            return game.card_names[action - CARD]
        return action

    def _value_name(self, d, action: int) -> Any:
        if action == PASS:
            return d.none_word
        if d.value == "vote":
            return action
        if d.value == "seat":
            return action - SEAT
        if d.value == "delta":
            return action - DELTA
        if action == BUY_GENERAL:
            return "shop"
        return self.game.card_names[action - CARD]

    def event_to_action(self, event: dict[str, Any]) -> tuple[int, int]:
        """``(seat, action)`` for a log event (:data:`CHANCE` as the seat of chance events).

        Raises:
            IllegalAction: ``log.malformed-event`` (unknown or missing keys, a bad seat or number),
                ``log.unknown-name`` (a card, identity or vote the game does not have),
                ``phase.wrong`` (a seat's event of another kind than the decision it is due).
        """
        game = self.game
        if "chance" in event:
            kind = CHANCES.get(event["chance"]) if isinstance(event["chance"], str) else None
            if kind is None:
                raise IllegalAction(Reason.MALFORMED_EVENT, f"unknown chance event {quoted(event['chance'])} (chance events: {', '.join(sorted(CHANCES))})")
            seat_keys = tuple(k for k in ("seat", "from") if k in kind.event_keys)
            check_keys(event, required=("chance",) + seat_keys + ("card",))
            for k in seat_keys:
                seat_of({"seat": event[k]}, game.players)
            return CHANCE, self._parse_chance_value(kind.value, event["card"])
        seat = seat_of(event, game.players)
        others = [k for k in event if k != "seat"]
        keys = key_values()
        if len(others) != 1 or others[0] not in keys:
            raise IllegalAction(Reason.MALFORMED_EVENT, "a seat's event is {seat: N, KEY: VALUE} with one KEY of: "
                                                        f"{', '.join(sorted(keys))}; this one has {', '.join(map(str, event))}")
        key = others[0]
        if key == "propose":
            late = late_proposal(self, seat, event[key])
            if late is not None:
                raise late
        if self.decision is not None and seat in self.acting_seats():
            d = DECISIONS[self.decision[0]]
            if key != d.key:
                raise IllegalAction(Reason.WRONG_PHASE, f"seat {seat} is due {d.doc} ({{seat: {seat}, {d.key}: ...}}), not to {key}")
        return seat, self._parse_value(keys[key], event[key])

    def _parse_value(self, kind: str, value: Any) -> int:
        game = self.game
        if isinstance(value, str) and value.casefold() in _NONE_WORDS:
            return PASS
        if kind == "vote":
            return game.vote(value)
        if kind == "seat":
            if isinstance(value, bool) or not isinstance(value, int):
                raise IllegalAction(Reason.MALFORMED_EVENT, f"expected a seat number 0..{game.players - 1}, got {quoted(value)}")
            if not 0 <= value < game.players:
                raise IllegalAction(Reason.NO_SUCH_SEAT, f"there is no seat {value}: seats are 0 to {game.players - 1}")
            return SEAT + value
        if kind == "delta":
            d = value if isinstance(value, int) and not isinstance(value, bool) else None
            if d is None or abs(d) > MAX_DELTA:
                raise IllegalAction(Reason.MALFORMED_EVENT, f"expected a whole number from -{MAX_DELTA} to {MAX_DELTA}, got {quoted(value)}")
            return DELTA + d
        if kind == "buy" and isinstance(value, str) and value.casefold() == "shop":
            return BUY_GENERAL
        return CARD + game.card(value)

    def _parse_chance_value(self, kind: str, value: Any) -> int:
        game = self.game
        if kind == "vote":
            return game.vote(value)
        if kind == "public":
            return PUBLIC + game.identity(value, public=True)
        if kind == "secret":
            return SECRET + game.identity(value, public=False)
        return CARD + game.card(value)

    # -- messages ------------------------------------------------------------------------------
    def due(self) -> str:
        """Who or what is due, in a player's words ("seat 2 to choose a card to collect")."""
        if self.current == TERMINAL:
            return "nothing: the game is over"
        if self.current == CHANCE:
            return f"a chance event: {format_event(self.due_chance_event())}"
        d = DECISIONS[self._decision_step()[0]]
        if self.current == SIMULTANEOUS:
            seats = self.acting_seats()
            return f"seat{'s' * (len(seats) > 1)} {', '.join(map(str, seats))} {d.doc}"
        return f"seat {self.current} {d.doc}"

    def _why_illegal(self, action: int, seat: int) -> IllegalAction:
        game = self.game
        if seat == CHANCE:
            dealt_out = deal_refused(self, action) if self.chance is not None and self.chance[0] == "deal" else None
            if dealt_out is not None:
                return IllegalAction(Reason.IMPOSSIBLE_OUTCOME, dealt_out)
            return IllegalAction(Reason.IMPOSSIBLE_OUTCOME, f"{self._chance_value(action) if self._is_name(action) else action} "
                                                            f"cannot come up now: {self.due()} is due, and that card is {self.where_action(action)}")
        step = self._decision_step()
        d = DECISIONS[step[0]]
        if d.why is not None:
            reason = d.why(self, seat, action, *step[2:])
            if reason is not None:
                return reason
        if action == PASS:
            return IllegalAction(Reason.WRONG_PHASE, f"seat {seat} cannot pass now: it is due {d.doc}")
        if d.value == "vote" or action < PASS:
            if not 1 <= action <= max(game.vote_numbers):
                return IllegalAction(Reason.UNKNOWN_ACTION, f"{action} is no vote card of this game")
            if action not in self.hands[seat]:
                return IllegalAction(Reason.NOT_IN_HAND, f"vote {action} is not in seat {seat}'s hand (it is {self.where_action(action)})")
            return IllegalAction(Reason.WRONG_PHASE, f"vote {action} cannot be chosen now: seat {seat} is due {d.doc}")
        if CARD <= action < CARD + game.n_cards:
            name = game.card_names[action - CARD]
            return IllegalAction(Reason.WRONG_PILE, f"{name} cannot be chosen now: it is in {self.where(action - CARD)}, and seat {seat} is due {d.doc}")
        if SEAT <= action < SEAT + game.players:
            return IllegalAction(Reason.WRONG_PHASE, f"seat {action - SEAT} cannot be chosen: seat {seat} is due {d.doc}")
        return IllegalAction(Reason.UNKNOWN_ACTION, f"action {action} is not legal now: seat {seat} is due {d.doc}")

    def _is_name(self, action: int) -> bool:
        """Whether ``action`` names a card or an identity of this game (not a vote, not a number
        beyond every deck)."""
        game = self.game
        if action >= SECRET:
            return action - SECRET < len(game.secret_names)
        if action >= PUBLIC:
            return action - PUBLIC < len(game.public_names)
        return CARD <= action < CARD + game.n_cards

    def where_action(self, action: int) -> str:
        """Where the card of a chance outcome is, in words."""
        if action >= CARD and not self._is_name(action):
            return "not a card of this game"
        if action >= SECRET:
            return "dealt already" if action - SECRET not in self.secret_deck else "in the identity deck"
        if action >= PUBLIC:
            return "dealt already" if action - PUBLIC not in self.public_deck else "in the identity deck"
        if action >= CARD:
            where = self.where(action - CARD)
            return where if where == "out of the game" else f"in {where}"
        where = self.where_vote(action)
        return f"in {where}" if where.endswith("'s hand") or where == "the vote deck" else where

    def where_vote(self, number: int) -> str:
        """Where vote card ``number`` is, in a player's words."""
        return next((name for name, cards in self._vote_zones() if number in cards), "not a vote card of this game")

    def where(self, card: int) -> str:
        """Where ``card`` is, in a player's words ("the market", "seat 2's collection")."""
        return next((name for name, cards in self._card_zones() if card in cards), "out of the game")

    # -- zones, invariants, dicts ----------------------------------------------------------------
    def _vote_zones(self) -> Iterator[tuple[str, list[int]]]:
        for s, hand in enumerate(self.hands):
            yield f"seat {s}'s hand", hand
        yield "the vote deck", self.box
        for s in range(self.game.players):
            yield f"face down before seat {s}", self.face_down[s]
            yield f"set aside by seat {s} to pass", self.passing[s]
        yield "on the table", self.t_num
        yield "discarded", self.vote_discard
        yield "just discarded to draw anew", self.redraw_held

    def _card_zones(self) -> Iterator[tuple[str, list[int]]]:
        yield "the mission deck", self.mission_deck
        yield "the market", self.market
        yield "the mission", self.mission + ([self.mission_shop] if self.mission_shop >= 0 else [])
        yield "the mission discard", self.mission_discard
        yield "the Master deck", self.master_deck + self.master_top
        yield "play as this round's Master card", [self.master_now] if self.master_now >= 0 else []
        yield "play as a played Master card", self.played_masters
        yield "the Master discard", self.master_discard
        for s, cards in enumerate(self.collected):
            yield f"seat {s}'s collection", cards
        yield "the shop deck", self.shop_deck
        yield "the general shop", [self.shop_now] if self.shop_now >= 0 else []
        for s, cards in enumerate(self.shops):
            yield f"seat {s}'s personal shops", cards
        yield "the shop discard", self.shop_discard

    def check_invariants(self) -> list[str]:
        """Problems found (``[]`` when sound): every vote, card and identity in exactly one place,
        collections agreeing with each card's owner and up side, hands of whole votes."""
        game = self.game
        problems = []
        for what, zones, expected, name in (
            ("vote", list(self._vote_zones()), set(game.votes_in_play), str),
            ("card", list(self._card_zones()), set(game.mission_cards) | set(game.master_cards) | (set(game.shop_cards) if game.gadgets else set()),
             lambda c: game.card_names[c]),
        ):
            seen: dict[int, list[str]] = {}
            for zone, cards in zones:
                for c in cards:
                    seen.setdefault(c, []).append(zone)
            problems += [f"{what} {name(c)} is in {len(places)} places: {', '.join(places)}" for c, places in seen.items() if len(places) > 1]
            missing = sorted(expected - set(seen))
            extra = sorted(set(seen) - expected)
            if missing:
                problems.append(f"{len(missing)} {what}s are nowhere (expected {len(expected)}): {', '.join(name(c) for c in missing)}")
            if extra:
                problems.append(f"{what}s that should not be in play: {', '.join(name(c) for c in extra)}")
        for s, cards in enumerate(self.collected):
            for c in cards:
                if self.owner[c] != s or self.up[c] not in (0, 1):
                    problems.append(f"{game.card_names[c]} is in seat {s}'s collection but its owner is {self.owner[c]} (side {self.up[c]})")
        if sum(o >= 0 for o in self.owner) != sum(map(len, self.collected)):
            problems.append("a card has an owner but is in no collection")
        if game.identities and not self._dealing():
            ids = [i for i in self.public_id if i >= 0]
            if len(ids) != len(set(ids)) or len(self.public_deck) + len(ids) != len(game.public_names):
                problems.append(f"public identities: {self.public_id} dealt, {len(self.public_deck)} left of {len(game.public_names)}")
            ids = [i for i in self.secret_id if i >= 0]
            if len(ids) != len(set(ids)) or len(self.secret_deck) + len(ids) != len(game.secret_names):
                problems.append(f"secret identities: {self.secret_id} dealt, {len(self.secret_deck)} left of {len(game.secret_names)}")
        return problems

    def _dealing(self) -> bool:
        return self.round_no == 0

    def to_dict(self) -> dict[str, Any]:
        """The whole state with names (golden files, debugging)."""
        game = self.game
        names = game.card_names
        cards = lambda xs: [names[c] for c in xs]  # noqa: E731
        out: dict[str, Any] = {"due": self.due(), "round": self.round_no, "active": self.active}
        out["hands"] = [sorted(h) for h in self.hands]
        if any(self.face_down):
            out["face down"] = [list(v) for v in self.face_down]
        if any(self.passing):
            out["passing"] = [list(v) for v in self.passing]
        out["table"] = [{"seat": s, "vote": n, "effective": e} for s, n, e in zip(self.t_seat, self.t_num, self.t_eff)]
        out["vote deck"] = len(self.box)
        out["market"] = cards(self.market)
        out["mission"] = cards(self.mission) + ([names[self.mission_shop]] if self.mission_shop >= 0 else [])
        out["master"] = names[self.master_now] if self.master_now >= 0 else None
        if self.played_masters:
            out["played masters"] = cards(self.played_masters)
        if self.master_top:
            out["master deck top"] = cards(self.master_top)
        out["collections"] = [[f"{names[c]} ({SIDE_NAMES[self.up[c]]})" for c in coll] for coll in self.collected]
        if game.gadgets:
            out["shop"] = names[self.shop_now] if self.shop_now >= 0 else None
            if any(self.shops):
                out["personal shops"] = [cards(s) for s in self.shops]
        if game.identities:
            out["identities"] = [{"public": game.public_names[p] if p >= 0 else None, "secret": game.secret_names[q] if q >= 0 else None}
                                 for p, q in zip(self.public_id, self.secret_id)]
        if self.rules is not None and self.t_counted:
            out["result"] = "exceptional (everyone NO)" if self.exceptional else ("SUCCESS" if self.success else "FAIL")
        out["scores"] = [self.score(s) for s in range(game.players)]
        out["agenda"] = [step[0] for step in self.agenda]
        return out

    def view(self, seat: int) -> MaybeMissionsView:
        """What ``seat`` may see now (:class:`~deckpress.rules.maybe_missions.view.MaybeMissionsView`)."""
        return MaybeMissionsView(self, seat)

    def tally(self) -> dict[str, int]:
        """The game's counts (rounds, results, Master rules in force and what they changed, purchases)
        and, once the game is over, who won with what (see ``MaybeMissionsGame.measures``)."""
        from deckpress.rules.maybe_missions.measures import final_tally

        return final_tally(self)

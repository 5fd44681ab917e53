"""What Mission Emission's three games share: hands, the draw deck, deals and draws, pockets, card
names in log events, and the view of one's own hand.

The draw deck is modelled as a table sees it: its cards in unknown order (``deck``, any of them
may come next, with equal probability) above the cards put under it in a known order
(``bottom``: the kids game's tied cards).  Every card that leaves the deck is a chance event
naming the card (``deal`` at set-up, ``draw`` later), so a recorded game replays without a
random generator and a person at the table can write the log by hand.

Action numbers (fixed, so that logs of simulated games stay small and fast to apply):
a card is ``0..MAX_CARDS-1``; ``MISSION + m`` chooses mission ``m``; ``RESHUFFLE`` is the base
game's chance event that turns the play pile into a new draw deck; ``PLACE + card * MAX_MISSIONS
+ pile`` puts a card on a pile in the strategy game; with the base game's set collection,
``KEEP + card`` keeps a card in the seat's set pile and ``GIVE + card * MAX_SEATS + seat`` gives
a negative point card to ``seat``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from deckpress.generator.content.safetext import quoted
from deckpress.rules.core.errors import IllegalAction, Reason
from deckpress.rules.core.events import check_keys, seat_of
from deckpress.rules.core.game import CHANCE, TERMINAL, State, View, shuffled

if TYPE_CHECKING:
    from deckpress.rules.mission_emission import MissionEmissionGame

MAX_MISSIONS = 16
MAX_CARDS = 99
MAX_SEATS = 8
RESHUFFLE = 99
MISSION = 100
KEEP = 200
PLACE = 1000
GIVE = 3000
DEAL, DRAW = "deal", "draw"


class MissionEmissionState(State):
    """Hands, deck and pockets of every seat, and the deal/draw chance events of all three games.

    A mode's state sets the first decision in :meth:`_draws_done` (called when the cards due have
    all been dealt or drawn) and implements :meth:`_act` (a seat's decision).
    """

    __slots__ = ("hands", "deck", "bottom", "tied", "pockets", "active", "to_draw", "draw_i", "draw_kind", "rounds", "ties", "reshuffle_first")
    game: MissionEmissionGame

    def __init__(self, game):
        super().__init__(game)
        n = game.players
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.deck: list[int] = self._initial_deck()
        self.bottom: list[int] = []
        self.tied: list[int] = []  # how many cards each tie put under the deck, the earliest first
        self.pockets: list[list[int]] = [[] for _ in range(n)]
        self.active = 0  # the rulebook's youngest player: seat 0 starts
        self.to_draw: list[int] | tuple[int, ...] = [s for s in range(n) for _ in range(game.hand_size)]
        self.draw_i = 0
        self.draw_kind = DEAL
        self.rounds = 0
        self.ties = 0
        self.reshuffle_first = False  # base game, reshuffle: when-empty: the reshuffle comes before the next round
        self.current = CHANCE

    def hidden_places(self, seat: int) -> list[list[int]]:
        """The places whose cards ``seat`` cannot see, in a fixed order: every other seat's hand,
        then the unknown part of the draw deck (lists of this state's, for a view's
        :meth:`~MissionEmissionView.sample_state` to deal a clone's hidden cards again)."""
        return [hand for s, hand in enumerate(self.hands) if s != seat] + [self.deck]

    def _initial_deck(self) -> list[int]:
        return list(range(self.game.n_states))

    # -- chance: deals, draws -----------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Any card of the unknown part of the deck, equally likely; else the known card under it;
        else (base game) the reshuffle of the play pile."""
        deck = self.deck
        if deck:
            p = 1.0 / len(deck)
            return [(c, p) for c in sorted(deck)]
        if self.bottom:
            group = self._next_under()
            return [(c, 1.0 / len(group)) for c in sorted(group)]
        return [(RESHUFFLE, 1.0)]

    def _next_under(self) -> list[int]:
        """The cards the earliest tie put under the deck and not yet drawn: they come next, in
        the order the table put them there, which no one records (any of them may come first)."""
        return self.bottom[:self.tied[0]]

    def is_chance_outcome(self, action: int) -> bool:
        """True when ``action`` is a card that can come off the deck now (or the reshuffle due)."""
        if self.deck:
            return action in self.deck
        if self.bottom:
            return action in self._next_under()
        return action == RESHUFFLE

    def sample_chance(self, u: float) -> int:
        """The card at position ``u * len(deck)`` of the unknown part (all equally likely)."""
        deck = self.deck
        if deck:
            return deck[int(u * len(deck))]
        if self.bottom:
            group = sorted(self._next_under())
            return group[int(u * len(group))]
        return RESHUFFLE

    def due_chance_event(self) -> dict[str, Any]:
        """The chance event due, without its outcome: ``{chance: draw, seat: 1}`` or ``{chance: reshuffle}``."""
        if self.deck or self.bottom:
            return {"chance": self.draw_kind, "seat": self.to_draw[self.draw_i]}
        return {"chance": "reshuffle"}

    def _apply(self, action: int, seat: int) -> None:
        if seat != CHANCE:
            self._act(action, seat)
        elif action == RESHUFFLE:
            self._reshuffle()
            if self.reshuffle_first:  # the draws were done: the round starts now
                self.reshuffle_first = False
                self._draws_done()
        else:
            if self.deck:
                self.deck.remove(action)
            else:
                self.bottom.remove(action)
                self.tied[0] -= 1
                if not self.tied[0]:
                    del self.tied[0]
            self.hands[self.to_draw[self.draw_i]].append(action)
            self.draw_i += 1
            if self.draw_i == len(self.to_draw):
                if not self.deck and not self.bottom and self._reshuffle_when_empty():
                    self.reshuffle_first = True  # the reshuffle is due at once (current stays CHANCE)
                else:
                    self._draws_done()

    def _draw_for(self, seats: list[int] | tuple[int, ...]) -> None:
        """Start a draw step: ``seats`` each draw one card, in that order."""
        self.to_draw = seats
        self.draw_i = 0
        self.draw_kind = DRAW
        self.current = CHANCE

    # -- what a mode implements ---------------------------------------------------------------
    def _act(self, action: int, seat: int) -> None:
        raise NotImplementedError

    def _draws_done(self) -> None:
        raise NotImplementedError

    def _reshuffle(self) -> None:
        raise NotImplementedError

    def _reshuffle_when_empty(self) -> bool:
        """Whether the play pile is reshuffled as soon as the draw deck is finished (base game,
        ``reshuffle: when-empty``), rather than when a seat next needs a card.  None by default."""
        return False

    def _zones(self) -> Iterator[tuple[str, list[int]]]:
        """Every place a card can be, with its name in a player's words."""
        for s, hand in enumerate(self.hands):
            yield f"seat {s}'s hand", hand
        yield "the draw deck", self.deck
        yield "the bottom of the draw deck", self.bottom
        for s, pocket in enumerate(self.pockets):
            yield f"seat {s}'s pocket", pocket

    def _cards_in_play(self) -> list[int]:
        """The cards this mode plays with (every other card stays in the box)."""
        return list(range(self.game.n_states))

    # -- messages, logs, checks ----------------------------------------------------------------
    def due(self) -> str:
        """Who or what is due, in a player's words ("seat 2 to play a card for Smoke")."""
        cur = self.current
        if cur == CHANCE:
            event = self.due_chance_event()
            if event["chance"] == "reshuffle":
                return "a reshuffle of the play pile (the draw deck is empty)"
            return f"a {event['chance']} of a card to seat {event['seat']}"
        if cur == TERMINAL:
            return "nothing: the game is over"
        return self._due_seat(cur)

    def _due_seat(self, seat: int) -> str:
        raise NotImplementedError

    def _why_illegal(self, action: int, seat: int) -> IllegalAction:
        return self._why_illegal_chance(action) if seat == CHANCE else self._why_illegal_act(action, seat)

    def _why_illegal_act(self, action: int, seat: int) -> IllegalAction:
        raise NotImplementedError

    def where(self, card: int) -> str:
        """Where ``card`` is, in a player's words ("seat 2's hand"), or "out of the game"."""
        return next((name for name, cards in self._zones() if card in cards), "out of the game")

    def _why_illegal_chance(self, action: int) -> IllegalAction:
        due = self.due_chance_event()
        if due["chance"] == "reshuffle":
            return IllegalAction(Reason.WRONG_CHANCE_EVENT, "the draw deck is empty: the play pile must be reshuffled first ({chance: reshuffle})")
        if action == RESHUFFLE:
            return IllegalAction(Reason.WRONG_CHANCE_EVENT, f"no reshuffle now: the draw deck still has {len(self.deck) + len(self.bottom)} cards")
        if not 0 <= action < self.game.n_cards:
            return IllegalAction(Reason.UNKNOWN_ACTION, f"{action} is no card of this game")
        name = self.game.card_names[action]
        if not self.deck:
            names = ", ".join(self.game.card_names[c] for c in sorted(self._next_under()))
            return IllegalAction(Reason.IMPOSSIBLE_OUTCOME, f"{name} cannot be drawn: the next cards are those a tie put under the deck: {names}")
        where = self.where(action)
        place = where if where == "out of the game" else f"in {where}"
        return IllegalAction(Reason.IMPOSSIBLE_OUTCOME, f"{name} cannot be {'dealt' if due['chance'] == DEAL else 'drawn'}: it is {place}, not in the draw deck")

    def action_to_event(self, action: int, seat: int) -> dict[str, Any]:
        """The log form of ``action`` by ``seat`` in this state (names, not numbers)."""
        if seat == CHANCE:
            event = self.due_chance_event()
            if action != RESHUFFLE:
                event["card"] = self.game.card_names[action]
            return event
        return self._seat_event(action, seat)

    def event_to_action(self, event: dict[str, Any]) -> tuple[int, int]:
        """``(seat, action)`` for a log event (:data:`CHANCE` as the seat of chance events).

        Raises:
            IllegalAction: ``log.malformed-event`` (unknown or missing keys, a seat that is not a
                number) or ``log.unknown-name`` (a card or mission the game does not have).
        """
        if "chance" in event:
            kind = event["chance"]
            if kind == "reshuffle":
                check_keys(event, required=("chance",))
                return CHANCE, RESHUFFLE
            if kind in (DEAL, DRAW):
                check_keys(event, required=("chance", "seat", "card"))
                seat_of(event, self.game.players)
                return CHANCE, self.game.card(event["card"])
            raise IllegalAction(Reason.MALFORMED_EVENT, f"unknown chance event {quoted(kind)} (expected deal, draw or reshuffle)")
        seat = seat_of(event, self.game.players)
        return seat, self._parse_seat_event(event)

    def _seat_event(self, action: int, seat: int) -> dict[str, Any]:
        raise NotImplementedError

    def _parse_seat_event(self, event: dict[str, Any]) -> int:
        raise NotImplementedError

    def check_invariants(self) -> list[str]:
        """Problems found (``[]`` when sound): every card of the mode in exactly one place, each
        with expected-versus-actual counts."""
        seen: dict[int, list[str]] = {}
        for name, cards in self._zones():
            for c in cards:
                seen.setdefault(c, []).append(name)
        problems = [f"{self.game.card_names[c]} is in {len(places)} places: {', '.join(places)}" for c, places in seen.items() if len(places) > 1]
        expected = set(self._cards_in_play())
        missing = sorted(expected - set(seen))
        extra = sorted(set(seen) - expected)
        if missing:
            problems.append(f"{len(missing)} cards are nowhere (expected {len(expected)} cards in play): {', '.join(self.game.card_names[c] for c in missing)}")
        if extra:
            problems.append(f"cards that should not be in play: {', '.join(self.game.card_names[c] for c in extra)}")
        return problems

    def zones_dict(self) -> dict[str, list[str]]:
        """Every non-empty place and its cards by name (the deck sorted: its order is unknown)."""
        names = self.game.card_names
        out = {}
        for name, cards in self._zones():
            if cards:
                out[name] = sorted(names[c] for c in cards) if name == "the draw deck" else [names[c] for c in cards]
        return out


class MissionEmissionView(View):
    """What every mode shows a seat: its own hand, how many cards the others hold, the deck size,
    and every seat's pocket (kept face-up in front of its owner)."""

    __slots__ = ()
    _state: MissionEmissionState
    game: MissionEmissionGame

    @property
    def hand(self) -> list[int]:
        """This seat's cards, sorted."""
        return sorted(self._state.hands[self.seat])

    @property
    def hand_sizes(self) -> list[int]:
        """How many cards each seat holds."""
        return [len(h) for h in self._state.hands]

    @property
    def deck_size(self) -> int:
        """Cards left in the draw deck."""
        return len(self._state.deck) + len(self._state.bottom)

    @property
    def pockets(self) -> list[list[int]]:
        """The cards each seat has won."""
        return [list(p) for p in self._state.pockets]

    @property
    def active(self) -> int:
        """The seat that chose the mission (base, kids) or whose turn it is (strategy)."""
        return self._state.active

    def sample_state(self, rng) -> State:
        """A full state consistent with this seat's view (a determinisation, for search bots): a
        clone in which the cards the seat cannot see -- the other seats' hands and the draw deck,
        whose order no one knows -- are pooled in card order, shuffled with ``rng.random()`` and
        dealt back to the same places in the same numbers.  Everything face-up stays as it is: the
        seat's own hand, pockets, piles and play pile, the base game's set piles, the strategy
        game's centre and closing point cards, the kids game's last round, its tied cards under the
        deck (shown to all when they tied) and the cards drawn from them
        (:meth:`MissionEmissionState.hidden_places`).
        The sample's history is empty: the live one names the hidden deals and draws, and no
        history leads to a sample in general (a seat's view forgets what its owner could recall)."""
        new = self._state.clone()
        places = new.hidden_places(self.seat)
        cards = iter(shuffled(sorted(c for place in places for c in place), rng))
        for place in places:
            place[:] = [next(cards) for _ in place]
        new._pending = {s: a for s, a in new._pending.items() if s == self.seat}
        new.history = []
        return new

    def _common_dict(self) -> dict[str, Any]:
        names = self.game.card_names
        return {"seat": self.seat, "hand": [names[c] for c in self.hand], "hand_sizes": self.hand_sizes,
                "deck_size": self.deck_size, "pockets": [[names[c] for c in p] for p in self._state.pockets]}

"""Mission Emission, kids game (rulebook "KIDS GAME" and its "Mission Directives").

Point cards stay in the box; every seat holds one state card.  The active seat chooses a mission
and every card is shown at once: the highest number of that mission takes all the shown cards into
its owner's pocket ("whoever has the highest number of that Mission gets all the players' cards",
Smoke, Crowd and Garbage included: ``kids_winner: highest``, the default); with ``kids_winner:
better`` the better number as the missions define it wins instead (higher Forest, Energy, Water;
lower Smoke, Crowd, Garbage), a variant.  On a tie nobody takes them: they go under the draw deck
(in an order no one records: when they are drawn again, any card of the earliest tie may come
first, a chance event like any draw).  Everyone draws one card; the next seat clockwise
chooses.  Most cards in the pocket wins.

"If the Draw Deck is finished, the game ends": with ``kids_end: deck`` (the default) the deck is
finished once the cards never drawn cannot give every seat one more, so the tied cards put under
it are not drawn again and every game ends within 36 / players rounds; ``all-cards`` counts the
tied cards too (they come back, and choosers who keep picking a tying mission can loop until the
move bound: 95 of 10,000 five-player greedy games once did).
"""
from __future__ import annotations

from typing import Any

from deckpress.rules.core.errors import IllegalAction, ParameterError, Reason
from deckpress.rules.core.events import check_keys
from deckpress.rules.core.game import CHANCE, TERMINAL
from deckpress.rules.mission_emission.common import (
    MISSION,
    RESHUFFLE,
    MissionEmissionState,
    MissionEmissionView,
)

#: Rounds allowed per state card.  Ties send cards back under the deck, so the kids game has no
#: exact bound: this safety cap lies far above any simulated game, not a rule.
_ROUNDS_PER_CARD = 10


class MissionEmissionKidsState(MissionEmissionState):
    """A kids game in progress.  ``shown`` keeps the last round: mission, the cards shown (active
    seat first) and the winning seat (-1 on a tie)."""

    __slots__ = ("shown", "known")

    def __init__(self, game):
        super().__init__(game)
        self.shown: tuple[int, tuple[int, ...], int] | None = None
        self.known = [False] * game.players  # the seat's card came from the known cards under the deck

    def hidden_places(self, seat: int) -> list[list[int]]:
        """As in every mode, but a card drawn from the tied cards under the deck is known to all
        (:attr:`MissionEmissionKidsView.known_cards`), and those tied cards themselves
        (``bottom``) were shown: they stay."""
        return [hand for s, hand in enumerate(self.hands) if s != seat and not self.known[s]] + [self.deck]

    def _apply(self, action: int, seat: int) -> None:
        if seat == CHANCE and action != RESHUFFLE:
            self.known[self.to_draw[self.draw_i]] = not self.deck
        super()._apply(action, seat)

    def _legal_actions(self, seat: int) -> list[int]:
        return list(range(MISSION, MISSION + self.game.n_missions))

    def _act(self, action: int, seat: int) -> None:
        game = self.game
        m = action - MISSION
        sign = game.sign[m] if game.kids_better else 1
        order = game.clockwise[self.active]
        cards = tuple(self.hands[s].pop() for s in order)
        best, at, tied = None, -1, False
        for i, card in enumerate(cards):
            v = game.values[card][m] * sign
            if best is None or v > best:
                best, at, tied = v, i, False
            elif v == best:
                tied = True
        self.rounds += 1
        self.ties += tied
        if tied and not game.tie_first_played:
            self.bottom.extend(cards)
            self.tied.append(len(cards))
            winner = -1
        else:
            winner = order[at]
            self.pockets[winner].extend(cards)
        self.shown = (m, cards, winner)
        left = len(self.deck) if game.kids_end_on_deck else len(self.deck) + len(self.bottom)
        if left < game.players:
            self.current = TERMINAL
        else:
            self._draw_for(order)

    def _draws_done(self) -> None:
        if self.draw_kind != "deal":
            self.active = self.active + 1 if self.active + 1 < self.game.players else 0
        self.current = self.active

    def returns(self) -> list[float]:
        """Each seat's number of cards in its pocket."""
        return [float(len(p)) for p in self.pockets]

    def tally(self) -> dict[str, int]:
        """Rounds and tied rounds."""
        return {"rounds": self.rounds, "tied rounds": self.ties}

    def view(self, seat: int) -> "MissionEmissionKidsView":
        """What ``seat`` sees."""
        return MissionEmissionKidsView(self, seat)

    def _due_seat(self, seat: int) -> str:
        return f"seat {seat} to choose a mission"

    def _why_illegal_act(self, action: int, seat: int) -> IllegalAction:
        if 0 <= action < self.game.n_cards:
            return IllegalAction(Reason.WRONG_PHASE, "in the kids game a seat only chooses the mission: every card is then shown at once")
        return IllegalAction(Reason.UNKNOWN_ACTION, f"{action} is no action of the kids game")

    def _seat_event(self, action: int, seat: int) -> dict[str, Any]:
        return {"seat": seat, "mission": self.game.mission_names[action - MISSION]}

    def _parse_seat_event(self, event: dict[str, Any]) -> int:
        check_keys(event, required=("seat", "mission"))
        return MISSION + self.game.mission(event["mission"])

    def to_dict(self) -> dict[str, Any]:
        """The whole state with names (for golden files and debugging)."""
        return {"due": self.due(), "active": self.active, "round": self.rounds + 1,
                "last round": _shown_dict(self.game, self.shown), "cards": self.zones_dict()}


class MissionEmissionKidsView(MissionEmissionView):
    """A seat's view of a kids game: its one card, the last round's shown cards, the pockets, and
    the other seats' cards that everyone knows (drawn from the tied cards put under the deck)."""

    __slots__ = ()
    _state: MissionEmissionKidsState

    @property
    def known_cards(self) -> dict[int, int]:
        """Other seats' cards known to all: seat -> card."""
        state = self._state
        return {s: state.hands[s][0] for s in range(self.game.players) if s != self.seat and state.known[s] and state.hands[s]}

    def to_dict(self) -> dict[str, Any]:
        """Everything this seat sees, with names."""
        out = self._common_dict()
        out.update({"active": self.active, "last round": _shown_dict(self.game, self._state.shown),
                    "known cards": {s: self.game.card_names[c] for s, c in self.known_cards.items()}})
        return out


def _shown_dict(game, shown: tuple[int, tuple[int, ...], int] | None) -> dict[str, Any] | None:
    if shown is None:
        return None
    m, cards, winner = shown
    return {"mission": game.mission_names[m], "shown": [game.card_names[c] for c in cards], "taken by": winner if winner >= 0 else None}


def greedy(view: MissionEmissionKidsView, legal: list[int]) -> int:
    """The mission in which its card ranks best among all state cards, avoiding missions where a
    card everyone knows beats it, and above all known ties (which would only send the same cards
    under the deck again)."""
    game = view.game
    rank = game.better_rank if game.kids_better else game.high_rank
    card = view.hand[0]
    known = list(view.known_cards.values())

    def score(action: int) -> tuple[float, int]:
        m = action - MISSION
        sign = game.sign[m] if game.kids_better else 1
        mine = game.values[card][m] * sign
        best_known = max((game.values[c][m] * sign for c in known), default=None)
        penalty = 0 if best_known is None or mine > best_known else 1 if mine < best_known else 2
        return rank[card][m] - penalty, -action

    return max(legal, key=score)


def prepare(game) -> None:
    """Check the parameters against the content.

    Raises:
        ParameterError: a hand of more than one card, or more seats than state cards.
    """
    if game.hand_size != 1:
        raise ParameterError("the kids game is played with one card in each hand: hand_size must be 1")
    if game.players > game.n_states:
        raise ParameterError(f"{game.players} players need more than the {game.n_states} state cards")


def max_length(game) -> int:
    """The deal, then per round a choice and a draw per seat; rounds capped at ``_ROUNDS_PER_CARD``
    per state card."""
    return game.players + _ROUNDS_PER_CARD * game.n_states * (1 + game.players)


def score_range(game) -> tuple[float, float]:
    """From no card to all of them."""
    return 0.0, float(game.n_states)


STATE = MissionEmissionKidsState

"""Mission Emission, strategy game (rulebook "STRATEGY GAME" and its "Mission Directives").

One point card of each mission starts a pile in the centre ("Keep any 1 Point Card of each colour
in the centre": parameter ``centre`` says which, by place in the pile; the top card by default, and
a log records the choice in its parameters); the other point cards are shuffled in with the state cards.  On its turn a seat puts one card on a
pile, then draws one card while the draw deck lasts.  A state card claims an unclaimed pile, and
steals a claimed one when its number is better than every card on the pile: higher for Forest,
Energy and Water, lower for Smoke, Crowd and Garbage (the rulebook's example: Karnataka, Forest
19, is beaten by a Forest number above 19).  A point card closes its own mission's pile: the
seat that claims the pile pockets its state cards.  The second closing removes the pile.  The
game ends when every pile is removed; most state cards in the pocket wins.  Seats without cards
(once the deck is empty) are skipped.
"""
from __future__ import annotations

from typing import Any, Iterator

from deckpress.rules.core.errors import IllegalAction, ParameterError, Reason
from deckpress.rules.core.events import check_keys
from deckpress.rules.core.game import TERMINAL
from deckpress.rules.mission_emission.common import (
    MAX_MISSIONS,
    PLACE,
    MissionEmissionState,
    MissionEmissionView,
)


class MissionEmissionStrategyState(MissionEmissionState):
    """A strategy game in progress.  Per pile ``m``: ``pile_cards[m]`` the state cards on it,
    ``pile_points[m]`` its point cards, ``claim[m]`` the claiming seat (-1: unclaimed) and
    ``best[m]`` the best number on it (times the mission's sign, so larger is better).
    ``placements[card]`` holds the card's actions on the piles still open (rebuilt when a pile is
    removed), so the legal actions of a hand are read off, not computed, on every turn."""

    __slots__ = ("pile_cards", "pile_points", "claim", "best", "closes", "open_piles", "placements", "removed", "steals", "closings")

    def __init__(self, game):
        super().__init__(game)
        self.pile_points = [[card] for card in game.centre_cards]
        self.pile_cards: list[list[int]] = [[] for _ in game.piles]
        self.claim = [-1] * game.n_missions
        self.best = [0] * game.n_missions
        self.closes = [0] * game.n_missions
        self.open_piles = list(range(game.n_missions))
        self.placements = _placements(game, self.open_piles)
        self.removed: list[int] = []
        self.steals = 0
        self.closings = 0

    def _initial_deck(self) -> list[int]:
        centre = set(self.game.centre_cards)
        return [c for c in range(self.game.n_cards) if c not in centre]

    def _legal_actions(self, seat: int) -> list[int]:
        placements = self.placements
        return [action for card in sorted(self.hands[seat]) for action in placements[card]]

    def _act(self, action: int, seat: int) -> None:
        game = self.game
        card, m = divmod(action - PLACE, MAX_MISSIONS)
        self.hands[seat].remove(card)
        if card < game.n_states:
            self.pile_cards[m].append(card)
            value = game.values[card][m] * game.sign[m]
            claimer = self.claim[m]
            if claimer < 0 or value > self.best[m]:
                self.steals += claimer >= 0 and claimer != seat
                self.claim[m] = seat
                self.best[m] = value
        else:
            self._close(m, card)
            if not self.open_piles:
                self.current = TERMINAL
                return
        self.rounds += 1
        if self.deck:
            self._draw_for((seat,))
        else:
            self._next_turn(seat)

    def _close(self, m: int, card: int) -> None:
        """Close pile ``m`` with point card ``card``: its claimer pockets its state cards; the
        pile's last closing (the second, with piles of 3) removes it from the game."""
        claimer = self.claim[m]
        if claimer >= 0:
            self.pockets[claimer].extend(self.pile_cards[m])
            self.closings += 1
            self.pile_cards[m] = []
        self.claim[m] = -1
        self.pile_points[m].append(card)
        self.closes[m] += 1
        if self.closes[m] == self.game.pile_size - 1:
            self.removed.extend(self.pile_points[m])
            self.pile_points[m] = []
            self.open_piles.remove(m)
            self.placements = _placements(self.game, self.open_piles)

    def _next_turn(self, seat: int) -> None:
        """The next seat clockwise that still holds cards (one always does until the end)."""
        n = self.game.players
        while True:
            seat = seat + 1 if seat + 1 < n else 0
            if self.hands[seat]:
                self.active = self.current = seat
                return

    def _draws_done(self) -> None:
        if self.draw_kind == "deal":
            self.current = self.active
        else:
            self._next_turn(self.to_draw[0])

    def returns(self) -> list[float]:
        """Each seat's number of state cards in its pocket."""
        return [float(len(p)) for p in self.pockets]

    def tally(self) -> dict[str, int]:
        """Turns, steals, and closings that gave cards to the claimer."""
        return {"turns": self.rounds, "steals": self.steals, "closings with cards": self.closings}

    def view(self, seat: int) -> "MissionEmissionStrategyView":
        """What ``seat`` sees."""
        return MissionEmissionStrategyView(self, seat)

    def _due_seat(self, seat: int) -> str:
        return f"seat {seat} to put a card on a pile"

    def _why_illegal_act(self, action: int, seat: int) -> IllegalAction:
        game = self.game
        card, m = divmod(action - PLACE, MAX_MISSIONS)
        if action < PLACE or card >= game.n_cards or m >= game.n_missions:
            return IllegalAction(Reason.UNKNOWN_ACTION, f"{action} is no action of the strategy game")
        name, mission = game.card_names[card], game.mission_names[m]
        if card not in self.hands[seat]:
            return IllegalAction(Reason.NOT_IN_HAND, f"{name} is not in seat {seat}'s hand")
        if m not in self.open_piles:
            return IllegalAction(Reason.PILE_CLOSED, f"{mission} pile was closed twice and is out of the game: choose another pile")
        return IllegalAction(Reason.WRONG_PILE, f"{name} closes the {game.mission_names[game.point_mission[card]]} pile only, not {mission}")

    def _seat_event(self, action: int, seat: int) -> dict[str, Any]:
        card, m = divmod(action - PLACE, MAX_MISSIONS)
        event = {"seat": seat, "play": self.game.card_names[card]}
        if card < self.game.n_states:
            event["pile"] = self.game.mission_names[m]
        return event

    def _parse_seat_event(self, event: dict[str, Any]) -> int:
        game = self.game
        check_keys(event, required=("seat", "play"), optional=("pile",))
        card = game.card(event["play"])
        if "pile" in event:
            m = game.mission(event["pile"])
        elif card >= game.n_states:
            m = game.point_mission[card]
        else:
            raise IllegalAction(Reason.MALFORMED_EVENT, f"a state card goes on a pile: write {{seat: {event['seat']}, play: {game.card_names[card]}, pile: <mission>}}")
        return PLACE + card * MAX_MISSIONS + m

    def _zones(self) -> Iterator[tuple[str, list[int]]]:
        yield from super()._zones()
        for m, name in enumerate(self.game.mission_names):
            yield f"the {name} pile", self.pile_cards[m]
            yield f"the {name} pile's point cards", self.pile_points[m]
        yield "out of the game", self.removed

    def _cards_in_play(self) -> list[int]:
        return list(range(self.game.n_cards))

    def to_dict(self) -> dict[str, Any]:
        """The whole state with names (for golden files and debugging)."""
        return {"due": self.due(), "turn": self.rounds + 1, "claims": self._claims(), "cards": self.zones_dict()}

    def _claims(self) -> dict[str, Any]:
        names = self.game.mission_names
        return {names[m]: ("removed" if m not in self.open_piles else self.claim[m] if self.claim[m] >= 0 else None)
                for m in range(self.game.n_missions)}


class MissionEmissionStrategyView(MissionEmissionView):
    """A seat's view of a strategy game: its hand; every pile face-up with its claim and closings;
    pockets (face-up here: the count is what matters)."""

    __slots__ = ()
    _state: MissionEmissionStrategyState

    @property
    def open_piles(self) -> list[int]:
        """Missions whose pile is still in the game."""
        return list(self._state.open_piles)

    def pile_cards(self, m: int) -> list[int]:
        """The state cards on pile ``m``."""
        return list(self._state.pile_cards[m])

    @property
    def claims(self) -> list[int]:
        """Per pile, the claiming seat, or -1."""
        return list(self._state.claim)

    @property
    def best(self) -> list[int]:
        """Per pile, the best number on it times the mission's sign (larger is better)."""
        return list(self._state.best)

    def to_dict(self) -> dict[str, Any]:
        """Everything this seat sees, with names."""
        game = self.game
        names = game.card_names
        out = self._common_dict()
        out.update({"active": self.active, "claims": self._state._claims(),
                    "piles": {game.mission_names[m]: [names[c] for c in self._state.pile_cards[m]] for m in self.open_piles},
                    "closes": {game.mission_names[m]: self._state.closes[m] for m in range(game.n_missions)}})
        return out


def greedy(view: MissionEmissionStrategyView, legal: list[int]) -> int:
    """Close a pile it claims when it holds a point card for it; else claim or steal the pile with
    the most state cards; else add to its own pile; spend the weakest card that does the job and
    avoid closing or feeding other seats' piles."""
    game, seat = view.game, view.seat
    claims, best = view.claims, view.best
    sizes = [len(view.pile_cards(m)) for m in range(game.n_missions)]

    def score(action: int) -> tuple[float, int]:
        card, m = divmod(action - PLACE, MAX_MISSIONS)
        on, claimer = sizes[m], claims[m]
        if card >= game.n_states:
            gain = on if claimer == seat else -on if claimer >= 0 else -0.5
            return gain, -action
        if claimer < 0 or game.values[card][m] * game.sign[m] > best[m]:
            gain = 0.6 * (on + 1) if claimer != seat else 0.2 * (on + 1)
        else:
            gain = 0.3 if claimer == seat else -0.4 * (on + 1)
        return gain - 0.1 * game.better_rank[card][m], -action

    return max(legal, key=score)


def _placements(game, open_piles: list[int]) -> tuple[tuple[int, ...], ...]:
    """Per card, its actions in order: a state card on each open pile, a point card on its own
    mission's pile (rulebook, strategy game: 'a point card closes its own mission's pile').  Built
    once per set of open piles and kept on the game (``prepare``): games share them."""
    key = tuple(open_piles)
    table = game.placements.get(key)
    if table is None:
        table = game.placements[key] = tuple(
            tuple(PLACE + card * MAX_MISSIONS + m for m in open_piles) if card < game.n_states
            else (PLACE + card * MAX_MISSIONS + game.point_mission[card],) for card in range(game.n_cards))
    return table


def prepare(game) -> None:
    """Check the parameters against the content, and start the game's table of legal placements
    per set of open piles (:func:`_placements`).

    Raises:
        ParameterError: more cards dealt than the deck holds, or piles of one card.
    """
    game.placements = {}
    deck = game.n_cards - game.n_missions
    if game.players * game.hand_size > deck:
        raise ParameterError(f"{game.players} players x {game.hand_size} cards is more than the {deck} cards of the strategy deck")
    if game.pile_size < 2:
        raise ParameterError("the strategy game needs at least 2 point cards per mission (one starts the pile, one closes it)")


def max_length(game) -> int:
    """Every card of the deck is dealt or drawn once and played once: an exact bound."""
    return 2 * (game.n_cards - game.n_missions)


def score_range(game) -> tuple[float, float]:
    """From no state card to all of them."""
    return 0.0, float(game.n_states)


STATE = MissionEmissionStrategyState

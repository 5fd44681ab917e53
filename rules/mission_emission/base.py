"""Mission Emission, base game (rulebook "BASE GAME" and its "Mission Directives").

Each round the active seat chooses a mission whose point pile is not finished; then every seat,
the active one first and going clockwise, plays one card face-up to the play pile.  The highest
number of the chosen mission takes the top point card of that pile -- also for Smoke, Crowd and
Garbage, whose point cards are worth negative points (the rulebook's tips: play low numbers
there).  A tie gives nothing.  Everyone draws back to a full hand (clockwise from the active
seat); an empty draw deck is replaced by the shuffled play pile.  The next seat clockwise is
active next, whoever won.  The game ends as soon as ``piles_to_end`` piles (4) are finished;
the highest total of points wins.
"""
from __future__ import annotations

from typing import Any, Iterator

from rules.core.errors import IllegalAction, ParameterError, Reason
from rules.core.game import TERMINAL
from rules.mission_emission.common import MISSION, MissionEmissionState, MissionEmissionView, check_keys

_CHOOSE, _PLAY = 0, 1
_NO_VALUE = -(10 ** 9)
#: Rounds allowed per point card a game can need.  Ties repeat rounds, so the base game has no
#: exact bound: this safety cap lies far above any simulated game (see the length percentiles).
_ROUNDS_PER_AWARD = 10


class MissionEmissionBaseState(MissionEmissionState):
    """A base game in progress.  ``piles[m]`` holds mission ``m``'s point cards with the top card
    last; ``played`` the cards of the round, the active seat's first."""

    __slots__ = ("phase", "mission", "played", "play_pile", "piles", "open_missions", "finished", "scores")

    def __init__(self, game):
        super().__init__(game)
        self.phase = _CHOOSE
        self.mission = -1
        self.played: list[int] = []
        self.play_pile: list[int] = []
        self.piles = [pile[::-1] for pile in game.piles]
        self.open_missions = [MISSION + m for m in range(game.n_missions)]
        self.finished = 0
        self.scores = [0] * game.players

    def _legal_actions(self, seat: int) -> list[int]:
        if self.phase == _CHOOSE:
            return self.open_missions[:]
        return sorted(self.hands[seat])

    def _act(self, action: int, seat: int) -> None:
        if self.phase == _CHOOSE:
            self.mission = action - MISSION
            self.phase = _PLAY
            return
        self.hands[seat].remove(action)
        self.played.append(action)
        self.play_pile.append(action)
        following = seat + 1 if seat + 1 < self.game.players else 0
        if following == self.active:
            self._end_round()
        else:
            self.current = following

    def _end_round(self) -> None:
        """Award the top point card to the highest number (none on a tie), then draw or end."""
        game, m = self.game, self.mission
        values = game.values
        best, at, tied = _NO_VALUE, -1, False
        for i, card in enumerate(self.played):
            v = values[card][m]
            if v > best:
                best, at, tied = v, i, False
            elif v == best:
                tied = True
        self.rounds += 1
        self.ties += tied
        if not tied or game.tie_first_played:
            winner = game.clockwise[self.active][at]
            pile = self.piles[m]
            card = pile.pop()
            self.pockets[winner].append(card)
            self.scores[winner] += game.point_value[card]
            if not pile:
                self.finished += 1
                self.open_missions.remove(MISSION + m)
                if self.finished >= game.piles_to_end:
                    self.current = TERMINAL
                    return
        self._draw_for(game.clockwise[self.active])

    def _draws_done(self) -> None:
        if self.draw_kind != "deal":
            self.active = self.active + 1 if self.active + 1 < self.game.players else 0
        self.played = []
        self.mission = -1
        self.phase = _CHOOSE
        self.current = self.active

    def _reshuffle(self) -> None:
        self.deck = self.play_pile
        self.play_pile = []

    def returns(self) -> list[float]:
        """Each seat's total of points on the point cards in its pocket."""
        return [float(s) for s in self.scores]

    def tally(self) -> dict[str, int]:
        """``won: <point card>`` for each point card won, and the rounds and tied rounds."""
        names = self.game.card_names
        counts = {f"won: {names[c]}": 1 for pocket in self.pockets for c in pocket}
        counts.update({"rounds": self.rounds, "tied rounds": self.ties})
        return counts

    def view(self, seat: int) -> "MissionEmissionBaseView":
        """What ``seat`` sees."""
        return MissionEmissionBaseView(self, seat)

    def _due_seat(self, seat: int) -> str:
        if self.phase == _CHOOSE:
            return f"seat {seat} to choose a mission"
        return f"seat {seat} to play a card for {self.game.mission_names[self.mission]}"

    def _why_illegal_act(self, action: int, seat: int) -> IllegalAction:
        game = self.game
        if self.phase == _CHOOSE:
            if MISSION <= action < MISSION + game.n_missions:
                return IllegalAction(Reason.PILE_CLOSED, f"{game.mission_names[action - MISSION]} pile is finished: choose another mission")
            if 0 <= action < game.n_cards:
                return IllegalAction(Reason.WRONG_PHASE, f"seat {seat} chooses the mission first, then plays a card")
        else:
            if 0 <= action < game.n_states:
                return IllegalAction(Reason.NOT_IN_HAND, f"{game.card_names[action]} is not in seat {seat}'s hand")
            if game.n_states <= action < game.n_cards:
                return IllegalAction(Reason.NOT_IN_HAND, f"{game.card_names[action]} is a point card: only state cards are played")
            if MISSION <= action < MISSION + game.n_missions:
                return IllegalAction(Reason.WRONG_PHASE, f"the mission of this round is already chosen ({game.mission_names[self.mission]}): "
                                                         f"seat {seat} plays a card")
        return IllegalAction(Reason.UNKNOWN_ACTION, f"{action} is no action of the base game")

    def _seat_event(self, action: int, seat: int) -> dict[str, Any]:
        if action >= MISSION:
            return {"seat": seat, "mission": self.game.mission_names[action - MISSION]}
        return {"seat": seat, "play": self.game.card_names[action]}

    def _parse_seat_event(self, event: dict[str, Any]) -> int:
        if "mission" in event:
            check_keys(event, required=("seat", "mission"))
            return MISSION + self.game.mission(event["mission"])
        if "play" in event:
            check_keys(event, required=("seat", "play"))
            return self.game.card(event["play"])
        raise IllegalAction(Reason.MALFORMED_EVENT, "a seat's event is {seat: N, mission: MISSION} or {seat: N, play: CARD}; "
                                                    f"this one has {', '.join(map(str, event))}")

    def _zones(self) -> Iterator[tuple[str, list[int]]]:
        yield from super()._zones()
        yield "the play pile", self.play_pile
        for m, pile in enumerate(self.piles):
            yield f"the {self.game.mission_names[m]} pile", pile

    def _cards_in_play(self) -> list[int]:
        return list(range(self.game.n_cards))

    def to_dict(self) -> dict[str, Any]:
        """The whole state with names (for golden files and debugging)."""
        game = self.game
        return {"due": self.due(), "active": self.active, "round": self.rounds + 1,
                "mission": game.mission_names[self.mission] if self.mission >= 0 else None,
                "played": [game.card_names[c] for c in self.played], "scores": self.scores,
                "finished piles": self.finished, "cards": self.zones_dict()}


class MissionEmissionBaseView(MissionEmissionView):
    """A seat's view of a base game: its hand; the round's mission and played cards; the play pile,
    the point piles and every pocket (all face-up); the scores."""

    __slots__ = ()

    @property
    def mission(self) -> int:
        """The mission of this round, or -1 before it is chosen."""
        return self._state.mission

    @property
    def played(self) -> list[tuple[int, int]]:
        """``(seat, card)`` for each card played this round, in order."""
        order = self.game.clockwise[self._state.active]
        return [(order[i], c) for i, c in enumerate(self._state.played)]

    @property
    def top_points(self) -> list[int | None]:
        """Per mission: the points of the card on top of its pile, or None once it is finished."""
        value = self.game.point_value
        return [value[p[-1]] if p else None for p in self._state.piles]

    @property
    def scores(self) -> list[int]:
        """Every seat's points so far."""
        return list(self._state.scores)

    def to_dict(self) -> dict[str, Any]:
        """Everything this seat sees, with names."""
        game = self.game
        names = game.card_names
        out = self._common_dict()
        out.update({
            "active": self.active,
            "mission": game.mission_names[self.mission] if self.mission >= 0 else None,
            "played": [{"seat": s, "card": names[c]} for s, c in self.played],
            "play_pile": [names[c] for c in self._state.play_pile],
            "piles": {game.mission_names[m]: [names[c] for c in reversed(p)] for m, p in enumerate(self._state.piles)},
            "scores": self.scores,
        })
        return out


def greedy(view: MissionEmissionBaseView, legal: list[int]) -> int:
    """Choose the open mission with the best expected points for this hand.  On a pile worth
    points, play the cheapest card that beats the round so far and is likely to hold against the
    seats still to play (an even chance or better, by its rank among all state cards), else the
    overall weakest card; on a pile worth negative points play the lowest number (the last seat,
    already beaten, dumps its weakest card instead)."""
    game = view.game
    hand = view.hand
    top = view.top_points
    if view.mission < 0:
        def expected(action: int) -> tuple[float, int]:
            m = action - MISSION
            ranks = [game.high_rank[c][m] for c in hand]
            chance = (max(ranks) if top[m] > 0 else min(ranks)) ** (game.players - 1)
            return top[m] * chance, -action
        return max(legal, key=expected)
    m = view.mission
    values = game.values
    played = view.played
    beaten = max((values[c][m] for _, c in played), default=_NO_VALUE)
    following = game.players - 1 - len(played)
    if top[m] > 0:
        winning = [c for c in legal if values[c][m] > beaten and game.high_rank[c][m] ** following >= 0.5]
        if winning:
            return min(winning, key=lambda c: (values[c][m], c))
        return min(legal, key=lambda c: (game.strength[c], c))
    safe = [c for c in legal if values[c][m] < beaten] if following == 0 else []
    if safe:
        return min(safe, key=lambda c: (game.strength[c], c))
    return min(legal, key=lambda c: (values[c][m], c))


def prepare(game) -> None:
    """Check the parameters against the content and precompute the greedy bot's card strength.

    Raises:
        ParameterError: more cards dealt than state cards, or more piles to finish than missions.
    """
    if game.players * game.hand_size > game.n_states:
        raise ParameterError(f"{game.players} players x {game.hand_size} cards is more than the {game.n_states} state cards")
    if game.piles_to_end > game.n_missions:
        raise ParameterError(f"parameter 'piles_to_end': {game.piles_to_end} is more than the {game.n_missions} missions")
    positive = [m for m in range(game.n_missions) if game.point_value[game.piles[m][0]] > 0]
    game.strength = [sum(game.high_rank[c][m] for m in positive) for c in range(game.n_states)]


def max_length(game) -> int:
    """Deal, then per round: a choice, a card per seat, a draw per seat and at most one reshuffle;
    rounds capped at ``_ROUNDS_PER_AWARD`` per point card the game can need."""
    k, size, piles = game.piles_to_end, game.pile_size, game.n_missions
    most_awards = (k - 1) * size + (piles - k + 1) * (size - 1) + 1
    return game.players * game.hand_size + _ROUNDS_PER_AWARD * most_awards * (2 * game.players + 2)


def score_range(game) -> tuple[float, float]:
    """All negative point cards to all positive ones."""
    values = [game.point_value[c] for pile in game.piles for c in pile]
    return float(sum(v for v in values if v < 0)), float(sum(v for v in values if v > 0))


STATE = MissionEmissionBaseState

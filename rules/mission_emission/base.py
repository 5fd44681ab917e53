"""Mission Emission, base game (rulebook "BASE GAME" and its "Mission Directives").

Each round the active seat chooses a mission whose point pile is not finished; then every seat,
the active one first and going clockwise, plays one card face-up to the play pile.  The highest
number of the chosen mission takes the top point card of that pile -- also for Smoke, Crowd and
Garbage, whose point cards are worth negative points (the rulebook's tips: play low numbers
there).  A tie gives nothing.  Everyone draws back to a full hand (clockwise from the active
seat); an empty draw deck is replaced by the shuffled play pile.  The next seat clockwise is
active next, whoever won.  The game ends as soon as ``piles_to_end`` piles (4) are finished;
the highest total of points wins.

Set collection (parameter ``set_collection``, ruleset ``set-collection``; the publisher's
alternative rule by Sidhant Chand, nightingame.com "Mission Emission Rules | With Set
Collection").  Instead of playing its card a seat other than the round's first may keep it in
its set pile, which holds one colour at a time: keeping another colour discards the pile to the
play pile, out of the round.  The third card of a colour discards the set at once and takes the
top point card of that colour's mission pile (none when it is finished); a positive one goes to
the seat's pocket, a negative one to an opponent of its choice (a decision of its own, before
the round goes on).  The round is awarded among the cards played, and not at all when a set
finished the chosen pile.  When a set finishes the last pile needed to end the game, the round
is still played out and the game ends after it (the publisher's own ruling for the same case in
its "Double Trouble" variant).  The readings made are listed in ``docs/game-logs.md``.
"""
from __future__ import annotations

from typing import Any, Iterator

from deckpress.rules.core.errors import IllegalAction, ParameterError, Reason
from deckpress.rules.core.events import check_keys, seat_of
from deckpress.rules.core.game import TERMINAL
from deckpress.rules.mission_emission.common import (
    GIVE,
    KEEP,
    MAX_SEATS,
    MISSION,
    MissionEmissionState,
    MissionEmissionView,
)

_CHOOSE, _PLAY, _GIVE = 0, 1, 2
#: Cards of one colour that make a set (set collection: three cards of a colour earn a point card).
SET_SIZE = 3
_NO_VALUE = -(10 ** 9)
#: Rounds allowed per point card a game can need.  Ties repeat rounds, so the base game has no
#: exact bound: this safety cap lies far above any simulated game (see the length percentiles).
_ROUNDS_PER_AWARD = 10


class MissionEmissionBaseState(MissionEmissionState):
    """A base game in progress.  ``piles[m]`` holds mission ``m``'s point cards with the top card
    last; ``played`` the cards of the round, the active seat's first, and ``played_by`` their
    seats.  Set collection: ``set_piles[s]`` is seat ``s``'s set pile, ``to_give`` the negative
    point card a seat is about to give (empty, or one card)."""

    __slots__ = ("phase", "mission", "played", "played_by", "play_pile", "piles", "open_missions", "finished", "scores",
                 "set_piles", "to_give", "kept", "discarded", "sets", "sets_unpaid", "given")

    def __init__(self, game):
        super().__init__(game)
        self.phase = _CHOOSE
        self.mission = -1
        self.played: list[int] = []
        self.played_by: list[int] = []
        self.play_pile: list[int] = []
        self.piles = [pile[::-1] for pile in game.piles]
        self.open_missions = [MISSION + m for m in range(game.n_missions)]
        self.finished = 0
        self.scores = [0] * game.players
        self.set_piles: list[list[int]] = [[] for _ in range(game.players)]
        self.to_give: list[int] = []
        self.kept = self.discarded = self.sets = self.sets_unpaid = self.given = 0

    def _legal_actions(self, seat: int) -> list[int]:
        phase = self.phase
        if phase == _CHOOSE:
            return self.open_missions[:]
        if phase == _PLAY:
            hand = sorted(self.hands[seat])
            if self.game.set_collection and seat != self.active:
                return hand + [KEEP + c for c in hand]
            return hand
        base = GIVE + self.to_give[0] * MAX_SEATS
        return [base + s for s in range(self.game.players) if s != seat]

    def _act(self, action: int, seat: int) -> None:
        if self.phase == _CHOOSE:
            self.mission = action - MISSION
            self.phase = _PLAY
            return
        if action < MISSION:
            self.hands[seat].remove(action)
            self.played.append(action)
            self.played_by.append(seat)
            self.play_pile.append(action)
        elif action < GIVE:
            if self._keep(action - KEEP, seat):
                return  # the seat gives the negative point card it took before the round goes on
        else:
            card, to = divmod(action - GIVE, MAX_SEATS)
            self.to_give.clear()
            self._pocket(to, card)
            self.given += 1
            self.phase = _PLAY
        following = seat + 1 if seat + 1 < self.game.players else 0
        if following == self.active:
            self._end_round()
        else:
            self.current = following

    def _keep(self, card: int, seat: int) -> bool:
        """Set collection: ``seat`` keeps ``card`` in its set pile instead of playing it.  A pile of
        another colour is discarded to the play pile first (out of the round); the third card of
        a colour discards the set and takes that colour's top point card, if its pile is not
        finished.  True when that card is negative and the seat must now give it to an opponent."""
        game = self.game
        self.hands[seat].remove(card)
        self.kept += 1
        pile = self.set_piles[seat]
        colour = game.colour[card]
        if pile and game.colour[pile[0]] != colour:
            self.play_pile.extend(pile)
            self.discarded += len(pile)
            pile.clear()
        pile.append(card)
        if len(pile) < SET_SIZE:
            return False
        self.play_pile.extend(pile)
        pile.clear()
        self.sets += 1
        if not self.piles[colour]:
            self.sets_unpaid += 1
            return False
        point = self._take_point(colour)
        if game.point_value[point] < 0:
            self.to_give.append(point)
            self.phase = _GIVE
            return True
        self._pocket(seat, point)
        return False

    def _take_point(self, m: int) -> int:
        """The top point card of mission ``m``'s pile, off the pile (finishing it when it was the last)."""
        pile = self.piles[m]
        card = pile.pop()
        if not pile:
            self.finished += 1
            self.open_missions.remove(MISSION + m)
        return card

    def _pocket(self, seat: int, card: int) -> None:
        self.pockets[seat].append(card)
        self.scores[seat] += self.game.point_value[card]

    def _end_round(self) -> None:
        """Award the top point card to the highest number played (none on a tie, none when a set
        finished the pile this round), then draw, or end the game once ``piles_to_end`` piles are
        finished (with set collection a set may finish the last of them earlier in the round: the
        round is played out first)."""
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
        if (not tied or game.tie_first_played) and self.piles[m]:
            self._pocket(self.played_by[at], self._take_point(m))
        if self.finished >= game.piles_to_end:
            self.current = TERMINAL
            return
        self._draw_for(game.clockwise[self.active])

    def _draws_done(self) -> None:
        if self.draw_kind != "deal":
            self.active = self.active + 1 if self.active + 1 < self.game.players else 0
        self.played = []
        self.played_by = []
        self.mission = -1
        self.phase = _CHOOSE
        self.current = self.active

    def _reshuffle(self) -> None:
        self.deck = self.play_pile
        self.play_pile = []

    def _reshuffle_when_empty(self) -> bool:
        return self.game.reshuffle_when_empty and bool(self.play_pile)

    def returns(self) -> list[float]:
        """Each seat's total of points on the point cards in its pocket."""
        return [float(s) for s in self.scores]

    def tally(self) -> dict[str, int]:
        """``won: <point card>`` for each point card won (or, with set collection, given), the
        rounds and tied rounds; with set collection also the cards kept, the set cards discarded
        for another colour, the sets completed, those that found their pile finished, and the
        negative point cards given."""
        names = self.game.card_names
        counts = {f"won: {names[c]}": 1 for pocket in self.pockets for c in pocket}
        counts.update({"rounds": self.rounds, "tied rounds": self.ties})
        if self.game.set_collection:
            counts.update({"cards kept in set piles": self.kept, "set cards discarded for another colour": self.discarded,
                           "sets completed": self.sets, "sets completed after their pile was finished": self.sets_unpaid,
                           "negative point cards given": self.given})
        return counts

    def view(self, seat: int) -> "MissionEmissionBaseView":
        """What ``seat`` sees."""
        return MissionEmissionBaseView(self, seat)

    def _due_seat(self, seat: int) -> str:
        if self.phase == _CHOOSE:
            return f"seat {seat} to choose a mission"
        if self.phase == _GIVE:
            return f"seat {seat} to give {self.game.card_names[self.to_give[0]]} to an opponent"
        keep = " or keep one in its set pile" if self.game.set_collection and seat != self.active else ""
        return f"seat {seat} to play a card for {self.game.mission_names[self.mission]}{keep}"

    def _why_illegal_act(self, action: int, seat: int) -> IllegalAction:
        game = self.game
        if KEEP <= action < KEEP + game.n_cards or GIVE <= action < GIVE + game.n_cards * MAX_SEATS:
            return self._why_illegal_set_action(action, seat)
        if self.phase == _GIVE:
            return IllegalAction(Reason.WRONG_PHASE, f"seat {seat} first gives {game.card_names[self.to_give[0]]} to an opponent")
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

    def _why_illegal_set_action(self, action: int, seat: int) -> IllegalAction:
        """Why a keep or a give is refused: set collection off, the wrong moment, the round's first
        player keeping, a card not held, or a point card given to no opponent."""
        game = self.game
        keep = action < GIVE
        card, to = (action - KEEP, -1) if keep else divmod(action - GIVE, MAX_SEATS)
        name = game.card_names[card]
        if not game.set_collection:
            what = "keeping a card in a set pile" if keep else "giving a point card to an opponent"
            return IllegalAction(Reason.UNKNOWN_ACTION, f"{what} belongs to the 'Set collection' variant, which is off in this game "
                                                        "(parameter set_collection, ruleset set-collection)")
        if keep:
            if self.phase == _CHOOSE:
                return IllegalAction(Reason.WRONG_PHASE, f"seat {seat} chooses the mission first, then plays a card")
            if self.phase == _GIVE:
                return IllegalAction(Reason.WRONG_PHASE, f"seat {seat} first gives {game.card_names[self.to_give[0]]} to an opponent")
            if seat == self.active:
                return IllegalAction(Reason.WRONG_PHASE, f"seat {seat} chose this round's mission: the first player of a round "
                                                         "plays a card to the play pile and cannot keep one in its set pile")
            if card >= game.n_states:
                return IllegalAction(Reason.NOT_IN_HAND, f"{name} is a point card: only state cards are kept")
            return IllegalAction(Reason.NOT_IN_HAND, f"{name} is not in seat {seat}'s hand")
        if self.phase != _GIVE:
            return IllegalAction(Reason.WRONG_PHASE, f"seat {seat} has no point card to give: "
                                                     "only a set of a negative mission's colour gives one")
        if card != self.to_give[0]:
            return IllegalAction(Reason.NOT_IN_HAND, f"seat {seat} gives {game.card_names[self.to_give[0]]}, not {name}")
        if to >= game.players:
            return IllegalAction(Reason.NO_SUCH_SEAT, f"there is no seat {to}: seats are 0 to {game.players - 1}")
        return IllegalAction(Reason.UNKNOWN_ACTION, f"seat {seat} cannot keep {name}: a negative point card from a set goes to an opponent")

    def _seat_event(self, action: int, seat: int) -> dict[str, Any]:
        names = self.game.card_names
        if action < MISSION:
            return {"seat": seat, "play": names[action]}
        if action < KEEP:
            return {"seat": seat, "mission": self.game.mission_names[action - MISSION]}
        if action < GIVE:
            return {"seat": seat, "keep": names[action - KEEP]}
        card, to = divmod(action - GIVE, MAX_SEATS)
        return {"seat": seat, "give": names[card], "to": to}

    def _parse_seat_event(self, event: dict[str, Any]) -> int:
        game = self.game
        if "mission" in event:
            check_keys(event, required=("seat", "mission"))
            return MISSION + game.mission(event["mission"])
        if "play" in event:
            check_keys(event, required=("seat", "play"))
            return game.card(event["play"])
        if "keep" in event:
            check_keys(event, required=("seat", "keep"))
            return KEEP + game.card(event["keep"])
        if "give" in event:
            check_keys(event, required=("seat", "give", "to"))
            return GIVE + game.card(event["give"]) * MAX_SEATS + seat_of(event, game.players, "to")
        forms = "{seat: N, mission: MISSION} or {seat: N, play: CARD}"
        if game.set_collection:
            forms = "{seat: N, mission: MISSION}, {seat: N, play: CARD}, {seat: N, keep: CARD} or {seat: N, give: POINT CARD, to: SEAT}"
        raise IllegalAction(Reason.MALFORMED_EVENT, f"a seat's event is {forms}; this one has {', '.join(map(str, event))}")

    def _zones(self) -> Iterator[tuple[str, list[int]]]:
        yield from super()._zones()
        yield "the play pile", self.play_pile
        for m, pile in enumerate(self.piles):
            yield f"the {self.game.mission_names[m]} pile", pile
        for s, pile in enumerate(self.set_piles):
            yield f"seat {s}'s set pile", pile
        yield "the point card being given", self.to_give

    def check_invariants(self) -> list[str]:
        """Every card in exactly one place (set piles included), and every set pile of one colour
        and short of a set."""
        problems = super().check_invariants()
        game = self.game
        for s, pile in enumerate(self.set_piles):
            colours = {game.mission_names[game.colour[c]] for c in pile}
            if len(colours) > 1 or len(pile) >= SET_SIZE:
                problems.append(f"seat {s}'s set pile holds {len(pile)} cards of {', '.join(sorted(colours))}: "
                                f"expected fewer than {SET_SIZE} cards of one colour")
        if bool(self.to_give) != (self.phase == _GIVE):
            problems.append(f"{len(self.to_give)} point cards are being given, but {self.due()}")
        return problems

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
    the point piles and every pocket (all face-up); the scores; with set collection every seat's
    set pile (face-up in front of its owner) and the point card being given."""

    __slots__ = ()
    _state: MissionEmissionBaseState

    @property
    def mission(self) -> int:
        """The mission of this round, or -1 before it is chosen."""
        return self._state.mission

    @property
    def played(self) -> list[tuple[int, int]]:
        """``(seat, card)`` for each card played this round, in order (cards kept are not played)."""
        return list(zip(self._state.played_by, self._state.played))

    @property
    def set_piles(self) -> list[list[int]]:
        """Set collection: every seat's set pile, oldest card first."""
        return [list(p) for p in self._state.set_piles]

    @property
    def giving(self) -> int:
        """Set collection: the negative point card the seat due is giving to an opponent, or -1."""
        return self._state.to_give[0] if self._state.to_give else -1

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
        if game.set_collection:
            out["set_piles"] = [[names[c] for c in p] for p in self._state.set_piles]
            out["giving"] = names[self.giving] if self.giving >= 0 else None
        return out


def greedy(view: MissionEmissionBaseView, legal: list[int]) -> int:
    """Choose the open mission with the best expected points for this hand.  On a pile worth
    points, play the cheapest card that beats the round so far and is likely to hold against the
    seats still to play (an even chance or better, by its rank among all state cards), else the
    overall weakest card; on a pile worth negative points play the lowest number (the last seat,
    already beaten, dumps its weakest card instead).  With set collection: see :func:`_greedy_keep`;
    a negative point card goes to the opponent with the most points (the lowest seat on a tie)."""
    game = view.game
    hand = view.hand
    top = view.top_points
    if legal[0] >= GIVE:
        scores = view.scores
        return max(legal, key=lambda a: (scores[(a - GIVE) % MAX_SEATS], -a))
    if view.mission < 0:
        def expected(action: int) -> tuple[float, int]:
            m = action - MISSION
            points = top[m]
            assert points is not None, "a mission is open to choose only while its pile holds a point card"
            ranks = [game.high_rank[c][m] for c in hand]
            chance = (max(ranks) if points > 0 else min(ranks)) ** (game.players - 1)
            return points * chance, -action
        return max(legal, key=expected)
    cards = [a for a in legal if a < MISSION] if game.set_collection else legal
    card, contesting = _greedy_play(view, cards)
    if len(cards) < len(legal):
        keep = _greedy_keep(view, cards, card, contesting)
        if keep is not None:
            return keep
    return card


def _greedy_play(view: MissionEmissionBaseView, cards: list[int]) -> tuple[int, bool]:
    """The greedy card to play, and whether it is played to win a pile worth points."""
    game = view.game
    m = view.mission
    top = view.top_points[m]
    values = game.values
    beaten = max((values[c][m] for _, c in view.played), default=_NO_VALUE)
    following = (view.active - view.seat - 1) % game.players
    if top is None:  # set collection: a set finished this pile during the round, nothing to win
        return min(cards, key=lambda c: (game.strength[c], c)), False
    if top > 0:
        winning = [c for c in cards if values[c][m] > beaten and game.high_rank[c][m] ** following >= 0.5]
        if winning:
            return min(winning, key=lambda c: (values[c][m], c)), True
        return min(cards, key=lambda c: (game.strength[c], c)), False
    safe = [c for c in cards if values[c][m] < beaten] if following == 0 else []
    if safe:
        return min(safe, key=lambda c: (game.strength[c], c)), False
    return min(cards, key=lambda c: (values[c][m], c)), False


def _greedy_keep(view: MissionEmissionBaseView, cards: list[int], card: int, contesting: bool) -> int | None:
    """Set collection: the card to keep, or None to play ``card``.  Complete a set when its point
    card is worth more than the round given up (a negative one counts half its size: it goes to
    the leader); otherwise, when ``card`` is not played to win, keep it instead if its colour's
    pile is open and keeping it discards at most one card of another colour (a card that cannot
    win is worth more towards a set than on the play pile)."""
    game = view.game
    top = view.top_points
    pile = view.set_piles[view.seat]
    colour = game.colour[pile[0]] if pile else -1
    set_points, contested = top[colour], top[view.mission]
    if len(pile) == SET_SIZE - 1 and set_points is not None:
        same = [c for c in cards if game.colour[c] == colour]
        gain = set_points if set_points > 0 else -set_points / 2
        # a pile contested is one worth points (_greedy_play), so it has its point card
        if same and (not contesting or (contested is not None and gain >= contested)):
            return KEEP + min(same, key=lambda c: (game.strength[c], c))
    if contesting or top[game.colour[card]] is None:
        return None
    return KEEP + card if len(pile) <= 1 or game.colour[card] == colour else None


def prepare(game) -> None:
    """Check the parameters against the content and precompute the greedy bot's card strength.

    Raises:
        ParameterError: more cards dealt than state cards, more piles to finish than missions, or
            (set collection) too few state cards for every seat to draw while the set piles hold
            up to ``SET_SIZE - 1`` cards each.
    """
    if game.players * game.hand_size > game.n_states:
        raise ParameterError(f"{game.players} players x {game.hand_size} cards is more than the {game.n_states} state cards")
    if game.set_collection and game.players * (game.hand_size + SET_SIZE - 1) > game.n_states:
        raise ParameterError(f"set collection: {game.players} players x ({game.hand_size} cards in hand + {SET_SIZE - 1} in a set pile) "
                             f"is more than the {game.n_states} state cards: the draw deck could run dry with every other card held")
    if game.piles_to_end > game.n_missions:
        raise ParameterError(f"parameter 'piles_to_end': {game.piles_to_end} is more than the {game.n_missions} missions")
    positive = [m for m in range(game.n_missions) if game.point_value[game.piles[m][0]] > 0]
    game.strength = [sum(game.high_rank[c][m] for m in positive) for c in range(game.n_states)]


def max_length(game) -> int:
    """Deal, then per round: a choice, a card per seat, a draw per seat and at most one reshuffle
    (with set collection also a give per seat after the first); rounds capped at
    ``_ROUNDS_PER_AWARD`` per point card the game can need."""
    k, size, piles = game.piles_to_end, game.pile_size, game.n_missions
    most_awards = (k - 1) * size + (piles - k + 1) * (size - 1) + 1
    per_round = 2 * game.players + 2 + (game.players - 1 if game.set_collection else 0)
    return game.players * game.hand_size + _ROUNDS_PER_AWARD * most_awards * per_round


def score_range(game) -> tuple[float, float]:
    """All negative point cards to all positive ones."""
    values = [game.point_value[c] for pile in game.piles for c in pile]
    return float(sum(v for v in values if v < 0)), float(sum(v for v in values if v > 0))


STATE = MissionEmissionBaseState

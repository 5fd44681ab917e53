"""50 Missions: the state of a game in progress (setup, turns, missions, medals, the reshuffle
past gold, the end), what a seat sees of it, and its log events.  The rules and their readings are
in the package's docstring (``rules/fifty_missions/__init__.py``)."""
from __future__ import annotations

from collections import Counter
from math import comb
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from deckpress.generator.content.fifty_missions import MISSION_ROW
from deckpress.generator.content.fifty_missions_conditions import DISPLAY_SIZE
from deckpress.generator.content.safetext import quoted
from deckpress.rules.core.errors import IllegalAction, Reason
from deckpress.rules.core.events import check_keys, index_of, seat_of
from deckpress.rules.core.game import ANY, CHANCE, TERMINAL, State, View, shuffled
from deckpress.rules.fifty_missions.completions import SLOTS_IN

if TYPE_CHECKING:
    from deckpress.rules.fifty_missions import FiftyMissionsGame

#: Face-up symbol cards, and the missions above them: one slot each.
SLOTS = DISPLAY_SIZE
assert MISSION_ROW == SLOTS, "one mission above each face-up card"
MISSION = 1000  # chance outcome: MISSION + m draws mission m
RESHUFFLE = 999  # chance outcome: the covered cards go back into the deck (past gold)
_MISSION, _FACE_UP, _DEAL, _DRAW, _RESHUFFLE = "mission", "face-up", "deal", "draw", "reshuffle"
_ALL_SLOTS = (1 << SLOTS) - 1  # every slot, one bit each
_TO_HAND = frozenset((_DEAL, _DRAW))  # the chance events that give a seat a card
_SYMBOL_CARD = _TO_HAND | {_FACE_UP}  # the chance events that draw a symbol card


class FiftyMissionsState(State):
    """A game in progress.

    ``piles[j]`` holds slot ``j``'s symbol cards, the face-up one last; ``missions[j]`` the mission
    above it (-1: none, the mission deck ran out); ``deck`` and ``mission_deck`` the cards left, in
    no order (every card drawn is a chance event naming it), bytearrays of card kinds and mission
    numbers: finding and removing the card a chance event names is then a search of bytes, not a
    comparison of numbers one by one (the game has at most 256 of each).  ``queue`` lists the
    chance events due, the next one last.  ``drawn`` counts the missions drawn after the first row
    (the medals' places count these).  ``turn`` is the seat to play (standard) or the seat that
    played last (crazy).

    Kept up to date as cards are turned up and covered, because every move asks for them:
    ``face_up``, the top of each pile (-1 before the setup turns it up); ``open_slots``, byte ``k``
    the slots whose face-up card card ``k`` may cover (bit ``j``: slot ``j``; the bytes of
    ``cover_sum``, the sum of the game's ``cover_bits`` over the face-up cards), so that a seat's
    legal plays are read off the bytes of its cards; and ``unchecked``, the slots whose mission was
    not checked against the face-up row yet (bit ``j``: slot ``j``): every slot after the row
    changed, the new mission's slot after a mission is drawn (the others were checked against the
    same row).
    """

    __slots__ = ("hands", "deck", "piles", "missions", "mission_deck", "drawn", "medals", "completed", "queue",
                 "turn", "played", "refill", "reshuffled", "plays", "unchecked", "vacated", "face_up", "open_slots",
                 "cover_sum")
    game: FiftyMissionsGame

    def __init__(self, game: "FiftyMissionsGame"):
        super().__init__(game)
        self.hands: list[list[int]] = [[] for _ in range(game.players)]
        self.deck = bytearray(sorted(list(range(game.n_kinds)) * game.copies))  # every copy of each kind, kinds rising
        self.piles: list[list[int]] = [[] for _ in range(SLOTS)]
        self.missions = [-1] * SLOTS
        self.mission_deck = bytearray(range(game.n_missions))
        self.drawn = 0
        self.medals = 0
        self.completed: list[int] = []
        setup = [(_MISSION, -1)] * min(SLOTS, game.n_missions) + [(_FACE_UP, -1)] * SLOTS
        self.queue = (setup + [(_DEAL, s) for s in range(game.players) for _ in range(game.hand_size)])[::-1]
        self.turn = game.oya  # the Oya plays first (standard mode; in crazy mode any seat may)
        self.played = False  # a card was played and the next seat is not chosen yet
        self.refill: tuple[int, ...] = ()  # seats to draw back to a full hand once missions are settled
        self.reshuffled = False
        self.plays = 0
        self.unchecked = 0  # the slots whose mission is not checked against the face-up row yet (bit j: slot j)
        self.vacated = [-1] * SLOTS  # the mission last accomplished in each slot (-1: none yet)
        self.face_up = [-1] * SLOTS  # the top of each pile (-1: not turned up yet)
        self.open_slots = bytes(game.n_kinds)  # per card, the slots it may cover (none before the setup's face-up cards)
        self.cover_sum = 0  # open_slots as one number, which a card turned up adds to
        self.current = CHANCE

    # -- seats --------------------------------------------------------------------------------
    def _legal_actions(self, seat: int) -> list[int]:
        # Card by card: its plays onto the slots it may cover; then in rising order.
        moves, open_slots = self.game.card_moves, self.open_slots
        legal: list[int] = []
        for k in set(self.hands[seat]):
            legal += moves[k][open_slots[k]]
        legal.sort()
        return legal

    def _is_legal(self, action: int, seat: int) -> bool:
        # A play of card k onto slot j is action k * SLOTS + j: legal when k is in the hand and
        # slot j is one of the slots k may cover (bit j of open_slots[k]), as _legal_actions lists
        # (a card in a hand is a card of the game: no action number out of range passes).
        card, slot = action // SLOTS, action % SLOTS
        return card in self.hands[seat] and self.open_slots[card] >> slot & 1 == 1

    def can_play(self, seat: int) -> bool:
        """True when ``seat`` holds a card that covers one of the face-up cards."""
        open_slots = self.open_slots
        for k in self.hands[seat]:
            if open_slots[k]:
                return True
        return False

    def any_seats(self) -> tuple[int, ...]:
        """Crazy variant: every seat that can play."""
        return tuple([s for s in range(self.game.players) if self.can_play(s)])

    def is_any_seat(self, seat: int) -> bool:
        """Crazy variant: ``seat`` can play."""
        return 0 <= seat < self.game.players and self.can_play(seat)

    def may_act(self, seat: int) -> bool:
        """:meth:`State.may_act` for the steps this game has: the seat to play (standard), or any
        seat that can play (crazy: :meth:`is_any_seat`, without the call), asked on every move
        validated apply checks."""
        cur = self.current
        if cur >= 0:
            return seat == cur
        return cur == ANY and 0 <= seat < self.game.players and self.can_play(seat)

    def _apply(self, action: int, seat: int) -> None:
        if seat == CHANCE:
            kind, who = self.queue.pop()
            if kind in _TO_HAND:
                self.deck.remove(action)
                self.hands[who].append(action)
                if not self.queue and not self.unchecked:
                    # The last draw after a play or the reshuffle: everything else was settled before
                    # the draws were scheduled (_advance), and a draw changes none of it.
                    self._next_seat()
                    return
            elif kind == _MISSION:
                slot = self.missions.index(-1)
                self.mission_deck.remove(action - MISSION)
                self.missions[slot] = action - MISSION
                self.unchecked |= 1 << slot
            elif kind == _FACE_UP:  # the setup's, left to right
                self.deck.remove(action)
                slot = self.face_up.index(-1)
                self.piles[slot].append(action)
                self._turn_up(slot, action)
            else:
                self._reshuffle()
            if not self.queue:
                self._advance()
            return
        card, slot = action // SLOTS, action % SLOTS
        self.hands[seat].remove(card)
        self.piles[slot].append(card)
        self._turn_up(slot, card)
        self.plays += 1
        self.turn = seat
        self.played = True
        self.refill = (seat,)
        self._advance()

    def _turn_up(self, slot: int, card: int) -> None:
        """``card`` is the new face-up card of ``slot``: the row changed."""
        bits = self.game.cover_bits[slot]
        was = self.face_up[slot]
        counted = self.cover_sum = self.cover_sum + bits[card] - (bits[was] if was >= 0 else 0)
        self.open_slots = counted.to_bytes(self.game.n_kinds, "little")
        self.face_up[slot] = card
        self.unchecked = _ALL_SLOTS

    def _advance(self) -> None:
        """Everything that follows a play or the last chance event due, with no decision in it:
        missions accomplished and replaced (medals won on the way), the reshuffle past gold, draws
        back to a full hand; then the next seat to play, or the end."""
        game = self.game
        if self.unchecked:  # only the unchecked slots are asked
            met = game.completions.met(self.missions, self.face_up, self.unchecked)
            self.unchecked = 0
            if met:
                if self._accomplish(met):
                    return
                if len(self.completed) == game.n_missions:  # the last missions accomplished
                    self.current = TERMINAL
                    return
        if self.medals == game.gold and self._reshuffle_due(stuck=False):
            self._schedule([(_RESHUFFLE, -1)])
            return
        if self.refill:
            seats, self.refill = self.refill, ()
            if self._schedule_draws(seats):
                return
        self._next_seat()

    def _accomplish(self, met: int) -> bool:
        """Accomplish the displayed missions the face-up cards meet, in the slots of ``met`` (bit
        ``j``: slot ``j``), and schedule their replacements (True when chance events are due);
        medals are won on the way.  :meth:`_advance` finds them in the game's memo (the
        greedy bot has weighed that very row; :meth:`Completions.met`, the mission's condition
        checked once per row)."""
        places = self.game.medal_places
        events = []
        left = len(self.mission_deck)
        for j, m in enumerate(self.missions):
            if met >> j & 1:
                self.completed.append(m)
                self.missions[j] = -1
                self.vacated[j] = m
                if self.medals < len(places) and self.drawn == places[self.medals]:
                    self.medals += 1  # the medal on top of the mission deck is turned over and won
                if left:
                    events.append((_MISSION, -1))
                    left -= 1
                    self.drawn += 1
        return self._schedule(events)

    def _schedule_draws(self, seats) -> bool:
        """Draws back to a full hand for ``seats`` in order, while the deck lasts."""
        left, size, hands = len(self.deck), self.game.hand_size, self.hands
        events = []
        for s in seats:
            take = size - len(hands[s])
            if take > left:
                take = left
            events += [(_DRAW, s)] * take
            left -= take
        return self._schedule(events)

    def _schedule(self, events: list[tuple[str, int]]) -> bool:
        """Make ``events`` (in order) the chance events due, if there are any."""
        if events:
            self.queue = events[::-1]
            self.current = CHANCE
            return True
        return False

    def _next_seat(self) -> None:
        """After a play (or the setup): the next seat clockwise, or in the crazy variant every seat
        that can play; if that seat (every seat) cannot play, or with ``game_end: any-seat`` if any
        seat cannot play, the reshuffle when stuck past gold, else the end."""
        game = self.game
        if self.played:
            self.played = False
            if not game.crazy:
                self.turn = (self.turn + 1) % game.players
        if game.any_seat_ends and not all(self.can_play(s) for s in range(game.players)):
            pass  # game_end: any-seat: "as soon as a player cannot play", whoever it is
        elif game.crazy:
            open_slots = self.open_slots
            for hand in self.hands:  # some seat holds a card that covers a face-up card
                for k in hand:
                    if open_slots[k]:
                        self.current = ANY
                        return
        elif self.can_play(self.turn):
            self.current = self.turn
            return
        if self._reshuffle_due(stuck=True):
            self._schedule([(_RESHUFFLE, -1)])
        else:
            self.current = TERMINAL

    def _reshuffle_due(self, stuck: bool) -> bool:
        """Gold is won, the one reshuffle past it has not happened, and this is its moment: when
        gold is won, or (``after_gold: reshuffle-when-stuck``) when the team is stuck."""
        game = self.game
        return self.medals == len(game.medal_ids) > 0 and not self.reshuffled and game.reshuffle_when_stuck == stuck

    def _reshuffle(self) -> None:
        """Past gold: the covered cards join the deck; every seat draws back to a full hand,
        clockwise from the seat that played (or is stuck)."""
        for pile in self.piles:
            self.deck.extend(pile[:-1])
            del pile[:-1]
        self.reshuffled = True
        self.refill = self.game.clockwise[self.turn]

    # -- chance -------------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """A mission card: any left in the mission deck, equally likely; a symbol card: any kind
        left in the deck, in proportion to its copies there; the reshuffle: certain."""
        kind = self.queue[-1][0]
        if kind == _MISSION:
            p = 1.0 / len(self.mission_deck)
            return [(MISSION + m, p) for m in sorted(self.mission_deck)]
        if kind == _RESHUFFLE:
            return [(RESHUFFLE, 1.0)]
        total = len(self.deck)
        return [(k, n / total) for k, n in sorted(Counter(self.deck).items())]

    def is_chance_outcome(self, action: int) -> bool:
        """True when ``action`` is a possible outcome of the chance event due."""
        kind = self.queue[-1][0]
        if kind in _SYMBOL_CARD:
            return 0 <= action < self.game.n_kinds and action in self.deck
        if kind == _MISSION:
            m = action - MISSION
            return 0 <= m < self.game.n_missions and m in self.mission_deck
        return action == RESHUFFLE

    def sample_chance(self, u: float) -> int:
        """The card at position ``u * size`` of the deck due (every physical card equally likely)."""
        kind = self.queue[-1][0]
        if kind in _SYMBOL_CARD:
            deck = self.deck
            return deck[int(u * len(deck))]
        if kind == _MISSION:
            return MISSION + self.mission_deck[int(u * len(self.mission_deck))]
        return RESHUFFLE

    def due_chance_event(self) -> dict[str, Any]:
        """The chance event due, without its card: ``{chance: draw, seat: 1}``, ``{chance: mission}``."""
        kind, who = self.queue[-1]
        return {"chance": kind, "seat": who} if kind in (_DEAL, _DRAW) else {"chance": kind}

    # -- results ------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        """The team's result for every seat: the missions accomplished."""
        return [float(len(self.completed))] * self.game.players

    def outcome(self) -> dict[str, str]:
        """The medal level reached, as the rulebook scores a game ("Bronze", "Silver", "Gold"; "no
        medal" before the first): rulebook, "End of the game"."""
        return {"level": self.game.level_name(self.medals) or "no medal"}

    def winners(self) -> list[int]:
        """Every seat once the game is over with a medal won; else nobody."""
        return list(range(self.game.players)) if self.current == TERMINAL and self.medals else []

    def tally(self) -> dict[str, int]:
        """Missions completed, cards played, reshuffles; the medals reached (``reached: bronze``)
        and the final level (``level: silver``); ``displayed:``/``completed:`` per mission."""
        game = self.game
        ids = game.mission_ids
        counts = {"missions completed": len(self.completed), "cards played": self.plays, "reshuffles": int(self.reshuffled),
                  f"level: {game.medal_ids[self.medals - 1] if self.medals else 'none'}": 1}
        if len(self.completed) == game.n_missions:
            counts["all missions completed"] = 1
        counts.update((f"reached: {game.medal_ids[i]}", 1) for i in range(self.medals))
        counts.update((f"completed: {ids[m]}", 1) for m in self.completed)
        counts.update((f"displayed: {ids[m]}", 1) for m in self.completed + self.missions if m >= 0)
        return counts

    def view(self, seat: int) -> "FiftyMissionsView":
        """What ``seat`` sees."""
        return FiftyMissionsView(self, seat)

    # -- messages and logs ----------------------------------------------------------------------
    def due(self) -> str:
        """Who or what is due, in a player's words."""
        cur = self.current
        if cur == CHANCE:
            kind, who = self.queue[-1]
            return {_MISSION: "a mission card drawn to the row of missions", _FACE_UP: "a symbol card turned face up on the table",
                    _DEAL: f"a deal of a card to seat {who}", _DRAW: f"a draw of a card to seat {who}",
                    _RESHUFFLE: "the reshuffle of the covered cards into a new deck (past gold)"}[kind]
        if cur == ANY:
            return f"any seat that can cover a face-up card (seats {', '.join(map(str, self.any_seats()))})"
        if cur == TERMINAL:
            return "nothing: the game is over"
        return f"seat {cur} to cover a face-up card"

    def why_due(self) -> str:
        """When a replacement mission is due: which mission was accomplished, and in which slot
        (rulebook, Sequence of Play: "if one or more Missions are successful, they are discarded
        [...] and replaced by cards from the Mission pile"); the first empty slot is filled first."""
        if self.current != CHANCE or self.queue[-1][0] != _MISSION or -1 not in self.missions:
            return ""
        slot = self.missions.index(-1)
        m = self.vacated[slot]
        if m < 0:
            return ""
        return f"{self.game.mission_labels[m]} was completed in slot {slot}: the mission that replaces it is due"

    def _why_illegal(self, action: int, seat: int) -> IllegalAction:
        game = self.game
        if seat == CHANCE:
            kind = self.queue[-1][0]
            if kind == _RESHUFFLE:
                return IllegalAction(Reason.WRONG_CHANCE_EVENT, "the covered cards must be reshuffled into a new deck first ({chance: reshuffle})")
            if action == RESHUFFLE:
                return IllegalAction(Reason.WRONG_CHANCE_EVENT, f"no reshuffle now: {self.due()} is due")
            is_mission = MISSION <= action < MISSION + game.n_missions
            if (kind == _MISSION) != is_mission:
                return IllegalAction(Reason.WRONG_CHANCE_EVENT, f"{self.why_due() or f'{self.due()} is due'}, not a "
                                                                f"{'mission' if is_mission else 'symbol'} card")
            if is_mission:
                return IllegalAction(Reason.IMPOSSIBLE_OUTCOME, f"mission {game.mission_ids[action - MISSION]} cannot be drawn: "
                                                                f"it is {self.where_mission(action - MISSION)}, not in the mission deck")
            if 0 <= action < game.n_kinds:
                return IllegalAction(Reason.IMPOSSIBLE_OUTCOME, f"{game.card_names[action]} cannot be drawn: its copies are in "
                                                                f"{', '.join(self.where(action))}; none is in the deck")
            return IllegalAction(Reason.UNKNOWN_ACTION, f"{action} is no card of this game")
        if not 0 <= action < game.n_kinds * SLOTS:
            return IllegalAction(Reason.UNKNOWN_ACTION, f"{action} is no action of 50 Missions")
        card, slot = divmod(action, SLOTS)
        name = game.card_names[card]
        if card not in self.hands[seat]:
            return IllegalAction(Reason.NOT_IN_HAND, f"{name} is not in seat {seat}'s hand")
        top = game.card_names[self.piles[slot][-1]]
        return IllegalAction(Reason.WRONG_PILE, f"{name} cannot cover {top} (slot {slot}): a card covers one of the same symbol "
                                                "or the same value")

    def where(self, card: int) -> list[str]:
        """Where the copies of ``card`` are, in a player's words ("seat 1's hand", "slot 2 (covered)")."""
        places = []
        for name, cards in self._zones():
            places += [name] * cards.count(card)
        return places

    def where_mission(self, m: int) -> str:
        """Where mission ``m`` is: "on display (slot 1)", "accomplished" or "in the mission deck"."""
        if m in self.missions:
            return f"on display (slot {self.missions.index(m)})"
        return "accomplished" if m in self.completed else "in the mission deck"

    def _zones(self) -> Iterator[tuple[str, Sequence[int]]]:
        for s, hand in enumerate(self.hands):
            yield f"seat {s}'s hand", hand
        yield "the deck", self.deck
        for j, pile in enumerate(self.piles):
            yield f"slot {j} (face up)", pile[-1:]
            yield f"slot {j} (covered)", pile[:-1]

    def action_to_event(self, action: int, seat: int) -> dict[str, Any]:
        """The log form of ``action`` by ``seat`` in this state (names, not numbers)."""
        game = self.game
        if seat == CHANCE:
            event = self.due_chance_event()
            if action != RESHUFFLE:
                event["card"] = game.mission_ids[action - MISSION] if action >= MISSION else game.card_names[action]
            return event
        card, slot = divmod(action, SLOTS)
        return {"seat": seat, "play": game.card_names[card], "slot": slot}

    def said_aloud(self, event: dict[str, Any]) -> bool:
        """A medal said aloud as the table turns it over, ``{chance: mission, card: bronze}`` (its
        id or name, any case): accepted once that medal is won (rulebook, "Medals": the medal on
        top of the mission deck is turned over and won); it changes nothing.

        Raises:
            IllegalAction: ``chance.impossible`` when that medal is not won yet.
        """
        if event.get("chance") != _MISSION or not isinstance(event.get("card"), str):
            return False
        game = self.game
        said = event["card"].casefold()
        names = [(i, n) for i, (mid, n) in enumerate(zip(game.medal_ids, game.medal_names)) if said in (mid.casefold(), n.casefold())]
        if not names:
            return False
        i, name = names[0]
        if self.medals > i:
            return True
        below = game.medal_places[i] - self.drawn
        if below <= 0:  # the next card of the mission deck: the next mission completed turns it over
            raise IllegalAction(Reason.IMPOSSIBLE_OUTCOME, f"the {name} medal is not won yet: it is next in the mission deck, "
                                                           "turned over when the next mission is completed")
        raise IllegalAction(Reason.IMPOSSIBLE_OUTCOME, f"the {name} medal is not won yet: it lies under {below} more mission "
                                                       f"card{'s' * (below != 1)} of the mission deck")

    def event_to_action(self, event: dict[str, Any]) -> tuple[int, int]:
        """``(seat, action)`` for a log event (:data:`CHANCE` as the seat of chance events).

        Raises:
            IllegalAction: ``log.malformed-event`` (unknown or missing keys, a seat or slot that is
                not a number), ``turn.no-such-seat``, or ``log.unknown-name`` (a card or mission
                the game does not have).
        """
        game = self.game
        if "chance" in event:
            kind = event["chance"]
            if kind == _RESHUFFLE:
                check_keys(event, ("chance",))
                return CHANCE, RESHUFFLE
            if kind == _MISSION:
                check_keys(event, ("chance", "card"))
                return CHANCE, MISSION + game.mission(event["card"])
            if kind == _FACE_UP:
                check_keys(event, ("chance", "card"))
                return CHANCE, game.card(event["card"])
            if kind in (_DEAL, _DRAW):
                check_keys(event, ("chance", "seat", "card"))
                seat_of(event, game.players)
                return CHANCE, game.card(event["card"])
            raise IllegalAction(Reason.MALFORMED_EVENT, f"unknown chance event {quoted(kind)} (expected mission, face-up, deal, draw or reshuffle)")
        if "play" not in event:
            raise IllegalAction(Reason.MALFORMED_EVENT, "a seat's event is {seat: N, play: CARD, slot: N}; "
                                                        f"this one has {', '.join(map(str, event))}")
        check_keys(event, ("seat", "play", "slot"))
        seat = seat_of(event, game.players)
        slot = index_of(event, "slot", SLOTS, "slot number (0 is the leftmost face-up card)", Reason.MALFORMED_EVENT)
        return seat, game.card(event["play"]) * SLOTS + slot

    def to_dict(self) -> dict[str, Any]:
        """The whole state with names; hands and decks sorted (cards by symbol then value, as printed;
        missions by id): the decks' order is unknown."""
        game = self.game
        names, ids = game.card_names, game.mission_ids
        return {"due": self.due(), "turn": self.turn, "medal": game.level_name(self.medals),
                "missions completed": len(self.completed), "missions": [ids[m] if m >= 0 else None for m in self.missions],
                "face up": [names[p[-1]] if p else None for p in self.piles], "covered": [[names[c] for c in p[:-1]] for p in self.piles],
                "hands": [[names[c] for c in sorted(h)] for h in self.hands], "deck": [names[c] for c in sorted(self.deck)],
                "mission deck": sorted(ids[m] for m in self.mission_deck), "accomplished": [ids[m] for m in self.completed],
                "reshuffled": self.reshuffled}

    def check_invariants(self) -> list[str]:
        """Problems found (``[]`` when sound): every symbol card and every mission in exactly one
        place, hands within their size, the medals matching their places, the face-up cards kept
        (``face_up``, ``open_slots``, ``cover_sum``) matching the piles, the seat due able to play."""
        game = self.game
        problems = []
        counts = Counter(c for _, cards in self._zones() for c in cards)
        for k in range(game.n_kinds):
            if counts[k] != game.copies:
                problems.append(f"{game.card_names[k]}: {counts[k]} copies in play, expected {game.copies} ({', '.join(self.where(k))})")
        missions = Counter([*self.mission_deck, *self.completed, *(m for m in self.missions if m >= 0)])
        if sorted(missions.elements()) != list(range(game.n_missions)):
            problems.append(f"missions: {sum(missions.values())} in play ({len(missions)} different), expected each of the {game.n_missions} once")
        if any(len(h) > game.hand_size for h in self.hands):
            problems.append(f"hands of {[len(h) for h in self.hands]} cards, at most {game.hand_size} each")
        passed = sum(p < self.drawn for p in game.medal_places)
        if not passed <= self.medals <= passed + 1 or self.medals > passed and self.mission_deck:
            problems.append(f"{self.medals} medals won, but {self.drawn} missions were drawn below the first row (medal places {game.medal_places})")
        face_up = [p[-1] if p else -1 for p in self.piles]
        counted = sum(game.cover_bits[j][t] for j, t in enumerate(face_up) if t >= 0)
        if self.face_up != face_up or self.cover_sum != counted or self.open_slots != counted.to_bytes(game.n_kinds, "little"):
            problems.append(f"the face-up cards kept ({self.face_up}) or the slots each card covers do not match the piles ({face_up})")
        if self.current >= 0 and not self.can_play(self.current):
            problems.append(f"seat {self.current} is due but cannot play")
        return problems


class FiftyMissionsView(View):
    """What a seat sees: its own hand; the face-up cards, the missions on display and the
    accomplished ones; the medal won; how many cards each hand and the decks hold; the covered
    cards when ``look_under`` allows it; the other seats' table talk when ``communication`` allows it.
    Never another seat's cards."""

    __slots__ = ()
    _state: FiftyMissionsState
    game: FiftyMissionsGame

    @property
    def hand(self) -> list[int]:
        """This seat's cards (kinds), sorted."""
        return sorted(self._state.hands[self.seat])

    @property
    def face_up(self) -> list[int]:
        """The face-up card of each slot, left to right."""
        return [p[-1] for p in self._state.piles]

    @property
    def missions(self) -> list[int]:
        """The mission above each slot (-1: none)."""
        return list(self._state.missions)

    @property
    def covered(self) -> list[list[int]] | None:
        """The cards under each face-up card, bottom first, when the rules let players look; else None."""
        state = self._state
        return [p[:-1] for p in state.piles] if state.game.look_under else None

    @property
    def talk(self) -> dict[int, list[int]] | None:
        """Each other seat's table talk: the slots whose face-up card it can cover; None when
        communication is off."""
        state = self._state
        game = state.game
        if not game.communication:
            return None
        open_slots, seat = state.open_slots, self.seat
        talk = {}
        for s, hand in enumerate(state.hands):
            if s != seat:
                slots = 0  # the slots some card of the hand may cover
                for k in hand:
                    slots |= open_slots[k]
                talk[s] = list(SLOTS_IN[slots])
        return talk

    @property
    def next_seat(self) -> int | None:
        """The seat that plays after this one (None in the crazy variant, which has no turn order)."""
        game = self._state.game
        return None if game.crazy else (self.seat + 1) % game.players

    def to_dict(self) -> dict[str, Any]:
        """Everything this seat sees, with names."""
        state, game = self._state, self.game
        names, ids = game.card_names, game.mission_ids
        out = {"seat": self.seat, "hand": [names[c] for c in self.hand], "face up": [names[c] for c in self.face_up],
               "missions": [ids[m] if m >= 0 else None for m in self.missions], "medal": game.level_name(state.medals),
               "accomplished": [ids[m] for m in state.completed], "hand sizes": [len(h) for h in state.hands],
               "deck size": len(state.deck), "mission deck size": len(state.mission_deck)}
        if self.covered is not None:
            out["covered"] = [[names[c] for c in p] for p in self.covered]
        if self.talk is not None:
            out["talk"] = {str(s): slots for s, slots in self.talk.items()}
        return out

    def sample_state(self, rng) -> FiftyMissionsState:
        """A determinisation for search bots: a new state equal to the live one in all
        this seat sees, the cards it does not see dealt again at random with ``rng.random()``.

        Hidden from this seat, and so dealt again from the cards it cannot see (taken in sorted
        order), each place keeping its size: the other seats' hands, the symbol deck (its cards and
        their order) and, unless ``look_under``, the covered cards (each pile keeps its height: the
        table sees how many cards went on each slot).  The mission deck holds the missions neither
        on display nor accomplished, which the seat knows; only its order is hidden, so it is
        shuffled.  Everything else is public and kept: this seat's hand (sorted), the face-up
        cards, the missions on display and accomplished, the medals, whose turn it is, the chance
        events due.

        What the seat knows of the other hands stays true: with ``communication``, each other hand
        covers exactly the face-up cards its table talk names (each card it holds covers only named
        ones, and together they cover them all); without it, the seat due can play (standard), and
        where any seat may act (crazy) some seat can, if this one cannot.  Deals are drawn uniformly
        among those that keep this true (each hand drawn among the cards it may hold, then the deal
        kept with the probability that makes every deal equally likely); when that fails
        :data:`_TRIES` times, a complete search deals one of them (at random, not uniformly).
        The sample's history starts empty (the live one records the real deal and draws)."""
        state, seat = self._state, self.seat
        game = state.game
        new = state.clone()
        new.history = []
        new._pending = {s: a for s, a in state._pending.items() if s == seat}
        new.hands[seat].sort()
        others = [s for s in range(game.players) if s != seat]
        sizes = {s: len(state.hands[s]) for s in others}
        piles = state.piles
        pool = [c for s in others for c in state.hands[s]] + list(state.deck)
        if not game.look_under:
            for p in piles:
                pool += p[:-1]
        pool.sort()
        need: dict[int, int] = {}  # seat -> the slots its hand covers exactly, or -1: some slot
        any_play = False
        sig: list[int] = []
        if all(piles):  # the face-up cards are out (not during the setup)
            sig = list(state.open_slots)  # the slots each kind covers (bit j: slot j)
            if game.communication:
                for s in others:
                    told = 0
                    for k in state.hands[s]:
                        told |= sig[k]
                    need[s] = told
            elif state.current in sizes:
                need[state.current] = -1
            elif state.current == ANY and not state.can_play(seat):
                any_play = True
        dealt = _sample_hands(pool, sig, others, sizes, need, any_play, rng)
        if dealt is None:
            dealt = _search_hands(pool, sig, others, sizes, need, any_play, rng)
        hands, rest = dealt
        for s in others:
            new.hands[s] = hands[s]
        at = len(state.deck)
        new.deck = bytearray(rest[:at])
        if not game.look_under:
            for p in new.piles:
                n = len(p) - 1
                if n > 0:
                    p[:-1] = rest[at:at + n]
                    at += n
        new.mission_deck = bytearray(shuffled(sorted(state.mission_deck), rng))
        return new


_FULL = (1 << SLOTS) - 1  # every slot
_INSIDE = [[c for c in range(_FULL + 1) if not c & ~u] for u in range(_FULL + 1)]  # the sets of slots within each
_TRIES = 200  # draws of the uniform sampler before the complete search


def _histogram(cards: list[int], sig: list[int]) -> list[int]:
    """How many of ``cards`` cover each set of slots (bit j: slot j)."""
    hist = [0] * (_FULL + 1)
    for c in cards:
        hist[sig[c]] += 1
    return hist


def _count(hist: list[int], target: int, n: int) -> int:
    """How many hands of ``n`` of the cards counted in ``hist`` cover exactly the slots ``target``
    (-1: some slot), by inclusion-exclusion over the slots."""
    at = hist.__getitem__
    if target < 0:
        return comb(sum(hist), n) - comb(hist[0], n)
    total, bits = 0, target.bit_count()
    for u in _INSIDE[target]:
        ways = comb(sum(map(at, _INSIDE[u])), n)  # hands of cards covering only slots of u
        total += -ways if (bits - u.bit_count()) & 1 else ways
    return total


def _meets(union: int, target: int) -> bool:
    return union == target if target >= 0 else union != 0


def _may_meet(hist: list[int], target: int, n: int) -> bool:
    """Whether ``n`` of the cards counted in ``hist`` may still meet ``target`` as far as their
    number and the slots they cover go (a quick test: the search's pruning)."""
    allowed = _FULL if target < 0 else target
    room = reach = 0
    for c in _INSIDE[allowed]:
        if hist[c]:
            room += hist[c]
            reach |= c
    return room >= n and (reach != 0 if target < 0 else reach == target)


def _sample_hands(pool, sig, others, sizes, need, any_play, rng):
    """The other hands drawn uniformly among the deals of ``pool`` that meet ``need`` (and
    ``any_play``), and the rest of the pool shuffled; None after :data:`_TRIES` failed draws.

    Each constrained hand is drawn uniformly among the hands of the cards left that meet its
    seat's need, and the deal kept with probability the product over seats of (such hands among
    the cards left) / (such hands among the whole pool): every deal then equally likely."""
    hist = _histogram(pool, sig) if need else []
    most = {s: _count(hist, need[s], sizes[s]) for s in need}
    order = sorted(need, key=lambda s: (most[s], s))  # the fewest hands first
    bound, left = {}, len(pool)
    for s in order:  # at most the hands among the whole pool, or of the cards it may hold that can be left
        allowed = _FULL if need[s] < 0 else need[s]
        bound[s] = min(most[s], comb(min(left, sum(hist[c] for c in _INSIDE[allowed])), sizes[s]))
        left -= sizes[s]
    free = [s for s in others if s not in need]
    for _ in range(_TRIES):
        u = rng.random()
        weight = 1.0
        left = pool
        hands = {}
        for s in order:
            n, target = sizes[s], need[s]
            count = _count(_histogram(left, sig), target, n) if s != order[0] else most[s]
            weight *= count / bound[s] if count else 0.0
            if weight <= u:
                break
            allowed = _FULL if target < 0 else target
            spots = [i for i, c in enumerate(left) if not sig[c] & ~allowed]
            for _ in range(_TRIES):
                picks = spots[:]
                union = 0
                for i in range(n):  # the first n of a Fisher-Yates shuffle
                    j = i + int(rng.random() * (len(picks) - i))
                    picks[i], picks[j] = picks[j], picks[i]
                    union |= sig[left[picks[i]]]
                if _meets(union, target):
                    break
            else:
                weight = 0.0
                break
            taken = set(picks[:n])
            hands[s] = [left[i] for i in picks[:n]]
            left = [c for i, c in enumerate(left) if i not in taken]
        if weight <= u:
            continue
        rest = shuffled(left, rng)
        for s in free:
            hands[s], rest = rest[:sizes[s]], rest[sizes[s]:]
        if any_play and not any(sig[c] for s in free for c in hands[s]):
            continue
        return hands, rest
    return None


def _search_hands(pool, sig, others, sizes, need, any_play, rng):
    """The other hands found by a complete search (never uniformly drawn): a deal of ``pool`` that
    meets ``need`` and ``any_play`` (the live deal is one), the cards of each cover class in random
    order; and the rest of the pool shuffled."""
    if any_play:  # some seat can play: make one of them able to, in turn
        for s in shuffled(others, rng):
            found = _search_hands(pool, sig, others, sizes, {s: -1}, False, rng)
            if found is not None:
                return found
        return None
    by_class: list[list[int]] = [[] for _ in range(_FULL + 1)]
    for c in shuffled(pool, rng):
        by_class[sig[c] if sig else 0].append(c)
    order = [s for s in others if s in need]
    failed = set()

    def place(i: int, hist: list[int]):
        """Class counts for seats ``order[i:]`` from ``hist``, or None."""
        if i == len(order):
            return []
        key = (i, tuple(hist))
        if key in failed:
            return None
        s = order[i]
        target = need[s]
        allowed = _FULL if target < 0 else target
        classes = shuffled([c for c in range(_FULL + 1) if hist[c] and not c & ~allowed], rng)
        reach = [0] * (len(classes) + 1)
        room = [0] * (len(classes) + 1)
        for j in range(len(classes) - 1, -1, -1):
            reach[j] = reach[j + 1] | classes[j]
            room[j] = room[j + 1] + hist[classes[j]]
        vec: dict[int, int] = {}

        def choose(j: int, n: int, union: int):
            if not n:
                if _meets(union, target):
                    h = hist[:]
                    for c, k in vec.items():
                        h[c] -= k
                    if not all(_may_meet(h, need[t], sizes[t]) for t in order[i + 1:]):
                        return None
                    later = place(i + 1, h)
                    if later is not None:
                        return [dict(vec)] + later
                return None
            if j == len(classes) or room[j] < n or (target >= 0 and union | reach[j] != target):
                return None
            c = classes[j]
            for k in range(min(hist[c], n), -1, -1):
                if k:
                    vec[c] = k
                else:
                    vec.pop(c, None)
                found = choose(j + 1, n - k, union | c if k else union)
                if found is not None:
                    return found
            return None

        found = choose(0, sizes[s], 0)
        if found is None:
            failed.add(key)
        return found

    counts = place(0, [len(cards) for cards in by_class])
    if counts is None:
        return None
    hands = {}
    for s, vec in zip(order, counts):
        hands[s] = [by_class[c].pop() for c, k in vec.items() for _ in range(k)]
    rest = shuffled(sorted(c for cards in by_class for c in cards), rng)
    for s in others:
        if s not in need:
            hands[s], rest = rest[:sizes[s]], rest[sizes[s]:]
    return hands, rest

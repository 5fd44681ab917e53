"""Geheime Mission (Piatnik, 1990; Gerhard Kodys): a two-player duel of agent cards for suitcases.

What the game exercises: chance (a shuffled pile of agent cards: the deal, then a draw after
every card played), hidden hands, face-up fields, ties replayed as often as needed, a fight whose
roles swap when a suitcase is snatched, a simultaneous hidden choice (the carrier's back door and
the officer's door, revealed together), and an end that cuts a round short (the moment the last
card is drawn).  Rules: the Geheime Mission rulebook (Piatnik, 1990), "Sequence of Play" and "Game End".

A round (rulebook, Sequence of Play):

1. **City-centre duel.**  The starting seat plays an agent to the city centre, the other seat
   one on top; the higher blue (centre) value takes the suitcase and becomes the *carrier*.  Equal
   values: both play again on the same field, the starting seat first, as often as needed.
2. **Embassy fight.**  The carrier plays an agent to its own embassy (green, defence); the other
   seat attacks there (red, attack).  Defence higher: on to the back door.  Attack higher: the
   attacker snatches the suitcase (what follows is the parameter ``after_snatch``).  Equal: both
   play again, the carrier first.
3. **Back door.**  The carrier secretly chooses one of the three doors while the other seat places
   the counter-intelligence officer at one (a simultaneous step).  Different doors: the carrier
   wins the suitcase.  The same door: the suitcase is lost.  Who starts the next round is the
   parameter ``next_round``.

Every card played is replaced at once from the pile (hand back to 5).  The game ends the moment
the last card is drawn (``game_end``); most suitcases wins, equal counts are a draw.

Where the rulebook is silent or ambiguous, the reading is a parameter (:data:`GAME_INFO`), and
``content/geheime-mission/game.yaml``'s notes name the choice.  Cards on a field stay there face
up for the rest of the game ("3 piles will be created"); two ties in a row compare the new pair
only, which is the same as comparing the piles' totals (the totals were equal before).

Actions: ``0..N-1`` plays agent ``n`` (agents in call-number order); ``DOOR + d`` picks door ``d``
(blue, yellow, red in ``components.yaml`` order), for the carrier's door and the officer alike.
Log events (format: ``docs/game-logs.md``): ``{chance: deal, seat: 0, cards: [...]}``, ``{chance: draw,
seat: 1, card: Kestrel}``, ``{seat: 0, centre: Nightjar}``, ``{seat: 1, defend: Cobalt}``,
``{seat: 0, attack: Obsidian}``, ``{seat: 1, door: Red}``, ``{seat: 0, officer: Blue}``.  An agent
may be named by code name, id or call number (``"009"``), a door by name or id, in any case.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any, Iterator, Mapping, Sequence

from deckpress.generator.content.geheime_mission import MIN_CARDS_PER_ROUND, VALUES
from deckpress.generator.content.safetext import quoted
from deckpress.rules.core.bots import register_bot
from deckpress.rules.core.errors import IllegalAction, ParameterError, Reason

# The log-event helpers every engine shares.
from deckpress.rules.core.events import by_name, check_keys, seat_of
from deckpress.rules.core.game import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Game,
    GameInfo,
    State,
    View,
    shuffled,
)
from deckpress.rules.core.measures import Measure, per_game, rate
from deckpress.rules.core.params import FROM_CONTENT, Param, Reading
from deckpress.rules.core.registry import register

#: The two seats.
_SEATS = (0, 1)
#: First door action; agents are the actions below it.
DOOR = 100
#: Index of each value in an agent's ``values`` tuple (the order of ``VALUES``: red, blue, green).
ATTACK, CENTRE, DEFENCE = (VALUES.index(v) for v in ("attack", "centre", "defence"))
_DEAL, _DUEL, _EMBASSY, _DOORS = "deal", "city centre", "embassy", "back door"
#: The verb of a seat's log event in each role.
_PLAY_VERBS = ("centre", "defend", "attack")
_DOOR_VERBS = ("door", "officer")
#: The value a seat plays in each role that plays an agent.
_ROLE_COLOUR = {"centre": CENTRE, "defend": DEFENCE, "attack": ATTACK}
_ROLE_TEXT = {"centre": "plays an agent in the city centre", "defend": "defends the suitcase at its own embassy",
              "attack": "attacks at the other embassy", "door": "chooses a back door",
              "officer": "places the counter-intelligence officer"}
_SOURCE = "rulebook, Sequence of Play"
#: How much the heuristic bot values keeping an agent against the chance of winning with it (both 0..1);
#: 0.35-0.7 play equally well against each other, 0 and 1 lose (simulated head to head).
_KEEP_WEIGHT = 0.5

GAME_INFO = GameInfo(
    id="geheime-mission",
    name="Geheime Mission",
    version=1,
    rulebook="Geheime Mission rulebook (Piatnik, 1990), English translation from The Rules Bank",  # read in docs/rules-audit.md, "Geheime Mission"
    chance=True,
    hidden_information=True,
    simultaneous=True,
    cooperative=False,
    params=(
        Param("players", int, 2, "Two players; seat 0 starts the first round in the city centre.",
              "rulebook: a duel of two heads of secret services; 'Players decide who starts'", low=2, high=2),
        Param("hand_size", int, FROM_CONTENT, "Agents in each hand, refilled after every card played (default: agents.yaml deal).",
              "rulebook, Preparation: 'deal each player 5 cards'", low=1, high=20),
        Param("after_snatch", str, "snatcher-runs",
              "After an attack snatches the suitcase: snatcher-runs (the snatcher now carries it to its own embassy: a new "
              "embassy fight with the roles swapped, the snatcher defending first) or centre-duel (the suitcase is back in "
              "the city centre: a new duel decides who carries it, the snatcher playing first).",
              f"{_SOURCE}: the attacker 'flees back into the city centre from where he can attempt to move out of the city "
              "centre next move' (who may carry the suitcase out of the centre is not said)",
              choices=("snatcher-runs", "centre-duel")),
        Param("next_round", str, "guess-winner",
              "Who starts the next round: guess-winner (after an entry the carrier, after a catch the seat of the officer), "
              "carrier (the seat that carried the suitcase to the back door, either way) or alternate (seats take turns).",
              f"{_SOURCE}: after an entry 'the player receives the suitcase and starts another round'; after a catch "
              "'the defending player starts a new round' (read as the seat that defended with the officer)",
              choices=("guess-winner", "carrier", "alternate")),
        Param("game_end", str, "last-draw",
              "last-draw: the game ends the moment the last card is drawn from the pile, and the suitcase in play goes to "
              "nobody (a seat due to play always holds a full hand, so it can always play); finish-round: the round in "
              "progress is played out from the hands, and if a seat due to play has no card left the suitcase goes to nobody.",
              "rulebook, Game End: 'The game ends the moment the last card is taken from the pile'",
              choices=("last-draw", "finish-round")),
    ),
    readings=(
        Reading("after_snatch", "Sequence of Play",
                "The attacking agent snatches the suitcase and flees back into the city centre from where he can attempt to "
                "move out of the city centre next move.",
                (("snatcher-runs", "the snatcher carries the suitcase to its own embassy: a new embassy fight, roles swapped"),
                 ("centre-duel", "the suitcase is back in the city centre: a new duel decides who carries it")),
                "every snatch", "1,000 random games on the same seeds (2026-11-28, `python benchmarks/readings.py --only "
                "geheime-mission --param after_snatch`): winning score 2.74 against 2.15 suitcases; draws 17.6 % "
                "against 23.5 %"),
        Reading("next_round", "Sequence of Play",
                "The player receives the suitcase and starts another round ... The defending player starts a new round in "
                "the city centre.",
                (("guess-winner", "after an entry the carrier, after a catch the officer's seat"),
                 ("carrier", "the carrier, either way"),
                 ("alternate", "seats take turns (departs from 'the player ... starts another round')")),
                "after every back door", "1,000 random games on the same seeds (2026-11-28, `python benchmarks/readings.py --only "
                "geheime-mission --param next_round`): winning score 2.74 (carrier 2.70, alternate 2.73); draws 17.6 "
                "% (20.7 %, 18.9 %)"),
        Reading("game_end", "Game End", "The game ends the moment the last card is taken from the pile",
                (("last-draw", "the moment the last card is drawn; the suitcase in play goes to nobody"),
                 ("finish-round", "the round in progress is played out from the hands")),
                "the last round", "1,000 random games on the same seeds (2026-11-28, `python benchmarks/readings.py --only "
                "geheime-mission --param game_end`): winning score 2.74 against 3.13 suitcases; the winners differ "
                "in 22.9 % of them"),
    ),
    rulesets={"base": {}},  # game.yaml's one mode
    max_length=lambda game: game.max_actions,
    score_range=lambda game: (0.0, float(game.most_rounds)),
)


class GeheimeMissionGame(Game):
    """Geheime Mission with effective parameters; the agents' values read once from the content.

    Agents are numbered ``0..N-1`` in call-number order; ``values[n]`` is ``(attack, centre,
    defence)``, and ``columns[k][n]`` is ``values[n][k]`` (one colour's values by agent).
    ``worth[n]`` is a public fact the heuristic bot uses: the share of the deck that the agent's
    best value beats in its colour (ties count half), 0..1.

    Raises (from :meth:`create`): ParameterError when the hands would take the whole deck, or the
    deck has more agents than the action numbers allow.
    """

    info = GAME_INFO

    def __init__(self, content, params: Mapping[str, Any]):
        super().__init__(content, params)
        agents = sorted(content["agents"]["agents"], key=lambda a: a["call_number"])
        self.n_cards = len(agents)
        if self.n_cards > DOOR:
            raise ParameterError(f"the engine handles at most {DOOR} agents; agents.yaml has {self.n_cards}")
        self.hand_size: int = params["hand_size"]
        if 2 * self.hand_size >= self.n_cards:
            raise ParameterError(f"parameter 'hand_size': 2 hands of {self.hand_size} leave no pile of the {self.n_cards} agents")
        self.values = [tuple(a[v] for v in VALUES) for a in agents]
        self.columns = tuple(tuple(v[k] for v in self.values) for k in range(len(VALUES)))
        self.card_names = [a["code_name"] for a in agents]
        self.labels = [f"{a['call_number']} {a['code_name']}" for a in agents]
        self._card_lookup = {str(a[key]).casefold(): n for n, a in enumerate(agents) for key in ("id", "call_number", "code_name")}
        doors = content["components"]["back_doors"]["doors"]
        self.door_names = [d["name"] for d in doors]
        #: The legal actions at the back door, for the carrier and the officer alike.
        self.door_actions = [DOOR + d for d in range(len(doors))]
        self._door_lookup = {str(d[key]).casefold(): i for i, d in enumerate(doors) for key in ("id", "name")}
        self.snatcher_runs = params["after_snatch"] == "snatcher-runs"
        self.next_round: str = params["next_round"]
        self.finish_round = params["game_end"] == "finish-round"
        # A round that reaches the back door plays at least MIN_CARDS_PER_ROUND agents; every
        # agent is dealt or drawn once and played at most once.
        self.most_rounds = self.n_cards // MIN_CARDS_PER_ROUND
        self.max_actions = 2 * self.n_cards + 2 * self.most_rounds
        self.worth = _worth(self.values)
        self.state_class = GeheimeMissionState

    @classmethod
    def content_defaults(cls, content) -> dict[str, Any]:
        """``hand_size`` from ``agents.yaml`` (``deal.hand_size``)."""
        return {"hand_size": content["agents"]["deal"]["hand_size"]}

    def batched(self, bots):
        """The batched engine for random bots (``geheime_mission_batched.py``): every parameter
        value, the reference engine's distribution of results, not its games.

        Raises:
            ParameterError: a bot other than random.
        """
        from deckpress.rules.geheime_mission_batched import (
            GeheimeMissionBatched,  # NumPy only when asked for
        )

        return GeheimeMissionBatched(self, bots)

    def card(self, name: Any) -> int:
        """The agent called ``name`` (code name, id or call number, any case).

        Raises:
            IllegalAction: ``log.unknown-name``, suggesting the closest code name.
        """
        if isinstance(name, int) and not isinstance(name, bool):
            name = f"{name:03d}"  # a call number written as a number: 7 for "007"
        return by_name(name, self._card_lookup, "agent", self.card_names)

    def door(self, name: Any) -> int:
        """The door called ``name`` (name or id, any case).

        Raises:
            IllegalAction: ``log.unknown-name``, listing the doors.
        """
        return by_name(name, self._door_lookup, "door", self.door_names, list_all=True)

    def measures(self, tallies: Mapping[str, int], games: int) -> list[Measure]:
        """The balance evidence: the first seat's advantage (seat 0's share of the games not drawn,
        with its interval, and seat 0's wins minus seat 1's per 100 games), suitcases and rounds per
        game, how the fights go, and each agent's share of the fights it was in, strongest first.
        A fight is one pair of cards compared (a duel in the city centre or a defence against an
        attack); a tie is a fight neither agent wins."""
        t = tallies.get
        first = "First seat's advantage (seat 0 starts the first round)"
        out = [rate(first, "seat 0 wins, of the games not drawn", t("seat 0 wins", 0), t("decided games", 0)),
               per_game(f"{first}, in percentage points", "seat 0 wins minus seat 1 wins, per 100 games", t("seat 0 lead", 0))]
        counts = "Suitcases and rounds (per game)"
        out += [per_game(counts, name, t(name, 0)) for name in (
            "suitcases won", "suitcases caught by the officer", "suitcases in play at the end", "rounds",
            "snatches", "replayed ties")]
        fights = "Fights"
        out += [rate(fights, "city-centre duels won by the second card", t("centre duels won by the second card", 0), t("centre duels", 0)),
                rate(fights, "embassy defences that hold", t("defences that hold", 0), t("embassy fights", 0)),
                rate(fights, "back-door entries", t("suitcases won", 0), t("back-door attempts", 0))]
        agents = [rate("Fights won per agent, strongest first (values: attack/centre/defence)",
                       f"{self.labels[n]} ({'/'.join(map(str, self.values[n]))})",
                       t(f"fights won by {self.labels[n]}", 0), t(f"fights of {self.labels[n]}", 0))
                  for n in range(self.n_cards)]
        agents.sort(key=lambda m: (-(m.successes / m.trials) if m.trials else 1.0, m.name))
        return out + agents


class GeheimeMissionState(State):
    """A game in progress.

    ``phase`` is the deal, the city-centre duel, the embassy fight or the back door; ``starter``
    starts the round in the centre; ``carrier`` holds the suitcase (-1 while it lies in the
    centre); ``lead`` is the first card of the pair being fought (-1 before it is played);
    ``after_draw`` is who is due once the card just played is replaced from the pile (a seat or
    :data:`SIMULTANEOUS`); ``sampled_at`` is the pile position of the card :meth:`sample_chance`
    returned last (a hint for the draw, checked before use).  ``centre`` and ``embassies[s]`` are
    the face-up piles; their pairs are the fights, from which :attr:`fought` and :attr:`won` count
    each agent's fights for the balance report.
    """

    __slots__ = ("hands", "deck", "centre", "embassies", "phase", "starter", "carrier", "lead", "draw_seat", "after_draw",
                 "sampled_at", "suitcases", "rounds", "caught", "snatches", "ties", "holds", "embassy_fights", "duels",
                 "second_wins", "reveal")
    game: GeheimeMissionGame

    def __init__(self, game: GeheimeMissionGame):
        super().__init__(game)
        self.hands: list[list[int]] = [[], []]
        self.deck = list(range(game.n_cards))
        self.centre: list[int] = []
        self.embassies: list[list[int]] = [[], []]
        self.phase = _DEAL
        self.starter = 0
        self.carrier = -1
        self.lead = -1
        self.draw_seat = 0
        self.after_draw = 0
        self.sampled_at = 0
        self.suitcases = [0, 0]
        self.rounds = 0
        self.caught = self.snatches = self.ties = self.holds = self.embassy_fights = self.duels = self.second_wins = 0
        self.reveal: tuple[int, int, int] | None = None  # (carrier, door, officer's door) of the last back door
        self.current = CHANCE

    # -- chance: the deal and the draws ------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Any agent of the pile, equally likely (its order is unknown)."""
        p = 1.0 / len(self.deck)
        return [(c, p) for c in sorted(self.deck)]

    def is_chance_outcome(self, action: int) -> bool:
        """True when ``action`` is an agent still in the pile."""
        return action in self.deck

    def sample_chance(self, u: float) -> int:
        """The agent at position ``u * len(pile)`` of the pile (all equally likely); the position
        is kept in ``sampled_at`` for the draw."""
        deck = self.deck
        self.sampled_at = position = int(u * len(deck))
        return deck[position]

    def due_chance_event(self) -> dict[str, Any]:
        """``{chance: deal, seat: s}`` during the deal, ``{chance: draw, seat: s}`` after a card played."""
        return {"chance": "deal" if self.phase == _DEAL else "draw", "seat": self.draw_seat}

    # -- moves ------------------------------------------------------------------------------
    def _legal_actions(self, seat: int) -> list[int]:
        if self.current == SIMULTANEOUS:
            return self.game.door_actions[:]
        return sorted(self.hands[seat])

    def _apply(self, action: int, seat: int) -> None:
        if seat == CHANCE:
            self._draw(action)
        else:
            self._play(action, seat)

    def _draw(self, card: int) -> None:
        """A card from the pile to ``draw_seat``; then ``after_draw`` is due, except that the draw
        that empties the pile ends a last-draw game."""
        deck, position = self.deck, self.sampled_at
        if position < len(deck) and deck[position] == card:
            del deck[position]  # the card just sampled: no search of the pile
        else:
            deck.remove(card)
        hand = self.hands[self.draw_seat]
        hand.append(card)
        if self.phase == _DEAL:
            if len(hand) == self.game.hand_size:
                self.draw_seat += 1
                if self.draw_seat == 2:
                    self._start_round(0)
        elif self.deck or self.game.finish_round:
            self.current = self.after_draw  # both hands are full again: the seat due can play
        else:
            self.current = TERMINAL  # rulebook, Game End: the suitcase in play goes to nobody

    def _play(self, card: int, seat: int) -> None:
        """``seat`` plays ``card`` on the field of the phase; the second card of a pair decides it.
        Then the card is replaced from the pile, or with the pile empty (a finish-round game) the
        next seat is due at once; a seat due with no card left ends the game, the suitcase to nobody."""
        self.hands[seat].remove(card)
        duel = self.phase == _DUEL
        (self.centre if duel else self.embassies[self.carrier]).append(card)
        lead = self.lead
        if lead < 0:
            self.lead = card
            due = 1 - seat  # the other seat answers
        else:
            self.lead = -1
            due = self._decide_duel(lead, card, seat) if duel else self._decide_embassy(lead, card, seat)
        if self.deck:
            self.draw_seat = seat
            self.after_draw = due
            self.current = CHANCE
        else:
            self.current = due if due == SIMULTANEOUS or self.hands[due] else TERMINAL

    def _decide_duel(self, lead: int, card: int, seat: int) -> int:
        """Rulebook: the higher centre value takes the suitcase; equal values play again.
        Returns who plays next: the new carrier (defending), or the starter again after a tie."""
        centre = self.game.columns[CENTRE]
        if centre[lead] == centre[card]:
            self.ties += 1
            return self.starter
        second_wins = centre[card] > centre[lead]
        self.duels += 1
        self.second_wins += second_wins
        self.carrier = seat if second_wins else 1 - seat
        self.phase = _EMBASSY
        return self.carrier

    def _decide_embassy(self, lead: int, card: int, seat: int) -> int:
        """Rulebook: defence higher keeps the suitcase (on to the back door); attack higher
        snatches it (``after_snatch``); equal values play again, the carrier first.  Returns who
        is due next: the carrier, :data:`SIMULTANEOUS` (the back door) or the snatcher."""
        columns = self.game.columns
        defence, attack = columns[DEFENCE][lead], columns[ATTACK][card]
        if defence == attack:
            self.ties += 1
            return self.carrier
        self.embassy_fights += 1
        if defence > attack:
            self.holds += 1
            self.phase = _DOORS
            return SIMULTANEOUS
        self.snatches += 1
        if self.game.snatcher_runs:
            self.carrier = seat  # the snatcher defends first in the new embassy fight
        else:
            self.carrier = -1
            self.starter = seat  # the snatcher plays first in the new duel
            self.phase = _DUEL
        return seat

    def simultaneous_seats(self) -> tuple[int, ...]:
        """Both seats: the carrier chooses a door, the other seat places the officer."""
        return _SEATS

    def _resolve_simultaneous(self, submissions: dict[int, int]) -> None:
        """Rulebook: a different door wins the suitcase; the officer's door loses it."""
        carrier = self.carrier
        door, officer = submissions[carrier] - DOOR, submissions[1 - carrier] - DOOR
        self.reveal = (carrier, door, officer)
        if door != officer:
            self.suitcases[carrier] += 1
            winner = carrier
        else:
            self.caught += 1
            winner = 1 - carrier
        if not self.deck:  # only in a finish-round game: the round played out was the last
            self.current = TERMINAL
            return
        rule = self.game.next_round
        self._start_round(winner if rule == "guess-winner" else carrier if rule == "carrier" else self.rounds % 2)

    def _start_round(self, starter: int) -> None:
        self.rounds += 1
        self.phase = _DUEL
        self.starter = starter
        self.carrier = -1
        self.lead = -1
        self.current = starter

    def news(self, before) -> list[str]:
        """Who won each fight and each back door since ``before``, in words (``deckpress record``,
        ``replay --trace``): the city-centre duel (who carries the suitcase), a tie played again,
        the embassy fight (the defence holds, or the attacker snatches the suitcase), the back door
        (a suitcase won, or caught by the officer) and the suitcases so far."""
        game, out = self.game, []
        names, columns = game.card_names, game.columns
        if self.ties > before.ties:
            out.append("equal values: the pair is played again")
        if self.duels > before.duels:
            lead, card = self.centre[-2], self.centre[-1]
            win, lose = (card, lead) if self.second_wins > before.second_wins else (lead, card)
            out.append(f"seat {self.carrier if self.phase != _DUEL else self.starter} wins the city-centre duel "
                       f"({names[win]} {columns[CENTRE][win]} against {names[lose]} {columns[CENTRE][lose]}) and takes the suitcase")
        if self.holds > before.holds:
            out.append(f"seat {self.carrier}'s defence holds: on to the back door")
        if self.snatches > before.snatches:
            snatcher = self.carrier if self.carrier >= 0 else self.starter
            out.append(f"seat {snatcher} snatches the suitcase with a higher attack")
        if self.reveal is not None and sum(self.suitcases) + self.caught > sum(before.suitcases) + before.caught:
            carrier, door, officer = self.reveal
            doors = game.door_names
            if door != officer:
                out.append(f"seat {carrier} gets in by the {doors[door]} door (the officer watched the {doors[officer]} one): "
                           f"a suitcase for seat {carrier}")
            else:
                out.append(f"the officer (seat {1 - carrier}) was at the {doors[door]} door: seat {carrier}'s suitcase is lost")
        if self.returns() != before.returns() or (self.is_terminal() and not before.is_terminal()):
            out.append("suitcases " + ", ".join(f"seat {s}: {n}" for s, n in enumerate(self.suitcases))
                       + (" (the game is over)" if self.is_terminal() else ""))
        return out

    # -- results ----------------------------------------------------------------------------
    def returns(self) -> list[float]:
        """Each seat's suitcases."""
        return [float(s) for s in self.suitcases]

    def tally(self) -> dict[str, int]:
        """Counts for :meth:`GeheimeMissionGame.measures`: suitcases, rounds, fights, the seats'
        results and every agent's fights."""
        s0, s1 = self.suitcases
        resolved = sum(self.suitcases) + self.caught
        counts = {"suitcases won": s0 + s1, "suitcases caught by the officer": self.caught, "back-door attempts": resolved,
                  "suitcases in play at the end": self.rounds - resolved, "rounds": self.rounds, "snatches": self.snatches,
                  "replayed ties": self.ties, "centre duels": self.duels, "centre duels won by the second card": self.second_wins,
                  "embassy fights": self.embassy_fights, "defences that hold": self.holds,
                  "decided games": int(s0 != s1), "seat 0 wins": int(s0 > s1), "seat 0 lead": 100 * ((s0 > s1) - (s1 > s0))}
        labels, won = self.game.labels, self.won
        for n, fights in enumerate(self.fought):
            if fights:
                counts[f"fights of {labels[n]}"] = fights
                counts[f"fights won by {labels[n]}"] = won[n]
        return counts

    def _fights(self) -> Iterator[tuple[int, int, int, int]]:
        """Every fight so far, ``(first agent, its value, second agent, its value)``: the pairs on
        the face-up fields, in the order played (the city centre's centre values; at an embassy
        the defence, then the attack).  A pair still waiting for its second card is no fight yet."""
        columns = self.game.columns
        for field, first_colour, second_colour in ((self.centre, CENTRE, CENTRE), (self.embassies[0], DEFENCE, ATTACK),
                                                   (self.embassies[1], DEFENCE, ATTACK)):
            for first, second in zip(field[::2], field[1::2]):
                yield first, columns[first_colour][first], second, columns[second_colour][second]

    @property
    def fought(self) -> list[int]:
        """``fought[n]``: the fights agent ``n`` has been in."""
        counts = [0] * self.game.n_cards
        for first, _, second, _ in self._fights():
            counts[first] += 1
            counts[second] += 1
        return counts

    @property
    def won(self) -> list[int]:
        """``won[n]``: the fights agent ``n`` has won (a tie is won by neither)."""
        counts = [0] * self.game.n_cards
        for first, first_value, second, second_value in self._fights():
            if first_value != second_value:
                counts[first if first_value > second_value else second] += 1
        return counts

    # -- views, messages, logs --------------------------------------------------------------
    def view(self, seat: int) -> "GeheimeMissionView":
        """What ``seat`` sees."""
        return GeheimeMissionView(self, seat)

    def role(self, seat: int) -> str | None:
        """What ``seat`` does in the current step: centre, defend, attack, door, officer; None
        during a chance event or once the game is over."""
        if self.current == CHANCE or self.current == TERMINAL:
            return None
        if self.phase == _DUEL:
            return "centre"
        if self.phase == _EMBASSY:
            return "defend" if seat == self.carrier else "attack"
        return "door" if seat == self.carrier else "officer"

    def _seat_role(self, seat: int) -> str:
        """:meth:`role` while the seats decide.  Raises RuntimeError during a chance event or once
        the game is over, when no seat has a role: asking then is a bug of the caller."""
        role = self.role(seat)
        if role is None:
            raise RuntimeError(f"seat {seat} has no role now: {self.due()}")
        return role

    def due(self) -> str:
        """Who or what is due, in a player's words."""
        cur = self.current
        if cur == CHANCE:
            event = self.due_chance_event()
            return f"a {event['chance']} of a card to seat {event['seat']}"
        if cur == TERMINAL:
            return "nothing: the game is over"
        if cur == SIMULTANEOUS:
            waiting = [f"seat {s} {_ROLE_TEXT[self._seat_role(s)]}" for s in self.acting_seats()]
            return " and ".join(waiting) + " (in secret)"
        return f"seat {cur} {_ROLE_TEXT[self._seat_role(cur)]}"

    def _why_illegal(self, action: int, seat: int) -> IllegalAction:
        game = self.game
        if seat == CHANCE:
            if not 0 <= action < game.n_cards:
                return IllegalAction(Reason.UNKNOWN_ACTION, f"{action} is no agent of this game")
            return IllegalAction(Reason.IMPOSSIBLE_OUTCOME, f"{game.card_names[action]} cannot be {'dealt' if self.phase == _DEAL else 'drawn'}: "
                                                            f"it is in {self.where(action)}, not in the pile")
        doors = self.current == SIMULTANEOUS
        if 0 <= action < game.n_cards:
            if doors:
                return IllegalAction(Reason.WRONG_PHASE, f"seat {seat} {_ROLE_TEXT[self._seat_role(seat)]} now, not an agent")
            return IllegalAction(Reason.NOT_IN_HAND, f"{game.card_names[action]} is not in seat {seat}'s hand (it is in {self.where(action)})")
        if DOOR <= action < DOOR + len(game.door_names) and not doors:
            return IllegalAction(Reason.WRONG_PHASE, f"no back door now: seat {seat} {_ROLE_TEXT[self._seat_role(seat)]}")
        return IllegalAction(Reason.UNKNOWN_ACTION, f"{action} is no action of Geheime Mission")

    def action_to_event(self, action: int, seat: int) -> dict[str, Any]:
        """The log form of ``action`` by ``seat`` now: ``{seat: 0, centre: Nightjar}``, ``{seat: 1,
        officer: Red}``, ``{chance: draw, seat: 1, card: Kestrel}``."""
        game = self.game
        if seat == CHANCE:
            return {**self.due_chance_event(), "card": game.card_names[action]}
        if action >= DOOR:
            return {"seat": seat, self._seat_role(seat): game.door_names[action - DOOR]}
        return {"seat": seat, self._seat_role(seat): game.card_names[action]}

    def event_to_action(self, event: dict[str, Any]) -> tuple[int, int]:
        """``(seat, action)`` for a log event (:data:`CHANCE` as the seat of chance events).

        Raises:
            IllegalAction: ``log.malformed-event`` (unknown or missing keys, a bad seat),
                ``log.unknown-name`` (no such agent or door), ``phase.wrong`` (a verb that is not
                the seat's role now: an attack where the seat must defend, ...).
        """
        game = self.game
        if "chance" in event:
            if event["chance"] not in ("deal", "draw"):
                raise IllegalAction(Reason.MALFORMED_EVENT, f"unknown chance event {quoted(event['chance'])} (expected deal or draw)")
            check_keys(event, required=("chance", "seat", "card"))
            seat_of(event, game.players)
            return CHANCE, game.card(event["card"])
        verbs = [k for k in _PLAY_VERBS + _DOOR_VERBS if k in event]
        if len(verbs) != 1:
            raise IllegalAction(Reason.MALFORMED_EVENT, "a seat's event is {seat: N, centre|defend|attack: AGENT} or "
                                                        f"{{seat: N, door|officer: DOOR}}; this one has {', '.join(map(str, event))}")
        verb = verbs[0]
        check_keys(event, required=("seat", verb))
        seat = seat_of(event, game.players)
        role = self.role(seat)
        if role is not None and verb != role:
            due = self.current
            if due >= 0 and due != seat:  # the other seat moves first: its role is the one to write
                raise IllegalAction(Reason.NOT_YOUR_TURN, f"it is not seat {seat}'s turn: {self.due()}: write {{seat: {due}, {self.role(due)}: ...}}")
            raise IllegalAction(Reason.WRONG_PHASE, f"seat {seat} {_ROLE_TEXT[role]} now, not {verb}: write {{seat: {seat}, {role}: ...}}")
        return seat, (DOOR + game.door(event[verb]) if verb in _DOOR_VERBS else game.card(event[verb]))

    def _zones(self) -> Iterator[tuple[str, list[int]]]:
        """Every place an agent can be, in a player's words."""
        yield "seat 0's hand", self.hands[0]
        yield "seat 1's hand", self.hands[1]
        yield "the pile", self.deck
        yield "the city centre", self.centre
        yield "seat 0's embassy", self.embassies[0]
        yield "seat 1's embassy", self.embassies[1]

    def where(self, card: int) -> str:
        """Where agent ``card`` is, in a player's words."""
        return next(name for name, cards in self._zones() if card in cards)

    def check_invariants(self) -> list[str]:
        """Problems found (``[]`` when sound): every agent in exactly one place, hands of at most
        the hand size (full whenever a seat is due and the pile lasts), suitcases won and caught
        no more than the rounds started, the lead card on top of its field."""
        game = self.game
        places: dict[int, list[str]] = {}
        for name, cards in self._zones():
            for card in cards:
                places.setdefault(card, []).append(name)
        problems = [f"{game.card_names[c]} is in {len(where)} places: {', '.join(where)}" for c, where in places.items() if len(where) > 1]
        missing = [game.card_names[c] for c in range(game.n_cards) if c not in places]
        if missing:
            problems.append(f"{len(missing)} of the {game.n_cards} agents are nowhere: {', '.join(missing)}")
        for seat, hand in enumerate(self.hands):
            if len(hand) > game.hand_size or (self.current == seat and self.deck and len(hand) != game.hand_size):
                problems.append(f"seat {seat} holds {len(hand)} agents (hand size {game.hand_size})")
        if sum(self.suitcases) + self.caught > self.rounds:
            problems.append(f"{sum(self.suitcases)} suitcases won and {self.caught} caught in {self.rounds} rounds")
        if self.lead >= 0:
            field = self.centre if self.phase == _DUEL else self.embassies[self.carrier]
            if not field or field[-1] != self.lead:
                problems.append(f"the card to answer ({game.card_names[self.lead]}) is not on top of the {self.phase}")
        return problems

    def zones_dict(self) -> dict[str, list[str]]:
        """Every non-empty place with its agents by name (the pile sorted: its order is unknown)."""
        names = self.game.card_names
        return {name: sorted(names[c] for c in cards) if name == "the pile" else [names[c] for c in cards]
                for name, cards in self._zones() if cards}

    def to_dict(self) -> dict[str, Any]:
        """The whole state with names (golden files, debugging)."""
        return {"due": self.due(), "round": self.rounds, "phase": self.phase, "starter": self.starter,
                "carrier": None if self.carrier < 0 else self.carrier, "suitcases": self.suitcases,
                "last back door": _reveal_dict(self.game, self.reveal), "cards": self.zones_dict()}


class GeheimeMissionView(View):
    """What a seat sees: its own hand, the other hand's size, the pile's size, the face-up
    fields, who starts and who carries, the card it must answer, the suitcases, whether the other
    seat has made its secret choice (never which), and the last back door once revealed."""

    __slots__ = ()
    _state: GeheimeMissionState
    game: GeheimeMissionGame

    @property
    def hand(self) -> list[int]:
        """This seat's agents, sorted."""
        return sorted(self._state.hands[self.seat])

    @property
    def hand_sizes(self) -> list[int]:
        """How many agents each seat holds."""
        return [len(h) for h in self._state.hands]

    @property
    def deck_size(self) -> int:
        """Agents left in the pile."""
        return len(self._state.deck)

    @property
    def role(self) -> str | None:
        """This seat's role now: centre, defend, attack, door, officer (None when not deciding)."""
        return self._state.role(self.seat)

    @property
    def lead(self) -> int:
        """The other seat's face-up card this seat must answer, or -1 when this seat plays first."""
        state = self._state
        return state.lead if state.current == self.seat else -1

    @property
    def carrier(self) -> int:
        """The seat holding the suitcase, or -1 while it lies in the city centre."""
        return self._state.carrier

    @property
    def suitcases(self) -> list[int]:
        """Suitcases won by each seat."""
        return list(self._state.suitcases)

    @property
    def unseen(self) -> list[int]:
        """The agents this seat cannot see (the pile and the other hand), sorted."""
        state = self._state
        return sorted(state.deck + state.hands[1 - self.seat])

    def to_dict(self) -> dict[str, Any]:
        """Everything this seat sees, with names."""
        state, names = self._state, self.game.card_names
        out = {"seat": self.seat, "role": self.role, "hand": [names[c] for c in self.hand], "hand_sizes": self.hand_sizes,
               "pile": self.deck_size, "round": state.rounds, "starter": state.starter,
               "carrier": None if state.carrier < 0 else state.carrier, "suitcases": self.suitcases,
               "answer": names[self.lead] if self.lead >= 0 else None,
               "fields": {"city centre": [names[c] for c in state.centre],
                          "embassy of seat 0": [names[c] for c in state.embassies[0]],
                          "embassy of seat 1": [names[c] for c in state.embassies[1]]},
               "last back door": _reveal_dict(self.game, state.reveal)}
        if state.current == SIMULTANEOUS:
            out["other seat has chosen"] = state.submitted(1 - self.seat)
        return out

    def sample_state(self, rng) -> GeheimeMissionState:
        """A determinisation for search bots: a new state equal to the live one in all
        this seat sees, the other hand and the pile dealt again at random from :attr:`unseen`.

        Hidden from this seat, and so dealt again: the other hand's agents (its size kept) and the
        pile's agents and order (its size kept).  Everything else is public and kept: this seat's
        hand, the face-up fields (every agent played, so the fight counts too), who starts,
        carries and draws, the card to answer, the suitcases, the last back door.  At the back
        door the other seat's secret door is dropped (it chooses again); this seat's own is kept.
        The sample's history starts empty (the live one records the real deal and draws), and
        this seat's hand is sorted (the order it was drawn in is no part of the view)."""
        state, seat = self._state, self.seat
        other = 1 - seat
        new = state.clone()
        pool = shuffled(sorted(state.deck + state.hands[other]), rng)
        size = len(state.hands[other])
        new.hands[other], new.deck = pool[:size], pool[size:]
        new.hands[seat] = sorted(state.hands[seat])
        new._pending = {s: a for s, a in state._pending.items() if s == seat}
        new.history = []
        return new


def _reveal_dict(game: GeheimeMissionGame, reveal: tuple[int, int, int] | None) -> dict[str, Any] | None:
    if reveal is None:
        return None
    carrier, door, officer = reveal
    return {"carrier": carrier, "door": game.door_names[door], "officer": game.door_names[officer],
            "suitcase": "won" if door != officer else "caught"}


def _worth(values: list[tuple[int, ...]]) -> list[float]:
    """Per agent: the share of the other agents its best value beats in that colour (ties half)."""
    others = max(len(values) - 1, 1)
    worth = []
    for own in values:
        worth.append(max((sum(1.0 if v[k] < own[k] else 0.5 if v[k] == own[k] else 0.0 for v in values) - 0.5) / others
                         for k in range(len(own))))
    return worth


class GreedyBot:
    """The heuristic: spend the strongest agents only where they are needed, and mix the doors.

    Answering a face-up card, it plays the agent of least worth (:attr:`GeheimeMissionGame.worth`)
    that beats it, else the cheapest that ties it (the pair is replayed), else its least worthy
    agent.  Playing first (the round's first duel card, the carrier's defence), it weighs the
    chance that the other hand holds nothing better -- from the agents it cannot see -- against the
    agent's worth.  At the back door it chooses, like the officer, each door with probability 1/3:
    the equilibrium of the guessing game (the carrier gets in 2 times in 3 whatever the other does).
    """

    name = "greedy"
    uses_view = True

    def act(self, view: GeheimeMissionView, legal: Sequence[int], rng) -> int:
        """A door uniformly at random, else the agent chosen as described above."""
        if legal[0] >= DOOR:
            return legal[int(rng.random() * len(legal))]
        game = view.game
        worth, columns = game.worth, game.columns
        role = view.role
        if role is None:  # the drivers ask a bot only while its seat decides
            raise RuntimeError(f"the greedy bot of seat {view.seat} was asked to act while it has no role")
        colour = _ROLE_COLOUR[role]
        mine = columns[colour]
        lead = view.lead
        if lead >= 0:
            target = columns[CENTRE if colour == CENTRE else DEFENCE][lead]
            for better in ((c for c in legal if mine[c] > target), (c for c in legal if mine[c] == target)):
                choice = min(better, key=worth.__getitem__, default=None)
                if choice is not None:
                    return choice
            return min(legal, key=worth.__getitem__)
        against = CENTRE if colour == CENTRE else ATTACK
        unseen = sorted(map(columns[against].__getitem__, view.unseen))
        others = view.hand_sizes[1 - view.seat]

        def score(card: int) -> float:
            value = mine[card]
            # The share of unseen values below ``value``, ties counted half (exact in floats).
            below = (bisect_left(unseen, value) + bisect_right(unseen, value)) / 2 / len(unseen)
            return below ** others - _KEEP_WEIGHT * worth[card]

        return max(legal, key=score)


register_bot(GAME_INFO.id, "greedy", GreedyBot)
register(GeheimeMissionGame)

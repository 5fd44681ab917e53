"""Mission Emission (Nightingame): three games on one deck of 36 state cards and 18 point cards.

What the games exercise: chance (a shuffled draw deck: deals, draws, the base game's reshuffle of
the play pile, the kids game's tied cards put under the deck), hidden hands, turn order with an
active seat that changes every round, piles that finish or are removed, and three scorings
(point totals, state cards collected).  Rules: the Mission Emission rulebook (Nightingame)
("BASE GAME", "STRATEGY GAME", "KIDS GAME" and their "Mission Directives").

The modes are one game each (``mode`` parameter): ``base.py``, ``strategy.py`` and ``kids.py`` hold
their states, views and greedy bots; ``common.py`` the deck, hands, deals and draws they share.
Card values and point values come from the content (``content/mission-emission/``), so a changed
YAML value changes both the printed card and the game.  The publisher's "Set collection" variant
of the base game (``set_collection``, ruleset ``set-collection``) reads each state card's
``colour``: the mission whose point card a set of three such cards takes.

Actions are small integers (see ``common.py``); every action has a log form with names:
``{seat: 0, mission: Smoke}``, ``{seat: 1, play: Karnataka}``, ``{seat: 1, play: Goa, pile: Forest}``,
``{chance: deal, seat: 2, cards: [Goa, Kerala, Bihar]}``, ``{chance: draw, seat: 1, card: Goa}``,
``{chance: reshuffle}``; with set collection ``{seat: 2, keep: Goa}`` and
``{seat: 2, give: Smoke -1, to: 0}`` (``docs/game-logs.md``).
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any, Mapping

from deckpress.generator.content.safetext import excerpt, quoted
from deckpress.rules.core.bots import register_bot
from deckpress.rules.core.errors import ParameterError
from deckpress.rules.core.events import by_name
from deckpress.rules.core.game import Game, GameInfo
from deckpress.rules.core.measures import Measure, per_game, rate
from deckpress.rules.core.params import FROM_CONTENT, Param, Reading
from deckpress.rules.core.registry import register
from deckpress.rules.mission_emission import base, kids, strategy
from deckpress.rules.mission_emission.common import MAX_CARDS, MAX_MISSIONS

_RULEBOOK = "Mission Emission rulebook (Nightingame, Bangalore; base, strategy and kids games)"  # read in docs/rules-audit.md, "Mission Emission"
_SET_COLLECTION = ("nightingame.com, 'Mission Emission Rules | With Set Collection', alternative rule proposed by "
                   "Sidhant Chand (https://www.nightingame.com/post/mission-emission-rules-with-set-collection)")

GAME_INFO = GameInfo(
    id="mission-emission",
    name="Mission Emission",
    version=1,
    rulebook=_RULEBOOK,
    chance=True,
    hidden_information=True,
    simultaneous=False,
    cooperative=False,
    params=(
        Param("players", int, 4, "Number of players (seats 0.. clockwise; seat 0 is the youngest and starts).",
              "rulebook cover: 2-6 players", low=2, high=6),
        Param("mode", str, "base", "Which game of the box: base, strategy or kids.",
              "rulebook: BASE GAME, STRATEGY GAME, KIDS GAME", choices=("base", "strategy", "kids")),
        Param("hand_size", int, 3, "Cards in each hand (the kids game is played with 1).",
              "rulebook: 'distribute 3 to each player' (kids: 'distribute 1')", low=1, high=6, by_mode={"kids": 1}),
        Param("points", dict, FROM_CONTENT, "Base game: each mission's point values, top of the pile first "
              "(default: point-cards.yaml; a partial mapping overrides those missions only).",
              "point-cards.yaml", merge=True, modes=("base", "strategy")),
        Param("piles_to_end", int, 4, "Base game: the game ends when this many mission piles are finished.",
              "rulebook, base game directives: 'When any 4 Mission Piles are finished, the game ends'", low=1, high=MAX_MISSIONS, modes=("base",)),
        Param("tie", str, "nobody", "Base and kids games: who wins a tied round: nobody (the rulebook) or the tied "
              "card played first (a variant).", "rulebook directives: 'If there is a tie, no one gets...'",
              choices=("nobody", "first-played"), modes=("base", "kids")),
        Param("kids_winner", str, "highest", "Kids game: the card that takes all is the highest number of the mission, as "
              "the rulebook words it (for Smoke, Crowd and Garbage too), or, as a variant, the better number (higher "
              "Forest/Energy/Water, lower Smoke/Crowd/Garbage).",
              "rulebook, kids game: 'whoever has the highest number of that Mission gets all the players' cards'; 'better' "
              "follows the missions' meaning (fun facts page)",
              choices=("highest", "better"), modes=("kids",)),
        Param("centre", dict, {}, "Strategy game: which point card of each mission's pile starts in the centre, by its place "
              "in the pile (1 = the top card, +3 or -1; 3 = the bottom card); missions left out keep their top card.",
              "rulebook, strategy game: 'Keep any 1 Point Card of each colour in the centre'", merge=True, modes=("strategy",)),
        Param("reshuffle", str, "when-needed", "Base game: when the play pile is shuffled into a new draw deck: when-needed, "
              "when a seat must draw and the deck is empty (the round just played goes into the new deck); when-empty, as "
              "soon as the last card is taken (the next round's cards stay out of it).",
              "rulebook, base game directives: 'If the Draw Deck is finished, shuffle the Play Pile'",
              choices=("when-needed", "when-empty"), modes=("base",)),
        Param("kids_end", str, "deck", "Kids game: when the draw deck is 'finished': deck, once the cards that were never "
              "drawn cannot give every seat one more (tied cards under the deck are not drawn again, so every game ends); "
              "all-cards, once the deck and the tied cards under it together cannot (tied cards come back, and choosers "
              "who keep picking a tying mission can loop until the move bound).",
              "rulebook, kids game: 'If there is a tie, no one gets the cards and they go to the bottom of the Draw deck'; "
              "'If the Draw Deck is finished, the game ends'",
              choices=("deck", "all-cards"), modes=("kids",)),
        Param("set_collection", bool, False, "Base game, the publisher's 'Set collection' variant: instead of playing a card "
              "(except as the round's first player) a seat may keep it in its set pile, one colour at a time; three cards "
              "of a colour take that colour's top point card (a negative one is given to an opponent).", _SET_COLLECTION, modes=("base",)),
    ),
    readings=(
        Reading("reshuffle", "Base game directives",
                "If the Draw Deck is finished, shuffle the Play Pile to form a new Draw Deck (face-down)",
                (("when-needed", "when a seat must draw and the deck is empty: the round just played goes into the new deck"),
                 ("when-empty", "as soon as the last card is taken: the next round's cards stay out of it")),
                "the base game, once the draw deck runs out", "1,000 random four-seat base games on the same seeds (2026-11-28, `python benchmarks/readings.py "
                "--only mission-emission --param reshuffle`): winning score 12.1 against 12.0; seat win shares "
                "within 2 points", measure={"mode": "base"}),
        Reading("kids_end", "Kids game directives",
                "If there is a tie, no one gets the cards and they go to the bottom of the Draw deck. If the Draw Deck is "
                "finished, the game ends",
                (("deck", "the game ends once the cards never drawn cannot give every seat one more"),
                 ("all-cards", "the tied cards under the deck are drawn again (a game can loop to the move bound)")),
                "the kids game, after a tied round", "1,000 random four-seat kids games on the same seeds (2026-11-28, `python benchmarks/readings.py "
                "--only mission-emission --param kids_end`): the winners differ in 4.8 % of them; winning score 15.2 "
                "against 15.4", measure={"mode": "kids"}),
        Reading("kids_winner", "Kids game, Let's Go!",
                "whoever has the highest number of that Mission gets all the players' cards",
                (("highest", "the highest number, for Smoke, Crowd and Garbage too (the words)"),
                 ("better", "the better number: lower for Smoke, Crowd and Garbage")),
                "the kids game, rounds on Smoke, Crowd or Garbage", "1,000 random four-seat kids games on the same seeds (2026-11-28, `python benchmarks/readings.py "
                "--only mission-emission --param kids_winner`): winning score 15.2 under both; shared wins 29.3 % "
                "against 26.8 %", measure={"mode": "kids"}),
    ),
    rulesets={
        "base": {"mode": "base"},
        "strategy": {"mode": "strategy"},
        "kids": {"mode": "kids"},
        "set-collection": {"mode": "base", "set_collection": True},
    },
    max_length=lambda game: game.mode_rules.max_length(game),
    score_range=lambda game: game.mode_rules.score_range(game),
)

_MODES = {"base": base, "strategy": strategy, "kids": kids}


class MissionEmissionGame(Game):
    """Mission Emission with effective parameters; card tables built once from the content.

    Cards are numbered ``0..S-1`` for the state cards (states.yaml order), then ``S..`` for the
    point cards (point-cards.yaml order); missions ``0..5`` in missions.yaml order.

    Raises (from :meth:`create`): ParameterError for values that do not fit the content (an
    unknown mission in ``points``, a pile of the wrong length, too many cards dealt, set
    collection outside the base game).
    """

    info = GAME_INFO
    #: The base game's greedy bot's strength of each state card (the sum of its ranks on the piles
    #: worth points), set by ``base.prepare``; the other modes have none.
    strength: list[float]

    def __init__(self, content, params: Mapping[str, Any]):
        super().__init__(content, params)
        self.mode: str = params["mode"]
        self.mode_rules = _MODES[self.mode]
        self.state_class = self.mode_rules.STATE
        self.hand_size: int = params["hand_size"]
        self.piles_to_end: int = params["piles_to_end"]
        self.tie_first_played: bool = params["tie"] == "first-played"
        self.kids_better: bool = params["kids_winner"] == "better"
        self.kids_end_on_deck: bool = params["kids_end"] == "deck"
        self.reshuffle_when_empty: bool = params["reshuffle"] == "when-empty"
        self.set_collection: bool = params["set_collection"]
        if self.set_collection and self.mode != "base":
            raise ParameterError(f"parameter 'set_collection': the 'Set collection' variant changes the base game, not the {self.mode} game")
        missions = content["missions"]["missions"]
        states = content["states"]["states"]
        point_cards = content["point-cards"]["point_cards"]
        self.mission_ids = [m["id"] for m in missions]
        self.mission_names = [m["name"] for m in missions]
        self.higher_better = [m["better"] == "higher" for m in missions]
        self.sign = [1 if h else -1 for h in self.higher_better]
        self.n_missions = len(missions)
        self.n_states = len(states)
        self.n_cards = self.n_states + len(point_cards)
        if self.n_missions > MAX_MISSIONS or self.n_cards > MAX_CARDS:
            raise ParameterError(f"the engine handles at most {MAX_MISSIONS} missions and {MAX_CARDS} cards")
        #: values[card][mission] for state cards
        self.values = [tuple(s["values"][mid]["value"] for mid in self.mission_ids) for s in states]
        mindex = {mid: i for i, mid in enumerate(self.mission_ids)}
        #: colour[card]: the mission a state card's colour names (set collection)
        self.colour = [mindex[s["colour"]] for s in states]
        #: point_mission[card] (-1 for state cards); piles[m]: that mission's point cards, top first
        self.point_mission = [-1] * self.n_states + [mindex[p["mission"]] for p in point_cards]
        self.piles: list[list[int]] = [[] for _ in missions]
        for i, p in sorted(enumerate(point_cards), key=lambda ip: ip[1]["position"]):
            self.piles[mindex[p["mission"]]].append(self.n_states + i)
        self.pile_size = len(self.piles[0])
        self.point_value = [0] * self.n_cards
        self._check_points(params["points"])
        for m, pile in enumerate(self.piles):
            for position, card in enumerate(pile):
                self.point_value[card] = params["points"][self.mission_ids[m]][position]
        self.centre_cards = self._centre_cards(params["centre"])
        self.card_ids = [s["id"] for s in states] + [p["id"] for p in point_cards]
        self.card_names = [s["name"] for s in states] + [self._point_name(p, point_cards) for p in point_cards]
        self._card_lookup = {n.casefold(): c for c, n in enumerate(self.card_names)}
        self._card_lookup.update({i.casefold(): c for c, i in enumerate(self.card_ids)})
        self._mission_lookup = {n.casefold(): m for m, n in enumerate(self.mission_names)}
        self._mission_lookup.update({i.casefold(): m for m, i in enumerate(self.mission_ids)})
        #: clockwise[s]: every seat in clockwise order starting with s
        self.clockwise = [tuple((s + i) % self.players for i in range(self.players)) for s in range(self.players)]
        #: high_rank[card][m]: share of the other state cards with a lower number (ties count half);
        #: better_rank: the same in the mission's better direction.  Public facts the bots use.
        self.high_rank = _ranks(self.values, self.n_missions)
        self.better_rank = [tuple(r if self.higher_better[m] else 1.0 - r for m, r in enumerate(row)) for row in self.high_rank]
        self.mode_rules.prepare(self)

    def batched(self, bots):
        """The batched engine for random bots (``batched/``): the base game (a million games in
        under a minute on two cores), the kids and the strategy game, with the reference engine's
        distribution of results.

        Raises:
            ParameterError: the set collection variant, the kids game's ``kids_end: all-cards``,
                or a bot other than random.
        """
        from deckpress.rules.mission_emission.batched import (
            BatchedGame,  # NumPy only when asked for
        )

        return BatchedGame(self, bots)

    def measures(self, tallies: Mapping[str, int], games: int) -> list[Measure]:
        """Point cards as rates (each is won at most once a game: in how many games it was won),
        keyed by the card's id, the other counts as means per game."""
        ids = dict(zip(self.card_names, self.card_ids))
        out = [rate("Point cards won (share of games)", name[len("won: "):], count, games, key=ids.get(name[len("won: "):]))
               for name, count in sorted(tallies.items()) if name.startswith("won: ")]
        return out + [per_game("Counts per game", name, total) for name, total in sorted(tallies.items()) if not name.startswith("won: ")]

    @classmethod
    def content_defaults(cls, content) -> dict[str, Any]:
        """``points``: each mission's point values from point-cards.yaml, top of the pile first."""
        points: dict[str, list[int]] = {m["id"]: [] for m in content["missions"]["missions"]}
        for p in sorted(content["point-cards"]["point_cards"], key=lambda p: p["position"]):
            points[p["mission"]].append(p["points"])
        return {"points": points}

    def card(self, name: Any) -> int:
        """The card called ``name`` (printed name or id, any case).

        Raises:
            IllegalAction: ``log.unknown-name``, suggesting the closest names.
        """
        return by_name(name, self._card_lookup, "card", self.card_names)

    def mission(self, name: Any) -> int:
        """The mission called ``name`` (name or id, any case).

        Raises:
            IllegalAction: ``log.unknown-name``, listing the missions.
        """
        return by_name(name, self._mission_lookup, "mission", self.mission_names, list_all=True)

    def _centre_cards(self, centre: Mapping[str, Any]) -> list[int]:
        """The point card each mission's pile starts the strategy game with (parameter ``centre``).

        Raises:
            ParameterError: an unknown mission, or a place that is not 1 to the pile's size.
        """
        for mid, place in centre.items():
            if mid not in self.mission_ids:
                raise ParameterError(f"parameter 'centre': unknown mission '{excerpt(mid)}' (missions: {', '.join(self.mission_ids)})")
            if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= self.pile_size:
                raise ParameterError(f"parameter 'centre': {mid}: {quoted(place)} is not a place in its pile (1 to {self.pile_size}, 1 the top)")
        return [pile[centre.get(mid, 1) - 1] for mid, pile in zip(self.mission_ids, self.piles)]

    def _check_points(self, points: dict) -> None:
        for mid, values in points.items():
            if mid not in self.mission_ids:
                raise ParameterError(f"parameter 'points': unknown mission '{excerpt(mid)}' (missions: {', '.join(self.mission_ids)})")
            if not (isinstance(values, list) and len(values) == self.pile_size
                    and all(isinstance(v, int) and not isinstance(v, bool) for v in values)):
                raise ParameterError(f"parameter 'points': {mid} needs a list of {self.pile_size} whole numbers "
                                     f"(top of the pile first), got {quoted(values)}")

    def _point_name(self, card: dict, all_cards: list[dict]) -> str:
        """'Forest +3' as printed, or the card's id where two cards would share that name."""
        name = f"{self.mission_names[self.mission_ids.index(card['mission'])]} {card['points']:+d}"
        twins = sum(1 for p in all_cards if p["mission"] == card["mission"] and p["points"] == card["points"])
        return name if twins == 1 else card["id"]


def _ranks(values: list[tuple[int, ...]], missions: int) -> list[tuple[float, ...]]:
    others = max(len(values) - 1, 1)
    columns = []
    for m in range(missions):
        column = sorted(v[m] for v in values)
        columns.append({x: (bisect_left(column, x) + 0.5 * (bisect_right(column, x) - bisect_left(column, x) - 1)) / others
                        for x in column})
    return [tuple(columns[m][v[m]] for m in range(missions)) for v in values]


class GreedyBot:
    """A sensible heuristic for each mode, from the view only: in the base game choose the mission
    where the hand is strongest and play the card that wins it most cheaply (lowest winning number;
    the lowest number when the pile is worth negative points); in the strategy game claim or steal
    the pile with most state cards and close piles it claims; in the kids game choose the mission
    where its card ranks best.  With set collection it also keeps cards it cannot win with and
    gives negative point cards to the leader.

    Each mode's heuristic is its module's ``greedy`` (``base.greedy`` and so on)."""

    name = "greedy"
    uses_view = True

    def act(self, view, legal, rng) -> int:
        """The mode's greedy choice among ``legal``."""
        return view.game.mode_rules.greedy(view, legal)


register_bot(GAME_INFO.id, "greedy", GreedyBot)
register(MissionEmissionGame)

"""50 Missions (Oya, 2020; Ken Gruhl): a cooperative game of covering face-up symbol cards.

What the game exercises: cooperation (every seat shares one result), chance (the symbol deck and
the mission deck), hidden hands with the table talk the rules allow, a step where any seat may act
(the timed variant, :data:`~deckpress.rules.core.game.ANY`), and mission conditions read from the content
(``content/fifty-missions/missions.yaml``, compiled by ``generator/content/fifty_missions_conditions.py``),
so a mission added to the YAML is in the game.  Rules: the 50 Missions rulebook (Oya, 2020)
in its French original, which stands where the translation differs, and its English translation.

Readings of the rulebook (the sections named are the rulebook's):

* **Setup** (Preparation): 4 missions face up in a row (slots 0-3, left to right), the medals in
  the mission deck below the 15th, 19th and 23rd mission cards (``medals.yaml``), 4 symbol cards
  face up under the missions, hands of 4.  The Oya plays first: "the last player to complete a
  mission", which a first game has none of, so seat 0 by default; parameter ``oya`` names the
  seat in a following game.
* **A turn** (Flow of the game): cover one of the 4 face-up cards with a card of the same symbol
  or the same value, then draw back to 4 while the deck lasts; seats follow clockwise.
* **Missions**: "at any time" every mission on display that the 4 face-up cards meet is
  accomplished and replaced from the mission deck, left to right; a replacement met at once is
  accomplished too.  This is checked after the setup and after every play.
* **Medals**: the medals lie in the mission deck, so the replacement drawn after the 15th mission
  card is the bronze medal: it is turned over and won, and the mission under it fills the slot.
  A medal is thus won with the 16th, 20th and 24th mission accomplished; the level is the last
  medal won (End of the game).
* **The end** (End of the game): when the seat to play cannot play (no card in hand, or none that
  covers a face-up card); in the crazy variant, when no seat can play; and when every mission is
  accomplished (nothing is left to do).  ``game_end: any-seat`` reads "as soon as a player cannot
  play" literally: any stuck seat ends the game, whoever is due.
* **Past gold**: the cards under the 4 face-up cards are shuffled with what is left of the deck
  into a new deck, every seat draws back to 4 (clockwise from the seat that played) and play goes
  on; once.  The rulebook does not say whether this happens when gold is won or when the team
  would be stuck after it: ``after_gold`` chooses (default ``reshuffle-at-gold``: in the timed
  variant the timer is set back to 5 minutes once gold is reached, "avant de repartir", before
  setting off again, which reads as a restart at that moment).
* **Notes**: beginners may look under the face-up cards (``look_under``: every view lists the
  covered cards).  Table talk about the face-up cards and the missions is allowed, values and
  symbols in hand are not; it is modelled as every seat telling, truthfully, which face-up cards
  it can cover ("I have a card to play here"), shown in every other seat's view
  (``communication``; off for super pros).  Talk changes no rule, so it needs no action.
* **50 Crazy Missions**: no turn order; any seat with a playable card may play (``mode: crazy``,
  the :data:`~deckpress.rules.core.game.ANY` marker).  The 5-minute timer is not modelled.
* **Result**: every seat gets the number of missions accomplished (out of the 50); the medal level
  follows from it and is reported by the measures.  The team wins once it has won a medal.

Actions: a play is ``card * SLOTS + slot`` (``card`` a kind of symbol card, 28 in the shipped deck:
both copies of a card are alike).  Chance outcomes: a symbol card (dealt, drawn or turned face
up) is its kind, a mission card ``MISSION + m``, the reshuffle past gold ``RESHUFFLE``.  Log
events: ``{seat: 0, play: red lighter 5, slot: 2}``, ``{chance: mission, card: total-20}``,
``{chance: face-up, card: blue binoculars 3}``, ``{chance: deal, seat: 1, card: ...}``,
``{chance: draw, seat: 1, card: ...}``, ``{chance: reshuffle}``; card names are "colour symbol
value" (``red lighter 5``; ``lighter 5`` and ``red 5`` work too), missions their ids.
"""
from __future__ import annotations

from typing import Any, Mapping

from deckpress.generator.content.fifty_missions import (
    mission_conditions,
    printed_number,
    symbol_deck,
)
from deckpress.generator.content.fifty_missions_conditions import card_text
from deckpress.generator.content.safetext import quoted
from deckpress.rules.core.bots import register_bot
from deckpress.rules.core.errors import ParameterError
from deckpress.rules.core.events import PrintedNames, by_name
from deckpress.rules.core.game import Game, GameInfo
from deckpress.rules.core.measures import Measure, per_game, rate
from deckpress.rules.core.params import FROM_CONTENT, Param, Reading
from deckpress.rules.core.registry import register
from deckpress.rules.fifty_missions.completions import Completions
from deckpress.rules.fifty_missions.greedy import GreedyBot
from deckpress.rules.fifty_missions.state import SLOTS, FiftyMissionsState

_RULEBOOK = "50 Missions rulebook (Oya, 2020; the French original and its English translation)"  # read in docs/rules-audit.md, "50 Missions"
AT_GOLD, WHEN_STUCK = "reshuffle-at-gold", "reshuffle-when-stuck"
SEAT_DUE, ANY_SEAT = "seat-due", "any-seat"
MAX_PLAYERS = 8  # the engine's limit; the content's game.yaml gives the box's range


def _max_length(game: "FiftyMissionsGame") -> int:
    """Exact bound: before the one reshuffle at most every card but the 4 face-up ones enters a hand,
    and after it as many again; each card played entered a hand first.  Plus every mission draw,
    the 4 face-up cards and the reshuffle."""
    passes = 2 * (game.n_cards - SLOTS)
    return 2 * passes + game.n_missions + SLOTS + 1


GAME_INFO = GameInfo(
    id="fifty-missions",
    name="50 Missions",
    version=1,
    rulebook=_RULEBOOK,
    chance=True,
    hidden_information=True,
    simultaneous=False,
    cooperative=True,
    params=(
        Param("players", int, 3, "Number of players (seats 0.. clockwise; seat 0 starts). The box's range is in game.yaml.",
              "game.yaml players (the box: 1-4)", low=1, high=MAX_PLAYERS),
        Param("oya", int, 0, "The Oya, the seat that plays first: seat 0 in a first game; in a following game, the seat "
              "that completed the last mission of the game before.",
              "rulebook, Preparation: 'The Oya (the starting player) is the last player to complete a mission'",
              low=0, high=MAX_PLAYERS - 1, modes=("standard",)),
        Param("mode", str, "standard", "standard: seats play in turn, clockwise; crazy: no turn order, any seat that can "
              "play may play (50 Crazy Missions; its timer is not modelled).",
              "rulebook: Flow of the game; 50 Crazy Missions", choices=("standard", "crazy")),
        Param("hand_size", int, 4, "Cards in each hand: dealt, and drawn back to after each play.",
              "rulebook, Preparation: 'deal 4 cards to each player'; Flow: 'draws to have 4 cards'", low=1, high=8),
        Param("look_under", bool, False, "Players may look under the face-up cards: every view lists the covered cards.",
              "rulebook, Notes: 'for beginners'"),
        Param("communication", bool, True, "Table talk: each seat tells which face-up cards it can cover (never its cards); "
              "off for super pros.", "rulebook, Notes: talk about the face-up cards and missions only; super pros: none"),
        Param("after_gold", str, AT_GOLD, "When the covered cards are reshuffled into a new deck, once: when gold is won, "
              "or when the team is stuck after gold.", "rulebook, End of the game (the moment is not stated)",
              choices=(AT_GOLD, WHEN_STUCK)),
        Param("game_end", str, SEAT_DUE, "When a stuck player ends the game: seat-due, when the seat to play cannot play "
              "(in the crazy variant, when no seat can); any-seat, as soon as any seat cannot play, whoever is due (the "
              "sentence read literally).",
              "rulebook, End of the game: 'The game is over as soon as a player cannot play a card (he has no cards left in "
              "his hand or none of his cards in his hand can be placed)'", choices=(SEAT_DUE, ANY_SEAT)),
        Param("medal_places", list, FROM_CONTENT, "Mission cards above each medal in the mission deck, medal by medal "
              "(default: medals.yaml, 15, 19, 23).", "medals.yaml; rulebook, Preparation"),
    ),
    readings=(
        Reading("game_end", "End of the game",
                "The game is over as soon as a player cannot play a card (he has no cards left in his hand or none of his "
                "cards in his hand can be placed).",
                ((SEAT_DUE, "the game ends when the seat to play cannot play (crazy variant: when no seat can)"),
                 (ANY_SEAT, "the game ends as soon as any seat cannot play, whoever is due (the sentence read literally)")),
                "every game: near the end, when hands hold few playable cards", "500 greedy four-seat games on the same seeds (2026-11-28, `python benchmarks/readings.py --only "
                "fifty-missions --param game_end`): 26.1 against 19.5 missions a game; a medal (Bronze or better) in "
                "86.0 % against 63.4 %", measure={"players": 4}, bots="greedy"),
        Reading("after_gold", "End of the game",
                "If the Gold Medal is reached, the game continues ...: all cards under the 4 exposed Symbol cards are collected "
                "and shuffled with any remaining deck to form a new Symbol deck.",
                ((AT_GOLD, "the reshuffle happens at the moment gold is won"),
                 (WHEN_STUCK, "the reshuffle waits until the team is stuck")),
                "games that reach gold", "500 greedy four-seat games on the same seeds (2026-11-28, `python benchmarks/readings.py --only "
                "fifty-missions --param after_gold`): 26.1 against 26.8 missions a game; medals unchanged (86.0 %)", measure={"players": 4}, bots="greedy"),
        Reading("medal_places", "Preparation",
                "Then slide the Medals face down into this deck: Bronze after 15 cards, Silver 4 cards further down, and "
                "Gold 4 cards further down.",
                (([15, 19, 23], "4 more mission cards between the medals (medals.yaml)"),
                 ([15, 18, 21], "'4 cards further down' counting the medal card above")),
                "silver and gold", "500 greedy four-seat games on the same seeds (2026-11-28, `python benchmarks/readings.py --only "
                "fifty-missions --param medal_places`): 26.1 against 27.9 missions a game (silver and gold come 1 "
                "and 2 missions sooner); Bronze or better unchanged (86.0 %)", measure={"players": 4}, bots="greedy"),
    ),
    rulesets={
        "standard": {},
        "beginners": {"look_under": True},
        "super_pros": {"communication": False},
        "crazy": {"mode": "crazy"},
    },
    max_length=_max_length,
    score_range=lambda game: (0.0, float(game.n_missions)),
    result_name="missions completed",
)


class FiftyMissionsGame(Game):
    """50 Missions with effective parameters; the deck, the missions' conditions and the medals
    read from the content into compact tables.

    Symbol cards are numbered by kind, ``0..K-1`` in the order of ``SymbolDeck.kinds`` (symbol by
    symbol, values rising); missions ``0..M-1`` in missions.yaml order; medals in medals.yaml order.

    Raises (from :meth:`create`): ParameterError for more players than the box allows (game.yaml),
    more cards dealt than the deck holds, medal places that do not fit the mission deck, or content
    with more than 256 kinds of symbol card or missions (the state keeps its decks as bytes).
    """

    info = GAME_INFO

    def __init__(self, content, params: Mapping[str, Any]):
        super().__init__(content, params)
        deck = symbol_deck(content)
        conditions = mission_conditions(content)
        self.crazy: bool = params["mode"] == "crazy"
        self.any_seat_ends: bool = params["game_end"] == ANY_SEAT
        self.hand_size: int = params["hand_size"]
        self.oya: int = params["oya"]
        self.look_under: bool = params["look_under"]
        self.communication: bool = params["communication"]
        self.reshuffle_when_stuck: bool = params["after_gold"] == WHEN_STUCK
        #: kinds[k]: the card as the conditions read it, (symbol id, value)
        self.kinds: list[tuple[str, int]] = list(deck.kinds)
        self.n_kinds = len(self.kinds)
        self.copies = deck.copies
        self.n_cards = self.n_kinds * self.copies
        self.card_names = [f"{deck.colours[s]} {deck.names[s]} {v}" for s, v in self.kinds]
        #: covers[k][t]: card k may cover card t (same symbol or same value); coverers[t]: every such k
        self.covers = [[a[0] == b[0] or a[1] == b[1] for b in self.kinds] for a in self.kinds]
        self.coverers = [[k for k in range(self.n_kinds) if self.covers[k][t]] for t in range(self.n_kinds)]
        self.coverer_masks = [sum(1 << k for k in ks) for ks in self.coverers]
        self.all_kinds_mask = (1 << self.n_kinds) - 1
        #: cover_bits[j][t]: face-up card ``t`` in slot ``j`` as the state's ``open_slots`` counts it,
        #: bit ``j`` of byte ``k`` set for every card ``k`` that covers it (one byte per card, one bit
        #: per slot); card_moves[k][n]: the plays of card ``k`` onto the slots of ``n`` (bit j: slot
        #: j), in rising order.
        assert SLOTS <= 8, "one byte per card kind holds a bit per slot"
        self.cover_bits = [[sum(1 << (8 * k + j) for k in ks) for ks in self.coverers] for j in range(SLOTS)]
        self.card_moves = [[tuple(k * SLOTS + j for j in range(SLOTS) if n >> j & 1) for n in range(1 << SLOTS)]
                           for k in range(self.n_kinds)]
        self.mission_ids = list(conditions)
        self.met = [c.met for c in conditions.values()]
        #: which cards would meet each mission in a slot, memoised for every game this object plays
        self.completions = Completions(self.kinds, list(conditions.values()))
        self.n_missions = len(self.mission_ids)
        medals = content["medals"]["medals"]
        self.medal_ids = [m["id"] for m in medals]
        self.medal_names = [m["name"] for m in medals]
        self.medal_places: list[int] = params["medal_places"]
        self.gold = len(self.medal_ids)  # medals won once gold is won (gold is the last)
        self._check(content)
        self.clockwise = [tuple((s + i) % self.players for i in range(self.players)) for s in range(self.players)]
        self._card_lookup = _card_lookup(deck, self.kinds)
        numbers = [printed_number(m) for m in range(self.n_missions)]
        #: each mission as a player names it: its printed number and text ("No. 5 'Three yellow cards'")
        self.mission_labels = [f"{number} '{card_text(c).rstrip('.')}'" for number, c in zip(numbers, conditions.values())]
        self._missions = PrintedNames("mission", [[number, mid, number.replace(".", ""), str(m + 1), card_text(c)]
                                                        for m, (number, mid, c) in enumerate(zip(numbers, self.mission_ids, conditions.values()))])
        self.state_class = FiftyMissionsState

    @classmethod
    def content_defaults(cls, content) -> dict[str, Any]:
        """``medal_places``: each medal's ``after_missions`` from medals.yaml."""
        return {"medal_places": [m["after_missions"] for m in content["medals"]["medals"]]}

    def _check(self, content) -> None:
        box = content["game"]["players"]
        if not box["min"] <= self.players <= box["max"]:
            raise ParameterError(f"parameter 'players': {self.info.name} is for {box['min']} to {box['max']} players (game.yaml), not {self.players}")
        if SLOTS + self.players * self.hand_size > self.n_cards:
            raise ParameterError(f"{self.players} players x {self.hand_size} cards and {SLOTS} face-up cards are more than the {self.n_cards} symbol cards")
        if self.oya >= self.players:
            raise ParameterError(f"parameter 'oya': seat {self.oya} is not one of the {self.players} seats (0 to {self.players - 1})")
        if max(self.n_kinds, self.n_missions) > 256:
            raise ParameterError(f"the engine keeps its decks as bytes: at most 256 kinds of symbol card and 256 missions, "
                                 f"not {self.n_kinds} and {self.n_missions}")
        places, below = self.medal_places, max(self.n_missions - SLOTS, 0)
        if (len(places) != len(self.medal_ids) or not all(isinstance(p, int) and not isinstance(p, bool) for p in places)
                or any(b <= a for a, b in zip(places, places[1:])) or any(not 0 <= p <= below for p in places)):
            raise ParameterError(f"parameter 'medal_places': {len(self.medal_ids)} whole numbers rising from 0 to {below} "
                                 f"(mission cards above each medal: {', '.join(self.medal_ids)}), got {quoted(places)}")

    def batched(self, bots):
        """The batched engine for random bots (``batched.py``): many games at once on NumPy
        arrays, both modes and every parameter value but ``game_end: any-seat``, with the reference
        engine's distribution of results but not its games.

        Raises:
            ParameterError: a bot other than random; ``game_end: any-seat`` (the batched engine
                ends a game on the seat due only); content with so many card kinds and missions
                that the engine's table of mission answers would pass its bound (not the shipped
                content).
        """
        from deckpress.rules.fifty_missions.batched import (
            FiftyMissionsBatched,  # NumPy only when asked for
        )

        if self.any_seat_ends:
            raise ParameterError("the batched engine plays game_end: seat-due only (a game ends when the seat due cannot "
                                 "play); run without --batched for game_end: any-seat")
        return FiftyMissionsBatched(self, bots)

    def inert_effects(self, tallies: Mapping[str, int]):
        """Each mission with the times it was on display and the times it was accomplished (the
        tallies ``displayed:`` and ``completed:``): a mission never accomplished is a dead card."""
        from deckpress.rules.core.balance import Effect

        return [Effect(f"mission {mid}", tallies.get(f"displayed: {mid}", 0), tallies.get(f"completed: {mid}", 0),
                       "times on display", "got accomplished") for mid in self.mission_ids]

    def measures(self, tallies: Mapping[str, int], games: int) -> list[Measure]:
        """Medal levels reached (at least each medal, and the final level), counts per game, and
        each mission's completion rate when it was on display, most often completed first."""
        levels = "Medal level reached (share of games)"
        out = [rate(levels, f"{name} or better", tallies.get(f"reached: {mid}", 0), games)
               for mid, name in zip(self.medal_ids, self.medal_names)]
        out.append(rate(levels, f"all {self.n_missions} missions", tallies.get("all missions completed", 0), games))
        out += [rate("Final level (share of games)", name, tallies.get(f"level: {key}", 0), games)
                for key, name in zip(["none", *self.medal_ids], ["no medal", *self.medal_names])]
        out += [per_game("Counts per game", name, tallies.get(name, 0)) for name in ("missions completed", "cards played", "reshuffles")]
        missions = [rate("Missions: completed when on display (most often first)", mid, tallies.get(f"completed: {mid}", 0),
                         tallies.get(f"displayed: {mid}", 0)) for mid in self.mission_ids]
        missions.sort(key=lambda m: -1.0 if (share := m.value(games)) is None else -share)  # None: never on display
        return out + missions

    def card(self, name: Any) -> int:
        """The symbol card called ``name`` ("red lighter 5", "lighter 5", "red 5"; any case).

        Raises:
            IllegalAction: ``log.unknown-name``, suggesting the closest name.
        """
        return by_name(name, self._card_lookup, "symbol card", self.card_names)

    def mission(self, name: Any) -> int:
        """The mission called ``name`` in a log: its id, the number its card prints ("No. 5",
        "no 5", "5") or its card's text, in any case (a table writes what is printed).

        Raises:
            IllegalAction: ``log.unknown-name``, suggesting the closest name; or, for a text two
                cards print, asking for the number.
        """
        return self._missions(name)

    def level_name(self, medals: int) -> str | None:
        """The name of the last of ``medals`` medals won, or None."""
        return self.medal_names[medals - 1] if medals else None


def _card_lookup(deck, kinds: list[tuple[str, int]]) -> dict[str, int]:
    """Every accepted name of each card kind, case-folded: colour and symbol, symbol alone (name or
    id), colour alone (or another word for it), each followed by the value."""
    lookup: dict[str, int] = {}
    for k, (symbol, value) in enumerate(kinds):
        colour = deck.colours[symbol]
        words = {f"{colour} {deck.names[symbol]}", deck.names[symbol], symbol, colour}
        words |= {alias for alias, c in deck.aliases.items() if c == colour}
        lookup.update((f"{w} {value}".casefold(), k) for w in words)
    return lookup


register_bot(GAME_INFO.id, "greedy", GreedyBot)
register(FiftyMissionsGame)

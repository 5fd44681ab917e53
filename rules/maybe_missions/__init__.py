"""Maybe Missions (Pandaqi): a voting game with both expansions (Secret Identities, Gadget Shopping)
and the rulebook's variants.  Rules: the Maybe Missions rulebook (Pandaqi); every Master rule,
identity power and shop reward is a kind of ``schemas/maybe-missions.vocabulary.schema.json``, whose
descriptions (and its ROUND, SCORE and PRECEDENCE terms) this engine implements.

What the game exercises: a simultaneous secret vote (the core's ``SIMULTANEOUS`` step; open voting
and late voters make it sequential), chance (the deal with its redeal, decks turned up card by
card, random votes taken from a hand), hidden hands and secret identities, an active seat, and
rules that change every round, written in content.  Readings of ambiguous rules are in
``content/maybe-missions/game.yaml`` (``notes``) and in the docstrings where they apply.

The package, one concern per module: ``cards`` (tables, action numbers), ``steps`` (the registries
of tasks, decisions and chance events), ``state`` (places of cards, the agenda, log events),
``flow`` (setup and the round), ``masters`` (Master rule kinds), ``identities`` (public powers),
``scoring`` (score and secret powers), ``moves`` (card moves shared by rules and rewards), ``shop``
(Gadget Shopping and reward kinds), ``aloud`` (what the table says aloud: the Master card won, "done"
after a proposal that ended by itself), ``view``, ``bots``, ``measures``.  Every kind of the
vocabulary is one function in :data:`IMPLEMENTED`'s registries; content using a kind that is not
there fails ``deckpress validate`` at the kind's line (:meth:`MaybeMissionsGame.content_errors`).

Events (``docs/game-logs.md``): ``{chance: deal, seat: 0, cards: [12, 37, ...]}`` (vote numbers),
``{chance: public-identity, seat: 0, card: The Diplomat}``, ``{chance: shop, card: shop-04}``,
``{chance: market, card: Tail the courier}``, ``{chance: master, card: master-07}``,
``{seat: 0, propose: Tail the courier}`` ... ``{seat: 0, propose: done}``, ``{seat: 2, vote: 24}``,
``{seat: 1, collect: Tail the courier}``, ``{seat: 3, buy: shop}`` and so on: the key names the
decision, the value a vote number, a card (mission title or id, Master or shop card id), a seat or
``none``/``done``.  Said aloud, checked and changing nothing (``aloud``): ``{seat: 0, takes_master:
master-02, side: green}`` (or ``takes_master: none``), and ``{seat: 0, propose: done}`` right after a
proposal that ended by itself.
"""
from __future__ import annotations

from typing import Any, Collection, Mapping

from deckpress.generator.content.errors import ContentErrors
from deckpress.generator.content.maybe_missions_vocabulary import (
    effect_text,
    unsupported_kinds,
)
from deckpress.generator.content.safetext import quoted
from deckpress.rules.core.bots import register_bot
from deckpress.rules.core.errors import IllegalAction, ParameterError, Reason
from deckpress.rules.core.events import PrintedNames, closest
from deckpress.rules.core.game import Game, GameInfo
from deckpress.rules.core.measures import Measure
from deckpress.rules.core.params import Param, Reading
from deckpress.rules.core.registry import register
from deckpress.rules.maybe_missions import flow, moves  # noqa: F401  (they register the round's tasks and decisions)
from deckpress.rules.maybe_missions.bots import GreedyBot
from deckpress.rules.maybe_missions.cards import (
    MAX_CARDS,
    MAX_IDENTITIES,
    MAX_SEATS,
    MAX_VOTE,
    NO,
    RESOURCES,
    YES,
    side_tables,
    vote_number,
)
from deckpress.rules.maybe_missions.identities import PUBLIC_POWERS, seat_powers
from deckpress.rules.maybe_missions.masters import MASTER_RULES, RoundRules, round_rules
from deckpress.rules.maybe_missions.measures import measures
from deckpress.rules.maybe_missions.scoring import (
    SECRET_POWERS,
    bonus_bound,
    score_profile,
)
from deckpress.rules.maybe_missions.shop import REWARDS
from deckpress.rules.maybe_missions.state import MaybeMissionsState

_RULEBOOK = "Maybe Missions rulebook (Pandaqi)"  # read in docs/rules-audit.md, "Maybe Missions"

#: The kinds this engine implements, by vocabulary family: ``deckpress validate`` reports any
#: other kind used in content.
IMPLEMENTED: dict[str, Collection[str]] = {"master_rule": MASTER_RULES, "public_power": PUBLIC_POWERS, "secret_power": SECRET_POWERS, "reward": REWARDS}

GAME_INFO = GameInfo(
    id="maybe-missions",
    name="Maybe Missions",
    version=2,  # 2: identity_cards (a secret identity reads collected Mission Cards only, by default)
    rulebook=_RULEBOOK,
    chance=True,
    hidden_information=True,
    simultaneous=True,
    cooperative=False,
    params=(
        Param("players", int, 4, "Number of players (seats 0.. clockwise; seat 0 starts as the active player).",
              "game.yaml: 3-6 players (card-facts.md: up to 6)", low=3, high=6),
        Param("identities", bool, False, "Secret Identities expansion: a public and a secret identity per seat.",
              "rulebook, Expansions: Secret Identities"),
        Param("gadgets", bool, False, "Gadget Shopping expansion: a shop after each vote, personal shops.",
              "rulebook, Expansions: Gadget Shopping"),
        Param("shop_order", str, "high-first",
              "Gadget Shopping: the order voters are asked to buy: high-first, highest vote number first (the rulebook's "
              "parenthesis); low-first, lowest first (its word 'ascending').",
              "rulebook, Gadget Shopping: 'in ascending order (highest vote -> lowest vote)', which says both",
              choices=("high-first", "low-first")),
        Param("empty_market", str, "end",
              "When no mission card is left to propose: end, the game ends (a mission needs at least 1 card); vote, the "
              "round is still voted on, on no cards (the reading this engine played at first).",
              "rulebook, Gameplay: 'You must choose at least 1 card'", choices=("end", "vote")),
        Param("identity_scoring", str, "count",
              "count: the resource held in the most icons counts double and the one in the fewest not at all (the rulebook's "
              "words); value: the resource worth the most points counts double and the one worth the fewest not at all "
              "(differs only when a secret identity changes what a resource is worth).",
              "rulebook, Objective: 'The resource which you have the most counts double, the least does not count'",
              choices=("count", "value")),
        Param("identity_cards", str, "missions",
              "Secret Identities: the collected cards a secret identity's powers read: missions, collected Mission Cards "
              "only (the rulebook's sentence; the usual scoring still counts a won Master card's icons, each worth 1); all, "
              "Master cards won too (the count this engine played before).",
              "rulebook, Secret Identities: 'When a secret identity talks about icons showing on a card, it's always about a "
              "collected Mission Card'", choices=("missions", "all")),
        Param("adjust_removed", str, "market",
              "voter_adjusts_mission (master-19: 'may add a market card to the mission or remove one'): a mission card "
              "removed goes back to the market (market, which then holds one card more, 7 with the usual 6, until it is "
              "next refilled) or to the mission discards (discard).",
              "rulebook, Setup: 'create the market: 6 faceup Mission Cards in a row'; the card's text says only 'remove "
              "one'", choices=("market", "discard")),
        Param("play_masters", bool, False, "Variant: collected green-side-up Master cards may be played before a round.",
              "rulebook, Variants: 'You can allow Master Cards to be played as well'"),
        Param("reduce_randomness", bool, False, "Variant: a seat that collected no card this round may discard 2 votes "
              "and draw 2 new ones.", "rulebook, Variants: 'To reduce randomness'"),
        Param("redraw_from", str, "discards", "Reduce randomness: where the 2 new votes come from. 'the deck' is read as "
              "discards, the votes discarded so far, shuffled (the seat's own 2 join them after it draws), which works at "
              "every player count; box, the votes not dealt at set-up, is empty at 6 players (the variant never acts) and "
              "brings in votes from outside the game's 5 + 5 per player at 3 to 5.",
              "rulebook, Variants: 'you may discard 2 Votes to draw new ones from the deck'", choices=("discards", "box")),
        Param("vote_numbers", str, "random", "Which vote cards are in play: random, 'votes' YES and 'votes' NO per "
              "player taken at random from the 60 (the others stay in the box, the vote deck that draws take from); "
              "lowest, the votes numbered 1 to 2 x votes x players (the rest left out), so 'votes above 45 don't "
              "count' and the +-15 shifts act only with enough players.",
              "rulebook, Setup: 'Create a deck containing 5 YES and 5 NO Votes per player'", choices=("random", "lowest")),
        Param("tie", str, "success", "A tied vote is a SUCCESS (the rulebook: a tie is no NO majority) or, as a variant, a FAIL.",
              "rulebook, Gameplay: 'If the majority voted NO, the mission FAILS. Otherwise, it SUCCEEDS.' (the publisher's "
              "generator, card-facts.md: 'A tie vote counts as SUCCESS')", choices=("success", "fail")),
        Param("votes", int, 5, "YES votes and NO votes per player in the deck; each hand is twice this.",
              "rulebook, Setup: '5 YES and 5 NO Votes per player ... deal each player 10' (change to modify duration)", low=1, high=10),
        Param("market", int, 6, "Mission cards in the market.", "rulebook, Setup: '6 faceup Mission Cards in a row'", low=1, high=12),
    ),
    rulesets={
        "base": {"identities": False, "gadgets": False},
        "play-masters": {"identities": False, "gadgets": False, "play_masters": True},  # game.yaml's variant, by its name there
        "identities": {"identities": True, "gadgets": False},
        "gadgets": {"identities": False, "gadgets": True},
        "all": {"identities": True, "gadgets": True},
    },
    readings=(
        Reading("identity_cards", "Secret Identities",
                "When a secret identity talks about icons showing on a card, it's always about a collected Mission Card, and "
                "only the side that points up.",
                (("missions", ("a secret identity's powers read the collected Mission Cards only; the usual scoring still "
                               "counts a won Master card's icons, each worth 1 (the sentence)")),
                 ("all", "a won Master card's icons are read by the secret identity too (the engine's count before)")),
                "Secret Identities: a seat holding a won Master card whose icons its secret identity weighs or counts "
                "(The Ghost holding only master-01 green side up scores 4 by the sentence, 2 by the other reading)",
                "1,000 random four-seat Secret Identities games on the same seeds (2026-11-28, `python "
                "benchmarks/readings.py --only maybe-missions --param identity_cards`): the winners differ in 18.7 % "
                "of them (only the final count differs); winning score 18.1 against 18.6", measure={"identities": True}),
        Reading("identity_scoring", "Objective",
                "The resource which you have the most counts double. The resource which you have the least does not count.",
                (("count", "the most and the fewest icons held (the words)"),
                 ("value", "the resource worth the most and the fewest points")),
                "Secret Identities: only when a secret identity changes what a resource is worth (resource_value)",
                "1,000 random four-seat Secret Identities games on the same seeds (2026-11-28, `python "
                "benchmarks/readings.py --only maybe-missions --param identity_scoring`): the winners differ in 6.6 "
                "% of them (only the final count differs); winning score 18.1 against 18.4", measure={"identities": True}),
        Reading("vote_numbers", "Setup", "Create a deck containing 5 YES and 5 NO Votes per player.",
                (("random", "a random 5 YES and 5 NO per player of the 60 numbered votes"),
                 ("lowest", "the votes numbered 1 to 10 per player")),
                "3 to 5 players (at 6 every vote is in play): whether 'votes above 45 don't count' and the +-15 shifts can act",
                "1,000 random four-seat games on the same seeds (2026-11-28, `python benchmarks/readings.py --only "
                "maybe-missions --param vote_numbers`): winning score 19.5 against 19.7; seat 0 wins 34.4 % against "
                "37.1 % (the games part ways, so which game each seed gives changes)", measure={"players": 4}),
        Reading("empty_market", "Gameplay", "You must choose at least 1 card.",
                (("end", "once no mission card is left to propose, the game ends"),
                 ("vote", "the round is voted on, on no cards")),
                "a game that runs out of mission cards before the votes run out (more votes per player, a smaller deck)",
                "1,000 random three-seat games with 8 YES and 8 NO votes a player, on the same seeds (2026-11-28, `python "
                "benchmarks/readings.py --only maybe-missions --param empty_market`): the winners differ in 1.1 % of "
                "them; winning score 26.6 under both", measure={"votes": 8, "players": 3}),
        Reading("redraw_from", "Variants", "If you didn't collect a card this round, you may discard 2 Votes to draw new ones "
                "from the deck.",
                (("discards", "the votes discarded so far, shuffled"),
                 ("box", "the votes not dealt at set-up (none at 6 players: the variant never acts)")),
                "the reduce randomness variant", "1,000 random four-seat reduce randomness games on the same seeds (2026-11-28, `python "
                "benchmarks/readings.py --only maybe-missions --param redraw_from`): winning score 19.9 against "
                "19.7, seat win shares within 3 points (the games part ways)", measure={"reduce_randomness": True}),
        Reading("shop_order", "Gadget Shopping",
                "After voting, in ascending order (highest vote -> lowest vote), ask players if they want to buy",
                (("high-first", "highest vote number first (the parenthesis)"), ("low-first", "lowest first (the word 'ascending')")),
                "Gadget Shopping", "1,000 random four-seat Gadget Shopping games on the same seeds (2026-11-28, `python "
                "benchmarks/readings.py --only maybe-missions --param shop_order`): winning score 12.3 under both; "
                "seat 0 wins 24.8 % against 28.9 % (the games part ways)", measure={"gadgets": True}),
        Reading("adjust_removed", "Setup",
                "Finally, create the market: 6 faceup Mission Cards in a row. (master-19: 'After voting, the highest voter "
                "may add a market card to the mission or remove one.')",
                (("market", "the removed card returns to the market, which then holds 7 until it is next refilled"),
                 ("discard", "the removed card is discarded; the market keeps its 6")),
                "rounds of Master cards with voter_adjusts_mission (master-19 in the shipped deck)",
                "1,000 random four-seat base games on the same seeds (2026-11-28, `python benchmarks/readings.py "
                "--only maybe-missions --param adjust_removed`): the winners differ in 6.3 % of them; winning score "
                "19.5 under both", measure={}),
    ),
    max_length=lambda game: game.length_bound,
    score_range=lambda game: (-game.score_bound, game.score_bound),
)


class MaybeMissionsGame(Game):
    """Maybe Missions with effective parameters; the content read into tables once.

    Card numbers: see :mod:`deckpress.rules.maybe_missions.cards`.  Vote numbers are the printed ones.

    Raises (from :meth:`create`): ContentErrors for content with a kind the engine does not
    implement; ParameterError for parameters the content cannot serve (more votes per player than
    the box holds, more players than identities).
    """

    info = GAME_INFO
    state_class = MaybeMissionsState

    def __init__(self, content, params: Mapping[str, Any]):
        super().__init__(content, params)
        errors = self.content_errors(content)
        if errors:
            raise ContentErrors(errors)
        n = self.players
        self.identities: bool = params["identities"]
        self.gadgets: bool = params["gadgets"]
        self.play_masters: bool = params["play_masters"]
        self.end_on_empty_market: bool = params["empty_market"] == "end"
        self.shop_high_first: bool = params["shop_order"] == "high-first"
        self.reduce_randomness: bool = params["reduce_randomness"]
        self.lowest_votes: bool = params["vote_numbers"] == "lowest"
        self.redraw_from_box: bool = params["redraw_from"] == "box"
        self.tie_success: bool = params["tie"] == "success"
        self.adjust_returns_to_market: bool = params["adjust_removed"] == "market"
        self.identity_reads_missions: bool = params["identity_cards"] == "missions"
        self.votes_per_type: int = params["votes"]
        self.hand_size = 2 * self.votes_per_type
        self.market_size: int = params["market"]
        self._read_cards(content)
        self._read_votes(content)
        self._read_identities(content)
        self.clockwise = [tuple((s + i) % n for i in range(n)) for s in range(n)]
        self._round_rules: dict[tuple[int, ...], RoundRules] = {}
        self._check_fits()
        self._bounds(content)

    @classmethod
    def content_errors(cls, content) -> list:
        """Every rule, power or reward of a kind this engine does not implement, at its ``kind``
        key (``file:line:column``): content the engine would otherwise have to ignore."""
        return unsupported_kinds(content, IMPLEMENTED)

    @property
    def votes_in_play(self) -> list[int]:
        """The vote numbers of this game's box at set-up (all of them, or the lowest
        2 x votes x players with ``vote_numbers: lowest``)."""
        return self.vote_numbers[:2 * self.votes_per_type * self.players] if self.lowest_votes else self.vote_numbers

    def inert_rules(self) -> list[str]:
        """Reduce randomness with ``redraw_from: box`` when every vote is dealt at set-up (6 players
        with 5 + 5 each of the 60): there is nothing to draw, the variant never acts."""
        if self.reduce_randomness and self.redraw_from_box and len(self.votes_in_play) <= 2 * self.votes_per_type * self.players:
            return [f"reduce_randomness never acts with redraw_from: box at {self.players} players here: every vote in play is dealt "
                    "at set-up, none is left to draw (redraw_from: discards works at every player count)"]
        return []

    def seat_order_note(self) -> str | None:
        """The active player moves one seat a round, and a round uses one vote of each hand (more
        under votes_per_player): with hands of ``h`` votes at ``n`` seats, the first ``h mod n``
        seats are the active player once more than the others (10 votes at 6 seats: seats 0 to 3
        twice, seats 4 and 5 once)."""
        h, n = self.hand_size, self.players
        if h % n == 0:
            return None
        more, times = h % n, h // n

        def seats(a: int, b: int) -> str:
            return f"seat {a}" if a == b else f"seats {a} and {b}" if b == a + 1 else f"seats {a} to {b}"

        def often(k: int) -> str:
            return {0: "never", 1: "once", 2: "twice"}.get(k, f"{k} times")

        return (f"A game has about {h} rounds ({h} votes a hand, one a round), so {seats(0, more - 1)} "
                f"{'is' if more == 1 else 'are'} the active player {often(times + 1)} and {seats(more, n - 1)} {often(times)}.")

    def inert_effects(self, tallies: Mapping[str, int]):
        """Each Master rule kind that counts votes (``masters.TALLY_KINDS``), named by the Master
        cards of that kind and their printed rule (master-08 ("Each YES vote counts as 2 votes.")),
        with the rounds it was in force and those whose result its counting changed (the tallies
        of ``flow.result``).  master-08 at four seats: never (game.yaml notes)."""
        from deckpress.rules.core.balance import Effect, tally_effects

        out = []
        for effect in tally_effects(tallies):
            cards = [f"{self.card_ids[c]} (\"{effect_text(self.master_rule[c])}\")" for c in self.master_cards
                     if self.master_rule[c]["kind"] == effect.what]
            out.append(Effect("; ".join(cards) or effect.what, effect.chances, effect.changed, effect.unit))
        return out

    def measures(self, tallies: Mapping[str, int], games: int) -> list[Measure]:
        """Score spread, the resources and Master rules that swing games, identities, purchases
        (:mod:`deckpress.rules.maybe_missions.measures`)."""
        return measures(tallies, games)

    def batched(self, bots):
        """The batched engine for random bots (``rules/maybe_missions/batched.py``): the base game
        (no expansion) with either variant or both (``play_masters``, ``reduce_randomness`` from
        either pile), every value of its other parameters and the content's Master cards; the
        reference engine's distribution of every reported figure, not its games.

        Raises:
            ParameterError: a bot other than random; ``identities`` or ``gadgets``; content with a
                Master rule kind the batched engine does not play (the message names what and why).
        """
        from deckpress.rules.maybe_missions.batched import (
            MaybeMissionsBatched,  # NumPy only when asked for
        )

        return MaybeMissionsBatched(self, bots)

    # -- reading the content ---------------------------------------------------------------------------
    def _read_cards(self, content) -> None:
        missions = content["missions"]["missions"]
        masters_ = content["masters"]["masters"]
        shops = content["shop"]["shop"]
        m, k = len(missions), len(masters_)
        self.n_missions, self.n_masters, self.n_shops = m, k, len(shops)
        self.n_cards = m + k + len(shops)
        if self.n_cards > MAX_CARDS:
            raise ParameterError(f"the engine handles at most {MAX_CARDS} mission, Master and shop cards (the content has {self.n_cards})")
        self.mission_cards = list(range(m))
        self.master_cards = list(range(m, m + k))
        self.shop_cards = list(range(m + k, self.n_cards))
        self.card_names = [c["title"] for c in missions] + [c["id"] for c in masters_] + [c["id"] for c in shops]
        self.card_ids = [c["id"] for c in missions] + [c["id"] for c in masters_] + [c["id"] for c in shops]
        self.net, self.plain, self.shows = [], [], []
        for card in missions + masters_:
            sides = side_tables((card["success"], card["fail"]))
            self.net.append(tuple(s[0] for s in sides))
            self.plain.append(tuple(s[1] for s in sides))
            self.shows.append(tuple(s[2] for s in sides))
        self.master_rule = {m + i: c["rule"] for i, c in enumerate(masters_)}
        self.shop_cost, self.shop_reward, self.shop_gadget = {}, {}, {}
        for i, c in enumerate(shops):
            card = m + k + i
            self.shop_cost[card] = tuple(tuple(c[side]["cost"].count(r) for r in RESOURCES) for side in ("success", "fail"))
            self.shop_reward[card] = (c["success"]["reward"], c["fail"]["reward"])
            self.shop_gadget[card] = (c["success"]["gadget"], c["fail"]["gadget"])
        # every name printed on a card: a mission's title, a Master card's rule, either side's gadget
        printed = ([[c["id"], c["title"]] for c in missions] + [[c["id"], effect_text(c["rule"])] for c in masters_]
                   + [[c["id"], c["success"]["gadget"], c["fail"]["gadget"]] for c in shops])
        self._cards = PrintedNames("card", printed)

    def _read_votes(self, content) -> None:
        votes = content["votes"]["votes"]
        self.vote_numbers = sorted(v["number"] for v in votes)
        if self.vote_numbers[-1] > MAX_VOTE:
            raise ParameterError(f"the engine handles vote numbers up to {MAX_VOTE} (the content goes to {self.vote_numbers[-1]})")
        self.vote_type = [-1] * (self.vote_numbers[-1] + 1)
        for v in votes:
            self.vote_type[v["number"]] = YES if v["vote"] == "YES" else NO

    def _read_identities(self, content) -> None:
        public = content["public-identities"]["identities"]
        secret = content["secret-identities"]["identities"]
        if max(len(public), len(secret)) > MAX_IDENTITIES:
            raise ParameterError(f"the engine handles at most {MAX_IDENTITIES} identities of each kind")
        self.public_names = [c["name"] for c in public]
        self.secret_names = [c["name"] for c in secret]
        self.public_powers = [seat_powers([c["helpful"], c["harmful"]]) for c in public]
        by_count = self.params["identity_scoring"] == "count"
        self.secret_profiles = [score_profile([c["helpful"], c["harmful"]], by_count) for c in secret]
        self._identity_lookup = {}
        for public_, cards in ((True, public), (False, secret)):
            for i, c in enumerate(cards):
                for name in (c["name"], c["id"]):
                    self._identity_lookup[(public_, name.casefold())] = i

    def _check_fits(self) -> None:
        n = self.players
        for t, name in ((YES, "YES"), (NO, "NO")):
            have = sum(1 for x in self.vote_numbers if self.vote_type[x] == t)
            if self.votes_per_type * n > have:
                raise ParameterError(f"parameter 'votes': {n} players x {self.votes_per_type} {name} votes is more than the {have} {name} "
                                     "votes in votes.yaml")
        if n > MAX_SEATS:
            raise ParameterError(f"the engine handles at most {MAX_SEATS} seats")
        if self.lowest_votes:
            lowest = self.vote_numbers[:2 * self.votes_per_type * n]
            for t in (YES, NO):
                if sum(1 for x in lowest if self.vote_type[x] == t) != self.votes_per_type * n:
                    raise ParameterError(f"vote_numbers: lowest: votes 1 to {len(lowest)} are not {self.votes_per_type * n} YES and "
                                         f"{self.votes_per_type * n} NO in votes.yaml")
        if self.identities and n > min(len(self.public_names), len(self.secret_names)):
            raise ParameterError(f"Secret Identities needs an identity of each kind per player: {n} players, "
                                 f"{len(self.public_names)} public and {len(self.secret_names)} secret identities")

    def _bounds(self, content) -> None:
        """``length_bound`` (every action, chance included) and ``score_bound`` from the content.

        Rounds: each consumes a vote; votes come back only through take_played_votes (2 a
        purchase at most), and every purchase discards at least one collected card for good.
        """
        n, cards = self.players, self.n_missions + self.n_masters
        rounds = len(self.vote_numbers) + 2 * cards
        per_round = n * (40 + self.market_size) + 60 + 2 * self.market_size
        setup = 11 * self.hand_size * n + 2 * n + 1 + self.market_size
        self.length_bound = setup + rounds * per_round
        icons = sum(max(sum(map(abs, side)) for side in self.net[c]) for c in range(cards))
        weight, bonus = 1, 0
        if self.identities:
            for c in content["secret-identities"]["identities"]:
                for effect in (c["helpful"], c["harmful"]):
                    if effect["kind"] == "resource_value":
                        weight = max(weight, abs(effect["points"]))
                bonus = max(bonus, sum(bonus_bound(e, icons, cards) for e in (c["helpful"], c["harmful"])))
        self.score_bound = float(3 * weight * icons + bonus)

    def round_rules(self, cards: tuple[int, ...]) -> RoundRules:
        """The rules of a round with these Master cards in force (the revealed one first, then those
        played), built once per combination: a :class:`RoundRules` never changes once built."""
        rules = self._round_rules.get(cards)
        if rules is None:
            rules = self._round_rules[cards] = round_rules(self.players, [self.master_rule[c] for c in cards])
        return rules

    # -- names in logs -----------------------------------------------------------------------------------
    def card(self, name: Any) -> int:
        """The card called ``name``: its id, or what it prints (a mission's title, a Master card's
        rule, "Each YES vote counts as 2 votes.", a shop card's gadget on either side); any case
        (a table writes what is printed).

        Raises:
            IllegalAction: ``log.unknown-name``, suggesting the closest name; or, for a text two
                cards print, asking for the card's id.
        """
        return self._cards(name)

    def vote(self, value: Any) -> int:
        """The vote card numbered ``value``.

        Raises:
            IllegalAction: ``log.unknown-name`` for a number no vote card has.
        """
        number = vote_number(value)
        if number is None or not 0 < number < len(self.vote_type) or self.vote_type[number] < 0:
            raise IllegalAction(Reason.UNKNOWN_NAME, f"no vote card is numbered {quoted(value)} (votes are {self.vote_numbers[0]} to {self.vote_numbers[-1]})")
        return number

    def identity(self, name: Any, public: bool) -> int:
        """The public (or secret) identity called ``name`` (name or id, any case).

        Raises:
            IllegalAction: ``log.unknown-name``, suggesting the closest name.
        """
        i = self._identity_lookup.get((public, name.casefold())) if isinstance(name, str) else None
        if i is None:
            names = self.public_names if public else self.secret_names
            raise IllegalAction(Reason.UNKNOWN_NAME, f"no {'public' if public else 'secret'} identity is called {quoted(name)}{closest(name, names)}")
        return i


register_bot(GAME_INFO.id, "greedy", GreedyBot)
register(MaybeMissionsGame)

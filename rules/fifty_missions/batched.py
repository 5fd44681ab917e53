"""50 Missions, many games at once: a vectorised (NumPy) engine for random bots.

The fast path for 50 Missions (``deckpress simulate fifty-missions --batched``): a second
implementation of the rules of ``state.py`` that plays a turn of every unfinished game at once on
arrays holding one row per game, the rows of finished games dropped.  The reference engine (one
game at a time through the core's ``play_game``) stays the readable truth; this engine gives the
same distribution of every reported figure, not the same games (``tests/rules/
test_fifty_missions_batched.py`` compares the two, checks that the comparison sees a changed rule,
and replays batched games through the reference engine one by one).

Why its probabilities are the reference's (the reference functions of ``state.py`` and the
rulebook's sections, as the package's docstring reads them):

* **The decks** (``chance_outcomes``, ``sample_chance``: a symbol card is any physical card left
  in the deck, equally likely; a mission any card left in the mission deck, equally likely).
  Between reshuffles the symbol deck only loses cards, so the cards that come off it, in order,
  are a uniformly random ordering of it: one permutation a game (``order``), the setup's 4 face-up
  cards its first 4 (slots 0-3, left to right, ``_apply``), then the deal, seat 0's cards first
  (the setup queue), then one card per draw.  Likewise the missions, in the order drawn, are one
  uniformly random permutation (``mperm``): the first row fills slots 0-3, each replacement the
  leftmost empty slot (``_apply``: ``missions.index(-1)``; the empty slots are the ones just
  vacated, left to right, as ``_accomplish`` schedules them).  Past gold the covered cards join
  what is left of the deck (``_reshuffle``): a new uniformly random ordering of that multiset.
* **A move** (Flow of the game; ``_legal_actions``): the legal list has one play per *kind* of
  card in the hand (it is built from ``set(hand)``: two copies of a kind give one set of plays)
  and face-up card that kind covers (same symbol or same value).  The random bot takes a uniformly
  random element of it (``RandomBot.act``, or ``play_game``'s inline copy), so each distinct kind
  of the hand weighs the number of slots it covers, and the slot is uniform among those.  A move
  is a real decision when the list has two plays or more.
* **50 Crazy Missions** (``mode: crazy``, the ``ANY`` step; ``_next_seat``): ``play_game`` draws
  the acting seat uniformly from ``acting_seats()`` (``any_seats``: the seats that can play, in
  seat order), then that seat's bot picks uniformly from its legal list.
* **Missions and medals** (Missions, Medals; ``_advance``, ``_accomplish``): after the setup and
  after every play every mission on display is checked against the 4 face-up cards; the ones met
  are accomplished and replaced while the mission deck lasts, and only the replacements are
  checked again (against the same row), until none is met.  Whether a row meets a mission is the
  reference's own answer (:class:`MissionAnswers`: ``Completions.meets``, memoised in an array).
  A medal is won by the accomplishment made when exactly its place's count of missions was drawn
  below the first row (``drawn == places[medals]``): ``drawn`` is then the accomplishments before
  it, up to the deck's size (one replacement each while the deck lasts), and a place is at most
  that size (``FiftyMissionsGame._check``), so place ``p`` is won by the ``p + 1``-th
  accomplishment and the medals won are the places below the count accomplished (``_medals``).
* **The end** (End of the game; ``_advance``, ``_next_seat``): every mission accomplished ends the
  game at once (before any draw); otherwise the played seat draws back to a full hand while the
  deck lasts (``_schedule_draws``: one card, for it is the only hand short while the deck lasts:
  a hand is short only once the deck ran out, and the deck grows again only at the reshuffle,
  whose draws fill every hand before the deck can run out again), and the next seat clockwise
  must be able to play (in the crazy variant: some seat), or the game is over.  In the standard
  game that is so even when another seat could play.
* **Past gold** (``_reshuffle_due``, ``_reshuffle``): once, when gold is won (``after_gold:
  reshuffle-at-gold``: after the missions are settled, before the played seat's draw) or when the
  seat due (every seat, in the crazy variant) cannot play after gold (``reshuffle-when-stuck``);
  every seat then draws back to a full hand clockwise from ``turn`` (``_reshuffle``: the seat that
  played, at gold; when stuck, the seat due in the standard game, the last seat to play in the
  crazy variant; the Oya if gold comes with the setup's missions), while the deck lasts; when
  stuck, that seat (some seat) must then be able to play, or the game is over.
* **Counts** as ``play_game`` makes them: one action per chance event (the first row of missions,
  the 4 face-up cards, the deal, every mission and symbol card drawn, the reshuffle) and per move;
  the game's ``tally`` (``FiftyMissionsState.tally``) from each game's final arrays.

Speed (one core, ``benchmarks/simulate.py``): some 25,000 games (2.9 million actions, chance
events included) a second in a first chunk of 30,000 default games, whose mission answers are
all new (some 45,000 ``meets`` calls, 0.7 s of 1.5 s), and 35,000-50,000 games a second once they
are known; the reference engine plays some 2,000.

Not the same games: the random numbers come from NumPy's generator (PCG64) seeded by the run's
seed and the chunk's first game, so game ``i`` here is not game ``i`` of the reference engine; a
run is still deterministic on any number of workers.

Parameters: every value the reference accepts is played.  ``look_under`` and ``communication``
change only what a seat's view shows (``FiftyMissionsView.covered`` and ``talk``, and the search
bots' ``sample_state``); a random bot never asks for a view (``RandomBot.uses_view`` is False) and
no rule reads them, so random bots play the same games with any value.  ``oya`` is the first seat
(and the seat the reshuffle's draws start from if gold is won during the setup).  Refused: bots
other than ``random`` (a bot that reads the cards breaks the uniform choice above), and content
whose table of mission answers (:class:`MissionAnswers`) would pass :data:`MAX_TABLE` bytes.
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

import numpy as np

from deckpress.rules.core.batched import require_random, tally_of
from deckpress.rules.core.errors import ParameterError
from deckpress.rules.fifty_missions.state import SLOTS

assert SLOTS == 4, "the row is sorted by a network of 4 and its cover bits looked up two slots at a time"

#: Games a chunk plays at once: large enough that NumPy's per-call cost is spread thin (a game is
#: some 50 turns), small enough that a chunk's arrays stay some tens of MB.
CHUNK_GAMES = 50_000
#: The largest table of mission answers (one byte per mission and row of face-up kinds) an engine
#: builds: 30 MB for the shipped 50 missions and 28 kinds.
MAX_TABLE = 1 << 28
#: POPCOUNT[s]: the slots in the set ``s`` (bit j: slot j); NTH_SLOT[s, q]: its ``q``-th slot, rising.
POPCOUNT = np.array([bin(s).count("1") for s in range(1 << SLOTS)], dtype=np.int64)
NTH_SLOT = np.array([[([j for j in range(SLOTS) if s >> j & 1] + [0] * SLOTS)[q] for q in range(SLOTS)]
                     for s in range(1 << SLOTS)], dtype=np.int64)

#: The contents whose answers a process keeps (some 31 MB each for the shipped content).
KEEP_ANSWERS = 4
_ANSWERS: dict[str, "MissionAnswers"] = {}


class MissionAnswers:
    """Whether a row of face-up cards meets a mission, as the reference answers it, in an array.

    ``answers[row * M + m]`` (int8, ``K**4 * M + 1`` entries; ``K`` card kinds, ``M`` missions,
    ``row`` the 4 face-up kinds read as a number in base ``K``, slot 0 first): 1 met, 0 not, -1 not
    asked yet; the last entry is 0, the key of an empty mission slot.  Row-major, so that the
    missions of one row lie close together.  A mission that reads the cards in any order is only
    ever asked about the row sorted (:meth:`keys`), some 20 times fewer keys.

    :meth:`met` looks keys up and fills the unknown ones with the game's ``Completions.meets(m,
    row)``, the engine's own answer (``state.py``'s ``_accomplish`` asks ``Completions.met``, which
    asks ``meets``).  It asks once per *class* of rows, as ``Completions`` itself does: its memo
    ``_full`` is keyed by the rows' classes (``codes[m][0][k]``: kind ``k``'s class for mission
    ``m``, numbered from 0; kinds alike in every feature the condition reads share one), in order
    where the condition reads the order (``blanks[m]`` nonzero), else as a multiset, and ``meets``
    answers a row from its class's entry when there is one.  Here the classes of a row are a
    number in base ``classes`` (sorted first where order does not matter) after ``offset[m]``, in
    ``class_answers`` (int8, -1 unknown; 830,000 entries for the shipped missions).

    One object per content (:func:`answers_for`), shared by every engine and chunk of the
    process: the classes met are few (some 50,000 over the shipped missions), and after a few
    chunks most keys met are known.
    """

    def __init__(self, game):
        kinds, missions = game.n_kinds, game.n_missions
        table = game.completions
        self.missions = missions
        self.rows = kinds ** SLOTS
        self.empty = missions * self.rows  # the key of a slot with no mission: never met
        self.answers = np.full(self.empty + 1, -1, dtype=np.int8)
        self.answers[self.empty] = 0
        self.powers = kinds ** np.arange(SLOTS - 1, -1, -1, dtype=np.int64)  # [4]: slot 0 is the top digit
        self.class_of = np.array([codes[0] for codes in table.codes], dtype=np.int64).reshape(missions, kinds)  # [M, K]
        counts = self.class_of.max(axis=1) + 1
        self.in_order = np.array([any(blanks) for blanks in table.blanks], dtype=bool)  # [M]
        self.class_powers = counts[:, None] ** np.arange(SLOTS - 1, -1, -1, dtype=np.int64)[None, :]  # [M, 4]
        sizes = counts ** SLOTS
        self.offset = np.concatenate([[0], np.cumsum(sizes)[:-1]])  # [M]
        self.class_answers = np.full(int(sizes.sum()), -1, dtype=np.int8)
        self.meets = table.meets

    def keys(self, missions: np.ndarray, face: np.ndarray, check: np.ndarray | None) -> np.ndarray:
        """``[R, 4]``: the key of each slot's mission ``missions[R, 4]`` (-1: none) against the
        face-up row ``face[R, 4]``, or the empty slot's key where there is no mission or
        ``check[R, 4]`` (None: every slot) is False.  A mission that reads the cards in any order
        (``in_order`` False) is asked about the row sorted (by a sorting network)."""
        a, b, c, d = (face[:, j] for j in range(SLOTS))
        a, b = np.minimum(a, b), np.maximum(a, b)
        c, d = np.minimum(c, d), np.maximum(c, d)
        a, c = np.minimum(a, c), np.maximum(a, c)
        b, d = np.minimum(b, d), np.maximum(b, d)
        b, c = np.minimum(b, c), np.maximum(b, c)
        p0, p1, p2, p3 = (int(p) * self.missions for p in self.powers)
        row = face[:, 0] * p0 + face[:, 1] * p1 + face[:, 2] * p2 + face[:, 3] * p3
        rows = a * p0 + b * p1 + c * p2 + d * p3
        key = np.where(self.in_order[missions], row[:, None], rows[:, None]) + missions
        asked = missions >= 0 if check is None else check & (missions >= 0)
        return np.where(asked, key, self.empty)

    def met(self, keys: np.ndarray) -> np.ndarray:
        """``keys`` (any shape, :meth:`keys`) -> whether each is met (bool, the same shape)."""
        found = self.answers[keys]
        unknown = found < 0
        if unknown.any():
            self._fill(keys[unknown])
            found = self.answers[keys]
        return found > 0

    def _fill(self, keys: np.ndarray) -> None:
        """Answer the unknown ``keys`` from the answers by class, asking ``Completions.meets``
        once for each class not met before."""
        row, m = np.divmod(keys, self.missions)
        digits = (row[:, None] // self.powers[None, :]) % len(self.class_of[0])  # [U, 4] kinds, slot 0 first
        classes = self.class_of[m[:, None], digits]
        classes = np.where(self.in_order[m][:, None], classes, np.sort(classes, axis=1))
        at = self.offset[m] + (classes * self.class_powers[m]).sum(axis=1)
        found = self.class_answers[at]
        new = np.flatnonzero(found < 0)
        if len(new):
            first, which = np.unique(at[new], return_index=True)
            reps = new[which]
            meets = self.meets
            self.class_answers[first] = [meets(mission, tuple(r)) for mission, r in zip(m[reps].tolist(), digits[reps].tolist())]
            found = self.class_answers[at]
        self.answers[keys] = found


def answers_for(game) -> MissionAnswers:
    """The :class:`MissionAnswers` of the game's content (its kinds and missions' conditions),
    made once per process and content and shared by every game object, engine and chunk (the
    simulation driver builds one game object per process and parameters; the answers depend on
    the content alone).  The last :data:`KEEP_ANSWERS` contents are kept.

    Raises:
        ParameterError: the table would pass :data:`MAX_TABLE` bytes (content with many more
            kinds or missions than the shipped 28 and 50).
    """
    key = game.content_hash
    found = _ANSWERS.get(key)
    if found is None:
        size = game.n_missions * game.n_kinds ** SLOTS
        if size > MAX_TABLE:
            raise ParameterError(f"the batched engine keeps one byte per mission and row of face-up cards: {game.n_missions} "
                                 f"missions and {game.n_kinds} card kinds need {size / 1e6:,.0f} MB, more than its "
                                 f"{MAX_TABLE / 1e6:,.0f} MB")
        while len(_ANSWERS) >= KEEP_ANSWERS:
            del _ANSWERS[next(iter(_ANSWERS))]
        found = _ANSWERS[key] = MissionAnswers(game)
    return found


class FiftyMissionsBatched:
    """The batched engine of one game's parameters (:meth:`FiftyMissionsGame.batched`): a
    :class:`~deckpress.rules.core.game.BatchedEngine` for random bots.

    Raises (on creation):
        ParameterError: a bot other than ``random``; content too large for the table of mission
            answers (:func:`answers_for`).
    """

    chunk_games = CHUNK_GAMES

    def __init__(self, game, bots: Sequence[str]):
        require_random(bots)
        self.game = game
        self.answers = answers_for(game)

    def play_chunk(self, seed: int, start: int, stop: int):
        """Play games ``start..stop-1`` of a run seeded ``seed`` and count them as the reference
        engine's simulation does for a cooperative game (:meth:`tally`).  The chunk's generator is
        seeded by ``(seed, start)``."""
        return self.tally(self.run(seed, start, stop))

    def run(self, seed: int, start: int, stop: int, record: bool = False) -> "Run":
        """Games ``start..stop-1`` of a run seeded ``seed``, played: their per-game arrays."""
        return Run(self.game, stop - start, np.random.default_rng([seed, start]), self.answers, record).play()

    def tally(self, run: "Run"):
        """A played run counted as ``Tally.add`` counts the reference engine's games
        (:func:`~deckpress.rules.core.batched.tally_of`): the team won with a medal (``winners``),
        and every seat's return is the missions accomplished (``returns``)."""
        return tally_of(run, self.game.players, team_won=run.medals > 0)


class Run:
    """``games`` games of one game's parameters and the loop that plays them a turn at a time.

    Shapes (``R`` games still playing, ``n`` seats, ``H`` cards a hand, ``K`` card kinds, ``C``
    copies of each, ``N = K * C`` symbol cards, ``M`` missions).  By game number (never dropped):
    ``order[games, N]`` (the symbol deck's kinds in the order they come off it; rewritten by the
    reshuffle), ``mperm[games, M]`` (the missions in the order drawn).  By row, the games still
    playing, in the dict ``rows`` (``ids[R]``: their game numbers): ``hands[R, n * H]`` (int16 kinds,
    seat by seat; ``K`` is an empty place), ``face[R, 4]`` (the face-up kinds), ``missions[R, 4]``
    (-1: none), ``covered[R, K]`` (int16, covered cards of each kind), ``top[R]`` and ``size[R]`` (the
    next card of ``order`` and the deck's end), ``mtop[R]`` (missions drawn, the first row
    included), ``completed[R]``, ``turn[R]`` (the seat to play; in the crazy variant the seat that
    played last), ``reshuffled[R]``, and the counts ``moves[R]``, ``decisions[R]``, ``draws[R]``
    (symbol cards drawn after the deal).

    Per-game results, by game number (``[games]`` unless said): ``completed``, ``medals``,
    ``moves``, ``decisions``, ``actions``, ``draws``, ``reshuffled``, ``mtop``, ``final[games, 4]``
    (the missions on display at the end), ``scores[games, n]`` (every seat's return: ``completed``),
    ``finished``.  With ``record``: ``plays``, a list of
    ``(game numbers, seats, actions)`` arrays, one triple per turn; ``order0[games, N]``, the
    first deck order (``order`` then holds the order after the reshuffle, where there was one).

    The loop is written for NumPy's speed on ``R`` of some 50,000: rows are gathered with
    ``take`` and flat indices, and the sums over a hand's few places are written out.
    """

    _ROWS = ("ids", "hands", "face", "missions", "covered", "top", "size", "mtop", "completed", "turn", "reshuffled",
             "moves", "decisions", "draws")
    _RESULTS = ("completed", "moves", "decisions", "draws", "reshuffled", "mtop")

    def __init__(self, game, games: int, rng: np.random.Generator, answers: MissionAnswers, record: bool = False):
        self.game, self.rng, self.answers, self.games = game, rng, answers, games
        n, H, K, C, M = game.players, game.hand_size, game.n_kinds, game.copies, game.n_missions
        self.n, self.H, self.K, self.C, self.M, self.N = n, H, K, C, M, K * C
        self.first_row = min(SLOTS, M)
        self.places = np.asarray(game.medal_places, dtype=np.int64)
        self.crazy, self.when_stuck = game.crazy, game.reshuffle_when_stuck
        covers = np.zeros((K + 1, K), dtype=np.uint8)  # covers[k, t]: card k may cover card t; row K, an empty place
        covers[:K] = np.asarray(game.covers, dtype=np.uint8)
        #: pair_bits[i][(k * K + t) * K + u]: the bits of slots 2i and 2i + 1 when card k may cover
        #: card t (in slot 2i) and card u (in slot 2i + 1): state.py's open_slots, two slots a look-up
        pair = covers[:, :, None] | covers[:, None, :] << 1
        self.pair_bits = [(pair << 2 * i).ravel() for i in range(SLOTS // 2)]
        self.record = record
        self.plays: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        # the decks, by game number: uniformly random orderings (chance_outcomes)
        self.mperm = rng.random((games, M)).argsort(axis=1)
        self.order = rng.random((games, self.N)).argsort(axis=1) // C
        if record:
            self.order0 = self.order.copy()
        # per-game results, by game number
        self.completed = np.zeros(games, dtype=np.int64)
        self.moves = np.zeros(games, dtype=np.int64)
        self.decisions = np.zeros(games, dtype=np.int64)
        self.draws = np.zeros(games, dtype=np.int64)
        self.reshuffled = np.zeros(games, dtype=bool)
        self.mtop = np.zeros(games, dtype=np.int64)
        self.final = np.full((games, SLOTS), -1, dtype=np.int64)
        # the rows after the setup (state.py's queue: the first row of missions, the 4 face-up
        # cards, the deal seat by seat)
        missions = np.full((games, SLOTS), -1, dtype=np.int64)
        missions[:, :self.first_row] = self.mperm[:, :self.first_row]
        dealt = SLOTS + n * H

        def full(value, dtype=np.int64):
            return np.full(games, value, dtype=dtype)

        self.rows = {
            "ids": np.arange(games), "hands": self.order[:, SLOTS:dealt].astype(np.int16), "face": self.order[:, :SLOTS].copy(),
            "missions": missions, "covered": np.zeros((games, K), dtype=np.int16), "top": full(dealt), "size": full(self.N),
            "mtop": full(self.first_row), "completed": full(0), "turn": full(game.oya), "reshuffled": full(False, bool),
            "moves": full(0), "decisions": full(0), "draws": full(0)}

    # -- the loop -------------------------------------------------------------------------------
    def play(self) -> "Run":
        """Play every game to its end; the per-game arrays are then final."""
        self._settle(None, None)  # _advance after the deal: the first row checked
        self._after_settle(None)
        while len(self.rows["ids"]):
            self._turn()
        self.medals = self._medals(self.completed)
        self.scores = np.repeat(self.completed[:, None], self.n, axis=1)  # [games, n]: every seat's return
        setup = self.first_row + SLOTS + self.n * self.H
        self.actions = setup + (self.mtop - self.first_row) + self.draws + self.reshuffled + self.moves
        self.finished = self.actions <= self.game.max_length()
        return self

    def _turn(self) -> None:
        """One move of every game still playing (``_next_seat``, ``_apply``, ``_advance``); the games
        whose seat due (every seat, in the crazy variant) cannot play end, past a reshuffle when stuck."""
        r = self.rows
        seat, hand, masks, weight, total = self._due(None)
        stuck = total == 0
        if stuck.any():
            again = np.flatnonzero(stuck & self._reshuffle_due(None, stuck=True))
            if len(again):  # _next_seat: the reshuffle when stuck, then the same seat (any seat) again
                self._reshuffle(again, r["turn"][again])
                seat[again], hand[again], masks[again], weight[again], total[again] = self._due(again)
            over = total == 0
            if over.any():
                self._finish(over)
                keep = np.flatnonzero(~over)
                seat, total = seat[keep], total[keep]
                hand, masks, weight = hand.take(keep, axis=0), masks.take(keep, axis=0), weight.take(keep, axis=0)
        R = len(seat)
        if not R:
            return
        # the random bot: a uniformly random play of the legal list (simulate.py: legal[int(u * len(legal))]):
        # the place h of the hand whose plays hold it, and which of that card's slots
        pick = (self.rng.random(R) * total).astype(np.int64)
        h = np.zeros(R, dtype=np.int64)
        before = np.zeros(R, dtype=np.int64)
        upto = np.zeros(R, dtype=np.int64)
        for i in range(self.H):
            w = weight[:, i]
            upto += w
            past = upto <= pick
            h += past
            before += w * past
        ar = np.arange(R)
        at = ar * self.H + h
        card = hand.ravel()[at].astype(np.int64)
        slot = NTH_SLOT.ravel()[masks.ravel()[at] * SLOTS + pick - before]
        if self.record:
            self.plays.append((r["ids"].copy(), seat.copy(), card * SLOTS + slot))
        r["decisions"] += total > 1
        r["moves"] += 1
        # _apply: the card leaves the hand and covers the slot's face-up card
        place = (ar * self.n + seat) * self.H + h
        r["hands"].reshape(-1)[place] = self.K
        face = r["face"].reshape(-1)
        on = ar * SLOTS + slot
        r["covered"].reshape(-1)[ar * self.K + face[on]] += 1
        face[on] = card
        r["turn"] = seat
        self._settle(None, None)
        self._after_settle((seat, place))

    def _due(self, rows: np.ndarray | None):
        """For ``rows`` (None: every row): ``(seat[R], hand[R, H], masks[R, H], weight[R, H],
        total[R])``: the seat that plays (standard: the seat due; crazy: one drawn uniformly from
        the seats that can play, as ``play_game`` draws from ``acting_seats()``), its hand, the
        slots each card covers (bit j: slot j), each card's plays in the legal list (0 for a second
        copy of a kind: ``_legal_actions`` is built from ``set(hand)``) and their total (0: no seat
        can play).  A real decision is a total above 1."""
        r, n, H = self.rows, self.n, self.H
        hands = r["hands"] if rows is None else r["hands"].take(rows, axis=0)
        face = r["face"] if rows is None else r["face"].take(rows, axis=0)
        R = len(face)
        ar = np.arange(R)
        if self.crazy:
            masks = self._masks(hands, face)  # [R, n * H]
            weight = self._weights(hands, masks)
            by_seat = weight.reshape(R, n, H)
            totals = by_seat[:, :, 0].copy()  # [R, n]
            for i in range(1, H):
                totals += by_seat[:, :, i]
            can = totals > 0
            count = can[:, 0].astype(np.int64)
            for s in range(1, n):
                count += can[:, s]
            k = (self.rng.random(R) * count).astype(np.int64)
            seat = np.zeros(R, dtype=np.int64)
            upto = np.zeros(R, dtype=np.int64)
            for s in range(n - 1):
                upto += can[:, s]
                seat += upto <= k
            at = ar * n + seat
            return (seat, hands.reshape(R * n, H).take(at, axis=0), masks.reshape(R * n, H).take(at, axis=0),
                    weight.reshape(R * n, H).take(at, axis=0), totals.ravel()[at])
        seat = r["turn"] if rows is None else r["turn"][rows]
        hand = hands.reshape(R * n, H).take(ar * n + seat, axis=0)
        masks = self._masks(hand, face)
        weight = self._weights(hand, masks)
        total = weight[:, 0].copy()
        for i in range(1, H):
            total += weight[:, i]
        return seat.copy(), hand, masks, weight, total

    def _masks(self, hand: np.ndarray, face: np.ndarray) -> np.ndarray:
        """``hand[R, X]`` (kinds) on ``face[R, 4]`` -> ``[R, X]`` (uint8): the slots each card may
        cover (bit j: slot j; ``open_slots`` of state.py)."""
        K = self.K
        at = hand.astype(np.intp) * (K * K)
        left, right = self.pair_bits
        return left[at + (face[:, 0] * K + face[:, 1])[:, None]] | right[at + (face[:, 2] * K + face[:, 3])[:, None]]

    def _weights(self, hand: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """``hand[R, X * H]`` (X hands of H places) -> each place's plays in its seat's legal list:
        the slots its card covers, or 0 where an earlier place of the same hand holds the same kind
        (``_legal_actions``: ``set(hand)``)."""
        H = self.H
        weight = POPCOUNT[masks]
        cards = hand.reshape(len(hand), -1, H)
        plays = weight.reshape(cards.shape)
        for h in range(1, H):
            seen = cards[:, :, 0] == cards[:, :, h]
            for i in range(1, h):
                seen |= cards[:, :, i] == cards[:, :, h]
            plays[:, :, h] *= ~seen
        return weight

    # -- missions -------------------------------------------------------------------------------
    def _settle(self, rows: np.ndarray | None, check: np.ndarray | None) -> None:
        """``_accomplish`` until nothing more is met, for ``rows`` (None: every row) whose slots
        ``check[R, 4]`` (None: all) are to be checked against the face-up row: the missions met are
        accomplished; each is replaced, left to right, while the mission deck lasts (the medals
        follow from the count); only the replacements are checked again."""
        r, answers = self.rows, self.answers
        while True:
            missions = r["missions"] if rows is None else r["missions"].take(rows, axis=0)
            face = r["face"] if rows is None else r["face"].take(rows, axis=0)
            met = answers.met(answers.keys(missions, face, check))
            hit = met[:, 0] | met[:, 1] | met[:, 2] | met[:, 3]
            at = np.flatnonzero(hit)
            if not len(at):
                return
            rows = at if rows is None else rows[at]
            met, missions = met.take(at, axis=0), missions.take(at, axis=0)
            rank = met.cumsum(axis=1) - 1
            count = rank[:, -1] + 1
            r["completed"][rows] += count
            mtop = r["mtop"][rows]
            fill = self._replaced(met, rank, self.M - mtop)
            drawn = self.mperm.ravel()[(r["ids"][rows] * self.M)[:, None] + np.clip(mtop[:, None] + rank, 0, self.M - 1)]
            r["missions"][rows] = np.where(fill, drawn, np.where(met, -1, missions))
            r["mtop"][rows] = mtop + fill.sum(axis=1)
            check = self._rechecked(fill)
            again = np.flatnonzero(check.any(axis=1))
            if not len(again):
                return
            rows, check = rows[again], check[again]

    def _replaced(self, met: np.ndarray, rank: np.ndarray, left: np.ndarray) -> np.ndarray:
        """``[R, 4]``: the slots met that get a new mission: the first ``left[R]`` of them, left to
        right (``_accomplish``: one draw per mission met while the deck lasts; ``_apply`` fills the
        leftmost empty slot)."""
        return met & (rank < left[:, None])

    def _rechecked(self, fill: np.ndarray) -> np.ndarray:
        """``[R, 4]``: the slots to check again after the draws: the new missions' (``unchecked``)."""
        return fill

    def _medals(self, completed: np.ndarray) -> np.ndarray:
        """The medals won after ``completed[R]`` missions accomplished: the places below that count
        (a medal at place ``p`` comes with the ``p + 1``-th mission accomplished)."""
        return np.searchsorted(self.places, completed, side="left")

    def _gold(self, completed: np.ndarray) -> np.ndarray:
        """Whether every medal is won after ``completed[R]`` missions (``_reshuffle_due``: there are
        medals, and the last is won)."""
        return (self._medals(completed) == len(self.places)) & (len(self.places) > 0)

    def _reshuffle_due(self, rows: np.ndarray | None, stuck: bool) -> np.ndarray:
        """``_reshuffle_due`` for ``rows`` (None: every row): gold won, not reshuffled yet, and this
        is its moment."""
        r = self.rows
        completed = r["completed"] if rows is None else r["completed"][rows]
        if self.when_stuck != stuck:
            return np.zeros(len(completed), dtype=bool)
        return self._gold(completed) & ~(r["reshuffled"] if rows is None else r["reshuffled"][rows])

    def _after_settle(self, played) -> None:
        """``_advance`` for every row once the missions are settled: every mission accomplished
        ends the game at once; else the reshuffle at gold, or the played seat's draw (``played``:
        ``(seat[R], place[R])``, the seat and its hand's place in ``hands.ravel()``; None after the
        setup, which draws nothing); then the next seat (standard: clockwise; crazy: ``turn`` stays
        the seat that played)."""
        r = self.rows
        over = r["completed"] == self.M
        gold = self._reshuffle_due(None, stuck=False) & ~over
        if gold.any():
            at = np.flatnonzero(gold)
            self._reshuffle(at, r["turn"][at])  # every seat draws, the seat that played first
        if played is not None:
            seat, place = played
            top = r["top"]
            draw = (top < r["size"]) & ~over & ~gold
            card = self.order.ravel()[r["ids"] * self.N + np.minimum(top, self.N - 1)]
            r["hands"].reshape(-1)[place[draw]] = card[draw]
            top += draw
            r["draws"] += draw
            if not self.crazy:
                r["turn"] = (seat + 1) % self.n
        if over.any():
            self._finish(over)

    def _reshuffle(self, rows: np.ndarray, start: np.ndarray) -> None:
        """``_reshuffle`` for ``rows``: the covered cards join what is left of the deck, in a new
        uniformly random order; then every seat draws back to a full hand, clockwise from
        ``start[R]`` (``_schedule_draws``), while the deck lasts."""
        r = self.rows
        K, C, N, H = self.K, self.C, self.N, self.H
        ids = r["ids"][rows]
        R = len(rows)
        place = np.arange(N)
        left = (place[None, :] >= r["top"][rows][:, None]) & (place[None, :] < r["size"][rows][:, None])
        which = (np.arange(R)[:, None] * K + self.order[ids])[left]
        count = r["covered"][rows].astype(np.int64) + np.bincount(which, minlength=R * K).reshape(R, K)  # at most C each
        real = (np.arange(C)[None, None, :] < count[:, :, None]).reshape(R, N)  # card k * C + i is in the new deck
        self.order[ids] = (self.rng.random((R, N)) + ~real).argsort(axis=1) // C
        r["top"][rows] = 0
        r["size"][rows] = count.sum(axis=1)
        r["covered"][rows] = 0
        r["reshuffled"][rows] = True
        hands = r["hands"]
        for i in range(self.n):
            seat = (start + i) % self.n
            for h in range(H):
                draw = (hands[rows, seat * H + h] == K) & (r["top"][rows] < r["size"][rows])
                d = rows[draw]
                hands[d, seat[draw] * H + h] = self.order[r["ids"][d], r["top"][d]]
                r["top"][d] += 1
                r["draws"][d] += 1

    def _finish(self, over: np.ndarray) -> None:
        """Write the rows ``over`` (a mask over the rows) to the per-game results and drop them."""
        r = self.rows
        at = np.flatnonzero(over)
        ids = r["ids"][at]
        for name in self._RESULTS:
            getattr(self, name)[ids] = r[name][at]
        self.final[ids] = r["missions"][at]
        keep = np.flatnonzero(~over)
        for name in self._ROWS:
            r[name] = r[name].take(keep, axis=0)

    # -- counts ---------------------------------------------------------------------------------
    def events(self, done: np.ndarray) -> Counter:
        """:meth:`FiftyMissionsState.tally`'s counts summed over the games ``done`` (a ``[games]``
        mask): missions completed, cards played, reshuffles, medals reached, final levels, all
        missions completed, and each mission displayed and completed."""
        game, M = self.game, self.M
        completed, medals = self.completed[done], self.medals[done]
        events = Counter({"missions completed": int(completed.sum()), "cards played": int(self.moves[done].sum()),
                          "reshuffles": int(self.reshuffled[done].sum())})
        levels = np.bincount(medals, minlength=len(self.places) + 1)
        for key, count in zip(["none", *game.medal_ids], levels.tolist()):
            if count:
                events[f"level: {key}"] = count
        for i, key in enumerate(game.medal_ids):
            reached = int((medals > i).sum())
            if reached:
                events[f"reached: {key}"] = reached
        every = int((completed == M).sum())
        if every:
            events["all missions completed"] = every
        mperm = self.mperm[done]
        displayed = np.bincount(mperm[np.arange(M)[None, :] < self.mtop[done][:, None]], minlength=M)
        final = self.final[done]
        on_display = np.bincount(final[final >= 0], minlength=M)
        for m, mid in enumerate(game.mission_ids):
            if displayed[m]:
                events[f"displayed: {mid}"] = int(displayed[m])
            if displayed[m] > on_display[m]:
                events[f"completed: {mid}"] = int(displayed[m] - on_display[m])
        return events

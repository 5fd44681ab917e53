"""Maybe Missions, many games at once: a vectorised (NumPy) engine for random bots.

The fast path for Maybe Missions (``deckpress simulate maybe-missions --batched``): a second
implementation of the base game's rules (``flow.py``, ``masters.py``, ``moves.py``, ``scoring.py``,
``measures.py`` of this package) that plays a round of every unfinished game at once on arrays
holding one row per game, the rows of finished games dropped.  The reference engine (one game at a
time through the core's ``play_game``) stays the readable truth; this engine gives the same
distribution of every reported figure, not the same games (``tests/rules/
test_maybe_missions_batched.py`` compares the two figure by figure and checks that the comparison
sees a changed rule).

What it plays: the base game (``identities`` and ``gadgets`` false) with both of the rulebook's
variants or either (``play_masters``, ``reduce_randomness`` with either ``redraw_from``) and every
value of ``players``, ``votes``, ``market``, ``tie``, ``vote_numbers`` and ``empty_market``, and the
Master cards of the content, whose rules are read with the reference's own ``round_rules``
(``MaybeMissionsGame.round_rules``, ``masters.round_rules``: so a card's parameters mean what they
mean there, and several cards in force together combine as they combine there).
``identity_scoring``, ``identity_cards`` and ``shop_order`` change nothing without the expansions they belong to;
``adjust_removed`` is played (``Run._adjust_mission``).
Refused (:class:`MaybeMissionsBatched`): other bots, the expansions (identities: voting powers,
shifted numbers, late voters, forbidden resources; gadgets: the shop and its rewards, which read
and move what this engine keeps as counts), and content with a Master rule kind outside
:data:`KINDS`.

Why its probabilities are the reference's (``RandomBot.act``: a uniformly random element of the
legal list; every chance event uniform over the cards it may turn up):

* **Votes are played by type; their numbers are drawn when they are revealed.**  In the base game
  no seat's choice, and no chance event, depends on a vote's printed number before that vote is
  on the table: a random bot picks a uniformly random card of its legal list (the hand, or the
  hand's votes of a forced type), which is a uniformly random vote of that list whatever the
  numbers; the deal (``flow.dealt``) takes each type's votes uniformly from the box; passing
  (``pass_votes``) moves votes by the seats' uniform choices.  So each hand is kept as its numbers
  of YES and NO votes, ``yes[G, n]`` and ``no[G, n]``, and the numbers are an independent uniform
  assignment: the votes of type ``t`` revealed in a game, in order, are the first ones of a
  uniformly random ordering of that type's numbers in the box (``vote_numbers: random``: the
  game's ``votes`` x players votes of a type are a uniform subset of the box's, so its revealed
  ones are a uniform sequence without replacement from all of them) or of the votes in play
  (``lowest``).  The numbers then order the collecting turns, decide vote_cutoff and name the
  highest or lowest voter, exactly as in ``flow.result`` and ``masters.voter``.  Played votes are
  discarded (``clear_table``) and, but for reduce_randomness drawing from the discards, never come
  back (no take_played_votes without gadgets).
* **reduce_randomness** (``flow.offer_redraw``, ``redraw``, ``redraw_votes``, ``moves.draw_votes``),
  after clear_table, seat by seat in turn order from the active one: a seat that collected and won
  no card this round (``got``; a swap does not count), holds two votes or more and whose pile is
  not empty is asked (a move and a decision: a vote of its hand or "none"); a first vote chosen,
  a second follows (a move; a decision when two votes or more are left): a uniform pair of the
  hand, drawn by groups (:meth:`Run._split`).  It then draws ``min(2, pile)`` votes, a uniform subset of the pile, one
  chance event each.  The argument above still holds, since no choice and no draw reads a number
  not revealed: *from the box* every vote drawn is one never revealed (the box: ``box_yes``,
  ``box_no``; the two discarded leave the game, the box never takes them back), so hands stay
  counts.  *From the discards* a vote revealed earlier comes back with its number: such votes
  are kept one by one (``loc[G, V]``: the place of the vote numbered ``v``, a hand, the discards
  or set aside; ``kyes``/``kno`` count them in each hand), the votes never revealed still as
  counts (in hands, and ``dyes``/``dno`` in the discards: a redraw may discard one).  A uniform
  vote of a hand or pile is then one of its groups with the group's share, and within a group of
  revealed votes a uniform one of them (:meth:`Run._choose_known`); a revealed vote played again
  shows its own number, a vote never revealed the next number of its type's pool, which holds
  exactly the numbers not revealed yet, all of them alike (exchangeable) for everything the
  game did so far.  The seat's two set aside join the discards after it has drawn.
* **play_masters** (``flow.offer_masters``, ``play_master``, ``build_rules``): before the Master card
  is revealed, each seat in turn order from the active one that holds Master cards green side
  up is asked once (a move and a decision: "none" or one of them, uniformly); the card played
  leaves its collection for good (a seat's choice changes only its own collection, so the
  seats are asked one after another on the collections as they were).  The round's rules are those of the revealed card and the played ones
  in the order played: each combination that occurs is built once with the reference's
  ``round_rules`` and kept as a row of :class:`Rules` (:meth:`Rules.rows_of`); its round tasks run
  in the reference's order (:meth:`Run._tasks`: round start before the proposal, after voting
  with the same highest or lowest voter for each), and each different kind in force counts its
  in-force, succeeded and changed-the-result counts once.  The revealed card alone is won or
  discarded; the deck is still dealt a card a round.
* **The deal** (``deal_votes``, ``check_deal``): the hands' numbers of YES votes are a sequential
  hypergeometric split of the deck (``votes`` x players of each type), seat 0's hand first; a
  deal where some hand holds one type only is dealt again (``redeals``), each deal ``hand x
  players`` chance events.
* **Choices drawn at once** (a sequence of uniform one-at-a-time choices that is a uniform
  subset): passing ``count`` votes (``pass_vote``: a uniform vote of what is left of the hand,
  again while the seat owes more) is a uniform ``count``-subset of the hand, so its YES votes are
  hypergeometric; ``flip_collected``'s cards (``flip``: a uniform card not chosen yet) are a
  uniform subset of the collection, drawn as the smallest of random keys.  Each of those choices
  has two options or more (the seat holds more than ``count``), so each is one move and one
  decision.  **Walked one at a time**, where the sizes of the legal lists decide the moves and
  decisions: the proposal, the votes (a seat's ``votes_per_player`` votes one after another, each
  YES with the share of YES in what is left of its legal list), the collecting turns (a uniform
  card of what is left of the mission at each turn), the adjustment and the swap.
* **The proposal** (``prepare``, ``_propose_legal``, ``propose``) is walked card by card: the
  legal list is the market's cards while the mission has fewer than ``hi`` cards, plus "done"
  once it has ``lo``; a card is a uniform slot of the market (its order never matters: the legal
  list is sorted by card, the pick uniform); the proposal ends by itself when no card may be
  added.  Under resource_variety a card is legal when the proposal can still be completed
  (``completable``); :func:`completable` answers that question for many games at once from a
  table of the fewest cards that reach ``vmin`` different resources (:func:`cover_table`), and
  the rule is waived (``variety rule waived``) when the market cannot meet it.
* **Decks**: the mission deck and the Master deck are one uniformly random permutation a game
  (every market and master draw is a uniform card of what is left); a Master card shown by
  reveal_masters lies on top in a known order, so the ``k``-th round's Master card is the ``k``-th
  card of the permutation whichever round made it known, and a chance event is counted the first
  time a card is shown (``show_masters``).
* **Moments that need no arrays**: announce_vote and reveal_hand tell the table something and
  change nothing a random bot reads; open_voting places the same votes face up one seat at a
  time, the same moves and decisions (no seat votes late without identities).
* **Counts** as ``play_game`` makes them: one action per chance event and per move (a simultaneous
  submission is one of each), a decision per move with more than one legal action; the game's
  ``tally`` (``MaybeMissionsState.counts`` and ``measures.final_tally``) from per-game counters
  and each game's final collections (a played Master card is held by nobody), keys present
  exactly when the reference's would be.

Not the same games: the random numbers come from NumPy's generator (PCG64) seeded by the run's
seed and the chunk's first game, so game ``i`` here is not game ``i`` of the reference engine; a
run is still deterministic on any number of workers.

Speed (one core, ``simulate(SimulationSpec(..., engine="batched"))``, 100,000 default games on a
shared machine, from run to run): 15,000-23,000 games (2.2-3.4 million actions, chance events
included) a second with 3 players, 14,500-20,000 (2.7-3.7 million) with 4, 11,000-14,500
(2.7-3.5 million) with 6; the reference engine plays 400-540 games (80,000-96,000 actions) a
second, 30 to 45 times fewer.  With 4 players and play_masters 11,000-13,500 (2.1-2.6 million;
a combination of rules is built once a process, some 0.4 s of the first 50,000 games), with
reduce_randomness 9,500-12,000 drawing from the discards (the revealed votes one by one) and
14,500 from the box, with both 8,000-9,000; the reference engine plays 380-450 with either.  A
chunk of 50,000 games holds some 60 MB of arrays (100 MB at a round's peak, 6 players; drawing
from the discards adds 3 MB).
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Sequence

import numpy as np
from numpy.typing import NDArray

from deckpress.rules.core.batched import require_random, tally_of
from deckpress.rules.core.errors import ParameterError
from deckpress.rules.maybe_missions.cards import GREEN, NO, RED, RESOURCES, YES
from deckpress.rules.maybe_missions.masters import RuleTally

#: Games a chunk plays at once: large enough that NumPy's per-call cost is spread thin (a game is
#: some ten rounds of a few dozen array steps; 25,000 games a chunk play some 8 % slower), small
#: enough that a chunk's arrays stay some tens of MB (about 1.2 kB a game, twice that at a peak).
CHUNK_GAMES = 50_000

#: The Master rule kinds this engine plays (``masters.py``), each with what it changes here.
KINDS = {
    "vote_cutoff": "votes numbered beyond the limit are not counted (result, collecting turns, voter)",
    "mission_size": "the proposal's lo and hi",
    "votes_per_player": "each seat plays that many votes, one at a time",
    "no_voters_collect": "counted NO votes collect after the YES votes, high to low, red",
    "unanimous_ends_round": "no after-voting effects, nobody collects, the Master card discarded",
    "forced_vote": "each seat plays the forced type while it holds one",
    "vote_weight": "the type's counted votes weigh more in the tally",
    "active_vote_weight": "the active seat's counted votes weigh more in the tally",
    "reveal_masters": "Master cards shown at round start: chance events, earlier",
    "pass_votes": "hypergeometric YES votes passed to the left",
    "flip_collected": "a uniform subset of each collection turned over",
    "reveal_hand": "information only",
    "success_margin": "the test of SUCCESS",
    "reverse_collect_order": "the YES voters' collecting order turned around",
    "open_voting": "the same votes, placed face up one seat at a time",
    "resource_variety": "the proposal's legal cards (completable), or the rule waived",
    "announce_vote": "information only",
    "voter_adjusts_mission": "the highest/lowest voter adds a market card, returns one or passes",
    "voter_swaps_collected": "the highest/lowest voter swaps a collected card with another seat's",
}
#: The round tasks (``RoundRules.start``, ``after``, ``end``) those kinds add, and that this engine plays.
TASKS = {"show_masters", "pass_votes", "flip_collected", "announce", "adjust_mission", "swap_by_voter", "reveal_hand"}

#: A sort key past every collecting turn (vote numbers are below 100: ``cards.MAX_VOTE``).
NO_TURN = 1 << 12
#: Resource masks: POPCOUNT[m] resources in mask ``m``; SUBSETS[U] the 16-bit set of masks within
#: ``U``; WITHIN[m, U] 1 when mask ``m`` lies within ``U``.
POPCOUNT = np.array([bin(m).count("1") for m in range(16)], dtype=np.int64)
SUBSETS = np.array([sum(1 << m for m in range(16) if m & ~u == 0) for u in range(16)], dtype=np.int64)
WITHIN = np.array([[int(m & ~u == 0) for u in range(16)] for m in range(16)], dtype=np.float64)
BITS = 1 << np.arange(16, dtype=np.int64)


@lru_cache(maxsize=1)
def cover_table() -> np.ndarray:
    """``[5, 16, 65536]`` int8: at ``[vmin, u, P]`` the fewest cards, one per resource mask of the
    set ``P`` (bit ``m``: some card's green side shows exactly the resources of mask ``m``), whose
    green sides together with the resources ``u`` already shown show at least ``vmin`` different
    resources; 99 when no number of them does.  Built once a process (some 0.1 s): the sets
    reachable with ``k`` masks are worked out for every ``P`` at once, ``k`` = 0..4 (4 resources
    never need more than 4 cards)."""
    sets = np.arange(1 << 16, dtype=np.int64)
    joined = np.zeros((16, 1 << 16), dtype=np.int64)  # joined[y][S]: the set {x | y : x in S}
    for y in range(16):
        for x in range(16):
            joined[y] |= ((sets >> x) & 1) << (x | y)
    reach = [np.ones(1 << 16, dtype=np.int64)]  # reach[k][P]: the unions of at most k masks of P (k = 0: {0})
    for _ in range(4):
        prev = reach[-1]
        nxt = prev.copy()
        for y in range(16):
            nxt |= np.where((sets >> y) & 1, joined[y][prev], 0)
        reach.append(nxt)
    table = np.full((5, 16, 1 << 16), 99, dtype=np.int8)
    for vmin in range(5):
        for u in range(16):
            good = sum(1 << x for x in range(16) if POPCOUNT[u | x] >= vmin)
            for k in range(4, -1, -1):
                table[vmin, u][(reach[k] & good) != 0] = k
    return table


def completable(union: np.ndarray, n: np.ndarray, counts: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                vmin: np.ndarray, vmax: np.ndarray) -> np.ndarray:
    """``flow.completable`` for many proposals at once: whether cards of the market can complete a
    proposal of ``n`` cards whose green sides show the resources ``union`` to one of ``lo..hi``
    cards showing ``vmin..vmax`` different resources.

    Shapes: every argument ``[B]`` (any shape ``B``) but ``counts[B, 16]``, the market's cards by
    the mask of resources their green side shows.  Returns ``[B]`` bool.

    A proposal's resources only grow as cards are added, so it can be completed when, for some set
    of resources ``U`` holding ``union`` with ``vmin <= |U| <= vmax``, the cards showing only
    resources of ``U`` (``a`` of them) reach ``vmin`` resources with ``c`` cards (:func:`cover_table`),
    ``c <= hi - n`` and ``lo - n <= a``: the ``c`` cards, padded with others of ``U`` up to ``lo``,
    show between ``vmin`` and ``|U|`` resources.
    """
    table = cover_table().reshape(-1)
    present = ((counts > 0) * BITS).sum(axis=-1)
    avail = counts.astype(np.float64) @ WITHIN  # [B, U]: cards whose green side shows only resources of U (BLAS: floats)
    base = (vmin * 16 + union) << 16  # the row of cover_table()[vmin, union]
    ok = np.zeros(np.shape(union), dtype=bool)
    for u in range(16):
        fits = ((union & ~u) == 0) & (vmin <= POPCOUNT[u]) & (POPCOUNT[u] <= vmax)
        if not fits.any():
            continue
        fewest = np.take(table, base | (present & SUBSETS[u]))
        ok |= fits & (fewest <= hi - n) & (lo - n <= avail[..., u])
    return ok


def collecting_turns(seat: np.ndarray, vote_yes: np.ndarray, number: np.ndarray, counted: np.ndarray, success: np.ndarray,
                     exceptional: np.ndarray, reverse: np.ndarray, no_voters: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``flow.collecting_turns`` for many rounds at once: the counted YES votes (every counted vote
    in an all-NO round), low to high on SUCCESS and high to low on FAIL (``reverse``:
    reverse_collect_order turns that around; all-NO: high to low, reversed low to high), then
    with ``no_voters`` (no_voters_collect) the counted NO votes, high to low; green side up on
    SUCCESS, else red (all-NO rounds and NO voters: red).  Numbers are distinct, and without
    identities every effective number is the printed one and every collect_rank 0.

    Shapes: the table ``[G, E]`` (``seat``, ``vote_yes``, ``number``, ``counted``), the round's
    ``[G]`` (``success``, ``exceptional``, ``reverse``, ``no_voters``).  Returns ``[G, E]`` each:
    the seat of every turn in order, whether there is such a turn (turns come first), and
    whether it collects green side up."""
    ascending = np.where(exceptional, reverse, success != reverse)[:, None]
    first = counted & (vote_yes | exceptional[:, None])
    second = counted & ~vote_yes & (no_voters & ~exceptional)[:, None]
    key = np.where(first, np.where(ascending, number, 200 - number), np.where(second, 1000 - number, NO_TURN))
    order = np.argsort(key, axis=1, kind="stable")
    turn_key = np.take_along_axis(key, order, axis=1)
    green = (success & ~exceptional)[:, None] & (turn_key < 800)
    return np.take_along_axis(seat, order, axis=1), turn_key < NO_TURN, green


class Rules:
    """The rules of the rounds as arrays, one row per combination of Master cards in force, each
    read with the reference's own ``round_rules`` (``MaybeMissionsGame.round_rules``: the revealed
    card's rule, then the played cards' in the order played, a later value replacing an earlier
    one where they contradict).  Row ``j < K`` is Master card ``j`` alone, row ``K`` a round
    without one (the Master deck ran out: no kind in force); with ``play_masters`` a combination
    gets its row the first time it is in force (:meth:`rows_of`), kept for the engine's later
    chunks (rows are only read by number, so the games do not depend on their order).

    Per row ``[R]``: ``min_size``, ``max_size``, ``vmin``, ``vmax``, ``votes``, ``forced``
    (-1: none), ``above``/``below`` (vote_cutoff; 999 / -1 without), ``weight[R, 2]`` (by vote
    type), ``active_weight``, ``test`` (0 usual, 1 yes_lead, 2 no_lead) and ``margin``, flags
    ``no_voters``, ``unanimous``, ``reverse``, ``variety`` (a resource_variety limit other than
    0..4); ``start[R, P]``/``after[R, P]``: the round tasks in the order the reference runs them,
    each an index into ``start_ops``/``after_ops`` (the ``(task, argument)`` pairs of the content's
    cards, in a fixed order), -1 past the last; ``in_force[R, P]``: the index in ``kinds`` of each
    different kind in force, -1 past the last.

    Raises:
        ParameterError: a Master rule kind (or a round task) this engine does not play, named.
    """

    # The per-row arrays, set by name in :meth:`_add` (row r of each: the rules of combination r).
    min_size: NDArray[np.int64]
    max_size: NDArray[np.int64]
    vmin: NDArray[np.int64]
    vmax: NDArray[np.int64]
    votes: NDArray[np.int64]
    forced: NDArray[np.int64]
    above: NDArray[np.int64]
    below: NDArray[np.int64]
    weight: NDArray[np.int64]  # [R, 2]
    active_weight: NDArray[np.int64]
    test: NDArray[np.int64]
    margin: NDArray[np.int64]
    no_voters: NDArray[np.bool_]
    unanimous: NDArray[np.bool_]
    reverse: NDArray[np.bool_]
    variety: NDArray[np.bool_]
    start: NDArray[np.int64]  # [R, P]
    after: NDArray[np.int64]  # [R, P]
    in_force: NDArray[np.int64]  # [R, P]

    def __init__(self, game):
        masters = [game.master_rule[game.n_missions + j] for j in range(game.n_masters)]
        unknown = sorted({rule["kind"] for rule in masters} - set(KINDS))
        if unknown:
            raise ParameterError(f"the batched engine does not play the Master rule kind{'s' if len(unknown) > 1 else ''} "
                                 f"{', '.join(unknown)} of this content (it plays {', '.join(sorted(KINDS))}): "
                                 "simulate it with the reference engine")
        self.game, self.K, self.Mm = game, game.n_masters, game.n_missions
        singles = [(self.Mm + j,) for j in range(self.K)] + [()]
        read = [game.round_rules(cards) for cards in singles]
        tasks = {task[0] for rules in read for task in rules.start + rules.after + rules.end}
        if tasks - TASKS:
            raise ParameterError(f"the batched engine does not play the round tasks {', '.join(sorted(tasks - TASKS))}")
        self.kinds = sorted({rule["kind"] for rule in masters})
        # a combination's tasks are its cards' tasks: the content's cards name every pair there is (in
        # the content's order, fixed: the games never depend on which combinations came first)
        self.start_ops = list(dict.fromkeys(task for rules in read for task in rules.start))
        self.after_ops = list(dict.fromkeys(task for rules in read for task in rules.after))
        self.row: dict[tuple[int, ...], int] = {}
        self.rows = 0
        self._keys = np.zeros(0, dtype=np.int64)  # rows_of: the combinations looked up so far as numbers, sorted ...
        self._key_rows = np.zeros(0, dtype=np.int64)  # ... and their rows
        self._add(singles)

    def _add(self, combos: list[tuple[int, ...]]) -> None:
        """Give each combination of cards (card numbers, the revealed one first) a new row."""
        if not combos:
            return
        game, kinds = self.game, self.kinds
        read = [game.round_rules(cards) for cards in combos]
        arr = lambda values: np.array(values, dtype=np.int64)  # noqa: E731

        def seq(lists: list[list[int]]) -> np.ndarray:
            out = np.full((len(lists), max(map(len, lists), default=0)), -1, dtype=np.int64)
            for i, values in enumerate(lists):
                out[i, :len(values)] = values
            return out

        new = {
            "min_size": arr([r.min_size for r in read]), "max_size": arr([r.max_size for r in read]),
            "vmin": arr([r.variety_min for r in read]), "vmax": arr([r.variety_max for r in read]),
            "votes": arr([r.votes for r in read]), "forced": arr([r.forced for r in read]),
            "above": arr([999 if r.cutoff_above is None else r.cutoff_above for r in read]),
            "below": arr([-1 if r.cutoff_below is None else r.cutoff_below for r in read]),
            "weight": arr([r.weight for r in read]).reshape(-1, 2), "active_weight": arr([r.active_weight for r in read]),
            "test": arr([("usual", "yes_lead", "no_lead").index(r.test[0]) for r in read]), "margin": arr([r.test[1] for r in read]),
            "no_voters": np.array([r.no_voters_collect for r in read]), "unanimous": np.array([r.unanimous_ends for r in read]),
            "reverse": np.array([r.reverse for r in read]),
            "start": seq([[self.start_ops.index(t) for t in r.start] for r in read]),
            "after": seq([[self.after_ops.index(t) for t in r.after] for r in read]),
            "in_force": seq([sorted(kinds.index(t.in_force[len("in force: "):]) for t in r.tallies) for r in read]),
        }
        for name, values in new.items():
            if self.rows:
                old = getattr(self, name)
                if values.ndim == 2 and name != "weight":  # pad the narrower of the two to the wider
                    width = max(old.shape[1], values.shape[1])
                    old = np.pad(old, ((0, 0), (0, width - old.shape[1])), constant_values=-1)
                    values = np.pad(values, ((0, 0), (0, width - values.shape[1])), constant_values=-1)
                values = np.concatenate([old, values])
            setattr(self, name, values)
        self.variety = (self.vmin != 0) | (self.vmax != 4)
        for cards in combos:
            self.row[cards] = self.rows
            self.rows += 1

    def rows_of(self, cards: np.ndarray) -> np.ndarray:
        """The rows of the rounds whose Master cards in force are ``cards[m, P]`` (each the index
        ``j`` of Master card ``Mm + j``, or -1 for none: the revealed card, then the played
        ones in the order played), a row added for each combination not seen before.  A
        combination is looked up as one number, its digits ``j + 1`` in base ``K + 1`` (when
        that fits 62 bits; else row by row)."""
        m, P = cards.shape
        base = self.K + 1
        if base ** P >= 1 << 62:
            unique, inverse = np.unique(cards, axis=0, return_inverse=True)
            combos = [tuple(self.Mm + int(j) for j in row if j >= 0) for row in unique]
            self._add(list(dict.fromkeys(c for c in combos if c not in self.row)))
            return np.array([self.row[c] for c in combos], dtype=np.int64)[inverse.reshape(-1)]
        keys = ((cards + 1) * base ** np.arange(P, dtype=np.int64)).sum(axis=1)
        at = np.minimum(np.searchsorted(self._keys, keys), len(self._keys) - 1) if len(self._keys) else np.zeros(m, dtype=np.int64)
        new = np.unique(keys[self._keys[at] != keys]) if len(self._keys) else np.unique(keys)
        if len(new):
            digits = new[:, None] // base ** np.arange(P, dtype=np.int64) % base
            combos = [tuple(self.Mm + int(d) - 1 for d in row if d) for row in digits]
            self._add(list(dict.fromkeys(c for c in combos if c not in self.row)))
            keys_rows = np.concatenate([self._key_rows, [self.row[c] for c in combos]]).astype(np.int64)
            all_keys = np.concatenate([self._keys, new])
            order = np.argsort(all_keys)
            self._keys, self._key_rows = all_keys[order], keys_rows[order]
            at = np.searchsorted(self._keys, keys)
        return self._key_rows[at]


class MaybeMissionsBatched:
    """The batched engine of one game's parameters (:meth:`MaybeMissionsGame.batched`): a
    :class:`~deckpress.rules.core.game.BatchedEngine` for random bots in the base game and its
    variants (play_masters, reduce_randomness).

    Raises (on creation):
        ParameterError: a bot other than ``random``; ``identities`` or ``gadgets`` (what this
            engine does not play, and why); content with a Master rule kind outside :data:`KINDS`
            (:class:`Rules`).
    """

    chunk_games = CHUNK_GAMES

    def __init__(self, game, bots: Sequence[str]):
        require_random(bots)
        refused = [(game.identities, "identities (the Secret Identities expansion: seat powers over votes, their numbers, "
                                     "collecting and scoring, and late voters)"),
                   (game.gadgets, "gadgets (the Gadget Shopping expansion: the shop and its rewards)")]
        for on, what in refused:
            if on:
                raise ParameterError(f"the batched engine plays Maybe Missions' base game and its variants only, not {what}: "
                                     "simulate it with the reference engine")
        self.game = game
        self.rules = Rules(game)

    def play_chunk(self, seed: int, start: int, stop: int):
        """Play games ``start..stop-1`` of a run seeded ``seed`` and count them as the reference
        engine's simulation does (:func:`~deckpress.rules.core.batched.tally_of`).  The chunk's
        generator is seeded by ``(seed, start)``."""
        return tally_of(self.run(seed, start, stop), self.game.players)

    def run(self, seed: int, start: int, stop: int) -> "Run":
        """The played :class:`Run` of games ``start..stop-1`` (its per-game arrays, for tests)."""
        return Run(self.game, self.rules, stop - start, np.random.default_rng([seed, start])).play()


#: The per-game arrays of the games still playing, dropped together when games end (with
#: reduce_randomness also :data:`_REDRAW`, and :data:`_KNOWN` when it draws from the discards).
_LIVE = ("ids", "yes", "no", "kyes", "kno", "deck", "drawn", "market", "mk", "mission", "mc", "union", "masters", "known",
         "pool_yes", "used_yes", "pool_no", "used_no", "owner", "red", "held", "moves", "chance", "decisions", "counts")
_REDRAW = ("got", "box_yes", "box_no")
_KNOWN = ("loc", "dyes", "dno", "dk")
#: ``Run.loc``: a revealed vote's place besides a seat's hand (0..n-1): the discards (``n + DISCARDS``)
#: or set aside by a seat redrawing (``n + HELD``); -1: not revealed yet, or on the table.
DISCARDS, HELD = 0, 1


class Run:
    """``G`` games of the base game (and its variants), played a round at a time on arrays (see the
    module's docstring).

    Shapes (``G`` games still playing, ``n`` seats, ``C`` mission and Master cards numbered as
    ``cards.py`` numbers them, ``S = market + 1`` market slots, ``Q = market + 2`` mission slots):
    ``yes[G, n]``, ``no[G, n]`` (each hand's votes by type); ``deck[G, Mm]`` (the mission deck in
    the order drawn) with ``drawn[G]``; ``market[G, S]`` (card numbers, the first ``mk[G]`` slots
    filled, -1 empty), ``mission[G, Q]`` with ``mc[G]`` and ``union[G]`` (the resources its green
    sides show); ``masters[G, K]`` (the Master deck in the order revealed) with ``known[G]`` (cards
    turned up so far); ``pool_yes[G, PY]``/``pool_no[G, PN]`` (the numbers of each type in the order
    revealed) with ``used_yes[G]``/``used_no[G]``; ``owner[G, C]`` (-1 or the seat whose
    collection holds the card), ``red[G, C]`` (red side up), ``held[G, n]`` (cards collected);
    ``moves``, ``chance``, ``decisions`` and ``counts[G, NC]`` (the tally's counts, named by
    ``columns``).  ``ids[G]`` maps the rows still playing to game numbers.  With reduce_randomness:
    ``got[G, n]`` (the seat collected or won a card this round), ``box_yes[G]``/``box_no[G]`` (the
    votes not dealt, by type); drawing from the discards also ``kyes[G, n]``/``kno[G, n]`` (the
    revealed votes in each hand, by type), ``loc[G, V]`` (where the revealed vote numbered ``v``
    is: :data:`DISCARDS`, :data:`HELD`), ``dyes[G]``/``dno[G]`` (votes never revealed in the
    discards, by type) and ``dk[G]`` (revealed votes in the discards).  ``yes`` and ``no`` then
    count a hand's votes not revealed yet.

    Per game number, once played: ``finished[games]``, ``scores[games, n]``, ``moves``, ``actions``,
    ``decisions`` and ``tallies[games, NC]`` (the counts as ``MaybeMissionsState.tally`` gives them).
    """

    def __init__(self, game, rules: Rules, games: int, rng: np.random.Generator):
        self.game, self.rules, self.rng, self.games = game, rules, rng, games
        n, Mm, K = game.players, game.n_missions, game.n_masters
        self.n, self.Mm, self.K, self.C = n, Mm, K, Mm + K
        self.S, self.Q = game.market_size + 1, game.market_size + 2
        nets = np.array(game.net[:self.C], dtype=np.float32)  # [C, 2, 4]: the net icons of each side (floats for BLAS, exact)
        self.net_green, self.net_red = nets[:, GREEN, :].copy(), nets[:, RED, :].copy()
        self.shows = np.array([game.shows[c][GREEN] for c in range(Mm)] + [0], dtype=np.int64)  # [Mm + 1]: index -1 is no card
        self._columns(rules)
        # per-game results
        self.finished = np.zeros(games, dtype=bool)
        self.scores = np.zeros((games, n), dtype=np.float64)
        self.out_moves = np.zeros(games, dtype=np.int64)
        self.out_actions = np.zeros(games, dtype=np.int64)
        self.out_decisions = np.zeros(games, dtype=np.int64)
        self.tallies = np.zeros((games, len(self.columns)), dtype=np.int16)
        # the live arrays
        G = games
        self.ids = np.arange(G)
        self.moves = np.zeros(G, dtype=np.int64)
        self.chance = np.zeros(G, dtype=np.int64)
        self.decisions = np.zeros(G, dtype=np.int64)
        self.counts = np.zeros((G, len(self.columns)), dtype=np.int16)
        self._deal()
        self.deck = rng.permuted(np.tile(np.arange(Mm, dtype=np.int16), (G, 1)), axis=1)
        self.drawn = np.zeros(G, dtype=np.int64)
        self.market = np.full((G, self.S), -1, dtype=np.int64)
        self.mk = np.zeros(G, dtype=np.int64)
        self.mission = np.full((G, self.Q), -1, dtype=np.int64)
        self.mc = np.zeros(G, dtype=np.int64)
        self.union = np.zeros(G, dtype=np.int64)
        self.masters = rng.permuted(np.tile(np.arange(K, dtype=np.int16), (G, 1)), axis=1)
        self.known = np.zeros(G, dtype=np.int64)
        self.owner = np.full((G, self.C), -1, dtype=np.int8)
        self.red = np.zeros((G, self.C), dtype=bool)
        self.held = np.zeros((G, n), dtype=np.int64)
        numbers = game.votes_in_play  # the box (vote_numbers: random) or the votes in play (lowest)

        def pool(t: int) -> np.ndarray:  # [G, PY] or [G, PN]: the votes of type t, shuffled for each game
            return rng.permuted(np.tile(np.array([x for x in numbers if game.vote_type[x] == t], dtype=np.int16), (G, 1)), axis=1)
        self.pool_yes, self.used_yes = pool(YES), np.zeros(G, dtype=np.int64)
        self.pool_no, self.used_no = pool(NO), np.zeros(G, dtype=np.int64)
        self.live: tuple[str, ...] = _LIVE
        self.kyes = np.zeros((G, n), dtype=np.int64)  # no revealed vote in a hand unless drawn from the discards
        self.kno = np.zeros((G, n), dtype=np.int64)
        if game.reduce_randomness:
            self.live += _REDRAW
            self.got = np.zeros((G, n), dtype=bool)
            per = game.votes_per_type * n
            self.box_yes = np.full(G, self.pool_yes.shape[1] - per, dtype=np.int64)
            self.box_no = np.full(G, self.pool_no.shape[1] - per, dtype=np.int64)
        self.track = game.reduce_randomness and not game.redraw_from_box
        if self.track:
            self.live += _KNOWN
            V = max(numbers) + 1
            self.loc = np.full((G, V), -1, dtype=np.int8)
            self.vote_is_yes = np.array([game.vote_type[v] == YES if v < len(game.vote_type) else False for v in range(V)])
            self.dyes = np.zeros(G, dtype=np.int64)
            self.dno = np.zeros(G, dtype=np.int64)
            self.dk = np.zeros(G, dtype=np.int64)
        self._refill(np.arange(G))  # flow.setup: the market after the deal

    # -- bookkeeping ---------------------------------------------------------------------------------
    def _columns(self, rules: Rules) -> None:
        """Name the columns of ``counts``: the round counts, then per kind its in-force, succeeded
        and (TALLY_KINDS) changed-the-result counts, the final counts, and a last column that
        takes the counts of the places past a round's last kind in force (never reported).
        ``col_in_force[k]`` (and ``col_succeeded``, ``col_changed``) is kind ``k``'s column, at
        ``-1`` that last column (``Rules.in_force`` past its last kind)."""
        names = ["rounds", "successes", "all-NO rounds", "rounds ended by unanimity", "cards proposed", "cards collected", "redeals",
                 "variety rule waived", "ended with no mission card left", "masters played", "redraws", "winner minus last",
                 "winner minus runner-up", "games with one winner"] + [f"winner's doubled resource: {r}" for r in RESOURCES]
        kinds = rules.kinds
        for kind in kinds:
            tally = RuleTally.of(kind)
            names += [tally.in_force, tally.succeeded] + ([tally.changed] if tally.changed else [])
            names += [f"held at the end: {kind}", f"held by a winner: {kind}"]
        names.append("")
        self.columns = {name: i for i, name in enumerate(names)}
        none = len(names) - 1
        col = self.columns
        self.col_in_force = np.array([col[RuleTally.of(k).in_force] for k in kinds] + [none])
        self.col_succeeded = np.array([col[RuleTally.of(k).succeeded] for k in kinds] + [none])
        changed = [RuleTally.of(k).changed for k in kinds]
        self.col_changed = np.array([none if c is None else col.get(c, none) for c in changed] + [none])
        masters = [self.game.master_rule[self.Mm + j]["kind"] for j in range(self.K)]
        self.col_held = np.array([col[f"held at the end: {k}"] for k in masters], dtype=np.int64)
        self.col_by_winner = np.array([col[f"held by a winner: {k}"] for k in masters], dtype=np.int64)

    def count(self, name: str, values, rows=None) -> None:
        """Add ``values`` (``[G]``, or ``[len(rows)]`` for the rows ``rows``) to the count ``name``."""
        if rows is None:
            self.counts[:, self.columns[name]] += values
        else:
            self.counts[rows, self.columns[name]] += values

    def _keep(self, keep: np.ndarray) -> None:
        """Keep the live rows ``keep`` (a mask ``[G]``) of every live array (``live``: :data:`_LIVE` and
        what the variant adds)."""
        for name in self.live:
            setattr(self, name, getattr(self, name)[keep])

    # -- setup ----------------------------------------------------------------------------------------
    def _deal(self) -> None:
        """``flow.deal_votes`` and ``check_deal``: every hand's YES votes, a sequential hypergeometric
        split of ``votes`` x players votes of each type, seat 0's hand first; dealt again while a
        hand holds a single type (``redeals``).  Each deal is ``hand x players`` chance events."""
        game, rng, n = self.game, self.rng, self.n
        G, hand, per = len(self.ids), game.hand_size, game.votes_per_type * n
        self.yes = np.zeros((G, n), dtype=np.int64)
        due = np.arange(G)
        for _ in range(1_000_000):  # a deal is good with a probability above 1/20 at every size: never reached
            if not len(due):
                break
            self.chance[due] += hand * n
            left, total = np.full(len(due), per), 2 * per
            seats = []
            for _s in range(n):
                y = rng.hypergeometric(left, total - left, hand) if total > hand else left.copy()
                seats.append(y)
                left, total = left - y, total - hand
            ys = np.stack(seats, axis=1)
            self.yes[due] = ys
            bad = ((ys == 0) | (ys == hand)).any(axis=1)
            self.counts[due[bad], self.columns["redeals"]] += 1
            due = due[bad]
        self.no = hand - self.yes

    def _refill(self, rows: np.ndarray) -> None:
        """``moves.refill_market`` for the games ``rows``: deal mission cards into the market until
        it holds ``market`` cards or the deck runs out, one chance event each."""
        if not len(rows):
            return
        mk, drawn = self.mk[rows], self.drawn[rows]
        k = np.clip(np.minimum(self.game.market_size - mk, self.Mm - drawn), 0, None)
        for j in range(int(k.max(initial=0))):
            sel = j < k
            r = rows[sel]
            self.market[r, mk[sel] + j] = self.deck[r, drawn[sel] + j]
        self.mk[rows] = mk + k
        self.drawn[rows] = drawn + k
        self.chance[rows] += k

    # -- the game -------------------------------------------------------------------------------------
    def play(self) -> "Run":
        """Play every game to its end (rulebook "Objective": every hand empty; ``empty_market: end``:
        no mission card left); the per-game arrays are then final.  A round plays at least one vote,
        so a game has at most as many rounds as votes are dealt: the loop is bounded by that."""
        game = self.game
        bound = 2 * game.votes_per_type * self.n + 1
        for r in range(bound + 1):
            hands = (self.yes + self.no + self.kyes + self.kno).sum(axis=1)
            over = hands == 0
            if game.end_on_empty_market:
                empty = ~over & (self.mk == 0)
                self.count("ended with no mission card left", empty)
                over |= empty
            if over.any():
                self._finish(over, finished=True)
                self._keep(~over)
            if not len(self.ids):
                break
            if r == bound:  # never reached: a game still playing here is counted as cut off
                self._finish(np.ones(len(self.ids), dtype=bool), finished=False)
                break
            self._round(r)
        self.moves, self.actions, self.decisions = self.out_moves, self.out_actions, self.out_decisions
        self.finished &= self.actions <= game.max_length()
        return self

    def _round(self, r: int) -> None:
        """Round ``r`` (from 0) of every game still playing (``flow.start_round`` to ``next_active``).
        The active seat is ``r mod n`` in every game (nothing in the base game changes it)."""
        rules, n = self.rules, self.n
        G = len(self.ids)
        rows = np.arange(G)
        active = r % n
        # (1) Master cards played (the variant), in turn order from the active seat; the Master card
        # revealed: the r-th of the deck, turned up now unless reveal_masters showed it
        played = self._offer_masters(active) if self.game.play_masters else None
        if r < self.K:
            self.chance += self.known < r + 1
            self.known = np.maximum(self.known, r + 1)
            revealed = self.masters[:, r].astype(np.int64)
            rule = revealed.copy()  # row j: Master card j alone
        else:
            revealed = np.full(G, -1, dtype=np.int64)
            rule = np.full(G, self.K, dtype=np.int64)  # row K: no card
        if played is not None:
            some = np.flatnonzero((played >= 0).any(axis=1))
            if len(some):
                rule[some] = rules.rows_of(np.concatenate([revealed[some, None], played[some]], axis=1))
        in_force = rules.in_force[rule]  # [G, P]: the kinds in force, -1 past the last
        for p in range(in_force.shape[1]):
            self.counts[rows, self.col_in_force[in_force[:, p]]] += 1
        self._tasks(rules.start[rule], rules.start_ops, lambda task, at, arg: task(at, arg, r, active))
        # (2) prepare, proposed
        self._propose(rule)
        self.count("cards proposed", self.mc)
        self._refill(rows)
        # (3) vote, (4) result
        seat, vote_yes, number, valid = self._vote(rule)
        counted = valid & (number <= rules.above[rule][:, None]) & (number >= rules.below[rule][:, None])
        weight = rules.weight[rule][rows[:, None], vote_yes.astype(np.int64)]  # [G, E]: the vote's type's weight ...
        weight = weight * np.where(seat == active, rules.active_weight[rule][:, None], 1)  # ... times the active seat's
        w = np.where(counted, weight, 0)
        yes, no = (w * vote_yes).sum(axis=1), (w * ~vote_yes).sum(axis=1)
        success = self._passes(rules.test[rule], rules.margin[rule], yes, no)
        plain = self._passes(np.zeros(G, dtype=np.int64), 0, (valid & vote_yes).sum(axis=1), (valid & ~vote_yes).sum(axis=1))
        counted_yes = (counted & vote_yes).sum(axis=1)
        counted_no = (counted & ~vote_yes).sum(axis=1)
        exceptional = (counted_no > 0) & (counted_yes == 0)
        unanimous = rules.unanimous[rule] & ((counted_yes == 0) != (counted_no == 0))
        self.count("rounds", 1)
        self.count("successes", success)
        self.count("all-NO rounds", exceptional)
        self.count("rounds ended by unanimity", unanimous)
        for p in range(in_force.shape[1]):
            self.counts[rows, self.col_succeeded[in_force[:, p]]] += success
            self.counts[rows, self.col_changed[in_force[:, p]]] += success != plain
        # (5) after voting (masters.adjust_mission, swap_by_voter): none in a round ended by unanimity;
        # the voter is the same for every task (the table does not change)
        after = np.where((~unanimous & (counted_yes + counted_no > 0))[:, None], rules.after[rule], -1)

        def after_task(task, at, which):
            key = np.where(counted[at], number[at], -1 if which == "highest" else NO_TURN)
            task(at, seat[at, (key.argmax if which == "highest" else key.argmin)(axis=1)])

        self._tasks(after, rules.after_ops, after_task)
        # (6) collect, award the Master card
        self._collect(rule, seat, vote_yes, number, counted, success, exceptional, unanimous)
        if r < self.K:
            won = ~(exceptional | unanimous)
            card = self.Mm + revealed[won]
            at = rows[won]
            self.owner[at, card] = active
            self.red[at, card] = ~success[won]
            self.held[at, active] += 1
            if self.game.reduce_randomness:
                self.got[at, active] = True
        # (7) round end: the mission's cards left are discarded (clear_table), and the votes played
        # (revealed: tracked when the discards are drawn from again); the variant's redraws
        self.mission[:] = -1
        self.mc[:] = 0
        self.union[:] = 0
        if self.track:
            g, e = np.nonzero(valid)
            self.loc[g, number[g, e]] = n + DISCARDS
            self.dk += valid.sum(axis=1)
        if self.game.reduce_randomness:
            for i in range(n):
                self._redraw((active + i) % n)
            self.got[:] = False

    def _redraw(self, s: int) -> None:
        """``flow.offer_redraw``, ``redraw`` (reduce_randomness): seat ``s``, if it collected and won no
        card this round, holds two votes or more and the pile it would draw from is not empty, is
        asked (a move and a decision: a vote of its hand or "none", uniformly); having chosen a
        vote it chooses a second (a move, a decision among two or more), a uniform pair of its
        hand; it draws ``min(2, pile)`` votes, a uniform subset of the pile, one chance event
        each.  From the box: votes never revealed, the two discarded out of the game for good.
        From the discards: the pile's votes never revealed (``dyes``, ``dno``) and revealed
        (``loc``), the seat's two set aside until it has drawn."""
        n = self.n
        fy, fn, ky, kn = self.yes[:, s].copy(), self.no[:, s].copy(), self.kyes[:, s].copy(), self.kno[:, s].copy()
        hand = fy + fn + ky + kn
        pile = self.dyes + self.dno + self.dk if self.track else self.box_yes + self.box_no
        asked = np.flatnonzero(~self.got[:, s] & (hand >= 2) & (pile > 0))
        if not len(asked):
            return
        self.moves[asked] += 1
        self.decisions[asked] += 1  # the hand and "none": three options or more
        pick = (self.rng.random(len(asked)) * (hand[asked] + 1)).astype(np.int64)  # hand[asked]: "none"
        go = asked[pick < hand[asked]]
        if not len(go):
            return
        self.moves[go] += 1
        self.decisions[go] += hand[go] > 2
        self.count("redraws", 1, go)
        gone_y, gone_n, gone_k = self._split((fy[go], fn[go], ky[go] + kn[go]), np.full(len(go), 2))
        self.yes[go, s] -= gone_y
        self.no[go, s] -= gone_n
        k = np.minimum(2, pile[go])
        self.chance[go] += k
        if not self.track:  # from the box (the hand holds no revealed vote)
            got_y, got_n = self._split((self.box_yes[go], self.box_no[go]), k)
            self.box_yes[go] -= got_y
            self.box_no[go] -= got_n
            self.yes[go, s] += got_y
            self.no[go, s] += got_n
            return
        sub = np.flatnonzero(gone_k > 0)
        if len(sub):  # revealed votes set aside
            rows = go[sub]
            chosen = self._choose_known(self.loc[rows], s, gone_k[sub])
            y = (chosen & self.vote_is_yes).sum(axis=1)
            self.kyes[rows, s] -= y
            self.kno[rows, s] -= gone_k[sub] - y
            self.loc[rows] = np.where(chosen, n + HELD, self.loc[rows])
        got_y, got_n, got_k = self._split((self.dyes[go], self.dno[go], self.dk[go]), k)
        self.dyes[go] -= got_y
        self.dno[go] -= got_n
        self.dk[go] -= got_k
        self.yes[go, s] += got_y
        self.no[go, s] += got_n
        sub = np.flatnonzero(got_k > 0)
        if len(sub):  # revealed votes drawn
            rows = go[sub]
            chosen = self._choose_known(self.loc[rows], n + DISCARDS, got_k[sub])
            y = (chosen & self.vote_is_yes).sum(axis=1)
            self.kyes[rows, s] += y
            self.kno[rows, s] += got_k[sub] - y
            self.loc[rows] = np.where(chosen, s, self.loc[rows])
        # release_redrawn: the two set aside join the discards
        self.dyes[go] += gone_y
        self.dno[go] += gone_n
        self.dk[go] += gone_k
        rows = go[gone_k > 0]
        self.loc[rows] = np.where(self.loc[rows] == n + HELD, n + DISCARDS, self.loc[rows])

    def _tasks(self, due: np.ndarray, ops: list[tuple], run) -> None:
        """Run the round tasks ``due[G, P]`` (indices into ``ops``, -1 past the last) in their order:
        at each place, each task for the games due it, ``run(method, rows, argument)``."""
        for p in range(due.shape[1]):
            column = due[:, p]
            for i, (task, arg) in enumerate(ops):
                at = np.flatnonzero(column == i)
                if len(at):
                    run(getattr(self, "_" + task), at, arg)

    def _offer_masters(self, active: int) -> np.ndarray:
        """``flow.offer_masters`` (the play_masters variant): each seat, in turn order from the active
        one, that holds Master cards green side up is asked (a move and a decision: "none" or one
        of them, uniformly); a played card leaves the collection for good (it is discarded at the
        round's end).  Returns ``[G, n]``: the index ``j`` of the card each seat played, in that
        order, -1 for none."""
        G, n, Mm = len(self.ids), self.n, self.Mm
        played = np.full((G, n), -1, dtype=np.int64)
        for i in range(n):
            s = (active + i) % n
            green = (self.owner[:, Mm:] == s) & ~self.red[:, Mm:]
            options = green.sum(axis=1)
            asked = np.flatnonzero(options > 0)
            if not len(asked):
                continue
            self.moves[asked] += 1
            self.decisions[asked] += 1
            pick = (self.rng.random(len(asked)) * (options[asked] + 1)).astype(np.int64)  # 0: none, k: the k-th green card
            go, pick = asked[pick > 0], pick[pick > 0]
            j = (np.cumsum(green[go], axis=1) >= pick[:, None]).argmax(axis=1)
            played[go, i] = j
            self.owner[go, Mm + j] = -1
            self.red[go, Mm + j] = False
            self.held[go, s] -= 1
            self.count("masters played", 1, go)
        return played

    def _passes(self, test: np.ndarray, margin, yes: np.ndarray, no: np.ndarray) -> np.ndarray:
        """``flow.passes``: SUCCESS by the usual test (the ``tie`` parameter) or success_margin's."""
        usual = yes >= no if self.game.tie_success else yes > no
        return np.where(test == 1, yes - no >= margin, np.where(test == 2, no - yes <= margin, usual))

    # -- round-start tasks (masters.py) --------------------------------------------------------------
    def _show_masters(self, at: np.ndarray, count: int, r: int, active: int) -> None:
        """reveal_masters: the top ``count`` cards of what is left of the Master deck are turned up
        (``moves.show_masters``), a chance event for each not known yet."""
        target = min(self.K, r + 1 + count)
        self.chance[at] += np.maximum(target - self.known[at], 0)
        self.known[at] = np.maximum(self.known[at], target)

    def _announce(self, at, extreme, r, active) -> None:
        """announce_vote: said aloud, read by no random bot."""

    def _pass_votes(self, at: np.ndarray, count: int, r: int, active: int) -> None:
        """pass_votes: a seat holding more than ``count`` votes chooses ``count`` of them, one at a
        time (each choice a decision among two or more), a uniform subset: hypergeometric YES
        votes; a seat holding fewer passes them all without a move.  Then every seat's go to the
        next seat clockwise at once (``hand_over``)."""
        yes, no = self.yes[at], self.no[at]
        chooser = yes + no + self.kyes[at] + self.kno[at] > count
        moves = count * chooser.sum(axis=1)
        self.moves[at] += moves
        self.decisions[at] += moves
        if self.track:
            self._pass_tracked(at, count)
            return
        passed = yes.copy()
        if chooser.any():
            passed[chooser] = self.rng.hypergeometric(yes[chooser], no[chooser], count)
        passed_no = np.where(chooser, count - passed, no)
        self.yes[at] = yes - passed + np.roll(passed, 1, axis=1)
        self.no[at] = no - passed_no + np.roll(passed_no, 1, axis=1)

    def _pass_tracked(self, at: np.ndarray, count: int) -> None:
        """pass_votes when hands may hold votes revealed before: each seat's ``min(count, hand)``
        votes passed are a uniform subset of its hand (:meth:`_split` into its groups, then a
        uniform subset of its revealed votes, :meth:`_choose_known`); all go at once."""
        n = self.n
        fy, fn, ky, kn = self.yes[at], self.no[at], self.kyes[at], self.kno[at]
        hand = fy + fn + ky + kn
        py, pn, pk = self._split((fy, fn, ky + kn), np.minimum(count, hand))
        pky = np.zeros_like(pk)
        loc = self.loc[at]
        moved = loc.copy()
        for s in range(n):
            sub = np.flatnonzero(pk[:, s] > 0)
            if len(sub):
                chosen = self._choose_known(loc[sub], s, pk[sub, s])
                pky[sub, s] = (chosen & self.vote_is_yes).sum(axis=1)
                moved[sub] = np.where(chosen, (s + 1) % n, moved[sub])
        self.loc[at] = moved
        pkn = pk - pky
        self.yes[at] = fy - py + np.roll(py, 1, axis=1)
        self.no[at] = fn - pn + np.roll(pn, 1, axis=1)
        self.kyes[at] = ky - pky + np.roll(pky, 1, axis=1)
        self.kno[at] = kn - pkn + np.roll(pkn, 1, axis=1)

    def _split(self, groups: tuple[np.ndarray, ...], size: np.ndarray) -> list[np.ndarray]:
        """How many cards of each group a uniform ``size``-subset of the cards of all ``groups``
        (their sizes, any shape) takes: a multivariate hypergeometric, drawn group by group."""
        left = sum(groups)
        out = []
        for group in groups[:-1]:
            left = left - group
            took = self.rng.hypergeometric(group, left, size)
            out.append(took)
            size = size - took
        out.append(size)
        return out

    def _choose_known(self, loc: np.ndarray, place, k: np.ndarray) -> np.ndarray:
        """``[m, V]``: a uniform ``k[m]``-subset of the revealed votes at ``place`` (a number, or
        ``[m, 1]``) in each row of ``loc[m, V]`` (the rows' places of the votes)."""
        return self._choose(loc == place, k)

    def _choose(self, match: np.ndarray, k: np.ndarray) -> np.ndarray:
        """``[m, V]``: a uniform ``k[m]``-subset of the columns ``match[m, V]`` holds in each row
        (``k`` at most their number), picked one at a time: a uniform one of those left."""
        match = match.copy()
        left = match.sum(axis=1)
        chosen = np.zeros(match.shape, dtype=bool)
        for step in range(int(k.max(initial=0))):
            rows = np.flatnonzero(k > step)
            j = (self.rng.random(len(rows)) * left[rows]).astype(np.int64)
            col = (np.cumsum(match[rows], axis=1, dtype=np.int8) > j[:, None]).argmax(axis=1)  # V <= 100
            match[rows, col] = False
            chosen[rows, col] = True
            left[rows] -= 1
        return chosen

    def _flip_collected(self, at: np.ndarray, count: int, r: int, active: int) -> None:
        """flip_collected: each seat turns over ``count`` of its collected cards, a uniform subset
        chosen one at a time (``moves.flip``, every choice a decision), or all of them, without a
        move, when it holds no more (``flip_some``)."""
        owner = self.owner[at]
        red = self.red[at]
        for s in range(self.n):
            mine = owner == s
            held = self.held[at, s]
            red ^= mine & (held <= count)[:, None]
            choose = np.flatnonzero(held > count)
            if len(choose):
                keys = np.where(mine[choose], self.rng.random((len(choose), self.C)), 2.0)
                picked = np.argsort(keys, axis=1)[:, :count]
                red[choose[:, None], picked] ^= True
                self.moves[at[choose]] += count
                self.decisions[at[choose]] += count
        self.red[at] = red

    # -- after-voting tasks (masters.py) -------------------------------------------------------------
    def _adjust_mission(self, at: np.ndarray, voter: np.ndarray) -> None:
        """voter_adjusts_mission (``masters.adjust``): the voter's legal list is "none", every market
        card, and every mission card while the mission holds more than one; a market card taken
        joins the mission and the market is refilled, a mission card removed joins the market (or,
        with ``adjust_removed: discard``, is discarded)."""
        mk, mc = self.mk[at], self.mc[at]
        back = np.where(mc > 1, mc, 0)
        options = 1 + mk + back
        self.moves[at] += 1
        self.decisions[at] += options > 1
        pick = (self.rng.random(len(at)) * options).astype(np.int64)
        add = (pick >= 1) & (pick <= mk)
        g, slot = at[add], pick[add] - 1
        card = self.market[g, slot]
        self._take_from_market(g, slot)
        self.mission[g, self.mc[g]] = card
        self.mc[g] += 1
        self.union[g] |= self.shows[card]
        self._refill(g)
        ret = pick > mk
        g, slot = at[ret], pick[ret] - 1 - mk[ret]
        card = self.mission[g, slot]
        last = self.mc[g] - 1
        self.mission[g, slot] = self.mission[g, last]
        self.mission[g, last] = -1
        self.mc[g] = last
        if self.game.adjust_returns_to_market:  # else (adjust_removed: discard) it leaves the game as a discard
            self.market[g, self.mk[g]] = card
            self.mk[g] += 1

    def _swap_by_voter(self, at: np.ndarray, voter: np.ndarray) -> None:
        """voter_swaps_collected (``moves.swap_give``, ``give``, ``take``): when the voter and some
        other seat hold collected cards, the voter gives a uniform card of its own and takes a
        uniform card of all the others' (two moves); each card keeps its side."""
        own = self.held[at, voter]
        others = self.held[at].sum(axis=1) - own
        go = (own > 0) & (others > 0)
        at, voter, own, others = at[go], voter[go], own[go], others[go]
        if not len(at):
            return
        self.moves[at] += 2
        self.decisions[at] += (own > 1).astype(np.int64) + (others > 1)
        owner = self.owner[at]
        mine = owner == voter[:, None]
        theirs = (owner >= 0) & ~mine
        give = np.where(mine, self.rng.random(mine.shape), 2.0).argmin(axis=1)
        take = np.where(theirs, self.rng.random(mine.shape), 2.0).argmin(axis=1)
        other = self.owner[at, take]
        self.owner[at, give] = other
        self.owner[at, take] = voter

    # -- the proposal (flow.prepare, propose) ---------------------------------------------------------
    def _take_from_market(self, g: np.ndarray, slot: np.ndarray) -> None:
        """Remove the cards in ``slot`` of the markets of games ``g`` (the last card fills the gap)."""
        last = self.mk[g] - 1
        self.market[g, slot] = self.market[g, last]
        self.market[g, last] = -1
        self.mk[g] = last

    def _propose(self, rule: np.ndarray) -> None:
        """The active seat's proposal, one card at a time: ``lo = min(min_size, market)``, ``hi =
        min(max(max_size, lo), market)``; while the mission holds fewer than ``hi`` cards the
        legal list is the market's (under resource_variety: those that keep it completable) plus
        "done" once it holds ``lo`` (and shows ``vmin..vmax`` resources); it ends by itself when
        no card is legal.  A resource_variety limit that no proposal meets is waived."""
        rules, rng = self.rules, self.rng
        G = len(self.ids)
        mk = self.mk
        lo = np.minimum(rules.min_size[rule], mk)
        hi = np.minimum(np.maximum(rules.max_size[rule], lo), mk)
        vmin, vmax = rules.vmin[rule], rules.vmax[rule]
        variety = rules.variety[rule]
        if variety.any():
            at = np.flatnonzero(variety)
            ok = completable(np.zeros(len(at), dtype=np.int64), np.zeros(len(at), dtype=np.int64), self._market_counts(at),
                             lo[at], hi[at], vmin[at], vmax[at])
            waived = at[~ok]
            self.count("variety rule waived", 1, waived)
            variety[waived] = False
            vmin, vmax = vmin.copy(), vmax.copy()
            vmin[waived], vmax[waived] = 0, 4
        going = np.arange(G)
        slots = np.arange(self.S)
        for _ in range(self.S + 1):
            if not len(going):
                break
            mc = self.mc[going]
            cards = np.where(mc < hi[going], self.mk[going], 0)  # every market card is legal (a uniform slot)...
            v = np.flatnonzero(variety[going])
            if len(v):  # ... but under resource_variety only those that keep the proposal completable
                legal = (slots[None, :] < self.mk[going[v]][:, None]) & (cards[v] > 0)[:, None]
                legal &= self._variety_legal(going[v], lo, hi, vmin, vmax)
                cards[v] = legal.sum(axis=1)
            shown = POPCOUNT[self.union[going]]
            done = (mc >= lo[going]) & (vmin[going] <= shown) & (shown <= vmax[going])
            asked = cards > 0  # legal == [done] (or nothing): the proposal ended by itself, or was never asked
            options = cards + done
            self.moves[going] += asked
            self.decisions[going] += asked & (options > 1)
            slot = (rng.random(len(going)) * options).astype(np.int64)
            take = asked & (slot < cards)
            if len(v):  # the slot-th legal slot
                slot[v] = (np.cumsum(legal, axis=1) > slot[v][:, None]).argmax(axis=1)
            going, slot = going[take], slot[take]
            card = self.market[going, slot]
            self._take_from_market(going, slot)
            self.mission[going, self.mc[going]] = card
            self.mc[going] += 1
            self.union[going] |= self.shows[card]

    def _market_counts(self, g: np.ndarray) -> np.ndarray:
        """``[len(g), 16]``: the market cards of games ``g`` by the resources their green side shows."""
        market = self.market[g]
        masks = np.where(market >= 0, self.shows[market], -1)
        return (masks[:, :, None] == np.arange(16)).sum(axis=1)

    def _variety_legal(self, g: np.ndarray, lo, hi, vmin, vmax) -> np.ndarray:
        """``[len(g), S]``: the market slots of games ``g`` whose card keeps the proposal completable
        (``flow._propose_legal``: the card added, the rest of the market left).  A card after which
        the proposal is complete already (``flow.completable``'s first test) or shows too many
        resources is answered at once; :func:`completable` answers the others."""
        market = self.market[g]
        masks = np.where(market >= 0, self.shows[market], 0)  # [g, S]
        union = self.union[g][:, None] | masks
        n = self.mc[g][:, None] + 1
        lo, hi, vmin, vmax = (np.broadcast_to(a[g][:, None], union.shape) for a in (lo, hi, vmin, vmax))
        shown = POPCOUNT[union]
        legal = (n >= lo) & (vmin <= shown) & (shown <= vmax)
        open_ = (market >= 0) & ~legal & (shown <= vmax) & (n < hi)  # more cards may still complete it
        if open_.any():
            at, slot = np.nonzero(open_)
            counts = self._market_counts(g[at]) - (masks[at, slot][:, None] == np.arange(16))
            legal[at, slot] = completable(union[at, slot], n[at, 0], counts, lo[at, slot], hi[at, slot], vmin[at, slot], vmax[at, slot])
        return legal & (market >= 0)

    # -- votes (flow.vote, secret_vote, open_vote) -----------------------------------------------------
    def _vote(self, rule: np.ndarray):
        """Every seat with votes plays ``min(votes, hand)`` of them, one at a time: a uniform vote of
        its legal list (the hand, or its votes of the forced type while it holds one).  Returns the
        table, ``[G, E]`` each (``E = n x`` the most votes a seat plays this round; entry ``i n +
        s`` is seat ``s``'s ``i``-th vote): ``seat``, ``vote_yes``, ``number`` (drawn from the
        type's pool as the vote is revealed) and ``valid`` (the entry was played)."""
        rules, rng, n = self.rules, self.rng, self.n
        G = len(self.ids)
        votes, forced = rules.votes[rule], rules.forced[rule][:, None]
        rounds = int(votes.max(initial=1))
        E = n * rounds
        vote_yes = np.zeros((G, E), dtype=bool)
        valid = np.zeros((G, E), dtype=bool)
        revealed = np.full((G, E), -1, dtype=np.int64)  # the number of a vote revealed before (drawn from the discards)
        for i in range(rounds):
            if self.track:
                is_yes, plays, options = self._vote_tracked(i, forced, (i < votes)[:, None], revealed)
            else:
                yes, no = self.yes, self.no
                hand = yes + no
                plays = (hand > 0) & (i < votes)[:, None]
                typed = np.where(forced == YES, yes, np.where(forced == NO, no, 0))
                has_typed = typed > 0
                options = np.where(has_typed, typed, hand)
                is_yes = np.where(has_typed, forced == YES, rng.random((G, n)) * hand < yes) & plays
                self.yes = yes - is_yes
                self.no = no - (plays & ~is_yes)
            self.moves += plays.sum(axis=1)
            self.decisions += (plays & (options > 1)).sum(axis=1)
            vote_yes[:, i * n:(i + 1) * n] = is_yes
            valid[:, i * n:(i + 1) * n] = plays
        fresh = valid & (revealed < 0)
        number = np.maximum(revealed, 0)
        for pool, used, kind in ((self.pool_yes, self.used_yes, vote_yes & fresh), (self.pool_no, self.used_no, ~vote_yes & fresh)):
            place = np.minimum(used[:, None] + np.cumsum(kind, axis=1) - 1, pool.shape[1] - 1)
            number = np.where(kind, np.take_along_axis(pool, np.maximum(place, 0), axis=1), number)
            used += kind.sum(axis=1)
        seat = np.broadcast_to(np.tile(np.arange(n), rounds), (G, E))
        return seat, vote_yes, number, valid

    def _vote_tracked(self, i: int, forced: np.ndarray, due: np.ndarray, revealed: np.ndarray):
        """The ``i``-th vote of every seat due one (``due[G, 1]``) when hands may hold votes revealed
        before: a uniform vote of the legal list is one of its four groups (not revealed YES or NO,
        revealed YES or NO) with the group's share of the list, and within a group of revealed
        votes a uniform one, whose number goes to ``revealed`` (entry ``i n + s``).  Returns the
        votes' types, whether each seat plays, and the sizes of the legal lists, ``[G, n]`` each."""
        n, rng = self.n, self.rng
        fy, fn, ky, kn = self.yes, self.no, self.kyes, self.kno
        plays = (fy + fn + ky + kn > 0) & due
        only_yes = (forced == YES) & (fy + ky > 0)
        only_no = (forced == NO) & (fn + kn > 0)
        groups = [np.where(only_no, 0, fy), np.where(only_yes, 0, fn), np.where(only_no, 0, ky), np.where(only_yes, 0, kn)]
        options = sum(groups)
        x = rng.random(fy.shape) * options
        edges = np.cumsum(groups[:3], axis=0)
        group = np.where(plays, (x >= edges[0]).astype(np.int64) + (x >= edges[1]) + (x >= edges[2]), -1)
        self.yes, self.no, self.kyes, self.kno = fy - (group == 0), fn - (group == 1), ky - (group == 2), kn - (group == 3)
        g, s = np.nonzero(group >= 2)
        if len(g):
            match = (self.loc[g] == s[:, None]) & (self.vote_is_yes[None, :] == (group[g, s] == 2)[:, None])
            number = self._choose(match, np.ones(len(g), dtype=np.int64)).argmax(axis=1)
            self.loc[g, number] = -1
            revealed[g, i * n + s] = number
        return (group == 0) | (group == 2), plays, options

    # -- collecting (flow.collecting_turns, collect_turn, collect_card) --------------------------------
    def _collect(self, rule, seat, vote_yes, number, counted, success, exceptional, unanimous) -> None:
        """The collecting turns (:func:`collecting_turns`; none in a round ended by unanimity), each
        a uniform card of what is left of the mission (``collect_turn``, ``collect_card``)."""
        rules, rng = self.rules, self.rng
        turn_seat, has_turn, green = collecting_turns(seat, vote_yes, number, counted & ~unanimous[:, None], success, exceptional,
                                                      rules.reverse[rule], rules.no_voters[rule])
        for t in range(has_turn.shape[1]):
            g = np.flatnonzero(has_turn[:, t] & (self.mc > 0))
            if not len(g):  # turns come first, and missions only shrink: no later turn collects either
                break
            mc = self.mc[g]
            self.moves[g] += 1
            self.decisions[g] += mc > 1
            slot = (rng.random(len(g)) * mc).astype(np.int64)
            card = self.mission[g, slot]
            last = mc - 1
            self.mission[g, slot] = self.mission[g, last]
            self.mission[g, last] = -1
            self.mc[g] = last
            s = turn_seat[g, t]
            self.owner[g, card] = s
            self.red[g, card] = ~green[g, t]
            self.held[g, s] += 1
            self.count("cards collected", 1, g)
            if self.game.reduce_randomness:
                self.got[g, s] = True

    # -- the end (scoring.py, measures.final_tally) ---------------------------------------------------
    def _finish(self, over: np.ndarray, finished: bool) -> None:
        """Write the results of the games ``over`` (a mask of the live rows) by game number: scores
        (rulebook "Objective": ``sum c_r + max c_r - min c_r`` of each seat's up sides), moves,
        actions, decisions, and the tally with ``final_tally``'s counts."""
        rows = np.flatnonzero(over)
        ids = self.ids[rows]
        n = self.n
        owner, red = self.owner[rows], self.red[rows]
        icons = np.zeros((len(rows), n, len(RESOURCES)), dtype=np.int64)  # [g, n, 4]: c_r of each seat
        for s in range(n):
            mine = owner == s
            icons[:, s] = ((mine & ~red).astype(np.float32) @ self.net_green + (mine & red).astype(np.float32) @ self.net_red).round()
        scores = icons.sum(axis=2) + icons.max(axis=2) - icons.min(axis=2)
        ordered = np.sort(scores, axis=1)
        best = ordered[:, -1]
        winners = scores == best[:, None]
        alone = winners.sum(axis=1) == 1
        counts = self.counts[rows]
        col = self.columns
        counts[:, col["winner minus last"]] = best - ordered[:, 0]
        counts[:, col["winner minus runner-up"]] = best - ordered[:, -2]
        counts[:, col["games with one winner"]] = alone
        winner_icons = icons[np.arange(len(rows)), winners.argmax(axis=1)]
        doubled = alone[:, None] & (winner_icons == winner_icons.max(axis=1)[:, None])
        for r, name in enumerate(RESOURCES):
            counts[:, col[f"winner's doubled resource: {name}"]] = doubled[:, r]
        masters = owner[:, self.Mm:].astype(np.int64)  # [g, K]
        held = masters >= 0
        by_winner = held & np.take_along_axis(winners, np.maximum(masters, 0), axis=1)
        for j in range(self.K):  # kinds shared by several cards add up
            counts[:, self.col_held[j]] += held[:, j]
            counts[:, self.col_by_winner[j]] += by_winner[:, j]
        self.tallies[ids] = counts
        self.scores[ids] = scores
        self.out_moves[ids] = self.moves[rows]
        self.out_actions[ids] = self.moves[rows] + self.chance[rows]
        self.out_decisions[ids] = self.decisions[rows]
        self.finished[ids] = finished

    def events(self, done: np.ndarray) -> Counter:
        """:meth:`MaybeMissionsState.tally`'s counts summed over the finished games ``done`` (a mask
        by game number), with a key wherever the reference's tallies would have one: the round
        counts of every game; a Master kind's succeeded (and changed-the-result) count beside its
        in-force count, a held-by-a-winner count beside a held-at-the-end count, even at 0; the
        counts made only when something happens (redeals, waivers, the empty market, cards
        collected, one winner, a doubled resource, a kind in force or held) only then."""
        if not done.any():
            return Counter()
        sums = self.tallies[done].sum(axis=0)
        total = {name: int(sums[i]) for name, i in self.columns.items() if name}
        always = ("rounds", "successes", "all-NO rounds", "rounds ended by unanimity", "cards proposed", "winner minus last",
                  "winner minus runner-up")
        out = Counter({name: total[name] for name in always})
        for name, value in total.items():
            if value and name not in out:
                out[name] = value
        for kind in self.rules.kinds:
            tally = RuleTally.of(kind)
            if total[tally.in_force]:
                out[tally.succeeded] = total[tally.succeeded]
                if tally.changed is not None:  # the kinds that count votes (TALLY_KINDS)
                    out[tally.changed] = total[tally.changed]
            if total[f"held at the end: {kind}"]:
                out[f"held by a winner: {kind}"] = total[f"held by a winner: {kind}"]
        return out

"""Master card rules: one small function per rule kind, and the round's :class:`RoundRules`.

Rulebook "Gameplay": "The Master card contains a rule. This rule applies to the current round and
must be followed."  Each kind of the vocabulary (``schemas/maybe-missions.vocabulary.schema.json``,
family ``master_rule``; its ``description`` is the exact meaning implemented here) is a function in
:data:`MASTER_RULES`, registered by the kind's name.  At the start of a round the revealed Master
card's rule, then the rules of Master cards played with the variant (in the order played), write
themselves into a fresh :class:`RoundRules`; the round flow reads it where the rule applies.  A
kind missing from :data:`MASTER_RULES` is a validation error (``deckpress validate``).

Contradictions: a played Master card "only overrides the regular Master card if the rules
contradict" (rulebook "Variants"), so played rules are written after the revealed one and a value
they set replaces the earlier one (two ``mission_size`` limits, two ``forced_vote`` types, two
``success_margin`` tests).  Rules that do not contradict add up: vote weights multiply (the
vocabulary: "Weights from several effects multiply"); round-start, after-voting and round-end
effects all happen, the revealed card's first.

Rules that act at a moment of the round (round start, after voting, round end) add a task to
``start``, ``after`` or ``end``; their tasks are in this module too.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, NamedTuple

from deckpress.rules.maybe_missions.cards import CARD, NO, PASS, YES
from deckpress.rules.maybe_missions.steps import decision, task

Effect = Mapping[str, Any]

#: Rule kinds that change how votes are counted or judged: the simulation measures how often
#: they changed a round's result (``MaybeMissionsGame.measures``).
TALLY_KINDS = ("vote_cutoff", "vote_weight", "active_vote_weight", "success_margin")


class RoundRules:
    """What the Master rules in force make of one round.  Built at round start, never changed
    after (clones of a state share it).

    ``min_size``/``max_size``: cards a proposal may have; ``variety_min``/``variety_max``:
    different resources its green sides may show; ``votes``: votes each seat plays; ``forced``:
    the vote type everyone must play (-1: none); ``cutoff_above``/``cutoff_below``: votes beyond
    are not counted (None: no limit); ``weight[t]``: tally weight of votes of type ``t``;
    ``active_weight``: of the active seat's votes; ``test``: ``("usual", 0)``, ``("yes_lead", n)``
    or ``("no_lead", n)``; flags ``no_voters_collect``, ``unanimous_ends``, ``reverse``,
    ``open_voting``; ``start``/``after``/``end``: tasks; ``kinds``: the kinds in force;
    ``tallies``: for each different kind, the names of its counts (:class:`RuleTally`).
    """

    __slots__ = ("min_size", "max_size", "variety_min", "variety_max", "votes", "forced", "cutoff_above", "cutoff_below",
                 "weight", "active_weight", "test", "no_voters_collect", "unanimous_ends", "reverse", "open_voting",
                 "start", "after", "end", "kinds", "tallies")

    def __init__(self, players: int):
        self.min_size, self.max_size = 1, players
        self.variety_min, self.variety_max = 0, 4
        self.votes = 1
        self.forced = -1
        self.cutoff_above: int | None = None
        self.cutoff_below: int | None = None
        self.weight = [1, 1]
        self.active_weight = 1
        self.test: tuple[str, int] = ("usual", 0)
        self.no_voters_collect = self.unanimous_ends = self.reverse = self.open_voting = False
        self.start: list[tuple] = []
        self.after: list[tuple] = []
        self.end: list[tuple] = []
        self.kinds: list[str] = []
        self.tallies: tuple[RuleTally, ...] = ()


class RuleTally(NamedTuple):
    """The names of the counts a round adds for one Master rule kind in force (see
    ``MaybeMissionsGame.measures``); ``changed`` is None for a kind that does not count votes."""

    in_force: str
    succeeded: str
    changed: str | None

    @classmethod
    def of(cls, kind: str) -> "RuleTally":
        """The count names of ``kind``."""
        return cls(f"in force: {kind}", f"succeeded: {kind}", f"changed the result: {kind}" if kind in TALLY_KINDS else None)


def _type(name: str) -> int:
    return YES if name == "YES" else NO


def vote_cutoff(rules: RoundRules, effect: Effect) -> None:
    """Votes whose effective number is above ``above`` (or below ``below``) are not counted."""
    if "above" in effect:
        rules.cutoff_above = effect["above"]
    else:
        rules.cutoff_below = effect["below"]


def mission_size(rules: RoundRules, effect: Effect) -> None:
    """The proposal needs at least ``min`` cards or may have at most ``max`` (``min`` above the
    number of players wins; a later limit that contradicts an earlier one replaces it)."""
    if "min" in effect:
        rules.min_size = effect["min"]
        rules.max_size = max(rules.max_size, rules.min_size)
    else:
        rules.max_size = effect["max"]
        rules.min_size = min(rules.min_size, rules.max_size)


def votes_per_player(rules: RoundRules, effect: Effect) -> None:
    """Every seat plays ``votes`` vote cards, each a vote of its own."""
    rules.votes = effect["votes"]


def no_voters_collect(rules: RoundRules, effect: Effect) -> None:
    """After the YES voters, each counted NO vote collects too, red side up, high to low."""
    rules.no_voters_collect = True


def unanimous_ends_round(rules: RoundRules, effect: Effect) -> None:
    """If all counted votes agree, the round ends after the result: nobody collects."""
    rules.unanimous_ends = True


def forced_vote(rules: RoundRules, effect: Effect) -> None:
    """Everyone must play votes of type ``vote`` if their hand holds any."""
    rules.forced = _type(effect["vote"])


def vote_weight(rules: RoundRules, effect: Effect) -> None:
    """Each counted vote of type ``vote`` adds ``weight`` to its total."""
    rules.weight[_type(effect["vote"])] *= effect["weight"]


def active_vote_weight(rules: RoundRules, effect: Effect) -> None:
    """Each counted vote of the active seat adds ``weight``."""
    rules.active_weight *= effect["weight"]


def reveal_masters(rules: RoundRules, effect: Effect) -> None:
    """Round start: the top ``count`` Master cards are shown to all, then put back in order."""
    rules.start.append(("show_masters", effect["count"]))


def pass_votes(rules: RoundRules, effect: Effect) -> None:
    """Round start: everyone passes ``count`` chosen votes face down to the left, all at once."""
    rules.start.append(("pass_votes", effect["count"]))


def flip_collected(rules: RoundRules, effect: Effect) -> None:
    """Round start: everyone turns over ``count`` of their collected cards."""
    rules.start.append(("flip_collected", effect["count"]))


def reveal_hand(rules: RoundRules, effect: Effect) -> None:
    """Round end: every seat that played a ``vote`` vote shows the votes left in its hand."""
    rules.end.append(("reveal_hand", _type(effect["vote"])))


def success_margin(rules: RoundRules, effect: Effect) -> None:
    """Replaces the test: SUCCESS needs ``yes_lead`` more YES than NO, or survives up to
    ``no_lead`` more NO than YES (weighted totals of counted votes)."""
    rules.test = ("yes_lead", effect["yes_lead"]) if "yes_lead" in effect else ("no_lead", effect["no_lead"])


def reverse_collect_order(rules: RoundRules, effect: Effect) -> None:
    """YES voters collect the other way: on SUCCESS high to low, on FAIL (and all-NO) low to high."""
    rules.reverse = True


def open_voting(rules: RoundRules, effect: Effect) -> None:
    """Votes are placed face up one at a time from the active seat, clockwise."""
    rules.open_voting = True


def resource_variety(rules: RoundRules, effect: Effect) -> None:
    """The proposal's green sides show at most ``max`` (or at least ``min``) different resources."""
    if "max" in effect:
        rules.variety_max = effect["max"]
        rules.variety_min = min(rules.variety_min, rules.variety_max)
    else:
        rules.variety_min = effect["min"]
        rules.variety_max = max(rules.variety_max, rules.variety_min)


def announce_vote(rules: RoundRules, effect: Effect) -> None:
    """Round start: everyone with votes says their ``extreme`` (lowest or highest) printed number."""
    rules.start.append(("announce", effect["extreme"]))


def voter_adjusts_mission(rules: RoundRules, effect: Effect) -> None:
    """After voting, the ``voter`` (highest or lowest) may add a market card or remove a mission card."""
    rules.after.append(("adjust_mission", effect["voter"]))


def voter_swaps_collected(rules: RoundRules, effect: Effect) -> None:
    """After voting, the ``voter`` swaps one collected card with another player's."""
    rules.after.append(("swap_by_voter", effect["voter"]))


#: Every Master rule kind the engine implements, by the vocabulary's name.
MASTER_RULES: dict[str, Callable[[RoundRules, Effect], None]] = {
    fn.__name__: fn for fn in (vote_cutoff, mission_size, votes_per_player, no_voters_collect, unanimous_ends_round, forced_vote,
                               vote_weight, active_vote_weight, reveal_masters, pass_votes, flip_collected, reveal_hand,
                               success_margin, reverse_collect_order, open_voting, resource_variety, announce_vote,
                               voter_adjusts_mission, voter_swaps_collected)
}


def round_rules(players: int, effects: list[Effect]) -> RoundRules:
    """The rules of a round with these Master rules in force (revealed card first, then played ones)."""
    rules = RoundRules(players)
    for effect in effects:
        MASTER_RULES[effect["kind"]](rules, effect)
        rules.kinds.append(effect["kind"])
    rules.tallies = tuple(RuleTally.of(kind) for kind in set(rules.kinds))
    return rules


# -- round-start tasks --------------------------------------------------------------------------
@task("pass_votes")
def pass_votes_start(state, count: int) -> None:
    """Every seat sets aside ``count`` votes (all if it holds no more), chosen in secret one at a
    time; then all pass them to the left at once (pass_votes)."""
    choosers = []
    for s, hand in enumerate(state.hands):
        if len(hand) <= count:
            state.passing[s] = hand[:]
            hand.clear()
        else:
            choosers.append(s)
    state.push(("hand_over",))
    if choosers:
        state.ask_all("pass_vote", tuple(choosers), count)


@decision("pass_vote", "pass_vote", "vote", "to choose a vote to pass to the left",
          lambda state, seat, count: sorted(state.hands[seat]), simultaneous=True)
def pass_vote(state, submissions: dict[int, int], count: int) -> None:
    """Each seat's chosen vote is set aside; those that still owe votes choose again."""
    for seat, number in submissions.items():
        state.hands[seat].remove(number)
        state.passing[seat].append(number)
    still = tuple(s for s in sorted(submissions) if len(state.passing[s]) < count)
    if still:
        state.ask_all("pass_vote", still, count)


@task("hand_over")
def hand_over(state) -> None:
    """All set-aside votes go to the next seat clockwise at once."""
    n = state.game.players
    passed = state.passing
    state.passing = [[] for _ in range(n)]
    for s in range(n):
        state.hands[(s + 1) % n].extend(passed[s])


@task("flip_collected")
def flip_collected_start(state, count: int) -> None:
    """Every seat, in turn order from the active one, turns over ``count`` of its collected cards."""
    state.push(*(("flip_some", s, count, "own") for s in state.clockwise(state.active)))


@task("announce")
def announce(state, extreme: str) -> None:
    """Every seat with votes says its lowest (or highest) printed number; all players learn it."""
    pick = min if extreme == "lowest" else max
    for s, hand in enumerate(state.hands):
        if hand:
            state.announced[s] = pick(hand)


# -- after-voting tasks -------------------------------------------------------------------------
def voter(state, which: str) -> int:
    """The seat of the counted vote with the highest (or lowest) effective number, ties broken by
    the printed number in the same direction; -1 when no vote is counted."""
    counted = [i for i, c in enumerate(state.t_counted) if c]
    if not counted:
        return -1
    key = lambda i: (state.t_eff[i], state.t_num[i])  # noqa: E731
    return state.t_seat[(max if which == "highest" else min)(counted, key=key)]


@task("adjust_mission")
def adjust_mission(state, which: str) -> None:
    """The highest (lowest) voter may add one market card to the mission or return one mission card
    to the market (at least one stays); the result does not change (voter_adjusts_mission)."""
    seat = voter(state, which)
    if seat >= 0:
        state.ask("adjust", seat)


def _adjust_legal(state, seat: int) -> list[int]:
    options = [CARD + c for c in state.market]
    if len(state.mission) > 1:
        options += [CARD + c for c in state.mission]
    return [PASS] + sorted(options)


@decision("adjust", "adjust", "card", "to add a market card to the mission, return a mission card, or not (none)", _adjust_legal)
def adjust(state, seat: int, action: int) -> None:
    """A market card joins the mission (the market is refilled), or a mission card is removed: back
    to the market (``adjust_removed: market``, the vocabulary's reading; the market then holds 7
    with the usual 6) or to the discards (``discard``: the rulebook's market is "6 faceup Mission
    Cards")."""
    if action == PASS:
        return
    card = action - CARD
    if card in state.market:
        state.market.remove(card)
        state.mission.append(card)
        state.push(("refill_market",))
    else:
        state.mission.remove(card)
        if state.game.adjust_returns_to_market:
            state.market.append(card)  # the market then holds one card more than its size until refilled
        else:
            state.mission_discard.append(card)


@task("swap_by_voter")
def swap_by_voter(state, which: str) -> None:
    """The highest (lowest) voter swaps one of its collected cards with another player's."""
    seat = voter(state, which)
    if seat >= 0:
        state.push(("swap_give", seat))


# -- round-end tasks ----------------------------------------------------------------------------
@task("reveal_hand")
def reveal_hand_end(state, vote_type: int) -> None:
    """Every seat that played a vote of ``vote_type`` this round (counted or not) shows the votes
    left in its hand to everyone (information only)."""
    types = state.game.vote_type
    for s in sorted({s for s, n in zip(state.t_seat, state.t_num) if types[n] == vote_type}):
        state.shown[s] = sorted(state.hands[s])

"""The greedy Maybe Missions bot: it values everything by its own score (with its secret identity).

* Proposing (active seat): the market cards whose green side adds most to its own score, while
  they add something (at least the minimum).
* Voting: the value of the proposal to itself: the best card it could collect, green side up on
  SUCCESS and red on FAIL, weighed by the chance of SUCCESS (one half, moved by the votes already
  revealed); the active seat adds the Master card it wins.  YES when that is positive, with its
  lowest YES card (collecting early on SUCCESS), else its highest NO card.
* Collecting, taking, swapping: the card that adds most to its score; paying: the card whose
  loss costs least; buying: when the reward is worth more than paying costs (the best cards a
  card-taking reward would bring, a rough constant for the others).
* Everything else: a cautious default (decline optional actions, choose the leader as target).

It decides from its view only (:class:`~deckpress.rules.maybe_missions.view.MaybeMissionsView`).
"""
from __future__ import annotations

from typing import Callable, Sequence

from deckpress.rules.maybe_missions.cards import (
    BUY_GENERAL,
    CARD,
    DELTA,
    GREEN,
    NO,
    PASS,
    RED,
    SEAT,
    YES,
)

#: Rough worth of a reward kind, per unit of its count (a score point is 1).
_REWARD_WORTH = {"take_master": 1.5, "swap_collected": 1.0, "flip_rival_card": 0.5, "block_collector": 0.5}


class GreedyBot:
    """Values every choice by what it adds to its own score (with its secret identity): proposes
    the market cards that add most, votes YES when the proposal is worth more to it than nothing,
    collects, takes and swaps what adds most, pays what costs least, buys when the reward is worth
    the price, and otherwise declines.

    The rules of thumb in full are in the module docstring.
    """

    name = "greedy"
    uses_view = True

    def act(self, view, legal: Sequence[int], rng) -> int:
        """The greedy choice among ``legal`` for the decision ``view`` says is due."""
        if len(legal) == 1:
            return legal[0]
        due = view.decision
        choose = _CHOICES.get(due[0]) if due else None
        return choose(view, legal, *due[1]) if choose else legal[0]


class _Me:
    """This seat's score arithmetic: gains of adding or removing a card with a side up."""

    def __init__(self, view):
        self.game = view.game
        self.counts, self.greens, self.reds = view.own_counts()
        self.profile = view.profile()
        self.now = self.profile.score(self.counts, self.greens, self.reds)

    def gain(self, card: int, side: int, sign: int = 1) -> int:
        """Score change if ``card`` with ``side`` up joins (sign 1) or leaves (sign -1) the collection."""
        net = self.game.net[card][side]
        counts = [c + sign * x for c, x in zip(self.counts, net)]
        greens = self.greens + sign * (side == GREEN)
        return self.profile.score(counts, greens, self.reds + sign * (side == RED)) - self.now


def _cards(legal: Sequence[int], game, missions_only: bool = False) -> list[int]:
    limit = game.n_missions if missions_only else game.n_cards
    return [a - CARD for a in legal if CARD <= a < CARD + limit]


def _propose(view, legal, lo, hi, vmin, vmax) -> int:
    me = _Me(view)
    cards = _cards(legal, view.game, missions_only=True)
    if cards:
        best = max(cards, key=lambda c: (me.gain(c, GREEN), -c))
        if me.gain(best, GREEN) > 0 or PASS not in legal:
            return CARD + best
    return PASS if PASS in legal else legal[0]


def _success_chance(view) -> float:
    types = view.game.vote_type
    lead = sum(1 if types[n] == YES else -1 for _, n, _ in view.table)
    return min(0.9, max(0.1, 0.5 + 0.15 * lead))


def _vote(view, legal, *args) -> int:
    me, game = _Me(view), view.game
    p = _success_chance(view)
    mission = view.mission
    green = max((me.gain(c, GREEN) for c in mission), default=0)
    red = max((me.gain(c, RED) for c in mission), default=0)
    worth = p * green + (1 - p) * red
    master = view.master
    if view.seat == view.active and master >= 0:
        worth += 0.5 * (me.gain(master, GREEN) - me.gain(master, RED))
    types = game.vote_type
    want = YES if worth > 0 else NO
    mine = [a for a in legal if types[a] == want] or list(legal)
    return min(mine) if types[mine[0]] == YES else max(mine)


def _renumber(view, legal, amount) -> int:
    types = view.game.vote_type
    mine = [n for s, n, _ in view.table if s == view.seat]
    lead = sum(1 if types[n] == YES else -1 for _, n, _ in view.table)
    low_first = lead >= 0 and any(types[n] == YES for n in mine)
    return DELTA - amount if low_first else DELTA + amount


def _collect(view, legal, side) -> int:
    me = _Me(view)
    cards = _cards(legal, view.game, missions_only=True)
    if not cards:
        return legal[0]
    best = max(cards, key=lambda c: (me.gain(c, side), -c))
    shops = [a for a in legal if a - CARD >= view.game.n_missions]
    return shops[0] if shops and me.gain(best, side) < 0 else CARD + best


def _take_green(view, legal, *args) -> int:
    me = _Me(view)
    return CARD + max(_cards(legal, view.game), key=lambda c: (me.gain(c, GREEN), -c))


def _adjust(view, legal) -> int:
    me = _Me(view)
    market = [c for c in _cards(legal, view.game) if c in view.market]
    if market and view.success:
        best = max(market, key=lambda c: (me.gain(c, GREEN), -c))
        if me.gain(best, GREEN) > 0:
            return CARD + best
    return PASS


def _flip(view, legal, count, scope, chosen) -> int:
    me, game = _Me(view), view.game
    cards = _cards(legal, game)
    side = {c: s for coll in view.collections for c, s in coll}
    if scope == "own":
        return CARD + max(cards, key=lambda c: (me.gain(c, side[c], -1) + me.gain(c, 1 - side[c]), -c))
    return CARD + max(cards, key=lambda c: (sum(game.net[c][side[c]]) - sum(game.net[c][1 - side[c]]), -c))


def _give(view, legal) -> int:
    me = _Me(view)
    side = dict(view.collections[view.seat])
    return CARD + max(_cards(legal, view.game), key=lambda c: (me.gain(c, side[c], -1), -c))


def _swap_take(view, legal, given) -> int:
    me = _Me(view)
    side = {c: s for coll in view.collections for c, s in coll}
    return CARD + max(_cards(legal, view.game), key=lambda c: (me.gain(c, side[c]), -c))


def _pay(view, legal, owed) -> int:
    me = _Me(view)
    side = dict(view.collections[view.seat])
    return CARD + max(_cards(legal, view.game), key=lambda c: (me.gain(c, side[c], -1), -c))


def _buy(view, legal) -> int:
    game, me = view.game, _Me(view)
    side = GREEN if view.success else RED
    best, best_worth = PASS, 0.0
    for action in legal:
        if action == PASS:
            continue
        card = view.shop if action == BUY_GENERAL else action - CARD
        effect = game.shop_reward[card][side]
        worth = _reward_worth(view, me, effect, side) - _payment_loss(view, me, game.shop_cost[card][side])
        if worth > best_worth:
            best, best_worth = action, worth
    return best


def _reward_worth(view, me: _Me, effect, side: int) -> float:
    """What a reward is worth to this seat: the gain of the best cards it would take, or a rough
    constant for rewards whose worth depends on what others do."""
    kind, count = effect["kind"], effect.get("count", 1)
    if kind == "take_mission":
        return sum(sorted((max(0, me.gain(c, GREEN)) for c in view.market), reverse=True)[:count])
    if kind == "collect_extra":
        return max((max(0, me.gain(c, side)) for c in view.mission), default=0)
    if kind == "flip_own_card":
        own = view.collections[view.seat]
        return sum(sorted((max(0, me.gain(c, s, -1) + me.gain(c, 1 - s)) for c, s in own), reverse=True)[:count])
    return _REWARD_WORTH.get(kind, 0.2) * count


def _payment_loss(view, me: _Me, cost) -> float:
    owed = list(cost)
    loss = 0.0
    cards = dict(view.collections[view.seat])
    plain = view.game.plain
    while any(owed):
        useful = [c for c, s in cards.items() if any(o and x for o, x in zip(owed, plain[c][s]))]
        if not useful:
            return float("inf")
        card = max(useful, key=lambda c: me.gain(c, cards[c], -1))
        loss -= me.gain(card, cards[card], -1)
        owed = [max(0, o - x) for o, x in zip(owed, plain[card][cards.pop(card)])]
    return loss


def _leader(view, legal, *args) -> int:
    scores = [sum(sum(view.game.net[c][s]) for c, s in coll) for coll in view.collections]
    seats = [a - SEAT for a in legal if SEAT <= a < SEAT + view.game.players]
    if SEAT + view.seat in legal:
        return SEAT + view.seat
    return SEAT + max(seats, key=lambda s: (scores[s], -s))


def _pass_vote(view, legal, *args) -> int:
    types = view.game.vote_type
    nos = [n for n in legal if types[n] == NO]
    return max(nos) if nos else max(legal)


def _take_vote(view, legal, *args) -> int:
    types = view.game.vote_type
    yes = [n for n in legal if types[n] == YES]
    return min(yes) if yes else legal[0]


def _decline(view, legal, *args) -> int:
    return PASS if PASS in legal else legal[0]


_CHOICES: dict[str, Callable[..., int]] = {
    "propose": _propose, "secret_vote": _vote, "vote": _vote, "renumber": _renumber, "collect": _collect,
    "take_market": _take_green, "add": _take_green, "adjust": _adjust, "flip": _flip, "give": _give, "take": _swap_take,
    "pay": _pay, "buy": _buy, "active": _leader, "target": _leader, "block": _leader, "pass_vote": _pass_vote,
    "give_vote": _pass_vote, "take_vote": _take_vote, "play_master": _decline, "discard": _decline, "redraw": _decline,
}

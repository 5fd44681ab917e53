"""Gadget Shopping: buying after the vote, paying with collected cards, personal shops, and one
small function per reward kind.

Rulebook "Gadget Shopping": after voting, from the highest vote to the lowest, each player may buy
from the shop by paying its cost: discarding collected cards whose up sides together show at least
those icons (the shop schema: plain icons; crossed icons pay nothing).  On SUCCESS only the green
side can be bought, on FAIL only the red one.  Once someone buys, the shop card is replaced and
nobody else can buy from it this round.  The shop card may be put into a proposed mission; whoever
collects it keeps it as a personal shop, from which only they buy, as long as they have it.

Readings (documented in ``content/maybe-missions/game.yaml`` notes): each seat is asked once per
round and buys at most one thing, from the general shop or one of its personal shops; seats that
played no vote are asked after the voters, in turn order; paying takes one card at a time, each
showing a plain icon still owed, and ends by itself once the cost is covered.

Each reward kind (family ``reward`` of the vocabulary) is a function in :data:`REWARDS`: it queues
the tasks and decisions its description asks for.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from deckpress.rules.maybe_missions.cards import (
    BUY_GENERAL,
    CARD,
    GREEN,
    PASS,
    RED,
    SEAT,
    YES,
    R,
)
from deckpress.rules.maybe_missions.moves import can_take
from deckpress.rules.maybe_missions.steps import chance, decision, task, uniform

Effect = Mapping[str, Any]


# -- the shop step --------------------------------------------------------------------------------
def shop_order(state) -> list[int]:
    """Seats in the order the shop is offered: by their highest effective vote number this round,
    high to low (``shop_order: high-first``, the rulebook's "(highest vote -> lowest vote)") or low
    to high (``low-first``, its word "ascending"; ties by printed number), then seats without a
    vote, clockwise from the active one."""
    best: dict[int, tuple[int, int]] = {}
    for seat, number, eff in zip(state.t_seat, state.t_num, state.t_eff):
        best[seat] = max(best.get(seat, (eff, number)), (eff, number))
    return (sorted(best, key=best.__getitem__, reverse=state.game.shop_high_first)
            + [s for s in state.clockwise(state.active) if s not in best])


@task("shop")
def shop(state) -> None:
    """Offer the shop to every seat in :func:`shop_order` (Gadget Shopping; not in a round ended
    by unanimity)."""
    if state.game.gadgets and not state.unanimous:
        state.push(*(("shop_offer", s) for s in shop_order(state)))


def round_side(state) -> int:
    """The shop side that can be bought this round: green on SUCCESS, red on FAIL."""
    return GREEN if state.success else RED


def plain_totals(state, seat: int) -> list[int]:
    """Plain icons per resource on the up sides of ``seat``'s collected cards (what it can pay)."""
    plain, up = state.game.plain, state.up
    icons = [plain[card][up[card]] for card in state.collected[seat]]  # per card: its up side's plain icons per resource
    return [sum(column) for column in zip(*icons)] if icons else [0] * R


def affordable(state, seat: int, shop_card: int, totals: list[int] | None = None) -> bool:
    """Whether ``seat``'s collection (its :func:`plain_totals`, when already known) can pay the cost
    of ``shop_card``'s side of this round."""
    cost = state.game.shop_cost[shop_card][round_side(state)]
    return all(have >= need for have, need in zip(plain_totals(state, seat) if totals is None else totals, cost))


def _buy_options(state, seat: int) -> list[int]:
    general = state.general_open and state.shop_now >= 0
    if not general and not state.shops[seat]:
        return []
    totals = plain_totals(state, seat)
    out = [BUY_GENERAL] if general and affordable(state, seat, state.shop_now, totals) else []
    return out + sorted(CARD + c for c in state.shops[seat] if affordable(state, seat, c, totals))


@task("shop_offer")
def shop_offer(state, seat: int) -> None:
    """Ask ``seat`` whether to buy, when it can afford something."""
    options = _buy_options(state, seat)
    if options:
        state.ask("buy", seat, legal=[PASS] + options)


@decision("buy", "buy", "buy", "to buy from the shop (shop), from a personal shop, or not (none)",
          lambda state, seat: [PASS] + _buy_options(state, seat))
def buy(state, seat: int, action: int) -> None:
    """Pay, then receive the reward; the bought general shop card is replaced and the general shop
    closes for this round."""
    if action == PASS:
        return
    general = action == BUY_GENERAL
    card = state.shop_now if general else action - CARD
    side = round_side(state)
    if general:
        state.general_open = False
    state.bought[seat] = True
    state.count("purchases")
    state.count(f"bought: {state.game.shop_reward[card][side]['kind']}")
    state.push(("pay", seat, state.game.shop_cost[card][side]), ("reward", seat, card, side),
               *((("replace_shop", card),) if general else ()))


@task("pay")
def pay(state, seat: int, owed: tuple[int, ...]) -> None:
    """Ask for the next card to discard while icons are owed."""
    if any(owed):
        state.ask("pay", seat, owed)


def _pay_legal(state, seat: int, owed: tuple[int, ...]) -> list[int]:
    plain, up = state.game.plain, state.up
    return sorted(CARD + c for c in state.collected[seat] if any(owed[r] and x for r, x in enumerate(plain[c][up[c]])))


@decision("pay", "pay", "card", "to discard a collected card showing an icon it still owes", _pay_legal)
def pay_card(state, seat: int, action: int, owed: tuple[int, ...]) -> None:
    """The card leaves the collection for its discard pile; its plain icons pay what they can."""
    card = action - CARD
    side = state.take_card(card)
    state.discard_card(card)
    icons = state.game.plain[card][side]
    state.push(("pay", seat, tuple(max(0, o - x) for o, x in zip(owed, icons))))


@task("reward")
def reward(state, seat: int, card: int, side: int) -> None:
    """The reward of ``card``'s ``side`` happens now (its kind's function)."""
    effect = state.game.shop_reward[card][side]
    REWARDS[effect["kind"]](state, seat, effect)


@task("replace_shop")
def replace_shop(state, card: int) -> None:
    """The bought general shop card is discarded and a new one turned up."""
    state.shop_discard.append(card)
    state.shop_now = -1
    state.push(("reveal_shop",))


# -- rewards --------------------------------------------------------------------------------------
def take_mission(state, seat: int, effect: Effect) -> None:
    """Take ``count`` market cards, green side up, the market refilled after each."""
    state.push(*(("take_market", seat),) * effect["count"])


def take_master(state, seat: int, effect: Effect) -> None:
    """Take the top Master card, green side up."""
    state.push(("show_masters", 1), ("take_top_for", seat))


def choose_master(state, seat: int, effect: Effect) -> None:
    """Next round the Master card is chosen by ``seat`` from the top ``count``."""
    state.choose_next = [seat, effect["count"]]


def become_active(state, seat: int, effect: Effect) -> None:
    """``seat`` is the active player next round; turns go on clockwise from it."""
    state.next_active = seat


def choose_active(state, seat: int, effect: Effect) -> None:
    """``seat`` chooses the active player of the next round."""
    state.ask("active", seat)


def discard_votes(state, seat: int, effect: Effect) -> None:
    """Discard up to ``count`` votes of one's choice."""
    state.push(("discard_votes", seat, effect["count"]))


def draw_votes(state, seat: int, effect: Effect) -> None:
    """Draw ``count`` votes from the vote deck, fewer if it runs out."""
    state.push(("draw_votes", seat, effect["count"]))


def renumber_vote(state, seat: int, effect: Effect) -> None:
    """Next round, after the reveal, ``seat`` may change its votes' effective numbers by up to ``amount``."""
    state.renumber_next[seat] = max(state.renumber_next.get(seat, 0), effect["amount"])


def flip_own_card(state, seat: int, effect: Effect) -> None:
    """Turn over ``count`` of one's collected cards."""
    state.push(("flip_some", seat, effect["count"], "own"))


def flip_rival_card(state, seat: int, effect: Effect) -> None:
    """Turn over ``count`` cards other players collected."""
    state.push(("flip_some", seat, effect["count"], "rival"))


def add_to_mission(state, seat: int, effect: Effect) -> None:
    """Add ``count`` market cards to this round's mission (the market refilled); the result stands."""
    state.push(*(("add_card", seat),) * effect["count"])


def remove_from_mission(state, seat: int, effect: Effect) -> None:
    """Return ``count`` mission cards to the market (at least one stays); the result stands."""
    state.push(*(("remove_card", seat),) * effect["count"])


def peek_votes(state, seat: int, effect: Effect) -> None:
    """Choose another player and see ``count`` random votes of their hand."""
    state.push(("choose_target", seat, "peek", effect["count"]))


def swap_votes(state, seat: int, effect: Effect) -> None:
    """Choose another player: give them ``count`` votes of one's choice, take ``count`` of theirs at random."""
    state.push(("choose_target", seat, "swap", effect["count"]))


def refresh_market(state, seat: int, effect: Effect) -> None:
    """Discard the market and deal a new one."""
    state.mission_discard.extend(state.market)
    state.market = []
    state.push(("refill_market",))


def swap_collected(state, seat: int, effect: Effect) -> None:
    """Swap one collected card with another player's; each keeps its up side."""
    state.push(("swap_give", seat))


def take_played_votes(state, seat: int, effect: Effect) -> None:
    """``count`` votes played this round go to ``seat``'s hand instead of the discard pile."""
    state.push(("take_played", seat, effect["count"]))


def collect_extra(state, seat: int, effect: Effect) -> None:
    """After all other collecting, one more mission card with this round's up side."""
    state.extra.append(seat)


def block_collector(state, seat: int, effect: Effect) -> None:
    """Choose another counted YES voter: they have no collecting turns this round."""
    state.push(("block", seat))


#: Every reward kind the engine implements, by the vocabulary's name.
REWARDS: dict[str, Callable[[Any, int, Effect], None]] = {
    fn.__name__: fn for fn in (take_mission, take_master, choose_master, become_active, choose_active, discard_votes, draw_votes,
                               renumber_vote, flip_own_card, flip_rival_card, add_to_mission, remove_from_mission, peek_votes,
                               swap_votes, refresh_market, swap_collected, take_played_votes, collect_extra, block_collector)
}


# -- the rewards' tasks and decisions -------------------------------------------------------------
@task("take_market")
def take_market(state, seat: int) -> None:
    """One take_mission card, if the market holds one the seat may take."""
    if any(can_take(state, seat, c, GREEN) for c in state.market):
        state.ask("take_market", seat)


@decision("take_market", "take", "card", "to take a market card (green side up)",
          lambda state, seat: sorted(CARD + c for c in state.market if can_take(state, seat, c, GREEN)))
def take_market_card(state, seat: int, action: int) -> None:
    """The card joins the collection green side up; the market is refilled."""
    card = action - CARD
    state.market.remove(card)
    state.give_card(seat, card, GREEN)
    state.got_card[seat] = True
    state.push(("refill_market",))


@task("take_top_for")
def take_top_for(state, seat: int) -> None:
    """The top Master card (now known) joins ``seat``'s collection green side up (none if the deck is empty)."""
    if state.master_top:
        state.give_card(seat, state.master_top.pop(0), GREEN)
        state.got_card[seat] = True


@decision("active", "active", "seat", "to choose the active player of the next round",
          lambda state, seat: [SEAT + s for s in range(state.game.players)])
def active(state, seat: int, action: int) -> None:
    """The chosen seat is active next round."""
    state.next_active = action - SEAT


@task("discard_votes")
def discard_votes_task(state, seat: int, count: int) -> None:
    """Ask for the next vote to discard while the reward allows and the hand holds any."""
    if count > 0 and state.hands[seat]:
        state.ask("discard", seat, count)


@decision("discard", "discard", "vote", "to discard a vote (or done)",
          lambda state, seat, count: sorted(state.hands[seat]) + [PASS], none_word="done")
def discard(state, seat: int, action: int, count: int) -> None:
    """The vote goes to the discard pile; "done" stops discarding."""
    if action != PASS:
        state.hands[seat].remove(action)
        state.vote_discard.append(action)
        state.push(("discard_votes", seat, count - 1))


@task("add_card")
def add_card(state, seat: int) -> None:
    """One add_to_mission card, if the market holds any."""
    if state.market:
        state.ask("add", seat)


@decision("add", "add", "card", "to add a market card to the mission", lambda state, seat: sorted(CARD + c for c in state.market))
def add(state, seat: int, action: int) -> None:
    """The market card joins the mission; the market is refilled."""
    state.market.remove(action - CARD)
    state.mission.append(action - CARD)
    state.push(("refill_market",))


@task("remove_card")
def remove_card(state, seat: int) -> None:
    """One remove_from_mission card, while more than one mission card is left."""
    if len(state.mission) > 1:
        state.ask("remove", seat)


@decision("remove", "remove", "card", "to return a mission card to the market", lambda state, seat: sorted(CARD + c for c in state.mission))
def remove(state, seat: int, action: int) -> None:
    """The mission card goes back to the market."""
    state.mission.remove(action - CARD)
    state.market.append(action - CARD)


def _targets(state, seat: int, what: str) -> list[int]:
    return [s for s in range(state.game.players) if s != seat and (what == "swap" or state.hands[s])]


@task("choose_target")
def choose_target(state, seat: int, what: str, count: int) -> None:
    """peek_votes and swap_votes start by choosing another player (one with votes, to peek)."""
    if _targets(state, seat, what):
        state.ask("target", seat, what, count)


@decision("target", "target", "seat", "to choose another player",
          lambda state, seat, what, count: [SEAT + s for s in _targets(state, seat, what)])
def target(state, seat: int, action: int, what: str, count: int) -> None:
    """Peek at or swap votes with the chosen player."""
    other = action - SEAT
    state.push(("peek", seat, other, count, ()) if what == "peek" else ("give_votes", seat, other, count, ()))


@task("peek")
def peek(state, seat: int, other: int, count: int, seen: tuple[int, ...]) -> None:
    """One more of ``other``'s votes, drawn at random, is shown to ``seat`` (then given back)."""
    if count > 0 and len(state.hands[other]) > len(seen):
        state.draw("peek", seat, other, seen, count)


@chance("peek", "vote", ("seat", "from"), lambda state, seat, other, seen, count: uniform([n for n in state.hands[other] if n not in seen]),
        possible=lambda state, action, seat, other, seen, count: action in state.hands[other] and action not in seen)
def peeked(state, action: int, seat: int, other: int, seen: tuple[int, ...], count: int) -> None:
    """``seat`` now knows this vote of ``other``'s hand (its view shows it)."""
    seen = seen + (action,)
    state.peeks[seat][other] = sorted(seen)
    state.push(("peek", seat, other, count - 1, seen))


@task("give_votes")
def give_votes(state, seat: int, other: int, count: int, given: tuple[int, ...]) -> None:
    """swap_votes: ``seat`` gives ``count`` votes of its choice (all it has if fewer), one at a
    time; then takes as many at random from ``other``'s hand as it was before."""
    left = count - len(given)
    hand = state.hands[seat]
    if left > 0 and hand:
        if len(hand) <= left:
            state.hands[other].extend(hand)
            state.push(("give_votes", seat, other, count, given + tuple(hand)))
            hand.clear()
        else:
            state.ask("give_vote", seat, other, count, given)
        return
    state.push(("take_votes", seat, other, count, given))


@decision("give_vote", "give_vote", "vote", "to choose a vote to give",
          lambda state, seat, other, count, given: sorted(state.hands[seat]))
def give_vote(state, seat: int, action: int, other: int, count: int, given: tuple[int, ...]) -> None:
    """The vote goes to the other player's hand."""
    state.hands[seat].remove(action)
    state.hands[other].append(action)
    state.push(("give_votes", seat, other, count, given + (action,)))


@task("take_votes")
def take_votes(state, seat: int, other: int, count: int, given: tuple[int, ...]) -> None:
    """Take the next random vote from ``other``'s hand (not one just given)."""
    if count > 0 and any(n not in given for n in state.hands[other]):
        state.draw("take", seat, other, given, count)


@chance("take", "vote", ("seat", "from"), lambda state, seat, other, given, count: uniform([n for n in state.hands[other] if n not in given]),
        possible=lambda state, action, seat, other, given, count: action in state.hands[other] and action not in given)
def taken(state, action: int, seat: int, other: int, given: tuple[int, ...], count: int) -> None:
    """The vote moves from ``other``'s hand to ``seat``'s."""
    state.hands[other].remove(action)
    state.hands[seat].append(action)
    state.push(("take_votes", seat, other, count - 1, given))


@task("take_played")
def take_played(state, seat: int, count: int) -> None:
    """take_played_votes: choose one more played vote to take back at round end."""
    if count > 0 and _played_free(state):
        state.ask("take_vote", seat, count)


def _played_free(state) -> list[int]:
    taken_back = {number for _, number in state.take_back}
    return sorted(n for n in state.t_num if n not in taken_back)


@decision("take_vote", "take_vote", "vote", "to choose a played vote to take back", lambda state, seat, count: _played_free(state))
def take_vote(state, seat: int, action: int, count: int) -> None:
    """At round end this vote goes to ``seat``'s hand instead of the discard pile."""
    state.take_back.append([seat, action])
    state.push(("take_played", seat, count - 1))


@task("block")
def block(state, seat: int) -> None:
    """block_collector: choose another player who played a counted YES vote."""
    if _yes_voters(state, seat):
        state.ask("block", seat)


def _yes_voters(state, seat: int) -> list[int]:
    types = state.game.vote_type
    return sorted({s for s, n, ok in zip(state.t_seat, state.t_num, state.t_counted) if ok and types[n] == YES and s != seat})


@decision("block", "block", "seat", "to choose a YES voter who collects nothing this round",
          lambda state, seat: [SEAT + s for s in _yes_voters(state, seat)])
def block_seat(state, seat: int, action: int) -> None:
    """The chosen seat has no collecting turns this round."""
    state.blocked.append(action - SEAT)

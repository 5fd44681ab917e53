"""Maybe Missions, Gadget Shopping expansion (rulebook "Gadget Shopping"): the shop after the vote, paying,
personal shops, and one named test per reward kind of the vocabulary (schemas/maybe-missions.vocabulary.schema.json,
family reward).  Rewards are tested on shop card shop-01 given that reward and a cost of one
reputation (``shop_game``); the shop flow with the shipped cards (content/maybe-missions/shop.yaml).
"""
from __future__ import annotations

import pytest

from deckpress.generator.content.maybe_missions_vocabulary import kinds_of
from deckpress.rules.core.errors import IllegalAction
from deckpress.rules.maybe_missions.cards import (
    BUY_GENERAL,
    CARD,
    PASS,
    RESOURCES,
    SEAT,
)
from deckpress.rules.maybe_missions.shop import REWARDS, affordable
from tests.rules.helpers import do
from tests.rules.test_maybe_missions import (
    collection,
    mm,
    names,
    round_to_vote,
    start,
    votes,
)

AFTER_ROUND_1 = ["Bribe the border guard", "Swap the briefcases", "Rig the village election", "Forge the passports",
                 "Tail the courier", "Sabotage the satellite"]


def shop_game(reward: dict, cost=("reputation",), players: int = 3):
    """A gadgets game whose shop card shop-01 has ``reward`` and ``cost`` on both sides."""
    game = mm("gadgets", players=players)
    card = game.card("shop-01")
    vec = tuple(cost.count(r) for r in RESOURCES)
    game.shop_cost[card] = (vec, vec)
    game.shop_reward[card] = (reward, reward)
    return game


def to_round_2_shop(game, proposal=("Rig the village election",), numbers=(4, 16, 24), shop="shop-01"):
    """Round 1 (master-03, two votes each): seat 1 collects Crack the hotel safe (reputation 1) and Bug
    the embassy phone (reputation 2), seat 2 Steal the prototype, seat 0 wins master-03.  Round 2
    (seat 1 active, master-06): ``proposal`` and ``numbers``; returns at the first shop offer."""
    state = start(game, shop=shop)
    round_to_vote(state, "master-03", ["Crack the hotel safe", "Bug the embassy phone", "Steal the prototype"])
    votes(state, 1, 12, 21)
    votes(state, 3, 14, 22)  # YES 12, 14, 22 against NO 1, 3, 21: a tied SUCCESS
    do(state, {"seat": 1, "collect": "Crack the hotel safe"}, {"seat": 1, "collect": "Bug the embassy phone"},
       {"seat": 2, "collect": "Steal the prototype"})
    assert names(game, state.market) == AFTER_ROUND_1
    round_to_vote(state, "master-06", list(proposal))
    votes(state, *numbers)
    return state


def bought(reward: dict, **kwargs):
    """Seat 1 buys shop-01 with ``reward`` in round 2, paying with Crack the hotel safe."""
    state = to_round_2_shop(shop_game(reward), **kwargs)
    assert state.current == 1 and state.decision[0] == "buy"
    do(state, {"seat": 1, "buy": "shop"}, {"seat": 1, "pay": "Crack the hotel safe"})
    return state


def finish_round_2(state, collects=({"seat": 0, "collect": "Rig the village election"},)):
    """The replacement shop card, then round 2's collecting."""
    do(state, {"chance": "shop", "card": "shop-02"}, *collects)


def test_every_reward_kind_of_the_vocabulary_is_implemented():
    assert sorted(REWARDS) == sorted(kinds_of("reward"))


# -- the shop step ----------------------------------------------------------------------------------
def test_the_shop_is_offered_from_the_highest_vote_down_and_only_to_seats_that_can_pay():
    # Rulebook: "After voting, in ascending order (highest vote -> lowest vote), ask players if they want to buy."
    state = to_round_2_shop(shop_game({"kind": "become_active"}))
    # seat 2 (vote 24) holds Steal the prototype (gold, intelligence): it cannot pay a reputation, so seat 1 (16) is asked first
    assert state.current == 1 and state.legal_actions() == [PASS, BUY_GENERAL]
    do(state, {"seat": 1, "buy": "none"})
    assert state.current == 0 and state.decision[0] == "buy"  # master-03 green shows a reputation


def test_once_someone_buys_the_shop_card_is_replaced_and_nobody_else_buys_this_round():
    state = bought({"kind": "become_active"})
    assert state.due_chance_event() == {"chance": "shop"}
    do(state, {"chance": "shop", "card": "shop-02"})
    assert state.decision[0] == "collect" and state.game.card("shop-01") in state.shop_discard  # seat 0 is not asked


def test_paying_discards_cards_whose_plain_icons_cover_the_cost():
    # Rulebook: "Paying means you discard collected cards totaling to at least those icons"; crossed icons pay nothing.
    state = to_round_2_shop(shop_game({"kind": "become_active"}, cost=("reputation", "reputation", "reputation")))
    do(state, {"seat": 1, "buy": "shop"}, {"seat": 1, "pay": "Bug the embassy phone"})
    assert state.decision[0] == "pay" and state.decision[2] == (0, 1, 0, 0)  # one reputation still owed
    do(state, {"seat": 1, "pay": "Crack the hotel safe"})
    assert state.collected[1] == [] and {state.game.card("Crack the hotel safe"), state.game.card("Bug the embassy phone")} <= set(state.mission_discard)
    with pytest.raises(IllegalAction):
        state.apply(CARD + state.game.card("Crack the hotel safe"), 1)


def test_a_card_showing_only_crossed_icons_cannot_pay():
    # shop.yaml schema: "crossed icons pay nothing".
    game = shop_game({"kind": "become_active"})
    state = to_round_2_shop(game)
    assert affordable(state, 1, game.card("shop-01"))
    for title in ("Crack the hotel safe", "Bug the embassy phone"):
        state.up[game.card(title)] = 1  # as if collected after a FAIL: red sides, reputation crossed out
    assert not affordable(state, 1, game.card("shop-01"))


def test_on_fail_only_the_red_side_can_be_bought():
    # Rulebook: "If the mission SUCCEEDS, you can only buy the green side. If it FAILS, you can only buy the red side."
    game = mm("gadgets", players=3)
    card = game.card("shop-01")
    game.shop_cost[card] = ((0, 0, 0, 3), (0, 1, 0, 0))  # green: 3 intelligence; red: 1 reputation
    game.shop_reward[card] = ({"kind": "become_active"}, {"kind": "choose_active"})
    state = to_round_2_shop(game, numbers=(4, 15, 23))  # one YES against two NO: FAIL
    assert not state.success and state.current == 1
    do(state, {"seat": 1, "buy": "shop"}, {"seat": 1, "pay": "Crack the hotel safe"})
    assert state.decision[0] == "active"  # the red side's reward
    state = to_round_2_shop(game)
    assert state.success and state.decision[0] == "collect"  # nobody can pay the green side's 3 intelligence


def test_the_shop_card_put_into_a_mission_becomes_its_collectors_personal_shop():
    # Rulebook: "It's also allowed to put the current shop card into your proposed mission. If won by a player, it
    # becomes their personal shop: they can buy from it as long as they have the card. (Replace it with a new general Shop Card.)"
    game = shop_game({"kind": "become_active"})
    state = start(game, shop="shop-01")
    do(state, {"chance": "master", "card": "master-16"}, {"seat": 0, "propose": "Crack the hotel safe"}, {"seat": 0, "propose": "shop-01"})
    assert state.shop_now == -1 and len(state.legal_actions()) == 6  # done, or a second mission card: the shop card does not count
    do(state, {"seat": 0, "propose": "done"})
    assert state.due_chance_event() == {"chance": "shop"}  # a new general shop card
    do(state, {"chance": "shop", "card": "shop-02"}, {"chance": "market", "card": "Tail the courier"})
    votes(state, 2, 12, 21)
    do(state, {"seat": 0, "collect": "shop-01"}, {"seat": 1, "collect": "Crack the hotel safe"})
    assert names(game, state.shops[0]) == ["shop-01"] and names(game, [state.shop_now]) == ["shop-02"]
    round_to_vote(state, "master-06", ["Rig the village election"])
    votes(state, 4, 12 + 2, 22)
    # seat 0 pays with master-16 (green: gold, reputation, 2 intelligence); the general shop-02 wants 2 reputation
    assert state.current == 0 and state.legal_actions() == [PASS, CARD + game.card("shop-01")]
    do(state, {"seat": 0, "buy": "shop-01"}, {"seat": 0, "pay": "master-16"})
    assert names(game, state.shops[0]) == ["shop-01"] and state.next_active == 0  # the personal shop stays


# -- rewards ---------------------------------------------------------------------------------------------
def test_take_mission_takes_a_market_card_green_side_up():
    state = bought({"kind": "take_mission", "count": 1})
    do(state, {"seat": 1, "take": "Tail the courier"}, {"chance": "market", "card": "Hack the bank mainframe"})
    assert collection(state, 1) == ["Bug the embassy phone (green)", "Tail the courier (green)"]


def test_take_master_takes_the_top_master_card_green_side_up():
    state = bought({"kind": "take_master"})
    do(state, {"chance": "master", "card": "master-01"})
    assert collection(state, 1)[-1] == "master-01 (green)"


def test_choose_master_lets_the_buyer_pick_next_rounds_master_card_from_the_top_three():
    state = bought({"kind": "choose_master", "count": 3})
    finish_round_2(state)
    for card in ("master-01", "master-02", "master-04"):
        do(state, {"chance": "master", "card": card})
    assert state.current == 1 and state.decision[0] == "choose_master" and state.active == 2
    do(state, {"seat": 1, "choose_master": "master-04"})
    assert names(state.game, [state.master_now]) == ["master-04"] and names(state.game, state.master_top) == ["master-01", "master-02"]


def test_become_active_makes_the_buyer_active_next_round():
    state = bought({"kind": "become_active"})
    finish_round_2(state)
    assert state.active == 1  # not seat 2, next clockwise


def test_choose_active_lets_the_buyer_name_next_rounds_active_player():
    state = bought({"kind": "choose_active"})
    do(state, {"seat": 1, "active": 0})
    finish_round_2(state)
    assert state.active == 0


def test_discard_votes_discards_up_to_the_count():
    state = bought({"kind": "discard_votes", "count": 2})
    do(state, {"seat": 1, "discard": 13}, {"seat": 1, "discard": "done"})
    assert 13 in state.vote_discard and 13 not in state.hands[1] and state.due_chance_event() == {"chance": "shop"}


def test_draw_votes_draws_from_the_votes_not_dealt():
    state = bought({"kind": "draw_votes", "count": 2})
    assert state.due_chance_event() == {"chance": "draw", "seat": 1}
    do(state, {"chance": "draw", "seat": 1, "card": 31}, {"chance": "draw", "seat": 1, "card": 60})
    assert {31, 60} <= set(state.hands[1])


def test_renumber_vote_changes_next_rounds_effective_numbers():
    state = bought({"kind": "renumber_vote", "amount": 15})
    finish_round_2(state)
    round_to_vote(state, "master-16", ["Forge the passports"])
    votes(state, 6, 18, 26)
    assert state.current == 1 and state.legal_actions()[0] == 150 - 15 and state.legal_actions()[-1] == 150 + 15
    do(state, {"seat": 1, "renumber": -15})
    assert (1, 18, 3) in state.view(0).table and state.current == 1  # its 18 counts as 3 and now collects first


def test_flip_own_card_turns_over_ones_own_card():
    state = bought({"kind": "flip_own_card", "count": 1})
    assert collection(state, 1) == ["Bug the embassy phone (red)"]  # the only card left: no choice


def test_flip_rival_card_turns_over_another_players_card():
    state = bought({"kind": "flip_rival_card", "count": 1})
    assert state.legal_actions() == sorted(CARD + state.game.card(c) for c in ("Steal the prototype", "master-03"))
    do(state, {"seat": 1, "flip": "Steal the prototype"})
    assert collection(state, 2) == ["Steal the prototype (red)"]


def test_add_to_mission_adds_a_market_card_to_this_mission():
    state = bought({"kind": "add_to_mission", "count": 1})
    do(state, {"seat": 1, "add": "Tail the courier"}, {"chance": "market", "card": "Hack the bank mainframe"})
    assert names(state.game, state.mission) == ["Rig the village election", "Tail the courier"] and state.success


def test_remove_from_mission_returns_a_card_but_leaves_one():
    state = bought({"kind": "remove_from_mission", "count": 2}, proposal=("Rig the village election", "Forge the passports"))
    do(state, {"seat": 1, "remove": "Forge the passports"})
    assert state.due_chance_event() == {"chance": "shop"}  # the second removal would leave no card: it does not happen
    assert names(state.game, state.mission) == ["Rig the village election"] and "Forge the passports" in names(state.game, state.market)


def test_peek_votes_shows_random_votes_of_another_player_to_the_buyer_only():
    state = bought({"kind": "peek_votes", "count": 2})
    do(state, {"seat": 1, "target": 0})
    assert state.due_chance_event() == {"chance": "peek", "seat": 1, "from": 0}
    do(state, {"chance": "peek", "seat": 1, "from": 0, "card": 7}, {"chance": "peek", "seat": 1, "from": 0, "card": 2})
    assert state.view(1).to_dict()["peeked"] == {0: [2, 7]} and "peeked" not in state.view(2).to_dict()
    assert 7 in state.hands[0]  # given back


def test_swap_votes_gives_chosen_votes_and_takes_random_ones():
    state = bought({"kind": "swap_votes", "count": 1})
    do(state, {"seat": 1, "target": 2}, {"seat": 1, "give_vote": 11})
    assert 11 not in dict(state.chance_outcomes())  # the vote just given cannot come back
    do(state, {"chance": "take", "seat": 1, "from": 2, "card": 25})
    assert 25 in state.hands[1] and 11 in state.hands[2] and 25 not in state.hands[2]


def test_refresh_market_deals_a_whole_new_market():
    state = bought({"kind": "refresh_market"})
    for title in ("Hack the bank mainframe", "Kidnap the parrot", "Fake a royal wedding", "Blackmail the mayor",
                  "Rescue the double agent", "Spike the punch bowl"):
        do(state, {"chance": "market", "card": title})
    assert names(state.game, state.market)[0] == "Hack the bank mainframe" and state.game.card("Tail the courier") in state.mission_discard


def test_swap_collected_swaps_a_card_with_another_players():
    state = bought({"kind": "swap_collected"})
    do(state, {"seat": 1, "give": "Bug the embassy phone"}, {"seat": 1, "take": "Steal the prototype"})
    assert collection(state, 1) == ["Steal the prototype (green)"] and collection(state, 2) == ["Bug the embassy phone (green)"]


def test_take_played_votes_takes_a_played_vote_back_at_round_end():
    state = bought({"kind": "take_played_votes", "count": 1})
    assert state.legal_actions() == [4, 16, 24]
    do(state, {"seat": 1, "take_vote": 24})
    finish_round_2(state)
    assert 24 in state.hands[1] and 24 not in state.vote_discard and 4 in state.vote_discard


def test_collect_extra_collects_one_more_card_after_everyone():
    state = bought({"kind": "collect_extra"}, proposal=("Rig the village election", "Forge the passports", "Tail the courier"),
                   numbers=(4, 16, 23))
    do(state, {"chance": "shop", "card": "shop-02"}, {"seat": 0, "collect": "Rig the village election"},
       {"seat": 1, "collect": "Forge the passports"})
    assert state.current == 1  # the extra turn
    do(state, {"seat": 1, "collect": "Tail the courier"})
    assert collection(state, 1)[1:3] == ["Forge the passports (green)", "Tail the courier (green)"]


def test_block_collector_takes_a_yes_voters_collecting_turns():
    state = bought({"kind": "block_collector"}, proposal=("Rig the village election", "Forge the passports"))
    assert state.legal_actions() == [SEAT + 0, SEAT + 2]
    do(state, {"seat": 1, "block": 0}, {"chance": "shop", "card": "shop-02"})
    assert state.current == 1 and state.decision[0] == "collect"  # seat 0 (vote 4) has no turn


def test_shop_order_is_a_parameter_for_a_rule_that_says_both():
    # The rulebook's "in ascending order (highest vote -> lowest vote)" contradicts itself.
    from types import SimpleNamespace

    from deckpress.rules.maybe_missions.shop import shop_order

    for high_first, expected in ((True, [2, 0, 1]), (False, [1, 0, 2])):
        state = SimpleNamespace(t_seat=[0, 1, 2], t_num=[20, 5, 40], t_eff=[20, 5, 40], active=0,
                                game=SimpleNamespace(shop_high_first=high_first), clockwise=lambda a: [0, 1, 2, 3])
        assert shop_order(state) == expected + [3]  # the seat without a vote comes last

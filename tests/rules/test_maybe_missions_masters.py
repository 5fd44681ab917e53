"""Maybe Missions: one named test per Master rule kind (the vocabulary, schemas/maybe-missions.vocabulary.schema.json,
family master_rule: each kind's description is the rule tested), from positions written as log events.

Kinds are tested with the shipped card that carries them (masters.yaml); parameter sets no shipped card
uses are tested by giving a card another rule in the game's table (``with_rule``).  Default hands:
seat s holds votes 10s+1..10s+10 (odd NO, even YES); default market: see ``MARKET``.
"""
from __future__ import annotations

import pytest

from deckpress.generator.content.maybe_missions_vocabulary import kinds_of
from deckpress.rules.core.errors import IllegalAction, Reason
from deckpress.rules.core.game import CHANCE, SIMULTANEOUS
from deckpress.rules.maybe_missions.cards import CARD, PASS
from deckpress.rules.maybe_missions.masters import MASTER_RULES
from tests.rules.helpers import do
from tests.rules.test_maybe_missions import (
    collection,
    mm,
    names,
    propose,
    refill,
    round_to_vote,
    start,
    votes,
)


def with_rule(game, master: str, rule: dict):
    """The game with Master card ``master`` carrying ``rule`` instead of its own (this game only)."""
    game.master_rule[game.card(master)] = rule
    return game


def test_every_master_rule_kind_of_the_vocabulary_is_implemented():
    assert sorted(MASTER_RULES) == sorted(kinds_of("master_rule"))


def test_vote_cutoff_leaves_votes_above_the_number_uncounted():
    # master-02: "Votes above 45 don't count": 47 is left out, so 2 YES against 2 NO is a (tied) SUCCESS.
    state = start(mm(players=5))
    round_to_vote(state, "master-02", ["Crack the hotel safe", "Bug the embassy phone"])
    votes(state, 2, 12, 21, 31, 47)
    assert state.t_counted == [True, True, True, True, False] and state.success
    assert state.counts["changed the result: vote_cutoff"] == 1  # counted once each, 2 YES against 3 NO would fail
    do(state, {"seat": 0, "collect": "Crack the hotel safe"}, {"seat": 1, "collect": "Bug the embassy phone"})
    assert state.round_no == 2


def test_vote_cutoff_below_gives_an_uncounted_yes_no_collecting_turn():
    state = start(with_rule(mm(players=3), "master-02", {"kind": "vote_cutoff", "below": 10}))
    round_to_vote(state, "master-02", ["Crack the hotel safe", "Bug the embassy phone"])
    votes(state, 2, 12, 21)  # 2 is not counted: 12 against 21, a tie
    assert state.success and state.current == 1  # seat 0's vote 2 gives no turn


def test_vote_cutoff_with_no_vote_counted_is_a_success_where_only_the_master_card_is_won():
    state = start(with_rule(mm(players=3), "master-02", {"kind": "vote_cutoff", "below": 31}))
    round_to_vote(state, "master-02", ["Crack the hotel safe"])
    votes(state, 1, 12, 22)  # no decision follows: the round is over at once
    assert state.counts["successes"] == 1 and state.round_no == 2 and collection(state, 0) == ["master-02 (green)"]
    assert state.collected[1] == state.collected[2] == []


def test_mission_size_max_ends_the_proposal_at_two_cards():
    state = start(mm(players=4))
    do(state, {"chance": "master", "card": "master-16"}, {"seat": 0, "propose": "Crack the hotel safe"},
       {"seat": 0, "propose": "Bug the embassy phone"})
    assert state.current == CHANCE and len(state.mission) == 2


@pytest.mark.parametrize("minimum,players,market,needed", [(3, 3, 6, 3), (4, 3, 6, 4), (3, 3, 2, 2)])
def test_mission_size_min_needs_more_cards_and_wins_over_the_player_count(minimum, players, market, needed):
    # "With min above the number of players, min wins. If the market holds fewer cards than min, all are proposed."
    game = with_rule(mm(players=players, market=market), "master-16", {"kind": "mission_size", "min": minimum})
    state = start(game, market=["Crack the hotel safe", "Bribe the border guard", "Swap the briefcases", "Bug the embassy phone",
                                "Steal the prototype", "Rig the village election"][:market])
    do(state, {"chance": "master", "card": "master-16"})
    for title in names(game, list(state.market)[:needed - 1]):
        do(state, {"seat": 0, "propose": title})
        assert PASS not in state.legal_actions()
    do(state, {"seat": 0, "propose": names(game, state.market)[0]})
    assert len(state.mission) == needed and state.due_chance_event() == {"chance": "market"}  # complete: the market refills


def test_votes_per_player_makes_each_card_a_vote_of_its_own():
    # master-03: everyone plays 2 votes; each is counted, and each counted YES gives its own collecting turn.
    state = start(mm(players=3))
    round_to_vote(state, "master-03", ["Crack the hotel safe", "Bug the embassy phone", "Steal the prototype"])
    votes(state, 2, 12, 21)
    assert state.current == SIMULTANEOUS and state.acting_seats() == (0, 1, 2)  # the second card, still in secret
    assert state.view(1).to_dict()["table"] == []
    votes(state, 4, 13, 23)
    assert sorted(state.t_num) == [2, 4, 12, 13, 21, 23] and state.success  # 3 YES against 3 NO
    do(state, {"seat": 0, "collect": "Bug the embassy phone"}, {"seat": 0, "collect": "Crack the hotel safe"},
       {"seat": 1, "collect": "Steal the prototype"})
    assert len(collection(state, 0)) == 3  # two mission cards and master-03


def test_votes_per_player_plays_all_a_seat_holds_if_fewer():
    game = mm(players=3, votes=1)
    state = start(game, hands=[[1, 2], [3, 4], [5, 6]])
    round_to_vote(state, "master-03", ["Crack the hotel safe"])
    votes(state, 1, 3, 5)
    votes(state, 2, 4, 6)
    assert state.hands == [[], [], []] and state.success


def test_no_voters_collect_after_the_yes_voters_red_side_up_high_to_low():
    # master-01: after the YES voters, every counted NO vote collects too, red side up, high to low.
    state = start(mm(players=3))
    round_to_vote(state, "master-01", ["Crack the hotel safe", "Bug the embassy phone", "Steal the prototype"])
    votes(state, 2, 11, 21)  # FAIL
    assert state.current == 0
    do(state, {"seat": 0, "collect": "Crack the hotel safe"})
    assert state.current == 2  # then NO voters from 21 down
    do(state, {"seat": 2, "collect": "Bug the embassy phone"}, {"seat": 1, "collect": "Steal the prototype"})
    assert collection(state, 2) == ["Bug the embassy phone (red)"] and collection(state, 1) == ["Steal the prototype (red)"]


@pytest.mark.parametrize("numbers", [(2, 12, 22), (1, 11, 21)])
def test_unanimous_ends_round_at_once_nobody_collects_and_the_master_card_is_discarded(numbers):
    # master-17: also when everyone votes NO (the rule wins over the all-NO round).
    state = start(mm(players=3))
    round_to_vote(state, "master-17", ["Crack the hotel safe"])
    votes(state, *numbers)
    assert state.round_no == 2 and state.collected == [[], [], []] and state.game.card("master-17") in state.master_discard
    assert state.game.card("Crack the hotel safe") in state.mission_discard and state.counts["rounds ended by unanimity"] == 1


def test_forced_vote_leaves_only_yes_votes_while_a_seat_holds_one():
    state = start(mm(players=3))
    round_to_vote(state, "master-13", ["Crack the hotel safe"])
    assert state.legal_actions(0) == [2, 4, 6, 8, 10]
    with pytest.raises(IllegalAction) as caught:
        do(state, {"seat": 0, "vote": 1})
    assert caught.value.reason == Reason.WRONG_PHASE and "must vote YES this round (this round's Master rule)" in caught.value.message
    game = mm(players=3, votes=1)
    state = start(game, hands=[[1, 2], [3, 4], [5, 6]])
    round_to_vote(state, "master-16", ["Crack the hotel safe"])
    votes(state, 2, 4, 6)
    do(state, {"seat": 0, "collect": "Crack the hotel safe"})
    round_to_vote(state, "master-13", ["Bug the embassy phone"])
    assert state.legal_actions(0) == [1]  # no YES left: any vote


def test_vote_weight_doubles_each_yes_vote():
    # master-08: one YES counts as two: 2 against 2 NO succeeds.
    state = start(mm(players=3))
    round_to_vote(state, "master-08", ["Crack the hotel safe"])
    votes(state, 2, 11, 21)
    assert state.success and state.counts["changed the result: vote_weight"] == 1


def test_active_vote_weight_doubles_the_active_seats_vote():
    # master-12: the active seat's NO counts twice: 3 NO against 2 YES.
    state = start(mm(players=4))
    round_to_vote(state, "master-12", ["Crack the hotel safe"])
    votes(state, 1, 12, 22, 31)
    assert not state.success and state.counts["changed the result: active_vote_weight"] == 1


def test_reveal_masters_shows_the_next_five_master_cards_then_keeps_their_order():
    state = start(mm(players=3))
    do(state, {"chance": "master", "card": "master-20"})
    shown = ["master-05", "master-01", "master-09", "master-12", "master-03"]
    for card in shown:
        assert state.due_chance_event() == {"chance": "master"}
        do(state, {"chance": "master", "card": card})
    assert names(state.game, state.master_top) == shown and state.view(2).to_dict()["master deck top"] == shown
    propose(state, 0, "Crack the hotel safe")
    refill(state, "Tail the courier")
    votes(state, 2, 12, 22)
    do(state, {"seat": 0, "collect": "Crack the hotel safe"})
    assert state.current == 1 and state.master_now == state.game.card("master-05")  # no chance event: the top was known


def test_pass_votes_passes_three_chosen_votes_to_the_left_all_at_once():
    state = start(mm(players=3))
    do(state, {"chance": "master", "card": "master-10"})
    for picks in ((1, 11, 21), (3, 13, 23), (5, 15, 25)):
        assert state.current == SIMULTANEOUS and state.decision[0] == "pass_vote"
        do(state, *({"seat": s, "pass_vote": n} for s, n in enumerate(picks)))
    assert state.hands[1][-3:] == [1, 3, 5] and state.hands[2][-3:] == [11, 13, 15] and state.hands[0][-3:] == [21, 23, 25]
    assert state.current == 0 and state.decision[0] == "propose"


def _round_one_collected(game):
    """Round 1 under master-16: seat 0 takes Bug the embassy phone and master-16, seat 1 Crack the hotel safe."""
    state = start(game)
    round_to_vote(state, "master-16", ["Crack the hotel safe", "Bug the embassy phone"])
    votes(state, 2, 12, 21)
    do(state, {"seat": 0, "collect": "Bug the embassy phone"}, {"seat": 1, "collect": "Crack the hotel safe"})
    return state


def test_flip_collected_turns_over_one_card_of_each_seat():
    state = _round_one_collected(mm(players=3))
    do(state, {"chance": "master", "card": "master-11"})
    assert collection(state, 1) == ["Crack the hotel safe (red)"]  # one card only: no choice
    assert state.current == 0 and state.decision[0] == "flip"
    do(state, {"seat": 0, "flip": "master-16"})
    assert collection(state, 0) == ["Bug the embassy phone (green)", "master-16 (red)"]
    assert state.current == 1 and state.decision[0] == "propose"


def test_reveal_hand_shows_the_hands_of_no_voters_at_round_end():
    state = start(mm(players=3))
    round_to_vote(state, "master-14", ["Crack the hotel safe"])
    votes(state, 2, 11, 21)
    do(state, {"seat": 0, "collect": "Crack the hotel safe"})
    shown = state.view(0).to_dict()["shown hands"]
    assert shown == {1: [12, 13, 14, 15, 16, 17, 18, 19, 20], 2: [22, 23, 24, 25, 26, 27, 28, 29, 30]}


def test_success_margin_yes_lead_makes_a_tie_fail():
    state = start(mm(players=4))
    round_to_vote(state, "master-04", ["Crack the hotel safe"])
    votes(state, 2, 12, 21, 31)
    assert not state.success and state.counts["changed the result: success_margin"] == 1


def test_success_margin_no_lead_survives_one_more_no():
    state = start(mm(players=3))
    round_to_vote(state, "master-09", ["Crack the hotel safe"])
    votes(state, 2, 11, 21)
    assert state.success and not state.exceptional


def test_reverse_collect_order_collects_a_success_from_high_to_low():
    state = start(mm(players=3))
    round_to_vote(state, "master-18", ["Crack the hotel safe", "Bug the embassy phone"])
    votes(state, 2, 12, 21)
    assert state.success and state.current == 1  # 12 before 2


def test_open_voting_goes_face_up_one_seat_at_a_time_from_the_active_seat():
    state = start(mm(players=3))
    round_to_vote(state, "master-15", ["Crack the hotel safe"])
    assert state.current == 0
    do(state, {"seat": 0, "vote": 2})
    assert state.current == 1 and state.view(1).table == [(0, 2, 2)]
    do(state, {"seat": 1, "vote": 11}, {"seat": 2, "vote": 22})
    assert state.success


def test_resource_variety_min_needs_three_different_resources_on_the_green_sides():
    # master-05: Crack the hotel safe shows reputation only; adding Swap the briefcases (weapons, intelligence) makes three.
    state = start(mm(players=3))
    do(state, {"chance": "master", "card": "master-05"}, {"seat": 0, "propose": "Crack the hotel safe"})
    assert PASS not in state.legal_actions()
    do(state, {"seat": 0, "propose": "Swap the briefcases"})
    assert PASS in state.legal_actions()


def test_resource_variety_max_refuses_a_card_with_a_new_resource():
    game = with_rule(mm(players=3), "master-05", {"kind": "resource_variety", "max": 1})
    state = start(game)
    do(state, {"chance": "master", "card": "master-05"}, {"seat": 0, "propose": "Crack the hotel safe"})
    assert state.legal_actions() == [PASS, CARD + game.card("Bug the embassy phone")]
    with pytest.raises(IllegalAction) as caught:
        do(state, {"seat": 0, "propose": "Rig the village election"})
    assert caught.value.reason == Reason.WRONG_PHASE and "limit of 0 to 1 different resources" in caught.value.message


def test_resource_variety_is_waived_when_no_proposal_can_meet_it():
    game = with_rule(mm(players=3), "master-05", {"kind": "resource_variety", "min": 4})
    state = start(game, market=["Crack the hotel safe", "Bug the embassy phone", "Rig the village election", "Sabotage the satellite",
                                "Blackmail the mayor", "Kidnap the parrot"])  # reputation and weapons only
    do(state, {"chance": "master", "card": "master-05"})
    assert state.counts["variety rule waived"] == 1 and PASS not in state.legal_actions()
    do(state, {"seat": 0, "propose": "Crack the hotel safe"})
    assert PASS in state.legal_actions()  # as usual: one card will do


def test_announce_vote_tells_everyone_each_seats_lowest_number():
    state = start(mm(players=3))
    do(state, {"chance": "master", "card": "master-06"})
    assert state.view(2).to_dict()["announced"] == {0: 1, 1: 11, 2: 21}


def test_voter_adjusts_mission_lets_the_highest_voter_add_a_market_card():
    state = start(mm(players=3))
    round_to_vote(state, "master-19", ["Crack the hotel safe"])
    votes(state, 2, 12, 21)
    assert state.current == 2 and state.decision[0] == "adjust"  # 21 is the highest counted vote
    do(state, {"seat": 2, "adjust": "Steal the prototype"})
    refill(state, "Hack the bank mainframe")
    assert names(state.game, state.mission) == ["Crack the hotel safe", "Steal the prototype"] and state.success  # the result stands
    do(state, {"seat": 0, "collect": "Steal the prototype"}, {"seat": 1, "collect": "Crack the hotel safe"})


def test_voter_adjusts_mission_may_return_a_card_but_one_stays():
    game = with_rule(mm(players=3), "master-19", {"kind": "voter_adjusts_mission", "voter": "lowest"})
    state = start(game)
    round_to_vote(state, "master-19", ["Crack the hotel safe"])
    votes(state, 2, 12, 21)
    assert state.current == 0 and CARD + game.card("Crack the hotel safe") not in state.legal_actions()  # the only card stays


@pytest.mark.parametrize("adjust_removed, market, discards", [("market", 7, 0), ("discard", 6, 1)])
def test_master_19_removes_a_card_to_the_market_or_the_discards(adjust_removed, market, discards):
    # master-19: "the highest voter may add a market card to the mission or remove one".  Where the
    # removed card goes is a reading (parameter adjust_removed): back to the market, which then
    # holds 7 where the rulebook's Setup makes "6 faceup Mission Cards" (the default, the
    # vocabulary's), or discarded.
    state = start(mm(players=3, adjust_removed=adjust_removed))
    round_to_vote(state, "master-19", ["Crack the hotel safe", "Steal the prototype"])
    votes(state, 2, 12, 21)
    assert state.current == 2 and state.decision[0] == "adjust"
    do(state, {"seat": 2, "adjust": "Steal the prototype"})
    assert names(state.game, state.mission) == ["Crack the hotel safe"] and state.success
    assert len(state.market) == market and len(state.mission_discard) == discards
    assert ("Steal the prototype" in names(state.game, state.market)) == (adjust_removed == "market")


def test_voter_swaps_collected_makes_the_highest_voter_swap_cards():
    state = _round_one_collected(mm(players=3))
    round_to_vote(state, "master-07", ["Steal the prototype"])
    votes(state, 4, 14, 24)  # seat 2's 24 is highest; seat 2 has no card yet: no swap ("if both exist")
    assert state.decision[0] == "collect" and state.current == 0
    state = start(mm(players=3))
    round_to_vote(state, "master-16", ["Crack the hotel safe", "Bug the embassy phone"])
    votes(state, 2, 11, 22)
    do(state, {"seat": 0, "collect": "Bug the embassy phone"}, {"seat": 2, "collect": "Crack the hotel safe"})
    round_to_vote(state, "master-07", ["Steal the prototype"])
    votes(state, 4, 14, 24)
    assert state.current == 2 and state.decision[0] == "give"
    do(state, {"seat": 2, "give": "Crack the hotel safe"}, {"seat": 2, "take": "Bug the embassy phone"})
    assert collection(state, 2) == ["Bug the embassy phone (green)"]  # each card keeps the side it had up
    assert collection(state, 0) == ["master-16 (green)", "Crack the hotel safe (green)"]


# -- how rules combine ------------------------------------------------------------------------------
def _holding(game, master: str):
    """Seat 0 wins ``master`` green side up in round 1 (mission_size cards it needs: one card)."""
    state = start(game)
    round_to_vote(state, master, ["Crack the hotel safe"])
    votes(state, 2, 12, 21)
    do(state, {"seat": 0, "collect": "Crack the hotel safe"})
    return state


def test_a_played_master_card_wins_where_it_contradicts_the_revealed_one():
    # Rulebook "Variants": the played card "only overrides the regular Master Card if the rules contradict".
    game = with_rule(mm(players=3, play_masters=True), "master-17", {"kind": "mission_size", "min": 3})
    state = _holding(game, "master-16")
    do(state, {"seat": 0, "play_master": "master-16"}, {"chance": "master", "card": "master-17"})
    assert (state.rules.min_size, state.rules.max_size) == (2, 2)


def test_vote_weights_of_two_master_cards_multiply():
    game = mm(players=3, play_masters=True)
    state = _holding(with_rule(game, "master-08", {"kind": "vote_weight", "vote": "YES", "weight": 2}), "master-08")
    with_rule(game, "master-12", {"kind": "vote_weight", "vote": "YES", "weight": 3})
    do(state, {"seat": 0, "play_master": "master-08"}, {"chance": "master", "card": "master-12"})
    assert state.rules.weight == [1, 6]

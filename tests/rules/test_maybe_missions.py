"""Maybe Missions, base game: one named test per rule of the rulebook (Maybe Missions, Pandaqi,
sections "Setup", "Objective", "Gameplay", "Variants"), from hand-built positions written as log events.

The helpers here (a game, a started state with chosen hands and market, card names) are shared by
the other ``test_maybe_missions_*`` files.  Card facts cited in comments are from content/maybe-missions/.
"""
from __future__ import annotations

import math
import random

import pytest

from deckpress.generator.content import load_game
from deckpress.rules.core.errors import IllegalAction, Reason
from deckpress.rules.core.game import CHANCE, SIMULTANEOUS, TERMINAL
from deckpress.rules.maybe_missions import MaybeMissionsGame
from deckpress.rules.maybe_missions.cards import CARD, PASS
from deckpress.rules.maybe_missions.scoring import PLAIN
from tests.rules.helpers import do

_CONTENT = {}
MARKET = ["Crack the hotel safe", "Bribe the border guard", "Swap the briefcases", "Bug the embassy phone",
          "Steal the prototype", "Rig the village election"]


def content():
    """The shipped Maybe Missions content, loaded once."""
    if "mm" not in _CONTENT:
        _CONTENT["mm"] = load_game("maybe-missions")
    return _CONTENT["mm"]


def mm(ruleset: str | None = None, **params) -> MaybeMissionsGame:
    """A game from the shipped content (``mm("all", players=4)``)."""
    return MaybeMissionsGame.create(content(), ruleset, params or None)


def hands_of(players: int) -> list[list[int]]:
    """Seat s holds votes 10s+1 .. 10s+10: five odd (NO) and five even (YES) each."""
    return [list(range(10 * s + 1, 10 * s + 11)) for s in range(players)]


def start(game, hands=None, market=None, identities=None, shop="shop-01"):
    """A state at the first round's Master card reveal: votes, identities ([(public, secret)] per
    seat), shop card and market dealt as named."""
    state = game.new_state()
    for s, hand in enumerate(hands or hands_of(game.players)):
        do(state, {"chance": "deal", "seat": s, "cards": hand})
    if game.identities:
        identities = identities or [("The Banker", "The Mole"), ("The Pilot", "The Forger"), ("The Heir", "The Ghost"),
                                    ("The Rookie", "The Magpie"), ("The Twin", "The Widow"), ("The Hothead", "The Cynic")]
        do(state, *({"chance": "public-identity", "seat": s, "card": p} for s, (p, _) in enumerate(identities[:game.players])))
        do(state, *({"chance": "secret-identity", "seat": s, "card": q} for s, (_, q) in enumerate(identities[:game.players])))
    if game.gadgets:
        do(state, {"chance": "shop", "card": shop})
    do(state, {"chance": "market", "cards": market or MARKET})
    return state


def refill(state, *titles: str) -> None:
    """The market refill after a proposal (one chance event per card)."""
    do(state, *({"chance": "market", "card": t} for t in titles))


def propose(state, seat: int, *titles: str) -> None:
    """The active seat proposes these cards (then "done" if the proposal is still open)."""
    do(state, *({"seat": seat, "propose": t} for t in titles))
    if state.current == seat and state.decision[0] == "propose":
        do(state, {"seat": seat, "propose": "done"})


def votes(state, *numbers: int) -> None:
    """Seat s plays vote ``numbers[s]`` (None: a seat that does not vote)."""
    do(state, *({"seat": s, "vote": n} for s, n in enumerate(numbers) if n is not None))


def names(game, cards) -> list[str]:
    """Card numbers to names."""
    return [game.card_names[c] for c in cards]


def collection(state, seat: int) -> list[str]:
    """``seat``'s collected cards as ``name (side)``."""
    return [f"{state.game.card_names[c]} ({('green', 'red')[state.up[c]]})" for c in state.collected[seat]]


def round_to_vote(state, master: str, proposal: list[str], fresh: list[str] | None = None) -> None:
    """Reveal ``master``; the active seat proposes ``proposal``; the market is refilled with ``fresh``."""
    do(state, {"chance": "master", "card": master})
    propose(state, state.active, *proposal)
    refill(state, *(fresh or names(state.game, sorted(state.mission_deck)[:len(proposal)])))


# -- Setup ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_deals_10_votes_each_from_5_yes_and_5_no_per_player(players):
    # Rulebook "Setup": a deck of 5 YES and 5 NO votes per player; deal each player 10.
    game = mm(players=players)
    rng = random.Random(players)
    state = game.new_state()
    while state.current == CHANCE and state.due_chance_event()["chance"] == "deal":
        outcomes = state.chance_outcomes()
        assert math.isclose(sum(p for _, p in outcomes), 1.0)
        state.apply(state.sample_chance(rng.random()))
    dealt = [n for hand in state.hands for n in hand]
    assert [len(h) for h in state.hands] == [10] * players
    assert sum(n % 2 == 0 for n in dealt) == 5 * players  # even numbers are YES (card-facts.md)
    assert len(state.box) == 60 - 10 * players  # the vote deck that draw_votes draws from


def test_a_hand_of_one_type_only_is_dealt_again():
    # Rulebook "Setup": "If someone starts with only Votes of a single type, however rare, deal again."
    game = mm(players=3)
    state = game.new_state()
    do(state, {"chance": "deal", "seat": 0, "cards": [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]},
       {"chance": "deal", "seat": 1, "cards": [22, 24, 26, 28, 30, 1, 3, 5, 7, 9]},
       {"chance": "deal", "seat": 2, "cards": [11, 13, 15, 17, 19, 21, 23, 25, 27, 29]})
    assert state.due_chance_event() == {"chance": "deal", "seat": 0}  # the deal starts over
    assert state.hands == [[], [], []] and len(state.box) == 60 and state.counts["redeals"] == 1


def test_the_deal_keeps_to_5_yes_per_player():
    # Once the YES votes of the deck (15 for 3 players) are dealt, only NO votes can come.
    game = mm(players=3)
    state = game.new_state()
    do(state, {"chance": "deal", "seat": 0, "cards": [2, 4, 6, 8, 10, 1, 3, 5, 7, 9]},
       {"chance": "deal", "seat": 1, "cards": [12, 14, 16, 18, 20, 22, 24, 26, 28, 30]})
    assert all(n % 2 == 1 for n, _ in state.chance_outcomes())
    with pytest.raises(IllegalAction) as caught:
        do(state, {"chance": "deal", "seat": 2, "card": 32})
    assert caught.value.reason == Reason.IMPOSSIBLE_OUTCOME


@pytest.mark.parametrize("action", [650, 790, 99999])
def test_a_chance_outcome_beyond_every_deck_is_refused_with_its_reason(action):
    # an action number in the identity ranges past the identities dealt is no card of the game:
    # refused like any impossible outcome, not an IndexError
    state = mm(players=4, identities=True).new_state()
    with pytest.raises(IllegalAction) as caught:
        state.apply(action)
    assert caught.value.reason == Reason.IMPOSSIBLE_OUTCOME and "not a card of this game" in str(caught.value)


def test_the_market_holds_6_cards_and_is_refilled_after_the_proposal():
    # Rulebook "Setup": 6 faceup Mission cards; "Gameplay": refill the market as needed.
    state = start(mm(players=3))
    assert names(state.game, state.market) == MARKET
    do(state, {"chance": "master", "card": "master-17"})
    propose(state, 0, "Crack the hotel safe", "Bug the embassy phone")
    assert state.due_chance_event() == {"chance": "market"}
    refill(state, "Tail the courier", "Hack the bank mainframe")
    assert len(state.market) == 6 and state.current == SIMULTANEOUS


# -- Gameplay: the proposal -------------------------------------------------------------------------
def test_the_active_player_proposes_at_least_1_and_at_most_players_cards():
    # Rulebook "Gameplay": "You must choose at least 1 card, and at most as many cards as the number of players."
    state = start(mm(players=3))
    do(state, {"chance": "master", "card": "master-17"})  # unanimous_ends_round: no proposal limits
    assert PASS not in state.legal_actions()  # "done" is not legal with no card
    with pytest.raises(IllegalAction) as caught:
        do(state, {"seat": 0, "propose": "done"})
    assert caught.value.reason == Reason.WRONG_PHASE and "needs 1 to 3 cards" in caught.value.message
    do(state, *({"seat": 0, "propose": t} for t in MARKET[:3]))
    assert state.current == CHANCE  # the third card ends the proposal by itself: no more may be added
    assert names(state.game, state.mission) == MARKET[:3]


def test_only_the_active_seat_proposes_and_only_market_cards():
    state = start(mm(players=3))
    do(state, {"chance": "master", "card": "master-17"})
    with pytest.raises(IllegalAction) as caught:
        do(state, {"seat": 1, "propose": "Crack the hotel safe"})
    assert caught.value.reason == Reason.NOT_YOUR_TURN
    with pytest.raises(IllegalAction) as caught:
        do(state, {"seat": 0, "propose": "Tail the courier"})
    assert caught.value.reason == Reason.WRONG_PILE and "the mission deck" in caught.value.message
    with pytest.raises(IllegalAction) as caught:
        do(state, {"seat": 0, "propose": "Tail the couriers"})
    assert caught.value.reason == Reason.UNKNOWN_NAME and "did you mean Tail the courier?" in caught.value.message


# -- Gameplay: the vote -------------------------------------------------------------------------------
def test_votes_are_simultaneous_and_hidden_until_all_are_revealed():
    # Rulebook "Gameplay": "Stick out your hand with a secret Vote inside, then reveal simultaneously."
    state = start(mm(players=3))
    round_to_vote(state, "master-17", ["Crack the hotel safe"])
    assert state.current == SIMULTANEOUS and state.acting_seats() == (0, 1, 2)
    do(state, {"seat": 1, "vote": 12})
    assert state.acting_seats() == (0, 2)
    mine, theirs = state.view(1).to_dict(), state.view(0).to_dict()
    assert mine["my face-down votes"] == [12] and 12 not in mine["hand"]
    assert theirs["submitted"] == [1] and "12" not in str({k: v for k, v in theirs.items() if k != "hand sizes"})
    with pytest.raises(IllegalAction) as caught:
        do(state, {"seat": 1, "vote": 14})
    assert caught.value.reason == Reason.ALREADY_SUBMITTED
    do(state, {"seat": 0, "vote": 2}, {"seat": 2, "vote": 21})
    assert state.view(0).table == [(0, 2, 2), (1, 12, 12), (2, 21, 21)]  # all revealed, from the active seat on


def test_a_vote_must_come_from_ones_own_hand():
    state = start(mm(players=3))
    round_to_vote(state, "master-17", ["Crack the hotel safe"])
    with pytest.raises(IllegalAction) as caught:
        do(state, {"seat": 0, "vote": 12})
    assert caught.value.reason == Reason.NOT_IN_HAND and "seat 1's hand" in caught.value.message
    with pytest.raises(IllegalAction) as caught:
        do(state, {"seat": 0, "vote": 61})
    assert caught.value.reason == Reason.UNKNOWN_NAME


def test_a_yes_majority_succeeds_and_yes_voters_collect_low_to_high_green_side_up():
    # Rulebook "Gameplay": "SUCCESS? Sort turns from low to high (by vote numbers) ... green side up."
    state = start(mm(players=3))
    round_to_vote(state, "master-17", ["Crack the hotel safe", "Bug the embassy phone"])
    votes(state, 4, 12, 21)  # YES (seat 0), YES (seat 1), NO (seat 2)
    assert state.success and state.current == 0  # vote 4 collects first
    with pytest.raises(IllegalAction) as caught:
        do(state, {"seat": 1, "collect": "Crack the hotel safe"})
    assert caught.value.reason == Reason.NOT_YOUR_TURN
    do(state, {"seat": 0, "collect": "Bug the embassy phone"}, {"seat": 1, "collect": "Crack the hotel safe"})
    assert collection(state, 0)[0] == "Bug the embassy phone (green)" and collection(state, 1) == ["Crack the hotel safe (green)"]
    assert state.collected[2] == []  # NO voters collect nothing


def test_a_no_majority_fails_and_yes_voters_collect_high_to_low_red_side_up():
    # Rulebook "Gameplay": "FAIL? Sort turns from high to low ... red side up."
    state = start(mm(players=4))
    round_to_vote(state, "master-17", ["Crack the hotel safe", "Bug the embassy phone"])
    votes(state, 2, 11, 21, 31)  # one YES against three NO
    assert not state.success and state.current == 0
    do(state, {"seat": 0, "collect": "Bug the embassy phone"})
    assert collection(state, 0)[0] == "Bug the embassy phone (red)"


def test_on_fail_the_highest_yes_vote_collects_first():
    state = start(mm(players=5))
    round_to_vote(state, "master-17", ["Crack the hotel safe", "Bug the embassy phone"])
    votes(state, 2, 12, 21, 31, 41)  # YES 2, YES 12; NO 21, 31, 41
    assert not state.success and state.current == 1  # 12 before 2


@pytest.mark.parametrize("tie,success", [("success", True), ("fail", False)])
def test_the_tie_rule_is_a_parameter(tie, success):
    # card-facts.md: "A tie vote counts as SUCCESS"; the parameter tie=fail is the variant.
    state = start(mm(players=4, tie=tie))
    round_to_vote(state, "master-17", ["Crack the hotel safe"])
    votes(state, 2, 12, 21, 31)
    assert state.success is success


def test_everyone_voting_no_makes_everyone_collect_red_high_to_low_and_loses_the_master_card():
    # Rulebook "Gameplay", Exceptional Round: everyone collects red side up, high to low; the
    # Master card is not won.
    state = start(mm(players=3))
    round_to_vote(state, "master-16", ["Crack the hotel safe", "Bug the embassy phone"])  # mission_size max 2
    votes(state, 1, 11, 21)
    assert state.exceptional and state.current == 2  # vote 21 first
    do(state, {"seat": 2, "collect": "Crack the hotel safe"}, {"seat": 1, "collect": "Bug the embassy phone"})
    assert collection(state, 2) == ["Crack the hotel safe (red)"] and collection(state, 1) == ["Bug the embassy phone (red)"]
    assert collection(state, 0) == []  # the mission ran out: seat 0 collects nothing; no Master card either
    assert state.game.card_ids.index("master-16") in state.master_discard


def test_the_active_player_wins_the_master_card_green_on_success_and_red_on_fail():
    # Rulebook "Gameplay": "The active player always wins the Master Card. (Green side up if SUCCESS, otherwise red side.)"
    state = start(mm(players=3))
    round_to_vote(state, "master-16", ["Crack the hotel safe"])
    votes(state, 1, 12, 22)  # the active seat votes NO and still wins the card
    do(state, {"seat": 1, "collect": "Crack the hotel safe"})
    assert collection(state, 0) == ["master-16 (green)"]
    assert state.active == 1  # the next seat clockwise is active next round
    round_to_vote(state, "master-19", ["Steal the prototype"])
    votes(state, 4, 11, 21)  # YES (seat 0) against two NO: FAIL; master-19 lets the highest voter (21) adjust
    do(state, {"seat": 2, "adjust": "none"}, {"seat": 0, "collect": "Steal the prototype"})
    assert collection(state, 1) == ["Crack the hotel safe (green)", "master-19 (red)"]


def test_collecting_turns_beyond_the_missions_cards_take_nothing():
    # Rulebook "Gameplay", Remark: "If the mission cards have run out while picking, any players remaining simply don't collect anything."
    state = start(mm(players=3))
    round_to_vote(state, "master-16", ["Crack the hotel safe"])
    votes(state, 2, 12, 22)
    do(state, {"seat": 0, "collect": "Crack the hotel safe"})
    assert state.collected[1] == [] and state.collected[2] == [] and state.round_no == 2


def test_the_game_ends_when_everyones_votes_have_run_out():
    # Rulebook "Objective": "The game ends once everyone's Votes have run out."  votes=1: hands of 2.
    game = mm(players=3, votes=1)
    state = start(game, hands=[[1, 2], [3, 4], [5, 6]])
    round_to_vote(state, "master-16", ["Crack the hotel safe"])
    votes(state, 1, 3, 5)
    do(state, {"seat": 2, "collect": "Crack the hotel safe"})
    assert state.round_no == 2 and state.current == CHANCE
    round_to_vote(state, "master-17", ["Bug the embassy phone"])
    votes(state, 2, 4, 6)  # unanimous YES: master-17 ends the round at once
    assert state.current == TERMINAL and state.legal_actions() == [] and state.winners()


# -- Objective: scoring ------------------------------------------------------------------------------
def test_score_plain_plus_one_crossed_minus_one_most_counts_double_least_not_at_all():
    # Rulebook "Objective" and card-facts.md (a crossed icon scores -1): counts 3, 1, 0, -2 give
    # 3 + 1 + 0 - 2 = 2, plus the best (3) again, minus the worst (-2): 7.
    assert PLAIN.score([3, 1, 0, -2]) == 7
    assert PLAIN.score([2, 2, 0, 0]) == 6  # a tie for most or least: every choice gives the same (best) score
    state = start(mm(players=3))
    round_to_vote(state, "master-16", ["Bribe the border guard", "Rig the village election"])
    votes(state, 2, 12, 22)
    do(state, {"seat": 0, "collect": "Bribe the border guard"}, {"seat": 1, "collect": "Rig the village election"})
    # seat 0: Bribe the border guard green (gold 2, weapons 1, intelligence 1) and master-16 green
    # (gold 1, reputation 1, intelligence 2): gold 3, reputation 1, weapons 1, intelligence 3 -> 8 + 3 - 1 = 10
    assert state.resource_counts(0)[0] == [3, 1, 1, 3] and state.returns()[0] == 10.0
    assert state.returns()[1] == 4.0  # weapons 2: 2 + 2 - 0


# -- Variants -------------------------------------------------------------------------------------------
def _seat_with_green_master(game):
    state = start(game)
    round_to_vote(state, "master-16", ["Crack the hotel safe"])
    votes(state, 2, 12, 21)
    do(state, {"seat": 0, "collect": "Crack the hotel safe"})  # seat 0 wins master-16 (max 2 cards) green side up
    return state


def test_variant_playing_won_master_cards():
    # Rulebook "Variants": a collected green Master card may be placed before a round: its rule applies
    # this round too (overriding where they contradict), then it is discarded.
    state = _seat_with_green_master(mm(players=3, play_masters=True))
    assert state.current == 0 and state.legal_actions() == [PASS, CARD + state.game.card("master-16")]
    do(state, {"seat": 0, "play_master": "master-16"})
    do(state, {"chance": "master", "card": "master-17"})
    assert state.rules.kinds == ["unanimous_ends_round", "mission_size"] and state.rules.max_size == 2
    do(state, {"seat": 1, "propose": "Bug the embassy phone"}, {"seat": 1, "propose": "Steal the prototype"})
    assert state.current == CHANCE  # the played card's limit of 2 ended the proposal
    assert collection(state, 0) == ["Crack the hotel safe (green)"]  # the played card left the collection: it no longer scores


def test_without_the_variant_won_master_cards_stay_put():
    state = _seat_with_green_master(mm(players=3))
    assert state.current == CHANCE and state.due_chance_event() == {"chance": "master"}


def test_variant_reduce_randomness_redraws_two_votes_for_a_seat_that_collected_nothing():
    # Rulebook "Variants": "If you didn't collect a card this round, you may discard 2 Votes to draw new ones from the deck."
    # redraw_from: box reads "the deck" as the votes not dealt at set-up
    state = start(mm(players=3, reduce_randomness=True, redraw_from="box"))
    round_to_vote(state, "master-16", ["Crack the hotel safe"])
    votes(state, 2, 11, 21)
    do(state, {"seat": 0, "collect": "Crack the hotel safe"})
    assert state.current == 1 and state.decision[0] == "redraw"  # seat 0 collected; seats 1 and 2 did not
    do(state, {"seat": 1, "redraw": 13}, {"seat": 1, "redraw": 15})
    assert state.due_chance_event() == {"chance": "draw", "seat": 1}
    do(state, {"chance": "draw", "seat": 1, "card": 40}, {"chance": "draw", "seat": 1, "card": 41})
    assert sorted(state.hands[1]) == [12, 14, 16, 17, 18, 19, 20, 40, 41] and {13, 15} <= set(state.vote_discard)
    do(state, {"seat": 2, "redraw": "none"})
    assert state.due_chance_event() == {"chance": "master"}


def test_reduce_randomness_draws_from_the_discarded_votes_by_default():
    # "the deck" read as the discarded votes (the default), so the variant acts at every
    # player count; the seat's own two discards join the pile only after it has drawn
    state = start(mm(players=3, reduce_randomness=True))
    round_to_vote(state, "master-16", ["Crack the hotel safe"])
    votes(state, 2, 11, 21)
    do(state, {"seat": 0, "collect": "Crack the hotel safe"})
    discards = sorted(state.vote_discard)
    assert discards == [2, 11, 21]  # this round's votes
    do(state, {"seat": 1, "redraw": 13}, {"seat": 1, "redraw": 15})
    assert state.due_chance_event() == {"chance": "redraw", "seat": 1}
    assert [a for a, _ in state.chance_outcomes()] == discards  # not 13 or 15
    do(state, {"chance": "redraw", "seat": 1, "card": 2}, {"chance": "redraw", "seat": 1, "card": 21})
    assert sorted(state.hands[1]) == [2, 12, 14, 16, 17, 18, 19, 20, 21] and sorted(state.vote_discard) == [11, 13, 15]
    assert not state.check_invariants()


# -- Hidden information -----------------------------------------------------------------------------------
def test_a_seat_sees_its_own_hand_and_secret_identity_but_not_the_others():
    from tests.rules.test_conformance import hidden_votes_shown

    state = start(mm("identities", players=3))
    view = state.view(1).to_dict()
    assert view["hand"] == list(range(11, 21)) and view["hand sizes"] == [10, 10, 10]
    assert view["my secret identity"] == "The Forger" and "The Mole" not in str(view) and "The Ghost" not in str(view)
    assert view["public identities"] == ["The Banker", "The Pilot", "The Heir"]
    assert hidden_votes_shown(state, 1) == []  # swapping another seat's votes or secret identity changes nothing seat 1 sees


@pytest.mark.parametrize("name, card_id", [
    ("Each YES vote counts as 2 votes.", "master-08"),  # a Master card shows only its rule
    ("hollow coin", "shop-01"), ("Bulletproof hat", "shop-01"),  # either side's gadget
    ("master-1", "master-01"), ("MASTER-08", "master-08"),  # ids, with or without leading zeros
    ("Crack the hotel safe", "crack-the-hotel-safe"),
])
def test_a_log_names_a_card_by_what_it_prints(name, card_id):
    # A Master card shows only its rule, a shop card its gadget names.
    from deckpress.rules.core.registry import load

    game = load("maybe-missions")
    assert game.card_ids[game.card(name)] == card_id


@pytest.mark.slow
def test_reduce_randomness_acts_at_six_players_and_the_inert_reading_is_named(cli):
    # drawing "from the deck" the votes not dealt never acts at 6 players (all 60 dealt);
    # the default reads it as the discarded votes, which works at every count
    from deckpress.rules.core.bots import make_bot
    from deckpress.rules.core.registry import load
    from deckpress.rules.core.simulate import game_rng, play_game

    for redraw_from, acts in (("discards", True), ("box", False)):
        game = load("maybe-missions", None, {"players": 6, "reduce_randomness": True, "redraw_from": redraw_from})
        redraws = 0
        for i in range(20):
            state = play_game(game, [make_bot("maybe-missions", "random") for _ in range(6)], game_rng(3, i))[0]
            assert not state.check_invariants()
            redraws += state.tally().get("redraws", 0)
        assert (redraws > 0) == acts, (redraw_from, redraws)
    result = cli("simulate", "maybe-missions", "--players", "6", "-p", "reduce_randomness=true", "-p", "redraw_from=box", "--games", "2")
    assert "warning: reduce_randomness never acts with redraw_from: box at 6 players here" in result.stderr


def test_vote_numbers_in_play_random_or_the_lowest():
    # a random 5N + 5N of the 60 votes (the default) or the votes numbered 1..10N
    from deckpress.rules.core.bots import make_bot
    from deckpress.rules.core.registry import load
    from deckpress.rules.core.simulate import game_rng, play_game

    highest = {}
    for choice in ("random", "lowest"):
        game = load("maybe-missions", None, {"players": 3, "vote_numbers": choice})
        seen = set()
        for i in range(10):
            final = play_game(game, [make_bot("maybe-missions", "random") for _ in range(3)], game_rng(5, i))[0]
            assert not final.check_invariants()
            seen |= {n for hand in final.hands for n in hand} | set(final.vote_discard)
        highest[choice] = max(seen)
    assert highest["lowest"] <= 30 < highest["random"]

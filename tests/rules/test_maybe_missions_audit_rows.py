"""Maybe Missions: rules the rules audit (docs/rules-audit.md, section "Maybe Missions") found unpinned,
one named test each: row 14 (an empty Master deck), row 26 (an all-NO round that success_margin
makes a SUCCESS) and row 29 (only green-side-up Master cards may be played, the play-masters variant).

Positions are written as log events with the helpers of ``test_maybe_missions``.  Default hands:
seat s holds votes 10s+1..10s+10 (odd NO, even YES).
"""
from __future__ import annotations

import pytest

from deckpress.rules.core.errors import IllegalAction, Reason
from deckpress.rules.core.game import CHANCE
from deckpress.rules.maybe_missions.cards import CARD, PASS
from tests.rules.helpers import do
from tests.rules.test_maybe_missions import collection, mm, round_to_vote, start, votes
from tests.rules.test_maybe_missions_masters import with_rule


# -- row 14 ---------------------------------------------------------------------------------------
def test_an_empty_master_deck_leaves_a_round_without_a_rule_and_without_a_master_card_to_win():
    # Rulebook "Gameplay": "Reveal the top Master Card from the deck."; game.yaml notes: "MASTER DECK:
    # an empty Master deck leaves a round without a rule and without a Master card to win."
    game = mm(players=3)
    game.master_cards = [game.card("master-16")]  # this game's Master deck holds one card only
    state = start(game)
    round_to_vote(state, "master-16", ["Crack the hotel safe"])
    votes(state, 2, 12, 22)
    do(state, {"seat": 0, "collect": "Crack the hotel safe"})
    assert collection(state, 0) == ["Crack the hotel safe (green)", "master-16 (green)"]  # the deck is now empty

    # Round 2: no Master card comes up; seat 1 proposes at once, under no Master rule.
    assert state.round_no == 2 and state.current == 1 and state.decision[0] == "propose"
    assert state.view(1).to_dict()["master"] is None and state.rules.kinds == []
    with pytest.raises(IllegalAction) as caught:
        do(state, {"chance": "master", "card": "master-16"})
    assert caught.value.reason == Reason.SEAT_DUE  # no Master card to reveal: seat 1 is due to propose
    # the usual limits hold (1 to 3 cards with 3 players): the third card ends the proposal
    do(state, *({"seat": 1, "propose": t} for t in ("Bribe the border guard", "Swap the briefcases", "Bug the embassy phone")))
    assert state.due_chance_event() == {"chance": "market"}
    do(state, *({"chance": "market", "card": t} for t in ("Tail the courier", "Hack the bank mainframe", "Smuggle the crown jewels")))
    votes(state, 4, 14, 24)  # SUCCESS: collect low to high, green side up
    do(state, {"seat": 0, "collect": "Bribe the border guard"}, {"seat": 1, "collect": "Swap the briefcases"},
       {"seat": 2, "collect": "Bug the embassy phone"})

    # Nobody won a Master card in round 2: the active seat 1 holds its mission card only.
    assert collection(state, 1) == ["Swap the briefcases (green)"]
    assert state.said_aloud({"seat": 1, "takes_master": "none"})
    with pytest.raises(IllegalAction) as caught:
        state.said_aloud({"seat": 1, "takes_master": "master-16"})
    assert caught.value.reason == Reason.WRONG_PHASE and "no Master card was won in round 2: the Master deck was empty" in caught.value.message
    assert state.round_no == 3 and state.current == 2 and state.decision[0] == "propose"  # the game goes on, again without a rule
    assert not state.check_invariants()


# -- row 26 ---------------------------------------------------------------------------------------
def test_an_all_no_round_is_exceptional_even_when_success_margin_makes_it_a_success():
    # Rulebook "Gameplay", Exceptional Round: "If everyone voted NO, then everyone must collect ... red
    # side up. (... high to low.) The Master Card is not won."  game.yaml notes: "A round with every
    # counted vote NO is the exceptional round even when success_margin makes it a SUCCESS".
    # master-09 survives up to 3 more NO than YES here: 3 NO against 0 YES is a SUCCESS.
    game = with_rule(mm(players=3), "master-09", {"kind": "success_margin", "no_lead": 3})
    state = start(game)
    round_to_vote(state, "master-09", ["Crack the hotel safe", "Bug the embassy phone", "Steal the prototype"])
    votes(state, 1, 11, 21)
    assert state.success and state.exceptional
    # everyone collects, high to low (21, 11, 1), red side up, although the mission succeeded
    assert state.current == 2 and state.decision[0] == "collect"
    do(state, {"seat": 2, "collect": "Crack the hotel safe"}, {"seat": 1, "collect": "Bug the embassy phone"},
       {"seat": 0, "collect": "Steal the prototype"})
    assert collection(state, 2) == ["Crack the hotel safe (red)"] and collection(state, 1) == ["Bug the embassy phone (red)"]
    # the active seat 0 does not win master-09 (not even green side up): it is discarded
    assert collection(state, 0) == ["Steal the prototype (red)"]
    assert game.card("master-09") in state.master_discard
    assert state.said_aloud({"seat": 0, "takes_master": "none"})
    with pytest.raises(IllegalAction) as caught:
        state.said_aloud({"seat": 0, "takes_master": "master-09", "side": "green"})
    assert caught.value.reason == Reason.WRONG_PHASE and "everyone voted NO" in caught.value.message


# -- row 29 ---------------------------------------------------------------------------------------
def test_play_masters_offers_only_green_side_up_master_cards_never_red_ones():
    # Rulebook "Variants": "You can allow Master Cards to be played as well. This only applies to
    # collected Master Cards that are positive (green side up)."
    game = mm("play-masters", players=3)
    state = start(game)
    master_16, master_18 = game.card("master-16"), game.card("master-18")

    # Round 1 (seat 0 active): FAIL, so seat 0 wins master-16 red side up.
    round_to_vote(state, "master-16", ["Crack the hotel safe"])
    votes(state, 2, 11, 21)
    do(state, {"seat": 0, "collect": "Crack the hotel safe"})
    assert collection(state, 0) == ["Crack the hotel safe (red)", "master-16 (red)"]
    # Round 2: a red Master card is nothing to play: seat 0 is not asked, the Master card is revealed
    assert state.current == CHANCE and state.due_chance_event() == {"chance": "master"}
    with pytest.raises(IllegalAction) as caught:
        do(state, {"seat": 0, "play_master": "master-16"})
    assert caught.value.reason == Reason.CHANCE_DUE and "{chance: master} is due" in caught.value.message

    # Rounds 2 and 3 (seats 1 and 2 active): both succeed; the Master cards go elsewhere.
    round_to_vote(state, "master-02", ["Bug the embassy phone"])
    votes(state, 4, 12, 22)
    do(state, {"seat": 0, "collect": "Bug the embassy phone"})
    do(state, {"seat": 1, "play_master": "none"})  # seat 1 holds master-02 green: it is asked, seat 0 is not
    round_to_vote(state, "master-08", ["Steal the prototype"])
    votes(state, 6, 14, 24)
    do(state, {"seat": 0, "collect": "Steal the prototype"})
    # Round 4 (seat 0 active): SUCCESS, so seat 0 wins master-18 green side up.
    do(state, {"seat": 1, "play_master": "none"}, {"seat": 2, "play_master": "none"})
    round_to_vote(state, "master-18", ["Swap the briefcases"])
    votes(state, 8, 16, 26)
    do(state, {"seat": 2, "collect": "Swap the briefcases"})  # reverse_collect_order: 26 first
    assert collection(state, 0) == ["Crack the hotel safe (red)", "master-16 (red)", "Bug the embassy phone (green)",
                                    "Steal the prototype (green)", "master-18 (green)"]

    # Round 5 (seat 1 active): offered in turn order 1, 2, 0; seat 0 may play the green card only.
    do(state, {"seat": 1, "play_master": "none"}, {"seat": 2, "play_master": "none"})
    assert state.current == 0 and state.decision[0] == "play_master"
    assert state.legal_actions() == [PASS, CARD + master_18]
    assert CARD + master_16 not in state.legal_actions()
    with pytest.raises(IllegalAction) as caught:
        do(state, {"seat": 0, "play_master": "master-16"})
    assert caught.value.reason == Reason.WRONG_PILE and "master-16 lies red side up in seat 0's collection: only Master cards won green side up may be played" in caught.value.message
    assert state.current == 0 and master_16 in state.collected[0]  # refused: nothing changed
    do(state, {"seat": 0, "play_master": "master-18"})
    assert state.played_masters == [master_18] and "master-16 (red)" in collection(state, 0)  # the red one stays put
    assert "master-18 (green)" not in collection(state, 0)
    assert state.due_chance_event() == {"chance": "master"}

"""Maybe Missions, Secret Identities expansion (rulebook "Secret Identities"): one named test per public
power kind (enforced during play) and per secret power kind (in scoring), as the vocabulary defines
them (schemas/maybe-missions.vocabulary.schema.json).  Identity cards are from content/maybe-missions/.
"""
from __future__ import annotations

import pytest

from deckpress.generator.content.maybe_missions_vocabulary import kinds_of
from deckpress.rules.core.errors import IllegalAction, Reason
from deckpress.rules.core.game import SIMULTANEOUS
from deckpress.rules.maybe_missions.cards import CARD
from deckpress.rules.maybe_missions.identities import PUBLIC_POWERS
from deckpress.rules.maybe_missions.scoring import SECRET_POWERS, score_profile
from tests.rules.helpers import do
from tests.rules.test_maybe_missions import collection, mm, round_to_vote, start, votes

PLAIN_SEATS = [("The Heir", "The Mole"), ("The Pilot", "The Forger"), ("The Hothead", "The Ghost")]


def seated(*publics: str, players: int = 3, **params):
    """A started identities game with these public identities on seats 0, 1, ... (secret ones fixed)."""
    secrets = ["The Mole", "The Forger", "The Ghost", "The Magpie"]
    game = mm("identities", players=players, **params)
    return start(game, identities=list(zip(publics, secrets)))


def test_every_identity_power_kind_of_the_vocabulary_is_implemented():
    assert sorted(PUBLIC_POWERS) == sorted(kinds_of("public_power"))
    assert sorted(SECRET_POWERS) == sorted(kinds_of("secret_power"))


# -- public powers ---------------------------------------------------------------------------------
def test_own_vote_weight_counts_the_diplomats_yes_twice():
    # The Diplomat: "Your YES votes count as 2 votes": 2 against 2 NO succeeds.
    state = seated("The Diplomat", "The General", "The Heir")  # the General and the Heir change nothing here
    round_to_vote(state, "master-16", ["Crack the hotel safe"])
    votes(state, 2, 11, 21)
    assert state.success


def test_own_vote_weight_without_a_type_counts_every_vote_twice():
    # The Shadow: "Your vote counts as 2 votes" (its NO too).
    state = seated("The Shadow", "The Heir", "The Hothead")
    round_to_vote(state, "master-16", ["Crack the hotel safe"])
    votes(state, 1, 12, 22)
    assert state.success  # 2 YES against a doubled NO: a tie
    state = seated("The Heir", "The Shadow", "The Hothead")
    round_to_vote(state, "master-16", ["Crack the hotel safe"])
    votes(state, 2, 11, 22)
    assert state.success


def test_vote_last_chooses_after_seeing_every_other_vote():
    # The Pilot (seat 1): "You reveal your vote after everyone else."
    state = seated("The Heir", "The Pilot", "The Hothead")
    round_to_vote(state, "master-16", ["Crack the hotel safe"])
    assert state.current == SIMULTANEOUS and state.acting_seats() == (0, 2)
    do(state, {"seat": 0, "vote": 2}, {"seat": 2, "vote": 21})
    assert state.current == 1 and state.view(1).table == [(0, 2, 2), (2, 21, 21)]


def test_collect_first_takes_the_first_turn_whatever_the_number():
    # The Heir (seat 2): "When you collect, you go first."
    state = seated("The General", "The Mimic", "The Heir")
    round_to_vote(state, "master-16", ["Crack the hotel safe", "Bug the embassy phone"])
    votes(state, 2, 12, 22)
    assert state.decision[0] == "collect" and state.current == 2
    do(state, {"seat": 2, "collect": "Crack the hotel safe"})
    assert state.current == 0


def test_collect_last_takes_the_last_turn_whatever_the_number():
    # The Diplomat (seat 0): "When you collect, you go last."
    state = seated("The Diplomat", "The Mimic", "The Hothead")
    round_to_vote(state, "master-16", ["Crack the hotel safe", "Bug the embassy phone"])
    votes(state, 2, 12, 21)
    assert state.current == 1
    do(state, {"seat": 1, "collect": "Crack the hotel safe"})
    assert state.current == 0


def test_play_masters_lets_only_its_holder_play_a_won_master_card():
    # The Gossip: the 'play Master cards' variant for its holder alone.
    state = seated("The General", "The Mimic", "The Hothead")  # the General: play_masters
    round_to_vote(state, "master-16", ["Crack the hotel safe"])
    votes(state, 2, 12, 21)
    do(state, {"seat": 0, "collect": "Crack the hotel safe"})
    assert state.current == 0 and state.decision[0] == "play_master"
    state = seated("The Mimic", "The General", "The Hothead")
    round_to_vote(state, "master-16", ["Crack the hotel safe"])
    votes(state, 2, 12, 21)
    do(state, {"seat": 0, "collect": "Crack the hotel safe"})
    assert state.due_chance_event() == {"chance": "master"}  # seat 0 holds a Master card but has no such power


def test_vote_shift_moves_effective_numbers_but_never_the_type():
    # The Courier (seat 0): "Your votes count as 15 higher": its 2 becomes 17 and collects after 12.
    state = seated("The Courier", "The Mimic", "The Hothead")
    round_to_vote(state, "master-16", ["Crack the hotel safe", "Bug the embassy phone"])
    votes(state, 2, 12, 21)
    assert state.view(1).table[0] == (0, 2, 17) and state.success and state.current == 1


def test_vote_shift_decides_a_vote_cutoff():
    # The Courier's 32 counts as 47: above master-02's 45, so it is not counted.
    state = seated("The Mimic", "The Hothead", "The Shadow", "The Courier", players=4)
    round_to_vote(state, "master-02", ["Crack the hotel safe"])
    votes(state, 2, 11, 21, 32)
    assert state.t_counted == [True, True, True, False] and not state.success


def test_resource_forces_vote_when_the_mission_shows_the_resource():
    # The Loudmouth (seat 0): "If the mission shows reputation, you must vote YES (if you can)."
    state = seated("The Loudmouth", "The Mimic", "The Hothead")
    round_to_vote(state, "master-16", ["Crack the hotel safe"])  # shows reputation
    assert state.legal_actions(0) == [2, 4, 6, 8, 10]
    with pytest.raises(IllegalAction) as caught:
        do(state, {"seat": 0, "vote": 1})
    assert caught.value.reason == Reason.WRONG_PHASE and "its public identity" in caught.value.message
    state = seated("The Loudmouth", "The Mimic", "The Hothead")
    round_to_vote(state, "master-16", ["Rig the village election"])  # weapons only
    assert state.legal_actions(0) == list(range(1, 11))


def test_a_master_cards_forced_vote_wins_over_an_identitys():
    # Vocabulary, PRECEDENCE: the Stowaway must vote NO on reputation, master-13 says YES: YES wins.
    state = seated("The Stowaway", "The Mimic", "The Hothead")
    round_to_vote(state, "master-13", ["Crack the hotel safe"])
    assert state.legal_actions(0) == [2, 4, 6, 8, 10]


def test_forbidden_resource_skips_cards_showing_it_on_the_side_one_would_get():
    # The Hothead (seat 0): never collects a card showing intelligence on its up side.
    state = seated("The Hothead", "The Mimic", "The Shadow")
    round_to_vote(state, "master-16", ["Swap the briefcases", "Crack the hotel safe"])  # Swap's green side shows intelligence
    votes(state, 2, 12, 21)
    assert state.current == 0 and state.legal_actions() == [CARD + state.game.card("Crack the hotel safe")]
    with pytest.raises(IllegalAction) as caught:
        do(state, {"seat": 0, "collect": "Swap the briefcases"})
    assert caught.value.reason == Reason.WRONG_PHASE and "its green side shows a resource its public identity forbids" in caught.value.message
    do(state, {"seat": 0, "collect": "Crack the hotel safe"})


def test_forbidden_resource_skips_the_turn_when_every_card_left_shows_it():
    state = seated("The Hothead", "The General", "The Shadow")
    round_to_vote(state, "master-16", ["Swap the briefcases"])
    votes(state, 2, 12, 21)
    assert state.current == 1  # seat 0's turn is skipped
    do(state, {"seat": 1, "collect": "Swap the briefcases"})


def test_copy_neighbour_votes_after_the_left_neighbour_and_like_them():
    # The Judge (seat 0): "You vote after your left neighbour and must vote like them (if you can)."
    state = seated("The Judge", "The Mimic", "The Hothead")
    round_to_vote(state, "master-16", ["Rig the village election"])
    assert state.acting_seats() == (1, 2)
    do(state, {"seat": 1, "vote": 11}, {"seat": 2, "vote": 22})
    assert state.current == 0 and state.legal_actions() == [1, 3, 5, 7, 9]  # seat 1 (left = next clockwise) voted NO


# -- secret powers (scoring) ------------------------------------------------------------------------
@pytest.mark.parametrize("identity,counts,greens,reds,expected", [
    # resource_value: The Hoarder's intelligence counts 2 each: v = 0, 1, 0, 4 -> 5 + 4 - 0 = 9 (gold 0 is even: no -2)
    ("The Hoarder", [0, 1, 0, 2], 2, 0, 9),
    # resource_value below 1: The Saboteur's weapons are worth -1: v = 0, 1, -2, 0; weapons are held most
    # (2 icons), so they count double, and gold or intelligence (0) least: -1 + (-2) - 0 = -3
    ("The Saboteur", [0, 1, 2, 0], 2, 0, -3),
    # threshold_bonus over all resources: The Mole +3 at 12 or more (gold 3 is odd: no -2): 12 + 3 - 3 + 3 = 15
    ("The Mole", [3, 3, 3, 3], 6, 0, 15),
    # threshold_bonus of one resource: The Saboteur +3 at 4 reputation: v = 0, 4, 0, 0 -> 4 + 4 + 3 = 11
    ("The Saboteur", [0, 4, 0, 0], 3, 0, 11),
    # pair_bonus: The Collector +1 per gold and intelligence pair (2), weapons 1 is odd: 6 + 3 - 0 + 2 = 11
    ("The Collector", [2, 0, 1, 3], 3, 0, 11),
    # pair_bonus needs both counts above 0: no pair with intelligence -1: 1 + 2 - (-1) = 4, weapons 0 is even: -2 -> 2
    ("The Collector", [2, 0, 0, -1], 1, 1, 2),
    # parity_bonus: The Sleeper +2 for an even gold count (intelligence worth -1: v_int = 0): 2 + 2 - 0 + 2 = 6
    ("The Sleeper", [2, 0, 0, 0], 1, 0, 6),
    # parity_bonus with a negative count: -3 gold is odd, so the Accountant's +2 applies: -3 + 0 - (-3) + 2 = 2
    ("The Accountant", [-3, 0, 0, 0], 0, 2, 2),
    # card_bonus: The Smuggler +1 per card red side up (3), reputation 2 is even: 2 + 2 - 0 + 3 = 7
    ("The Smuggler", [0, 2, 0, 0], 1, 3, 7),
])
def test_secret_powers_change_the_final_score(identity, counts, greens, reds, expected):
    game = mm("identities")
    profile = game.secret_profiles[game.identity(identity, public=False)]
    assert profile.score(counts, greens, reds) == expected


def test_a_pair_of_one_resource_with_itself_is_two_icons():
    profile = score_profile([{"kind": "pair_bonus", "first": "gold", "second": "gold", "points": 1}])
    assert profile.score([5, 0, 0, 0]) == 5 + 5 - 0 + 2


def test_the_secret_identity_scores_only_for_its_holder():
    state = seated("The Mimic", "The Heir", "The Shadow")  # secrets: The Mole, The Forger, The Ghost
    round_to_vote(state, "master-16", ["Bug the embassy phone", "Crack the hotel safe"])
    votes(state, 2, 12, 21)
    do(state, {"seat": 1, "collect": "Bug the embassy phone"}, {"seat": 0, "collect": "Crack the hotel safe"})
    # seat 1 (collect_first): Bug the embassy phone green, reputation 2: 2 + 2 = 4, The Forger +2 (even reputation)
    assert state.score(1) == 6 and collection(state, 1) == ["Bug the embassy phone (green)"]
    assert "The Forger" not in str(state.view(0).to_dict()) and state.view(1).to_dict()["my secret identity"] == "The Forger"


@pytest.mark.parametrize("counts, by_count, by_value", [((0, 0, 5, 0), -10, 0), ((1, 2, 4, 0), -5, 5)])
def test_secret_identity_scoring_follows_the_rulebooks_count(counts, by_count, by_value):
    # "The resource which you have the most counts double, the least does not
    # count" (rulebook, Objective).  With a secret "-1 per weapon" identity, weapons held most
    # count double *against* the seat; the older reading by value made hoarding them harmless.
    from deckpress.rules.maybe_missions.cards import RESOURCES
    from deckpress.rules.maybe_missions.scoring import score_profile

    minus_weapon = [{"kind": "resource_value", "resource": "weapons", "points": -1}]
    assert RESOURCES == ("gold", "reputation", "weapons", "intelligence")
    assert score_profile(minus_weapon).score(counts) == by_count
    assert score_profile(minus_weapon, by_count=False).score(counts) == by_value


def test_identity_scoring_is_a_parameter_with_the_literal_reading_by_default():
    from deckpress.rules.core.registry import load

    assert load("maybe-missions", "identities").params["identity_scoring"] == "count"
    game = load("maybe-missions", "identities", {"identity_scoring": "value"})
    assert all(not p.by_count for p in game.secret_profiles)


def test_a_won_master_card_counts_like_a_collected_mission_card():
    # "only the side that points up": a won Master card's up side joins the seat's collection and
    # the usual scoring counts its icons under both readings of identity_cards (audit, row 38)
    state = seated("The Heir", "The Pilot", "The Hothead")
    game = state.game
    master = next(c for c in game.master_cards if any(game.net[c][0]))
    before, greens, _ = state.resource_counts(0)
    state.give_card(0, master, 0)
    after, greens_after, _ = state.resource_counts(0)
    assert [a - b for a, b in zip(after, before)] == list(game.net[master][0])
    assert greens_after == greens + 1
    assert state.resource_counts(0, missions_only=True) == (before, greens, 0)


@pytest.mark.parametrize("identity_cards, score", [("missions", 4), ("all", 2)])
def test_a_secret_identity_reads_collected_mission_cards_only(identity_cards, score):
    # Rulebook, Secret Identities: "When a secret identity talks about icons showing on a card, it's
    # always about a collected Mission Card".  The Ghost (reputation worth -1) holding only master-01
    # green side up (gold, reputation, intelligence): the usual score, 3 + 1 doubled = 4; reading the
    # Master card's icons too (identity_cards: all, the engine's count before) makes its reputation
    # worth -1: 2.
    state = seated("The Heir", "The Pilot", "The Hothead", identity_cards=identity_cards)  # seat 2 is The Ghost
    game = state.game
    assert game.secret_names[state.secret_id[2]] == "The Ghost"
    for card in list(state.collected[2]):
        state.collected[2].remove(card)
    state.give_card(2, game.card("master-01"), 0)
    assert state.score(2) == score


def test_identity_cards_defaults_to_the_rulebooks_sentence():
    from deckpress.rules.core.registry import load

    assert load("maybe-missions", "identities").params["identity_cards"] == "missions"


def test_tied_scores_are_a_shared_win():
    # the rulebook names no tie-break ("The player with the highest score wins"): every seat with
    # the highest score wins (game.yaml, Ties; audit, row 8)
    from deckpress.rules.core.game import TERMINAL

    state = start(mm(players=3))
    state.current = TERMINAL  # nobody has collected anything: 0 points each
    assert state.returns() == [0.0, 0.0, 0.0] and state.winners() == [0, 1, 2]

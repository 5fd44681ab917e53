"""Mission Emission base game with the publisher's "Set collection" variant (parameter
``set_collection``, ruleset ``set-collection``): one test per sentence of the rule, each citing it.

Source: nightingame.com, "Mission Emission Rules | With Set Collection", alternative rule proposed
by Sidhant Chand (https://www.nightingame.com/post/mission-emission-rules-with-set-collection),
cited below as "set collection" with the rule's sentences in our words.  The engine's readings of what the rule leaves open are listed
in docs/game-logs.md ("The set-collection variant").

Colours used (states.yaml ``colour``): Forest Goa, Meghalaya, Mizoram; Smoke Sikkim, Jharkhand,
Delhi; Crowd Arunachal Pradesh, Andaman & Nicobar Islands.  Forest numbers: Arunachal Pradesh 80,
Andaman & Nicobar Islands 81, Mizoram 90, Goa 60, Kerala 46, Karnataka 19, Bihar 7; Smoke Delhi 217,
Punjab 175.
"""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest

import tests.rules.test_conformance as conformance
import tests.rules.test_golden as golden
from deckpress.rules.core.bots import make_bot
from deckpress.rules.core.errors import IllegalAction, ParameterError, Reason
from deckpress.rules.core.game import CHANCE, TERMINAL
from deckpress.rules.core.simulate import game_rng
from deckpress.rules.mission_emission import MissionEmissionGame
from deckpress.rules.mission_emission.base import greedy
from deckpress.rules.mission_emission.common import GIVE, KEEP, MAX_SEATS, MISSION
from tests.rules.helpers import content, deal, do, me, names

FOREST = 0
HANDS = (["Karnataka", "Delhi", "Assam"], ["Mizoram", "Punjab", "Goa"], ["Kerala", "Bihar", "Sikkim"])
DOCS = golden.GOLDEN.parents[2] / "docs" / "game-logs.md"


def set_game(**params):
    """A three-seat set-collection game after the deal of :data:`HANDS` (seat 0 chooses first)."""
    game = me(players=3, set_collection=True, **params)
    state = game.new_state()
    deal(state, *HANDS)
    return game, state


def with_set_pile(state, seat: int, *cards: str) -> None:
    """A hand-built position: move the named cards from the draw deck to ``seat``'s set pile."""
    for name in cards:
        card = state.game.card(name)
        state.deck.remove(card)
        state.set_piles[seat].append(card)
    assert state.check_invariants() == []


def won_earlier(state, mission: int, count: int, seat: int) -> None:
    """A hand-built position: ``seat`` won the top ``count`` point cards of ``mission`` earlier."""
    for _ in range(count):
        state._pocket(seat, state._take_point(mission))
    assert state.check_invariants() == []


def smoke_set_game():
    """Three seats; seat 2 holds Delhi and has two Smoke-coloured cards in its set pile."""
    game = me(players=3, set_collection=True)
    state = game.new_state()
    deal(state, ["Karnataka", "Assam", "Kerala"], ["Goa", "Punjab", "Bihar"], ["Delhi", "Mizoram", "Tripura"])
    with_set_pile(state, 2, "Sikkim", "Jharkhand")
    return game, state


def illegal(state, event) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        do(state, event)
    return caught.value


# -- the rule, sentence by sentence ---------------------------------------------------------------
def test_set_a_seat_may_keep_its_card_in_a_set_pile_instead_of_playing_it():
    # Set collection: in its turn a seat may keep its state card in a set pile in front of it instead
    # of playing it to the play pile.  Mizoram (Forest 90), kept, does not compete.
    game, state = set_game()
    do(state, {"seat": 0, "mission": "Forest"}, {"seat": 0, "play": "Karnataka"})
    hand = sorted(game.card(n) for n in HANDS[1])
    assert state.legal_actions() == hand + [KEEP + c for c in hand]
    do(state, {"seat": 1, "keep": "Mizoram"}, {"seat": 2, "play": "Kerala"})
    assert names(game, state.set_piles[1]) == ["Mizoram"] and names(game, state.play_pile) == ["Karnataka", "Kerala"]
    assert names(game, state.pockets[2]) == ["Forest +3"]  # Kerala 46 beats Karnataka 19
    assert state.view(0).to_dict()["set_piles"] == [[], ["Mizoram"], []]  # face-up in front of seat 1


def test_set_three_cards_of_a_colour_take_a_point_card_of_that_colour():
    # Set collection: three cards of one colour in a set pile earn a point card of that colour.
    # Goa, Meghalaya and Mizoram are Forest-coloured.
    game, state = set_game()
    with_set_pile(state, 1, "Meghalaya", "Nagaland")
    do(state, {"seat": 0, "mission": "Smoke"}, {"seat": 0, "play": "Delhi"}, {"seat": 1, "keep": "Mizoram"})
    assert names(game, state.pockets[1]) == ["Forest +3"] and state.scores[1] == 3
    assert state.view(2).top_points[FOREST] == 5


def test_set_pile_holds_one_colour_and_another_colour_discards_it_out_of_the_round():
    # Set collection: a set pile holds one colour at a time; keeping a card of another colour
    # discards the cards there to the play pile, and they do not compete in the round.  The
    # Crowd-coloured Arunachal Pradesh (Forest 80) and Andaman & Nicobar Islands (81) would beat
    # every card played; discarded, they do not compete.
    game, state = set_game()
    with_set_pile(state, 1, "Arunachal Pradesh", "Andaman & Nicobar Islands")
    do(state, {"seat": 0, "mission": "Forest"}, {"seat": 0, "play": "Karnataka"}, {"seat": 1, "keep": "Mizoram"})
    assert names(game, state.set_piles[1]) == ["Mizoram"]
    assert names(game, state.play_pile) == ["Karnataka", "Arunachal Pradesh", "Andaman & Nicobar Islands"]
    do(state, {"seat": 2, "play": "Bihar"})
    assert names(game, state.pockets[0]) == ["Forest +3"]  # Karnataka 19 beats Bihar 7
    assert state.tally()["set cards discarded for another colour"] == 2


def test_set_the_other_players_play_as_usual_and_the_only_card_played_wins():
    # Set collection: the other seats play the round as usual, and the highest card played of the
    # chosen mission -- or the only one -- takes its point card.
    game, state = set_game()
    do(state, {"seat": 0, "mission": "Forest"}, {"seat": 0, "play": "Karnataka"},
       {"seat": 1, "keep": "Mizoram"}, {"seat": 2, "keep": "Kerala"})
    assert names(game, state.pockets[0]) == ["Forest +3"] and state.played == [game.card("Karnataka")]


def test_set_the_first_player_of_a_round_cannot_keep():
    # Set collection: the round's first player may not keep a card; it chooses the mission and plays
    # a state card to the play pile.
    game, state = set_game()
    do(state, {"seat": 0, "mission": "Forest"})
    assert state.legal_actions() == sorted(game.card(n) for n in HANDS[0])
    error = illegal(state, {"seat": 0, "keep": "Karnataka"})
    assert error.reason == Reason.WRONG_PHASE
    assert error.message == ("seat 0 chose this round's mission: the first player of a round plays a card to the play pile "
                             "and cannot keep one in its set pile")
    assert state.due() == "seat 0 to play a card for Forest"


def test_set_the_third_card_discards_the_set_and_takes_the_top_point_card_at_once():
    # Set collection: the third card of a colour sends the three cards to the play pile at once, and
    # the seat takes the top point card of that colour's pile right away, before the round ends:
    # seat 1 has Forest +3 before seat 2 plays.
    game, state = set_game()
    with_set_pile(state, 1, "Meghalaya", "Nagaland")
    do(state, {"seat": 0, "mission": "Smoke"}, {"seat": 0, "play": "Delhi"}, {"seat": 1, "keep": "Mizoram"})
    assert state.current == 2 and state.set_piles[1] == []
    assert names(game, state.play_pile) == ["Delhi", "Meghalaya", "Nagaland", "Mizoram"]
    assert names(game, state.pockets[1]) == ["Forest +3"]
    do(state, {"seat": 2, "play": "Kerala"})
    assert names(game, state.pockets[0]) == ["Smoke -1"]  # the round goes on: Delhi 217 takes Smoke
    assert state.tally()["sets completed"] == 1


def test_set_of_a_finished_pile_takes_no_point_card():
    # Set collection: a set whose colour's pile is already finished earns no point card.  The three
    # cards are discarded all the same.
    game, state = set_game()
    won_earlier(state, FOREST, 3, seat=2)
    with_set_pile(state, 1, "Meghalaya", "Nagaland")
    do(state, {"seat": 0, "mission": "Smoke"}, {"seat": 0, "play": "Delhi"}, {"seat": 1, "keep": "Mizoram"})
    assert state.pockets[1] == [] and state.set_piles[1] == [] and state.current == 2
    assert state.tally()["sets completed after their pile was finished"] == 1


def test_set_finishing_the_chosen_pile_leaves_the_round_winner_without_a_point_card():
    # Set collection: when a set finishes the pile of the mission chosen for the round, the round's
    # winner gets no point card.
    game, state = set_game()
    won_earlier(state, FOREST, 2, seat=0)
    with_set_pile(state, 1, "Meghalaya", "Nagaland")
    do(state, {"seat": 0, "mission": "Forest"}, {"seat": 0, "play": "Karnataka"}, {"seat": 1, "keep": "Mizoram"})
    assert names(game, state.pockets[1]) == ["Forest +7"] and state.piles[FOREST] == []
    assert state.due() == "seat 2 to play a card for Forest or keep one in its set pile"
    do(state, {"seat": 2, "play": "Kerala"})  # Kerala 46 beats Karnataka 19, but the pile is finished
    assert state.pockets[2] == [] and state.current == CHANCE


def test_set_taking_the_chosen_piles_top_card_leaves_the_next_one_to_the_round_winner():
    # Reading (docs/game-logs.md): the rule takes the round's point card away only when the set
    # finished the pile; otherwise the winner takes the card now on top.
    game, state = set_game()
    with_set_pile(state, 1, "Meghalaya", "Nagaland")
    do(state, {"seat": 0, "mission": "Forest"}, {"seat": 0, "play": "Karnataka"}, {"seat": 1, "keep": "Mizoram"},
       {"seat": 2, "play": "Kerala"})
    assert names(game, state.pockets[1]) == ["Forest +3"] and names(game, state.pockets[2]) == ["Forest +5"]


def test_set_positive_point_card_goes_to_the_collectors_pocket():
    # Set collection: a positive (Forest, Energy, Water) point card earned by a set goes to the
    # collector's pocket.
    game, state = set_game()
    with_set_pile(state, 1, "Meghalaya", "Nagaland")
    do(state, {"seat": 0, "mission": "Smoke"}, {"seat": 0, "play": "Delhi"}, {"seat": 1, "keep": "Mizoram"})
    assert state.returns() == [0, 3, 0] and state.view(1).giving == -1


def test_set_negative_point_card_is_given_to_an_opponent_of_the_collectors_choice():
    # Set collection: a negative (Smoke, Crowd, Garbage) point card earned by a set must at once go
    # to an opponent the collector chooses, into that opponent's pocket.  Sikkim, Jharkhand and
    # Delhi are Smoke-coloured.
    game, state = smoke_set_game()
    do(state, {"seat": 0, "mission": "Forest"}, {"seat": 0, "play": "Karnataka"}, {"seat": 1, "play": "Goa"},
       {"seat": 2, "keep": "Delhi"})
    assert state.due() == "seat 2 to give Smoke -1 to an opponent" and state.view(0).to_dict()["giving"] == "Smoke -1"
    assert [state.action_to_event(a, 2) for a in state.legal_actions()] == [
        {"seat": 2, "give": "Smoke -1", "to": 0}, {"seat": 2, "give": "Smoke -1", "to": 1}]
    assert illegal(state, {"seat": 2, "give": "Smoke -1", "to": 2}).reason == Reason.UNKNOWN_ACTION
    assert illegal(state, {"seat": 2, "give": "Smoke -3", "to": 0}).message == "seat 2 gives Smoke -1, not Smoke -3"
    assert illegal(state, {"seat": 2, "play": "Mizoram"}).message == "seat 2 first gives Smoke -1 to an opponent"
    do(state, {"seat": 2, "give": "Smoke -1", "to": 0})
    assert names(game, state.pockets[0]) == ["Smoke -1"]
    assert names(game, state.pockets[1]) == ["Forest +3"]  # then the round ends: Goa 60 beats Karnataka 19
    assert state.returns() == [-1, 3, 0] and state.tally()["negative point cards given"] == 1


# -- the readings, the parameter, logs ----------------------------------------------------------
def test_set_finishing_the_last_pile_ends_the_game_after_the_round():
    # Reading (docs/game-logs.md), after the publisher's "Double Trouble" ruling: when the piles
    # that end the game are finished during a round, the round is played out, then the game ends.
    game, state = set_game(piles_to_end=1)
    won_earlier(state, FOREST, 2, seat=2)
    with_set_pile(state, 1, "Meghalaya", "Nagaland")
    do(state, {"seat": 0, "mission": "Smoke"}, {"seat": 0, "play": "Delhi"}, {"seat": 1, "keep": "Mizoram"})
    assert state.finished == 1 and state.current == 2
    do(state, {"seat": 2, "play": "Kerala"})
    assert state.current == TERMINAL and names(game, state.pockets[0]) == ["Smoke -1"]
    assert state.returns() == [-1, 7, 8] and state.winners() == [2]


def test_set_collection_is_off_by_default_and_its_actions_are_refused_there():
    game = me(players=3)
    assert game.params["set_collection"] is False
    state = game.new_state()
    deal(state, *HANDS)
    do(state, {"seat": 0, "mission": "Forest"}, {"seat": 0, "play": "Karnataka"})
    assert all(a < MISSION for a in state.legal_actions())
    error = illegal(state, {"seat": 1, "keep": "Mizoram"})
    assert error.reason == Reason.UNKNOWN_ACTION and "parameter set_collection" in error.message
    assert state.due() == "seat 1 to play a card for Forest" and "set_piles" not in state.view(1).to_dict()


def test_set_collection_ruleset_and_parameter_checks():
    ruleset = MissionEmissionGame.create(content(), "set-collection")
    assert ruleset.params["set_collection"] is True and ruleset.params["mode"] == "base"
    assert dict(ruleset.params) == dict(me(set_collection=True).params)
    with pytest.raises(ParameterError, match="changes the base game, not the kids game"):
        me(mode="kids", set_collection=True)
    # 6 seats x (5 in hand + 2 in a set pile) = 42 > 36 state cards: a draw could find no card
    with pytest.raises(ParameterError, match=r"6 players x \(5 cards in hand \+ 2 in a set pile\) is more than the 36"):
        me(players=6, hand_size=5, set_collection=True)
    me(players=6, hand_size=4, set_collection=True)  # 36: just enough


def test_a_fan_variant_file_switches_set_collection_on(tmp_path):
    # A variant that changes rules works through parameters the engine declares.
    from deckpress.generator.content.variant import load_variant

    path = tmp_path / "sets.yaml"
    path.write_text("extends: mission-emission\nname: Sets\nauthor: A fan\nversion: \"1.0\"\n"
                    "description: The publisher's set collection rule, three players.\n"
                    "parameters: {set_collection: true, players: 3}\n", "utf-8")
    variant, errors = load_variant(path)
    assert errors == []
    game = MissionEmissionGame.create(content(), variant.ruleset, variant.parameters)
    state = game.new_state()
    deal(state, *HANDS)
    do(state, {"seat": 0, "mission": "Forest"}, {"seat": 0, "play": "Karnataka"}, {"seat": 1, "keep": "Mizoram"})
    assert names(game, state.set_piles[1]) == ["Mizoram"]


def test_set_log_events_name_the_cards_and_are_checked():
    game, state = set_game()
    do(state, {"seat": 0, "mission": "Forest"}, {"seat": 0, "play": "Karnataka"})
    assert state.action_to_event(KEEP + game.card("Goa"), 1) == {"seat": 1, "keep": "Goa"}
    assert state.event_to_action({"seat": 1, "keep": "goa"}) == (1, KEEP + game.card("Goa"))
    cases = [({"seat": 1, "keep": "Goa", "pile": "Forest"}, Reason.MALFORMED_EVENT),
             ({"seat": 1, "keep": "Goaa"}, Reason.UNKNOWN_NAME),
             ({"seat": 1, "give": "Smoke -1"}, Reason.MALFORMED_EVENT),
             ({"seat": 1, "give": "Smoke -1", "to": 7}, Reason.NO_SUCH_SEAT),
             ({"seat": 1, "keep": "Delhi"}, Reason.NOT_IN_HAND),
             ({"seat": 1, "give": "Smoke -1", "to": 0}, Reason.WRONG_PHASE)]
    for event, reason in cases:
        assert illegal(state, event).reason == reason, event
    error = illegal(state, {"seat": 1, "pass": True})
    assert "{seat: N, keep: CARD} or {seat: N, give: POINT CARD, to: SEAT}" in error.message


def test_set_every_card_is_in_exactly_one_place_set_piles_included():
    game, state = set_game()
    with_set_pile(state, 1, "Meghalaya", "Nagaland")
    state.deck.append(game.card("Nagaland"))
    assert state.check_invariants() == ["Nagaland is in 2 places: the draw deck, seat 1's set pile"]
    state.deck.remove(game.card("Nagaland"))
    state.deck.remove(game.card("Jharkhand"))
    state.set_piles[1].append(game.card("Jharkhand"))
    assert state.check_invariants() == ["seat 1's set pile holds 3 cards of Forest, Smoke: expected fewer than 3 cards of one colour"]


def test_a_log_replayed_on_the_set_collection_variant_plays_by_its_rules(tmp_path, cli):
    # 'replay --content VARIANT': the variant's parameters (set_collection, players 4) are the
    # log's where its header names none, as at a table set up for the variant; a value the log
    # names itself is kept, and a warning says it differs from the variant's
    block = re.findall(r"```yaml\n(.*?)```", DOCS.read_text("utf-8"), re.S)[1]
    variant = DOCS.parents[1] / "content" / "variants" / "mission-emission-set-collection.yaml"
    path = tmp_path / "sets.yaml"
    path.write_text(block.replace("params: {players: 3, set_collection: true}", "params: {players: 3}"), "utf-8")
    assert cli("replay", path).exit_code == 1  # its keeps need the variant's rule
    result = cli("replay", path, "--content", variant)
    assert result.exit_code == 0, result.output
    assert "29 events, all legal" in result.stdout and "set_collection=true" in result.stdout
    assert "warning: the log plays players=3 where the variant says 4" in result.stderr


def test_replay_of_the_documented_set_collection_log(tmp_path, cli):
    # The hand-written log of docs/game-logs.md: keeps, a set pile discarded for another colour, a
    # completed Smoke set and its point card given to seat 0.
    block = re.findall(r"```yaml\n(.*?)```", DOCS.read_text("utf-8"), re.S)[1]
    assert "set_collection: true" in block
    path = tmp_path / "sets.yaml"
    path.write_text(block, "utf-8")
    result = cli("replay", path)
    assert result.exit_code == 0, result.output
    assert "29 events, all legal; the game is not over (a draw of a card to seat 0)" in result.stdout  # as the docs say
    assert "seat 0: 7" in result.stdout and "seat 1: 3" in result.stdout and "seat 2: 3" in result.stdout
    path.write_text(block.replace("{seat: 2, give: Smoke -1, to: 0}", "{seat: 2, give: Smoke -1, to: 2}"), "utf-8")
    result = cli("replay", path)
    assert result.exit_code == 1 and "event 29: action.unknown: seat 2 cannot keep Smoke -1" in result.stdout


# -- bots, simulation, golden files --------------------------------------------------------------
@pytest.mark.parametrize("players", range(2, 7))
def test_set_collection_games_between_greedy_seats_keep_every_invariant(players):
    # The conformance checks (tests/rules/test_conformance.py) through games where sets are often
    # completed (random seats rarely complete one): cards in one place each, scores from the
    # pockets, no hidden card in a view, the move bound.  At least three games, and on until a set
    # has been completed (two seats complete one in about one game in five).
    game = me(players=players, set_collection=True)
    bots = [make_bot(game.info.id, "greedy" if s % 2 == 0 else "random") for s in range(players)]
    counts: Counter = Counter()
    for index in range(12):
        if index >= 3 and counts["sets completed"]:
            break
        rng = game_rng(7, index)
        state = game.new_state()
        while state.current != TERMINAL:
            assert state.check_invariants() == []
            assert state.returns() == conformance.expected_returns(state)
            if state.current == CHANCE:
                action = state.sample_chance(rng.random())
            else:
                assert conformance.hidden_cards_shown(state, state.current) == []
                action = bots[state.current].act(state.view(state.current), state.legal_actions(), rng)
            state.apply(action)
            assert len(state.history) <= game.max_length()
        counts.update(state.tally())
    assert counts["sets completed"] > 0


def test_greedy_completes_a_set_with_a_card_it_cannot_win_with_and_gives_to_the_leader():
    # Water: Assam 37, Punjab 40; none of Delhi 21, Mizoram 1, Tripura 22 can win, and Delhi is
    # seat 2's third Smoke card.
    game, state = smoke_set_game()
    do(state, {"seat": 0, "mission": "Water"}, {"seat": 0, "play": "Assam"}, {"seat": 1, "play": "Punjab"})
    assert greedy(state.view(2), state.legal_actions()) == KEEP + game.card("Delhi")
    state.apply(KEEP + game.card("Delhi"))
    state.scores[:] = [1, 6, 0]  # seat 1 leads
    assert greedy(state.view(2), state.legal_actions()) == GIVE + game.card("Smoke -1") * MAX_SEATS + 1


def test_simulate_reports_sets_completed_and_no_game_is_cut_off(cli):
    result = cli("simulate", "mission-emission", "--ruleset", "set-collection", "--games", "200", "--bots", "greedy",
                 "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["params"]["set_collection"] is True and report["games"] == 200 and report["cut_off_by_move_bound"] == 0
    assert report["tallies"]["sets completed"] > 50
    assert any(m["name"] == "sets completed" for m in report["measures"])


def test_set_collection_golden_playthrough(monkeypatch):
    # tests/rules/test_golden.py's playthrough, with the set-collection ruleset: three greedy seats
    # and one finished pile ending the game keep the file small; seed 25 is a game with keeps,
    # discards, a completed set and a give.
    monkeypatch.setattr(golden, "me", lambda **params: me(set_collection=True, piles_to_end=1, **params))
    monkeypatch.setattr(golden, "BOTS", ("greedy",) * 3)
    monkeypatch.setattr(golden, "SEED", 25)
    path = golden.GOLDEN / "mission-emission-set-collection.txt"
    text = golden.playthrough("base", 3).replace("tests/rules/test_golden.py", "tests/rules/test_mission_emission_set_collection.py")
    if golden.os.environ.get("DECKPRESS_REGEN_GOLDEN") == "1":
        path.write_text(text, "utf-8")
    assert path.exists(), f"{path} is missing: run with DECKPRESS_REGEN_GOLDEN=1 to create it"
    assert text == path.read_text("utf-8"), f"{path.name} differs: review the change, then regenerate with DECKPRESS_REGEN_GOLDEN=1"
    assert len(text.encode()) < 60_000
    assert all(f", {kind}:" in text for kind in ("keep", "give")) and "seat 1's set pile" in text


@pytest.mark.parametrize("mode", sorted(golden.CASES))
def test_set_collection_off_leaves_the_recorded_playthroughs_unchanged(mode):
    # Round resolution and game end do not change when the parameter is off: every step of the
    # recorded golden playthroughs is reproduced; only the parameter line may list set_collection.
    recorded = (golden.GOLDEN / f"mission-emission-{mode}.txt").read_text("utf-8").splitlines()
    now = golden.playthrough(mode, golden.CASES[mode]).splitlines()
    assert [line for line in now if not line.startswith("params:")] == [line for line in recorded if not line.startswith("params:")]
    assert "set_collection: false" in next(line for line in now if line.startswith("params:"))

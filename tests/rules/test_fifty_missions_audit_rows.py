"""50 Missions: the end of the mission deck (docs/rules-audit.md, "## 50 Missions", rows 17 and 22,
left unpinned by tests/rules/test_fifty_missions.py).

The rulebook (50 Missions, Oya, 2020, English translation, "Flow") is silent on both: row 17 reads "replaced by
cards from the Mission pile" as "while the pile lasts; then the slot stays empty and play goes on",
row 22 ends the game once all 50 missions are accomplished (nothing is left to do).

Reaching the last missions by play would take a whole game, so each test sets up its table with the
setup's chance events (as a log writes them) and then fast-forwards the mission count: the other
missions are moved onto the Missions Accomplished pile, with the three medals they earned and the
one reshuffle past gold done, and ``check_invariants()`` confirms the state is sound.
"""
from __future__ import annotations

from deckpress.generator.content import load_game
from deckpress.rules.core.game import CHANCE
from deckpress.rules.fifty_missions import FiftyMissionsGame
from deckpress.rules.fifty_missions.state import SLOTS
from tests.rules.helpers import do
from tests.rules.test_fifty_missions import draw, play

_CONTENT = {}


def content():
    """The shipped 50 Missions content, loaded once."""
    if not _CONTENT:
        _CONTENT["fm"] = load_game("fifty-missions")
    return _CONTENT["fm"]


def late_game(missions, face_up, hands, mission_deck):
    """A two-seat game whose row shows ``missions`` over ``face_up``, the hands dealt, and only
    ``mission_deck`` left in the mission deck: every other mission is already accomplished.

    The setup is played through its chance events; then the missions drawn since are accounted
    for: accomplished, counted as drawn below the first row (so bronze, silver and gold, at 15, 19
    and 23, are won), and the one reshuffle past gold done (the covered cards are back in the deck,
    as they are here)."""
    game = FiftyMissionsGame.create(content(), None, {"players": len(hands)})
    state = game.new_state()
    do(state, {"chance": "mission", "cards": missions}, {"chance": "face-up", "cards": face_up},
       *({"chance": "deal", "seat": s, "cards": hand} for s, hand in enumerate(hands)))
    assert state.current == 0 and state.to_dict()["accomplished"] == []  # the row meets none of its missions yet
    keep = {game.mission(m) for m in [*missions, *mission_deck]}
    state.completed = [m for m in range(game.n_missions) if m not in keep]
    state.mission_deck = sorted(game.mission(m) for m in mission_deck)
    state.drawn = game.n_missions - SLOTS - len(mission_deck)
    state.medals = len(game.medal_ids)
    state.reshuffled = True
    assert state.check_invariants() == []
    assert state.to_dict()["medal"] == "Gold" and state.current == 0
    return game, state


def shown(state, seat: int) -> list[str | None]:
    """The missions above the face-up cards as ``seat`` sees them (None: an empty slot)."""
    return state.view(seat).to_dict()["missions"]


# -- row 17: "replaced by cards from the Mission pile" -- and when the pile is empty ---------------
def test_with_the_mission_deck_empty_an_accomplished_missions_slot_stays_empty_and_play_goes_on():
    # Flow of the game: "At any time, if one or more Missions are successful, they are discarded
    # [onto] the Missions Accomplished pile and replaced by cards from the Mission pile."  Silent
    # on an empty pile: nothing replaces the mission, its slot stays empty (-1), and play goes on
    # with the missions still showing ("Each player, in turn and during the whole game, must put
    # one of his cards ...").
    game, state = late_game(["total-16", "no-red", "two-sevens", "rising-row"],
                            ["red lighter 3", "blue binoculars 5", "yellow knife 7", "green compass 2"],
                            (["green compass 1", "red lighter 6", "yellow knife 2", "blue binoculars 6"],
                             ["red lighter 1", "blue binoculars 2", "yellow knife 4", "green compass 7"]),
                            mission_deck=[])
    assert state.view(0).to_dict()["mission deck size"] == 0 and len(state.completed) == 46

    play(state, 0, "green compass 1", 3)  # 3 + 5 + 7 + 1 = 16
    assert state.to_dict()["accomplished"][-1] == "total-16"
    # No mission is due to fill slot 0: the next chance event is seat 0's draw back to 4.
    assert state.due_chance_event() == {"chance": "draw", "seat": 0}
    assert state.view(0).missions[0] == -1
    assert shown(state, 1) == [None, "no-red", "two-sevens", "rising-row"]
    draw(state, "yellow knife 1")

    # Play goes on: seat 1 is due and may cover a face-up card; the game is not over.
    assert not state.is_terminal() and state.current == 1 and state.legal_actions(1)
    assert state.returns() == [47.0, 47.0] and state.winners() == []

    # The remaining missions can still be accomplished: green 7 on green 1 shows two 7s.
    play(state, 1, "green compass 7", 3)
    assert state.to_dict()["accomplished"][-1] == "two-sevens"
    assert state.due_chance_event() == {"chance": "draw", "seat": 1}
    assert shown(state, 0) == [None, "no-red", None, "rising-row"]
    draw(state, "yellow knife 3")
    assert not state.is_terminal() and state.current == 0 and state.legal_actions(0)
    assert state.returns() == [48.0, 48.0] and state.outcome() == {"level": "Gold"}
    assert state.check_invariants() == []


def test_when_the_mission_deck_runs_out_during_the_replacements_the_later_slot_stays_empty():
    # Flow of the game: missions "are ... replaced by cards from the Mission pile": two missions
    # accomplished at once with one card left in the pile -- the first emptied slot (left to right)
    # gets it, the other stays empty, and play goes on.
    game, state = late_game(["total-16", "all-odd", "two-sevens", "rising-row"],
                            ["red lighter 3", "blue binoculars 5", "yellow knife 7", "green compass 2"],
                            (["green compass 1", "red lighter 6", "yellow knife 2", "blue binoculars 6"],
                             ["red lighter 1", "blue binoculars 2", "yellow knife 4", "green compass 7"]),
                            mission_deck=["one-colour"])
    play(state, 0, "green compass 1", 3)  # 3 + 5 + 7 + 1 = 16, all odd
    assert state.to_dict()["accomplished"][-2:] == ["total-16", "all-odd"]
    assert state.due_chance_event() == {"chance": "mission"}
    draw(state, "one-colour")  # the last card of the mission deck
    assert state.due_chance_event() == {"chance": "draw", "seat": 0}  # no second mission is due
    assert shown(state, 1) == ["one-colour", None, "two-sevens", "rising-row"]
    assert state.view(1).to_dict()["mission deck size"] == 0
    draw(state, "yellow knife 1")
    assert not state.is_terminal() and state.current == 1 and state.legal_actions(1)
    assert state.returns() == [47.0, 47.0]  # 45 before, 2 now
    assert state.check_invariants() == []


# -- row 22: the end when all 50 missions are accomplished ----------------------------------------
def test_the_game_is_over_once_all_50_missions_are_accomplished():
    # End of the game: "If the Gold Medal is reached, the game continues to try to complete the 50
    # Missions ... At the end of the game, the remaining Missions will be counted to see how close
    # you were to completing the 50 Missions"; "The level reached is that of the last medal card
    # won."  With none remaining there is nothing left to try: the game is over at once, though
    # seat 1 could still cover a face-up card (its yellow 2 covers the yellow 5), and the team has
    # won with the Gold medal.
    game, state = late_game(["all-five-or-more", "total-24", "total-22-or-more", "green-sum-6"],
                            ["yellow knife 5", "red lighter 7", "blue binoculars 6", "green compass 1"],
                            (["green compass 6", "red lighter 1", "blue binoculars 2", "yellow knife 3"],
                             ["yellow knife 2", "red lighter 4", "blue binoculars 4", "green compass 4"]),
                            mission_deck=["all-high-or-all-low"])
    assert len(state.completed) == 45

    play(state, 0, "green compass 6", 3)  # 5, 7, 6, 6: the four missions on display are met
    assert state.to_dict()["accomplished"][-4:] == ["all-five-or-more", "total-24", "total-22-or-more", "green-sum-6"]
    assert state.current == CHANCE and state.due_chance_event() == {"chance": "mission"} and not state.is_terminal()
    draw(state, "all-high-or-all-low")  # the 50th mission, met the moment it is drawn (all 5 or more)

    assert state.is_terminal() and state.due() == "nothing: the game is over"
    assert state.to_dict()["missions completed"] == 50 == game.n_missions
    assert shown(state, 0) == [None] * 4 and state.view(0).to_dict()["mission deck size"] == 0
    assert all(state.legal_actions(s) == [] for s in (0, 1))
    assert "yellow knife 2" in state.view(1).to_dict()["hand"]  # not stuck: the missions ran out
    assert state.returns() == [50.0, 50.0] and game.score_range() == (0.0, 50.0)
    assert state.winners() == [0, 1] and state.outcome() == {"level": "Gold"}
    assert state.tally()["all missions completed"] == 1
    assert state.check_invariants() == []

"""50 Missions rules engine: one test per rule of the rulebook (50 Missions, Oya, 2020: the French
original and its English translation), named after the rule and
citing its section; the variants (beginners, super pros, 50 Crazy Missions on the core's ANY
marker); observations and bots; random-simulation invariants; the cooperative simulation report;
missions read from the content; golden playthroughs; the hand-written log.

Missions used (content/fifty-missions/missions.yaml): total-16 "the 4 cards add up to exactly 16",
all-odd, total-24, two-sevens "at least 2 cards of value 7", a-one-and-a-seven, all-below-four "all
4 values are 3 or less", total-10-or-less, all-high-or-all-low "all 5 or more, or all 3 or less",
one-colour, exactly-three-green, no-red, rising-row, all-five-or-more, exactly-three-blue.
"""
from __future__ import annotations

import json
import os
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import edit

from deckpress.generator.content import load_game
from deckpress.rules.core.bots import make_bot
from deckpress.rules.core.errors import IllegalAction, ParameterError, Reason
from deckpress.rules.core.game import ANY, CHANCE, TERMINAL
from deckpress.rules.core.log import format_event, record
from deckpress.rules.core.registry import load
from deckpress.rules.core.replay import replay
from deckpress.rules.core.simulate import (
    SimulationSpec,
    Tally,
    game_rng,
    play_game,
    simulate,
)
from deckpress.rules.fifty_missions import FiftyMissionsGame
from deckpress.rules.fifty_missions.state import SLOTS
from tests.rules.helpers import do

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "content" / "fifty-missions" / "logs" / "example.yaml"
BROKEN = Path(__file__).resolve().parent / "logs" / "fifty-missions-wrong-cover.yaml"
GOLDEN = Path(__file__).resolve().parent / "golden"
_CONTENT = {}

# A two-seat start where no mission is met (the row adds up to 17).
MISSIONS = ["total-16", "no-red", "two-sevens", "rising-row"]
FACE_UP = ["red lighter 3", "blue binoculars 5", "yellow knife 7", "green compass 2"]
HANDS = (["green compass 1", "red lighter 6", "yellow knife 2", "blue binoculars 6"],
         ["red lighter 1", "blue binoculars 2", "yellow knife 4", "green compass 7"])
# A start where seat 0's blue 2 makes the row red 1, red 2, blue 1, blue 2 (all 3 or less, 6 in all)
# and seat 1, holding only yellow and green 5s and 6s, cannot cover any of those cards.
LOW_MISSIONS = ["all-below-four", "exactly-three-green", "total-24", "two-sevens"]
LOW_FACE_UP = ["red lighter 1", "red lighter 2", "blue binoculars 1", "blue binoculars 5"]
LOW_HANDS = (["blue binoculars 2", "red lighter 3", "red lighter 4", "blue binoculars 3"],
             ["yellow knife 5", "yellow knife 6", "green compass 5", "green compass 6"])
# A row nobody holding only yellow and green 5s and 6s can cover, and missions it does not meet.
END_MISSIONS = ["total-24", "two-sevens", "all-five-or-more", "exactly-three-blue"]
END_FACE_UP = ["red lighter 1", "red lighter 2", "blue binoculars 1", "blue binoculars 2"]


def content():
    """The shipped 50 Missions content, loaded once."""
    if not _CONTENT:
        _CONTENT["fm"] = load_game("fifty-missions")
    return _CONTENT["fm"]


def fm(ruleset: str | None = None, **params) -> FiftyMissionsGame:
    """A 50 Missions game of a ruleset with these parameters."""
    return FiftyMissionsGame.create(content(), ruleset, params)


def setup(state, missions, face_up, *hands) -> None:
    """The setup's chance events, in the rulebook's order: missions, face-up cards, hands."""
    do(state, {"chance": "mission", "cards": missions}, {"chance": "face-up", "cards": face_up},
       *({"chance": "deal", "seat": s, "cards": hand} for s, hand in enumerate(hands)))


def started(ruleset=None, missions=MISSIONS, face_up=FACE_UP, hands=HANDS, **params):
    game = fm(ruleset, players=len(hands), **params)
    state = game.new_state()
    setup(state, missions, face_up, *hands)
    return game, state


def play(state, seat: int, card: str, slot: int) -> None:
    do(state, {"seat": seat, "play": card, "slot": slot})


def draw(state, *cards: str) -> None:
    """Each named card for the chance event due (a mission id for a mission draw)."""
    for card in cards:
        do(state, {**state.due_chance_event(), "card": card})


def illegal(state, event) -> IllegalAction:
    before = state.to_dict()
    with pytest.raises(IllegalAction) as caught:
        do(state, event)
    assert state.to_dict() == before  # an illegal action changes nothing
    return caught.value


def plays(state, seat: int) -> list[tuple[str, int]]:
    names = state.game.card_names
    return [(names[a // SLOTS], a % SLOTS) for a in state.legal_actions(seat)]


def random_states(game, seed: int, bots=None):
    """Every state of one seeded game (random choices, or ``bots``), before each action."""
    rng = random.Random(seed)
    state = game.new_state()
    while state.current != TERMINAL:
        yield state
        if state.current == CHANCE:
            state.apply(state.sample_chance(rng.random()))
            continue
        seat = state.current if state.current >= 0 else rng.choice(state.acting_seats())
        legal = state.legal_actions(seat)
        action = bots[seat].act(state.view(seat), legal, rng) if bots else rng.choice(legal)
        state.apply(action, seat)
    yield state


# -- Preparation --------------------------------------------------------------------------------
def test_setup_four_missions_then_four_face_up_cards_then_hands_of_four():
    # Preparation: "Draw the first 4 Missions ... Place the first 4 cards of this deck face up under
    # the 4 Missions, then deal 4 cards to each player."
    game = fm(players=2)
    state = game.new_state()
    due = []
    while state.current == CHANCE:
        due.append(format_event(state.due_chance_event()))
        state.apply(state.sample_chance(0.5))
    assert due == ["{chance: mission}"] * 4 + ["{chance: face-up}"] * 4 + ["{chance: deal, seat: 0}"] * 4 + ["{chance: deal, seat: 1}"] * 4
    _, state = started()
    d = state.to_dict()
    assert d["missions"] == MISSIONS and d["face up"] == FACE_UP
    assert d["hands"] == [["red lighter 6", "blue binoculars 6", "yellow knife 2", "green compass 1"],
                          ["red lighter 1", "blue binoculars 2", "yellow knife 4", "green compass 7"]]  # by symbol, then value
    assert len(d["deck"]) == 56 - 4 - 8 and len(d["mission deck"]) == 50 - 4 and d["missions completed"] == 0


def test_seat_0_starts_the_first_game():
    # Preparation: "The Oya (the starting player) is the last player to complete a mission": a first
    # game has none, so seat 0 starts.
    _, state = started()
    assert state.current == 0 and state.due() == "seat 0 to cover a face-up card"


def test_the_oya_of_a_following_game_plays_first():
    # Preparation: the Oya, "the last player to complete a mission", starts: in a following game
    # the table names that seat (parameter oya); play then goes on clockwise from it
    _, state = started(oya=1)
    assert state.current == 1 and state.due() == "seat 1 to cover a face-up card"
    play(state, 1, "red lighter 1", 0)
    while state.current == CHANCE:
        state.apply(state.sample_chance(0.5))
    assert state.current == 0  # clockwise after seat 1 of 2: seat 0


# -- Flow of the game ---------------------------------------------------------------------------
def test_a_card_covers_one_of_the_same_symbol_or_the_same_value():
    # Flow of the game, IMPORTANT: "the card played must be either the same symbol or the same
    # value as the one covered".
    _, state = started()
    assert plays(state, 0) == [("red lighter 6", 0), ("blue binoculars 6", 1), ("yellow knife 2", 2),
                               ("yellow knife 2", 3), ("green compass 1", 3)]
    error = illegal(state, {"seat": 0, "play": "red lighter 6", "slot": 1})
    assert error.reason == Reason.WRONG_PILE
    assert error.message == ("red lighter 6 cannot cover blue binoculars 5 (slot 1): a card covers one of the same symbol "
                             "or the same value")
    assert illegal(state, {"seat": 0, "play": "red lighter 1", "slot": 0}).reason == Reason.NOT_IN_HAND
    assert illegal(state, {"seat": 1, "play": "red lighter 1", "slot": 0}).reason == Reason.NOT_YOUR_TURN


def test_after_a_play_the_seat_draws_back_to_four_and_the_next_seat_plays():
    # Flow of the game: "Then he draws to have 4 cards in his hand again"; each player in turn.
    _, state = started()
    play(state, 0, "blue binoculars 6", 1)
    assert state.due_chance_event() == {"chance": "draw", "seat": 0}
    draw(state, "yellow knife 5")
    assert state.current == 1 and len(state.hands[0]) == 4 and state.to_dict()["covered"][1] == ["blue binoculars 5"]


def test_hands_are_full_while_the_deck_lasts():
    # Flow of the game: draw back to 4 "if the deck is not exhausted".
    game = fm(players=4)
    seen_short = False
    for state in random_states(game, seed=4):
        if state.current >= 0:
            sizes = [len(h) for h in state.hands]
            if state.deck:
                assert sizes == [4] * 4
            seen_short |= min(sizes) < 4
    assert seen_short  # the deck ran out and hands shrank


def test_met_missions_are_accomplished_and_replaced_at_once():
    # Flow of the game: "At any time, if one or more Missions are successful, they are discarded ...
    # and replaced by cards from the Mission pile" -- a replacement met at once goes too.
    _, state = started()
    play(state, 0, "green compass 1", 3)  # 3 + 5 + 7 + 1 = 16
    assert state.to_dict()["accomplished"] == ["total-16"] and state.due_chance_event() == {"chance": "mission"}
    draw(state, "all-odd")  # 3, 5, 7, 1: met the moment it is drawn
    assert state.to_dict()["accomplished"] == ["total-16", "all-odd"] and state.due_chance_event() == {"chance": "mission"}
    draw(state, "total-24")
    assert state.to_dict()["missions"] == ["total-24", "no-red", "two-sevens", "rising-row"]
    assert state.due_chance_event() == {"chance": "draw", "seat": 0}
    assert state.returns() == [2.0, 2.0]


def test_missions_met_by_the_first_face_up_cards_are_accomplished_before_the_first_play():
    # Flow of the game: "at any time": the setup's face-up cards can already meet a mission.
    _, state = started(missions=["four-colours", "no-red", "two-sevens", "rising-row"])
    assert state.to_dict()["accomplished"] == ["four-colours"] and state.due_chance_event() == {"chance": "mission"}


def test_several_missions_met_by_one_play_are_all_accomplished():
    _, state = started(missions=["total-16", "all-odd", "two-sevens", "rising-row"])
    play(state, 0, "green compass 1", 3)
    assert state.to_dict()["accomplished"] == ["total-16", "all-odd"]
    draw(state, "total-24", "one-colour")
    assert state.to_dict()["missions"] == ["total-24", "one-colour", "two-sevens", "rising-row"]


# -- medals and the end -------------------------------------------------------------------------
def gold_in_one_play(**params):
    """With medals after 0, 1 and 2 mission cards, seat 0's play accomplishes all-below-four and the
    two missions drawn next: bronze, silver and gold in one turn."""
    game, state = started(missions=LOW_MISSIONS, face_up=LOW_FACE_UP, hands=LOW_HANDS, medal_places=[0, 1, 2], **params)
    play(state, 0, "blue binoculars 2", 3)
    levels = [state.to_dict()["medal"]]
    for mission in ("total-10-or-less", "all-high-or-all-low", "one-colour"):
        draw(state, mission)
        levels.append(state.to_dict()["medal"])
    return game, state, levels


def test_a_medal_drawn_from_the_mission_deck_is_won():
    # Preparation: medals slid into the mission deck; End of the game: "The level reached is that
    # of the last medal card won."  A medal is turned when a replacement is drawn past its place.
    _, state, levels = gold_in_one_play()
    assert levels == ["Bronze", "Silver", "Gold", "Gold"]
    assert state.to_dict()["accomplished"] == ["all-below-four", "total-10-or-less", "all-high-or-all-low"]
    assert state.winners() == []  # not before the end


def test_the_shipped_medals_come_with_the_16th_20th_and_24th_mission():
    # Preparation: bronze after 15 mission cards, silver 4 further, gold 4 further (medals.yaml).
    game = fm(players=3)
    assert game.medal_places == [15, 19, 23]
    bots = [make_bot(game.info.id, "greedy")] * 3
    reached = []
    for index in range(8):
        state = play_game(game, bots, game_rng(21, index))[0]
        done = len(state.completed)
        assert state.medals == sum(done > p for p in (15, 19, 23)), (done, state.medals)
        reached.append(state.medals)
    assert max(reached) >= 1 and min(reached) < 3  # both sides of a medal were seen


def test_the_game_ends_when_the_seat_to_play_cannot_play():
    # End of the game: "The game is over as soon as a player cannot play a card (he has no cards
    # left in his hand or none of his cards in his hand can be placed)."
    _, state = started(missions=END_MISSIONS, face_up=END_FACE_UP, hands=LOW_HANDS)
    play(state, 0, "red lighter 3", 0)
    draw(state, "red lighter 5")
    assert state.is_terminal() and state.due() == "nothing: the game is over"
    assert all(state.legal_actions(s) == [] for s in (0, 1))
    assert state.returns() == [0.0, 0.0] and state.winners() == []  # no medal: the team has not won
    assert illegal(state, {"seat": 1, "play": "yellow knife 5", "slot": 0}).reason == Reason.GAME_OVER


def test_past_gold_the_covered_cards_make_a_new_deck_and_hands_refill():
    # End of the game: "If the Gold Medal is reached ... all cards under the 4 exposed Symbol cards
    # are collected and shuffled with any remaining deck ... Each player can then complete their
    # hand to 4 cards and the game continues."  Default reading: at the moment gold is won.
    game, state, _ = gold_in_one_play()
    assert state.due_chance_event() == {"chance": "reshuffle"}
    deck = len(state.deck)
    do(state, {"chance": "reshuffle"})
    assert len(state.deck) == deck + 1 and "blue binoculars 5" in state.to_dict()["deck"]  # the one covered card
    assert state.to_dict()["covered"] == [[], [], [], []]
    assert state.due_chance_event() == {"chance": "draw", "seat": 0}  # clockwise from the seat that played
    draw(state, "green compass 1")
    assert state.is_terminal()  # seat 1 still cannot cover red 1, red 2, blue 1 or blue 2
    assert state.returns() == [3.0, 3.0] and state.winners() == [0, 1] and state.tally()["reshuffles"] == 1


@pytest.mark.parametrize("game_end, over", [("seat-due", False), ("any-seat", True)])
def test_a_stuck_seat_not_due_ends_the_game_only_when_read_literally(game_end, over):
    # End of the game: "The game is over as soon as a player cannot play a card".  game_end:
    # seat-due (the default) ends it when the seat to play is stuck; any-seat, read literally, as
    # soon as any seat is.  Seat 2 holds nothing that covers a face-up card; seats 0 and 1 can play.
    _, state = started(missions=END_MISSIONS, face_up=END_FACE_UP, game_end=game_end,
                       hands=(["red lighter 3", "red lighter 4", "blue binoculars 3", "blue binoculars 4"],
                              ["red lighter 5", "yellow knife 1", "green compass 7", "yellow knife 2"], LOW_HANDS[1]))
    assert not state.can_play(2) and state.can_play(0) and state.can_play(1)
    assert state.is_terminal() == over


def test_the_reshuffle_past_gold_may_instead_wait_until_the_team_is_stuck():
    # The rulebook does not say when: after_gold=reshuffle-when-stuck reshuffles only when the seat
    # to play cannot play.  Seat 1 holds 4 cards that still cannot cover anything: the game ends.
    _, state, _ = gold_in_one_play(after_gold="reshuffle-when-stuck")
    draw(state, "green compass 1")  # seat 0 draws back to 4; no reshuffle yet
    assert state.due_chance_event() == {"chance": "reshuffle"} and not state.reshuffled
    do(state, {"chance": "reshuffle"})
    assert state.is_terminal() and state.tally()["reshuffles"] == 1


def test_every_seat_shares_the_team_result():
    # Cooperative: all seats win or lose together; the result is the missions accomplished.
    game = fm(players=3)
    state = play_game(game, [make_bot(game.info.id, "random")] * 3, game_rng(3, 0))[0]
    assert state.returns() == [float(len(state.completed))] * 3
    assert state.winners() in ([], [0, 1, 2]) and bool(state.winners()) == (state.medals > 0)
    assert game.score_range() == (0.0, 50.0)


# -- 50 Crazy Missions and the core's ANY marker ------------------------------------------------
def test_crazy_any_seat_with_a_playable_card_may_play():
    # 50 Crazy Missions: "there is no more order of play: whoever wants to play a card, plays his card!"
    game, state = started("crazy", hands=(HANDS[0], HANDS[1], LOW_HANDS[1]))
    assert state.current == ANY and state.acting_seats() == (0, 1, 2)
    do(state, {"seat": 1, "play": "green compass 7", "slot": 2})  # seat 1 first: no turn order
    draw(state, "blue binoculars 7")
    assert state.current == ANY
    _, stuck = started("crazy", missions=END_MISSIONS, face_up=END_FACE_UP,
                       hands=(["red lighter 3", "red lighter 4", "blue binoculars 3", "blue binoculars 4"],
                              ["red lighter 5", "yellow knife 1", "green compass 7", "yellow knife 2"], LOW_HANDS[1]))
    assert stuck.acting_seats() == (0, 1)  # seat 2 cannot cover anything
    error = illegal(stuck, {"seat": 2, "play": "yellow knife 5", "slot": 0})
    assert error.reason == Reason.NOT_YOUR_TURN and "any seat that can cover a face-up card (seats 0, 1)" in error.message
    with pytest.raises(IllegalAction, match="name the seat"):
        stuck.apply(stuck.legal_actions(0)[0])


def test_crazy_ends_when_no_seat_can_play():
    _, state = started("crazy", missions=END_MISSIONS, face_up=END_FACE_UP, hands=LOW_HANDS)
    assert state.acting_seats() == (0,)
    play(state, 0, "red lighter 3", 0)
    draw(state, "green compass 7")  # seat 0 can still play (red 4, blue 3 ...)
    assert state.current == ANY
    for card, slot, new in (("red lighter 4", 0, "yellow knife 7"), ("blue binoculars 3", 2, "yellow knife 1"),
                            ("blue binoculars 2", 3, "green compass 1")):
        play(state, 0, card, slot)
        draw(state, new)
    assert state.is_terminal()  # red 4, red 2, blue 3, blue 2: nobody holds red, blue, 2, 3 or 4


def test_the_simulation_picks_the_seat_that_acts_with_its_seeded_generator():
    # Core ANY marker: the driver draws the acting seat from its seeded generator; replay accepts
    # the action of any seat that may act.
    game = fm("crazy", players=3)
    bots = [make_bot(game.info.id, "random")] * 3
    one = play_game(game, bots, game_rng(8, 0))[0]
    again = play_game(game, bots, game_rng(8, 0))[0]
    assert one.history == again.history
    seats = [seat for seat, _ in one.history if seat >= 0]
    assert any(b != (a + 1) % 3 for a, b in zip(seats, seats[1:]))  # not clockwise
    assert len(set(seats)) == 3
    result = replay(record(game, one.history, seed=8), content=content())
    assert result.ok and result.finished and result.state.to_dict() == one.to_dict()


# -- Notes: beginners, super pros; observations ---------------------------------------------------
def test_beginners_may_look_under_the_face_up_cards():
    # Notes: "For beginners, it will be allowed to look under the 4 Symbol cards on display".
    for ruleset, sees in (("standard", False), ("beginners", True)):
        _, state = started(ruleset)
        play(state, 0, "blue binoculars 6", 1)
        draw(state, "yellow knife 5")
        view = state.view(1).to_dict()
        assert ("covered" in view) == sees
        if sees:
            assert view["covered"] == [[], ["blue binoculars 5"], [], []]


def test_table_talk_names_the_cards_a_seat_can_cover_and_super_pros_have_none():
    # Notes: players talk about the face-up cards ("I have a good card to play here"), never about
    # their cards; "For Super Pros, all communication will be forbidden."
    _, state = started(missions=LOW_MISSIONS, face_up=LOW_FACE_UP, hands=LOW_HANDS)
    assert state.view(0).to_dict()["talk"] == {"1": [3]}  # only a 5 (on the blue 5): "I can play here"
    assert state.view(1).to_dict()["talk"] == {"0": [0, 1, 2, 3]}  # red on red, blue on blue
    _, quiet = started("super_pros")
    assert "talk" not in quiet.view(0).to_dict() and quiet.view(0).talk is None


def test_a_view_never_shows_another_seats_cards():
    # Observations: each seat sees its own hand, the display and the missions, never other
    # hands: swapping a card between seat 1's hand and the deck leaves seat 0's view unchanged.
    game = fm("super_pros", players=3)
    checked = 0
    for state in random_states(game, seed=11):
        if state.current < 0 or not state.deck:
            continue
        other = (state.current + 1) % 3
        swap = next((c for c in state.deck if c not in state.hands[other]), None)
        if swap is None or not state.hands[other]:
            continue
        before = state.view(state.current).to_dict()
        changed = state.clone()
        changed.deck[changed.deck.index(swap)] = changed.hands[other][0]
        changed.hands[other][0] = swap
        assert changed.view(state.current).to_dict() == before
        checked += 1
    assert checked > 10


# -- bots ---------------------------------------------------------------------------------------
def test_greedy_plays_the_card_that_accomplishes_a_mission():
    # The heuristic bot plays the card that completes a mission.
    game, state = started()
    action = make_bot(game.info.id, "greedy").act(state.view(0), state.legal_actions(0), random.Random(1))
    assert state.action_to_event(action, 0) == {"seat": 0, "play": "green compass 1", "slot": 3}


def test_greedy_reads_only_its_view():
    # Cooperative bots may not read other hands.
    game = fm("super_pros", players=2)
    bot = make_bot(game.info.id, "greedy")
    for state in random_states(game, seed=5):
        if state.current == 0 and state.deck:
            changed = state.clone()
            swap = next(c for c in changed.deck if c not in changed.hands[1])
            changed.deck[changed.deck.index(swap)], changed.hands[1][0] = changed.hands[1][0], swap
            legal = state.legal_actions(0)
            assert bot.act(state.view(0), legal, random.Random(2)) == bot.act(changed.view(0), legal, random.Random(2))


def _greedy_scores_by_the_book(view, legal):
    """The greedy heuristic evaluated condition by condition (no memo): for each play,
    (missions accomplished, the next seat's only coverable card left alone, options next), options
    being the plays of one card not known to be out of play on one face-up card that would
    accomplish a mission on display."""
    game = view.game
    talk = view.talk[view.next_seat] if view.talk is not None and view.next_seat not in (None, view.seat) else None
    missions = [game.met[m] for m in view.missions if m >= 0]
    seen = Counter(view.face_up + [c for pile in view.covered or () for c in pile])
    scores = {}
    for action in legal:
        card, slot = divmod(action, SLOTS)
        row = list(view.face_up)
        row[slot] = card
        display = [game.kinds[c] for c in row]
        accomplished = sum(met(display) for met in missions)
        options = 0
        for j, top in enumerate(row):
            for x in game.coverers[top]:
                if seen[x] < game.copies:
                    after = display[:j] + [game.kinds[x]] + display[j + 1:]
                    options += any(met(after) for met in missions)
        scores[action] = (accomplished, talk != [slot], options)
    return scores


@pytest.mark.parametrize("ruleset", [None, "beginners", "super_pros"])
def test_greedy_plays_a_best_move_of_its_heuristic(ruleset):
    # The bot memoises which cards meet a mission (for speed); its moves must stay the
    # heuristic's best, by a direct evaluation of every condition.
    game = fm(ruleset, players=3)
    bot = make_bot(game.info.id, "greedy")
    checked = 0
    for seed in range(4):
        for state in random_states(game, seed=seed, bots=[bot] * 3):
            if state.current >= 0:
                legal = state.legal_actions(state.current)
                scores = _greedy_scores_by_the_book(state.view(state.current), legal)
                chosen = bot.act(state.view(state.current), legal, random.Random(checked))
                assert scores[chosen] == max(scores.values()), (scores, chosen)
                checked += 1
    assert checked > 100


def test_greedy_accomplishes_more_missions_than_random():
    # The skill signal: keeping options open for the next missions beats random play by far.
    means = {}
    for bot in ("greedy", "random"):
        spec = SimulationSpec("fifty-missions", dict(fm(players=3).params), (bot,) * 3, 30, seed=2)
        tally = simulate(spec).tally
        means[bot] = tally.events["missions completed"] / tally.games
    assert means["greedy"] > means["random"] + 8, means


# -- random-simulation invariants --------------------------------------------------------------
@pytest.mark.parametrize("ruleset,players", [("standard", 1), ("beginners", 4), ("crazy", 3), ("super_pros", 2)])
def test_random_games_keep_the_cards_medals_and_turns_consistent(ruleset, players):
    game = fm(ruleset, players=players, after_gold="reshuffle-when-stuck" if players == 1 else "reshuffle-at-gold")
    for seed in range(3):
        steps = 0
        for state in random_states(game, seed):
            assert state.check_invariants() == []
            if state.current == ANY:
                assert state.acting_seats() == tuple(s for s in range(players) if state.legal_actions(s))
            steps += 1
        assert steps - 1 <= game.max_length() and state.returns()[0] == len(state.completed)
        # End of the game: over when the seat to play (crazy: every seat) cannot play, empty hands included
        stuck = not state.any_seats() if game.crazy else not state.can_play(state.turn)
        assert stuck or len(state.completed) == game.n_missions


# -- parameters, log names ----------------------------------------------------------------------
@pytest.mark.parametrize("params,message", [
    ({"players": 5}, "parameter 'players': 50 Missions is for 1 to 4 players (game.yaml), not 5"),
    ({"players": 9}, "parameter 'players': 9 is outside 1..8"),
    ({"medal_places": [15, 19]}, "parameter 'medal_places': 3 whole numbers rising from 0 to 46"),
    ({"medal_places": [15, 15, 23]}, "parameter 'medal_places': 3 whole numbers rising"),
    ({"after_gold": "stop"}, "parameter 'after_gold': 'stop' is not one of: reshuffle-at-gold, reshuffle-when-stuck"),
    ({"players": 3, "oya": 3}, "parameter 'oya': seat 3 is not one of the 3 seats (0 to 2)"),
])
def test_bad_parameters_are_refused(params, message):
    with pytest.raises(ParameterError, match=re.escape(message)):
        fm(**params)


def test_rulesets_name_the_variants():
    assert fm("beginners").look_under and not fm().look_under
    assert not fm("super_pros").communication and fm().communication
    assert fm("crazy").crazy and fm().params["mode"] == "standard"


def test_log_events_name_cards_by_colour_symbol_and_value():
    game, state = started()
    assert game.card("Lighter 6") == game.card("red 6") == game.card("RED LIGHTER 6") == game.card("red  lighter 6")
    assert game.card("orange 5") == game.card("yellow knife 5")  # symbols.yaml: yellow, also called orange
    error = illegal(state, {"seat": 0, "play": "red lightr 6", "slot": 0})
    assert error.reason == Reason.UNKNOWN_NAME and "did you mean red lighter 6?" in error.message
    assert illegal(state, {"seat": 0, "play": "red lighter 6", "slot": 4}).reason == Reason.MALFORMED_EVENT
    assert illegal(state, {"seat": 0, "play": "red lighter 6"}).reason == Reason.MALFORMED_EVENT
    error = illegal(state, {"chance": "draw", "seat": 0, "card": "red lighter 3"})
    assert error.reason == Reason.SEAT_DUE


def test_chance_events_must_be_possible():
    game = fm(players=2)
    state = game.new_state()
    error = illegal(state, {"chance": "face-up", "card": "red lighter 3"})
    assert error.reason == Reason.WRONG_CHANCE_EVENT and "a mission card drawn to the row of missions is due" in error.message
    do(state, {"chance": "mission", "card": "total-16"})
    error = illegal(state, {"chance": "mission", "card": "total-16"})
    assert error.reason == Reason.IMPOSSIBLE_OUTCOME and "it is on display (slot 0)" in error.message
    _, state = started(hands=(HANDS[0], ["red lighter 3", "blue binoculars 2", "yellow knife 4", "green compass 7"]))
    play(state, 0, "blue binoculars 6", 1)
    error = illegal(state, {"chance": "draw", "seat": 0, "card": "red lighter 3"})
    assert error.reason == Reason.IMPOSSIBLE_OUTCOME
    assert error.message == "red lighter 3 cannot be drawn: its copies are in seat 1's hand, slot 0 (face up); none is in the deck"


# -- simulation report, content, logs -------------------------------------------------------------
@pytest.mark.slow
def test_simulate_reports_how_often_each_medal_is_reached(cli):
    # "deckpress simulate fifty-missions --players 3 --games 5000" reports how often
    # each medal is reached (fewer games here, with the heuristic bots, which reach medals).
    result = cli("simulate", "fifty-missions", "--players", "3", "--games", "80", "--bots", "greedy", "--format", "json")
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert d["cooperative"] is True and "seats" not in d and "draws" not in d
    team = d["team"]
    assert team["result"] == "missions completed" and sum(team["histogram"].values()) == 80
    assert team["percentiles"]["p10"] <= team["percentiles"]["p50"] <= team["percentiles"]["p90"] <= team["percentiles"]["max"]
    groups = {}
    for m in d["measures"]:
        groups.setdefault(m["group"], []).append(m)
    medals = {m["name"]: m for m in groups["Medal level reached (share of games)"]}
    assert list(medals) == ["Bronze or better", "Silver or better", "Gold or better", "all 50 missions"]
    assert all(m["trials"] == 80 for m in medals.values())
    assert medals["Bronze or better"]["successes"] == team["wins"] > 0  # a medal is the team's win
    assert medals["Bronze or better"]["value"] >= medals["Silver or better"]["value"] >= medals["Gold or better"]["value"]
    assert sum(m["successes"] for m in groups["Final level (share of games)"]) == 80
    mean = next(m for m in groups["Counts per game"] if m["name"] == "missions completed")["value"]
    assert mean == pytest.approx(team["mean"], abs=1e-3)
    missions = groups["Missions: completed when on display (most often first)"]
    assert len(missions) == 50 and [m["value"] for m in missions] == sorted((m["value"] for m in missions), reverse=True)


def test_simulate_text_report_shows_the_team_instead_of_seats(cli):
    result = cli("simulate", "fifty-missions", "--players", "3", "--games", "200")
    assert result.exit_code == 0
    out = result.stdout
    assert "Team result (cooperative: every seat shares it)" in out and "games won by the team" in out
    assert "missions completed: p10 · p25 · p50 · p75 · p90" in out and "Bronze or better" in out
    assert "Win rate per seat" not in out and "draws (best result shared)" not in out
    assert "Missions: completed when on display (most often first)" in out


def test_competitive_reports_keep_their_seats(cli):
    d = json.loads(cli("simulate", "mission-emission", "--games", "20", "--format", "json").stdout)
    assert d["cooperative"] is False and len(d["seats"]) == 4 and "team" not in d


def test_cooperative_tallies_merge():
    a, b = Tally(3, cooperative=True), Tally(3, cooperative=True)
    a.team_wins, a.team_results, a.games = 1, Counter({5.0: 1, 17.0: 1}), 2
    b.team_wins, b.team_results, b.games = 0, Counter({5.0: 2}), 2
    a.merge(b)
    assert a.team_wins == 1 and a.team_results == {5.0: 3, 17.0: 1} and a.games == 4


@pytest.mark.slow
def test_a_mission_added_to_the_yaml_is_in_the_engine(game_copy, cli):
    # A mission added to the YAML by hand appears in the engine (it is read from
    # content).
    folder = game_copy("fifty-missions")
    with open(folder / "missions.yaml", "a", encoding="utf-8") as f:
        f.write("  - id: two-ones\n    condition: {count: {of: {value: 1}, at_least: 2}}\n"
                "    provenance: designed\n    method: \"Added by hand in a test.\"\n")
    edit(folder / "game.yaml", "count: 50", "count: 51")
    game = load("fifty-missions", overrides={"players": 2}, content_dir=folder)
    assert game.mission_ids[-1] == "two-ones" and game.n_missions == 51 and game.score_range() == (0.0, 51.0)
    state = game.new_state()
    setup(state, ["two-ones", "no-red", "two-sevens", "rising-row"], ["red lighter 1", *FACE_UP[1:]], *HANDS)
    assert state.current == 0  # one 1 shows: not yet
    play(state, 0, "green compass 1", 3)
    assert state.to_dict()["accomplished"] == ["two-ones"]
    result = cli("simulate", folder, "--players", "2", "--games", "100", "--format", "json")
    d = json.loads(result.stdout)
    row = next(m for m in d["measures"] if m["name"] == "two-ones")
    assert row["trials"] > 0 and d["params"]["players"] == 2


def test_replay_accepts_the_hand_written_example(cli):
    result = cli("replay", EXAMPLE)
    assert result.exit_code == 0, result.output
    assert "20 events, all legal; the game is not over (seat 0 to cover a face-up card)" in result.stdout
    assert "team (every seat): 4 missions completed (so far)" in result.stdout


def test_replay_pinpoints_the_wrong_cover_in_the_broken_log(cli):
    result = cli("replay", BROKEN)
    assert result.exit_code == 1
    first = result.stdout.splitlines()[0]
    assert first.endswith("fifty-missions-wrong-cover.yaml:19: event 9: pile.wrong: green compass 7 cannot cover blue "
                          "binoculars 5 (slot 1): a card covers one of the same symbol or the same value"), first
    assert "8 events legal before it" in result.stdout


def test_a_finished_game_replays_to_its_recorded_result(tmp_path, cli):
    game = fm(players=2)
    state = play_game(game, [make_bot(game.info.id, "greedy")] * 2, game_rng(4, 0))[0]
    from deckpress.rules.core.log import to_yaml

    path = tmp_path / "game.yaml"
    path.write_text(to_yaml(record(game, state.history, seed=4)), "utf-8")
    result = cli("replay", path)
    won = "the team won" if state.medals else "the team did not win"
    assert result.exit_code == 0 and f"team (every seat): {len(state.completed)} missions completed ({won})" in result.stdout


@pytest.mark.slow
def test_the_engine_never_imports_rendering_code():
    # Data flows one way (brief): the engine reads the content and its conditions, never the renderer.
    import subprocess
    import sys

    code = ("import sys; from deckpress.rules.core.simulate import SimulationSpec, simulate; "
            "simulate(SimulationSpec('fifty-missions', {'players': 2}, ('greedy', 'random'), 5, 1)); "
            "print([m for m in sys.modules if m.startswith(('reportlab', 'deckpress.generator.render', 'deckpress.generator.kit.adapters', 'PIL'))])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert out.stdout.strip() == "[]"


# -- golden playthroughs ----------------------------------------------------------------------
GOLDEN_CASES = {"standard": ("greedy", "greedy"), "crazy": ("random", "random")}


def playthrough(ruleset: str, bot_names: tuple[str, ...]) -> tuple[str, list]:
    """Game 0 of seed 1, written step by step: one line per chance event; for each move the hidden
    part of the state (every hand, the deck's size, how many cards are covered), the acting seat's
    view, its legal moves and its choice.  Uses the generator exactly as the simulation driver does."""
    game = fm(ruleset, players=len(bot_names))
    bots = [make_bot(game.info.id, name) for name in bot_names]
    rng = game_rng(1, 0)
    state = game.new_state()
    lines = [f"# golden playthrough: fifty-missions, ruleset {ruleset}, seed 1, game 0, bots {', '.join(bot_names)}",
             "# regenerate: DECKPRESS_REGEN_GOLDEN=1 python -m pytest tests/rules/test_fifty_missions.py",
             f"params: {format_event(dict(game.params))}"]
    names = game.card_names
    step = 0
    while state.current != TERMINAL:
        step += 1
        if state.current == CHANCE:
            action = state.sample_chance(rng.random())
            lines.append(f"{step}: {format_event(state.action_to_event(action, CHANCE))}")
            state.apply(action)
            continue
        seat = state.current
        if seat == ANY:
            seats = state.acting_seats()
            seat = seats[int(rng.random() * len(seats))]
            lines.append(f"{step}: any of seats {list(seats)} may cover a face-up card; seat {seat} is first")
        else:
            lines.append(f"{step}: {state.due()}")
        d = state.to_dict()  # what the view below does not show: every hand, the size of the hidden piles
        shown = {"hands": d["hands"], "deck": len(d["deck"]), "covered": sum(len(c) for c in d["covered"])}
        legal = state.legal_actions(seat)
        lines.append(f"  state: {json.dumps(shown, ensure_ascii=False)}")
        lines.append(f"  view of seat {seat}: {json.dumps(state.view(seat).to_dict(), ensure_ascii=False)}")
        lines.append(f"  legal: {', '.join(f'{names[a // SLOTS]} on {a % SLOTS}' for a in legal)}")
        action = bots[seat].act(state.view(seat), legal, rng)
        lines.append(f"  -> {format_event(state.action_to_event(action, seat))}")
        state.apply(action, seat)
    lines.append(f"final: {json.dumps(state.to_dict(), ensure_ascii=False)}")
    lines.append(f"returns: {state.returns()}; winners: {state.winners()}")
    return "\n".join(lines) + "\n", state.history


@pytest.mark.parametrize("ruleset", sorted(GOLDEN_CASES))
def test_golden_playthrough(ruleset):
    text, history = playthrough(ruleset, GOLDEN_CASES[ruleset])
    game = fm(ruleset, players=len(GOLDEN_CASES[ruleset]))
    fast = play_game(game, [make_bot(game.info.id, b) for b in GOLDEN_CASES[ruleset]], game_rng(1, 0))[0]
    assert history == fast.history  # the playthrough is the simulation's game 0
    path = GOLDEN / f"fifty-missions-{ruleset}.txt"
    if os.environ.get("DECKPRESS_REGEN_GOLDEN") == "1":
        path.write_text(text, "utf-8")
    assert path.exists(), f"{path} is missing: run with DECKPRESS_REGEN_GOLDEN=1 to create it"
    assert text == path.read_text("utf-8"), f"{path.name} differs: review the change, then regenerate with DECKPRESS_REGEN_GOLDEN=1"


def test_replay_reports_the_medal_level_and_checks_a_recorded_one(cli, tmp_path):
    # The rulebook's result is the medal level reached; a log's result may
    # state it, and a header may name a ruleset instead of spelling out its parameters.
    from deckpress.rules.core.log import to_yaml

    game = fm("beginners", players=3)
    state = play_game(game, [make_bot(game.info.id, "greedy")] * 3, game_rng(1, 0))[0]
    level = state.outcome()["level"]
    assert level in game.medal_names + ["no medal"]
    log = record(game, state.history)
    log.params, log.ruleset = {"players": 3}, "beginners"
    path = tmp_path / "game.yaml"
    log.result = {"level": level.lower()}  # as a table says it: any case
    path.write_text(to_yaml(log))
    result = cli("replay", path, "--format", "json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["outcome"] == {"level": level} and data["ruleset"] == "beginners"
    assert data["params"]["look_under"] is True  # the beginners' ruleset
    text = cli("replay", path).stdout
    assert f"level: {level}" in text
    wrong = "Gold" if level != "Gold" else "Bronze"
    log.result = {"level": wrong}
    path.write_text(to_yaml(log))
    result = cli("replay", path)
    assert result.exit_code == 1 and f"the log records the level '{wrong}', the replay gives '{level}'" in result.stdout


@pytest.mark.parametrize("name", ["No. 5", "no 5", "5", "total-16", "The 4 cards add up to exactly 16.", "the 4 cards add up to exactly 16"])
def test_a_log_names_a_mission_by_what_its_card_prints(name):
    # A table writes the card's number or its text, not an id.
    game = fm()
    assert game.mission_ids[game.mission(name)] == "total-16"


def test_a_misspelt_mission_number_gets_a_suggestion_and_a_shared_text_asks_for_the_number(game_copy):
    game = fm()
    with pytest.raises(IllegalAction, match=r"no mission is called 'No\. 51' \(did you mean No\. 5\?\)"):
        game.mission("No. 51")
    folder = game_copy("fifty-missions")  # a fan edition where two cards print the same text
    text = (folder / "missions.yaml").read_text()
    first = text.index("condition: {sum: {equals: 16}}")
    second = text.index("condition:", first + 10)
    end = text.index("\n", second)
    (folder / "missions.yaml").write_text(text[:second] + "condition: {sum: {equals: 16}}" + text[end:])
    twin = FiftyMissionsGame.create(load_game(folder), None, {})
    with pytest.raises(IllegalAction, match=r"2 missions print 'The 4 cards add up to exactly 16\.': write which one is meant \(No\. 5 or No\. 6\)"):
        twin.mission("The 4 cards add up to exactly 16.")


@pytest.mark.parametrize("source", ["shipped", "night-shift"])
def test_the_memo_the_engine_reads_says_what_every_mission_condition_says(source):
    """The engine asks the bot's memo (``Completions.meets``) which missions the
    face-up row meets; over random rows, cold and warm, it must agree with every mission's own
    condition, for the shipped missions and a variant's new ones."""
    from deckpress.generator.content.variant import merged_content
    from deckpress.generator.paths import CONTENT_DIR

    if source == "night-shift":
        content, errors = merged_content(CONTENT_DIR / "variants" / "fifty-missions-night-shift.yaml")
        assert errors == []
        game = FiftyMissionsGame.create(content, None, {"players": 3})
        assert len(game.met) == 55
    else:
        game = load("fifty-missions", overrides={"players": 3})
    rng = random.Random(13)
    kinds = list(range(game.n_kinds))
    for _ in range(400):
        row = [rng.choice(kinds) for _ in range(SLOTS)]
        display = tuple(game.kinds[k] for k in row)
        for m in range(len(game.met)):
            assert game.completions.meets(m, row) == bool(game.met[m](display)), (m, display)

"""Mission Emission strategy game: one test per rule of the rulebook's "STRATEGY GAME" section
(Mission Emission rulebook, Nightingame), named after the rule and citing its paragraph.

Numbers used (states.yaml): Forest Karnataka 19 (the rulebook's own example), West Bengal 19,
Kerala 46, Goa 60; Smoke Delhi 217, Punjab 175, Goa 55.
"""
from __future__ import annotations

import random

import pytest

from deckpress.rules.core.errors import IllegalAction, Reason
from deckpress.rules.core.game import CHANCE, TERMINAL
from tests.rules.helpers import deal, do, draw, me, names

HANDS = (["Karnataka", "Forest +5", "Delhi"], ["West Bengal", "Goa", "Forest +7"], ["Kerala", "Punjab", "Smoke -3"])
FOREST, SMOKE = 0, 3


def strategy_game():
    game = me(mode="strategy", players=3)
    state = game.new_state()
    deal(state, *HANDS)
    return game, state


def illegal(state, event) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        do(state, event)
    return caught.value


def random_games(count: int, seed: int, players: int = 4):
    """Finished strategy games played with random legal actions through the validating path,
    with every intermediate state passed to the caller's checks via a generator."""
    game = me(mode="strategy", players=players)
    rng = random.Random(seed)
    for _ in range(count):
        state = game.new_state()
        while state.current != TERMINAL:
            yield state
            state.apply(rng.choice(state.legal_actions()))
        yield state


def test_strategy_setup_one_point_card_per_pile_and_the_rest_shuffled_in():
    # "Ready?": 1 point card of each colour starts each pile; the other 12 are shuffled with the
    # 36 state cards and 3 cards are dealt to each player.
    game, state = strategy_game()
    assert [names(game, p) for p in state.pile_points] == [["Forest +3"], ["Energy +3"], ["Water +3"], ["Smoke -1"], ["Crowd -1"], ["Garbage -1"]]
    assert len(state.deck) == 36 + 12 - 9
    # a state card may go on any of the 6 piles, a point card only on its own
    assert len(state.legal_actions(0)) == 6 + 1 + 6


def test_strategy_state_card_claims_an_unclaimed_pile_and_the_seat_draws():
    # "Let's Go!": a state card on an unclaimed pile claims it; at the end of the turn, draw 1.
    game, state = strategy_game()
    do(state, {"seat": 0, "play": "Karnataka", "pile": "Forest"})
    assert state.claim[FOREST] == 0
    assert state.current == CHANCE and state.due_chance_event() == {"chance": "draw", "seat": 0}
    draw(state, "Assam")
    assert state.current == 1 and len(state.hands[0]) == 3


def test_strategy_karnataka_forest_19_example():
    # "What's Next?", the rulebook's example: Forest pile with Karnataka (Forest 19) is stolen only
    # by a Forest number higher than 19; West Bengal (19) changes nothing, Kerala (46) steals it.
    game, state = strategy_game()
    do(state, {"seat": 0, "play": "Karnataka", "pile": "Forest"})
    draw(state, "Assam")
    do(state, {"seat": 1, "play": "West Bengal", "pile": "Forest"})
    draw(state, "Bihar")
    assert state.claim[FOREST] == 0
    do(state, {"seat": 2, "play": "Kerala", "pile": "Forest"})
    assert state.claim[FOREST] == 2
    assert state.view(1).to_dict()["claims"]["Forest"] == 2


def test_strategy_lower_number_steals_smoke_crowd_and_garbage():
    # "What's Next?": Smoke, Crowd and Garbage piles are claimed by the lowest number.
    game, state = strategy_game()
    do(state, {"seat": 0, "play": "Karnataka", "pile": "Forest"})
    draw(state, "Assam")
    do(state, {"seat": 1, "play": "West Bengal", "pile": "Forest"})
    draw(state, "Bihar")
    do(state, {"seat": 2, "play": "Punjab", "pile": "Smoke"})
    draw(state, "Gujarat")
    do(state, {"seat": 0, "play": "Delhi", "pile": "Smoke"})  # 217 is worse than 175: no steal
    draw(state, "Haryana")
    assert state.claim[SMOKE] == 2
    do(state, {"seat": 1, "play": "Goa", "pile": "Smoke"})  # 55 is better: stolen
    assert state.claim[SMOKE] == 1


def test_strategy_closing_gives_the_claimer_the_state_cards():
    # "Closing a Pile": a point card closes its mission's pile; the closer gets nothing, the
    # claimer pockets the state cards; both point cards start a new unclaimed pile.
    game, state = strategy_game()
    do(state, {"seat": 0, "play": "Karnataka", "pile": "Forest"})
    draw(state, "Assam")
    do(state, {"seat": 1, "play": "West Bengal", "pile": "Forest"})
    draw(state, "Bihar")
    do(state, {"seat": 2, "play": "Kerala", "pile": "Forest"})
    draw(state, "Gujarat")
    do(state, {"seat": 0, "play": "Forest +5"})
    assert sorted(names(game, state.pockets[2])) == ["Karnataka", "Kerala", "West Bengal"]
    assert state.pockets[0] == [] and state.claim[FOREST] == -1
    assert names(game, state.pile_points[FOREST]) == ["Forest +3", "Forest +5"] and state.pile_cards[FOREST] == []
    assert state.returns() == [0, 0, 3]


def test_strategy_closing_your_own_claimed_pile_gives_you_the_cards():
    # "Closing a Pile": "If you close a Pile which you claim, you get the State Cards."
    game, state = strategy_game()
    do(state, {"seat": 0, "play": "Karnataka", "pile": "Forest"})
    draw(state, "Assam")
    do(state, {"seat": 1, "play": "Goa", "pile": "Energy"})
    draw(state, "Bihar")
    do(state, {"seat": 2, "play": "Kerala", "pile": "Water"})
    draw(state, "Gujarat")
    do(state, {"seat": 0, "play": "Forest +5", "pile": "Forest"})
    assert names(game, state.pockets[0]) == ["Karnataka"]


def test_strategy_closing_an_unclaimed_pile_gives_nothing_and_the_second_closing_removes_it():
    # "Closing a Pile": "If you close an unclaimed pile, no one gets any cards"; "When a Pile is
    # closed the second time ... remove all three Point Cards from the game. No one can keep a
    # card on that Mission's Pile now."
    game, state = strategy_game()
    do(state, {"seat": 0, "play": "Forest +5"})
    draw(state, "Assam")
    assert state.pockets == [[], [], []] and state.closes[FOREST] == 1 and FOREST in state.open_piles
    do(state, {"seat": 1, "play": "Forest +7"})
    draw(state, "Bihar")
    assert FOREST not in state.open_piles
    assert sorted(names(game, state.removed)) == ["Forest +3", "Forest +5", "Forest +7"]
    error = illegal(state, {"seat": 2, "play": "Kerala", "pile": "Forest"})
    assert error.reason == Reason.PILE_CLOSED and "Forest pile" in error.message
    assert all(a % 16 != FOREST for a in state.legal_actions(2))


def test_strategy_point_card_closes_only_its_own_mission():
    # "Closing a Pile": a point card closes "the Pile of that Mission".
    game, state = strategy_game()
    error = illegal(state, {"seat": 0, "play": "Forest +5", "pile": "Smoke"})
    assert error.reason == Reason.WRONG_PILE


def test_strategy_a_state_card_needs_a_pile_in_the_log():
    game, state = strategy_game()
    assert illegal(state, {"seat": 0, "play": "Karnataka"}).reason == Reason.MALFORMED_EVENT


def test_strategy_cannot_pass():
    # Directive: "You cannot pass your turn": whenever a seat is due it has a legal card to play.
    for state in random_games(40, seed=5):
        if state.current >= 0:
            assert state.legal_actions() and state.hands[state.current]


def test_strategy_no_drawing_once_the_deck_is_empty():
    # Directive: "If the Draw Deck is finished, keep playing without drawing a card".
    seen = 0
    for state in random_games(40, seed=6):
        if state.current >= 0 and not state.deck:
            seat, before = state.current, len(state.hands[state.current])
            clone = state.clone()
            clone.apply(clone.legal_actions()[0])
            assert clone.current != CHANCE and len(clone.hands[seat]) == before - 1
            seen += 1
    assert seen > 100


def test_strategy_game_ends_when_all_six_piles_are_closed_twice():
    # Directive: "Game ends when all 6 Piles are closed twice".
    for state in random_games(60, seed=7):
        if state.current == TERMINAL:
            assert state.open_piles == [] and len(state.removed) == 18 and state.closes == [2] * 6
        else:
            assert state.open_piles


def test_strategy_most_state_cards_wins():
    # "Mission Accomplished!": the winner has the most state cards in their pocket.
    for state in random_games(30, seed=8):
        if state.current == TERMINAL:
            counts = [len(p) for p in state.pockets]
            assert all(c < 36 for pocket in state.pockets for c in pocket)  # only state cards are kept
            assert state.winners() == [s for s, n in enumerate(counts) if n == max(counts)]


def test_the_centre_card_of_each_pile_is_a_choice_a_log_records():
    # "Keep any 1 Point Card of each colour in the centre": a table that kept Forest +7
    # was refused ("Forest +3 cannot be drawn").  The choice is the parameter 'centre'.
    from deckpress.rules.core.bots import make_bot
    from deckpress.rules.core.errors import ParameterError
    from deckpress.rules.core.log import record
    from deckpress.rules.core.replay import replay
    from deckpress.rules.core.simulate import game_rng, play_game

    game = me(mode="strategy", players=3, centre={"forest": 3})
    assert [game.card_names[c] for c in game.centre_cards][:2] == ["Forest +7", "Energy +3"]
    state = play_game(game, [make_bot(game.info.id, "greedy")] * 3, game_rng(2, 0))[0]
    log = record(game, state.history)
    assert log.params["centre"] == {"forest": 3}
    assert replay(log).ok
    drawn = [e for e in log.events if e.get("chance") in ("deal", "draw")]
    names = [n for e in drawn for n in (e.get("cards") or [e.get("card")])]
    assert "Forest +3" in names and "Forest +7" not in names  # +3 is shuffled in, +7 stays in the centre
    with pytest.raises(ParameterError, match="parameter 'centre': forest: 4 is not a place in its pile"):
        me(mode="strategy", centre={"forest": 4})

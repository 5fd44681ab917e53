"""The engine core on its own: parameters and rulesets, reason codes of the shared checks,
statistics, simultaneous moves (on a two-seat toy game defined here), bots, and the rule that
only the simulation driver owns a random generator."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckpress.rules.core.bots import bot_names, make_bot
from deckpress.rules.core.errors import IllegalAction, ParameterError, Reason
from deckpress.rules.core.game import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Game,
    GameInfo,
    State,
    View,
)
from deckpress.rules.core.params import Param, parse_value, resolve
from deckpress.rules.core.registry import known_games, load
from deckpress.rules.core.simulate import game_rng, play_game
from deckpress.rules.core.stats import percentile, wilson
from tests.rules.helpers import deal, do, me

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


# -- parameters ---------------------------------------------------------------------------------
def test_unknown_parameter_suggests_a_near_miss_or_lists_the_known_ones():
    with pytest.raises(ParameterError) as caught:
        me(hand_sise=4)
    assert str(caught.value) == "unknown parameter 'hand_sise' (did you mean 'hand_size'?)"
    with pytest.raises(ParameterError) as caught:
        me(zzz=4)
    assert str(caught.value) == ("unknown parameter 'zzz' (known: players, mode, hand_size, points, "
                                 "piles_to_end, tie, kids_winner, centre, ... and 3 more)")


@pytest.mark.parametrize("params,message", [
    ({"players": 7}, "parameter 'players': 7 is outside 2..6"),
    ({"players": "4"}, "parameter 'players': expected an integer, got '4'"),
    ({"mode": "expert"}, "parameter 'mode': 'expert' is not one of: base, strategy, kids"),
    ({"players": True}, "parameter 'players': expected an integer, got True"),
    ({"points": {"forest": [1, 2]}}, "parameter 'points': forest needs a list of 3 whole numbers (top of the pile first), got [1, 2]"),
    ({"points": {"soil": [1, 2, 3]}}, "parameter 'points': unknown mission 'soil'"),
    ({"piles_to_end": 7}, "parameter 'piles_to_end': 7 is more than the 6 missions"),
])
def test_bad_parameter_values_are_refused_with_the_range(params, message):
    with pytest.raises(ParameterError, match=re.escape(message)):
        me(**params)


def test_effective_parameters_are_complete_and_follow_mode_and_ruleset():
    from deckpress.rules.mission_emission import MissionEmissionGame
    from tests.rules.helpers import content

    kids = MissionEmissionGame.create(content(), ruleset="kids")
    assert kids.params["mode"] == "kids" and kids.params["hand_size"] == 1  # the mode's own default
    assert list(kids.params) == [p.name for p in MissionEmissionGame.info.params]
    partial = me(points={"smoke": [-2, -4, -6]})
    assert partial.params["points"]["smoke"] == [-2, -4, -6] and partial.params["points"]["forest"] == [3, 5, 7]
    assert partial.score_range() == (-2 - 4 - 6 - 9 - 9, 45)
    with pytest.raises(ParameterError, match="unknown ruleset 'quick' \\(known: base, strategy, kids, set-collection\\)"):
        MissionEmissionGame.create(content(), ruleset="quick")


def test_command_line_values_parse_as_json_or_text():
    assert parse_value("3") == 3 and parse_value("strategy") == "strategy"
    assert parse_value('{"forest": [1, 2, 3]}') == {"forest": [1, 2, 3]}


# -- shared checks and reason codes ----------------------------------------------------------------
def test_shared_checks_give_reason_codes_and_leave_the_state_unchanged():
    state = me(players=2).new_state()
    with pytest.raises(IllegalAction) as caught:
        state.apply(100, 0)  # a seat acting during the deal
    assert caught.value.reason == Reason.CHANCE_DUE and "a deal of a card to seat 0 is due" in caught.value.message
    deal(state, ["Goa", "Kerala", "Bihar"], ["Assam", "Delhi", "Punjab"])
    before = state.to_dict()
    for action, seat, reason in [(100, 1, Reason.NOT_YOUR_TURN), (5, CHANCE, Reason.SEAT_DUE), (100, 4, Reason.NO_SUCH_SEAT),
                                 (555, 0, Reason.UNKNOWN_ACTION)]:
        with pytest.raises(IllegalAction) as caught:
            state.apply(action, seat)
        assert caught.value.reason == reason
    assert state.to_dict() == before and len(state.history) == 6


def test_every_reason_code_is_namespaced_and_commented():
    source = (RULES_DIR / "core" / "errors.py").read_text("utf-8")
    for reason in Reason:
        assert re.fullmatch(r"[a-z]+\.[a-z-]+", reason.value)
        assert re.search(rf'{reason.name} = "{re.escape(reason.value)}"  # \w', source), reason


# -- statistics ------------------------------------------------------------------------------------
def test_wilson_interval_known_values():
    # Wilson (1927); 50 of 100 gives 40.4 %..59.6 %, 0 of 10 gives 0..27.8 % (the usual tables).
    low, high = wilson(50, 100)
    assert round(low, 4) == 0.4038 and round(high, 4) == 0.5962
    low, high = wilson(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    assert wilson(0, 0) == (0.0, 1.0)


def test_percentiles_are_nearest_rank():
    histogram = {10: 50, 20: 40, 30: 10}
    assert [percentile(histogram, q) for q in (10, 50, 90, 91, 100)] == [10, 10, 20, 30, 30]


# -- simultaneous moves on a toy game --------------------------------------------------------------
class GuessGame(Game):
    """Two seats each secretly pick 0 or 1; seat 0 scores 1 when the picks match, seat 1 otherwise."""

    info = GameInfo(id="guess", name="Guess", version=1, rulebook="test", chance=False, hidden_information=True,
                    simultaneous=True, cooperative=False, params=(Param("players", int, 2, "seats", "test", low=2, high=2),),
                    max_length=lambda game: 2, score_range=lambda game: (0.0, 1.0))


class GuessState(State):
    __slots__ = ("picks",)

    def __init__(self, game):
        super().__init__(game)
        self.picks: dict[int, int] = {}
        self.current = SIMULTANEOUS

    def simultaneous_seats(self):
        return (0, 1)

    def _legal_actions(self, seat):
        return [0, 1]

    def _resolve_simultaneous(self, submissions):
        self.picks = submissions
        self.current = TERMINAL

    def returns(self):
        same = self.picks[0] == self.picks[1]
        return [float(same), float(not same)]

    def view(self, seat):
        return GuessView(self, seat)


class GuessView(View):
    __slots__ = ()

    def to_dict(self):
        state = self._state
        return {"mine": state._pending.get(self.seat, state.picks.get(self.seat)),
                "other submitted": state.submitted(1 - self.seat), "revealed": dict(state.picks)}


GuessGame.state_class = GuessState


def test_a_game_without_a_batched_engine_refuses_one_with_the_way_out():
    """Every shipped game has a batched engine now; a game that has none (a new engine) says so and
    points to the reference engine, which ``simulate --batched`` prints as one line."""
    game = GuessGame(None, resolve(GuessGame.info.params, {}))
    with pytest.raises(ParameterError, match="^Guess has no batched engine: simulate it with the reference engine$"):
        game.batched(["random", "random"])


def test_simultaneous_submissions_stay_hidden_until_all_are_in():
    game = GuessGame(None, resolve(GuessGame.info.params, {}))
    state = game.new_state()
    assert state.acting_seats() == (0, 1) and state.legal_actions(1) == [0, 1]
    state.apply(1, 0)
    assert state.acting_seats() == (1,) and state.current == SIMULTANEOUS
    assert state.view(1).to_dict() == {"mine": None, "other submitted": True, "revealed": {}}
    with pytest.raises(IllegalAction) as caught:
        state.apply(0, 0)
    assert caught.value.reason == Reason.ALREADY_SUBMITTED
    with pytest.raises(IllegalAction) as caught:
        state.apply(0)
    assert caught.value.reason == Reason.NOT_YOUR_TURN  # several seats may act: the seat must be named
    state.apply(1, 1)
    assert state.is_terminal() and state.returns() == [1.0, 0.0] and state.view(1).to_dict()["revealed"] == {0: 1, 1: 1}
    final, actions, moves, decisions = play_game(game, [make_bot("guess", "random")] * 2, game_rng(1, 0))
    assert final.is_terminal() and moves == 2 and actions == 2


# -- bots and randomness ---------------------------------------------------------------------------
def test_bots_are_named_and_unknown_ones_listed():
    assert bot_names("mission-emission") == ["greedy", "ismcts", "random", "rollout"]
    with pytest.raises(ParameterError, match="unknown bot 'smart' for mission-emission \\(known bots: greedy, ismcts, random, rollout; "
                                             "ismcts:N, rollout:N for a budget\\)"):
        make_bot("mission-emission", "smart")
    assert make_bot("mission-emission", "ismcts:250").iterations == 250
    assert make_bot("mission-emission", "rollout:48").samples == 48
    with pytest.raises(ParameterError, match="write ismcts:N"):
        make_bot("mission-emission", "ismcts:many")
    with pytest.raises(ParameterError, match="1 to 100,000"):
        make_bot("mission-emission", "ismcts:0")


@pytest.mark.parametrize("game_id", known_games())
def test_no_engine_overrides_the_trusted_apply_that_play_game_inlines(game_id):
    # play_game records an ordinary move or chance event and calls _apply itself: an engine's own
    # apply_trusted would be skipped there and used elsewhere (replay, the table, ismcts)
    state = load(game_id).new_state()
    assert type(state).apply_trusted is State.apply_trusted


@pytest.mark.slow
@pytest.mark.parametrize("game_id, ruleset", [(g, r) for g in known_games() for r in load(g).info.rulesets])
def test_an_engines_quick_legality_test_agrees_with_its_legal_list(game_id, ruleset):
    # validated apply asks may_act and _is_legal; a game that answers them without the lists (50
    # Missions) must give the same answer for every seat and action number, legal or not, at
    # every step of a game
    game = load(game_id, ruleset)
    bots = [make_bot(game_id, "random") for _ in range(game.players)]
    asked = 0
    for i in range(3):
        history = play_game(game, bots, game_rng(5, i))[0].history
        state = game.new_state()
        for seat, action in history:
            # and who may act, asked seat by seat, agrees with the seats acting
            assert [s for s in range(-2, game.players + 2) if state.may_act(s)] == sorted(state.acting_seats())
            if seat != CHANCE:
                legal = set(state._legal_actions(seat))
                for a in range(-2, 1100):  # past every game's action numbers
                    assert state._is_legal(a, seat) == (a in legal), (game_id, ruleset, a, seat)
                asked += 1
            state.apply(action, seat)
    assert asked > 20


def test_only_the_simulation_driver_imports_random():
    importers = sorted(p.relative_to(RULES_DIR).as_posix() for p in RULES_DIR.rglob("*.py")
                       if re.search(r"^\s*(import random|from random import)", p.read_text("utf-8"), re.M))
    assert importers == ["core/simulate.py"]


def test_illegal_actions_name_the_card_and_pile_in_words():
    state = me(players=2).new_state()
    deal(state, ["Goa", "Kerala", "Bihar"], ["Assam", "Delhi", "Punjab"])
    with pytest.raises(IllegalAction) as caught:
        do(state, {"seat": 0, "play": "Karnatka"})
    assert caught.value.reason == Reason.UNKNOWN_NAME and "did you mean Karnataka?" in caught.value.message


@pytest.mark.slow
def test_engines_never_import_rendering_code():
    # Data flows one way (brief): rules engines may load content but never touch the renderer.
    import subprocess
    import sys

    code = ("import sys; from pathlib import Path; from deckpress.rules.core.registry import load; from deckpress.rules.core.replay import replay; "
            "from deckpress.rules.core.log import read_log; from deckpress.rules.core.simulate import SimulationSpec, simulate; "
            "replay(read_log(Path('content/mission-emission/logs/example-base.yaml'))); "
            "g = load('mission-emission'); simulate(SimulationSpec('mission-emission', dict(g.params), ('greedy',) * 4, 20, 1)); "
            "print([m for m in sys.modules if m.startswith(('reportlab', 'deckpress.generator.render', 'deckpress.generator.kit.adapters', 'PIL'))])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=RULES_DIR.parent, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["mission-emission", "fifty-missions", "maybe-missions", "geheime-mission"])
def test_every_mode_game_yaml_names_is_a_ruleset_the_engine_plays(game_id):
    # A mode game.yaml lists (play-masters) is one the engine accepts: one name everywhere.
    from deckpress.generator.content import load_game
    from deckpress.rules.core.registry import game_class, load

    modes = [m["id"] for m in load_game(game_id)["game"].get("modes", [])]
    assert modes and set(modes) <= set(game_class(game_id).info.rulesets)
    for mode in modes:
        load(game_id, mode)  # accepted, parameters and all

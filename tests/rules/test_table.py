"""The table of ``deckpress studio``: a game played step by step by people
(hot seat) and bots, as a page would drive it.  Each test checks something a player at the table
would notice: a game that ends with a result, a downloaded log that ``deckpress replay`` accepts
with the same scores, the same game for the same seed and clicks, the rules' own refusal of a bad
move, a hand that the next player cannot see, a game continued from its log, a recorded game
stepped through, and every game with a rules engine playable to its end."""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from deckpress.generator.content import load_game
from deckpress.generator.paths import CONTENT_DIR
from deckpress.rules.core.errors import IllegalAction, Reason
from deckpress.rules.core.log import read_log
from deckpress.rules.core.registry import known_games
from deckpress.rules.core.replay import replay
from deckpress.rules.core.table import PERSON, Move, Table, TableError

_CONTENT: dict[str, object] = {}


def content(game_id: str):
    """The shipped content of ``game_id``, loaded once for the whole file (loading takes most of the time)."""
    if game_id not in _CONTENT:
        _CONTENT[game_id] = load_game(game_id)
    return _CONTENT[game_id]


def play_out(table: Table, pick=lambda moves: moves[0], limit: int = 2000) -> int:
    """Let the person seats due choose ``pick(moves)`` until the game is over; the clicks made."""
    clicks = 0
    while not table.finished():
        seat = table.seat_to_show()
        assert seat is not None, "nobody is due, yet the game is not over"
        moves = table.moves(seat)
        assert moves, f"seat {seat} is due with no move: {table.state.due()}"
        table.play(seat, pick(moves).action)
        clicks += 1
        assert clicks < limit, "the game does not end"
    return clicks


def strings(data) -> set[str]:
    """Every text in an observation (keys and values, nested)."""
    if isinstance(data, dict):
        return set(map(str, data)) | set().union(*(strings(v) for v in data.values()))
    if isinstance(data, (list, tuple)):
        return set().union(*(strings(v) for v in data))
    return {data} if isinstance(data, str) else set()


def me_table(seats, seed: int = 1, **kw) -> Table:
    return Table("mission-emission", seats, content=content("mission-emission"), params={"mode": "base"}, seed=seed, **kw)


def test_a_person_plays_base_mission_emission_against_two_bots_and_the_log_replays_to_the_same_scores(tmp_path, cli):
    table = me_table([PERSON, "greedy", "random"])
    assert table.persons_due() == [0] and table.seat_to_show() == 0
    moves = table.moves(0)
    assert moves and all(isinstance(m, Move) for m in moves)
    assert moves[0].label.startswith("mission: ") and moves[0].cards == [moves[0].label.split(": ", 1)[1]]
    assert table.moves(1) == [], "a bot's seat offers no buttons"
    assert table.result() is None
    play_out(table)
    result = table.result()
    assert result is not None and table.persons_due() == [] and table.seat_to_show() is None
    assert len(result["returns"]) == 3 and result["winners"] and "seat 0:" in result["text"]
    path = tmp_path / "game.yaml"
    path.write_text(table.log_yaml(), "utf-8")
    replayed = replay(read_log(path), content=content("mission-emission"))
    assert replayed.error is None and replayed.finished
    assert replayed.state.returns() == result["returns"]
    assert replayed.state.winners() == result["winners"]
    printed = cli("replay", path)  # the downloaded log, as `deckpress replay` checks it
    assert printed.exit_code == 0 and "all legal; the game is over" in printed.stdout
    assert all(f"seat {s}: {x:g}" in printed.stdout for s, x in enumerate(result["returns"]))


def test_same_seats_seed_and_clicks_give_the_same_game_and_an_identical_log():
    def game(seed: int) -> str:
        table = me_table([PERSON, "random", "greedy"], seed=seed)
        play_out(table, pick=lambda moves: moves[len(moves) // 2])
        return table.log_yaml()

    first = game(7)
    assert first == game(7)
    assert first != game(8), "another seed deals other cards"
    assert "seed: 7" in first


def test_a_move_the_rules_refuse_is_refused_with_the_engines_reason_and_changes_nothing():
    table = me_table([PERSON, "greedy", "random"])
    before = list(table.state.history)
    with pytest.raises(IllegalAction) as refused:
        table.attempt(0, "play: " + table.observation(0)["hand"][0])  # the mission comes first
    assert refused.value.reason == Reason.WRONG_PHASE and "chooses the mission first" in refused.value.message
    table.attempt(0, table.moves(0)[0].label)  # the mission, as the page's button sends it
    assert table.state.history[len(before)][0] == 0
    before = list(table.state.history)
    with pytest.raises(IllegalAction) as refused:
        table.attempt(0, "mission: Water")
    assert refused.value.reason == Reason.WRONG_PHASE and "already chosen" in refused.value.message
    stranger = next(name for name in ("Goa", "Kerala", "Punjab", "Sikkim") if name not in table.observation(0)["hand"])
    with pytest.raises(IllegalAction) as refused:
        table.attempt(0, stranger)  # a card name alone, as a click sends it
    assert refused.value.reason == Reason.NOT_IN_HAND and f"{stranger} is not in seat 0's hand" in refused.value.message
    with pytest.raises(IllegalAction) as refused:
        table.attempt(0, "seat 1 play: Goa")
    assert refused.value.reason == Reason.NOT_YOUR_TURN
    with pytest.raises(IllegalAction) as refused:
        table.play(1, 0)  # the greedy bot's seat is not the page's
    assert refused.value.reason == Reason.NOT_YOUR_TURN
    assert table.state.history == before
    table.attempt(0, table.observation(0)["hand"][0])  # a card of the hand, clicked
    assert len(table.state.history) > len(before)


def test_hot_seat_hands_over_between_two_people_and_hides_the_other_hand():
    table = me_table([PERSON, PERSON])
    assert table.seat_to_show() == 0 and not table.handover(None), "no hand was on the screen before the first"
    table.play(0, table.moves(0)[0].action)  # the mission
    assert not table.handover(0), "seat 0 goes on with its card"
    table.play(0, table.moves(0)[0].action)
    assert table.seat_to_show() == 1 and table.handover(0) and not table.handover(1)
    hidden = set(table.observation(1)["hand"])
    assert len(hidden) == 3 and not hidden & strings(table.observation(0))
    recent = " ".join(table.recent(20, viewer=0))
    assert not any(card in recent for card in hidden), "the deal to seat 1 is shown without its cards"
    assert all(card in " ".join(table.recent(20, viewer=1)) for card in table.observation(1)["hand"])


def test_a_secret_vote_is_not_shown_to_the_next_person_before_the_reveal():
    table = Table("maybe-missions", [PERSON, PERSON, "greedy"], content=content("maybe-missions"), seed=2)
    for _ in range(50):  # the page plays on until both people vote at once
        if len(table.persons_due()) == 2:
            break
        seat = table.seat_to_show()
        table.play(seat, table.moves(seat)[0].action)
    vote = table.moves(0)[0]
    table.attempt(0, vote.label.split(": ")[1])  # a vote card clicked: its number alone
    assert table.persons_due() == [1] and table.handover(0)
    assert table.recent(1, viewer=1) == ['{seat: 0, vote: "?"}']
    assert table.recent(1, viewer=0) == [f"{{seat: 0, {vote.label}}}"]


def test_a_game_continues_from_its_log_at_the_same_point(tmp_path):
    table = me_table([PERSON, "greedy", PERSON], seed=3)
    for _ in range(7):
        seat = table.seat_to_show()
        table.play(seat, table.moves(seat)[-1].action)
    path = tmp_path / "half.yaml"
    path.write_text(table.log_yaml(), "utf-8")
    again = Table("mission-emission", [PERSON, "greedy", PERSON], content=content("mission-emission"), log=read_log(path))
    assert again.seed == 3 and again.state.history == table.state.history
    assert again.persons_due() == table.persons_due() and again.persons_due()
    for seat in (0, 2):
        assert again.observation(seat) == table.observation(seat)
    assert [m.label for m in again.moves(again.seat_to_show())] == [m.label for m in table.moves(table.seat_to_show())]
    with pytest.raises(TableError, match="has 3 seats, but 4 were given"):
        Table("mission-emission", [PERSON] * 4, content=content("mission-emission"), log=read_log(path))
    broken = path.read_text("utf-8").replace("mission: ", "mission: Nowhere", 1)
    path.write_text(broken, "utf-8")
    with pytest.raises(TableError, match="does not replay.*event"):
        Table("mission-emission", [PERSON, "greedy", PERSON], content=content("mission-emission"), log=read_log(path))


def test_trace_of_a_shipped_log_has_one_step_per_event_ending_at_replays_scores():
    path = CONTENT_DIR / "mission-emission" / "logs" / "example-base.yaml"
    log = read_log(path)
    steps = Table.trace(log, content=content("mission-emission"))
    assert [s["index"] for s in steps] == list(range(1, len(log.events) + 1))
    assert steps[0]["chance"] and steps[0]["seat"] is None and steps[0]["event"].startswith("{chance: deal")
    assert steps[2]["event"] == "{seat: 0, mission: Forest}" and steps[2]["seat"] == 0
    assert steps[-1]["scores"] == replay(log, content=content("mission-emission")).state.returns()
    assert any("won: Forest +3" in s["gained"] for s in steps)
    log.events[2] = {"seat": 0, "mission": "Nowhere"}
    with pytest.raises(TableError, match="event 3"):
        Table.trace(log, content=content("mission-emission"))


def test_setup_mistakes_are_said_in_plain_words():
    for kwargs, said in ((dict(game_id="mission-emission", seats=[PERSON, "clever"]), "unknown bot 'clever'"),
                         (dict(game_id="mission-emission", seats=[PERSON, PERSON], params={"players": 3}), "2 seats"),
                         (dict(game_id="chess", seats=[PERSON, PERSON]), "no rules engine for 'chess'"),
                         (dict(game_id="mission-emission", seats=[PERSON, PERSON], params={"colour": "red"}), "unknown parameter 'colour'")):
        with pytest.raises(TableError, match=said) as failed:
            Table(content=content("mission-emission"), **kwargs)
        assert "Traceback" not in str(failed.value)


@pytest.mark.parametrize("game_id, params", [("mission-emission", {}), ("fifty-missions", {}), ("fifty-missions", {"mode": "crazy"}),
                                             ("maybe-missions", {}), ("geheime-mission", {})])
def test_every_game_with_rules_can_be_played_to_its_end_by_one_person_against_bots(game_id, params, tmp_path):
    assert game_id in known_games()
    players = {"mission-emission": 3, "fifty-missions": 3, "maybe-missions": 4, "geheime-mission": 2}[game_id]
    table = Table(game_id, [PERSON] + ["greedy"] * (players - 1), content=content(game_id), params=params, seed=5)
    clicks = play_out(table)
    assert clicks > 0 and table.result() is not None
    path = tmp_path / "game.yaml"
    path.write_text(table.log_yaml(), "utf-8")
    replayed = replay(read_log(path), content=content(game_id))
    assert replayed.error is None and replayed.state.returns() == table.result()["returns"]


def test_every_shipped_game_with_rules_is_covered():
    assert set(known_games()) == {"mission-emission", "fifty-missions", "maybe-missions", "geheime-mission"}


@pytest.mark.slow
@pytest.mark.parametrize("game_id, seats", [("mission-emission", [PERSON, "greedy", "random"]), ("maybe-missions", [PERSON, "greedy", "greedy"])])
def test_a_game_continued_from_its_log_goes_on_as_it_would_have_without_the_pause(game_id, seats):
    """Chance draws and bot moves come from the seed and the actions so far: stopping after some
    moves, downloading the log and continuing from it gives the very game played in one sitting."""
    whole = Table(game_id, seats, seed=5)
    paused_log = None
    moves = 0
    while not whole.finished():
        seat = whole.seat_to_show()
        whole.play(seat, whole.moves(seat)[0].action)
        moves += 1
        if moves == 4:
            paused_log = whole.log_yaml()
    path = Path(tempfile.mkdtemp()) / "paused.yaml"
    path.write_text(paused_log, encoding="utf-8")
    resumed = Table(game_id, seats, log=read_log(path))
    while not resumed.finished():
        seat = resumed.seat_to_show()
        resumed.play(seat, resumed.moves(seat)[0].action)
    assert resumed.log_yaml() == whole.log_yaml()

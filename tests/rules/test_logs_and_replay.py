"""Game logs and ``deckpress replay``: hand-written logs accepted or pinpointed at the bad event
(index, line, reason code), unreadable logs refused with exit code 3, YAML and JSON Lines round
trips, and the documented example."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from deckpress.rules.core.bots import make_bot
from deckpress.rules.core.log import read_log, record, to_jsonl, to_yaml
from deckpress.rules.core.replay import replay
from deckpress.rules.core.simulate import game_rng, play_game
from tests.rules.helpers import content, me

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "content" / "mission-emission" / "logs" / "example-base.yaml"
LOGS = Path(__file__).resolve().parent / "logs"


def write(tmp_path: Path, text: str, name: str = "game.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


def example_with(tmp_path: Path, old: str, new: str) -> Path:
    text = EXAMPLE.read_text("utf-8")
    assert old in text
    return write(tmp_path, text.replace(old, new, 1))


def test_replay_accepts_the_hand_written_example_and_prints_the_scores(cli):
    result = cli("replay", EXAMPLE)
    assert result.exit_code == 0, result.output
    assert "86 events, all legal; the game is over" in result.stdout
    assert "seat 0: 26 (winner)" in result.stdout and "seat 1: 2" in result.stdout


def test_replay_pinpoints_the_mistake_at_event_7(cli):
    result = cli("replay", LOGS / "mistake-at-event-7.yaml")
    assert result.exit_code == 1
    first = result.stdout.splitlines()[0]
    assert first.endswith("mistake-at-event-7.yaml:15: event 7: chance.wrong-event: {chance: draw, seat: 1} is due, but the log has {chance: draw, seat: 0}")
    assert "6 events legal before it" in result.stdout


def test_replay_names_an_unknown_state_with_its_event_and_line(tmp_path, cli):
    path = example_with(tmp_path, "{seat: 0, play: Jharkhand}", "{seat: 0, play: Jarkhand}")
    result = cli("replay", path)
    assert result.exit_code == 1
    assert re.search(r"game\.yaml:13: event 4: log\.unknown-name: no card is called 'Jarkhand' \(did you mean Jharkhand\?\)", result.stdout)


def test_replay_refuses_a_card_not_in_hand_and_a_finished_pile(tmp_path, cli):
    result = cli("replay", example_with(tmp_path, "{seat: 1, play: Arunachal Pradesh}", "{seat: 1, play: Goa}"))
    assert result.exit_code == 1 and "event 5: card.not-in-hand: Goa is not in seat 1's hand" in result.stdout
    # round 4 chooses Crowd; make it Forest, finished after round 3
    result = cli("replay", example_with(tmp_path, "{seat: 1, mission: Crowd}", "{seat: 1, mission: forest}"))
    assert result.exit_code == 1 and "event 18: pile.closed: Forest pile is finished: choose another mission" in result.stdout


def test_replay_of_an_unfinished_game_is_legal_so_far(tmp_path, cli):
    text = EXAMPLE.read_text("utf-8").split("  # round 3")[0]
    result = cli("replay", write(tmp_path, text))
    assert result.exit_code == 0
    assert "12 events, all legal; the game is not over (seat 0 to choose a mission)" in result.stdout
    result = cli("replay", write(tmp_path, text + "result: {scores: [26, 2]}\n"))
    assert result.exit_code == 1
    assert "result: log.result-mismatch: the log records a result, but the game is not over: seat 0 to choose a mission" in result.stdout


def test_a_log_of_one_event_is_counted_as_one(tmp_path, cli):
    text = "game: geheime-mission\nparams: {players: 2}\nevents:\n  - {chance: deal, seat: 0, card: \"?\"}\n"
    result = cli("replay", write(tmp_path, text))
    assert result.exit_code == 0 and "game.yaml: 1 event, all legal; the game is not over" in result.stdout
    assert "the unseen draws of event 1 are never shown later" in result.output


def test_events_after_the_end_and_a_wrong_result_are_reported(tmp_path, cli):
    path = example_with(tmp_path, "result: {scores: [26, 2]}", "  - {seat: 1, mission: Water}\nresult: {scores: [26, 2]}")
    result = cli("replay", path)
    assert result.exit_code == 1 and "event 87: game.over: the game is over" in result.stdout
    result = cli("replay", example_with(tmp_path, "result: {scores: [26, 2]}", "result: {scores: [2, 26]}"))
    assert result.exit_code == 1
    assert re.search(r"game\.yaml:\d+: result: log\.result-mismatch: the log records scores \[2, 26\], the replay gives \[26, 2\]", result.stdout)


def test_replay_warns_when_the_content_differs_from_the_recording(tmp_path, cli):
    result = cli("replay", example_with(tmp_path, "params: {players: 2}", "content_hash: sha256:0000\nparams: {players: 2}"))
    assert result.exit_code == 0 and "warning: the log was recorded with other content" in result.stderr


def test_unreadable_logs_exit_3_with_the_place(tmp_path, cli):
    cases = {
        "missing.yaml": (None, "file does not exist"),
        "syntax.yaml": ("game: mission-emission\nevents: [\n", "YAML syntax error"),
        "list.yaml": ("- {seat: 0}\n", "a game log is a mapping"),
        "header.yaml": ("game: mission-emission\nplayers: 2\nevents: []\n", "game.yaml:2: unknown key 'players' in the log's header (known keys: game, engine"),
        "param.yaml": ("game: mission-emission\nparams: {player: 2}\nevents: []\n", ":2: unknown parameter 'player' (did you mean 'players'?)"),
        "game.yaml": ("game: chess\nevents: []\n", "no rules engine for 'chess'"),
        "alias.yaml": ("game: mission-emission\nparams: &p {players: 2}\nevents: []\n", "anchor"),
        "bad.jsonl": ('{"game": "mission-emission"}\n{"seat": 0,\n', "bad.jsonl:2: not valid JSON"),
        # Python's json reads NaN and Infinity; JSON has no such numbers, and NaN passes every range check
        "nan.jsonl": ('{"game": "mission-emission", "params": {"players": NaN}}\n', "nan.jsonl:1: not valid JSON: NaN is not a JSON number"),
    }
    for name, (text, message) in cases.items():
        path = tmp_path / name if text is None else write(tmp_path, text, "game.yaml" if name == "header.yaml" else name)
        result = cli("replay", path)
        assert result.exit_code == 3, (name, result.output)
        assert message in result.stderr, (name, result.stderr)
    result = cli("replay", tmp_path / "missing.yaml", "--format", "json")
    assert result.exit_code == 3 and json.loads(result.stdout)["readable"] is False


@pytest.mark.slow
def test_malformed_events_are_reported_at_their_index(tmp_path, cli):
    for event, message in [("{seat: 0, mision: Forest}", "event 3: log.malformed-event: a seat's event is {seat: N, mission: MISSION} or {seat: N, play: CARD}; this one has seat, mision"),
                           ("{seat: two, mission: Forest}", "event 3: log.malformed-event: 'seat' must be a seat number 0..1"),
                           ("{seat: 0, mission: Soil}", "event 3: log.unknown-name: no mission is called 'Soil'"),
                           ("{chance: deal, seat: 0, card: Goa}", "event 3: turn.seat-due: no chance event is due now: seat 0 to choose a mission"),
                           ("just text", "event 3: log.malformed-event: an event is a mapping"),
                           # a value of any length is quoted in a short excerpt that says how long it was
                           ("{seat: 0, mission: " + "Z" * 100_000 + "}", "event 3: log.unknown-name: no mission is called '" + "Z" * 60 + "… (100,000 characters)'")]:
        result = cli("replay", example_with(tmp_path, "{seat: 0, mission: Forest}", event))
        assert result.exit_code == 1 and message in result.stdout, (event, result.stdout)


def test_json_lines_logs_replay_and_report_as_json(cli):
    result = cli("replay", LOGS / "strategy-3-players.jsonl", "--format", "json")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["ok"] and report["finished"] and report["scores"] == [25.0, 7.0, 4.0] and report["winners"] == [0]
    assert report["params"]["mode"] == "strategy" and report["events_checked"] == 90


def test_recorded_logs_round_trip_through_yaml_and_json_lines(tmp_path):
    for mode in ("base", "strategy", "kids"):
        game = me(mode=mode, players=4)
        state = play_game(game, [make_bot(game.info.id, "greedy")] * 4, game_rng(3, 1))[0]
        log = record(game, state.history, seed=3)
        assert log.params == dict(game.params) and log.seed == 3 and log.content_hash == game.content_hash
        assert log.engine.endswith("mission-emission rules v1")
        for name, text in (("g.yaml", to_yaml(log)), ("g.jsonl", to_jsonl(log))):
            back = read_log(write(tmp_path, text, name))
            assert back.events == log.events and back.params == log.params and back.result == log.result
            assert back.lines[0] > 1
            result = replay(back, content=content())
            assert result.ok and result.finished and result.state.returns() == state.returns()


def test_the_documented_example_is_a_legal_log(tmp_path, cli):
    docs = (REPO / "docs" / "game-logs.md").read_text("utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", docs, re.S)
    assert blocks
    result = cli("replay", write(tmp_path, blocks[0]))
    assert result.exit_code == 0, result.output
    assert "17 events, all legal; the game is not over (seat 1 to choose a mission)" in result.stdout  # as the docs say
    assert "seat 0: 12" in result.stdout and "seat 1: 3" in result.stdout


def test_a_log_without_its_player_count_is_refused_with_that_reason(tmp_path, cli):
    # Without a params line, replay must not assume 4 players and then report an unrelated error.
    path = write(tmp_path, "game: mission-emission\nevents:\n  - {chance: deal, seat: 0, card: Goa}\n", "noplayers.yaml")
    result = cli("replay", path)
    assert result.exit_code == 3 and "the log does not say how many players sat at the table: add 'params: {players: N}'" in result.stderr


def test_replay_trace_shows_who_won_what_and_the_running_scores(cli):
    # "deckpress replay LOG --trace": round by round, who won what and the running score.
    example = Path(__file__).resolve().parents[2] / "content" / "mission-emission" / "logs" / "example-base.yaml"
    result = cli("replay", example, "--trace")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "event 5 {seat: 1, play: Arunachal Pradesh}: seat 1: won: Forest +3; scores 0, 3"
    assert "seat 0: won: Forest +5; scores 5, 3" in lines[1]


def test_replay_trace_shows_geheime_missions_fights_and_back_doors(cli):
    # as for the other games: who won each fight and each back door, and the suitcases when they change
    example = Path(__file__).resolve().parents[2] / "content" / "geheime-mission" / "logs" / "example-base.yaml"
    result = cli("replay", example, "--trace")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == ("event 5 {seat: 1, centre: Granite}: seat 0 wins the city-centre duel (Silver Fox 9 against Granite 6) "
                        "and takes the suitcase")
    assert ("event 52 {seat: 1, door: Red}: seat 1 gets in by the Red door (the officer watched the Blue one): a suitcase for "
            "seat 1; suitcases seat 0: 0, seat 1: 1") in lines
    assert any("snatches the suitcase" in line for line in lines) and any("defence holds" in line for line in lines)


@pytest.mark.parametrize("game_id", ["mission-emission", "fifty-missions", "maybe-missions", "geheime-mission"])
def test_every_mode_has_an_example_log_that_replays_to_the_end(game_id):
    # One example log per game and mode under content/<game>/logs/, each replayed by a test.
    from deckpress.generator.content import load_game

    folder = Path(__file__).resolve().parents[2] / "content" / game_id / "logs"
    for mode in [m["id"] for m in load_game(game_id)["game"]["modes"]]:
        result = replay(read_log(folder / f"example-{mode}.yaml"))
        assert result.ok and result.finished, (mode, result.error)
        assert result.log.ruleset == mode or result.game.params.get("mode") == mode  # the mode it plays
        assert result.log.result is not None  # its recorded result is checked too

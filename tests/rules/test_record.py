"""``deckpress record``: a game written down at the table, event by event."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckpress.generator.cli import main
from deckpress.rules.core.errors import IllegalAction
from deckpress.rules.core.log import format_event, read_log
from deckpress.rules.core.recorder import Recorder
from deckpress.rules.core.registry import load
from deckpress.rules.core.replay import replay

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "content" / "mission-emission" / "logs" / "example-base.yaml"


def typed(event: dict) -> str:
    """How a person types ``event`` at the prompt: its log form without braces or seat/chance."""
    return format_event({k: v for k, v in event.items() if k not in ("seat", "chance")})[1:-1]


def lines_of(path: Path) -> list[str]:
    """The lines a person types to record the log at ``path`` (the seat named before a seat's
    move, as it must be when several seats may act)."""
    out = []
    for event in read_log(path).events:
        for card in event.get("cards", [None]):
            single = {k: v for k, v in event.items() if k != "cards"}
            if card is not None:
                single["card"] = card
            out.append(("" if "chance" in single else f"seat {single['seat']} ") + typed(single))
    return out


def record(tmp_path: Path, lines: list[str], *args: str):
    out = tmp_path / "game.yaml"
    result = CliRunner().invoke(main, ["record", "mission-emission", "--players", "2", "--out", str(out), *args],
                                input="\n".join(lines) + "\n", catch_exceptions=False)
    return result, out


@pytest.mark.slow
def test_record_writes_a_log_that_replay_accepts_with_the_tables_result(tmp_path, cli):
    result, out = record(tmp_path, lines_of(EXAMPLE))
    assert result.exit_code == 0, result.output
    assert "90 events; the game is over; seat 0: 26, seat 1: 2" in result.stdout
    replayed = cli("replay", out)
    assert replayed.exit_code == 0, replayed.output
    assert "90 events, all legal; the game is over" in replayed.stdout and "seat 0: 26 (winner)" in replayed.stdout
    assert read_log(out).result == {"scores": [26, 2], "winners": [0]}


def test_an_illegal_line_is_refused_at_once_with_its_reason_and_asked_again(tmp_path):
    lines = lines_of(EXAMPLE)[:8] + ["play: Uttarakhand"] + lines_of(EXAMPLE)[8:9] + ["quit"]
    result, out = record(tmp_path, lines)
    assert "refused: card.not-in-hand: Uttarakhand is not in seat 1's hand" in result.stderr
    assert len(read_log(out).events) == 9  # the refused line is not in the log; the next one is


@pytest.mark.slow
def test_every_event_is_on_disk_as_soon_as_it_is_accepted_and_resume_continues(tmp_path, cli):
    lines = lines_of(EXAMPLE)
    first, out = record(tmp_path, lines[:20])  # input ends (a closed terminal, a crash): nothing is lost
    assert first.exit_code == 0 and "20 events; stopped" in first.stdout
    assert len(read_log(out).events) == 20 and replay(read_log(out)).ok
    again, _ = record(tmp_path, lines[20:], "--resume")
    assert again.exit_code == 0 and "90 events; the game is over" in again.stdout
    assert cli("replay", out).exit_code == 0


def test_an_existing_log_is_not_overwritten_without_resume(tmp_path):
    record(tmp_path, ["quit"])
    result, _ = record(tmp_path, ["quit"])
    assert result.exit_code == 2 and "exists: --resume continues it, --out names another file" in result.output


def test_the_recorder_offers_the_legal_choices_and_takes_unseen_cards_and_undo():
    game = load("mission-emission", None, {"players": 2})
    recorder = Recorder(game)
    for line in ("Uttarakhand", "Goa", "Jharkhand", "?", "?", "?"):
        recorder.add(line)
    assert recorder.due() == "seat 0 to choose a mission"
    assert [c.text for c in recorder.choices()] == ["mission: Forest", "mission: Energy", "mission: Water", "mission: Smoke",
                                                   "mission: Crowd", "mission: Garbage"]
    assert recorder.add("Forest") == {"seat": 0, "mission": "Forest"}  # the value alone when one verb is due
    choices = [c.text for c in recorder.choices()]
    assert sorted(choices) == ["play: Goa", "play: Jharkhand", "play: Uttarakhand"]
    second = {"seat": 0, "play": choices[1].split(": ")[1]}
    assert recorder.add("2") == second  # the number of a listed choice
    assert recorder.undo() == second and len(recorder.log.events) == 7


def test_a_line_of_the_wrong_kind_at_a_draw_says_what_is_due():
    game = load("mission-emission", None, {"players": 2})
    recorder = Recorder(game)
    try:
        recorder.add("play: Goa")
    except Exception as exc:  # IllegalAction
        assert "a deal of a card to seat 0 is due: type the card (or ? for one not seen)" in str(exc)
    else:
        raise AssertionError("a play was taken as a deal")


@pytest.mark.slow
@pytest.mark.parametrize("example", ["fifty-missions/logs/example-crazy.yaml", "geheime-mission/logs/example-base.yaml",
                                     "maybe-missions/logs/example-gadgets.yaml", "mission-emission/logs/example-strategy.yaml"])
def test_every_game_can_be_recorded_to_its_examples_result(example, tmp_path):
    source = REPO / "content" / example
    log = read_log(source)
    args = ["record", log.game, "--out", str(tmp_path / "game.yaml")] + (["--ruleset", log.ruleset] if log.ruleset else [])
    for key, value in log.params.items():
        args += ["-p", f"{key}={json.dumps(value)}"]
    result = CliRunner().invoke(main, args, input="\n".join(lines_of(source)) + "\n", catch_exceptions=False)
    assert result.exit_code == 0 and "the game is over" in result.stdout, result.output
    assert "refused" not in result.stderr
    recorded = replay(read_log(tmp_path / "game.yaml"))
    assert recorded.ok and recorded.state.returns() == replay(log).state.returns()


@pytest.mark.slow
def test_a_vote_is_typed_by_its_printed_number_not_read_as_a_choice_number():
    """Maybe Missions' votes are numbered cards: at the deal, '5' is vote 5 (never the fifth card
    still undealt), and typing 5 again is refused as a card already dealt."""
    recorder = Recorder(load("maybe-missions", None, {"players": 4}))
    assert recorder.add("5")["card"] in ("5", 5)
    with pytest.raises(Exception) as refused:  # IllegalAction
        recorder.add("5")
    assert "5" in str(refused.value)
    assert len(recorder.log.events) == 1


@pytest.mark.slow
def test_a_log_stopped_before_its_first_event_replays_as_a_game_not_begun(tmp_path, cli):
    # 'record' then 'quit' at once: the log it writes says 'events: []', and replay (the command
    # its header names) reads it, as it reads a hand-written 'events:' with nothing after it
    result, out = record(tmp_path, ["quit"])
    assert result.exit_code == 0 and "events: []" in out.read_text("utf-8")
    for path in (out, tmp_path / "bare.yaml"):
        if path.name == "bare.yaml":
            path.write_text("game: mission-emission\nparams: {players: 2}\nevents:\n", "utf-8")
        replayed = cli("replay", path)
        assert replayed.exit_code == 0, replayed.output
        assert "0 events, all legal; the game is not over (a deal of a card to seat 0)" in replayed.stdout


def test_the_draws_of_a_round_can_be_typed_as_one_list_as_the_log_writes_them(tmp_path):
    # docs/game-logs.md: an event with 'card' may list 'cards'; typed so, each card is a chance
    # event of its own, all or none
    lines = ["cards: [Uttarakhand, Goa, Jharkhand]", 'cards: [Assam, Bihar, "Daman & Diu", Kerala]',
             'cards: [Assam, Bihar, "Daman & Diu"]', "quit"]
    result, out = record(tmp_path, lines)
    assert ("refused: log.malformed-event: 4 cards listed, but only 3 are due in a row (a deal of a card to seat 1): "
            "list those, then type what follows") in result.stderr
    events = read_log(out).events
    assert [e["card"] for e in events] == ["Uttarakhand", "Goa", "Jharkhand", "Assam", "Bihar", "Daman & Diu"]
    assert [e["seat"] for e in events] == [0, 0, 0, 1, 1, 1]


@pytest.mark.slow
def test_a_game_on_a_fan_variant_is_recorded_with_its_rules_and_resumed(tmp_path, cli):
    # the set-collection variant is one parameter: recorded on it, the log plays by it, says how
    # to replay it (with --content), and the line that says how to go on names the variant
    variant = REPO / "content" / "variants" / "mission-emission-set-collection.yaml"
    out = tmp_path / "sets.yaml"

    def run(*lines: str, resume: bool = False):
        return CliRunner().invoke(main, ["record", str(variant), "--out", str(out), *(["--resume"] if resume else [])],
                                  input="\n".join(lines) + "\n", catch_exceptions=False)

    first = run("cards: [Uttarakhand, Goa, Jharkhand]", "quit")
    assert first.exit_code == 0, first.output
    assert f"deckpress record {variant} --resume --out {out} continues" in first.stdout
    assert read_log(out).params["set_collection"] is True and read_log(out).params["players"] == 4
    assert f"# Check it: deckpress replay sets.yaml --content {variant}" in out.read_text("utf-8")
    assert run("cards: [Assam, Bihar, Kerala]", "quit", resume=True).exit_code == 0
    replayed = cli("replay", out, "--content", variant)
    assert replayed.exit_code == 0 and "6 events, all legal" in replayed.stdout and "set_collection=true" in replayed.stdout


# -- every line typed at any prompt gets an answer or a refusal, never a traceback -----------------
#: Games and rulesets recorded, each at prompts reached by seeded random choices.
RECORDED = [("mission-emission", "base"), ("mission-emission", "strategy"), ("mission-emission", "kids"),
            ("fifty-missions", "standard"), ("fifty-missions", "crazy"), ("maybe-missions", "all"), ("geheime-mission", None)]
_RECORDERS: dict = {}


def _recorder_at(game_id: str, ruleset, steps: int) -> Recorder:
    """A recorder after ``steps`` choices taken at random (seeded), kept between examples."""
    key = (game_id, ruleset, steps)
    if key not in _RECORDERS:
        import random

        rec, rng = Recorder(load(game_id, ruleset)), random.Random(steps)
        for _ in range(steps):
            if rec.finished or not rec.choices():
                break
            rec.add(rng.choice(rec.choices()).text)
        _RECORDERS[key] = rec
    return _RECORDERS[key]


FRAGMENTS = ["seat", "seat 0", "seat 1", "seat 9", "seat -1", "0", "1", "2", "-3", "99999999999999999999", "?", "??", "{", "}",
             "[", "]", ":", ",", "-", "cards:", "card:", "play:", "mission:", "vote:", "door:", "officer:", "centre:", "attack:",
             "propose:", "collect:", "takes_master:", "slot:", "chance:", "deal", "draw", "done", "none", "Yellow", "Goa",
             "Forest", "Cinder", "master-08", "red lighter 5", "\"", "'", "&", "*", "!!python/object", "é", "\t", "null", "~"]
LINES = st.one_of(st.text(max_size=60), st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=8).map(" ".join),
                  st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=8).map("".join))


@pytest.mark.slow
@pytest.mark.parametrize("game_id, ruleset", RECORDED, ids=[f"{g}-{r}" for g, r in RECORDED])
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.sampled_from([0, 3, 12, 25]), line=LINES)
def test_any_line_at_any_prompt_is_taken_or_refused_never_a_traceback(game_id, ruleset, steps, line):
    # "?" where a seat's choice is due raised IndexError in the engine (mission_emission/common.py)
    rec = _recorder_at(game_id, ruleset, steps)
    kept = list(rec.log.events)
    try:
        rec.add(line)
    except IllegalAction as exc:
        assert exc.message and rec.log.events == kept  # a refusal in words, and the recording unchanged
    else:
        while len(rec.log.events) > len(kept):
            rec.undo()


def test_a_question_mark_where_a_seat_chooses_is_refused_in_words():
    rec = _recorder_at("mission-emission", "base", 12)
    assert rec.due().endswith("to choose a mission")
    with pytest.raises(IllegalAction, match="stands for a card nobody saw in a chance event"):
        rec.add("?")


def test_the_logs_brace_form_is_accepted_at_a_simultaneous_step():
    import random

    rec, rng = Recorder(load("geheime-mission")), random.Random(2)
    while "in secret" not in rec.due():
        rec.add(rng.choice(rec.choices()).text)
    door, officer = (c.event for c in rec.choices() if "door" in c.event), (c.event for c in rec.choices() if "officer" in c.event)
    d, o = next(door), next(officer)
    rec.add(f"{{seat: {d['seat']}, door: {d['door']}}}")  # as docs/game-logs.md writes it
    rec.add(f"seat: {o['seat']}, officer: {o['officer']}")  # and without the braces
    assert rec.log.events[-2:] == [d, o]
    assert any("door" in news or "officer" in news for news in rec.news)  # who won the back door, said


def test_a_hand_typed_as_a_comma_list_is_taken_card_by_card_or_refused_with_the_cards_form():
    rec = Recorder(load("geheime-mission"))
    names = [c.event["card"] for c in rec.choices()[:3]]
    rec.add(", ".join(names))
    assert [e["card"] for e in rec.log.events] == names
    with pytest.raises(IllegalAction, match=r"write cards: \[\.\.\.\]"):
        rec.add("Nobody, Nothing")


@pytest.mark.slow
def test_record_says_who_won_each_fight_and_back_door_of_geheime_mission(tmp_path):
    # after each line, record says what it did: Geheime Mission's duels, embassy fights and back doors
    example = REPO / "content" / "geheime-mission" / "logs" / "example-base.yaml"
    out = tmp_path / "gm.yaml"
    result = CliRunner().invoke(main, ["record", "geheime-mission", "--out", str(out)],
                                input="\n".join(lines_of(example)) + "\n", catch_exceptions=False)
    assert result.exit_code == 0
    said = [line for line in result.stderr.splitlines() if line.startswith("  -> ")]
    assert "  -> seat 0 wins the city-centre duel (Silver Fox 9 against Granite 6) and takes the suitcase" in said
    assert any("gets in by the" in line or "suitcase is lost" in line for line in said)
    assert replay(read_log(out)).finished

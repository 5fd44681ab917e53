"""deckpress sweep: a game over a grid of parameter and card values, each
point with the same seeds, a heat map and the best point, and every point a variant file that
deckpress check accepts."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest
from conftest import line_of
from PIL import Image

POINT_VALUES = ("--vary", "point-cards:forest-bottom.points=7,9", "--vary", "point-cards:smoke-bottom.points=-5,-7")


def refused_file(cli, tmp_path, text: str):
    """Run a sweep of the file ``text`` (``tmp_path/sweep.yaml``) that must be refused: exit 1, no
    output folder.  Returns the result."""
    path = tmp_path / "sweep.yaml"
    path.write_text(text, "utf-8")
    result = cli("sweep", "--file", path, "--out", tmp_path / "out")
    assert result.exit_code == 1 and not (tmp_path / "out").exists(), result.output
    return result


def file_errors(result) -> list[str]:
    """The errors a sweep printed about its file, each from ``sweep.yaml:`` on."""
    return [line[line.index("sweep.yaml:"):] for line in result.output.splitlines() if "sweep.yaml:" in line]


@pytest.mark.slow
def test_a_sweep_over_two_point_values_gives_a_heat_map_and_the_best_point(cli, tmp_path):
    result = cli("sweep", "mission-emission", *POINT_VALUES, "--games", "60", "--players", "3", "--workers", "1", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "sweep.json").read_text("utf-8"))
    assert [p["values"] for p in data["points"]] == [
        {"point-cards:forest-bottom.points": 7, "point-cards:smoke-bottom.points": -5},
        {"point-cards:forest-bottom.points": 7, "point-cards:smoke-bottom.points": -7},
        {"point-cards:forest-bottom.points": 9, "point-cards:smoke-bottom.points": -5},
        {"point-cards:forest-bottom.points": 9, "point-cards:smoke-bottom.points": -7}]
    spreads = [p["figures"]["spread"] for p in data["points"]]
    best = data["best"][0]
    assert spreads[best - 1] == min(spreads)  # the best point is the fairest
    assert f"best by fairness: point {best} " in result.output
    assert len({tuple(p["figures"]["win_rates"]) for p in data["points"]}) > 1  # the card values change the games
    with Image.open(tmp_path / "heatmap.png") as image:
        assert image.format == "PNG" and image.width > 300 and image.height > 200


def test_each_point_is_a_variant_file_that_check_accepts(cli, tmp_path):
    assert cli("sweep", "mission-emission", "--vary", "point-cards:forest-bottom.points=9", "--vary", "tie=first-played",
               "--games", "20", "--players", "3", "--workers", "1", "--out", tmp_path).exit_code == 0
    variant = tmp_path / "points" / "point-001.yaml"
    text = variant.read_text("utf-8")
    assert "extends: mission-emission" in text and "tie: first-played" in text and "points: 9" in text
    result = cli("check", variant, "--no-simulate", "--report", tmp_path / "report")
    assert result.exit_code == 0 and "verdict: accept" in result.output


@pytest.mark.slow
def test_a_point_of_long_values_is_still_a_variant_file_that_check_accepts(cli, tmp_path):
    # the point's values make its name; the variant schema takes at most 100 characters of it
    result = cli("sweep", "mission-emission", "--vary", "states:goa.values.forest.value=60", "--vary", "point-cards:forest-bottom.points=9",
                 "--vary", "tie=first-played", "--games", "5", "--players", "2", "--workers", "1", "--out", tmp_path)
    assert result.exit_code == 0 and "not simulated" not in result.output, result.output
    checked = cli("check", tmp_path / "points" / "point-001.yaml", "--no-simulate", "--report", tmp_path / "report")
    assert checked.exit_code == 0 and "verdict: accept" in checked.output


def test_a_point_files_schema_modeline_names_a_schema_that_is_there(cli, tmp_path):
    # the output folder is anywhere: the schema the modeline names is written beside the points,
    # self-contained, as deckpress init writes a new game's
    import jsonschema
    import yaml

    assert cli("sweep", "mission-emission", "--vary", "tie=nobody", "--games", "5", "--players", "2", "--workers", "1",
               "--out", tmp_path).exit_code == 0
    point = tmp_path / "points" / "point-001.yaml"
    first = point.read_text("utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../.schemas/variant.schema.json"
    schema = json.loads((point.parent / first.split("$schema=", 1)[1]).read_text("utf-8"))
    jsonschema.Draft202012Validator(schema).validate(yaml.safe_load(point.read_text("utf-8")))  # no $ref to a file that is not there


@pytest.mark.slow
def test_a_cards_measures_keep_one_key_at_every_point(cli, tmp_path):
    # at 5 forest-bottom prints as forest-middle does ("Forest +5"), so the engine names both by id;
    # at 9 it prints alone ("Forest +9"): in the sweep each card has its id as its key at every point
    assert cli("sweep", "mission-emission", "--vary", "point-cards:forest-bottom.points=5,9", "--games", "10", "--players", "2",
               "--workers", "1", "--out", tmp_path).exit_code == 0
    won = [p["figures"]["measures"]["Point cards won (share of games)"]
           for p in json.loads((tmp_path / "sweep.json").read_text("utf-8"))["points"]]
    assert set(won[0]) == set(won[1]) and {"forest-top", "forest-middle", "forest-bottom", "smoke-top"} <= set(won[0])
    assert len(won[0]) == 18  # every point card


def test_measures_of_two_groups_with_one_name_are_both_kept():
    # Maybe Missions names a master rule in two groups (rounds it changed, rounds that succeeded)
    from deckpress.generator.sweep import figures

    sim = {"games": 10, "cut_off_by_move_bound": 0, "length_in_moves": {"p50": 30, "mean": 31.0}, "cooperative": False,
           "draw_rate": 0.0, "seats": [{"win_rate": 0.5}, {"win_rate": 0.5}],
           "measures": [{"group": "changed", "name": "vote_cutoff", "value": 0.1}, {"group": "succeeded", "name": "vote_cutoff", "value": 0.7},
                        {"group": "won", "name": "Forest +5", "key": "forest-middle", "value": 0.4}]}
    assert figures(sim)["measures"] == {
        "changed": {"vote_cutoff": 0.1}, "succeeded": {"vote_cutoff": 0.7}, "won": {"forest-middle": 0.4}}


def test_a_point_gives_the_same_figures_with_any_number_of_workers(cli, tmp_path):
    runs = []
    for workers in ("1", "2"):
        out = tmp_path / workers
        assert cli("sweep", "geheime-mission", "--vary", "next_round=guess-winner,carrier", "--games", "80", "--workers", workers,
                   "--out", out).exit_code == 0
        runs.append([p["figures"] for p in json.loads((out / "sweep.json").read_text("utf-8"))["points"]])
    assert runs[0] == runs[1]


def test_a_card_value_the_content_refuses_is_refused_before_anything_is_written(cli, tmp_path):
    # a value out of range or of the wrong kind would make a point's variant file one that
    # deckpress check rejects: every one is refused up front, named by its --vary argument, as a
    # usage error (exit 2), and nothing is written or simulated
    out = tmp_path / "out"
    result = cli("sweep", "mission-emission", "--vary", "states:goa.values.forest.value=50,150", "--vary",
                 "point-cards:forest-bottom.points=7,not-a-number", "--games", "20", "--workers", "1", "--out", out)
    assert result.exit_code == 2 and not out.exists()
    assert ("vary: states:goa.values.forest.value=150: states[5] (Goa): Forest value 150 is outside the mission's range 0..100"
            in result.output)
    assert ('vary: point-cards:forest-bottom.points=not-a-number: point_cards[2].points: expected a whole number, '
            'found the text "not-a-number"') in result.output
    assert "value=50:" not in result.output and "points=7:" not in result.output  # the good values are not errors


def test_card_values_the_content_refuses_in_a_sweep_file_are_errors_at_their_lines(cli, tmp_path):
    path = tmp_path / "sweep.yaml"
    path.write_text('game: mission-emission\nvary:\n  states:goa.values.forest.value: [50, 150]\n'
                    '  point-cards:forest-bottom.points: [5, "x", 9, "y"]\n', "utf-8")
    result = cli("sweep", "--file", path, "--games", "20", "--workers", "1", "--out", tmp_path / "out")
    assert result.exit_code == 1 and not (tmp_path / "out").exists()
    lines = path.read_text("utf-8").splitlines()
    goa = lines[2].index("150") + 1
    x, y = (lines[3].index(f'"{value}"') + 1 for value in "xy")  # a quoted value's column is its opening quote's
    assert file_errors(result) == [
        (f"sweep.yaml:3:{goa}: vary: states:goa.values.forest.value=150: states[5] (Goa): Forest value 150 is outside "
         "the mission's range 0..100 (missions.yaml)"),
        (f"sweep.yaml:4:{x}: vary: point-cards:forest-bottom.points=x: point_cards[2].points: expected a whole number, "
         'found the text "x"'),
        (f"sweep.yaml:4:{y}: vary: point-cards:forest-bottom.points=y: point_cards[2].points: expected a whole number, "
         'found the text "y"')]


def test_a_sweep_file_lists_every_error_in_one_run(cli, tmp_path):
    # a part the schema refuses is left out, and the rest is still checked against the engine and the content
    result = refused_file(cli, tmp_path, 'game: mission-emission\nobjective: fastest\nvary:\n  piles_to_end: [2, 3, 17]\n'
                                         '  tie: [nobody, nobody]\n  point-cards:forest-bottom.points: [5, "x"]\nplayers: 9\n')
    assert file_errors(result) == [
        'sweep.yaml:2:12: objective: the text "fastest" is not one of: fairness, first-seat, shortest, team, skill',
        "sweep.yaml:4:24: vary: parameter 'piles_to_end': 17 is outside 1..16",
        "sweep.yaml:5:8: vary.tie: the list holds the same item twice; each item may appear once",
        'sweep.yaml:6:41: vary: point-cards:forest-bottom.points=x: point_cards[2].points: expected a whole number, found the text "x"',
        "sweep.yaml:7:10: players: parameter 'players': 9 is outside 2..6"]


@pytest.mark.slow
def test_values_that_do_not_fit_together_are_refused_before_anything_is_written(cli, tmp_path):
    # piles_to_end 16 is in its range but above the 6 missions: the engine refuses the point; found
    # up front, as the command line's usage error (2) or the sweep file's error at its line (1)
    result = cli("sweep", "mission-emission", "--vary", "piles_to_end=4,16", "--vary", "tie=nobody,first-played", "--games", "10",
                 "--workers", "1", "--out", tmp_path / "out")
    assert result.exit_code == 2 and not (tmp_path / "out").exists()
    assert result.output.count("vary: piles_to_end=16: parameter 'piles_to_end': 16 is more than the 6 missions") == 1
    path = tmp_path / "sweep.yaml"
    path.write_text("game: mission-emission\nvary:\n  piles_to_end: [4, 16]\n  tie: [nobody, first-played]\n", "utf-8")
    result = cli("sweep", "--file", path, "--games", "10", "--workers", "1", "--out", tmp_path / "out")
    assert result.exit_code == 1 and not (tmp_path / "out").exists()
    assert "sweep.yaml:3:21: vary: piles_to_end=16: parameter 'piles_to_end': 16 is more than the 6 missions" in result.output
    # so are bots that are not one per seat at a point (they used to end the sweep in a traceback)
    path.write_text("game: mission-emission\nbots: [greedy, random]\nvary:\n  players: [2, 3]\n", "utf-8")
    result = cli("sweep", "--file", path, "--games", "10", "--workers", "1", "--out", tmp_path / "out")
    assert result.exit_code == 1 and not (tmp_path / "out").exists()
    assert "sweep.yaml:2:7: bots: 2 bots for 3 seats: give one bot per seat, in seat order" in result.output


@pytest.mark.slow
def test_a_sweep_file_is_checked_against_its_schema(cli, tmp_path):
    path = tmp_path / "sweep.yaml"
    path.write_text("game: mission-emission\nvary:\n  tie: [nobody, first-played]\nobjective: fairest\ngames: 10\n", "utf-8")
    result = cli("sweep", "--file", path)
    assert result.exit_code == 1
    assert f"sweep.yaml:{line_of(path, 'objective')}:" in result.output and "fairest" in result.output
    path.write_text("game: mission-emission\nplayers: 2\nvary:\n  tie: [nobody, first-played]\ngames: 10\n", "utf-8")
    result = cli("sweep", "--file", path, "--workers", "1", "--out", tmp_path / "out")
    assert result.exit_code == 0 and "2 points x 10 games" in result.output


def test_what_no_engine_can_play_in_a_sweep_file_is_an_error_at_its_line(cli, tmp_path):
    # a game, ruleset, parameter, value, bot or budget no engine can play is an error in the file,
    # like a schema error: every one, at its line, before any point is written
    result = refused_file(cli, tmp_path, "game: geheime-mission\nbots: [greedy, smart]\nvary:\n  next_round: [carrier]\n"
                                         "skill_games: 2\nskill_bot: rollout:0\n")
    path = tmp_path / "sweep.yaml"
    assert "sweep.yaml:2:16: bots: unknown bot 'smart' for geheime-mission (known bots: greedy, ismcts, random, rollout" in result.output
    assert "sweep.yaml:6:12: skill_bot: rollout:0: the determinisations a decision are 1 to 10,000" in result.output
    path.write_text("game: geheime-mission\nruleset: fancy\nplayers: 3\nvary:\n  nxt_round: [carrier]\n"
                    "  next_round: [sideways, carrier]\n", "utf-8")
    result = cli("sweep", "--file", path, "--out", tmp_path / "out")
    assert result.exit_code == 1 and not (tmp_path / "out").exists()
    assert ["sweep.yaml:" + line.split("sweep.yaml:", 1)[1] for line in result.output.splitlines() if "sweep.yaml:" in line] == [
        "sweep.yaml:2:10: ruleset: unknown ruleset 'fancy' (known: base)",
        "sweep.yaml:3:10: players: parameter 'players': 3 is outside 2..2",
        "sweep.yaml:5:3: vary: unknown parameter 'nxt_round' (did you mean 'next_round'?)",
        "sweep.yaml:6:16: vary: parameter 'next_round': 'sideways' is not one of: guess-winner, carrier, alternate"]
    path.write_text("game: mission-emission\nvary:\n  point-cards:forest-botom.points: [1, 2]\n  pont-cards:x.points: [1]\n", "utf-8")
    result = cli("sweep", "--file", path, "--out", tmp_path / "out")
    assert result.exit_code == 1 and not (tmp_path / "out").exists()
    assert ("sweep.yaml:3:3: vary: no card 'forest-botom' in point-cards.yaml (did you mean 'forest-bottom' or 'forest-top' or "
            "'forest-middle'?)") in result.output
    assert "sweep.yaml:4:3: vary: 'pont-cards' is not a card file of mission-emission (card files: " in result.output
    path.write_text("game: tic-tac-toe\nvary:\n  tie: [nobody]\n", "utf-8")
    result = cli("sweep", "--file", path)
    assert result.exit_code == 1 and "sweep.yaml:1:7: game: no rules engine for 'tic-tac-toe'" in result.output


def test_a_sweep_whose_points_all_fail_exits_with_an_error(cli, tmp_path, monkeypatch):
    # what the checks before the sweep do not foresee (here: nothing, as if they had let the values
    # through) is found when each point's variant is merged: nothing was simulated
    monkeypatch.setattr("deckpress.generator.sweep.sweep_problems", lambda sweep: [])
    result = cli("sweep", "mission-emission", "--vary", "point-cards:forest-bottom.points=abc,xyz", "--games", "5", "--out", tmp_path)
    assert result.exit_code == 1 and "no point of the sweep could be simulated" in result.output
    for index, value in enumerate(("abc", "xyz"), 1):
        line = next(line for line in result.output.splitlines() if line.startswith(f"    {index}  point-cards:forest-bottom.points={value}"))
        assert f'not simulated: point_cards[2].points: expected a whole number, found the text "{value}"' in line  # what is wrong, first
    assert json.loads((tmp_path / "sweep.json").read_text("utf-8"))["best"] == []


def test_bad_vary_is_refused_with_the_form_expected(cli, tmp_path):
    result = cli("sweep", "mission-emission", "--vary", "tie")
    assert result.exit_code == 2 and "expected TARGET=V1,V2,..." in result.output
    # a value given twice would simulate the same point twice: refused, on the command line and in a file
    result = cli("sweep", "mission-emission", "--vary", "piles_to_end=3,4,3.0", "--out", tmp_path)
    assert result.exit_code == 2 and "'piles_to_end=3,4,3.0': the value 3.0 is given twice" in result.output
    path = tmp_path / "sweep.yaml"
    path.write_text("game: mission-emission\nvary:\n  tie: [nobody, nobody]\n", "utf-8")
    result = cli("sweep", "--file", path, "--out", tmp_path)
    assert result.exit_code == 1 and "sweep.yaml:3:8: vary.tie: the list holds the same item twice" in result.output
    assert not (tmp_path / "sweep.json").exists()


@pytest.mark.slow
def test_a_local_dask_cluster_gives_the_local_backends_results_byte_for_byte(cli, tmp_path):
    # the same seed gives the same results on every backend and any number of workers
    runs = []
    for backend in (("--backend", "local", "--workers", "1"), ("--backend", "dask", "--workers", "2")):
        result = cli("simulate", "mission-emission", "--games", "450", "--players", "3", "--seed", "5", "--format", "json", *backend)
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        data.pop("timing")
        runs.append(json.dumps(data, sort_keys=True))
    assert runs[0] == runs[1]
    out = []
    for backend in ("local", "dask"):
        assert cli("sweep", "geheime-mission", "--vary", "next_round=guess-winner,carrier", "--games", "250", "--backend", backend,
                   "--out", tmp_path / backend).exit_code == 0
        data = json.loads((tmp_path / backend / "sweep.json").read_text("utf-8"))
        out.append([{k: v for k, v in p.items() if k != "variant"} for p in data["points"]])  # the same figures, point by point
    assert out[0] == out[1] and all("figures" in p for p in out[0])


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_line(cli, monkeypatch):
    monkeypatch.setattr("deckpress.rules.core.simulate.SCHEDULER_TIMEOUT_S", 1)  # the default 10 s, unwaited
    result = cli("simulate", "geheime-mission", "--games", "10", "--scheduler", "tcp://127.0.0.1:9")
    assert result.exit_code == 2 and "the Dask scheduler tcp://127.0.0.1:9 cannot be reached" in result.output


SKILL = ("--skill-games", "12", "--skill-iterations", "8")


@pytest.mark.slow
def test_an_opt_in_skill_signal_is_reported_per_point_and_can_pick_the_best_point(cli, tmp_path):
    # per point the skill signal, on the point's own card values
    text = cli("sweep", "mission-emission", "--vary", "point-cards:forest-bottom.points=7,9", "--games", "20", "--players", "2",
               "--workers", "1", *SKILL, "--objective", "skill", "--out", tmp_path)
    assert text.exit_code == 0, text.output
    data = json.loads((tmp_path / "sweep.json").read_text("utf-8"))  # what --format json prints
    assert data["skill_games"] == 12 and data["skill_iterations"] == 8 and data["objective"] == "skill"
    skills = [p["skill"] for p in data["points"]]
    assert all(s["bot"] == "ismcts:8" and s["against"] == "greedy" and s["games"] + s["cut_off_by_move_bound"] == 12 for s in skills)
    signals = [s["signal_points"] for s in skills]
    assert all(0 <= x <= 100 for x in signals)
    assert signals[data["best"][0] - 1] == max(signals)  # the best point has the most skill
    assert f"best by skill: point {data['best'][0]} " in text.output
    assert "skill (pts): the win share of one ismcts:8 seat against greedy seats" in text.output
    lines = text.output.splitlines()
    for index, signal in enumerate(signals, 1):
        assert lines[index + 1].startswith(f"    {index}  point-cards:forest-bottom.points={(7, 9)[index - 1]}: win rates")
        assert f", skill {signal:.1f} pts (95 %: " in lines[index + 1]
    # without --skill-games the points carry no skill signal, and the text no column
    plain = cli("sweep", "mission-emission", "--vary", "tie=nobody", "--games", "5", "--players", "2", "--workers", "1",
                "--out", tmp_path / "plain")
    assert plain.exit_code == 0 and "skill (pts)" not in plain.output and " pts" not in plain.output
    assert json.loads((tmp_path / "plain" / "sweep.json").read_text("utf-8"))["points"][0]["skill"] is None


@pytest.mark.slow
def test_a_point_with_changed_cards_gets_the_skill_signal_of_its_own_content(cli, tmp_path):
    # the same figures as deckpress check measures for the point's variant file
    assert cli("sweep", "mission-emission", "--vary", "point-cards:forest-bottom.points=9", "--games", "10", "--players", "2",
               "--workers", "1", *SKILL, "--out", tmp_path).exit_code == 0
    point = json.loads((tmp_path / "sweep.json").read_text("utf-8"))["points"][0]
    checked = cli("check", point["variant"], "--games", "10", "--workers", "1", *SKILL, "--format", "json", "--report", tmp_path / "report")
    report = json.loads(checked.stdout)
    assert report["skill"]["variant"] == point["skill"]


def test_the_skill_objective_without_the_skill_signal_is_a_usage_error(cli, tmp_path):
    result = cli("sweep", "mission-emission", "--vary", "tie=nobody", "--objective", "skill", "--out", tmp_path)
    assert result.exit_code == 2 and "--objective skill needs the skill signal: add --skill-games N" in result.output
    path = tmp_path / "sweep.yaml"
    path.write_text("game: mission-emission\nvary:\n  tie: [nobody]\nobjective: skill\n", "utf-8")
    result = cli("sweep", "--file", path, "--out", tmp_path / "out")
    assert result.exit_code == 2 and "--skill-games N (skill_games in a sweep file)" in result.output
    assert not (tmp_path / "out").exists()  # refused before anything runs


@pytest.mark.slow
def test_a_sweep_file_sets_the_skill_signal_and_its_schema_checks_the_keys(cli, tmp_path):
    path = tmp_path / "sweep.yaml"
    path.write_text("game: mission-emission\nplayers: 2\nvary:\n  tie: [nobody]\ngames: 5\nskill_games: many\nskill_iterations: 8\n", "utf-8")
    result = cli("sweep", "--file", path, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert f"sweep.yaml:{line_of(path, 'skill_games')}:" in result.output and "many" in result.output
    path.write_text("game: mission-emission\nplayers: 2\nvary:\n  tie: [nobody]\ngames: 5\nskill_games: 4\nskill_iterations: 0\n", "utf-8")
    result = cli("sweep", "--file", path, "--out", tmp_path / "out")
    assert result.exit_code == 1 and f"sweep.yaml:{line_of(path, 'skill_iterations')}:" in result.output
    path.write_text("game: mission-emission\nplayers: 2\nvary:\n  tie: [nobody]\ngames: 5\nskill_games: 4\nskill_iterations: 6\n"
                    "objective: skill\n", "utf-8")
    result = cli("sweep", "--file", path, "--workers", "1", "--format", "json", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["skill_games"] == 4 and data["points"][0]["skill"]["bot"] == "ismcts:6" and data["best"] == [1]


@pytest.mark.slow
def test_the_rollout_bot_plays_the_skill_signal_alike_in_sweep_and_check(cli, tmp_path):
    skill = ("--skill-games", "6", "--skill-bot", "rollout:2")
    assert cli("sweep", "mission-emission", "--vary", "point-cards:forest-bottom.points=9", "--games", "10", "--players", "2",
               "--workers", "1", *skill, "--out", tmp_path).exit_code == 0
    data = json.loads((tmp_path / "sweep.json").read_text("utf-8"))
    point = data["points"][0]
    assert data["skill_bot"] == "rollout:2" and data["skill_iterations"] is None and point["skill"]["bot"] == "rollout:2"
    checked = cli("check", point["variant"], "--games", "10", "--workers", "1", *skill, "--format", "json", "--report", tmp_path / "report")
    assert json.loads(checked.stdout)["skill"]["variant"] == point["skill"]
    # a bot that is not a search bot, or a budget out of range: a usage error before anything runs
    for bot, message in (("rollout:0", "rollout:0: the determinisations a decision are 1 to 10,000"),
                         ("greedy", "'greedy' is not a search bot: ismcts, ismcts:N, rollout or rollout:N")):
        for command in (("sweep", "mission-emission", "--vary", "tie=nobody", "--out", tmp_path / "refused"), ("check", point["variant"])):
            refused = cli(*command, "--skill-games", "2", "--skill-bot", bot)
            assert refused.exit_code == 2 and message in refused.output, refused.output
    assert not (tmp_path / "refused").exists()


def _dies_once_at(chunk_start: int, marker):
    """``run_chunk`` that kills its worker process the first time it is given the chunk starting
    at game ``chunk_start`` (``marker``, a file, remembers it happened), and plays every other
    call as ever."""
    import os

    from deckpress.rules.core.simulate import run_chunk

    def run(spec, start, stop, deadline=None):
        if start == chunk_start and not marker.exists():
            marker.touch()
            os._exit(1)  # the worker dies as a killed process does: no exception, no goodbye
        return run_chunk(spec, start, stop, deadline)
    return run


@pytest.mark.slow
def test_a_dask_worker_that_dies_loses_only_its_chunk_which_is_recomputed(tmp_path, monkeypatch):
    # a worker that dies loses only its chunk, which is recomputed; the
    # results are those of the local backend, every game counted once
    import sys

    import cloudpickle

    from deckpress.rules.core import simulate as simulation
    from deckpress.rules.core.results import simulation_dict

    spec = simulation.SimulationSpec("mission-emission", {"players": 3}, ("random",) * 3, 600, seed=4, workers=2)
    local = simulation_dict(simulation.simulate(spec))
    marker = tmp_path / "died"
    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers get the function itself, not a module to import
    monkeypatch.setattr(simulation, "run_chunk", _dies_once_at(200, marker))
    try:
        on_dask = simulation_dict(simulation.simulate(replace(spec, scheduler="local")))
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert marker.exists()  # the worker playing games 200-399 died
    for report in (on_dask, local):
        report.pop("timing")
    assert on_dask["games"] == 600 and on_dask == local


@pytest.mark.slow
def test_a_local_dask_run_beside_another_does_not_warn_about_port_8787():
    # two runs at once (or anything else on Dask's port 8787) used to print "Port 8787 is already
    # in use ... Hosting the HTTP server on port N instead": the run now asks for a free port
    import socket
    import warnings

    from deckpress.rules.core.simulate import SimulationSpec, simulate

    holder = socket.socket()
    try:
        holder.bind(("", 8787))
        holder.listen()
    except OSError:
        pass  # already taken by something else: as good
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = simulate(SimulationSpec("mission-emission", {"players": 3}, ("random",) * 3, 200, seed=4, scheduler="local"))
    finally:
        holder.close()
    assert result.tally.games == 200 and not [w for w in caught if "already in use" in str(w.message)]


# -- grids counted before they are built ---------------------------------------------------------

def _peak_bytes(work) -> tuple[object, int]:
    """``work()``'s result (or the exception it raised) and the peak of memory it allocated."""
    import tracemalloc

    tracemalloc.start()
    try:
        try:
            outcome = work()
        except ValueError as exc:
            outcome = exc
        return outcome, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_grid_of_millions_is_refused_or_sampled_without_being_built():
    """Four dimensions of 50 values are 6,250,000 points: refused by counting, and sampled by a
    random search, in what a few points take (building the grid took some 600 MB)."""
    from deckpress.generator.sweep import Dimension, Sweep, grid_points

    wide = Sweep("mission-emission", tuple(Dimension(name, tuple(range(50))) for name in ("a", "b", "c", "d")))
    refused, peak = _peak_bytes(lambda: grid_points(wide))
    assert isinstance(refused, ValueError) and str(refused).startswith("6,250,000 points: at most 400")
    assert peak < 5_000_000
    sampled, peak = _peak_bytes(lambda: grid_points(replace(wide, points=10, seed=7)))
    assert len(sampled) == 10 and len({tuple(p.values()) for p in sampled}) == 10
    assert peak < 5_000_000


def test_a_random_search_draws_the_same_points_as_from_the_whole_grid():
    """The points a random search draws are those it drew from the grid built whole (the same
    seed names the same points as before grids were counted instead of built)."""
    import itertools
    import random

    from deckpress.generator.sweep import Dimension, Sweep, grid_points

    sweep = Sweep("mission-emission", (Dimension("a", (1, 2, 3)), Dimension("b", tuple("xyzw")), Dimension("c", (True, False))),
                  points=7, seed=5)
    combos = list(itertools.product(range(3), range(4), range(2)))
    keep = sorted(random.Random(5).sample(range(len(combos)), 7))
    expected = [{"a": (1, 2, 3)[i], "b": "xyzw"[j], "c": (True, False)[k]} for i, j, k in (combos[n] for n in keep)]
    assert grid_points(sweep) == expected


def test_a_vary_with_too_many_values_is_refused_before_they_are_read(cli, tmp_path):
    values = ",".join(f"v{i}" for i in range(400))
    result = cli("sweep", "mission-emission", "--vary", f"tie={values}", "--out", tmp_path / "out")
    assert result.exit_code == 2 and "'tie': 400 values: at most 50 a dimension" in result.output
    three = [arg for name in ("tie", "piles_to_end", "players") for arg in ("--vary", f"{name}={','.join(map(str, range(200)))}")]
    result = cli("sweep", "mission-emission", *three, "--out", tmp_path / "out")
    assert result.exit_code == 2 and "200 values: at most 50 a dimension" in result.output
    assert not (tmp_path / "out").exists()


# -- objectives with their 95 % intervals -----------------------------------------------------

@pytest.mark.slow
def test_each_point_gives_its_objective_with_its_interval_and_a_best_point_from_noise_is_said_so(cli, tmp_path):
    """With 60 games a point, seeds 1, 2 and 3 named three different "best" points of the same
    grid: each point's figure now comes with its 95 % interval, and the report, sweep.json and the
    heat map say that the best point is not told apart from the others."""
    for seed in ("1", "2", "3"):
        out = tmp_path / seed
        result = cli("sweep", "mission-emission", *POINT_VALUES, "--games", "60", "--players", "3", "--workers", "1",
                     "--seed", seed, "--out", out)
        assert result.exit_code == 0, result.output
        data = json.loads((out / "sweep.json").read_text("utf-8"))
        for p in data["points"]:
            low, high = p["objective"]["interval_95"]
            assert p["objective"]["name"] == "fairness" and p["objective"]["value"] == p["figures"]["spread"]
            assert 0 <= low <= p["figures"]["spread"] <= high <= 1 and high - low > 0.05  # 60 games: wide
            assert f"fairness {p['figures']['spread']:.1%} (95 %: {low:.1%} to {high:.1%})" in result.output
        best = data["best"][0]
        assert data["not_told_apart_from_best"] and best not in data["not_told_apart_from_best"]
        assert f"point {best} is not told apart from point" in result.output


@pytest.mark.slow
def test_a_best_point_that_stands_apart_is_said_to(cli, tmp_path):
    """Ending at the first finished pile instead of the sixth makes games far shorter: the
    shortest point's interval overlaps no other, and the report says it stands apart."""
    result = cli("sweep", "mission-emission", "--vary", "piles_to_end=1,6", "--objective", "shortest", "--games", "60",
                 "--players", "3", "--workers", "1", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "sweep.json").read_text("utf-8"))
    first, last = (p["objective"] for p in data["points"])
    assert first["interval_95"][1] < last["interval_95"][0]  # 1 pile: shorter, beyond doubt
    assert data["best"][0] == 1 and data["not_told_apart_from_best"] == []
    assert "point 1 stands apart: no other point's 95 % interval overlaps its" in result.output


def test_the_mean_interval_is_the_normal_one():
    from deckpress.rules.core.stats import Z95, mean_interval

    mean, low, high = mean_interval({10: 50, 20: 50})  # sample sd 5.025..., n 100
    assert mean == 15 and high - mean == pytest.approx(Z95 * (2500 / 99) ** 0.5 / 10)
    assert mean - low == pytest.approx(high - mean)

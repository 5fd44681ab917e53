"""deckpress sweep (issue 14, section 2): a game over a grid of parameter and card values, each
point with the same seeds, a heat map and the best point, and every point a variant file that
deckpress check accepts."""
from __future__ import annotations

import json

from PIL import Image

from conftest import line_of

POINT_VALUES = ("--vary", "point-cards:forest-bottom.points=7,9", "--vary", "point-cards:smoke-bottom.points=-5,-7")


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


def test_a_point_gives_the_same_figures_with_any_number_of_workers(cli, tmp_path):
    runs = []
    for workers in ("1", "2"):
        out = tmp_path / workers
        assert cli("sweep", "geheime-mission", "--vary", "next_round=guess-winner,carrier", "--games", "80", "--workers", workers,
                   "--out", out).exit_code == 0
        runs.append([p["figures"] for p in json.loads((out / "sweep.json").read_text("utf-8"))["points"]])
    assert runs[0] == runs[1]


def test_a_value_the_content_refuses_is_reported_at_its_point_and_the_others_run(cli, tmp_path):
    result = cli("sweep", "mission-emission", "--vary", "point-cards:forest-bottom.points=7,not-a-number", "--games", "10",
                 "--players", "2", "--workers", "1", "--out", tmp_path)
    assert result.exit_code == 0
    assert "2  point-cards:forest-bottom.points=not-a-number: not simulated:" in result.output
    assert "1  point-cards:forest-bottom.points=7: win rates" in result.output


def test_a_sweep_file_is_checked_against_its_schema(cli, tmp_path):
    path = tmp_path / "sweep.yaml"
    path.write_text("game: mission-emission\nvary:\n  tie: [nobody, first-played]\nobjective: fairest\ngames: 10\n", "utf-8")
    result = cli("sweep", "--file", path)
    assert result.exit_code == 1
    assert f"sweep.yaml:{line_of(path, 'objective')}:" in result.output and "fairest" in result.output
    path.write_text("game: mission-emission\nplayers: 2\nvary:\n  tie: [nobody, first-played]\ngames: 10\n", "utf-8")
    result = cli("sweep", "--file", path, "--workers", "1", "--out", tmp_path / "out")
    assert result.exit_code == 0 and "2 points x 10 games" in result.output


def test_bad_vary_is_refused_with_the_form_expected(cli):
    result = cli("sweep", "mission-emission", "--vary", "tie")
    assert result.exit_code == 2 and "expected TARGET=V1,V2,..." in result.output


def test_a_local_dask_cluster_gives_the_local_backends_results_byte_for_byte(cli, tmp_path):
    # issue 14, section 3: the same seed gives the same results on every backend and any number of workers
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


def test_an_unreachable_scheduler_is_one_line(cli):
    result = cli("simulate", "geheime-mission", "--games", "10", "--scheduler", "tcp://127.0.0.1:9")
    assert result.exit_code == 2 and "the Dask scheduler tcp://127.0.0.1:9 cannot be reached" in result.output

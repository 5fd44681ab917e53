"""The sweep's heat map (:mod:`deckpress.generator.sweep.plot`) drawn from a finished sweep's
figures, apart from the sweep model, which never loads matplotlib."""
from __future__ import annotations

import io
import subprocess
import sys

from PIL import Image

from deckpress.generator.sweep import Dimension, Sweep, SweepResult
from deckpress.generator.sweep.plot import heat_map


def _result(dimensions: tuple[Dimension, ...]) -> SweepResult:
    """A finished fairness sweep over a 3 x 2 grid, its spreads given by hand; the middle column's
    second point has no figures (its simulation failed)."""
    points = []
    for index, (tie, points_value) in enumerate(((t, v) for v in (5, 7) for t in ("nobody", "first-played", "all")), start=1):
        spread = 0.02 * index
        point = {"index": index, "values": {"tie": tie, "point-cards:forest-bottom.points": points_value}}
        if index != 5:
            point.update(figures={"spread": spread}, objective={"name": "fairness", "value": spread,
                                                                 "interval_95": [spread - 0.015, spread + 0.015]})
        else:
            point["error"] = "the engine failed"
        points.append(point)
    return SweepResult(Sweep("mission-emission", dimensions, games=60), points)


GRID = (Dimension("tie", ("nobody", "first-played", "all")), Dimension("point-cards:forest-bottom.points", (5, 7)))


def test_a_two_dimensional_sweep_gives_the_same_png_each_time_and_another_grid_none():
    result = _result(GRID)
    png = heat_map(result)
    assert png is not None and png == heat_map(result)  # no date or software version inside
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG" and image.size == (round(120 * (3.2 + 1.2 * 3)), round(120 * (2.2 + 0.8 * 2)))
    assert heat_map(_result(GRID[:1])) is None  # one dimension: the report's table says it all


def test_the_sweep_model_runs_without_loading_matplotlib():
    code = "import sys, deckpress.generator.sweep; print('matplotlib' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "False"

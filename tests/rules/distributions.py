"""What the batched engines' tests share: comparing a batched run with a reference run figure by
figure (:class:`Differences`), and a batched run's report without its timing
(:func:`batched_report`, for the same-on-any-workers tests)."""
from __future__ import annotations

import math
from typing import Mapping

from deckpress.rules.core.registry import load
from deckpress.rules.core.results import simulation_dict
from deckpress.rules.core.simulate import SimulationSpec, simulate

#: A difference between the engines beyond this many standard errors fails a comparison (with
#: fixed seeds the tests are deterministic; a correct engine lies beyond it about once in
#: 150,000 for each figure).
Z_LIMIT = 4.5


class Differences(dict):
    """``{figure: z}``: the figures, added one test at a time, whose two runs differ by more than
    :data:`Z_LIMIT` standard errors."""

    def _add(self, name: str, gap: float, se: float) -> None:
        z = gap / se if se else math.inf if gap else 0.0  # no spread: only the same value agrees
        if abs(z) > Z_LIMIT:
            self[name] = z

    def proportion(self, name: str, k1: float, n1: float, k2: float, n2: float) -> None:
        """Two-proportion z-test (pooled) of ``k1`` of ``n1`` against ``k2`` of ``n2``; a figure
        counted in one run only (no trials in the other) differs."""
        if not n1 or not n2:
            if n1 or n2:
                self[name] = math.inf
            return
        p = (k1 + k2) / (n1 + n2)
        self._add(name, k1 / n1 - k2 / n2, math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2)))

    def means(self, name: str, mean1: float, var1: float, n1: int, mean2: float, var2: float, n2: int) -> None:
        """Welch's test of two means, from each run's mean, variance and count."""
        self._add(name, mean1 - mean2, math.sqrt(var1 / n1 + var2 / n2))

    def histograms(self, name: str, one: Mapping[float, int], two: Mapping[float, int]) -> None:
        """Welch's test of the means of two histograms (value -> games), such as a tally's
        ``lengths`` (seat moves a game) or ``team_results``."""
        self.means(name, *moments(one), sum(one.values()), *moments(two), sum(two.values()))


def moments(histogram: Mapping[float, int]) -> tuple[float, float]:
    """``(mean, sample variance)`` of a histogram (value -> count)."""
    n = sum(histogram.values())
    mean = sum(k * v for k, v in histogram.items()) / n
    return mean, sum(v * (k - mean) ** 2 for k, v in histogram.items()) / (n - 1)


def batched_report(game_id: str, params: dict, games: int, seed: int, workers: int, ruleset: str | None = None) -> dict:
    """The report (``simulate --format json``) of ``games`` random-bot games on the game's batched
    engine, without its timing."""
    game = load(game_id, ruleset, params)
    spec = SimulationSpec(game_id, dict(game.params), ("random",) * game.players, games, seed, workers=workers, engine="batched")
    report = simulation_dict(simulate(spec))
    report.pop("timing")
    return report


"""Statistics for simulation reports: Wilson intervals, the difference of two proportions, and
percentiles from histograms.

Sources: E. B. Wilson, "Probable inference, the law of succession, and statistical inference",
JASA 22 (1927); R. G. Newcombe, "Interval estimation for the difference between independent
proportions: comparison of eleven methods", Statistics in Medicine 17 (1998), method 10; the
nearest-rank percentile definition (NIST Engineering Statistics Handbook, section 7.2.6.2).
"""
from __future__ import annotations

import math
from typing import Mapping

Z95 = 1.959963984540054  # two-sided 95 % quantile of the standard normal distribution


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (low, high) for a proportion; ``(0.0, 1.0)`` for no trials.

    Unlike the normal approximation it stays inside 0..1 and behaves near 0 % and 100 %.
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def difference_interval(successes_1: float, trials_1: int, successes_2: float, trials_2: int,
                        z: float = Z95) -> tuple[float, float]:
    """Newcombe's hybrid score interval (low, high) for the difference of two proportions,
    ``successes_1 / trials_1 - successes_2 / trials_2``, from each one's Wilson interval: like
    those it behaves near 0 % and 100 %, where the normal approximation collapses to a point.
    Both counts need trials (:func:`wilson` gives ``(0, 1)`` for none)."""
    p1, p2 = successes_1 / trials_1, successes_2 / trials_2
    low1, high1 = wilson(successes_1, trials_1, z)
    low2, high2 = wilson(successes_2, trials_2, z)
    d = p1 - p2
    return d - math.sqrt((p1 - low1) ** 2 + (high2 - p2) ** 2), d + math.sqrt((high1 - p1) ** 2 + (p2 - low2) ** 2)


def percentile(histogram: Mapping[int, int], q: float) -> int:
    """The nearest-rank ``q``-th percentile (0 < q <= 100) of values counted in ``histogram``.

    Raises:
        ValueError: an empty histogram.
    """
    total = sum(histogram.values())
    if total == 0:
        raise ValueError("percentile of an empty histogram")
    rank = max(1, math.ceil(q / 100 * total))
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen >= rank:
            return value
    return max(histogram)


def mean_interval(histogram: Mapping[int, int] | Mapping[float, int], z: float = Z95) -> tuple[float, float, float]:
    """The mean of values counted in ``histogram`` (value -> count) and its normal-approximation
    interval ``(mean, low, high)``: mean ± z · s / √n, ``s`` the sample standard deviation
    (central limit theorem; fine for the hundreds of games a simulation plays, too narrow for a
    handful).  ``(mean, mean, mean)`` for a single value counted once.

    Raises:
        ValueError: an empty histogram.
    """
    n = sum(histogram.values())
    if n == 0:
        raise ValueError("mean of an empty histogram")
    mean = sum(value * count for value, count in histogram.items()) / n
    if n == 1:
        return mean, mean, mean
    variance = sum(count * (value - mean) ** 2 for value, count in histogram.items()) / (n - 1)
    half = z * math.sqrt(variance / n)
    return mean, mean - half, mean + half

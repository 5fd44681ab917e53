"""The pictures of a sweep (:mod:`deckpress.generator.sweep`): the heat map of a two-dimensional
sweep's objective.  The one module of the sweep that imports matplotlib (Agg, no display)."""
from __future__ import annotations

import io

from deckpress.generator.sweep import (
    CELL_FORMATS,
    MAXIMISED,
    OBJECTIVE_WORDS,
    OBJECTIVES,
    SweepResult,
)


def heat_map(result: SweepResult) -> bytes | None:
    """A PNG heat map of the objective over a two-dimensional sweep's grid (None for another
    number of dimensions or no figures): each cell its figure and, below it, its 95 % interval;
    the best point outlined, the points not told apart from it outlined dashed.  The same
    result gives the same bytes (no date or software version in the PNG)."""
    sweep = result.sweep
    if len(sweep.dimensions) != 2:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    key = OBJECTIVES[sweep.objective]
    across, down = sweep.dimensions
    values: list[list[float | None]] = [[None] * len(across.values) for _ in down.values]
    intervals: list[list[list[float] | None]] = [[None] * len(across.values) for _ in down.values]
    for p in result.points:
        if "figures" in p:
            r, c = down.values.index(p["values"][down.target]), across.values.index(p["values"][across.target])
            values[r][c] = key(p)
            intervals[r][c] = p["objective"]["interval_95"] if p.get("objective") else None
    if all(v is None for row in values for v in row):
        return None
    maximised = sweep.objective in MAXIMISED
    shown = [[-v if v is not None and maximised else v for v in row] for row in values]  # the team's mean, the skill itself
    fig, ax = plt.subplots(figsize=(3.2 + 1.2 * len(across.values), 2.2 + 0.8 * len(down.values)), dpi=120)
    image = ax.imshow([[float("nan") if v is None else v for v in row] for row in shown], cmap="viridis" if maximised else "viridis_r")
    numbers: list[float] = [v for row in shown for v in row if v is not None]
    middle = (min(numbers) + max(numbers)) / 2
    ax.set_xticks(range(len(across.values)), [str(v) for v in across.values])
    ax.set_yticks(range(len(down.values)), [str(v) for v in down.values])
    ax.set_xlabel(across.target)
    ax.set_ylabel(down.target)
    for r, row in enumerate(shown):
        for c, v in enumerate(row):
            light = v is not None and (v < middle) != maximised  # the light end of the colour map
            ax.text(c, r - 0.1, "-" if v is None else CELL_FORMATS[sweep.objective].format(v), ha="center", va="center",
                    color="black" if light else "white", fontsize=8)
            interval = intervals[r][c]
            if interval is not None:
                fmt = CELL_FORMATS[sweep.objective].replace("+", "")
                ax.text(c, r + 0.22, f"{fmt.format(interval[0])} to {fmt.format(interval[1])}", ha="center",
                        va="center", color="black" if light else "white", fontsize=6)
    best = result.best(1)
    for point, style in [(p, "--") for p in result.not_told_apart()] + [(b, "-") for b in best]:
        b = point["values"]
        ax.add_patch(plt.Rectangle((across.values.index(b[across.target]) - 0.46, down.values.index(b[down.target]) - 0.46), 0.92, 0.92,
                                   fill=False, edgecolor="red", linewidth=2, linestyle=style))
    skill = f", skill signal {sweep.skill_games:,} games" if sweep.skill_games else ""
    apart = (f"; dashed: {len(result.not_told_apart())} not told apart from it (95 % intervals overlap)"
             if result.not_told_apart() else "")
    ax.set_title(f"{sweep.game_id}, {sweep.games:,} games a point{skill}\n{sweep.objective}: {OBJECTIVE_WORDS[sweep.objective]}; "
                 f"below each, its 95 % interval\nbest outlined{apart}", fontsize=8)
    bar = fig.colorbar(image, ax=ax, shrink=0.8)
    if CELL_FORMATS[sweep.objective].endswith("%}"):
        from matplotlib.ticker import PercentFormatter

        bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


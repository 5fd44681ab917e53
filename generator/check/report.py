"""The report of a check: the same figures as JSON, and a self-contained HTML page (a jinja2
template of the project's, rendered in a sandbox with autoescape; plots drawn with matplotlib and
embedded as PNG data)."""
from __future__ import annotations

import base64
import io
import json
import os
import textwrap
from pathlib import Path
from typing import Any

from jinja2 import FileSystemLoader
from jinja2.sandbox import ImmutableSandboxedEnvironment

from deckpress.generator.check import CheckReport
from deckpress.generator.content.safetext import json_safe
from deckpress.generator.limits import Bounds, run_in_child
from deckpress.generator.output import write_atomic
from deckpress.generator.paths import TEMPLATES_DIR


def report_dict(report: CheckReport) -> dict[str, Any]:
    """The report as plain data (what ``--format json`` prints and report.json holds)."""
    return {
        "variant": report.variant_path, "meta": report.meta, "verdict": report.verdict, "exit_code": report.exit_code,
        "reasons": report.reasons,
        "warnings": report.warnings,
        "stages": [{"name": s.name, "status": s.status, "notes": s.notes} for s in report.stages],
        "errors": [e.as_dict() for e in report.errors],
        "content_diff": None if report.content_diff is None else {
            "added": [list(x) for x in report.content_diff.added], "removed": [list(x) for x in report.content_diff.removed],
            "changed": [{"file": c.file, "id": c.id, "fields": {k: list(v) for k, v in c.fields.items()}} for c in report.content_diff.changed],
            "lines": report.content_diff.lines()},
        "parameter_diff": {k: list(v) for k, v in report.parameter_diff.items()},
        "effective_parameters": report.effective_parameters,
        "preview": report.preview, "preview_cards": report.preview_cards,
        "simulation": report.simulation,
        "skill": report.skill,
    }


def measure_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every measure of the game's own that report.json holds (``simulation.base.measures`` and
    ``simulation.variant.measures``), one row each, in the order the engine reports them, base's
    first: ``{"group", "name", "kind", "base", "variant", "base_95", "variant_95", "only"}``, a
    side's value None where it does not report the measure, and ``only`` ``"variant"`` (or
    ``"base"``) for a measure one side alone has, such as the sets completed under a variant's
    new rule.  A rate's value and interval are shares (0 to 1); a ``per_game`` value is a mean
    per game.  Nothing without a simulation."""
    sim = data.get("simulation") or {}
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for side in ("base", "variant"):
        for m in (sim.get(side) or {}).get("measures") or []:
            row = rows.setdefault((m["group"], m["name"]), {"group": m["group"], "name": m["name"], "kind": m["kind"], "base": None,
                                                            "variant": None, "base_95": None, "variant_95": None})
            row[side], row[f"{side}_95"] = m.get("value"), m.get("interval_95")
    for row in rows.values():
        has = [side for side in ("base", "variant") if row[side] is not None]
        row["only"] = has[0] if len(has) == 1 else None
    order = {group: i for i, group in enumerate(dict.fromkeys(group for group, _ in rows))}
    return sorted(rows.values(), key=lambda r: order[r["group"]])


def write_report(report: CheckReport, folder: Path) -> tuple[Path, Path]:
    """Write ``report.html`` then ``report.json`` into ``folder``, each atomically, and both only
    once everything is rendered (json last: a ``report.json`` always has its ``report.html``, and
    the ``preview.pdf`` of its run, beside it); returns both paths.

    Raises:
        deckpress.generator.output.OutputError: the folder cannot be written (exit 4, never a verdict).
        deckpress.generator.limits.CouldNotFinish: the plots could not be drawn within the
            memory or time deckpress has (exit 5, never a verdict).
    """
    data = report_dict(report)
    json_path, html_path = folder / "report.json", folder / "report.html"
    env = ImmutableSandboxedEnvironment(loader=FileSystemLoader(TEMPLATES_DIR), autoescape=True)
    preview_href = Path(os.path.relpath(Path(report.preview).resolve(), folder.resolve())).as_posix() if report.preview else None
    html = env.get_template("check-report.html.j2").render(r=data, plots=_plots(data), preview_href=preview_href, measures=measure_rows(data))
    write_atomic(html_path, html.encode("utf-8"))
    write_atomic(json_path, (json_safe(json.dumps(data, indent=2, ensure_ascii=False, default=str)) + "\n").encode("utf-8"))
    return json_path, html_path


def _plots(data: dict[str, Any]) -> list[dict[str, str]]:
    """The report's plots (title, base64 PNG), drawn in a child process within the limits
    deckpress inherited: numpy's OpenBLAS, loaded with matplotlib, ends the process with
    ``exit(1)`` when it cannot allocate its buffers, which must not read as the verdict
    ``review``.

    Raises:
        CouldNotFinish: the child ran out of memory or time (exit 5, not a verdict).
    """
    if not data.get("simulation"):
        return []
    return run_in_child(_draw_plots, (data,), PLOT_BOUNDS)


#: Drawing the plots takes about a second; the time limit only guards against a stuck child.
PLOT_BOUNDS = Bounds("drawing the report's plots", time_limit_s=120)


def _draw_plots(data: dict[str, Any]) -> list[dict[str, str]]:
    """The plots of a report with a simulation (run in the child process of :func:`_plots`)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one buffer, not one per core: plots need no parallel BLAS
    sim = data["simulation"]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plots = []
    base, var = sim["base"], sim["variant"]
    if base.get("cooperative"):
        plots.append(_team_results(base, var, plt))
    else:
        plots.append(_win_rates(base, var, plt))
    plots += _lengths_and_measures(base, var, sim, plt)
    return plots


def _team_results(base: dict, var: dict, plt) -> dict[str, str]:
    """A cooperative game: the distribution of the team's result, base against variant."""
    fig, ax = plt.subplots(figsize=(6.5, 3.2))
    for offset, label, side in ((-0.2, "base", base), (0.2, "variant", var)):
        hist = {int(k): v for k, v in side["team"]["histogram"].items()}
        total = sum(hist.values()) or 1
        ax.bar([k + offset for k in sorted(hist)], [100 * hist[k] / total for k in sorted(hist)], width=0.4, label=label)
    ax.set_xlabel(base["team"]["result"])
    ax.set_ylabel("% of games")
    _legend_outside(ax)
    return {"title": f"Team result: {base['team']['result']}", "png": _png(fig, plt)}


def _win_rates(base: dict, var: dict, plt) -> dict[str, str]:
    """A competitive game: win rate per seat with 95 % intervals, base against variant."""
    fig, ax = plt.subplots(figsize=(6.5, 3.2))
    seats = [s["seat"] for s in base["seats"]]
    for offset, (label, side) in ((-0.18, ("base", base)), (0.18, ("variant", var))):
        rates = [100 * (s["win_rate"] or 0) for s in side["seats"]]
        lows = [r - 100 * s["win_rate_95"][0] for r, s in zip(rates, side["seats"])]
        highs = [100 * s["win_rate_95"][1] - r for r, s in zip(rates, side["seats"])]
        ax.bar([x + offset for x in seats], rates, width=0.36, yerr=[lows, highs], capsize=3, label=label)
    if len(seats) > 1:
        ax.axhline(100 / len(seats), color="grey", linestyle=":", linewidth=1, label="fair share")
    ax.set_xlabel("seat (0 starts)")
    ax.set_ylabel("win rate, % (95 % interval)")
    ax.set_xticks(seats)
    _legend_outside(ax)
    return {"title": "Win rate per seat", "png": _png(fig, plt)}


def _lengths_and_measures(base: dict, var: dict, sim: dict, plt) -> list[dict[str, str]]:
    """Game-length percentiles, and the game's own rate measures that moved most."""
    plots = []
    fig, ax = plt.subplots(figsize=(6.5, 3.2))
    qs = [q for q in ("p10", "p50", "p90", "p99") if q in base["length_in_moves"]]
    xs = range(len(qs))
    ax.bar([x - 0.18 for x in xs], [base["length_in_moves"][q] for q in qs], width=0.36, label="base")
    ax.bar([x + 0.18 for x in xs], [var["length_in_moves"].get(q, 0) for q in qs], width=0.36, label="variant")
    ax.set_xticks(list(xs), qs)
    ax.set_ylabel("moves per game")
    _legend_outside(ax)
    plots.append({"title": "Game length percentiles", "png": _png(fig, plt)})

    rates = [d for d in sim["differences"] if ":" in d["what"] and d["delta"] is not None]
    if rates:
        top = sorted(rates, key=lambda d: -abs(d["delta"]))[:12][::-1]  # barh draws the first bar lowest
        fig, ax = plt.subplots(figsize=(6.5, 0.5 * len(top) + 1.2))
        ax.barh([textwrap.fill(d["what"], 44) for d in top], [100 * d["delta"] for d in top],
                color=["#c0392b" if d["significant"] else "#95a5a6" for d in top])
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_xlabel("variant minus base, percentage points (red: beyond the noise)")
        ax.tick_params(axis="y", labelsize=7)
        plots.append({"title": "The game's own measures that moved most", "png": _png(fig, plt)})
    return plots


def _legend_outside(ax) -> None:
    """The legend to the right of the plot, where it covers no bar."""
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)


def _png(fig, plt) -> str:
    """The figure as base64 PNG, cropped to everything drawn (no label or legend cut off)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight", pad_inches=0.1, metadata={"Software": None})
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")

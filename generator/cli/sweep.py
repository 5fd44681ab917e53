"""``deckpress sweep``: a game simulated over a grid of parameter and card values
(:mod:`deckpress.generator.sweep`)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from deckpress.generator import exitcodes
from deckpress.generator.content.safetext import escape, json_safe


@click.command()
@click.argument("game", required=False)
@click.option("--file", "sweep_file", type=click.Path(path_type=Path), default=None,
              help="A sweep file (schemas/sweep.schema.json): game, what to vary, games, objective.")
@click.option("--vary", multiple=True, metavar="TARGET=V1,V2",
              help="Vary a parameter (tie=nobody,first-played) or a card field (point-cards:forest-bottom.points=5,7,9); repeat for a grid.")
@click.option("--ruleset", default=None, help="The ruleset every point plays.")
@click.option("--players", type=click.IntRange(1, 20), default=None, help="Seats at every point.")
@click.option("--bots", default=None, metavar="NAME,...", help="One bot per seat (default: the game's greedy bot).")
@click.option("--games", type=click.IntRange(1, 1_000_000), default=None, help="Games per point [default: 500].")
@click.option("--seed", type=int, default=None, help="Seed of every point's games [default: 1].")
@click.option("--points", type=click.IntRange(1, 10_000), default=None, help="A seeded random search: this many points of the grid.")
@click.option("--objective", type=click.Choice(("fairness", "first-seat", "shortest", "team", "skill")), default=None,
              help="What the best point is [default: fairness; team for a cooperative game]; skill (the highest skill signal) needs --skill-games.")
@click.option("--skill-games", type=click.IntRange(0, 100_000), default=None,
              help="Also measure each point's skill signal with this many games: how often one search-bot seat (ismcts) wins against "
                   "greedy seats (a cooperative game: how much it adds to the team's result), on local worker processes after the "
                   "point's simulation (also with --backend dask). Slow: about 0.1-1 s a game [default: 0, off].")
@click.option("--skill-iterations", type=click.IntRange(1, 100_000), default=None,
              help="The search bot's iterations a decision in the skill signal (more: stronger and slower) [default: 50].")
@click.option("--skill-bot", default=None, metavar="NAME",
              help="Another search bot for the skill signal instead of ismcts: rollout (greedy improved by roll-outs; the stronger "
                   "in 50 Missions and Maybe Missions) or rollout:N for N determinisations a decision.")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True, help="Worker processes per point (the figures are the same).")
@click.option("--backend", type=click.Choice(("local", "dask")), default="local", show_default=True,
              help="local: worker processes on this machine; dask: a Dask distributed cluster (started here, or the one at --scheduler).")
@click.option("--scheduler", default=None, metavar="tcp://HOST:8786", help="The Dask scheduler of a running cluster (implies --backend dask).")
@click.option("--out", type=click.Path(path_type=Path), default=None, help="Folder for the points' variant files and the heat map [default: output/sweeps/GAME].")
@click.option("--format", "fmt", type=click.Choice(("text", "json")), default="text", show_default=True, help="How to report.")
def sweep(game, sweep_file, vary, ruleset, players, bots, games, seed, points, objective, skill_games, skill_iterations, skill_bot, workers,
          backend, scheduler, out, fmt) -> None:
    """Simulate GAME at every point of a grid of parameter and card values, each point with the
    same seeds, and report per point the seats' win rates and their spread, the first seat's
    advantage, lengths and the game's own measures (with --skill-games, the skill signal), with
    the best points for an objective and, for two dimensions, a heat map.  Every point is written
    as a variant file that 'deckpress check' accepts."""
    from dataclasses import replace

    from deckpress.generator.cli.simulate import dask_scheduler
    from deckpress.generator.content.errors import ContentErrors
    from deckpress.generator.output import write_atomic
    from deckpress.generator.sweep import Sweep, load_sweep, parse_vary, run_sweep
    from deckpress.generator.sweep.plot import heat_map
    from deckpress.rules.core.errors import ParameterError
    from deckpress.rules.core.registry import game_class

    if sweep_file is not None:
        try:
            spec = load_sweep(sweep_file)
        except ContentErrors as exc:
            _print_errors(exc.errors)
            sys.exit(exitcodes.CONTENT)
    elif game is None or not vary:
        raise click.UsageError("give GAME and at least one --vary, or --file SWEEP.yaml")
    else:
        try:
            spec = Sweep(game, tuple(parse_vary(v) for v in vary))
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--vary") from None
    spec = replace(spec, **{k: v for k, v in (("ruleset", ruleset), ("players", players), ("games", games), ("seed", seed),
                                                ("points", points), ("objective", objective), ("skill_games", skill_games),
                                                ("skill_iterations", skill_iterations), ("skill_bot", skill_bot)) if v is not None})
    if bots:
        spec = replace(spec, bots=tuple(b.strip() for b in bots.split(",")))
    try:
        cooperative = game_class(spec.game_id).info.cooperative if objective is None else None
    except ParameterError as exc:
        raise click.UsageError(str(exc)) from None
    if cooperative and spec.objective != "team" and sweep_file is None:
        spec = replace(spec, objective="team")
    if spec.objective == "skill" and not spec.skill_games:
        raise click.UsageError("--objective skill needs the skill signal: add --skill-games N (skill_games in a sweep file)")
    out = out or Path("output") / "sweeps" / spec.game_id
    try:
        result = run_sweep(spec, out, workers, scheduler=dask_scheduler(backend, scheduler))
    except (ValueError, ParameterError) as exc:  # too many points; an unknown game, ruleset or bot; a value no engine or content takes; no Dask
        raise click.UsageError(str(exc)) from None
    except ContentErrors as exc:
        _print_errors(exc.errors)
        sys.exit(exitcodes.CONTENT)
    png = heat_map(result)
    if png is not None:
        write_atomic(out / "heatmap.png", png)
    data = result.as_dict()
    write_atomic(out / "sweep.json", json.dumps(data, indent=2, ensure_ascii=False).encode("utf-8"))
    if fmt == "json":
        click.echo(json_safe(json.dumps(data, indent=2, ensure_ascii=False)))
    else:
        _print_sweep(spec, result, png, out)
    if all("error" in p for p in result.points):  # nothing to compare: a failure, not a result
        click.echo("no point of the sweep could be simulated (each point's error is in sweep.json)", err=True)
        sys.exit(exitcodes.CONTENT)


def _print_errors(errors) -> None:
    """Every error of a sweep file (or of the content), one line each: a sweep file holds at most a
    few hundred values (its schema's limits), and sweep has no other list of them."""
    for error in errors:
        click.echo(str(error), err=True)


def _print_sweep(spec, result, png: bytes | None, out: Path) -> None:
    """The text report of a finished sweep: each point's figures and its objective with the 95 %
    interval, the best points, and which points the sweep cannot tell apart from the best."""
    from deckpress.generator.sweep import shown_objective

    click.echo(escape(f"{spec.game_id}: {len(result.points)} point{'s' * (len(result.points) != 1)} x {spec.games:,} game{'s' * (spec.games != 1)}, seed {spec.seed}"))
    skill = next((p["skill"] for p in result.points if p.get("skill")), None)
    if skill is not None:
        if skill["cooperative"]:
            meaning = (f"the team's gain with one {skill['bot']} seat over {skill['against']} seats only, in % of the result range "
                       f"({skill['result']})")
        else:
            meaning = f"the win share of one {skill['bot']} seat against {skill['against']} seats, in % (even share {skill['even_share']:.0%})"
        click.echo(escape(f"skill (pts): {meaning}, {spec.skill_games:,} games a point on local processes"))
    for p in result.points:
        values = ", ".join(f"{k}={v}" for k, v in p["values"].items())
        if "error" in p:
            click.echo(escape(f"  {p['index']:>3}  {values}: not simulated: {p['error']}"))
            continue
        f = p["figures"]
        if "spread" in f:
            rates = " ".join(f"{r:.1%}" for r in f["win_rates"])
            line = (f"  {p['index']:>3}  {values}: win rates {rates} (spread {f['spread']:.1%}, first seat {f['first_seat_advantage']:+.1%}), "
                    f"median {f['median_length']} moves")
        else:
            line = f"  {p['index']:>3}  {values}: team won {f['team_win_rate']:.1%}, mean result {f['team_mean']}, median {f['median_length']} moves"
        if p.get("skill"):
            signal = p["skill"]["signal_points"]
            line += f", skill {'-' if signal is None else f'{signal:.1f}'} pts"
        if spec.objective == "skill" and p.get("objective"):  # the skill column is the objective: its interval beside it
            line += " (95 %: {:.1f} to {:.1f})".format(*p["objective"]["interval_95"])
        elif shown_objective(p):
            line += f"; {spec.objective} {shown_objective(p)}"
        click.echo(escape(line))
    best = result.best()
    if best:
        click.echo(escape(f"best by {spec.objective}: " + "; ".join(f"point {p['index']} ({', '.join(f'{k}={v}' for k, v in p['values'].items())})"
                                                                    for p in best)))
        close = result.not_told_apart()
        if close:
            named = ", ".join(str(p["index"]) for p in close)
            click.echo(escape(f"point {best[0]['index']} is not told apart from point{'s' * (len(close) != 1)} {named}: their 95 % "
                              f"intervals overlap its {shown_objective(best[0])}; more games a point (--games) would tell them apart"))
        elif best[0].get("objective"):
            click.echo(escape(f"point {best[0]['index']} stands apart: no other point's 95 % interval overlaps its "
                              f"{shown_objective(best[0])}"))
        click.echo(escape(f"its variant file: {best[0]['variant']} (deckpress check accepts it)"))
    if png is not None:
        click.echo(escape(f"heat map: {out / 'heatmap.png'}"))
    click.echo(escape(f"all figures: {out / 'sweep.json'}"))

"""``deckpress check VARIANT``: a fan variant from file to verdict (see :mod:`deckpress.generator.check`).

Exit codes (:mod:`deckpress.generator.exitcodes`): the verdicts 0 accept, 1 review, 2 reject;
3 the variant (or the ``--content`` folder) could not be read at all; 4 the report folder could
not be written; 5 could not finish (a memory, CPU or time limit reached); 130 interrupted.  Only
0-2 are verdicts; with several variants the exit code is the highest.
"""
from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from deckpress.generator import exitcodes
from deckpress.generator.cli.options import FiniteRange
from deckpress.generator.cli.progress import progress_bar
from deckpress.generator.content.reporters import summarised
from deckpress.generator.content.safetext import escape, json_safe
from deckpress.generator.output import writing

if TYPE_CHECKING:
    from deckpress.generator.check import CheckReport


def _search_bot(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--skill-bot``: a search bot's name with its budget in range, else a usage error."""
    from deckpress.rules.core.bots import check_search_bot
    from deckpress.rules.core.errors import ParameterError

    if value is not None:
        try:
            check_search_bot(value)
        except ParameterError as exc:
            raise click.BadParameter(str(exc)) from None
    return value


@click.command()
@click.argument("variants", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False))
@click.option("--games", type=click.IntRange(1, 100_000), default=None, help="Games simulated per side (base and variant) [default: the game's own, 2,000 for most].")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of both simulations (the same for base and variant).")
@click.option("--bots", default=None, metavar="NAME,...", help="One bot per seat (default: the game's greedy bot on every seat, else random).")
@click.option("--report", "report_dir", type=click.Path(path_type=Path), default=None,
              help="Folder for report.html, report.json and preview.pdf [default: output/check/<variant>].")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, help="How to report on stdout.")
@click.option("--no-simulate", is_flag=True, help="Stop after the preview: format, content and parameters only (for pre-commit hooks).")
@click.option("--thresholds", "thresholds_file", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="YAML file overriding the verdict thresholds: seat_advantage_pp (5), length_ratio (2), measure_change_pp (15), "
                   "skill_drop_points (10, with --skill-games).")
@click.option("--time-limit", type=FiniteRange(1, 3600), default=300.0, show_default=True,
              help="Safety net: wall-clock limit of the simulation stage, seconds; reaching it is 'could not finish' (exit 5), never a verdict.")
@click.option("--memory-limit", type=click.IntRange(256, 65536), default=2048, show_default=True,
              help="Memory limit of the simulation stage, MiB (never above an inherited ulimit -v); reaching it is 'could not finish' (exit 5).")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True, help="Worker processes for the simulation (results do not depend on it).")
@click.option("--temp-report", is_flag=True,
              help="Write reports to a new temporary folder (printed), not into the current folder: for pre-commit hooks.")
@click.option("--content", type=click.Path(path_type=Path), default=None,
              help="The game folder the variants extend (an edition, a copy) [default: the shipped game named by 'extends'].")
@click.option("--skill-games", type=click.IntRange(0, 100_000), default=0, show_default=True,
              help="Also measure the skill signal with this many games per side: how often one search-bot seat (ismcts) wins against "
                   "greedy seats (a cooperative game: how much it adds to the team's result). Slow: about 0.1-1 s a game. 0: skipped.")
@click.option("--skill-iterations", type=click.IntRange(1, 100_000), default=50, show_default=True,
              help="The search bot's iterations a decision in the skill signal (more: stronger and slower).")
@click.option("--skill-bot", default=None, metavar="NAME", callback=_search_bot,
              help="Another search bot for the skill signal instead of ismcts: rollout (greedy improved by roll-outs; the stronger "
                   "in 50 Missions and Maybe Missions) or rollout:N for N determinisations a decision.")
def check(variants: tuple[Path, ...], games: int, seed: int, bots: str | None, report_dir: Path | None, fmt: str, no_simulate: bool,
          thresholds_file: Path | None, time_limit: float, memory_limit: int, workers: int, temp_report: bool,
          content: Path | None, skill_games: int, skill_iterations: int, skill_bot: str | None) -> None:
    """Check fan VARIANTS (each on its own, exit code of the worst): safe loading, schemas and the game's checks, what changed, a preview
    of the changed cards, base and variant simulated with the same seeds, and a verdict
    (accept / review / reject) with its reasons.

    Rejects: invalid files, unknown parameters or bad values, games that do not end, moves the
    validating path refuses.
    Review: a seat's win rate more than 5 points from a fair share, the median game length
    doubled or halved, or a rate the game reports moved more than 15 points, each beyond the noise;
    with --skill-games, the skill signal more than 10 points lower in the variant.

    Not verdicts: 3 unreadable, 4 the report folder cannot be written, 5 could not finish (the
    time or memory limit reached: not the variant's fault), 130 interrupted.
    """
    from deckpress.generator.check import (  # here: other commands start faster without them
        CheckOptions,
        run_check,
    )
    from deckpress.generator.check.report import report_dict, write_report
    from deckpress.generator.check.thresholds import Thresholds, load_thresholds

    thresholds = Thresholds()
    if thresholds_file is not None:
        loaded, errors = load_thresholds(thresholds_file)
        if errors or loaded is None:  # None comes with its errors
            for err in errors:
                click.echo(str(err), err=True)
            sys.exit(exitcodes.USAGE)
        thresholds = loaded
    if temp_report and report_dir is None:
        import tempfile

        with writing(Path(tempfile.gettempdir())):
            report_dir = Path(tempfile.mkdtemp(prefix="deckpress-check-"))
        if len(variants) == 1:
            report_dir = report_dir / variants[0].stem
    results, worst = [], 0
    for variant, name in zip(variants, _report_names(variants)):
        folder = report_dir / name if report_dir and len(variants) > 1 else report_dir or Path("output") / "check" / name
        options = CheckOptions(games=games, seed=seed, bots=tuple(b.strip() for b in bots.split(",")) if bots else None,
                               simulate=not no_simulate, thresholds=thresholds, time_limit_s=time_limit,
                               memory_mb=memory_limit, workers=workers, preview_path=folder / "preview.pdf", content=content,
                               skill_games=skill_games, skill_iterations=skill_iterations, skill_bot=skill_bot)
        with progress_bar(fmt) as tell:
            report = run_check(variant, dataclasses.replace(options, progress=tell))
        _, html_path = write_report(report, folder)
        if report.preview is None:  # a preview of an earlier run, of another variant, is not this report's
            (folder / "preview.pdf").unlink(missing_ok=True)
        worst = max(worst, report.exit_code)
        if fmt == "json":
            results.append(report_dict(report))
        else:
            _text(report, html_path)
    if fmt == "json":
        click.echo(json_safe(json.dumps(results[0] if len(results) == 1 else results, indent=2, ensure_ascii=False, default=str)))
    sys.exit(worst)


def _report_names(variants) -> list[str]:
    """Each variant's report folder name: its file's stem, and -2, -3 ... after it for a stem
    an earlier variant of the run has (variants/x.yaml and other/variants/x.yaml: two reports)."""
    names: list[str] = []
    for variant in variants:
        name, n = variant.stem, 1
        while name in names:
            n += 1
            name = f"{variant.stem}-{n}"
        names.append(name)
    return names


def _text(report: CheckReport, html_path: Path) -> None:
    from deckpress.generator.check import skill_figure

    click.echo(escape(f"{report.variant_path}: {report.meta.get('name') or ''}".rstrip(": ")))
    for stage in report.stages:
        click.echo(f"  {stage.name}: {stage.status}")
        for note in stage.notes[:40]:
            click.echo(f"      {escape(note)}")
        if len(stage.notes) > 40:
            click.echo(f"      ... and {len(stage.notes) - 40} more (see the report)")
    for line in summarised(report.errors):
        click.echo(line)
    sim = report.simulation
    if sim:
        for side in ("base", "variant"):
            d = sim[side]
            if d.get("cooperative"):
                team = d["team"]
                rates = f"team wins {100 * (team['win_rate'] or 0):.1f} %; {team['result']} mean {team['mean']}"
            else:
                rates = ", ".join(f"seat {s['seat']} {100 * (s['win_rate'] or 0):.1f} %" for s in d["seats"]) + f"; draws {d['draws']}"
            click.echo(f"  {side}: {rates}; median length {d['length_in_moves'].get('p50')} moves; cut off {d['cut_off_by_move_bound']}")
    if report.skill:
        click.echo(f"  skill signal ({report.skill['base']['bot']} against {report.skill['base']['against']} seats):")
        for side in ("base", "variant"):
            click.echo(f"    {side}: {skill_figure(report.skill[side])}")
        if report.skill["change_points"] is not None:
            interval = report.skill.get("change_95")
            within = f" (95 % interval {interval[0]:+.1f} to {interval[1]:+.1f})" if interval else ""
            click.echo(f"    change: {report.skill['change_points']:+.1f} points{within}")
    # "could not finish" is the machine's limit, not a judgement of the variant: never a "verdict:" line.
    click.echo("no verdict: could not finish (a limit deckpress runs under was reached)" if report.exit_code == exitcodes.COULD_NOT_FINISH
               else f"verdict: {report.verdict}")
    for reason in report.reasons:
        click.echo(f"  - {escape(reason)}")
    click.echo(f"report: {escape(str(html_path))}")

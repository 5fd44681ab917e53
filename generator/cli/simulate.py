"""``deckpress simulate``: many games of a rules engine with bots, from the command line.

Options are parsed into plain values, the engine (``rules/``) runs, and a reporter prints the
result as text (rich tables) or pure JSON.  Nothing else is printed on stdout, so ``--format json``
output can be piped.  ``simulate`` exits 0, 1 on invalid content, 2 on bad options.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from deckpress.generator import exitcodes
from deckpress.generator.cli.options import FiniteRange
from deckpress.generator.cli.progress import progress_bar
from deckpress.generator.content.errors import ContentErrors
from deckpress.generator.content.safetext import quoted
from deckpress.rules.core.errors import ParameterError
from deckpress.rules.core.params import parse_value
from deckpress.rules.core.registry import known_games
from deckpress.rules.core.results import simulation_dict


def _params(ctx, param, values: tuple[str, ...]) -> dict[str, Any]:
    out = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"expected KEY=VALUE, got {quoted(item)}")
        out[key.strip()] = parse_value(value.strip())
    return out


@click.command()
@click.argument("game")
@click.option("--mode", default=None, help="The game's mode parameter, where it has one (mission-emission: base, strategy, kids); deckpress describe GAME lists them.")
@click.option("--players", type=int, default=None, help="Number of seats.")
@click.option("--ruleset", default=None, help="A named bundle of parameter values: each mode game.yaml lists, and variants such as set-collection (deckpress describe GAME lists them).")
@click.option("--param", "-p", "params", multiple=True, callback=_params, metavar="KEY=VALUE",
              help="Any parameter (JSON values: -p piles_to_end=3 -p 'points={\"forest\": [2, 4, 6]}'); repeatable.")
@click.option("--games", type=click.IntRange(1, 10_000_000), default=1000, show_default=True, help="Games to play.")
@click.option("--bots", default="random", show_default=True, metavar="NAME[,NAME...]",
              help="One bot for every seat, or one per seat in seat order (for example greedy,random,random).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the run: same seed, same results.")
@click.option("--workers", type=click.IntRange(1, 256), default=1, show_default=True, help="Processes (results do not depend on it).")
@click.option("--backend", type=click.Choice(("local", "dask")), default="local", show_default=True,
              help="local: worker processes on this machine; dask: a Dask distributed cluster (started here with --workers "
                   "processes, or the one at --scheduler). The results are the same.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:8786", help="The Dask scheduler of a running cluster (implies --backend dask).")
@click.option("--batched", is_flag=True,
              help="Play on the game's batched engine (random bots; Mission Emission's base, kids and strategy games, "
                   "Geheime Mission, 50 Missions, Maybe Missions' base game): many games at once, about 8 to 40 times faster on one core (2026-11-28, python benchmarks/simulate.py), "
                   "the same distribution of results as the reference engine but not the same games.")
@click.option("--time-limit", type=FiniteRange(min=0.1), default=600.0, show_default=True, help="Stop starting games after this many seconds.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, help="How to report.")
@click.option("--save-logs", type=click.IntRange(0, 1000), default=0, help="Also write the logs of the first N games (YAML) to --log-dir.")
@click.option("--log-dir", type=click.Path(file_okay=False, path_type=Path), default=Path("output/logs"), show_default=True)
def simulate(game: str, mode: str | None, players: int | None, ruleset: str | None, params: dict[str, Any], games: int,
             bots: str, seed: int, workers: int, backend: str, scheduler: str | None, batched: bool, time_limit: float, fmt: str,
             save_logs: int, log_dir: Path) -> None:
    """Simulate GAMES games between bots and report balance: win rate per seat with Wilson 95 %
    intervals and draws (a cooperative game: the team's wins and the distribution of its shared
    result instead), game length percentiles, games cut off by the move bound, the game's own
    counts (point cards won, ...), and the effective parameters and bots behind every number.

    GAME is a shipped game's id or a game folder (an edition, a copy) of a game with a rules
    engine."""
    game, content = engine_game(game)
    from dataclasses import replace

    from deckpress.rules.core.registry import load
    from deckpress.rules.core.results import skill_seat
    from deckpress.rules.core.simulate import SimulationSpec
    from deckpress.rules.core.simulate import simulate as run

    overrides = dict(params)
    if mode is not None:
        overrides["mode"] = mode
    if players is not None:
        overrides["players"] = players
    from deckpress.rules.core.bots import (
        make_bot,  # here: the bots are the rules engines' (a tenth of start-up)
    )

    try:
        engine = load(game, ruleset, overrides, content)
        names = [b.strip() for b in bots.split(",") if b.strip()]
        if len(names) == 1:
            names *= engine.players
        if len(names) != engine.players:
            raise ParameterError(f"--bots names {len(names)} bots for {engine.players} seats: give one (for every seat) or {engine.players}")
        for name in dict.fromkeys(names):  # an unknown name, or a budget out of range (ismcts:N, rollout:N), says so
            make_bot(game, name)
    except ParameterError as exc:
        raise click.UsageError(str(exc)) from None
    except ContentErrors as exc:
        _fail_content(exc)
    for message in [f"parameter {m}" for m in engine.ignored_params(params)] + engine.inert_rules():
        click.echo(f"warning: {message}", err=True)
    spec = SimulationSpec(game, dict(engine.params), tuple(names), games, seed, workers, time_limit,
                          str(content) if content else None, dask_scheduler(backend, scheduler), "batched" if batched else "reference")
    if batched and save_logs:
        raise click.UsageError("--save-logs writes the reference engine's games; the batched engine plays other games and keeps no logs")
    try:
        result = _with_progress(run, spec, fmt)
        if skill_seat(spec.bots) is not None:
            # the skill signal's baseline: greedy in the search bot's seat, the same games
            result.baseline = run(replace(spec, bots=("greedy",) * len(spec.bots))).tally
    except ParameterError as exc:  # the Dask backend unavailable or unreachable, no batched engine
        raise click.UsageError(str(exc)) from None
    (_json_simulation if fmt == "json" else _text_simulation)(result)
    if save_logs:
        _save_logs(result, min(save_logs, games), log_dir, fmt)
    if result.tally.stopped_by_time:  # figures of fewer games than asked, as many as this machine's speed allowed
        played = result.tally.games + result.tally.cut_off
        click.echo(f"could not finish: the time limit ({time_limit:g} s) stopped the run after {played:,} of {games:,} games, so its "
                   "figures depend on this machine's speed: raise --time-limit or ask for fewer --games", err=True)
        sys.exit(exitcodes.COULD_NOT_FINISH)


def dask_scheduler(backend: str, scheduler: str | None) -> str | None:
    """``SimulationSpec.scheduler`` for ``--backend`` and ``--scheduler``: None (local processes),
    ``"local"`` (a Dask cluster started here) or the scheduler's address."""
    if scheduler:
        return scheduler
    return "local" if backend == "dask" else None


def engine_game(game: str) -> tuple[str, Path | None]:
    """``(game id, folder)`` for a GAME argument: a shipped id gives ``(id, None)`` (the shipped
    content), a game folder its ``game.yaml`` id and the folder.  Exits 2 with one line when it is
    neither, or when the game has no rules engine."""
    from deckpress.generator.content import find_game, game_id_of
    from deckpress.generator.paths import CONTENT_DIR

    try:
        folder = find_game(game)
    except ContentErrors as exc:
        raise click.UsageError(str(exc.errors[0])) from None
    game_id = game_id_of(folder)
    if game_id not in known_games():
        from deckpress.generator.content import check_game

        _, errors = check_game(folder)  # say "can validate and build" only of a folder validate accepts
        if errors:
            click.echo(f"{game}: this folder has no rules engine, and validate refuses it ({len(errors)} error{'s' * (len(errors) != 1)}, "
                       f"the first: {errors[0]}): 'deckpress validate {game}' lists them", err=True)
        else:
            click.echo(f"{game}: {'the game ' + repr(game_id) if game_id else 'this folder'} has no rules engine: deckpress can validate and build it, "
                       f"not simulate, replay or check its play (games with rules engines: {', '.join(known_games())})", err=True)
        sys.exit(2)
    return game_id, None if folder.resolve() == (CONTENT_DIR / game_id).resolve() else folder


def _with_progress(run, spec, fmt: str):
    with progress_bar(fmt) as tell:
        if tell is None:
            return run(spec)
        tell("simulating", 0, spec.games)
        return run(spec, progress=lambda done: tell("simulating", done, spec.games))


def _save_logs(result, count: int, log_dir: Path, fmt: str) -> None:
    from deckpress.generator.output import write_atomic
    from deckpress.rules.core.bots import make_bot
    from deckpress.rules.core.log import record, to_yaml
    from deckpress.rules.core.simulate import game_rng, play_game

    spec, engine = result.spec, result.game
    for index in range(count):
        bots = [make_bot(spec.game_id, name) for name in spec.bots]
        state = play_game(engine, bots, game_rng(spec.seed, index))[0]
        path = log_dir / f"{spec.game_id}-{engine.params.get('mode', 'game')}-seed{spec.seed}-game{index}.yaml"
        write_atomic(path, to_yaml(record(engine, state.history, seed=spec.seed)).encode("utf-8"))
    click.echo(f"wrote {count} game log{'s' * (count != 1)} to {log_dir}", err=fmt == "json")


def _json_simulation(result) -> None:
    click.echo(json.dumps(simulation_dict(result), indent=2, ensure_ascii=False))


def _text_simulation(result) -> None:
    from rich.console import Console
    from rich.markup import escape as rich_escape

    d = simulation_dict(result)
    console = Console(file=sys.stdout, highlight=False, width=max(100, Console().width))
    engine = result.game
    mode = f" · {d['params']['mode']}" if "mode" in d["params"] else ""
    console.print(f"[bold]{engine.info.name}[/bold]{mode} · {engine.players} players · "
                  f"{d['games']:,} games · seed {d['seed']} · bots: {', '.join(d['bots'])}")
    console.print("parameters: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in d["params"].items()), soft_wrap=True)
    batched = " · batched engine: the reference engine's distribution, not its games" if d["batched"] else ""
    console.print(f"content {d['content_hash']} · {d['engine']}{batched}", soft_wrap=True)
    for finding in d["findings"]:  # what a designer must see, in words, before the tables
        console.print(f"[bold]finding:[/bold] {rich_escape(finding['text'])}", soft_wrap=True)
    if d["cooperative"]:
        console.print(_team_table(d["team"]))
    else:
        console.print(_seats_table(d["seats"]))
        console.print(f"draws (best result shared): {d['draws']:,} ({_pct(d['draw_rate'])})")
    skill = _skill_line(d, result)
    if skill:
        console.print(skill, soft_wrap=True)
    lengths = d["length_in_moves"]
    if lengths:
        console.print("game length in moves: " + " · ".join(f"{k} {v}" for k, v in lengths.items()))
    console.print(f"real decisions (more than one legal action): {_pct(d['decision_rate'])} of moves")
    console.print(f"cut off by the move bound ({d['move_bound']:,} actions): {d['cut_off_by_move_bound']}")
    for table in _measure_tables(d["measures"]):
        console.print(table)
    timing = d["timing"]
    console.print(f"{d['games']:,} games in {timing['elapsed_s']:.2f} s on {timing['workers']} worker{'s' * (timing['workers'] != 1)}"
                  f" ({timing['games_per_s'] or 0:,.0f} games/s, {timing['actions_per_s'] or 0:,} actions/s)")


def _skill_line(d: dict[str, Any], result) -> str | None:
    """The skill signal of a run with one search-bot seat (ismcts or rollout) against greedy seats,
    in words."""
    from deckpress.rules.core.results import skill_seat

    seat = skill_seat(result.spec.bots)
    if seat is None:
        return None
    skill = d["skill"]
    if not skill["games"]:
        return None
    if d["cooperative"]:
        if skill["gain"] is None:  # no all-greedy game finished (a time limit)
            return None
        low, high = skill["gain_95"]
        return (f"skill signal: {skill['team_mean']:.2f} {skill['result']} a game with one {skill['bot'].split(':')[0]} seat, "
                f"{skill['greedy_team_mean']:.2f} over the same games with every seat greedy: a gain of {skill['gain']:+.2f} "
                f"(95 % interval {low:+.2f} to {high:+.2f}; {skill['bot']} in seat {seat})")
    low, high = skill["win_share_95"]
    baseline = ""
    if skill["greedy_share"] is not None:  # None: no all-greedy game finished (a time limit)
        gain_low, gain_high = skill["gain_95"]
        baseline = (f"greedy itself, in the same seat, won {100 * skill['greedy_share']:.1f} % of the same games with every seat greedy "
                    f"(a gain of {100 * skill['gain']:+.1f} points, 95 % interval {100 * gain_low:+.1f} to {100 * gain_high:+.1f}), and ")
    return (f"skill signal: the {skill['bot'].split(':')[0]} seat won {100 * skill['win_share']:.1f} % of games (95 % interval {100 * low:.1f}–{100 * high:.1f} %) "
            f"against greedy seats; {baseline}an even share is {100 * skill['even_share']:.1f} % ({skill['bot']} in seat {seat}; a shared "
            "best result counts as a part of a win; deckpress check --skill-games puts the search bot in every seat in turn)")


def _seats_table(seats: list[dict[str, Any]]):
    from rich.table import Table

    table = Table(title="Win rate per seat (seat 0 starts)")
    for column in ("seat", "bot", "wins", "win rate", "95 % interval", "shared best", "mean score"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for s in seats:
        low, high = s["win_rate_95"]
        table.add_row(str(s["seat"]), s["bot"], f"{s['wins']:,}", _pct(s["win_rate"]), f"{100 * low:.1f}–{100 * high:.1f} %",
                      f"{s['shared_wins']:,}", "" if s["mean_score"] is None else f"{s['mean_score']:.2f}")
    return table


def _team_table(team: dict[str, Any]):
    """Cooperative games: one result for the whole team instead of a row per seat."""
    from rich.table import Table

    table = Table(title="Team result (cooperative: every seat shares it)")
    table.add_column("what")
    table.add_column("value", justify="right")
    table.add_column("95 % interval", justify="right")
    low, high = team["win_rate_95"]
    table.add_row("games won by the team", f"{_pct(team['win_rate'])} ({team['wins']:,})", f"{100 * low:.1f}–{100 * high:.1f} %")
    if team["mean"] is not None:
        spread = dict(team["percentiles"])
        lowest, highest = spread.pop("min"), spread.pop("max")
        table.add_row(f"{team['result']}: mean", f"{team['mean']:.2f}", "")
        table.add_row(f"{team['result']}: " + " · ".join(spread), " · ".join(str(v) for v in spread.values()), "")
        table.add_row(f"{team['result']}: lowest – highest", f"{lowest} – {highest}", "")
    return table


def _measure_tables(measures: list[dict[str, Any]]) -> list:
    """One rich table per measure group: rates with their 95 % interval, means per game."""
    from rich.table import Table

    tables: dict[str, Table] = {}
    for m in measures:
        table = tables.get(m["group"])
        if table is None:
            table = tables[m["group"]] = Table(title=m["group"])
            table.add_column("what")
            if m["kind"] == "rate":
                for column in ("rate", "95 % interval", "of"):
                    table.add_column(column, justify="right")
            else:
                for column in ("total", "per game"):
                    table.add_column(column, justify="right")
        if m["kind"] == "rate":
            low, high = m["interval_95"]
            table.add_row(m["name"], _pct(m["value"]), f"{100 * low:.1f}–{100 * high:.1f} %", f"{m['trials']:,}")
        else:
            table.add_row(m["name"], f"{m['total']:,}", "n/a" if m["value"] is None else f"{m['value']:.3f}")
    return list(tables.values())


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f} %"


def _fail_content(exc: ContentErrors) -> None:
    for err in exc.errors:
        click.echo(str(err), err=True)
    sys.exit(1)

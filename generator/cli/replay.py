"""``deckpress replay``: a recorded game (a log) checked event by event against its rules engine.

Exit codes: 0 every event legal (scores printed; the game may be unfinished),
1 an illegal event (``LOG:line: event N: <reason code>: <message>``) or a recorded result that
differs, 3 the log cannot be replayed at all (unreadable, not YAML/JSON, bad header, unknown game
or parameters, invalid content).  Nothing else is printed on stdout, so ``--format json`` output
can be piped.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from deckpress.generator.cli.translate import log_in_source_names
from deckpress.generator.content.errors import ContentErrors
from deckpress.generator.content.safetext import escape, excerpt
from deckpress.rules.core.errors import LogError


@click.command()
@click.argument("log", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--content", type=click.Path(exists=True, path_type=Path), default=None,
              help="Use this game folder instead of the shipped content, or a variant file: the game as the variant changes it, its ruleset and parameters where the log names none (a game played in deckpress studio on a variant).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, help="How to report.")
@click.option("--trace", is_flag=True, help="Print, as the game goes, what each event won (point cards, missions, medals) and the running scores.")
def replay(log: Path, content: Path | None, fmt: str, trace: bool) -> None:
    """Check a recorded game (YAML or JSON Lines, docs/game-logs.md) event by event.

    Exits 0 when every event is legal (final scores printed), 1 at the first illegal event
    (LOG:line: event N: reason: message), 3 when the log cannot be replayed at all.  With
    --trace, every event that changes what was won or the scores is printed as it happens, to
    compare with the table.
    """
    from deckpress.generator.cli.content import is_variant
    from deckpress.generator.content.variant import merged_variant
    from deckpress.rules.core.log import read_log
    from deckpress.rules.core.replay import replay as run

    merged, variant = None, None
    if content is not None and content.is_file():
        if not is_variant(content):
            raise click.BadParameter(f"{content} is neither a game folder nor a variant file (a YAML file with 'extends')", param_hint="--content")
        variant, merged, errors = merged_variant(content)
        if errors:
            _unreplayable(fmt, "\n".join(str(e) for e in errors))
        content = None
    try:
        game_log = read_log(log)
        log_in_source_names(game_log, content, merged)  # a log written in another edition's names
        differing = _with_variant_rules(game_log, variant) if variant is not None else []
        result = run(game_log, content, content=merged, on_event=_tracer() if trace and fmt == "text" else None)
        result.warnings[:0] = differing
    except LogError as exc:
        _unreplayable(fmt, str(exc))
    except ContentErrors as exc:
        _unreplayable(fmt, "\n".join(str(e) for e in exc.errors))
    (_json_replay if fmt == "json" else _text_replay)(result)
    sys.exit(0 if result.ok else 1)


def _with_variant_rules(log, variant) -> list[str]:
    """Give ``log`` the rules of the variant it is replayed on (``replay --content VARIANT``): the
    variant's ruleset and parameters where the log's header names none, as they were at a table
    set up for the variant.  Returns a warning for each parameter the log plays with another
    value than the variant's (the log's value is kept: it says what was played)."""
    if log.ruleset is None:
        log.ruleset = variant.ruleset
    differing = [f"the log plays {name}={excerpt(json.dumps(log.params[name]))} where the variant says {json.dumps(value)}"
                 for name, value in variant.parameters.items() if name in log.params and log.params[name] != value]
    log.params = {**variant.parameters, **log.params}
    return differing


def _tracer():
    """``on_event`` for ``replay --trace``: after each event, what it did in a player's words
    (:meth:`State.news`: a point card won, a mission completed, a medal reached, a fight or a back
    door won, and the scores when they changed)."""
    from deckpress.rules.core.log import format_event

    last: dict[str, Any] = {"state": None}

    def on_event(index: int, event: Any, state) -> None:
        before = last["state"] or state.game.new_state()
        news = state.news(before)
        if news:
            click.echo(escape(f"event {index} {format_event(event)}: " + "; ".join(news)))
        last["state"] = state.clone()

    return on_event


def _unreplayable(fmt: str, message: str) -> None:
    if fmt == "json":
        click.echo(json.dumps({"ok": False, "readable": False, "error": message}, ensure_ascii=False))
    else:
        click.echo(f"{message}\ncannot replay this log", err=True)
    sys.exit(3)


def _text_replay(result) -> None:
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    source = result.log.source
    if result.error is not None:
        e = result.error
        click.echo(f"{e.where(source)}: {e.reason}: {e.message}")
        click.echo(f"{result.checked} event{'s' * (result.checked != 1)} legal before it")
        return
    state = result.state
    status = "the game is over" if result.finished else f"the game is not over ({state.due()})"
    click.echo(f"{source}: {result.checked} event{'s' * (result.checked != 1)}, all legal; {status}")
    click.echo("rules: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in result.game.params.items()))
    if result.unseen:
        shown: dict[int, list[str]] = {}
        for number, card, later in result.unseen:
            shown.setdefault(number, []).append(card if later else f"{card} (never shown: a stand-in)")
        click.echo(escape("unseen draws, read as the cards their seats showed later: "
                          + "; ".join(f"event {n}: {', '.join(cards)}" for n, cards in shown.items())))
    scores = state.returns()
    winners = state.winners()
    outcome = ", ".join(f"{name}: {value}" for name, value in state.outcome().items())
    if result.game.info.cooperative:
        won = ("the team won" if winners else "the team did not win") if result.finished else "so far"
        click.echo(f"  team (every seat): {scores[0]:g} {result.game.info.result_name} ({won})" + (f"; {outcome}" if outcome else ""))
        return
    if outcome:
        click.echo(f"  {outcome}")
    for seat, score in enumerate(scores):
        mark = " (winner)" if seat in winners and len(winners) == 1 else " (shared best)" if seat in winners else ""
        click.echo(f"  seat {seat}: {score:g}{mark}")


def _json_replay(result) -> None:
    e = result.error
    state = result.state
    click.echo(json.dumps({
        "ok": result.ok, "readable": True, "log": result.log.source, "game": result.game.info.id,
        "cooperative": result.game.info.cooperative,
        "params": dict(result.game.params), "events_checked": result.checked, "finished": result.finished,
        "ruleset": result.log.ruleset, "scores": state.returns(), "winners": state.winners(), "outcome": state.outcome(),
        "warnings": result.warnings,
        "unseen": [{"event": n, "card": card, "shown": later} for n, card, later in result.unseen],
        "error": None if e is None else {"index": e.index, "line": e.line, "reason": str(e.reason), "message": e.message},
    }, indent=2, ensure_ascii=False))

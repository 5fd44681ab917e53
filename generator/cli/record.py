"""``deckpress record``: write a game down at the table, one event at a time, in the terminal.

Each line typed is checked at once by the rules (the same replay as ``deckpress replay``); a
refused one is answered with its reason and asked again.  The log file is rewritten atomically
after every accepted event, so a crash or Ctrl-C loses nothing recorded, and ``--resume``
continues it.  Typing: see :mod:`deckpress.rules.core.recorder`; ``choices`` lists what may come
next, ``undo`` takes back the last event, ``quit`` (or end of input) stops.  On a terminal, Tab
completes the choices (GNU readline).
"""
from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import click

from deckpress.generator.cli.translate import typed_names
from deckpress.generator.content.errors import ContentErrors
from deckpress.generator.content.safetext import escape
from deckpress.rules.core.errors import IllegalAction, LogError, ParameterError


@click.command()
@click.argument("game")
@click.option("--mode", default=None, help="Which game of the box (a shortcut for -p mode=MODE).")
@click.option("--players", type=int, default=None, help="Number of players (seats 0.. clockwise).")
@click.option("--ruleset", default=None, help="A named ruleset of the game (deckpress describe GAME lists them).")
@click.option("--param", "-p", "params", multiple=True, metavar="KEY=VALUE", help="A rule parameter (repeatable).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The log file to write [GAME-MODE-game.yaml in this folder].")
@click.option("--resume", is_flag=True, help="Continue the log in --out (it must replay).")
@click.option("--lang", "lang", default=None, metavar="CODE",
              help="The edition the table plays: type the cards' names as its cards print them (the game folder's locales/CODE.po); "
                   "the log records the names the rules know.")
def record(game: str, mode: str | None, players: int | None, ruleset: str | None, params: tuple[str, ...],
           out: Path | None, resume: bool, lang: str | None = None) -> None:
    """Record a game of GAME played at the table: asks for each event in turn ("seat 2 to choose
    a mission"), refuses an illegal one at once with its reason, and writes the log (YAML,
    docs/game-logs.md) after every event.  GAME is a shipped id, a game folder or a fan variant
    file (its cards, and its ruleset and parameters unless given here).  Type '?' for a card you
    did not see, 'choices' for what may come next, 'undo' to take back the last event, 'quit' to
    stop (the log is kept)."""
    from deckpress.generator.cli.simulate import _params
    from deckpress.rules.core.log import GameLog, read_log
    from deckpress.rules.core.recorder import Recorder

    overrides: dict[str, Any] = _params(None, None, params)
    if mode is not None:
        overrides["mode"] = mode
    if players is not None:
        overrides["players"] = players
    game_id, make, defaults = _table_game(game)
    typed = typed_names(game, lang) if lang else None  # names as the table's edition prints them
    ruleset = ruleset or defaults[0]
    try:
        engine = make(ruleset, {**defaults[1], **overrides})
    except ParameterError as exc:
        raise click.UsageError(str(exc)) from None
    except ContentErrors as exc:
        for err in exc.errors:
            click.echo(str(err), err=True)
        sys.exit(1)
    path = out or Path(f"{game_id}-{engine.params.get('mode', 'game')}-game.yaml")
    log: GameLog | None = None
    if resume:
        try:
            log = read_log(path)
            engine = make(log.ruleset, log.params)
        except (LogError, ParameterError) as exc:
            raise click.UsageError(f"--resume: {exc}") from None
    elif path.exists():
        raise click.UsageError(f"{path} exists: --resume continues it, --out names another file")
    try:
        recorder = Recorder(engine, log)
    except IllegalAction as exc:
        raise click.UsageError(f"--resume: {path} does not replay: {exc.message}") from None
    recorder.log.ruleset = ruleset if log is None else recorder.log.ruleset
    content_arg = "" if game == game_id else f" --content {shlex.quote(game)}"  # replay's for a folder or a variant
    _save(recorder, path, content_arg)
    click.echo(escape(f"recording {engine.info.name} to {path} ({len(recorder.log.events)} event{'s' * (len(recorder.log.events) != 1)} so far); "
                      "'choices' lists what may come next, '?' is a card not seen, 'undo', 'quit'"), err=True)
    _complete(recorder)
    while not recorder.finished:
        try:
            line = click.prompt(escape(f"event {len(recorder.log.events) + 1}: {recorder.due()}"), prompt_suffix="> ",
                                default="", show_default=False, err=True)
        except (EOFError, click.Abort):
            break
        command = line.strip().casefold()
        if command in ("quit", "exit"):
            break
        if command == "choices":
            _show_choices(recorder)
            continue
        if command == "undo":
            taken = recorder.undo()
            _save(recorder, path, content_arg)
            click.echo(escape(f"took back {_shown(taken)}" if taken else "nothing to take back"), err=True)
            continue
        if not command:
            continue
        before = len(recorder.log.events)
        try:
            recorder.add(typed.in_line(line) if typed else line)
        except IllegalAction as exc:
            click.echo(escape(f"refused: {exc.reason}: {exc.message}"), err=True)
            continue
        _save(recorder, path, content_arg)
        for event in recorder.log.events[before:]:
            click.echo(escape(f"  {_shown(event)}"), err=True)
        for news in recorder.news:  # who won the round or the fight, the scores
            click.echo(escape(f"  -> {news}"), err=True)
    state = recorder.result.state
    status = ("the game is over" if recorder.finished else
              f"stopped ({recorder.due()}); deckpress record {shlex.quote(game)} --resume --out {shlex.quote(str(path))} continues")
    scores = ", ".join(f"seat {s}: {x:g}" for s, x in enumerate(state.returns()))
    click.echo(escape(f"{path}: {len(recorder.log.events)} event{'s' * (len(recorder.log.events) != 1)}; {status}; {scores}"))


def _table_game(game: str):
    """``(game id, make, (ruleset, parameters))`` for record's GAME: ``make(ruleset, params)`` the
    game the table plays; a variant file's own ruleset and parameters as the defaults, the
    variant's cards merged into the game it extends (as ``replay --content VARIANT`` plays them).
    Exits 1 with every error of a variant that does not merge, 2 when GAME is no game."""
    from deckpress.generator.cli.content import is_variant
    from deckpress.generator.cli.simulate import engine_game
    from deckpress.generator.content.variant import merged_variant
    from deckpress.rules.core.registry import game_class, load

    candidate = Path(game)
    if candidate.is_file() and is_variant(candidate):
        variant, merged, errors = merged_variant(candidate)
        if errors:
            for err in errors:
                click.echo(str(err), err=True)
            sys.exit(1)
        assert variant is not None and merged is not None  # merged_variant: both, when no errors
        return (variant.game_id, lambda ruleset, params: game_class(variant.game_id).create(merged, ruleset, params),
                (variant.ruleset, variant.parameters))
    game_id, content = engine_game(game)
    return game_id, (lambda ruleset, params: load(game_id, ruleset, params, content)), (None, {})


def _save(recorder, path: Path, content_arg: str = "") -> None:
    from deckpress.generator.output import write_atomic
    from deckpress.rules.core.log import to_yaml

    head = (f"# {recorder.game.info.name}, recorded at the table with deckpress record (format: docs/game-logs.md).\n"
            f"# Check it: deckpress replay {shlex.quote(path.name)}{content_arg}\n")
    write_atomic(path, (head + to_yaml(recorder.log)).encode("utf-8"))


def _shown(event: dict[str, Any]) -> str:
    from deckpress.rules.core.log import format_event

    return format_event(event)


def _show_choices(recorder) -> None:
    choices = recorder.choices()
    if not choices:
        click.echo("nothing is due", err=True)
    for number, choice in enumerate(choices, 1):
        click.echo(escape(f"  {number}. {choice.text}"), err=True)
    if choices and "chance" in choices[0].event:
        click.echo("  or ? for a card not seen", err=True)


def _complete(recorder) -> None:
    """Tab completion of the choices on a terminal (GNU readline, where Python has it)."""
    if not sys.stdin.isatty():
        return
    try:
        import readline
    except ImportError:
        return

    def complete(text: str, index: int) -> str | None:
        buffer = readline.get_line_buffer().casefold()
        words = [c.text for c in recorder.choices()] + ["choices", "undo", "quit", "?"]
        found = [w[len(buffer) - len(text):] for w in words if w.casefold().startswith(buffer)]
        return found[index] if index < len(found) else None

    readline.set_completer_delims("")
    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")

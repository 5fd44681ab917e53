"""``deckpress describe``: what a game offers to play, from its rules engine and its game.yaml:
modes, rulesets, parameters (type, range, default, meaning, source), bots and the readings the
engine plays by.  ``--format json`` for tools."""
from __future__ import annotations

import json
from typing import Any

import click

from deckpress.generator.safetext import escape, json_safe


@click.command()
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(("text", "json")), default="text", show_default=True, help="How to report.")
def describe(game: str, fmt: str) -> None:
    """Describe GAME (a shipped id or a game folder): its modes and rulesets, every parameter with
    its type, range, default, meaning and source, its bots, and the readings of the rulebook its
    engine plays by (game.yaml's notes)."""
    data = describe_game(game)
    if fmt == "json":
        click.echo(json_safe(json.dumps(data, indent=2, ensure_ascii=False)))
        return
    click.echo(escape(f"{data['name']} ({data['game']})" + (f", {data['engine']}" if data["engine"] else ", no rules engine")))
    if data["rulebook"]:
        click.echo(escape(f"rulebook: {data['rulebook']}"))
    click.echo("modes (game.yaml):")
    for mode in data["modes"]:
        click.echo(escape(f"  {mode['id']}: {mode['name']}" + (f" - {mode['description']}" if mode.get("description") else "")))
    if data["rulesets"]:
        click.echo("rulesets (--ruleset NAME):")
        for name, params in data["rulesets"].items():
            click.echo(escape(f"  {name}: " + (", ".join(f"{k}={json.dumps(v)}" for k, v in params.items()) or "the defaults")))
    if data["parameters"]:
        click.echo("parameters (-p NAME=VALUE):")
        for p in data["parameters"]:
            click.echo(escape(f"  {p['name']} ({p['type']}, {p['range']}; default {json.dumps(p['default'])}): {p['meaning']}"))
            click.echo(escape(f"      source: {p['source']}" + (f"; applies to: {', '.join(p['modes'])}" if p["modes"] else "")))
    if data["bots"]:
        click.echo("bots (--bots NAME,...):")
        for bot in data["bots"]:
            click.echo(escape(f"  {bot['name']}: {bot['about']}"))
    if data["readings"]:
        click.echo("readings (game.yaml notes):")
        for paragraph in data["readings"].split("\n\n"):
            click.echo(escape("  " + " ".join(paragraph.split())))


def describe_game(game: str) -> dict[str, Any]:
    """The description :func:`describe` prints, as plain data.

    Raises:
        click.UsageError: GAME is neither a game folder nor a shipped game.
    """
    from deckpress.generator.content import find_game, game_id_of, load_game
    from deckpress.generator.errors import ContentErrors
    from deckpress.rules.core.bots import bot_names, make_bot
    from deckpress.rules.core.params import FROM_CONTENT
    from deckpress.rules.core.registry import game_class, known_games, load

    try:
        folder = find_game(game)
        content = load_game(folder)
    except ContentErrors as exc:
        raise click.UsageError(str(exc.errors[0])) from None
    game_id = game_id_of(folder) or content.game_id
    doc = content["game"]
    out: dict[str, Any] = {"game": game_id, "name": doc.get("title", game_id), "engine": None, "rulebook": None,
                           "modes": [dict(m) for m in doc.get("modes", [])], "rulesets": {}, "parameters": [], "bots": [],
                           "readings": (doc.get("notes") or "").strip()}
    if game_id not in known_games():
        return out
    engine = load(game_id, content_dir=folder)
    info = game_class(game_id).info
    out.update(engine=engine.engine_version(), rulebook=info.rulebook,
               rulesets={name: dict(params) for name, params in info.rulesets.items()})
    for p in info.params:
        default = engine.params[p.name] if p.default is FROM_CONTENT else p.default
        out["parameters"].append({"name": p.name, "type": p.kind.__name__, "range": p.range_text(), "default": default,
                                  "by_mode": dict(p.by_mode), "meaning": p.doc, "source": p.source,
                                  "modes": list(p.modes) if p.modes else None})
    for name in bot_names(game_id):
        bot = make_bot(game_id, name)  # a bot's ``summary`` speaks to players; else its docstring's first paragraph
        about = getattr(bot, "summary", None) or (type(bot).__doc__ or "").strip().split("\n\n")[0]
        out["bots"].append({"name": name, "about": " ".join(about.split())})
    return out

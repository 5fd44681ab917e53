"""``deckpress describe``: what a game offers to play, from its rules engine and its game.yaml:
modes, rulesets, parameters (type, range, default, meaning, source), bots, every reading of the
rulebook the engine can play (parameter, default, alternatives, the sentence with the rulebook's
title and section, where it matters, its measured effect) and game.yaml's notes.  ``--format
json`` for tools; :func:`readings_markdown` is the readings' table in ``docs/rules-audit.md``."""
from __future__ import annotations

import json
from typing import Any

import click

from deckpress.generator.content.safetext import escape, json_safe


@click.command()
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(("text", "json")), default="text", show_default=True, help="How to report.")
def describe(game: str, fmt: str) -> None:
    """Describe GAME (a shipped id or a game folder): its modes and rulesets, every parameter with
    its type, range, default, meaning and source, its bots, and the readings of the rulebook its
    engine can play, each a parameter (with its default, alternatives, the rulebook's sentence and
    its measured effect), and game.yaml's notes."""
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
        click.echo("readings of the rulebook (-p NAME=VALUE; the default first):")
        for r in data["readings"]:
            values = [r["default"]] + [a["value"] for a in r["alternatives"] if a["value"] != r["default"]]
            click.echo(escape(f"  {r['parameter']}: {' | '.join(json.dumps(v) for v in values)}"))
            click.echo(escape(f"      {r['rulebook']}, {r['section']}: \"{r['quote']}\""))
            for a in r["alternatives"]:
                click.echo(escape(f"      {json.dumps(a['value'])}: {a['meaning']}"))
            click.echo(escape(f"      where it matters: {r['where']}"))
            click.echo(escape(f"      measured: {r['effect']}"))
    if data["notes"]:
        click.echo("notes (game.yaml):")
        for paragraph in data["notes"].split("\n\n"):
            click.echo(escape("  " + " ".join(paragraph.split())))


def describe_game(game: str) -> dict[str, Any]:
    """The description :func:`describe` prints, as plain data.

    Raises:
        click.UsageError: GAME is neither a game folder nor a shipped game.
    """
    from deckpress.generator.content import find_game, game_id_of, load_game
    from deckpress.generator.content.errors import ContentErrors
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
                           "readings": [], "notes": (doc.get("notes") or "").strip()}
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
    out["readings"] = [reading_data(r, engine.params[r.param], info.rulebook) for r in info.readings]
    for name in bot_names(game_id):
        bot = make_bot(game_id, name)  # a bot's ``summary`` speaks to players; else its docstring's first paragraph
        about = getattr(bot, "summary", None) or (type(bot).__doc__ or "").strip().split("\n\n")[0]
        out["bots"].append({"name": name, "about": " ".join(about.split())})
    return out


def reading_data(reading, default: Any, rulebook: str) -> dict[str, Any]:
    """One :class:`~deckpress.rules.core.params.Reading` as plain data: ``parameter``, ``default``
    (the value played unless ``-p`` says otherwise), ``alternatives`` (``value``, ``meaning``),
    ``rulebook`` (its title), ``section``, ``quote``, ``where`` and ``effect`` (measured)."""
    return {"parameter": reading.param, "default": default,
            "alternatives": [{"value": value, "meaning": meaning} for value, meaning in reading.alternatives],
            "rulebook": rulebook, "section": reading.section, "quote": reading.quote, "where": reading.where,
            "effect": reading.effect}


def readings_markdown(game_ids: list[str]) -> str:
    """The readings of these games as the Markdown table ``docs/rules-audit.md`` carries (a test
    checks the file against it): one row per reading, from :func:`describe_game`."""
    lines = ["| Game | Parameter (default first) | Rulebook: section, sentence | Where it matters | Measured effect |",
             "|---|---|---|---|---|"]
    for game_id in game_ids:
        data = describe_game(game_id)
        for r in data["readings"]:
            values = [f"`{json.dumps(r['default'])}`: {_meaning(r, r['default'])}"]
            values += [f"`{json.dumps(a['value'])}`: {a['meaning']}" for a in r["alternatives"] if a["value"] != r["default"]]
            cells = [data["name"], f"`{r['parameter']}`: " + "; ".join(values), f"{r['section']}: \"{r['quote']}\"",
                     r["where"], r["effect"]]
            lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines) + "\n"


def _meaning(reading: dict[str, Any], value: Any) -> str:
    return next((a["meaning"] for a in reading["alternatives"] if a["value"] == value), "(not one of the readings)")

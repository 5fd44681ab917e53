"""``deckpress missions GAME``: every mission's odds of being met by a random row of cards.

For a designer balancing a mission deck: the exact probability that a freshly dealt row meets
each mission, hardest first, so that too easy and impossible missions stand out.  Only games
whose module offers ``odds_report(folder)`` have missions with conditions (50 Missions).
"""
from __future__ import annotations

import json
import sys
from statistics import median
from typing import Callable, TextIO

import click

from deckpress.generator.content import find_game, game_id_of, module_for, shipped_games
from deckpress.generator.content.errors import ContentError, ContentErrors


@click.command()
@click.argument("game")
@click.option("--sort", "order", type=click.Choice(["odds", "file"]), default="odds", show_default=True,
              help="'odds': hardest first; 'file': in the order of missions.yaml.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True, help="How to report.")
def missions(game: str, order: str, fmt: str) -> None:
    """List each mission of GAME (an id or a folder) with its odds of being met by a random row.

    Odds are exact: every ordered row of distinct cards the deck allows is counted.  Exits 1 when
    a mission is impossible or always met, or a condition is wrong (each error as
    file:line:column: message, on stderr), 2 when the game has no missions with conditions.
    """
    try:
        folder = find_game(game)
    except ContentErrors as exc:
        raise click.UsageError(str(exc.errors[0])) from None
    game_id = game_id_of(folder)
    module = module_for(game_id) if game_id else None
    if game_id is None or module is None or not hasattr(module, "odds_report"):
        with_odds = [g for g in shipped_games() if hasattr(module_for(g), "odds_report")]
        click.echo(f"{game}: no missions with conditions to count (games that have them: {', '.join(with_odds)})", err=True)
        sys.exit(2)
    rows, errors = module.odds_report(folder)
    if order == "odds":
        rows = sorted(rows, key=lambda r: (r.probability, r.id))
    REPORTERS[fmt](game_id, rows, errors, sys.stdout)
    for err in errors:
        click.echo(str(err), err=True)
    sys.exit(1 if errors else 0)


def text_report(game: str, rows: list, errors: list[ContentError], out: TextIO) -> None:
    """A table: odds in %, '1 in N', the number the card prints, id, provenance, card text; then
    the extremes and median."""
    if not rows:
        print(f"{game}: no missions could be counted ({len(errors)} error{'s' * (len(errors) != 1)})", file=out)
        return
    print(f"{game}: {len(rows)} missions; odds that a random row meets each, out of {rows[0].total:,} ordered rows", file=out)
    width = max(len(r.id) for r in rows)
    print(f"{'odds':>8}  {'1 in':>7}  {'card':<7}  {'mission':<{width}}  {'provenance':<13}  text", file=out)
    for r in rows:
        odds = f"{float(r.probability):8.3%}" if r.met else "IMPOSSIBLE"
        one_in = f"{r.total / r.met:7.1f}" if r.met else f"{'-':>7}"
        print(f"{odds:>8}  {one_in}  {r.number:<7}  {r.id:<{width}}  {r.provenance:<13}  {r.text}", file=out)
    hardest, easiest = min(rows, key=lambda r: r.probability), max(rows, key=lambda r: r.probability)
    print(f"hardest {float(hardest.probability):.3%} ({hardest.id}), easiest {float(easiest.probability):.3%} ({easiest.id}), "
          f"median {float(median(r.probability for r in rows)):.3%}; impossible: {sum(not r.met for r in rows)}", file=out)


def json_report(game: str, rows: list, errors: list[ContentError], out: TextIO) -> None:
    """``{"game", "ok", "missions": [{id, number, probability, met, total, provenance, text}], "errors"}``."""
    json.dump({
        "game": game, "ok": not errors,
        "missions": [{"id": r.id, "number": r.number, "probability": float(r.probability), "met": r.met, "total": r.total,
                      "provenance": r.provenance, "text": r.text} for r in rows],
        "errors": [e.as_dict() for e in errors],
    }, out, indent=2, ensure_ascii=False)
    out.write("\n")


REPORTERS: dict[str, Callable[[str, list, list[ContentError], TextIO], None]] = {"text": text_report, "json": json_report}

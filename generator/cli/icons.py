"""``deckpress icons [GAME]``: every icon a game's layout can name, where each is defined, and a
picture sheet of them all (``--out icons.pdf``).  ``--format json`` for tools and editors."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from deckpress.generator.content import GAME_FILE, find_game, game_id_of
from deckpress.generator.content.errors import ContentErrors, display_path
from deckpress.generator.content.safetext import escape, json_safe
from deckpress.generator.output import write_atomic
from deckpress.generator.paths import PACKAGE_DIR


@click.command()
@click.argument("game", required=False)
@click.option("--format", "fmt", type=click.Choice(("text", "json")), default="text", show_default=True, help="How to report.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write a PDF picture sheet of every icon, each with its name, to this file (such as icons.pdf).")
def icons(game: str | None, fmt: str, out: Path | None) -> None:
    """List every icon GAME's layout can name: deckpress's own, by family, and the game's own
    (SVG or YAML files in the icons/ folder beside its game.yaml).  GAME is a game folder or a
    shipped id; none means the current folder if it holds game.yaml, else deckpress's icons
    alone.  A layout names an icon as {type: icon, icon: NAME}, a text with inline_icons: true as
    :NAME:."""
    from deckpress.generator.render.icons import (
        GAME_ICONS,
        characters_of,
        family_of,
        game_icons,
        icon_sheet,
        icon_sources,
    )

    folder = _folder(game)
    try:
        sources = icon_sources(folder)
        shapes = game_icons(folder)
    except ContentErrors as exc:
        for error in exc.errors:
            click.echo(str(error), err=True)
        sys.exit(1)
    depicted = characters_of()
    characters = {name: depicted.get(name, "") for name in sources}
    label = game_id_of(folder) if folder is not None else None
    if out is not None:
        write_atomic(out, icon_sheet(sources, shapes, f"Icons of {label}" if label else "deckpress icons"))
    if fmt == "json":
        click.echo(json_safe(json.dumps({
            "game": label, "own_icons_folder": display_path(folder / GAME_ICONS) if folder is not None else None,
            "icons": [{"name": n, "source": s, "characters": characters[n]} for n, s in sources.items()],
            "sheet": str(out) if out is not None else None}, indent=2, ensure_ascii=False)))
        return
    current = None
    for name, source in sources.items():
        if family_of(source) != current:
            current = family_of(source)
            click.echo(escape(f"{current}:"))
        shown = f" (for {characters[name]})" if characters[name] else ""
        click.echo(escape(f"  {name}{shown}"))
    shipped = folder is None or folder.resolve().is_relative_to(PACKAGE_DIR.resolve())  # not a folder of the user's to add to
    own = "; a game adds its own as SVG files in its icons/ folder" if shipped or folder is None else f"; add your own as SVG files in {display_path(folder / GAME_ICONS)}/"
    click.echo(escape(f"{len(sources)} icons{own}"))
    if out is not None:
        click.echo(escape(f"wrote {display_path(out)}"))


def _folder(game: str | None) -> Path | None:
    """The game folder GAME names (the current folder when it holds game.yaml and GAME is not
    given), or None for deckpress's icons alone.

    Raises:
        click.UsageError: GAME is neither a game folder nor a shipped id.
    """
    if game is None:
        return Path(".") if Path(GAME_FILE).is_file() else None
    try:
        return find_game(game)
    except ContentErrors as exc:
        raise click.UsageError(str(exc.errors[0].message)) from None


"""``deckpress init NAME`` (a new game made from data alone) and ``deckpress schemas DIR`` (the
schemas, self-contained, for editors outside the checkout).

The starter game is data, in ``generator/templates/new-game/``: one deck from a CSV file, a face
and a back layout, a JSON Schema for a card, and ``$schema`` modelines pointing at ``.schemas/``
in the new folder, which ``init`` fills as ``deckpress schemas`` does.
"""
from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import click

from deckpress.generator.output import write_atomic
from deckpress.generator.paths import TEMPLATES_DIR
from deckpress.generator.schema import bundled, schema_names

STARTER = TEMPLATES_DIR / "new-game"
SCHEMAS_FOLDER = ".schemas"


def write_schemas(folder: Path) -> list[Path]:
    """Write every deckpress schema, self-contained (:func:`deckpress.generator.schema.bundled`),
    into ``folder``; returns the files written."""
    written = []
    for name in schema_names():
        target = folder / name
        write_atomic(target, (json.dumps(bundled(name), indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
        written.append(target)
    return written


def yaml_scalar(text: str) -> str:
    """``text`` as a YAML value that reads back as that very text: plain where deckpress's loader
    (:mod:`deckpress.generator.yamlsafe`) and YAML 1.1 readers (PyYAML's, which an editor may use)
    both read it so (``my-game``), else in JSON's double quotes (``"null"``, ``"true"``, ``"no"``,
    ``"123"``, ``"a: b"``), which every YAML reader reads as the same string."""
    import yaml

    from deckpress.generator.yamlsafe import load_yaml

    line = f"v: {text}\n"
    doc, errors = load_yaml(Path("value.yaml"), text=line)
    try:
        elsewhere = yaml.safe_load(line)
    except yaml.YAMLError:
        elsewhere = None
    if not errors and doc is not None and doc.data == {"v": text} and elsewhere == {"v": text}:
        return text
    return json.dumps(text, ensure_ascii=False)


def game_id_for(name: str) -> str:
    """A game id (lowercase letters, digits, hyphens) made from a folder name: ``My Game!`` ->
    ``my-game``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "game"


@click.command()
@click.argument("name", type=click.Path(path_type=Path))
def init(name: Path) -> None:
    """Start a game made from data alone in a new folder NAME: game.yaml (one deck), cards.csv
    (three cards), card.schema.json, layout.yaml (a face and a back), and .schemas/ for editors.
    Then: deckpress build NAME.  Refuses a folder that exists and is not empty."""
    if name.exists() and (not name.is_dir() or any(name.iterdir())):
        click.echo(f"{name}: exists and is not an empty folder: choose a new name", err=True)
        sys.exit(2)
    game_id = game_id_for(name.resolve().name)
    if not re.match(r"^[a-z]", game_id):
        game_id = "game-" + game_id
    title = name.resolve().name.replace("-", " ").replace("_", " ").strip().capitalize() or "New game"
    for template in sorted(STARTER.iterdir()):
        text = template.read_text("utf-8").replace("id: new-game", f"id: {yaml_scalar(game_id)}")
        quoted_title = json.dumps(title, ensure_ascii=False)  # JSON's quotes: a YAML string whatever the title
        text = text.replace("title: New game", f"title: {quoted_title}").replace('text: "New game"', f"text: {quoted_title}")
        write_atomic(name / template.name, text.encode("utf-8"))
    write_schemas(name / SCHEMAS_FOLDER)
    click.echo(f"wrote {name}/: game.yaml, cards.csv, card.schema.json, layout.yaml and {SCHEMAS_FOLDER}/ (game id '{game_id}')")
    needs = _font_needed(title)
    if needs:
        click.echo(f"note: the title {needs}: add the fonts to {name}/fonts/ and declare them in game.yaml, for example "
                   "fonts: [{regular: fonts/YourFont-Regular.ttf, bold: fonts/YourFont-Bold.ttf}], before building", err=True)
    click.echo(f"next: edit cards.csv, then run: deckpress build {shlex.quote(str(name))}")  # a name with a space, pasted


def _font_needed(title: str) -> str | None:
    """Why the shipped fonts cannot draw ``title`` (a name in a script they lack: the starter game's
    cover, back and cards print it), or None when they can."""
    from deckpress.generator.render.fonts import SHIPPED, register
    from deckpress.generator.render.scripts import FONT_ADVICE, Unprintable, runs

    register()
    try:
        runs(title, SHIPPED.bold)
    except Unprintable as exc:
        return str(exc).removesuffix(FONT_ADVICE)
    return None


@click.command()
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
def schemas(folder: Path) -> None:
    """Write every deckpress schema into FOLDER, each self-contained (no $ref to another file), for
    editors' '# yaml-language-server: $schema=FOLDER/<name>.schema.json' modelines."""
    written = write_schemas(folder)
    click.echo(f"wrote {len(written)} schemas to {folder}/")

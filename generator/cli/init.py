"""``deckpress init NAME`` (a new game made from data alone), ``deckpress init NAME --from FILE``
(a game made from a card file a designer already has) and ``deckpress schemas DIR`` (the
schemas, self-contained, for editors outside the checkout).

The starter game is data, in ``generator/templates/new-game/``: one deck from a CSV file, a face
and a back layout, a JSON Schema for a card, and ``$schema`` modelines pointing at ``.schemas/``
in the new folder, which ``init`` fills with the schemas those files name (:data:`USED_SCHEMAS`).
With ``--from``, the card file is copied into the new folder and the schema and layout are made
from its fields (:mod:`deckpress.generator.content.starter`).
"""
from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import click

from deckpress.generator.content.schema import bundled, schema_names
from deckpress.generator.output import write_atomic
from deckpress.generator.paths import TEMPLATES_DIR

STARTER = TEMPLATES_DIR / "new-game"
SCHEMAS_FOLDER = ".schemas"
#: The schemas a game made from data alone names in its modelines: its game.yaml, its layout.yaml,
#: and a variant of it (``deckpress schemas DIR`` writes them all).
USED_SCHEMAS = ("game.schema.json", "layout.schema.json", "variant.schema.json")
#: Field names that say how many of a card a game has (any case): ``init --from`` prints that many.
COPIES_FIELDS = ("copies", "quantity", "qty", "count")


def write_schemas(folder: Path, names: tuple[str, ...] | None = None) -> list[Path]:
    """Write deckpress's schemas named ``names`` (default: all), each self-contained
    (:func:`deckpress.generator.content.schema.bundled`), into ``folder``; returns the files written."""
    written = []
    for name in names or schema_names():
        target = folder / name
        write_atomic(target, (json.dumps(bundled(name), indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
        written.append(target)
    return written


def yaml_scalar(text: str) -> str:
    """``text`` as a YAML value that reads back as that very text: plain where deckpress's loader
    (:mod:`deckpress.generator.content.yamlsafe`) and YAML 1.1 readers (PyYAML's, which an editor may use)
    both read it so (``my-game``), else in JSON's double quotes (``"null"``, ``"true"``, ``"no"``,
    ``"123"``, ``"a: b"``), which every YAML reader reads as the same string."""
    import yaml

    from deckpress.generator.content.yamlsafe import load_yaml

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
@click.option("--from", "source", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Start from a card file you have (.csv, .tsv, .json, .yaml or .xlsx): it is copied into NAME, and the card "
                   "schema and layout are made from its fields, every field placed on the card.")
@click.option("--path", "records", default=None, metavar="PATH",
              help="With --from, for JSON or YAML: where the records are (data, packs[*].white) [default: the top-level list, "
                   "a 'cards' list, or the longest list of records at the top].")
@click.option("--sheet", default=None, help="With --from, for .xlsx: the sheet of cards [default: the first].")
@click.option("--like", "like", default=None, metavar="GAME",
              help="Copy the shipped game GAME (mission-emission, fifty-missions, maybe-missions, geheime-mission) into NAME, to "
                   "translate it, change its cards or base a game on it; it keeps GAME's id, rules and print kit.")
def init(name: Path, source: Path | None, records: str | None, sheet: str | None, like: str | None = None) -> None:
    """Start a game made from data alone in a new folder NAME: game.yaml (one deck), cards.csv
    (three cards), card.schema.json, layout.yaml (a face and a back), and .schemas/ for editors.
    With --from FILE, the deck is FILE's cards instead, with a schema of the types found and a
    layout that places every field.  With --like GAME, NAME is a copy of the shipped game GAME.
    Then: deckpress build NAME.  Refuses a folder that exists and is not empty, unless FILE is in
    it and it holds no game yet."""
    if (records or sheet) and source is None:
        raise click.UsageError("--path and --sheet say where the cards of --from FILE are")
    if like is not None and source is not None:
        raise click.UsageError("--like copies a shipped game and --from starts one from a card file: give one of them")
    in_place = source is not None and name.is_dir() and source.resolve().parent == name.resolve() and \
        not any((name / made).exists() for made in ("game.yaml", "layout.yaml", "card.schema.json", SCHEMAS_FOLDER))
    if name.exists() and (not name.is_dir() or any(name.iterdir())) and not in_place:
        click.echo(f"{name}: exists and is not an empty folder: choose a new name"
                   + (" (or, to make a game of the folder a card file is in, name that file: --from FOLDER/FILE)" if source else ""), err=True)
        sys.exit(2)
    if like is not None:
        _init_like(name, like)
        return
    game_id = game_id_for(name.resolve().name)
    if not re.match(r"^[a-z]", game_id):
        game_id = "game-" + game_id
    title = name.resolve().name.replace("-", " ").replace("_", " ").strip().capitalize() or "New game"
    if source is not None:
        _init_from(name, source, records, sheet, game_id, title)
        return
    for template in sorted(STARTER.iterdir()):
        text = template.read_text("utf-8").replace("id: new-game", f"id: {yaml_scalar(game_id)}")
        quoted_title = json.dumps(title, ensure_ascii=False)  # JSON's quotes: a YAML string whatever the title
        text = text.replace("title: New game", f"title: {quoted_title}").replace('text: "New game"', f"text: {quoted_title}")
        write_atomic(name / template.name, text.encode("utf-8"))
    write_schemas(name / SCHEMAS_FOLDER, USED_SCHEMAS)
    click.echo(f"wrote {name}/: game.yaml, cards.csv, card.schema.json, layout.yaml and {SCHEMAS_FOLDER}/ (game id '{game_id}')")
    needs = _font_needed(title)
    if needs:
        click.echo(f"note: the title {needs}: add the fonts to {name}/fonts/ and declare them in game.yaml, for example "
                   "fonts: [{regular: fonts/YourFont-Regular.ttf, bold: fonts/YourFont-Bold.ttf}], before building", err=True)
    click.echo(f"next: edit cards.csv, then run: deckpress build {shlex.quote(str(name))}")  # a name with a space, pasted


#: The modeline of a shipped game's file, naming a schema in the package's schemas/ folder.
_SHIPPED_MODELINE = re.compile(r"(#\s*yaml-language-server:\s*\$schema=)\.\./\.\./schemas/([A-Za-z0-9._-]+\.json)")


def _init_like(name: Path, game: str) -> None:
    """Write NAME/ as a copy of the shipped game ``game``'s folder, every file as it is but its
    ``$schema`` modelines, which point at NAME/.schemas/ (filled with those schemas), so that an
    editor still checks the copy.

    Raises:
        click.BadParameter: ``game`` is not a shipped game.
    """
    from deckpress.generator.content import SHIPPED
    from deckpress.generator.paths import CONTENT_DIR

    if game not in SHIPPED:
        raise click.BadParameter(f"'{game}' is not a shipped game (they are: {', '.join(sorted(SHIPPED))})", param_hint="--like")
    source = CONTENT_DIR / game
    used: set[str] = set()
    for path in sorted(p for p in source.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        data = path.read_bytes()
        if path.suffix in (".yaml", ".yml", ".json"):
            text = data.decode("utf-8")
            used.update(m.group(2) for m in _SHIPPED_MODELINE.finditer(text))
            data = _SHIPPED_MODELINE.sub(lambda m: f"{m.group(1)}{SCHEMAS_FOLDER}/{m.group(2)}", text).encode("utf-8")
        write_atomic(name / path.relative_to(source), data)
    write_schemas(name / SCHEMAS_FOLDER, tuple(sorted(used)))
    click.echo(f"wrote {name}/: a copy of {game}, keeping its game id '{game}' and with it the game's rules and print kit, "
               f"and {SCHEMAS_FOLDER}/")
    click.echo(f"next: deckpress build {shlex.quote(str(name))}, or translate it: deckpress translate update {shlex.quote(str(name))} --lang CODE")


def _init_from(name: Path, source: Path, records: str | None, sheet: str | None, game_id: str, title: str) -> None:
    """``deckpress init NAME --from SOURCE``: read SOURCE's cards (every error listed, exit 1,
    nothing written), then write NAME/ with SOURCE copied in (or left where it is, when it is in
    NAME already), game.yaml, card.schema.json, a layout.yaml that places every field, and .schemas/."""
    from deckpress.generator.content import gate
    from deckpress.generator.content.cardfiles import (
        FORMATS,
        HARD_CARDS,
        HARD_MEGABYTES,
        CardLimits,
        load_card_file,
        parse_path,
    )
    from deckpress.generator.content.errors import display_path
    from deckpress.generator.content.reporters import summarised
    from deckpress.generator.content.starter import card_schema, layout_yaml, survey

    suffix = source.suffix.lower()
    if suffix not in FORMATS:
        raise click.UsageError(f"--from: '{source.name}' is not a card file deckpress reads (.csv, .tsv, .json, .yaml or .xlsx)")
    if records is not None and (suffix not in (".json", ".yaml", ".yml") or parse_path(records) is None):
        raise click.UsageError("--path is keys joined by '.', with [*] for every item of a list (data, packs[*].white), for a JSON or YAML file")
    if sheet is not None and suffix != ".xlsx":
        raise click.UsageError("--sheet names a sheet of an .xlsx spreadsheet")
    size = source.stat().st_size
    defaults = CardLimits()
    megabytes = -(-size // 1_000_000)
    deck: dict = {}
    if megabytes > defaults.megabytes:
        deck["limits"] = {"megabytes": min(megabytes, HARD_MEGABYTES)}
    deck["limits"] = {**deck.get("limits", {}), "cards": HARD_CARDS}  # counted below, then set to what the file needs
    if records is not None:
        deck["path"] = records
    if sheet is not None:
        deck["sheet"] = sheet
    shown = display_path(source)
    doc, errors = load_card_file(source, shown, None, deck)
    if doc is None and records is None and suffix in (".json", ".yaml", ".yml") and any("path:" in e.message for e in errors):
        guess = _records_key(source, suffix)
        if guess is not None:
            deck["path"] = guess
            doc, errors = load_card_file(source, shown, None, deck)
    if doc is None:
        for line in summarised(errors):
            click.echo(line, err=True)
        click.echo(f"{name}: not made: deckpress cannot read {source} ({len(errors)} error{'s' * (len(errors) != 1)}); nothing was written", err=True)
        sys.exit(1)
    cards = [card for card in doc.data["cards"] if isinstance(card, dict)]
    if not cards:
        click.echo(f"{name}: not made: {source} holds no cards (records of fields); nothing was written", err=True)
        sys.exit(1)
    if len(doc.data["cards"]) > defaults.cards:
        deck["limits"]["cards"] = min(HARD_CARDS, len(doc.data["cards"]) * 2)
    else:
        deck["limits"].pop("cards")
    if not deck["limits"]:
        deck.pop("limits")
    fields = survey(cards)
    deck_id = game_id_for(source.stem)
    deck_id = deck_id if re.match(r"^[a-z]", deck_id) and deck_id not in ("game", "layout") else f"deck-{deck_id}"
    copies = next((f for f in fields if f.name.lower() in COPIES_FIELDS and set(f.types) == {"integer"} and f.present == len(cards)
                   and all(0 <= card[f.name] <= 1000 for card in cards)), None)
    if source.resolve().parent != name.resolve():  # a card file already in the folder stays as it is
        write_atomic(name / source.name, gate.read_bytes(source, None, max(size, 1)))
    write_atomic(name / "card.schema.json", (json.dumps(card_schema(fields, len(cards), deck_id, source.name), indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    write_atomic(name / "layout.yaml", layout_yaml(fields, len(cards), "card", title).encode("utf-8"))
    lines = ["# yaml-language-server: $schema=.schemas/game.schema.json",
             f"# Made by deckpress init --from {source.name}: {len(cards):,} cards of {len(fields)} fields. Build it with: deckpress build FOLDER",
             f"id: {yaml_scalar(game_id)}", f"title: {json.dumps(title, ensure_ascii=False)}",
             "card_sizes:", '  poker: {width_mm: 63, height_mm: 88, description: "poker size (63 x 88 mm)"}',
             "decks:", f"  - id: {yaml_scalar(deck_id)}", f"    name: {json.dumps(source.stem.replace('_', ' ').replace('-', ' ').strip().capitalize() or 'Cards', ensure_ascii=False)}",
             f"    file: {json.dumps(source.name, ensure_ascii=False)}"]
    if "path" in deck:
        lines.append(f"    path: {json.dumps(deck['path'], ensure_ascii=False)}   # where the records are in the file")
    if "sheet" in deck:
        lines.append(f"    sheet: {json.dumps(deck['sheet'], ensure_ascii=False)}")
    lines += ["    schema: card.schema.json # the types found: tighten it", "    layout: card             # cards.card in layout.yaml",
              "    card_size: poker"]
    if copies is not None:
        lines.append(f"    copies: {copies.name}   # the field that says how many of each card to print (as many as the box holds)")
    if "limits" in deck:
        lines.append("    limits: " + json.dumps(deck["limits"]).replace('"', "") + "   # raised for this file (defaults: 64 MB, 50,000 cards)")
    write_atomic(name / "game.yaml", ("\n".join(lines) + "\n").encode("utf-8"))
    write_schemas(name / SCHEMAS_FOLDER, USED_SCHEMAS)
    where = f", at {deck['path']}" if "path" in deck else ""
    click.echo(f"wrote {name}/: game.yaml, {source.name} ({len(cards):,} cards{where}), card.schema.json ({len(fields)} fields), layout.yaml "
               f"and {SCHEMAS_FOLDER}/ (game id '{game_id}')")
    click.echo(f"next: deckpress build {shlex.quote(str(name))}, then make layout.yaml a card and tighten card.schema.json")


def _records_key(source: Path, suffix: str) -> str | None:
    """The top-level key of a JSON or YAML file that holds its longest list of records (objects),
    or None: where a file such as ``{"data": [...], "version": 2}`` keeps its cards."""
    from deckpress.generator.content.cardfiles import load_json
    from deckpress.generator.content.yamlsafe import load_yaml

    doc, _ = load_json(source, str(source), None) if suffix == ".json" else load_yaml(source, str(source), max_bytes=source.stat().st_size + 1,
                                                                                      max_nodes=10_000_000)
    if doc is None or not isinstance(doc.data, dict):
        return None
    lists = [(len(v), k) for k, v in doc.data.items() if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)]
    key = max(lists)[1] if lists else None
    return key if key is not None and re.fullmatch(r"[^.\[\]]+", key) else None


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

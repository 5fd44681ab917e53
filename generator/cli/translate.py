"""``deckpress translate extract`` and ``deckpress translate update``: a game's texts as gettext
catalogues for translators (docs/translating.md), and the ``--lang`` option the commands that
print share (build, export, studio, validate)."""
from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from deckpress.generator import exitcodes
from deckpress.generator.content.errors import ContentErrors, display_path

LANG_HELP = ("Print the edition in this language: the game folder's locales/CODE.po translates its texts (qps: pseudo-localised, "
             "every text longer and accented, to see which cards will not fit a translation). Default: the folder's own language.")
ALLOW_MISSING_HELP = "With --lang: print the source text of an entry the catalogue has not translated (and say how many) instead of failing."


def lang_options(command: Callable) -> Callable:
    """``--lang CODE`` and ``--allow-missing``, as build, export, studio and validate take them."""
    command = click.option("--allow-missing", is_flag=True, help=ALLOW_MISSING_HELP)(command)
    return click.option("--lang", "lang", default=None, metavar="CODE", help=LANG_HELP)(command)


def enter_language(content: Any, lang: str | None, allow_missing: bool, variant: Path | None = None) -> Any:
    """``content`` as its ``lang`` edition for the rest of the running command (its kit texts too,
    until the command ends: :func:`in_language` entered as a resource of click's context); a
    missing translation or a catalogue's errors printed, exit 1.  For commands whose body is long
    (export)."""
    from deckpress.generator.content.reporters import summarised

    if not lang:
        return content
    try:
        from deckpress.generator.kit.translation import in_language

        return click.get_current_context().with_resource(in_language(content, lang, allow_missing, lambda line: click.echo(line, err=True),
                                                                     variant))
    except ContentErrors as exc:
        for line in summarised(exc.errors):
            click.echo(line, err=True)
        click.echo(f"{content.game_id}: no {lang} edition ({len(exc.errors)} error{'s' * (len(exc.errors) != 1)}); nothing was written", err=True)
        sys.exit(exitcodes.CONTENT)


def log_in_source_names(game_log: Any, folder: Path | None, merged: Any = None) -> None:
    """Give ``game_log``'s events the names its rules engine knows: a log written at a table
    playing another edition (its header's ``language``, else any language the game folder has a
    catalogue for) names the cards as that edition prints them.  ``folder`` is the game folder
    (None: the shipped game's), ``merged`` the content a variant makes (then its own folder).
    A game with no catalogue is not even loaded.

    Raises:
        LogError: the log names a language the game has no catalogue for.
        ContentErrors: the game's content or a catalogue cannot be read.
    """
    from deckpress.generator.content import check_game
    from deckpress.generator.kit.translation import LOCALES, names, po_path
    from deckpress.generator.paths import CONTENT_DIR
    from deckpress.rules.core.errors import LogError

    root = Path(merged.root) if merged is not None else folder or CONTENT_DIR / game_log.game
    if not any((root / LOCALES).glob("*.po")):
        if game_log.language and game_log.language != "en":
            raise LogError(game_log.source, f"the log is in '{game_log.language}', but the game has no translations (no {LOCALES}/*.po)")
        return
    content = merged
    if content is None:
        content, errors = check_game(root)
        if errors:
            raise ContentErrors(errors)
    langs = None
    if game_log.language:
        try:
            have = po_path(content.root, game_log.language).is_file()
        except ValueError as exc:
            raise LogError(game_log.source, f"language: {exc}") from None
        langs = [game_log.language] if have else []
    table = names(content, langs)
    game_log.events = table.in_events(game_log.events)


def typed_names(game: str, lang: str) -> Any:
    """The :class:`~deckpress.generator.kit.translation.Names` of the ``lang`` edition of
    ``deckpress record``'s GAME (a game folder, a shipped id or a variant file), to read the names
    a table playing that edition types.  Exits 1 with the errors of a game or catalogue that
    cannot be read, 2 when the game has no ``lang`` catalogue."""
    from deckpress.generator.cli.content import is_variant
    from deckpress.generator.content import check_game, find_game
    from deckpress.generator.content.variant import merged_variant
    from deckpress.generator.kit.translation import (
        PSEUDO,
        languages,
        names,
        source_language,
    )

    if Path(game).is_file() and is_variant(Path(game)):
        _, content, errors = merged_variant(Path(game))
    else:
        content, errors = check_game(find_game(game))
    try:
        if errors or content is None:
            raise ContentErrors(errors)
        if lang not in languages(content) and lang != source_language(content):
            have = ", ".join([source_language(content), *languages(content)])
            raise click.UsageError(f"--lang {lang}: {content.game_id} has no {lang} translation (its languages: {have})"
                                   + (": the pseudo-language prints no names a table could say" if lang == PSEUDO else ""))
        return names(content, [lang])
    except ContentErrors as exc:
        _fail(exc)


@click.group()
def translate() -> None:
    """Translations of a game as gettext catalogues (PO files) for translators' tools (Poedit, Weblate)."""


def _content(game: str):
    from deckpress.generator.content import check_game, find_game
    from deckpress.generator.content.reporters import summarised

    try:
        folder = find_game(Path(game))
    except ContentErrors as exc:
        raise click.UsageError(str(exc.errors[0])) from None
    content, errors = check_game(folder)
    if errors:
        for line in summarised(errors):
            click.echo(line, err=True)
        click.echo(f"{display_path(folder)}: the content has errors; fix them first ('deckpress validate' lists them)", err=True)
        sys.exit(exitcodes.CONTENT)
    return content


def _variant(game: str, folder: Path | None) -> tuple[Any, Any] | None:
    """``(merged content, base content)`` when ``game`` is a variant file (its errors printed,
    exit 1), else None."""
    from deckpress.generator.cli.content import is_variant
    from deckpress.generator.content.reporters import summarised
    from deckpress.generator.content.variant import base_content, merged_variant

    if not (Path(game).is_file() and is_variant(Path(game))):
        return None
    variant, content, errors = merged_variant(Path(game), folder)
    if not errors and variant is not None:
        base, errors = base_content(variant.doc, folder)
    if errors:
        for line in summarised(errors):
            click.echo(line, err=True)
        sys.exit(exitcodes.CONTENT)
    return content, base


def _fail(exc: ContentErrors) -> None:
    for error in exc.errors:
        click.echo(str(error), err=True)
    sys.exit(exitcodes.CONTENT)


@translate.command()
@click.argument("game")
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Folder for GAME-ID.pot [default: the game folder's locales/].")
def extract(game: str, out: Path | None) -> None:
    """Write the template (POT) of every translatable text of GAME: each entry with its context
    (msgctxt: deck/card/field), its place (#: file:line) and what it is (#.)."""
    from deckpress.generator.kit.translation import (
        LOCALES,
        installed,
        template,
        write_catalogue,
    )
    from deckpress.generator.output import write_atomic

    content = _content(game)
    try:
        pot = template(content)
    except ContentErrors as exc:
        _fail(exc)
    # an installed shipped game's folder is never written into: the template goes to the current folder
    target = (out or (Path(".") if installed(content) else Path(content.root) / LOCALES)) / f"{content.game_id}.pot"
    write_atomic(target, write_catalogue(pot, ignore_obsolete=True))
    click.echo(f"wrote {display_path(target)} ({len(pot)} texts)")


@translate.command()
@click.argument("game")
@click.option("--lang", "lang", required=True, metavar="CODE", help="The language code of the catalogue (fr, de, hi, pt_BR).")
@click.option("--content", "base_folder", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="For a variant file: the game folder it extends [default: the shipped game it names].")
def update(game: str, lang: str, base_folder: Path | None = None) -> None:
    """Create or bring up to date GAME's locales/CODE.po: new texts added untranslated, texts whose
    source changed marked fuzzy (their old source kept as #| msgid), texts gone kept as obsolete
    (#~).  A catalogue already up to date is left byte for byte as it is.  GAME may be a variant
    file: its own catalogue, VARIANT.CODE.po beside it, holds the texts it adds or changes."""
    from deckpress.generator.kit.translation import (
        PSEUDO,
        installed,
        merged,
        po_path,
        read_catalogue,
        source_language,
        template,
        update_hint,
        variant_po,
        variant_texts,
        write_catalogue,
    )
    from deckpress.generator.output import write_atomic

    variant = _variant(game, base_folder)
    content = variant[1] if variant else _content(game)
    if not variant and installed(content):  # its folder is replaced by an upgrade: never written into
        raise click.UsageError(update_hint(content, lang))
    if lang in (PSEUDO, source_language(content)):
        raise click.UsageError(f"--lang {lang}: {'the pseudo-language is made, never a file' if lang == PSEUDO else 'the folder is written in it'}")
    try:
        path = variant_po(Path(game), lang) if variant else po_path(content.root, lang)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--lang") from None
    try:
        old = read_catalogue(path, display_path(path)) if path.is_file() else None
        catalogue, changed = merged(old, template(content, variant_texts(*variant) if variant else None), lang)
    except ContentErrors as exc:
        _fail(exc)
    if not changed:
        click.echo(f"{display_path(path)} is up to date ({len(catalogue)} texts)")
        return
    write_atomic(path, write_catalogue(catalogue))
    fuzzy = sum(1 for m in catalogue if m.id and m.fuzzy)
    untranslated = sum(1 for m in catalogue if m.id and not m.string)
    click.echo(f"wrote {display_path(path)}: {len(catalogue)} texts, {untranslated} untranslated, {fuzzy} fuzzy")
    _no_card_fields_note(content)


def _no_card_fields_note(content) -> None:
    """A note when game.yaml declares no card field translatable (``translate:``): the catalogue
    then holds the kit's and layout's words but none of the cards' own texts."""
    decks = [deck["id"] for deck in content["game"].get("decks", []) or []]
    if decks and not content["game"].get("translate"):
        click.echo(f"note: game.yaml declares no card field translatable, so the cards' own texts are not in the catalogue; "
                   f"add for example\n  translate:\n    {decks[0]}: [title, text]\n(the fields that hold words) and run this again",
                   err=True)

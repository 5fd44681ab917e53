"""``deckpress export``: a game's (or a fan variant's) cards in the forms print services and
online tables take: per-card PNG images, a one-card-per-page PDF, Tabletop Simulator decks.
The command parses its options into :class:`~deckpress.generator.export.options.ExportOptions`
and hands them to the format's function (:mod:`deckpress.generator.export.formats`)."""
from __future__ import annotations

import sys
from contextlib import nullcontext
from pathlib import Path

import click

from deckpress.generator import exitcodes
from deckpress.generator.cli.options import CMYK_HELP, cmyk_profile, name_list
from deckpress.generator.cli.progress import progress_bar
from deckpress.generator.cli.translate import enter_language, lang_options
from deckpress.generator.content.errors import ContentErrors
from deckpress.generator.export import SERVICES
from deckpress.generator.export.options import FORMATS, ExportOptions, ExportRefused


@click.command()
@click.argument("game")
@click.option("--to", "fmt", type=click.Choice(FORMATS), required=True,
              help="png: one image per card face and back; pdf: one card per page with trim and bleed boxes; tts: Tabletop Simulator "
                   "deck sheets and saved objects; hand: chosen faces fanned out in one PNG, for a game's page.")
@click.option("--service", type=click.Choice(sorted(SERVICES)), default=None,
              help="Fit cards to a print service's template: tgc (The Game Crafter), mpc (MakePlayingCards), dtc (DriveThruCards).  "
                   "A deck that no template fits keeps its own trim and bleed, and is named on stderr.")
@click.option("--dpi", type=click.IntRange(72, 1200), default=None,
              help="Resolution of the images [default: 300 for png, 150 for tts and hand].")
@click.option("--sets", default=None, callback=name_list, metavar="SET,...", help="Only these sets of the game.")
@click.option("--cards", default=None, callback=name_list, metavar="ID,...",
              help="For --to png and pdf: only these cards, every copy of each, in the files the whole export writes for them "
                   "(a PDF: <game>-one-up-reprint.pdf); for --to hand: the cards to show, left to right [default: the first card "
                   "of each deck in turn, five in all].  Not for --to tts: a Tabletop Simulator deck is the whole deck.")
@click.option("--content", type=click.Path(path_type=Path), default=None,
              help="For a variant: the game folder it extends [default: the shipped game named by 'extends'].")
@click.option("--cmyk", type=click.Path(path_type=Path), default=None, callback=cmyk_profile, metavar="PROFILE.icc",
              help=CMYK_HELP + " Only with --to pdf: PNG and TTS images are RGB.")
@click.option("--base-url", default=None, metavar="URL",
              help="For --to tts: the web address where the exported images will be hosted (https://...): each image's URL in "
                   "the saved objects is URL/<file name>, for a deck shared online [default: file:/// URLs of the files written, "
                   "for this machine].")
@lang_options
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Folder to write into [default: output/<game or variant>/<format>].")
def export(game: str, fmt: str, service: str | None, dpi: int | None, sets: tuple[str, ...] | None, cards: tuple[str, ...] | None,
           content: Path | None, cmyk, base_url: str | None, out: Path | None, lang: str | None = None, allow_missing: bool = False) -> None:
    """Export GAME's cards (a game folder, a shipped game's id, or a variant file: then the
    variant's cards) for print services and online play.  Every image is a rasterised page of
    the one-up PDF, drawn by the same code as the print-and-play sheets.  With --service, a deck
    that no template of the service fits is named on stderr: it keeps its own trim and bleed.
    Exit 0 written, 1 the content is not valid (every error listed), 2 bad use (an unknown card,
    a resolution too high for a TTS sheet), 4 a file could not be written."""
    from deckpress.generator.content.reporters import summarised
    from deckpress.generator.export.formats import EXPORTERS
    from deckpress.generator.export.pages import card_pages

    try:
        options = ExportOptions(fmt=fmt, service=service, dpi=dpi, sets=sets, cards=cards, cmyk=cmyk, base_url=base_url, out=out)
    except ExportRefused as exc:
        raise click.UsageError(str(exc)) from None
    loaded, errors, name = _load(Path(game), content)
    if errors:
        for line in summarised(errors, where_all="deckpress validate --format json lists them all"):
            click.echo(line, err=True)
        click.echo(f"{game}: not exported ({len(errors)} error{'s' * (len(errors) != 1)}); nothing was written", err=True)
        sys.exit(exitcodes.CONTENT)
    if lang:  # the edition in that language, written as NAME-LANG (a variant file brings its own catalogues)
        path = Path(game)
        loaded, name = enter_language(loaded, lang, allow_missing, path if path.is_file() else None), f"{name}-{lang}"
    try:
        pages = card_pages(loaded, name, options)
    except ExportRefused as exc:
        raise click.UsageError(str(exc)) from None
    except ContentErrors as exc:
        for line in summarised(exc.errors):
            click.echo(line, err=True)
        sys.exit(exitcodes.CONTENT)
    for line in pages.kept_own_size():
        click.echo(line, err=True)
    with progress_bar("text") if fmt in ("png", "tts") else nullcontext() as tell:  # the formats that rasterise every page
        try:
            exported = EXPORTERS[fmt](pages, options, tell)
        except ExportRefused as exc:
            raise click.UsageError(str(exc)) from None
    click.echo(exported.summary)


def _load(path: Path, folder: Path | None):
    """``(content, errors, name)`` of a game folder, shipped id or variant file."""
    from deckpress.generator.cli.content import is_variant
    from deckpress.generator.content import check_game, find_game
    from deckpress.generator.content.variant import merged_content

    if path.is_file() and is_variant(path):
        content, errors = merged_content(path, folder)
        return content, errors, path.stem
    try:
        game_folder = find_game(path)
    except ContentErrors as exc:
        raise click.UsageError(str(exc.errors[0])) from None
    content, errors = check_game(game_folder)
    return content, errors, content.game_id if content else path.name

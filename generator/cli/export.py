"""``deckpress export``: a game's (or a fan variant's) cards in the forms print services and
online tables take: per-card PNG images, a one-card-per-page PDF, Tabletop Simulator decks."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from deckpress.generator import exitcodes
from deckpress.generator.cli.options import CMYK_HELP, cmyk_profile, name_list
from deckpress.generator.cli.progress import progress_bar
from deckpress.generator.cli.translate import enter_language, lang_options
from deckpress.generator.content.errors import ContentErrors
from deckpress.generator.export import SERVICES, kept_own_size, service_template

FORMATS = ("png", "pdf", "tts", "hand")


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
    from deckpress.generator.export.images import rasterise, write_images
    from deckpress.generator.export.tts import SheetTooLarge, check_base_url, write_tts
    from deckpress.generator.kit.adapters import kit_module
    from deckpress.generator.output import write_atomic
    from deckpress.generator.content.reporters import summarised
    from deckpress.generator.render.kit import drawn_as, only_sets
    from deckpress.generator.render.oneup import one_up_pdf

    if cmyk and fmt != "pdf":
        raise click.UsageError(f"--cmyk is for --to pdf: {fmt.upper()} images are RGB")
    if base_url is not None:
        if fmt != "tts":
            raise click.UsageError("--base-url is for --to tts: the address of a Tabletop Simulator deck's images")
        try:
            base_url = check_base_url(base_url)
        except ValueError as exc:
            raise click.UsageError(f"--base-url: {exc}") from None
    if cards and fmt == "tts":
        raise click.UsageError("--cards chooses cards for --to png, pdf and hand: a Tabletop Simulator deck is the whole deck")
    if service and fmt == "hand":
        raise click.UsageError("--service fits cards to a print service's template: it is for --to png, pdf and tts, not hand")
    path = Path(game)
    loaded, errors, name = _load(path, content)
    if errors:
        for line in summarised(errors, where_all="deckpress validate --format json lists them all"):
            click.echo(line, err=True)
        click.echo(f"{game}: not exported ({len(errors)} error{'s' * (len(errors) != 1)}); nothing was written", err=True)
        sys.exit(exitcodes.CONTENT)
    if lang:  # the edition in that language, written as NAME-LANG
        loaded, name = enter_language(loaded, lang, allow_missing, path if path.is_file() else None), f"{name}-{lang}"
    decks = kit_module(loaded.game_id).decks(loaded)
    if sets:
        try:
            decks, _ = only_sets(loaded.game_id, decks, [], sets)
        except ContentErrors as exc:
            raise click.UsageError(exc.errors[0].message) from None
    if cards and fmt in ("png", "pdf"):
        decks = _only(decks, cards)
    layout = loaded.documents["layout"]
    if fmt == "hand":
        from deckpress.generator.render.layout import compile_layout

        kinds = compile_layout(layout).cards
        decks = _hand(decks, cards, lambda deck: kinds[deck.kind].trim_mm)
    chosen = SERVICES[service] if service else None
    try:
        pdf, pages = one_up_pdf(layout, decks, (lambda trim: service_template(chosen, trim)) if chosen else None, backs=fmt != "hand",
                                title=f"{loaded['game']['title']}: one card per page", cmyk=cmyk, **drawn_as(loaded))
    except ContentErrors as exc:
        for line in summarised(exc.errors):
            click.echo(line, err=True)
        sys.exit(exitcodes.CONTENT)
    if chosen and fmt in ("png", "pdf"):
        for line in kept_own_size(chosen, pages):
            click.echo(line, err=True)
    out = out or Path("output") / name / fmt
    if fmt == "pdf":
        target = out / f"{name}-one-up{'-reprint' if cards else ''}.pdf"  # a few cards never replace the whole deck's PDF
        write_atomic(target, pdf)
        click.echo(f"wrote {target} ({len(pages)} page{'s' * (len(pages) != 1)}: each card's face, then its back)")
        return
    resolution = dpi or (chosen.dpi if chosen else 300 if fmt == "png" else 150)
    if fmt == "hand":
        from deckpress.generator.export.hand import hand_image, png_bytes

        faces = list(rasterise(pdf, pages, resolution))
        target = out / f"{name}-hand.png"
        write_atomic(target, png_bytes(hand_image(faces, resolution, frozenset(k for k, c in kinds.items() if c.shape == "circle")), resolution))
        click.echo(f"wrote {target} ({len(faces)} card{'s' * (len(faces) != 1)}: {', '.join(page.card_id for page, _ in faces)}; {resolution} dpi)")
        return
    with progress_bar("text") as tell:
        each = (lambda done: tell(f"rasterising at {resolution} dpi", done, len(pages))) if tell else None
        if fmt == "png":
            written = write_images(pdf, pages, out, resolution, each)
            click.echo(f"wrote {len(written)} image{'s' * (len(written) != 1)} to {out} ({resolution} dpi)")
        else:
            try:
                written = write_tts(pdf, pages, out, name, resolution, each, [deck.name for deck in decks], base_url)
            except SheetTooLarge as exc:
                raise click.UsageError(str(exc)) from None
            where = f"; upload the .png files to {base_url}" if base_url else ""
            click.echo(f"wrote {len(written)} Tabletop Simulator deck{'s' * (len(written) != 1)} to {out}: "
                       f"copy the .json files to TTS's Saves/Saved Objects folder{where}")


def _only(decks: list, cards: tuple[str, ...]) -> list:
    """The decks cut to the cards ``cards`` names (``--cards`` of png and pdf), every copy of each
    as the whole export has them, in the decks' order, so each PNG's name (copy numbers included)
    is the one the whole export gives it and a re-export of a fixed card replaces its files;
    decks left without cards are dropped.

    Raises:
        click.UsageError: an id that no card has (every such id, with the nearest ids).
    """
    from dataclasses import replace

    from deckpress.generator.render.kit import unknown_cards

    unknown = unknown_cards(decks, cards)
    if unknown:
        raise click.UsageError("; ".join([unknown[0], *(message.removeprefix("--cards: ") for message in unknown[1:])]))
    wanted = set(cards)
    cut = [replace(deck, cards=[fields for fields in deck.cards if fields["id"] in wanted]) for deck in decks]
    return [deck for deck in cut if deck.cards]


def _hand(decks: list, cards: tuple[str, ...] | None, size_of) -> list:
    """The decks cut to the cards a hand shows, one copy each: ``cards`` (ids, in that order), or
    the first card of each deck of the first deck's size (``size_of(deck)``) in turn, five in all.

    Raises:
        click.UsageError: an id that no card has (with the nearest ids), or more cards than a hand shows.
    """
    from dataclasses import replace

    from deckpress.generator.export.hand import MAX_CARDS
    from deckpress.generator.render.kit import unknown_cards

    first = {}  # id -> (deck, fields): each card's first copy
    for deck in decks:
        for fields in deck.cards:
            first.setdefault(fields["id"], (deck, fields))
    if cards:
        wanted = list(dict.fromkeys(cards))
        unknown = unknown_cards(decks, tuple(wanted))
        if unknown:
            raise click.UsageError(unknown[0])
        if len(wanted) > MAX_CARDS:
            raise click.UsageError(f"--cards: a hand shows at most {MAX_CARDS} cards, not {len(wanted)}")
    elif not first:
        raise click.UsageError("--to hand: there are no cards to show")
    else:
        queues = [list(dict.fromkeys(f["id"] for f in deck.cards)) for deck in decks if size_of(deck) == size_of(decks[0])]
        wanted = []
        while len(wanted) < 5 and any(queues):
            for queue in queues:
                if queue and len(wanted) < 5:
                    wanted.append(queue.pop(0))
    # one single-card deck per card, in the hand's order
    return [replace(first[card_id][0], cards=[first[card_id][1]]) for card_id in wanted]


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

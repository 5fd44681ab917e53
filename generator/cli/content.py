"""``deckpress validate`` and ``deckpress build``: content checks and print-and-play kits.
Each parses its options into a value and hands it to a function a program can call:
:func:`deckpress.generator.check.validation.validate` with
:class:`~deckpress.generator.check.validation.ValidateOptions`, and
:func:`deckpress.generator.render.build.build_game` with
:class:`~deckpress.generator.render.kit.PrintOptions`.

``validate`` promises what ``build`` keeps: after the content checks it lays out every card of the
kit in memory (nothing written), so a text that does not fit, a field a layout names that no card
has, an image the gate refuses or a card larger than the paper fails ``validate`` too.
"""
from __future__ import annotations

import math
import os
import re
import sys
from pathlib import Path

import click

from deckpress.generator.cli.options import (
    CMYK_HELP,
    FiniteRange,
    cmyk_profile,
    name_list,
)
from deckpress.generator.cli.progress import progress_bar
from deckpress.generator.cli.translate import ALLOW_MISSING_HELP, lang_options
from deckpress.generator.content import GAME_FILE, find_game, game_id_of, shipped_games
from deckpress.generator.content.errors import ContentErrors, display_path
from deckpress.generator.content.reporters import REPORTERS
from deckpress.generator.kit.imposition import DUPLEX_EDGES, ImpositionError, paper_size
from deckpress.generator.paths import CONTENT_DIR


def _paper(ctx, param, value: str) -> str:
    try:
        paper_size(value)
    except ImpositionError as exc:
        raise click.BadParameter(str(exc)) from None
    return value.strip().lower()


PAPER_HELP = "Sheet size: a4, letter, a3, or WxH with a unit (300x450mm, 8.5x14in)."


def _offset(ctx, param, value: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in value.split(","))
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError
    except ValueError:
        raise click.BadParameter("expected X,Y in millimetres, for example 0.5,-1") from None
    return x, y


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(sorted(REPORTERS)), default="text", show_default=True, help="How to report.")
@click.option("--skip-other", is_flag=True, help="Skip files that are neither in a game folder nor variants, and exit 0 when none is left (for pre-commit hooks: a commit that touches no game file passes).")
@click.option("--paper", default="a4", show_default=True, callback=_paper, help="The sheet size the cards must fit, as for build: " + PAPER_HELP)
@click.option("--content", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="For variant files: the game folder they extend, such as an edition kept in the repository [default: the shipped "
                   "game each names in 'extends'], as check --content.")
@click.option("--lang", "lang", default=None, metavar="CODE|all",
              help="Also check the edition in this language (its locales/CODE.po: every text translated, and every card laid out with "
                   "the translated texts); 'all': every language the game has a catalogue for (qps: the pseudo-language, to see which cards are at risk).")
@click.option("--allow-missing", is_flag=True, help=ALLOW_MISSING_HELP)
def validate(paths: tuple[Path, ...], fmt: str, skip_other: bool, paper: str, content: Path | None, lang: str | None = None,
             allow_missing: bool = False) -> None:
    """Check content: YAML and CSV safety, schemas, semantic checks, and that every card lays out.

    PATHS are game folders, files in them, shipped game ids, or variant files (default: the
    current folder if it holds game.yaml, else every shipped game).  Exits 0 when clean, 1 with
    every error listed as file:line:column: message, 2 when there was nothing to check (0 with --skip-other).
    """
    from deckpress.generator.check.validation import ValidateOptions
    from deckpress.generator.check.validation import validate as validate_targets

    games, variants, other = targets(paths, skip_other)
    if skip_other:
        for path in other:
            click.echo(f"skipped {display_path(path)}: not in a game folder and not a variant", err=True)
    result = validate_targets(games, variants, [] if skip_other else other,
                              ValidateOptions(paper=paper, content=content, lang=lang, allow_missing=allow_missing))
    if not result.checked and not result.errors:
        click.echo("nothing to check: no game folder or variant among the files given", err=True)
        sys.exit(0 if skip_other else 2)
    REPORTERS[fmt](result, sys.stdout)
    sys.exit(result.exit_code)


def targets(paths: tuple[Path, ...], skip_other: bool = False) -> tuple[list[Path], list[Path], list[Path]]:
    """Sort command arguments into game folders, variant files and other files.

    A folder is a game folder; a file belongs to the nearest folder above it holding
    ``game.yaml``, else it is a variant if it is YAML with a top-level ``extends``; a name that is
    no path is a shipped game's id.  No arguments: the current folder if it holds ``game.yaml``,
    else every shipped game.  A path that is there but holds nothing to read (a pipe, a device, a
    link to nothing) is an other file with ``skip_other``, else refused.

    Raises:
        click.UsageError: a name that is neither a path nor a shipped game; a path with nothing to
            read (without ``skip_other``).
    """
    if not paths:
        here = Path.cwd()
        return ([Path(".")] if (here / GAME_FILE).is_file() else [CONTENT_DIR / g for g in shipped_games()]), [], []
    games: list[Path] = []
    variants: list[Path] = []
    other: list[Path] = []
    for p in paths:
        if os.path.lexists(p) and not p.is_dir() and not p.is_file():  # there, but nothing to read
            if skip_other:
                other.append(p)
                continue
            what = "a link to nothing (or a link that leads back to itself)" if p.is_symlink() else "not a regular file (a device, a pipe or a socket)"
            raise click.UsageError(f"{display_path(p)}: {what}: give a game folder, a file in one, or a variant file")
        if p.is_file() and not _in_game_folder(p):
            (variants if is_variant(p) else other).append(p)
            continue
        try:
            folder = find_game(p)
        except ContentErrors as exc:
            raise click.UsageError(str(exc.errors[0])) from None
        if all(folder.resolve() != g.resolve() for g in games):
            games.append(folder)
    return games, variants, other


def _in_game_folder(path: Path) -> bool:
    return any((folder / GAME_FILE).is_file() for folder in path.resolve().parents)


def is_variant(path: Path) -> bool:
    """Whether ``path`` is a YAML file whose top level has ``extends`` (read within the variant
    limits).  A file those limits refuse (an anchor, a tag, its size) counts as a variant when a
    line of its first 64 KiB starts with ``extends:``, so that a broken variant's errors are shown
    while a CI workflow or a compose file (anchors are common there) is not taken for one; a path
    that is not a regular file counts as one too, so that the reader says what it is."""
    from deckpress.generator.content.variant import VARIANT_MAX_BYTES
    from deckpress.generator.content.yamlsafe import load_yaml

    if path.suffix.lower() not in (".yaml", ".yml"):
        return False
    doc, errors = load_yaml(path, max_bytes=VARIANT_MAX_BYTES, max_depth=16)
    if doc is not None and not errors:  # load_yaml: a document exactly when there are no errors
        return isinstance(doc.data, dict) and "extends" in doc.data
    if not path.is_file():
        return True
    try:
        with path.open("rb") as f:
            head = f.read(65536).removeprefix(b"\xef\xbb\xbf")
    except OSError:
        return True
    return re.search(rb"(?m)^[\"']?extends[\"']?[ \t]*:", head) is not None


def _card_size(ctx, param, values: tuple[str, ...]) -> tuple[tuple[str, float, float], ...]:
    """``--card-size poker=63.5x88.9`` as ``(("poker", 63.5, 88.9),)``."""
    sizes = []
    for value in values:
        name, _, size = value.partition("=")
        w, _, h = size.lower().removesuffix("mm").partition("x")
        try:
            width, height = float(w), float(h)
        except ValueError:
            raise click.BadParameter(f"'{value}': expected NAME=WxH in mm, for example poker=63.5x88.9") from None
        if not name or not (10 <= width <= 400 and 10 <= height <= 400):
            raise click.BadParameter(f"'{value}': expected NAME=WxH with each side 10 to 400 mm, for example poker=63.5x88.9")
        sizes.append((name.strip(), width, height))
    return tuple(sizes)


@click.command()
@click.argument("games", nargs=-1)
@click.option("--paper", default="a4", show_default=True, callback=_paper, help=PAPER_HELP)
@click.option("--gap", "gap_mm", type=FiniteRange(0, 20), default=0.0, show_default=True,
              help="Space between cards, mm; each card then has its own bleed (up to half the gap): a guillotine's tolerance.")
@click.option("--margin", "printer_margin_mm", type=FiniteRange(0, 25), default=0.0, show_default=True,
              help="Your printer's unprintable edge, mm: crop marks stop there and keep at least 3 mm inside it.")
@click.option("--duplex", type=click.Choice(DUPLEX_EDGES), default="long", show_default=True,
              help="Edge the printer flips on for double-sided printing (long, short). With no duplex printer: 'fold' prints each "
                   "face beside its back, to fold over; 'none' prints faces only for decks whose backs are all alike, and fold-over "
                   "sheets for decks whose backs differ, so no card loses its back.")
@click.option("--back-offset", default="0,0", callback=_offset, show_default=True, metavar="X,Y",
              help="The shift your printer gives the back pages, as deckpress calibrate reads it: X mm right and Y mm down, as seen "
                   "from the face side; the backs are printed moved back by as much.")
@click.option("--no-crop-marks", is_flag=True, help="Leave out the crop marks.")
@click.option("--ink-friendly", is_flag=True, help="Light backgrounds, greyscale-safe colours (where the game's layout defines them).")
@click.option("--sets", default=None, callback=name_list, metavar="SET,...", help="Only these sets of the game (for example base,identities).")
@click.option("--tuck-boxes", is_flag=True,
              help="Add a tuck box for each deck, sized to its cards, on a sheet of its own: cut, fold, glue.")
@click.option("--guides", is_flag=True,
              help="A proof: draw each card's cut line (dashed red) and safe area (dashed blue) over it, to check the layout on paper.")
@click.option("--cards", default=None, callback=name_list, metavar="ID,...",
              help="Reprint only these cards of one game (for example spark,spark,tide: one copy each time an id is named), "
                   "without the cover and boards.")
@click.option("--card-size", "card_size", multiple=True, callback=_card_size, metavar="NAME=WxH",
              help="Print the game's card size NAME at W x H mm instead (for example poker=63.5x88.9, US poker as The Game Crafter "
                   "and DriveThruCards print it); the cards' elements are scaled to it. Repeat for several sizes.")
@click.option("--cmyk", type=click.Path(path_type=Path), default=None, callback=cmyk_profile, metavar="PROFILE.icc", help=CMYK_HELP)
@click.option("--sheet", "sheet_file", type=click.Path(path_type=Path), default=None, metavar="TEMPLATE.yaml",
              help="Print onto pre-cut or perforated card stock: a sheet template (schemas/sheet.schema.json) names its paper, "
                   "card size and every card's place; decks of that size print into its slots, the others on plain paper.")
@click.option("--out", type=click.Path(path_type=Path), default=Path("output"), show_default=True, help="Folder for the PDFs.")
@lang_options
def build(games: tuple[str, ...], paper: str, gap_mm: float, printer_margin_mm: float, duplex: str, back_offset: tuple[float, float],
          no_crop_marks: bool, ink_friendly: bool, sets: tuple[str, ...] | None, card_size: tuple, cmyk, sheet_file: Path | None, tuck_boxes: bool,
          guides: bool, cards: tuple[str, ...] | None, out: Path, lang: str | None = None, allow_missing: bool = False) -> None:
    """Build print-and-play PDFs: GAMES are game folders or shipped game ids (default: the
    current folder if it holds game.yaml, else every shipped game).

    Each kit is written to OUT/<game id>.pdf atomically: a failed build leaves the previous PDF.
    With --cards, the cards go to OUT/<game id>-reprint.pdf; with --lang CODE, to OUT/<game id>-CODE.pdf.
    """
    from deckpress.generator.render.kit import PrintOptions

    sheet = _sheet_template(sheet_file) if sheet_file else None
    if sheet and gap_mm:
        raise click.UsageError("--gap spaces deckpress's own grid of cards; a sheet template places its cards itself: leave out one of them")
    options = PrintOptions(paper=paper, duplex=duplex, gap_mm=gap_mm, printer_margin_mm=printer_margin_mm, back_offset_mm=back_offset,
                           crop_marks=not no_crop_marks,
                           ink_friendly=ink_friendly, sets=sets,
                           card_sizes=card_size, cmyk=cmyk, sheet=sheet,
                           cards=cards or (), guides=guides,
                           tuck_boxes=tuck_boxes)
    folders, variants, other = targets(tuple(Path(g) for g in games))
    for path in variants + other:
        raise click.UsageError(f"{path}: not a game folder (build a variant's changed cards with 'deckpress check')")
    if cards and len(folders) != 1:
        raise click.UsageError("--cards names cards of one game: build one game with it")
    if cards and tuck_boxes:
        raise click.UsageError("--tuck-boxes sizes a box for each whole deck: leave it out of a reprint (--cards)")
    failed = False
    with progress_bar("text") as tell:
        for done, folder in enumerate(folders):
            if tell:
                tell(f"building {game_id_of(folder) or display_path(folder)}", done, len(folders))
            failed = _build_one(folder, options, out, lang, allow_missing) or failed
    sys.exit(1 if failed else 0)


def _sheet_template(path: Path):
    """The sheet template in ``path``; its errors printed, every one at its line, and exit 1."""
    from deckpress.generator import exitcodes
    from deckpress.generator.content.reporters import summarised
    from deckpress.generator.kit.sheets import load_sheet_template

    try:
        return load_sheet_template(path)
    except ContentErrors as exc:
        for line in summarised(exc.errors):
            click.echo(line, err=True)
        click.echo(f"{display_path(path)}: not a sheet template ({len(exc.errors)} error{'s' * (len(exc.errors) != 1)}); nothing was built",
                   err=True)
        sys.exit(exitcodes.CONTENT)


def _build_one(folder: Path, options, out: Path, lang: str | None = None, allow_missing: bool = False) -> bool:
    """Build one game folder's kit (its ``lang`` edition with ``lang``) into ``out``
    (:func:`deckpress.generator.render.build.build_game`) and say what happened; True when it failed
    (errors printed)."""
    from deckpress.generator.content.reporters import summarised
    from deckpress.generator.render.build import build_game, kit_path

    built = build_game(folder, options, out, lang, allow_missing, lambda line: click.echo(line, err=True))
    if not built.ok:
        for line in summarised(built.errors, where_all="deckpress validate --format json lists them all"):
            click.echo(line, err=True)
        previous = kit_path(out, built.name, options, lang) if built.name else None
        kept = f"{previous} left as it was" if previous is not None and previous.exists() else "nothing was written"
        click.echo(f"{built.name or display_path(folder)}: not built ({len(built.errors)} error{'s' * (len(built.errors) != 1)}); {kept}", err=True)
        return True
    click.echo(f"wrote {built.target} ({built.size / 1024:.0f} KiB)")
    return False

"""``deckpress validate`` and ``deckpress build``: content checks and print-and-play kits."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from deckpress.generator.content import check_game, game_dir
from deckpress.generator.errors import ContentError, ContentErrors, display_path
from deckpress.generator.games import known_games
from deckpress.generator.imposition import DUPLEX_EDGES, PAPERS, ImpositionError
from deckpress.generator.paths import CONTENT_DIR
from deckpress.generator.reporters import REPORTERS, ValidationResult


def _offset(ctx, param, value: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in value.split(","))
    except ValueError:
        raise click.BadParameter("expected X,Y in millimetres, for example 0.5,-1") from None
    return x, y


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(sorted(REPORTERS)), default="text", show_default=True, help="How to report.")
def validate(paths: tuple[Path, ...], fmt: str) -> None:
    """Check content: YAML safety, schemas and semantic checks.

    PATHS are game folders or files in them (default: every shipped game).  Exits 0 when clean,
    1 with every error listed as file:line:column: message.
    """
    result = ValidationResult()
    for folder in game_folders(paths):
        result.checked.append(display_path(folder))
        content, errors = check_game(folder)
        result.errors.extend(errors if content is None else engine_errors(content))
    REPORTERS[fmt](result, sys.stdout)
    sys.exit(result.exit_code)


def engine_errors(content) -> list[ContentError]:
    """What the game's rules engine (if it has one) cannot play in valid content, as located
    errors: a rule kind it does not implement is a validation error, never silently ignored
    (:meth:`deckpress.rules.core.game.Game.content_errors`)."""
    from deckpress.rules.core.registry import game_class, known_games as games_with_rules

    if content.game_id not in games_with_rules():
        return []
    return game_class(content.game_id).content_errors(content)


def game_folders(paths: tuple[Path, ...]) -> list[Path]:
    """Game folders for command arguments: folders, files in them, or game ids (default: all)."""
    if not paths:
        return [CONTENT_DIR / g for g in known_games() if (CONTENT_DIR / g).is_dir()]
    folders: list[Path] = []
    for p in paths:
        folder = p.parent if p.is_file() else game_dir(p)
        if folder not in folders:
            folders.append(folder)
    return folders


@click.command()
@click.argument("games", nargs=-1)
@click.option("--paper", type=click.Choice(sorted(PAPERS)), default="a4", show_default=True, help="Sheet size.")
@click.option("--duplex", type=click.Choice(DUPLEX_EDGES), default="long", show_default=True,
              help="Edge the printer flips on for double-sided printing; 'none' leaves out the backs.")
@click.option("--back-offset", default="0,0", callback=_offset, show_default=True, metavar="X,Y",
              help="Shift the back sheets X mm right and Y mm down, for printers that misalign.")
@click.option("--no-crop-marks", is_flag=True, help="Leave out the crop marks.")
@click.option("--ink-friendly", is_flag=True, help="Light backgrounds, greyscale-safe colours (where the game's layout defines them).")
@click.option("--sets", default=None, metavar="SET,...", help="Only these sets of the game (for example base,identities).")
@click.option("--out", type=click.Path(path_type=Path), default=Path("output"), show_default=True, help="Folder for the PDFs.")
def build(games: tuple[str, ...], paper: str, duplex: str, back_offset: tuple[float, float], no_crop_marks: bool,
          ink_friendly: bool, sets: str | None, out: Path) -> None:
    """Build print-and-play PDFs: GAMES are game ids or folders (default: every shipped game).

    Each kit is written to OUT/<game>.pdf atomically: a failed build leaves the previous PDF.
    """
    from deckpress.generator.output import write_atomic
    from deckpress.generator.render.kit import PrintOptions, build_kit

    options = PrintOptions(paper=paper, duplex=duplex, back_offset_mm=back_offset, crop_marks=not no_crop_marks,
                           ink_friendly=ink_friendly, sets=tuple(s.strip() for s in sets.split(",")) if sets else None)
    failed = False
    for folder in game_folders(tuple(Path(g) for g in games)):
        content, errors = check_game(folder)
        try:
            if errors:
                raise ContentErrors(errors)
            pdf = build_kit(content, options)
        except ContentErrors as exc:
            _print_errors(exc.errors)
            click.echo(f"{folder.name}: not built ({len(exc.errors)} error{'s' * (len(exc.errors) != 1)}); {out / (folder.name + '.pdf')} left as it was", err=True)
            failed = True
            continue
        except ImpositionError as exc:
            click.echo(f"{folder.name}: not built: {exc}", err=True)
            failed = True
            continue
        target = out / f"{folder.name}.pdf"
        write_atomic(target, pdf)
        click.echo(f"wrote {target} ({len(pdf) / 1024:.0f} KiB)")
    sys.exit(1 if failed else 0)


def _print_errors(errors: list[ContentError]) -> None:
    for err in errors:
        click.echo(str(err), err=True)

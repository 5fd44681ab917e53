"""One function per form ``deckpress export`` writes, each from the one-up pages of
:func:`.pages.card_pages` into :meth:`.options.ExportOptions.folder`, returning what it wrote:
:func:`export_pdf` (one card a page), :func:`export_png` (an image per card face and back),
:func:`export_tts` (Tabletop Simulator decks), :func:`export_hand` (chosen faces fanned out).
:data:`EXPORTERS` maps each ``--to`` format to its function.  Tests call these without the CLI."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from deckpress.generator.export.images import rasterise, write_images
from deckpress.generator.export.options import ExportOptions, ExportRefused
from deckpress.generator.export.pages import CardPages
from deckpress.generator.output import write_atomic

#: ``progress(step, done, total)``: a step of the export and how far it is, for a progress bar.
Progress = Callable[[str, int | None, int | None], None]


@dataclass(frozen=True)
class Exported:
    """What an export wrote: the files (a PDF, the PNGs, each TTS deck's saved object, the hand's
    PNG) and one line for the person who asked, saying what they are and where."""

    paths: list[Path]
    summary: str


def export_pdf(cards: CardPages, options: ExportOptions, progress: Progress | None = None) -> Exported:
    """The one-up PDF as ``<folder>/<name>-one-up.pdf``, or ``<name>-one-up-reprint.pdf`` for
    ``--cards`` (a few cards never replace the whole deck's PDF).

    Raises:
        OutputError: the file cannot be written.
    """
    target = options.folder(cards.name) / f"{cards.name}-one-up{'-reprint' if options.cards else ''}.pdf"
    write_atomic(target, cards.pdf)
    pages = len(cards.pages)
    return Exported([target], f"wrote {target} ({pages} page{'s' * (pages != 1)}: each card's face, then its back)")


def export_png(cards: CardPages, options: ExportOptions, progress: Progress | None = None) -> Exported:
    """Every page as a PNG at :meth:`~.options.ExportOptions.resolution`
    (:func:`.images.write_images`).

    Raises:
        OutputError: a file cannot be written.
    """
    out, resolution = options.folder(cards.name), options.resolution()
    written = write_images(cards.pdf, cards.pages, out, resolution, _each_page(cards, resolution, progress))
    return Exported(written, f"wrote {len(written)} image{'s' * (len(written) != 1)} to {out} ({resolution} dpi)")


def export_tts(cards: CardPages, options: ExportOptions, progress: Progress | None = None) -> Exported:
    """Each deck as Tabletop Simulator sheets and a saved object (:func:`.tts.write_tts`), its
    images at ``options.base_url`` when given.

    Raises:
        ExportRefused: the resolution is too high for a sheet or for memory (the message gives one that fits).
        OutputError: a file cannot be written.
    """
    from deckpress.generator.export.tts import SheetTooLarge, write_tts

    out, resolution = options.folder(cards.name), options.resolution()
    try:
        written = write_tts(cards.pdf, cards.pages, out, cards.name, resolution, _each_page(cards, resolution, progress),
                            [deck.name for deck in cards.decks], options.base_url)
    except SheetTooLarge as exc:
        raise ExportRefused(str(exc)) from None
    where = f"; upload the .png files to {options.base_url}" if options.base_url else ""
    return Exported(written, f"wrote {len(written)} Tabletop Simulator deck{'s' * (len(written) != 1)} to {out}: "
                             f"copy the .json files to TTS's Saves/Saved Objects folder{where}")


def export_hand(cards: CardPages, options: ExportOptions, progress: Progress | None = None) -> Exported:
    """The hand's faces fanned out in one PNG, ``<folder>/<name>-hand.png`` (:mod:`.hand`).

    Raises:
        OutputError: the file cannot be written.
    """
    from deckpress.generator.export.hand import hand_image, png_bytes

    resolution = options.resolution()
    faces = list(rasterise(cards.pdf, cards.pages, resolution))
    target = options.folder(cards.name) / f"{cards.name}-hand.png"
    write_atomic(target, png_bytes(hand_image(faces, resolution, cards.round_kinds), resolution))
    shown = ", ".join(page.card_id for page, _ in faces)
    return Exported([target], f"wrote {target} ({len(faces)} card{'s' * (len(faces) != 1)}: {shown}; {resolution} dpi)")


#: The function of each ``--to`` format.
EXPORTERS: dict[str, Callable[[CardPages, ExportOptions, Progress | None], Exported]] = {
    "png": export_png, "pdf": export_pdf, "tts": export_tts, "hand": export_hand}


def _each_page(cards: CardPages, resolution: int, progress: Progress | None) -> Callable[[int], None] | None:
    """``each(done)`` for the rasteriser: the progress of its pages."""
    if progress is None:
        return None
    return lambda done: progress(f"rasterising at {resolution} dpi", done, len(cards.pages))

"""Per-card PNG images for print services: each page of the one-up PDF rasterised with
pypdfium2 (PDFium, the renderer of Chromium), so an image is exactly what the PDF draws."""
from __future__ import annotations

import io
import os
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from deckpress.generator.export import MM_PER_INCH
from deckpress.generator.output import write_atomic
from deckpress.generator.render.oneup import Page

#: zlib level of the PNGs: 1 writes several times faster than the default 6 for files about a
#: third larger (flat card art compresses well either way); benchmarks/export.py measures it.
PNG_COMPRESSION = 1
#: Highest resolution deckpress rasterises at (a 63 x 88 mm card at 1,200 dpi is 3,000 x 4,200 px).
MAX_DPI = 1200


def file_names(pages: list[Page]) -> list[str]:
    """The file of each page, in order: ``<kind>/<card id>[-<copy>]-<side>.png``, the folder the
    card's kind (``cards.<kind>`` of layout.yaml: a shipped game's ``state``, ``chip``; a game made
    from data alone, its deck's ``layout``), so a kind's cards share one folder whichever deck they
    are in.  One face and one back for every card printed, so each file pairs with its other side
    as print services take them (identical copies give identical files).  The copy number only
    where a card id has several copies in its kind, numbered in page order: two decks that share
    a layout and a card id (ids are unique within a deck, not a game) give ``-1`` and ``-2``, never
    one file written over the other."""
    faces = Counter((page.kind, page.card_id) for page in pages if page.side == "face")
    seen: Counter[tuple[str, str, str]] = Counter()
    names = []
    for page in pages:
        seen[(page.kind, page.card_id, page.side)] += 1
        copy = f"-{seen[(page.kind, page.card_id, page.side)]}" if faces[(page.kind, page.card_id)] > 1 else ""
        names.append(f"{page.kind}/{page.card_id}{copy}-{page.side}.png")
    return names


def rasterise(pdf: bytes, pages: list[Page], dpi: int, each: Callable[[int], None] | None = None):
    """Yield ``(page, PIL image)`` for every page of ``pdf`` at ``dpi``: ``round(size_mm / 25.4 *
    dpi)`` pixels a side.  ``each(done)`` is told after every page (for a progress bar)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        for index, page in enumerate(pages):
            w_px, h_px = (round(v / MM_PER_INCH * dpi) for v in page.size_mm)
            pdf_page = document[index]
            width_pt = pdf_page.get_width()
            bitmap = pdf_page.render(scale=w_px / width_pt)
            image = bitmap.to_pil().convert("RGB")
            if image.size != (w_px, h_px):  # PDFium rounds up a fraction of a pixel
                image = image.crop((0, 0, w_px, h_px)) if image.width >= w_px and image.height >= h_px else image.resize((w_px, h_px))
            yield page, image
            if each:
                each(index + 1)
    finally:
        document.close()


def write_images(pdf: bytes, pages: list[Page], out: Path, dpi: int, each: Callable[[int], None] | None = None) -> list[Path]:
    """Write every page of a one-up PDF as ``out/<kind>/<card id>[-<copy>]-<side>.png``
    (:func:`file_names`) at ``dpi`` (the dpi is recorded in the PNG), each file atomically;
    returns the paths written, in page order.

    Pages are rasterised one after another (PDFium is not thread-safe) while threads encode and
    write the PNGs (zlib releases the GIL): encoding costs more than rasterising, so this is what
    keeps the export near the rasteriser's own speed on several cores.  The files are the same
    whatever the number of threads.

    Raises:
        OutputError: a file cannot be written.
    """
    names = file_names(pages)
    written: list[Path] = []
    with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        pending: deque[Future] = deque()
        for name, (_, image) in zip(names, rasterise(pdf, pages, dpi, each), strict=True):
            pending.append(pool.submit(_save, image, out / name, dpi))
            while len(pending) > 8:  # a few images in flight, not the whole deck in memory
                written.append(pending.popleft().result())
        written += [future.result() for future in pending]
    return written


def _save(image, path: Path, dpi: int) -> Path:
    buf = io.BytesIO()
    image.save(buf, format="PNG", dpi=(dpi, dpi), compress_level=PNG_COMPRESSION)
    write_atomic(path, buf.getvalue())
    return path

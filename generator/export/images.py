"""Per-card PNG images for print services: each page of the one-up PDF rasterised with
pypdfium2 (PDFium, the renderer of Chromium), so an image is exactly what the PDF draws."""
from __future__ import annotations

import io
import os
from collections import deque
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


def file_name(page: Page, copies: int) -> str:
    """``<deck kind>/<card id>[-<copy>]-<side>.png``: the copy number only where a card has
    several copies."""
    copy = f"-{page.copy}" if copies > 1 else ""
    return f"{page.kind}/{page.card_id}{copy}-{page.side}.png"


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
    """Write every page of a one-up PDF as ``out/<deck>/<card>-<side>.png`` at ``dpi`` (the dpi
    is recorded in the PNG), each file atomically; returns the paths written, in page order.

    Pages are rasterised one after another (PDFium is not thread-safe) while threads encode and
    write the PNGs (zlib releases the GIL): encoding costs more than rasterising, so this is what
    keeps the export near the rasteriser's own speed on several cores.  The files are the same
    whatever the number of threads.

    Raises:
        OutputError: a file cannot be written.
    """
    counts: dict[tuple[str, str], int] = {}
    for page in pages:
        if page.side == "face":
            counts[(page.kind, page.card_id)] = max(counts.get((page.kind, page.card_id), 0), page.copy)
    written: list[Path] = []
    with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        pending: deque[Future] = deque()
        for page, image in rasterise(pdf, pages, dpi, each):
            pending.append(pool.submit(_save, image, out / file_name(page, counts[(page.kind, page.card_id)]), dpi))
            while len(pending) > 8:  # a few images in flight, not the whole deck in memory
                written.append(pending.popleft().result())
        written += [future.result() for future in pending]
    return written


def _save(image, path: Path, dpi: int) -> Path:
    buf = io.BytesIO()
    image.save(buf, format="PNG", dpi=(dpi, dpi), compress_level=PNG_COMPRESSION)
    write_atomic(path, buf.getvalue())
    return path

"""Speed of per-card image export: PNGs per second for a 54-card deck at 300 dpi.

For Geheime Mission's 54 agent cards (faces and backs, 108 images of 815 x 1110 px) it measures,
on the same one-up PDF:

* **baseline**: the bare rasteriser, pypdfium2 rendering every page to a bitmap and converting it
  to a PIL image, nothing else;
* **export**: :func:`deckpress.generator.export.images.write_images`, as ``deckpress export --to
  png`` runs it: rasterising, encoding each PNG with its dpi, writing it atomically.

Target: export at least 0.8 of the baseline's pages per second.  The one-up PDF's own
rendering (reportlab) is timed apart, as it is paid once for every format.
Usage: ``python benchmarks/export.py [--dpi 300]``.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import pypdfium2 as pdfium

from deckpress.generator.content import load_game
from deckpress.generator.export.images import write_images
from deckpress.generator.kit.adapters import kit_module
from deckpress.generator.render.oneup import one_up_pdf

TARGET = 0.8


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dpi", type=int, default=300)
    args = parser.parse_args()
    content = load_game("geheime-mission")
    deck = next(d for d in kit_module("geheime-mission").decks(content) if d.kind == "agent")
    started = time.perf_counter()
    pdf, pages = one_up_pdf(content.documents["layout"], [deck])
    drawing = time.perf_counter() - started

    started = time.perf_counter()
    document = pdfium.PdfDocument(pdf)
    for index in range(len(document)):
        page = document[index]
        page.render(scale=args.dpi / 72).to_pil().convert("RGB")
    document.close()
    bare = time.perf_counter() - started

    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        written = write_images(pdf, pages, Path(tmp), args.dpi)
        export = time.perf_counter() - started
    n = len(written)
    print(f"{len(deck.cards)} agent cards, {n} images at {args.dpi} dpi")
    print(f"  one-up PDF (reportlab, paid once per export)  {drawing:6.2f} s")
    print(f"  baseline: bare rasteriser                     {n / bare:6.1f} images/s")
    print(f"  deckpress export --to png                     {n / export:6.1f} images/s")
    ratio = bare / export
    print(f"  export / baseline = {ratio:.2f} (target at least {TARGET}: {'met' if ratio >= TARGET else 'NOT met'})")


if __name__ == "__main__":
    main()

"""Time a game made from data alone: 1,000 cards from a CSV file, built by deckpress, against the
same cards drawn by a plain reportlab script and (if it can be run) by protograf, in the same run.

The deck: each card has an id, a title, a body of 25 words that wraps (every
body different, so no contender gains from caching a fitted paragraph), a colour and a number,
checked by a JSON Schema for one row.  The layout draws a coloured background bleeding past the
trim, the title, a white panel, the wrapped body and the number, on poker cards (63 x 88 mm)
3 x 3 to an A4 sheet with crop marks, each sheet of faces followed by its sheet of backs.

Contenders, each the best of ``--repeat`` runs:

* deckpress, as ``deckpress build`` runs it: ``load_game`` (safe CSV and YAML loading, the
  schemas, every row against the deck's schema) and ``build_kit`` (cover, faces, backs);
* deckpress rendering alone: ``render_pdf`` of the loaded decks, no cover;
* the baseline, a plain reportlab script reading the same CSV file and drawing the same sheets:
  the same font, the same text fitting (one line: shrunk to the box; wrapped: ``simpleSplit`` at
  sizes 0.25 pt apart until the lines fit), the same crop marks, no checks and no layout file;
* protograf, the faces only (protograf is spared the backs and crop marks), in a child process,
  timed by its own clock.  protograf is GPL-3.0-or-later (its PyPI metadata) and needs PyMuPDF
  (AGPL-3.0 or a commercial licence), so it is never a dependency of deckpress: it is measured
  when this Python can import it, or give ``--protograf-python`` a Python that can (a throwaway
  virtual environment).  As written here, protograf 0.5.2 draws every card in the first card's
  colour (the ``fill`` template is not applied): a little less work than asked of the others.

Targets: deckpress (load and build) at least 0.7 of the reportlab script's cards per second, and
at least 20 times protograf's.  Measured on one core of the development machine: deckpress
about 2,900 cards/s loading and building (0.63 of the script's 4,500; rendering alone 0.88),
protograf 0.5.2 about 110 cards/s (deckpress 27 times faster).

    python benchmarks/generic.py [--cards 1000] [--repeat 3] [--protograf-python PATH]
"""
from __future__ import annotations

import argparse
import csv
import importlib.util
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from reportlab.lib.colors import HexColor, white
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth
from reportlab.pdfgen.canvas import Canvas

from deckpress.generator.content import load_game
from deckpress.generator.games import kit_module
from deckpress.generator.imposition import grid
from deckpress.generator.render import fonts
from deckpress.generator.render.kit import PrintOptions, build_kit, render_pdf
from deckpress.generator.render.text import fit

WORDS = ("draw discard swap reveal steal trade shield burn gather scout rally hide seek summon bargain "
         "storm calm bridge tower river forest market harbour lantern each player may then take one "
         "card from the pile or pass their turn to the left and gain two coins unless a rival blocks "
         "it with a matching colour").split()
COLOURS = ("#d1495b", "#00798c", "#edae49", "#66a182", "#2e4057", "#8d96a3")
INK, PAPER, BACK = "#1b1b1b", "#ffffff", "#2e294e"
LEADING = 1.15  # deckpress's default line spacing, used by the baseline too

GAME = """id: bench
title: Benchmark deck
card_sizes:
  poker: {width_mm: 63, height_mm: 88}
decks:
  - {id: cards, name: Cards, file: cards.csv, schema: cards.schema.json, layout: card, card_size: poker, copies: 1}
"""
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["id", "title", "body", "colour", "number"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "pattern": "^[a-z0-9-]+$"},
        "title": {"type": "string", "maxLength": 40},
        "body": {"type": "string", "maxLength": 400},
        "colour": {"type": "string", "pattern": "^#[0-9a-f]{6}$"},
        "number": {"type": "integer", "minimum": 0, "maximum": 9},
    },
}
LAYOUT = f"""palette: {{ink: "{INK}", paper: "{PAPER}", back: "{BACK}"}}
cards:
  card:
    trim: {{width_mm: 63, height_mm: 88}}
    bleed_mm: 3
    safe_mm: 3
    face:
      - {{type: rect, x_mm: 0, y_mm: 0, w_mm: 63, h_mm: 88, fill: "{{colour}}", bleed: true}}
      - {{type: text, x_mm: 5, y_mm: 5, w_mm: 53, h_mm: 10, text: "{{title}}", font: bold, font_pt: 16, min_font_pt: 8, align: center, colour: paper}}
      - {{type: rect, x_mm: 4, y_mm: 18, w_mm: 55, h_mm: 52, fill: paper, radius_mm: 2}}
      - {{type: text, x_mm: 7, y_mm: 21, w_mm: 49, h_mm: 46, text: "{{body}}", font: regular, font_pt: 11, min_font_pt: 6, wrap: true, align: center, colour: ink}}
      - {{type: text, x_mm: 5, y_mm: 73, w_mm: 53, h_mm: 10, text: "{{number}}", font: bold, font_pt: 22, min_font_pt: 10, align: right, colour: paper}}
    back:
      - {{type: rect, x_mm: 0, y_mm: 0, w_mm: 63, h_mm: 88, fill: back, bleed: true}}
      - {{type: text, x_mm: 6, y_mm: 38, w_mm: 51, h_mm: 12, text: "Benchmark", font: bold, font_pt: 20, min_font_pt: 8, align: center, colour: paper}}
"""


def cards(n: int) -> list[dict]:
    """``n`` cards, each with a different 25-word body (seeded: the same every run)."""
    rng = random.Random(10)
    out = []
    for i in range(n):
        body = " ".join(rng.choice(WORDS) for _ in range(25)).capitalize() + "."
        out.append({"id": f"card-{i + 1}", "title": f"Card {i + 1}", "body": body,
                    "colour": COLOURS[i % len(COLOURS)], "number": i % 10})
    return out


def write_game(folder: Path, deck: list[dict]) -> None:
    """The deck as a game made from data alone: game.yaml, layout.yaml, cards.csv and its schema."""
    (folder / "game.yaml").write_text(GAME)
    (folder / "layout.yaml").write_text(LAYOUT)
    (folder / "cards.schema.json").write_text(json.dumps(SCHEMA, indent=2))
    with open(folder / "cards.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(deck[0]))
        writer.writeheader()
        writer.writerows(deck)


def deckpress_build(folder: Path) -> tuple[float, bytes]:
    """Seconds to load, check and build the kit (cover, faces and backs), as ``deckpress build``
    does, and the PDF.  The text-fitting cache is emptied first, so no run reuses another's work."""
    fit.cache_clear()
    start = time.perf_counter()
    pdf = build_kit(load_game(folder), PrintOptions())
    return time.perf_counter() - start, pdf


def deckpress_render(folder: Path) -> float:
    """Seconds to render the loaded cards (faces, backs, crop marks; no cover, no loading)."""
    content = load_game(folder)
    decks = kit_module(content.game_id).decks(content)
    fit.cache_clear()
    start = time.perf_counter()
    render_pdf(content.documents["layout"], decks, None, PrintOptions())
    return time.perf_counter() - start


def _fit(text: str, font: str, size: float, min_size: float, w: float, h: float, wrap: bool) -> tuple[float, list[str]]:
    """deckpress's fitting rule, written out: one line shrinks to the box; a paragraph is split
    with ``simpleSplit`` at sizes 0.25 pt apart until its lines fit."""
    asc, desc = getAscentDescent(font, 1.0)
    if not wrap:
        width = stringWidth(text, font, 1.0)
        return min(size, w / width if width else size, h / (asc - desc)), [text]
    while size >= min_size:
        lines = simpleSplit(text, font, size, w)
        if all(stringWidth(line, font, size) <= w for line in lines) and (len(lines) - 1) * size * LEADING + size * (asc - desc) <= h:
            return size, lines
        size -= 0.25
    raise ValueError(f"{text!r} does not fit")


def reportlab_script(folder: Path) -> tuple[float, bytes]:
    """Seconds for a plain reportlab script to read ``cards.csv`` and draw the same sheets (faces,
    backs, crop marks), and its PDF: no checks, no layout file."""
    fonts.register()
    g = grid("a4", (63, 88), 3)
    sheet_h = g.sheet_mm[1]
    buf = io.BytesIO()
    start = time.perf_counter()
    with open(folder / "cards.csv", newline="") as f:
        deck = list(csv.DictReader(f))
    c = Canvas(buf, pagesize=(g.sheet_mm[0] * mm, sheet_h * mm), invariant=1, initialFontName="Lato")

    def text(s, font, size, min_size, x, top, w, h, wrap, align, colour):
        size, lines = _fit(s, font, size, min_size, w * mm, h * mm, wrap)
        c.setFillColor(colour)
        c.setFont(font, size)
        block = (len(lines) - 1) * size * LEADING + size
        y = top - (h * mm - block) / 2 - size
        for line in lines:
            if align == "center":
                c.drawCentredString((x + w / 2) * mm, y, line)
            else:
                c.drawRightString((x + w) * mm, y, line)
            y -= size * LEADING

    for first in range(0, len(deck), g.per_sheet):
        for side in ("face", "back"):
            for i, card in enumerate(deck[first:first + g.per_sheet]):
                slot = g.slots[i] if side == "face" else g.back_slot(i, "long")
                x0, top = slot.x_mm, (sheet_h - slot.y_mm) * mm
                c.saveState()
                if side == "face":
                    c.setFillColor(HexColor(card["colour"]))
                    c.rect((x0 - 3) * mm, top - 91 * mm, 69 * mm, 94 * mm, stroke=0, fill=1)
                    text(card["title"], "Lato-Bold", 16, 8, x0 + 5, top - 5 * mm, 53, 10, False, "center", white)
                    c.setFillColor(white)
                    c.roundRect((x0 + 4) * mm, top - 70 * mm, 55 * mm, 52 * mm, 2 * mm, stroke=0, fill=1)
                    text(card["body"], "Lato", 11, 6, x0 + 7, top - 21 * mm, 49, 46, True, "center", HexColor(INK))
                    text(str(card["number"]), "Lato-Bold", 22, 10, x0 + 5, top - 73 * mm, 53, 10, False, "right", white)
                else:
                    c.setFillColor(HexColor(BACK))
                    c.rect((x0 - 3) * mm, top - 91 * mm, 69 * mm, 94 * mm, stroke=0, fill=1)
                    text("Benchmark", "Lato-Bold", 20, 8, x0 + 6, top - 38 * mm, 51, 12, False, "center", white)
                c.restoreState()
            for x1, y1, x2, y2 in g.crop_marks():
                c.line(x1 * mm, (sheet_h - y1) * mm, x2 * mm, (sheet_h - y2) * mm)
            c.showPage()
    c.save()
    return time.perf_counter() - start, buf.getvalue()


PROTOGRAF_SCRIPT = """
import csv, os, time
from protograf import *
start = time.perf_counter()
Create(filename=os.environ["BENCH_PDF"], paper="A4", margin=0.5)
rows = list(csv.DictReader(open(os.environ["BENCH_CSV"])))
Data(filename=os.environ["BENCH_CSV"])
Deck(cards=len(rows), width=6.3, height=8.8)
Card("*", rectangle(x=0, y=0, width=6.3, height=8.8, fill=T("{{ colour }}")))
Card("*", text(text=T("{{ title }}"), x=3.15, y=1.0, font_size=16, stroke="white"))
Card("*", rectangle(x=0.4, y=1.8, width=5.5, height=5.2, fill="white"))
Card("*", text(text=T("{{ body }}"), x=0.7, y=2.1, width=4.9, height=4.6, font_size=11, wrap=True, stroke="#1b1b1b"))
Card("*", text(text=T("{{ number }}"), x=5.8, y=8.1, font_size=22, stroke="white"))
Save()
print(time.perf_counter() - start)
"""


def protograf_python(given: str | None) -> str | None:
    """The Python to run protograf with: ``given``, else this one if it can import protograf."""
    if given:
        return given
    return sys.executable if importlib.util.find_spec("protograf") else None


def protograf_seconds(python: str, folder: Path) -> float | None:
    """Seconds for protograf to draw the same faces from the same CSV, in a child process of
    ``python``, by its own clock; None (and why) if it fails."""
    script = folder / "protograf_deck.py"
    script.write_text(textwrap.dedent(PROTOGRAF_SCRIPT))
    env = {**os.environ, "BENCH_CSV": str(folder / "cards.csv"), "BENCH_PDF": str(folder / "protograf.pdf")}
    run = subprocess.run([python, str(script)], capture_output=True, text=True, timeout=3600, env=env, cwd=folder)
    try:
        return float(run.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        print(f"  protograf: could not run ({(run.stdout + run.stderr).strip()[-300:]})")
        return None


def pages(pdf: bytes) -> int | str:
    """The number of pages of a PDF (with pypdf, a test dependency), or '?' without it."""
    try:
        from pypdf import PdfReader
    except ImportError:
        return "?"
    return len(PdfReader(io.BytesIO(pdf)).pages)


def main() -> None:
    """Write the deck, time each contender, print cards per second and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs for each contender")
    parser.add_argument("--protograf-python", default=None, help="a Python with protograf installed (never a dependency)")
    args = parser.parse_args()
    n = args.cards
    deck = cards(n)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_game(folder, deck)
        deckpress_build(folder)  # warm-up: imports, fonts, schemas compiled
        runs = [deckpress_build(folder) for _ in range(args.repeat)]
        ours, ours_pdf = min(runs, key=lambda r: r[0])
        render = min(deckpress_render(folder) for _ in range(args.repeat))
        runs = [reportlab_script(folder) for _ in range(args.repeat)]
        plain, plain_pdf = min(runs, key=lambda r: r[0])
        print(f"{n:,} cards from a CSV (25-word bodies, each different), faces and backs, 9 to an A4 sheet; best of {args.repeat}")
        print(f"  deckpress load + build:  {ours:6.3f} s  {n / ours:8,.0f} cards/s  ({pages(ours_pdf)} pages, with the cover)")
        print(f"  deckpress render only:   {render:6.3f} s  {n / render:8,.0f} cards/s")
        print(f"  reportlab script:        {plain:6.3f} s  {n / plain:8,.0f} cards/s  ({pages(plain_pdf)} pages) (baseline)")
        print(f"  deckpress / reportlab:   load + build {plain / ours:.2f} (target at least 0.70), render only {plain / render:.2f}")
        python = protograf_python(args.protograf_python)
        if python is None:
            print("  protograf: not measured (not importable here; give --protograf-python; GPL-3.0, never a dependency)")
            return
        theirs = protograf_seconds(python, folder)
        if theirs:
            print(f"  protograf (faces only):  {theirs:6.3f} s  {n / theirs:8,.1f} cards/s")
            print(f"  deckpress / protograf:   {theirs / ours:.0f} times its rate (target at least 20)")


if __name__ == "__main__":
    sys.exit(main())

"""Time a game made from data alone: 1,000 cards from a CSV file, built by deckpress, against the
same cards drawn by a plain reportlab script and (if it can be run) by protograf, in the same run.

The deck: each card has a title, a body of about 25 words that wraps, a colour and a number; the
layout draws a coloured background bleeding past the trim, the title, a white panel, the wrapped
body and the number, on poker cards (63 x 88 mm) 3 x 3 to an A4 sheet, each sheet of faces
followed by its sheet of backs.  The reportlab baseline draws exactly that with the same font,
the same wrapping (``simpleSplit``) and the same shrink-to-fit loop, with no content checks.

Targets (issue 10, section 5): deckpress at least 0.7 of the reportlab script's cards per second,
and at least 20 times protograf's.  protograf is GPL-3.0 and needs PyMuPDF (AGPL), so it is never a
dependency of deckpress: give ``--protograf-python`` a Python that has it installed (a throwaway
virtual environment) and the same faces are drawn there (faces only: protograf is spared the
backs), in a child process, timed by its own clock.  Measured here (protograf 0.5.2): about
100 cards a second, deckpress 28 times faster.

    python benchmarks/generic.py [--cards 1000] [--repeat 3] [--protograf-python PATH]
"""
from __future__ import annotations

import argparse
import io
import os
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
from deckpress.generator.imposition import grid
from deckpress.generator.render import fonts
from deckpress.generator.render.kit import PrintOptions, build_kit

WORDS = ("draw discard swap reveal steal trade shield burn gather scout rally hide seek summon bargain "
         "storm calm bridge tower river forest market harbour lantern").split()
COLOURS = ("#d1495b", "#00798c", "#edae49", "#66a182", "#2e4057", "#8d96a3")

GAME = """id: bench
title: Benchmark deck
card_sizes:
  poker: {width_mm: 63, height_mm: 88}
decks:
  - {id: cards, name: Cards, file: cards.csv, layout: card, card_size: poker}
"""
LAYOUT = """palette: {ink: "#1b1b1b", paper: "#ffffff", back: "#2e294e"}
cards:
  card:
    trim: {width_mm: 63, height_mm: 88}
    bleed_mm: 3
    safe_mm: 3
    face:
      - {type: rect, x_mm: 0, y_mm: 0, w_mm: 63, h_mm: 88, fill: "{colour}", bleed: true}
      - {type: text, x_mm: 5, y_mm: 5, w_mm: 53, h_mm: 10, text: "{title}", font: bold, font_pt: 16, min_font_pt: 8, align: center, colour: paper}
      - {type: rect, x_mm: 4, y_mm: 18, w_mm: 55, h_mm: 52, fill: paper, radius_mm: 2}
      - {type: text, x_mm: 7, y_mm: 21, w_mm: 49, h_mm: 46, text: "{body}", font: regular, font_pt: 11, min_font_pt: 6, wrap: true, align: center, colour: ink}
      - {type: text, x_mm: 5, y_mm: 73, w_mm: 53, h_mm: 10, text: "{number}", font: bold, font_pt: 22, min_font_pt: 10, align: right, colour: paper}
    back:
      - {type: rect, x_mm: 0, y_mm: 0, w_mm: 63, h_mm: 88, fill: back, bleed: true}
      - {type: text, x_mm: 6, y_mm: 38, w_mm: 51, h_mm: 12, text: "Benchmark", font: bold, font_pt: 20, min_font_pt: 8, align: center, colour: paper}
"""


def cards(n: int) -> list[dict]:
    """``n`` cards: title, a 25-word body, colour, number (deterministic)."""
    out = []
    for i in range(n):
        body = " ".join(WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(25)).capitalize() + "."
        out.append({"title": f"Card {i + 1}", "body": body, "colour": COLOURS[i % len(COLOURS)], "number": i % 10})
    return out


def write_game(folder: Path, deck: list[dict]) -> None:
    """The deck as a game made from data alone: game.yaml, layout.yaml, cards.csv."""
    (folder / "game.yaml").write_text(GAME)
    (folder / "layout.yaml").write_text(LAYOUT)
    rows = ["title,body,colour,number"] + [f'{c["title"]},"{c["body"]}",{c["colour"]},{c["number"]}' for c in deck]
    (folder / "cards.csv").write_text("\n".join(rows) + "\n")


def deckpress_seconds(folder: Path) -> float:
    """Load, validate and build the kit (cover, faces and backs): deckpress's whole job."""
    start = time.perf_counter()
    build_kit(load_game(folder), PrintOptions())
    return time.perf_counter() - start


def _fit(text: str, font: str, size: float, min_size: float, w: float, h: float, wrap: bool) -> tuple[float, list[str]]:
    asc, desc = getAscentDescent(font, 1.0)
    while size >= min_size:
        lines = simpleSplit(text, font, size, w) if wrap else [text]
        if all(stringWidth(line, font, size) <= w for line in lines) and (len(lines) - 1) * size * 1.15 + size * (asc - desc) <= h:
            return size, lines
        size -= 0.25
    raise ValueError(f"{text!r} does not fit")


def reportlab_seconds(deck: list[dict]) -> float:
    """The same sheets drawn by a plain reportlab script: no checks, no layout file."""
    fonts.register()
    g = grid("a4", (63, 88), 3)
    c = Canvas(io.BytesIO(), pagesize=(210 * mm, 297 * mm), invariant=1, initialFontName="Lato")
    start = time.perf_counter()

    def text(s, font, size, min_size, x, top, w, h, wrap, align, colour):
        size, lines = _fit(s, font, size, min_size, w * mm, h * mm, wrap)
        c.setFillColor(colour)
        c.setFont(font, size)
        block = (len(lines) - 1) * size * 1.15 + size
        y = top - (h * mm - block) / 2 - size
        for line in lines:
            if align == "center":
                c.drawCentredString((x + w / 2) * mm, y, line)
            else:
                c.drawRightString((x + w) * mm, y, line)
            y -= size * 1.15

    for first in range(0, len(deck), g.per_sheet):
        sheet = deck[first:first + g.per_sheet]
        for side in ("face", "back"):
            for i, card in enumerate(sheet):
                slot = g.slots[i] if side == "face" else g.back_slot(i, "long")
                x0, top = slot.x_mm, (297 - slot.y_mm) * mm
                if side == "face":
                    c.setFillColor(HexColor(card["colour"]))
                    c.rect(x0 * mm, top - 88 * mm, 63 * mm, 88 * mm, stroke=0, fill=1)
                    text(card["title"], "Lato-Bold", 16, 8, x0 + 5, top - 5 * mm, 53, 10, False, "center", white)
                    c.setFillColor(white)
                    c.roundRect((x0 + 4) * mm, top - 70 * mm, 55 * mm, 52 * mm, 2 * mm, stroke=0, fill=1)
                    text(card["body"], "Lato", 11, 6, x0 + 7, top - 21 * mm, 49, 46, True, "center", HexColor("#1b1b1b"))
                    text(str(card["number"]), "Lato-Bold", 22, 10, x0 + 5, top - 73 * mm, 53, 10, False, "right", white)
                else:
                    c.setFillColor(HexColor("#2e294e"))
                    c.rect(x0 * mm, top - 88 * mm, 63 * mm, 88 * mm, stroke=0, fill=1)
                    text("Benchmark", "Lato-Bold", 20, 8, x0 + 6, top - 38 * mm, 51, 12, False, "center", white)
            c.showPage()
    c.save()
    return time.perf_counter() - start


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


def protograf_seconds(python: str, folder: Path) -> float | None:
    """protograf drawing the same CSV in a child process of ``python``; None if it fails."""
    script = folder / "protograf_deck.py"
    script.write_text(textwrap.dedent(PROTOGRAF_SCRIPT))
    env = {**os.environ, "BENCH_CSV": str(folder / "cards.csv"), "BENCH_PDF": str(folder / "protograf.pdf")}
    run = subprocess.run([python, script], capture_output=True, text=True, timeout=3600, env=env, cwd=folder)
    try:
        return float(run.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        print(f"protograf: could not run ({(run.stdout + run.stderr).strip()[-300:]})")
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs for each contender")
    parser.add_argument("--protograf-python", default=None, help="a Python with protograf installed (never a dependency)")
    args = parser.parse_args()
    deck = cards(args.cards)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_game(folder, deck)
        ours = min(deckpress_seconds(folder) for _ in range(args.repeat))
        plain = min(reportlab_seconds(deck) for _ in range(args.repeat))
        print(f"{args.cards:,} cards from a CSV, faces and backs, 9 to an A4 sheet")
        print(f"  deckpress (load, validate, build): {ours:.2f} s, {args.cards / ours:,.0f} cards/s")
        print(f"  plain reportlab script (baseline): {plain:.2f} s, {args.cards / plain:,.0f} cards/s")
        print(f"  deckpress / reportlab rate: {plain / ours:.2f} (target at least 0.70)")
        if args.protograf_python:
            theirs = protograf_seconds(args.protograf_python, folder)
            if theirs:
                print(f"  protograf: {theirs:.2f} s, {args.cards / theirs:,.1f} cards/s; deckpress is {theirs / ours:.0f} times faster (target at least 20)")
        else:
            print("  protograf: not measured (give --protograf-python; it is GPL-3.0 and is never a dependency)")


if __name__ == "__main__":
    sys.exit(main())

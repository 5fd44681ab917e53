"""Time a game made from data alone: 1,000 cards from a CSV file whose text uses the data's own
markup, built by deckpress, against the same cards drawn by a plain reportlab loop and by
protograf, in the same run; and deckpress's start-up, which a whole command pays once.

The deck: each card has an id, a title, a body of 25 words that wraps (every body different, so
no contender gains from caching a fitted paragraph) and a colour and a number, checked by a JSON
Schema for one row.  The body is written in the simple HTML of published card data
(docs/rich-text.md): a bold keyword (``<b>Ally:</b>``), one word in italics (``<i>``) and a line
break (``<br>``); the layout reads it with ``markup: html``.  The layout draws a coloured
background bleeding past the trim, the title, a white panel, the wrapped body and the number, on
poker cards (63 x 88 mm) 3 x 3 to an A4 sheet with crop marks, each sheet of faces followed by its
sheet of backs.  The plain deck is the same with the tags taken out and no markup: the figure of
earlier runs.  (Expressions and a layout per card kind are added to this deck where
``LAYOUT`` says.)

Contenders, each the best of ``--repeat`` runs taken in turn, timed in CPU seconds (user and
system, of this process or of the child process), so that the other work of a shared machine
counts for none of them:

* deckpress, as ``deckpress build`` runs it (``build_game``): ``load_game`` (safe CSV and YAML
  loading, the schemas, every row against the deck's schema) and ``build_kit`` (cover, faces,
  backs), with Python's cyclic garbage collector paused for both as the command pauses it
  (``deckpress.generator.render.kit.collector_paused``; the loop below runs as a plain script
  does, with it on);
* deckpress rendering alone: ``render_pdf`` of the loaded decks, no cover (the collector paused
  by ``render_pdf`` itself);
* the baseline, a plain reportlab loop reading the same CSV file and drawing the same sheets on a
  canvas: the same fonts (Lato, Lato Bold, Lato Italic), the same text fitting (shrunk in steps of
  0.25 pt until the greedily wrapped lines fit), the tags read with one regular expression and each
  run of words drawn in its font, the same crop marks; no checks, no layout file;
* whole commands, each in a child process from start to exit: ``deckpress build FOLDER``, and
  protograf drawing the faces (it is spared the backs and crop marks) with its ``html=True`` text,
  which reads the same tags.  protograf is GPL-3.0-or-later (its PyPI metadata) and needs PyMuPDF
  (AGPL-3.0 or a commercial licence), so it is never a dependency of deckpress: it is measured when
  this Python can import it, or give ``--protograf-python`` a Python that can (a throwaway virtual
  environment).  As written here, protograf 0.5.2 draws every card in the first card's colour (the
  ``fill`` template is not applied): a little less work than asked of the others.
* start-up: ``deckpress --help`` in a child process, the price of every command before it reads a
  file (``python -X importtime -c "import deckpress.generator.cli"`` shows where it goes).

Targets: deckpress (load and build) at least 0.8 of the reportlab loop's faces per second on the
markup deck, and its whole command at least 20 times protograf's.  Measured on 2026-11-28 at
16:37 UTC with ``python benchmarks/generic.py --repeat 5`` (a shared two-core machine, lightly
loaded), on this deck with its derived field, ``when:`` expressions and layout per card: load and
build 0.90 of the loop on the markup deck (3,205 against 3,574 faces/s; render alone 1.00), 0.89
on the plain deck (render alone 1.01); the whole command 0.85 s, start-up 0.28 s.  The same
command run just after on the code before this round of work gave 0.65 and 0.66 (render alone
0.71 and 0.73; whole command 1.05 s).  protograf was not importable in these runs; measured
earlier that day with ``--protograf-python PY``, protograf 0.5.2 took 41.3 s on the same faces,
some 40 times deckpress's whole command of then (1.03 s).  Where the time goes now (``py-spy``):
reading and fitting the markup (the tags, the words laid out, each line's runs merged in one
pass) about a sixth; drawing the text about a tenth, its operators written directly
(``scripts.glyph_ops``, byte for byte what reportlab's text object writes: each font's subset
names and each word's escaped bytes kept per canvas, so a line of known words is one join); each
element's own work (templates, colours, ``when:`` answered once per set of the values it reads,
the safe-area check); reportlab compressing and writing the pages, a sixth, as for the loop; the
loading under a tenth (the card file's shape and its rows checked by the fast path for flat
schemas, ``deckpress.generator.content.schema.quick_check``).  The crop marks, each card's clip
and rounded rectangles are written once per place and reused on every sheet, and the garbage
collector, whose passes over the small objects of fitted text freed almost nothing (57 passes, 119
objects), no longer runs during a build.

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
import re
import resource
import shutil
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
from deckpress.generator.kit.adapters import kit_module
from deckpress.generator.kit.imposition import grid
from deckpress.generator.render import fonts
from deckpress.generator.render.kit import (
    PrintOptions,
    build_kit,
    collector_paused,
    render_pdf,
)
from deckpress.generator.render.markup import parse
from deckpress.generator.render.text import clear_caches

WORDS = ["draw", "discard", "swap", "reveal", "steal", "trade", "shield", "burn", "gather", "scout", "rally", "hide", "seek", "summon", "bargain", "storm", "calm", "bridge", "tower", "river", "forest", "market", "harbour", "lantern", "each", "player", "may", "then", "take", "one", "card", "from", "the", "pile", "or", "pass", "their", "turn", "to", "the", "left", "and", "gain", "two", "coins", "unless", "a", "rival", "blocks", "it", "with", "a", "matching", "colour"]
KEYWORDS = ("Ally", "Scrap", "Once per turn", "Reveal", "Trade", "Storm")
COLOURS = ("#d1495b", "#00798c", "#edae49", "#66a182", "#2e4057", "#8d96a3")
INK, PAPER, BACK = "#1b1b1b", "#ffffff", "#2e294e"
LEADING = 1.15  # deckpress's default line spacing, used by the baseline too

GAME = """id: bench
title: Benchmark deck
card_sizes:
  poker: {width_mm: 63, height_mm: 88}
decks:
  - id: cards
    name: Cards
    file: cards.csv
    schema: cards.schema.json
    card_size: poker
    copies: 1
    # A derived field and a layout chosen per card by an expression (docs/expressions.md): odd
    # numbers print with the kind "odd", which extends "card"; both draw the same marks.
    derive:
      label: "{{ number }}"
    layout: {by: "'odd' if number is odd else 'card'", map: {card: card, odd: odd}, default: card}
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
        "label": {"type": "integer"},  # derived in GAME
    },
}


def layout(markup: str) -> str:
    """The layout, its body read in ``markup`` ('html' or 'none')."""
    return f"""palette: {{ink: "{INK}", paper: "{PAPER}", back: "{BACK}"}}
cards:
  card:
    trim: {{width_mm: 63, height_mm: 88}}
    bleed_mm: 3
    safe_mm: 3
    face:
      # Expressions (when:, a derived field) and a layout chosen per card (GAME): the same marks
      # drawn on every card, so the baseline and protograf stay as they are.
      - {{type: rect, x_mm: 0, y_mm: 0, w_mm: 63, h_mm: 88, fill: "{{colour}}", bleed: true}}
      - {{type: text, x_mm: 5, y_mm: 5, w_mm: 53, h_mm: 10, text: "{{title}}", font: bold, font_pt: 16, min_font_pt: 8, align: center, colour: paper}}
      - {{type: rect, x_mm: 4, y_mm: 18, w_mm: 55, h_mm: 52, fill: paper, radius_mm: 2, when: body}}
      - {{type: text, x_mm: 7, y_mm: 21, w_mm: 49, h_mm: 46, text: "{{body}}", font: regular, font_pt: 11, min_font_pt: 6, wrap: true, align: center, colour: ink, markup: {markup}}}
      - {{id: number, type: text, x_mm: 5, y_mm: 73, w_mm: 53, h_mm: 10, text: "{{number}}", font: bold, font_pt: 22, min_font_pt: 10, align: right, colour: paper, when: "number >= 0"}}
    back:
      - {{type: rect, x_mm: 0, y_mm: 0, w_mm: 63, h_mm: 88, fill: back, bleed: true}}
      - {{type: text, x_mm: 6, y_mm: 38, w_mm: 51, h_mm: 12, text: "Benchmark", font: bold, font_pt: 20, min_font_pt: 8, align: center, colour: paper}}
  odd:
    extends: card
    face:
      - {{id: number, type: text, x_mm: 5, y_mm: 73, w_mm: 53, h_mm: 10, text: "{{label}}", font: bold, font_pt: 22, min_font_pt: 10, align: right, colour: paper, when: "label is defined"}}
"""


def cards(n: int, markup: bool = True) -> list[dict]:
    """``n`` cards, each with a different 25-word body (seeded: the same every run): with
    ``markup``, a bold keyword, a word in italics and a line break; without, the same words."""
    rng = random.Random(10)
    out = []
    for i in range(n):
        words = [rng.choice(WORDS) for _ in range(25)]
        keyword, italic, cut = rng.choice(KEYWORDS), rng.randrange(2, 12), rng.randrange(14, 22)
        if markup:
            words[italic] = f"<i>{words[italic]}</i>"
            words[cut] = f"{words[cut]}.<br>"
            body = f"<b>{keyword}:</b> " + " ".join(words).replace("<br> ", "<br>") + "."
        else:
            words[cut] += "."
            body = f"{keyword}: " + " ".join(words) + "."
        out.append({"id": f"card-{i + 1}", "title": f"Card {i + 1}", "body": body,
                    "colour": COLOURS[i % len(COLOURS)], "number": i % 10})
    return out


def write_game(folder: Path, deck: list[dict], markup: str = "html") -> None:
    """The deck as a game made from data alone: game.yaml, layout.yaml, cards.csv and its schema."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(GAME)
    (folder / "layout.yaml").write_text(layout(markup))
    (folder / "cards.schema.json").write_text(json.dumps(SCHEMA, indent=2))
    with open(folder / "cards.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(deck[0]))
        writer.writeheader()
        writer.writerows(deck)


def _clear_caches() -> None:
    """Empty deckpress's text caches, so that no run reuses another's fitting."""
    clear_caches()
    parse.cache_clear()


def deckpress_build(folder: Path) -> tuple[float, bytes]:
    """Seconds to load, check and build the kit (cover, faces and backs), as ``deckpress build``
    does (``build_game``: the garbage collector paused for both), and the PDF."""
    _clear_caches()
    start = time.process_time()
    with collector_paused():
        pdf = build_kit(load_game(folder), PrintOptions())
    return time.process_time() - start, pdf


def deckpress_render(folder: Path) -> float:
    """Seconds to render the loaded cards (faces, backs, crop marks; no cover, no loading)."""
    content = load_game(folder)
    decks = kit_module(content.game_id).decks(content)
    _clear_caches()
    start = time.process_time()
    render_pdf(content.documents["layout"], decks, None, PrintOptions())
    return time.process_time() - start


# --- the baseline: a plain reportlab loop ------------------------------------------------------

FONT_OF = {(False, False): "Lato", (True, False): "Lato-Bold", (False, True): "Lato-Italic", (True, True): "Lato-BoldItalic"}
TAGS = re.compile(r"(<[^>]*>)")


def _runs(body: str) -> list[list[tuple[str, str]]]:
    """The body's lines (cut at ``<br>``), each a list of (words, font) runs: ``<b>`` and ``<i>``
    read with one regular expression, as a script for this deck would."""
    lines: list[list[tuple[str, str]]] = [[]]
    bold = italic = False
    for piece in TAGS.split(body):
        if piece in ("<b>", "</b>"):
            bold = piece == "<b>"
        elif piece in ("<i>", "</i>"):
            italic = piece == "<i>"
        elif piece == "<br>":
            lines.append([])
        elif piece:
            lines[-1].append((piece, FONT_OF[bold, italic]))
    return lines


def _wrap(lines: list[list[tuple[str, str]]], size: float, width: float) -> list[tuple[list[tuple[str, str]], float]]:
    """Greedy lines of at most ``width`` pt at ``size``: each word (a run cut at its spaces)
    measured with stringWidth; a line's runs and its width."""
    out = []
    for runs in lines:
        line: list[tuple[str, str]] = []
        used = 0.0
        for text, font in runs:
            for i, word in enumerate(text.split(" ")):
                if i and line:  # a space, in the run's font
                    space = stringWidth(" ", font, size)
                    w = stringWidth(word, font, size)
                    if used + space + w > width:
                        out.append((line, used))
                        line, used = [(word, font)], w
                        continue
                    _add(line, " " + word, font)
                    used += space + w
                elif word:
                    _add(line, word, font)
                    used += stringWidth(word, font, size)
        out.append((line, used))
    return out


def _add(line: list[tuple[str, str]], text: str, font: str) -> None:
    """Words added to a line: to its last run when that is in the same font (one string drawn)."""
    if line and line[-1][1] == font:
        line[-1] = (line[-1][0] + text, font)
    else:
        line.append((text, font))


def reportlab_loop(folder: Path, markup: bool) -> tuple[float, bytes]:
    """Seconds for a plain reportlab loop to read ``cards.csv`` and draw the same sheets (faces,
    backs, crop marks) on a canvas, and its PDF: no checks, no layout file."""
    fonts.register()
    for font in ("Lato-Italic", "Lato-BoldItalic"):
        fonts.ensure(font)
    g = grid("a4", (63, 88), 3)
    sheet_h = g.sheet_mm[1]
    buf = io.BytesIO()
    start = time.process_time()
    with open(folder / "cards.csv", newline="") as f:
        deck = list(csv.DictReader(f))
    c = Canvas(buf, pagesize=(g.sheet_mm[0] * mm, sheet_h * mm), invariant=1, initialFontName="Lato")
    asc, desc = getAscentDescent("Lato", 1.0)

    def one_line(s, font, size, min_size, x, top, w, h, align, colour):
        width = stringWidth(s, font, 1.0)
        size = min(size, w * mm / width if width else size, h * mm / (asc - desc))
        c.setFillColor(colour)
        c.setFont(font, size)
        y = top - (h * mm - size) / 2 - size
        (c.drawCentredString if align == "center" else c.drawRightString)((x + w / 2 if align == "center" else x + w) * mm, y, s)

    def paragraph(s, size, min_size, x, top, w, h, colour):
        if markup:
            runs = _runs(s)
            while True:
                lines = _wrap(runs, size, w * mm)
                if (len(lines) - 1) * size * LEADING + size * (asc - desc) <= h * mm or size - 0.25 < min_size:
                    break
                size -= 0.25
        else:
            while True:
                plain = [ln for part in s.split("\n") for ln in simpleSplit(part, "Lato", size, w * mm)]
                if (len(plain) - 1) * size * LEADING + size * (asc - desc) <= h * mm or size - 0.25 < min_size:
                    break
                size -= 0.25
            lines = [([(ln, "Lato")], stringWidth(ln, "Lato", size)) for ln in plain]
        c.setFillColor(colour)
        block = (len(lines) - 1) * size * LEADING + size
        y = top - (h * mm - block) / 2 - size
        for runs, used in lines:
            x_run = (x + w / 2) * mm - used / 2
            for text, font in runs:
                c.setFont(font, size)
                c.drawString(x_run, y, text)
                x_run += stringWidth(text, font, size)
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
                    one_line(card["title"], "Lato-Bold", 16, 8, x0 + 5, top - 5 * mm, 53, 10, "center", white)
                    c.setFillColor(white)
                    c.roundRect((x0 + 4) * mm, top - 70 * mm, 55 * mm, 52 * mm, 2 * mm, stroke=0, fill=1)
                    paragraph(card["body"], 11, 6, x0 + 7, top - 21 * mm, 49, 46, HexColor(INK))
                    one_line(str(card["number"]), "Lato-Bold", 22, 10, x0 + 5, top - 73 * mm, 53, 10, "right", white)
                else:
                    c.setFillColor(HexColor(BACK))
                    c.rect((x0 - 3) * mm, top - 91 * mm, 69 * mm, 94 * mm, stroke=0, fill=1)
                    one_line("Benchmark", "Lato-Bold", 20, 8, x0 + 6, top - 38 * mm, 51, 12, "center", white)
                c.restoreState()
            for x1, y1, x2, y2 in g.crop_marks():
                c.line(x1 * mm, (sheet_h - y1) * mm, x2 * mm, (sheet_h - y2) * mm)
            c.showPage()
    c.save()
    return time.process_time() - start, buf.getvalue()


# --- whole commands ----------------------------------------------------------------------------

PROTOGRAF_SCRIPT = """
import csv, os
from protograf import *
Create(filename=os.environ["BENCH_PDF"], paper="A4", margin=0.5)
rows = list(csv.DictReader(open(os.environ["BENCH_CSV"])))
Data(filename=os.environ["BENCH_CSV"])
Deck(cards=len(rows), width=6.3, height=8.8)
Card("*", rectangle(x=0, y=0, width=6.3, height=8.8, fill=T("{{ colour }}")))
Card("*", text(text=T("{{ title }}"), x=3.15, y=1.0, font_size=16, stroke="white"))
Card("*", rectangle(x=0.4, y=1.8, width=5.5, height=5.2, fill="white"))
Card("*", text(text=T("{{ body }}"), html=True, x=0.7, y=2.1, width=4.9, height=4.6, font_size=11, stroke="#1b1b1b"))
Card("*", text(text=T("{{ number }}"), x=5.8, y=8.1, font_size=22, stroke="white"))
Save()
"""


def deckpress_executable() -> list[str]:
    """The ``deckpress`` command beside this Python (its console script), else ``python -c`` of
    its entry point."""
    script = Path(sys.executable).with_name("deckpress")
    return [str(script)] if script.exists() else [sys.executable, "-c", "from deckpress.generator.cli import main; main()"]


def cpu_of(command: list[str], **kwargs) -> float:
    """CPU seconds (user and system) of ``command`` in a child process from start to exit, which
    must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(command, check=False, capture_output=True, text=True, timeout=3600, **kwargs)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    elapsed = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if run.returncode:
        raise RuntimeError(f"{' '.join(command)} failed: {(run.stdout + run.stderr).strip()[-300:]}")
    return elapsed


def protograf_python(given: str | None) -> str | None:
    """The Python to run protograf with: ``given``, else this one if it can import protograf."""
    if given:
        return given
    return sys.executable if importlib.util.find_spec("protograf") else None


def protograf_seconds(python: str, folder: Path) -> float | None:
    """Wall-clock seconds for protograf to draw the same faces from the same CSV, its start-up
    included, in a child process of ``python``; None (and why) if it fails."""
    script = folder / "protograf_deck.py"
    script.write_text(textwrap.dedent(PROTOGRAF_SCRIPT))
    env = {**os.environ, "BENCH_CSV": str(folder / "cards.csv"), "BENCH_PDF": str(folder / "protograf.pdf")}
    try:
        return cpu_of([python, str(script)], env=env, cwd=folder)
    except RuntimeError as exc:
        print(f"  protograf: could not run ({exc})")
        return None


def pages(pdf: bytes) -> int | str:
    """The number of pages of a PDF (with pypdf, a test dependency), or '?' without it."""
    try:
        from pypdf import PdfReader
    except ImportError:
        return "?"
    return len(PdfReader(io.BytesIO(pdf)).pages)


def main() -> None:
    """Write the decks, time each contender, print faces per second and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs for each contender")
    parser.add_argument("--protograf-python", default=None, help="a Python with protograf installed (never a dependency)")
    args = parser.parse_args()
    n, best = args.cards, args.repeat
    with tempfile.TemporaryDirectory() as tmp:
        rich, plain = Path(tmp) / "markup", Path(tmp) / "plain"
        write_game(rich, cards(n), "html")
        write_game(plain, cards(n, markup=False), "none")
        print(f"{n:,} cards from a CSV (25-word bodies, each different), faces and backs, 9 to an A4 sheet; best of {best}")
        command = deckpress_executable()
        out = Path(tmp) / "out"
        for folder, what in ((rich, "markup deck (<b>, <i>, <br>; markup: html)"), (plain, "plain deck (the same words, no markup)")):
            deckpress_build(folder)  # warm-up: imports, fonts, schemas compiled
            builds, renders, loops = [], [], []
            for _ in range(best):  # taken in turn, so that a busy spell of the machine falls on all alike
                builds.append(deckpress_build(folder))
                renders.append(deckpress_render(folder))
                loops.append(reportlab_loop(folder, folder is rich))
            (ours, ours_pdf), render, (base, base_pdf) = min(builds), min(renders), min(loops)
            print(f"  {what}")
            print(f"    deckpress load + build:  {ours:6.3f} s  {n / ours:8,.0f} faces/s  ({pages(ours_pdf)} pages, with the cover)")
            print(f"    deckpress render only:   {render:6.3f} s  {n / render:8,.0f} faces/s")
            print(f"    reportlab loop:          {base:6.3f} s  {n / base:8,.0f} faces/s  ({pages(base_pdf)} pages) (baseline)")
            print(f"    deckpress / reportlab:   load + build {base / ours:.2f}"
                  f"{' (target at least 0.80)' if folder is rich else ''}, render only {base / render:.2f}")
        startup = min(cpu_of(command + ["--help"]) for _ in range(best))
        whole = min(cpu_of(command + ["build", str(rich), "--out", str(out)]) for _ in range(best))
        print(f"  whole command, markup deck (a child process each, from start to exit; best of {best})")
        print(f"    deckpress --help:        {startup:6.3f} s  (start-up: {startup / whole:.0%} of the build below)")
        print(f"    deckpress build:         {whole:6.3f} s  {n / whole:8,.0f} faces/s")
        python = protograf_python(args.protograf_python)
        if python is None:
            print("    protograf: not measured (not importable here; give --protograf-python; GPL-3.0, never a dependency)")
            return
        theirs = protograf_seconds(python, rich)
        if theirs:
            print(f"    protograf (faces only):  {theirs:6.3f} s  {n / theirs:8,.1f} faces/s  (one run)")
            print(f"    deckpress / protograf:   {theirs / whole:.1f} times its rate (target at least 20)")
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()

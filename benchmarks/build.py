"""Time the print-and-play builder against a plain reportlab loop.

Prints, on one core: the Mission Emission kit's build time, card faces per second for a synthetic
deck of 1,000 state cards rendered through the shipped layouts, and in the same run a plain
reportlab loop drawing 1,000 cards of the same size with the same number of text runs and shapes
(the baseline).  Targets: at least 1,000 faces/s, at least 0.7 of
the baseline's rate, and the whole kit in under a second.

    python benchmarks/build.py [--cards 1000] [--repeat 3]
"""
from __future__ import annotations

import argparse
import io
import time

from reportlab.lib.colors import HexColor, white
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from deckpress.generator.content import load_game
from deckpress.generator.kit.adapters import mission_emission
from deckpress.generator.kit.imposition import grid
from deckpress.generator.kit.printdata import Deck
from deckpress.generator.render import fonts
from deckpress.generator.render.icons import icon_set
from deckpress.generator.render.kit import PrintOptions, build_kit, render_pdf


def synthetic_states(content, n: int) -> list[dict]:
    """``n`` state cards cycling through the shipped ones, each with a distinct name."""
    base = mission_emission.decks(content)[0].cards
    return [{**base[i % len(base)], "id": f"s{i}", "name": f"{base[i % len(base)]['name']} {i}"} for i in range(n)]


def deckpress_faces(content, cards: list[dict]) -> float:
    """Seconds to render ``cards`` (faces only, no backs) through the shipped layout."""
    start = time.perf_counter()
    render_pdf(content.documents["layout"], [Deck("state", "State cards", cards)], None, PrintOptions(duplex="none"))
    return time.perf_counter() - start


def baseline_faces(cards: list[dict]) -> float:
    """Seconds for a hand-written reportlab loop drawing the same cards: same size, same text
    runs (name, kind, and a name and value per mission), same number of shapes (background,
    panel, each mission icon's sub-shapes and its arrow, as plain paths), 9 per sheet with crop
    marks."""
    fonts.register()
    shapes = {name: len(parts) for name, parts in icon_set().items()}
    g = grid("a4", (63, 88), 3)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(210 * mm, 297 * mm), invariant=1, initialFontName="Lato")
    start = time.perf_counter()
    for n, card in enumerate(cards):
        slot = g.slots[n % 9]
        x, top = slot.x_mm * mm, (297 - slot.y_mm) * mm
        c.saveState()
        c.setFillColor(HexColor(card["colour"]))
        c.rect(x, top - 88 * mm, 63 * mm, 88 * mm, stroke=0, fill=1)
        c.setFillColor(white)
        c.setFont("Lato-Bold", 17)
        c.drawCentredString(x + 31.5 * mm, top - 11 * mm, card["name"])
        c.setFont("Lato", 7)
        c.drawCentredString(x + 31.5 * mm, top - 16 * mm, card["kind"])
        c.roundRect(x + 3.5 * mm, top - 84.5 * mm, 56 * mm, 66 * mm, 2 * mm, stroke=0, fill=1)
        for r, m in enumerate(card["missions"]):
            y = top - (26 + r * 10.6) * mm
            c.setFillColor(HexColor(m["colour"]))
            for k in range(shapes[m["icon"]]):
                p = c.beginPath(); p.moveTo(x + 5 * mm, y + k); p.lineTo(x + 13 * mm, y + k); p.lineTo(x + 9 * mm, y + 8 * mm); p.close()
                c.drawPath(p, stroke=0, fill=1)
            c.setFont("Lato-Bold", 11)
            c.drawString(x + 15 * mm, y, m["name"])
            p = c.beginPath(); p.moveTo(x + 38 * mm, y); p.lineTo(x + 42 * mm, y); p.lineTo(x + 40 * mm, y + 4 * mm); p.close()
            c.drawPath(p, stroke=0, fill=1)
            c.setFont("Lato-Bold", 18)
            c.drawRightString(x + 58 * mm, y, str(m["value"]))
        c.restoreState()
        if n % 9 == 8 or n == len(cards) - 1:
            for x1, y1, x2, y2 in g.crop_marks():
                c.line(x1 * mm, (297 - y1) * mm, x2 * mm, (297 - y2) * mm)
            c.showPage()
    c.save()
    return time.perf_counter() - start


def main() -> None:
    """Time the kit, the synthetic deck and the baseline; print the figures against the targets."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs")
    args = parser.parse_args()
    content = load_game("mission-emission")
    cards = synthetic_states(content, args.cards)
    deckpress_faces(content, cards[:20])  # warm-up: fonts, layout compile, caches
    kit = min(_timed(lambda: build_kit(content, PrintOptions())) for _ in range(args.repeat))
    ours = min(deckpress_faces(content, cards) for _ in range(args.repeat))
    base = min(baseline_faces(cards) for _ in range(args.repeat))
    n_kit = sum(len(d.cards) for d in mission_emission.decks(content))
    print(f"Mission Emission kit: {n_kit} cards, faces and backs, cover: {kit:.3f} s (target < 1 s)")
    print(f"deckpress layouts:  {args.cards} faces in {ours:.3f} s = {args.cards / ours:,.0f} faces/s (target >= 1,000)")
    print(f"plain reportlab:    {args.cards} faces in {base:.3f} s = {args.cards / base:,.0f} faces/s (baseline)")
    print(f"ratio deckpress / baseline: {base / ours:.2f} (target >= 0.70)")


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()

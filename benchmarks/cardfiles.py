"""Speed of reading card files at their limits: 30,000 cards of a published card database's
shape as JSON, CSV and an .xlsx spreadsheet, and a 20,000-row CSV through ``deckpress validate``.

For each format it times, on the same file, in the same run:

* **baseline**: the bare parser and nothing else: :func:`json.loads`, :mod:`csv`'s reader into a
  list of rows, openpyxl's read-only rows as values;
* **deckpress reads**: :func:`deckpress.generator.content.cardfiles.load_card_file`, as a deck's
  file is read: the gate (size checked first), the strict parse, the limits (depth, values,
  refused characters), the records with every value's place kept for errors;
* **deckpress checks**: :func:`deckpress.generator.content.check_game`, the whole content check
  of the game: reading, every card against the deck's own JSON Schema, the card checks.

Then ``deckpress validate`` and ``deckpress build`` of the starter game (``deckpress init``) with a
CSV of 20,000 rows, the most a file held by default until its limit was raised to 50,000, each a
command in a child process: CPU seconds (a shared machine's other work counts for nothing), wall
time and peak memory, against the bound of 10 s and 2 GB and the start-up every command pays
(validate lays out every card, to check that its text fits, but makes no PDF).

Target: 30,000 cards read and checked in seconds, within a small multiple of the bare parser.
Usage: ``python benchmarks/cardfiles.py [--cards 30000] [--rows 20000] [--no-validate]``.
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from deckpress.generator.content import check_game
from deckpress.generator.content.cardfiles import load_card_file

FACTIONS = ["anarch", "criminal", "shaper", "haas-bioroid", "jinteki", "nbn", "weyland-consortium", "neutral-runner"]
TYPES = ["event", "hardware", "program", "resource", "agenda", "asset", "ice", "operation", "upgrade", "identity"]
WORDS = ["install", "gain", "credit", "click", "trash", "the", "top", "card", "of", "R&D", "runner", "corp", "access", "server", "subroutine", "end", "the", "run", "draw", "advance", "agenda", "virus", "counter", "host", "program", "install", "cost", "reduce"]


def card(n: int, rng: random.Random) -> dict:
    """A record of the shape a collectible card game's community database publishes."""
    record = {
        "code": f"{n:05d}", "title": " ".join(rng.choice(WORDS).capitalize() for _ in range(rng.randint(1, 3))) + f" {n}",
        "type_code": rng.choice(TYPES), "faction_code": rng.choice(FACTIONS), "faction_cost": rng.randint(0, 5),
        "cost": rng.choice([None, *range(10)]), "text": " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 40))) + ".",
        "keywords": rng.choice(["", "Barrier", "Code Gate", "Sentry", "Icebreaker - Fracter", "Virus"]),
        "quantity": rng.randint(1, 3), "deck_limit": 3, "uniqueness": rng.random() < 0.2, "illustrator": "A. Artist",
        "flavor": rng.choice([None, "\"It was never about the money.\""]), "pack_code": f"p{n // 100:03d}", "position": n % 100 + 1,
    }
    return {k: v for k, v in record.items() if v is not None}


SCHEMA = {
    "type": "object",
    "properties": {"code": {"type": ["string", "integer"]}, "title": {"type": "string", "maxLength": 200}, "type_code": {"enum": TYPES},
                   "faction_code": {"enum": FACTIONS}, "cost": {"type": "integer", "minimum": 0}, "text": {"type": "string"},
                   "quantity": {"type": "integer", "minimum": 1, "maximum": 3}, "uniqueness": {"type": "boolean"}},
    "required": ["code", "title", "type_code", "text", "quantity"],
}

CSV_FIELDS = ["code", "title", "type_code", "faction_code", "faction_cost", "text", "keywords", "quantity", "illustrator", "pack_code", "position"]


def game(folder: Path, file: str, cards: int) -> None:
    """A game folder whose one deck is ``file`` (of ``cards`` cards), checked by :data:`SCHEMA`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "card.schema.json").write_text(json.dumps(SCHEMA))
    (folder / "game.yaml").write_text(
        "id: bench\ntitle: Bench\ncard_sizes:\n  poker: {width_mm: 63, height_mm: 88}\n"
        f"decks:\n  - {{id: cards, name: Cards, file: {file}, schema: card.schema.json, layout: card, card_size: poker"
        + (", path: data" if file.endswith(".json") else "") + f", limits: {{cards: {max(cards, 50_000)}}}}}\n")
    (folder / "layout.yaml").write_text(
        "cards:\n  card:\n    trim: {width_mm: 63, height_mm: 88}\n    bleed_mm: 3\n    safe_mm: 3\n"
        "    face:\n      - {type: text, x_mm: 4, y_mm: 4, w_mm: 55, h_mm: 10, text: '{title}', font_pt: 10, min_font_pt: 4}\n"
        "    back:\n      - {type: rect, x_mm: 0, y_mm: 0, w_mm: 63, h_mm: 88, fill: '#2e294e', bleed: true}\n")


def timed(run, repeat: int = 3) -> float:
    """The best of ``repeat`` runs of ``run()``, in s."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def row(label: str, seconds: float, cards: int, base: float | None = None) -> None:
    ratio = f"  ({seconds / base:4.1f} x the bare parser)" if base else ""
    print(f"  {label:<38} {seconds:6.2f} s  {cards / seconds:9,.0f} cards/s{ratio}")


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=30_000)
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--no-validate", action="store_true", help="leave out the deckpress validate run")
    parser.add_argument("--no-xlsx", action="store_true", help="leave out the spreadsheet (writing it takes a while)")
    args = parser.parse_args()
    rng = random.Random(1)
    records = [card(n, rng) for n in range(1, args.cards + 1)]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        # JSON: a database's records under "data"
        game(root / "json", "cards.json", args.cards)
        text = json.dumps({"data": records, "version_number": "2.0"}, indent=1)
        (root / "json" / "cards.json").write_text(text)
        print(f"{args.cards:,} cards as JSON ({len(text) / 1e6:.1f} MB), as CSV and as .xlsx; best of 3 runs")
        deck = {"path": "data", "limits": {"cards": max(args.cards, 50_000)}}
        base = timed(lambda: json.loads((root / "json" / "cards.json").read_text()))
        row("JSON baseline: json.loads", base, args.cards)
        row("JSON deckpress reads", timed(lambda: load_card_file(root / "json" / "cards.json", "cards.json", root / "json", deck)), args.cards, base)
        row("JSON deckpress checks (check_game)", timed(lambda: _checked(root / "json")), args.cards, base)
        # CSV: the same cards, their plain fields
        game(root / "csv", "cards.csv", args.cards)
        buf = io.StringIO()
        writer = csv.DictWriter(buf, CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)
        (root / "csv" / "cards.csv").write_text(buf.getvalue())
        base = timed(lambda: list(csv.reader(io.StringIO((root / "csv" / "cards.csv").read_text(), newline=""))))
        row("CSV baseline: csv.reader", base, args.cards)
        csv_deck = {"limits": {"cards": max(args.cards, 50_000)}}
        row("CSV deckpress reads", timed(lambda: load_card_file(root / "csv" / "cards.csv", "cards.csv", root / "csv", csv_deck)), args.cards, base)
        row("CSV deckpress checks (check_game)", timed(lambda: _checked(root / "csv")), args.cards, base)
        if not args.no_xlsx:
            _xlsx(root, records, args.cards)
        if not args.no_validate:
            _validate(root, args.rows)


def _checked(folder: Path) -> None:
    content, errors = check_game(folder)
    assert content is not None, errors[:3]


def _xlsx(root: Path, records: list[dict], cards: int) -> None:
    import openpyxl

    game(root / "xlsx", "cards.xlsx", cards)
    workbook = openpyxl.Workbook(write_only=True)
    sheet = workbook.create_sheet("Cards")
    sheet.append(CSV_FIELDS)
    for record in records:
        sheet.append([record.get(f) for f in CSV_FIELDS])
    workbook.save(root / "xlsx" / "cards.xlsx")

    def bare() -> None:
        book = openpyxl.load_workbook(root / "xlsx" / "cards.xlsx", read_only=True)
        list(book["Cards"].iter_rows(values_only=True))
        book.close()

    base = timed(bare, 1)
    row("xlsx baseline: openpyxl read-only rows", base, cards)
    deck = {"limits": {"cards": max(cards, 50_000)}}
    row("xlsx deckpress reads", timed(lambda: load_card_file(root / "xlsx" / "cards.xlsx", "cards.xlsx", root / "xlsx", deck), 1), cards, base)


def _validate(root: Path, rows: int) -> None:
    """``deckpress validate`` and ``deckpress build`` of the starter game with ``rows`` rows, each in
    a child process, against the bound a file at its limit must meet (10 s, 2 GB) and, as the
    baseline of the same run, the command's start-up (``deckpress --help``)."""
    folder = root / "starter"
    deckpress = [sys.executable, "-c", "from deckpress.generator.cli import main; main()"]
    subprocess.run([*deckpress, "init", str(folder)], check=True, capture_output=True)
    lines = ["id,title,text,colour,value,copies"] + [f"c{n},Card {n},Draw {n % 7} cards.,#d1495b,{n % 99},1" for n in range(rows)]
    (folder / "cards.csv").write_text("\n".join(lines) + "\n")
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("copies: copies", "copies: copies\n    limits: {cards: 50000}"))
    print(f"the starter game (deckpress init), CSV of {rows:,} rows ({(folder / 'cards.csv').stat().st_size / 1e3:.0f} kB), "
          "each command a child process; bound: 10 s and 2 GB")
    for label, args in (("deckpress --help (start-up, baseline)", ["--help"]), ("deckpress validate", ["validate", str(folder)]),
                        ("deckpress build", ["build", str(folder), "--out", str(root / "out")])):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run([*deckpress, *args], capture_output=True, text=True, check=False)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        said = (done.stdout.strip() or done.stderr.strip()).splitlines()
        print(f"  {label:<38} {cpu:6.2f} s CPU  {wall:6.2f} s wall  peak so far {after.ru_maxrss / 1024:,.0f} MiB"
              f"  ({said[-1][:100] if said else ''})")

if __name__ == "__main__":
    main()

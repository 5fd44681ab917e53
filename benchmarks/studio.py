"""Speed of ``deckpress studio``'s live view: from saving a one-card change to the new
image being served, on a temporary copy of Mission Emission (54 cards, faces and backs).

It starts the studio with its file watcher as ``deckpress studio`` does, listens to the page's
event stream, edits one state card's name in ``states.yaml`` and times, for each of ``--edits``
edits:

* **studio**: from the file written to the card's new PNG fetched over HTTP (watcher, reload,
  validation, the one card drawn through the export path, the event, the image request);
* **baseline**, in the same run: everything drawn again after each save, as a save-build-look
  loop does (``deckpress export --to png``'s drawing of every card at the same dpi, no files).

Target: under one second from save to image for a one-card change on this machine.
Usage: ``python benchmarks/studio.py [--edits 5] [--dpi 150]``.
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from deckpress.generator.content import check_game
from deckpress.generator.export.images import rasterise
from deckpress.generator.kit.adapters import kit_module
from deckpress.generator.paths import CONTENT_DIR
from deckpress.generator.render.kit import drawn_as
from deckpress.generator.render.oneup import one_up_pdf
from deckpress.generator.studio.app import Studio
from deckpress.generator.studio.server import running

TARGET_S = 1.0


class Events:
    """The studio's server-sent events, read in a thread: each ``cards`` event's data, with the
    monotonic time it arrived."""

    def __init__(self, url: str, secret: str):
        self.received: list[tuple[float, dict]] = []
        self._stream = urllib.request.urlopen(urllib.request.Request(url + "events", headers={"Authorization": f"token {secret}"}), timeout=120)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        kind = None
        for raw in self._stream:
            line = raw.decode("utf-8").rstrip("\n")
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: ") and kind == "cards":
                self.received.append((time.monotonic(), json.loads(line[6:])))

    def after(self, count: int, timeout: float = 60.0) -> dict:
        """The event number ``count`` (1-based), waiting for it."""
        deadline = time.monotonic() + timeout
        while len(self.received) < count:
            if time.monotonic() > deadline:
                raise SystemExit("no event from the studio within a minute: is the watcher running?")
            time.sleep(0.002)
        return self.received[count - 1][1]


def studio_edits(folder: Path, edits: int, dpi: int) -> list[float]:
    """Seconds from each save to the edited card's new image fetched over HTTP."""
    studio = Studio(folder, dpi=dpi)
    states = folder / "states.yaml"
    text = states.read_text(encoding="utf-8")
    times = []
    with running(studio) as url:
        events = Events(url, studio.secret)
        time.sleep(0.5)  # the watcher is watching
        goa = next(c for c in studio.catalogue.cards if c.card_id == "goa" and c.side == "face")
        for n in range(1, edits + 1):
            started = time.monotonic()
            states.write_text(text.replace("name: Goa", f"name: Goa {n}", 1), encoding="utf-8")
            event = events.after(n)
            if goa.token not in event["changed"]:
                raise SystemExit(f"edit {n}: the event did not name Goa's card: {event}")
            card = urllib.request.Request(f"{url}card/{goa.token}.png?v={n}", headers={"Authorization": f"token {studio.secret}"})
            with urllib.request.urlopen(card) as response:
                response.read()
            times.append(time.monotonic() - started)
    return times


def full_redraws(folder: Path, edits: int, dpi: int) -> list[float]:
    """Seconds to validate and draw every card again, as many times (the baseline)."""
    times = []
    for _ in range(edits):
        started = time.monotonic()
        content, errors = check_game(folder)
        assert content is not None, errors  # a shipped game: clean content
        decks = kit_module(content.game_id).decks(content)
        pdf, pages = one_up_pdf(content.documents["layout"], decks, **drawn_as(content))
        for _page, image in rasterise(pdf, pages, dpi):
            image.tobytes()
        times.append(time.monotonic() - started)
    return times


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--dpi", type=int, default=150)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "me"
        shutil.copytree(CONTENT_DIR / "mission-emission", folder)
        live = studio_edits(folder, args.edits, args.dpi)
        shutil.rmtree(folder)
        shutil.copytree(CONTENT_DIR / "mission-emission", folder)
        whole = full_redraws(folder, args.edits, args.dpi)
    print(f"Mission Emission, one state card's name edited {args.edits} times, {args.dpi} dpi:")
    print(f"  studio: save to new image served   median {statistics.median(live):6.3f} s   worst {max(live):6.3f} s")
    print(f"  baseline: every card drawn again   median {statistics.median(whole):6.3f} s   worst {max(whole):6.3f} s")
    mark = "ok" if max(live) < TARGET_S else "OVER TARGET"
    print(f"  {statistics.median(whole) / statistics.median(live):.1f}x faster than drawing everything; "
          f"worst case {mark} (target under {TARGET_S:g} s)")


if __name__ == "__main__":
    main()

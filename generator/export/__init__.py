"""Exports for print services and online play: per-card images, one-up PDFs, Tabletop Simulator
decks (``deckpress export``).  Every image is a rasterised page of the one-up PDF
(:mod:`deckpress.generator.render.oneup`), so exports and sheets share one drawing path.

Print services' templates for poker-size cards (2.5 x 3.5 in, 63.5 x 88.9 mm), as published:

* **The Game Crafter**, poker deck: 825 x 1125 px at 300 dpi, the card plus 1/8 in (37.5 px)
  of bleed on each side (TGC's poker-deck PNG template, as quoted in issue 11; its product page
  was not reachable from this project's machine).
* **MakePlayingCards**, poker size: 822 x 1122 px at 300 dpi, 36 px of bleed on each side
  (MPC's image guide as quoted by public projects that target it, for example the README of
  the card-printing packages found by this project's code search, 2026; checked against TGC's
  1/8 in: MPC's bleed is 3.048 mm, not 3.175).
* **DriveThruCards**, US poker: a PDF page of 2.75 x 3.75 in, the card plus 1/8 in of bleed on
  every side, text at least 1/8 in inside the trim (OneBookShelf publisher help, "Common Card
  Prep Issues & Solutions", onebookshelfpublisherservice.zendesk.com, article 227867607).
  DriveThruCards also asks for PDF/X-1a:2003, which reportlab cannot write: convert the one-up
  PDF with a prepress tool before upload (README, "Print services").

A card kind near poker size (within 1 mm of 63 x 88 mm or 63.5 x 88.9 mm) goes onto the
service's canvas, centred, its bleed drawn out to fill it; every other kind (round cards,
chips, vote cards, the officer strip) is exported at its own trim plus its own bleed, at the
service's resolution.
"""
from __future__ import annotations

from dataclasses import dataclass

MM_PER_INCH = 25.4


@dataclass(frozen=True)
class Service:
    """A print service's template for poker-size cards: the trim (width, height) and the bleed on
    each side, in mm; the resolution its images are at (dpi); where the figures come from."""

    id: str
    name: str
    trim_mm: tuple[float, float]
    bleed_mm: float
    dpi: int
    source: str

    @property
    def canvas_mm(self) -> tuple[float, float]:
        """Trim plus bleed, mm."""
        return (self.trim_mm[0] + 2 * self.bleed_mm, self.trim_mm[1] + 2 * self.bleed_mm)

    def canvas_px(self) -> tuple[int, int]:
        """The canvas in pixels at :attr:`dpi`."""
        return tuple(round(v / MM_PER_INCH * self.dpi) for v in self.canvas_mm)


#: US poker size, 2.5 x 3.5 in.
US_POKER_MM = (2.5 * MM_PER_INCH, 3.5 * MM_PER_INCH)

#: Print services, by id.
SERVICES: dict[str, Service] = {
    "tgc": Service("tgc", "The Game Crafter", US_POKER_MM, MM_PER_INCH / 8, 300, "TGC poker-deck template: 825 x 1125 px at 300 dpi"),
    "mpc": Service("mpc", "MakePlayingCards", US_POKER_MM, 36 / 300 * MM_PER_INCH, 300, "MPC poker size: 822 x 1122 px at 300 dpi, 36 px bleed"),
    "dtc": Service("dtc", "DriveThruCards", US_POKER_MM, MM_PER_INCH / 8, 300, "OneBookShelf card prep: 2.75 x 3.75 in PDF page for US poker"),
}

#: Card sizes (mm) treated as poker size, fitted onto a service's template.
POKER_SIZES_MM = ((63.0, 88.0), US_POKER_MM)


def service_template(service: Service | None, trim_mm: tuple[float, float]) -> tuple[tuple[float, float], float] | None:
    """The (trim, bleed) in mm a card of ``trim_mm`` is placed in for ``service``: the service's
    poker template for a poker-size card, else None (the card's own trim and bleed)."""
    if service is None:
        return None
    w, h = trim_mm
    near = any(abs(w - pw) <= 1 and abs(h - ph) <= 1 for pw, ph in POKER_SIZES_MM)
    return (service.trim_mm, service.bleed_mm) if near else None

"""Exports for print services and online play: per-card images, one-up PDFs, Tabletop Simulator
decks (``deckpress export``).  Every image is a rasterised page of the one-up PDF
(:mod:`deckpress.generator.render.oneup`), so exports and sheets share one drawing path.

Print services' templates, as published (trim + bleed on each side, at 300 dpi):

* **The Game Crafter** (TGC).  The figures are TGC's own: its product API
  (``GET https://www.thegamecrafter.com/api/tgc/products``, each product's ``size.pixels`` and
  ``size.finished_inches``) as saved by the open-source tool Templative, github.com/templative/
  templative, ``utility/products.json``, commit 47e04c8da7c7061f1e48da567469ee8cddc767bc,
  2024-01-30 (second-hand: a copy of the service's answer, not the service itself).
  Every product there is its finished size plus 1/8 in (37.5 px) of bleed on each side:

  - *Poker Deck*: 2.5 x 3.5 in, 825 x 1125 px.
  - *Large Circle Chit* and *Large Square Chit* (punchouts): 1 x 1 in, 375 x 375 px; the same
    375 x 375 px for a 1 in chit in Templative's own table, github.com/templative/
    templative-electron, ``src/components/Create/componentInfo.json``, commit
    30cdc2a254187328f0708b6c31d1af11ab7ce298 (second-hand).  TGC's forum confirms the art must
    run at least 1/8 in past a chit's cut line (community.thegamecrafter.com, "Chit layout",
    2017, a member's answer: second-hand).
  - *Circle Deck* and *Square Deck*: 3.5 in across, 1125 x 1125 px.
  - *Mini Deck*: 1.75 x 2.5 in, 600 x 825 px.

* **MakePlayingCards** (MPC).  The figures are MPC's design editor's own parameters for each
  product (its page's ``UnpickInfo`` and ``PixelInfo``, in hundredths of an inch: the scraper
  checks the editor's pixels are these x dpi / 100) as scraped from makeplayingcards.com's "blank playing cards" pages by
  github.com/North101/mpc_api, ``data_scraper.py`` into ``src/data/unit.json``, commit
  a14edb7a9194f7e953f9213c56415c1f5ecb289f, 2025-01-07 (the same figures in North101/
  mpc_project_helper, 2023-07-31; second-hand).  Every product there has 0.12 in (36 px) of
  bleed on each side, not 1/8 in: 3.048 mm, not 3.175:

  - *Blank Poker Cards (63.5 x 88.9 mm)*: 2.50 x 3.50 in, 822 x 1122 px (the size MPC's image
    FAQ gives too, as quoted by the card-printing projects this project's code search found).
  - *Custom Circle Game Cards* and *Blank Square Cards (89 x 89 mm)*: 3.50 in across,
    1122 x 1122 px.
  - *Blank Mini European Cards (44 x 67 mm)*: 1.73 x 2.64 in, 591 x 864 px.

* **DriveThruCards**, US poker: a PDF page of 2.75 x 3.75 in, the card plus 1/8 in of bleed on
  every side, text at least 1/8 in inside the trim (OneBookShelf publisher help, "Common Card
  Prep Issues & Solutions", onebookshelfpublisherservice.zendesk.com, article 227867607).
  DriveThruCards also asks for PDF/X-1a:2003, which reportlab cannot write (``--cmyk`` gives
  its CMYK colours and output intent, not the rest): convert the one-up PDF with a prepress tool
  before upload (docs/printing.md, "Print services and online play").  The order it wants a
  one-up PDF's faces and backs in was not in any source reached (searched 2026-11: the
  publisher help above, stored pages, code): deckpress writes each card's face, then its back,
  and says so; check the order on DriveThruCards' upload step.

Which template a card goes onto (:func:`template_for`): a card near poker size (within 1 mm of
63 x 88 mm or 63.5 x 88.9 mm) goes onto the service's poker template; any other card onto a
template whose trim is as large as the card's (but for the services' rounding, 0.1 mm) and at
most 1 mm larger on each side's length (:data:`FIT_MM`), its shape the card's where the shape is known (the export passes only the
trim today; each service's round and square products of one size share one canvas, so the
pixels are the same either way).  The card is centred on the template's canvas, its bleed
drawn out to fill it, never scaled.  So, of the shipped games:

* Geheime Mission's 25 mm round chips go onto TGC's 1 in Large Circle Chit (375 x 375 px).
* 50 Missions' round mission cards (80 mm) do not: the only round cards found for either
  service are 3.5 in (88.9 mm) across, 8.9 mm more; the printed card would be 88.9 mm around
  an 80 mm design, a band of 4.45 mm of drawn-out background beyond its rim: a new layout,
  not a fit.
* Maybe Missions' vote cards (44 x 67 mm) go onto MPC's Mini European cards (591 x 864 px),
  named for that size, whose editor trim (1.73 x 2.64 in: 43.94 x 67.06 mm) is 0.06 mm
  narrower than the card: within :data:`~deckpress.generator.render.oneup.ROUNDING_MM`, the
  services' rounding, so the cut falls 0.03 mm inside the card's edges.  Not at TGC: its Mini
  Deck (44.45 x 63.5 mm) is shorter than the card.
* Geheime Mission's officer strip (40 x 100 mm): no published template near its size was
  found at any of the three; nor a chip template at MPC or DriveThruCards.

These keep their own trim plus their own bleed, at the service's resolution.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deckpress.generator.render.oneup import Page

MM_PER_INCH = 25.4

#: How much larger (mm) than a card's trim, on each side's length, a template's trim may be
#: for the card to go onto it: at most 0.5 mm of drawn-out background beyond each edge, well
#: inside the cards' own 2-3 mm bleed, so nothing of the card's layout changes.
FIT_MM = 1.0
#: Sizes compare to a millionth of a mm (2.5 in is 63.5 mm, 3.5 in 88.89999999999999 in floats).
_EPS_MM = 1e-6


@dataclass(frozen=True)
class Template:
    """One product a print service publishes a template for: its name, its trim (width,
    height) and the bleed on each side in mm, its cut shape (``rect`` or ``circle``), the
    pixel size the service publishes for it at 300 dpi, and where the figures come from."""

    product: str
    trim_mm: tuple[float, float]
    bleed_mm: float
    shape: str
    published_px: tuple[int, int]
    source: str

    @property
    def canvas_mm(self) -> tuple[float, float]:
        """Trim plus bleed, mm."""
        return (self.trim_mm[0] + 2 * self.bleed_mm, self.trim_mm[1] + 2 * self.bleed_mm)

    def canvas_px(self, dpi: int = 300) -> tuple[int, int]:
        """The canvas in pixels at ``dpi``."""
        width, height = self.canvas_mm
        return (round(width / MM_PER_INCH * dpi), round(height / MM_PER_INCH * dpi))

    def fits(self, trim_mm: tuple[float, float], shape: str | None = None) -> bool:
        """True if a card of ``trim_mm`` (and ``shape``, where known) goes onto this template:
        the template's trim is at least the card's on both sides (but for the services' rounding,
        :data:`~deckpress.generator.render.oneup.ROUNDING_MM`) and at most :data:`FIT_MM` larger."""
        if shape is not None and shape != self.shape:
            return False
        from deckpress.generator.render.oneup import ROUNDING_MM

        return all(-ROUNDING_MM - _EPS_MM <= t - c <= FIT_MM + _EPS_MM for t, c in zip(self.trim_mm, trim_mm, strict=True))


def _inches(width: float, height: float) -> tuple[float, float]:
    """A (width, height) in inches to mm, rounded to a millionth of a mm (3.5 in is 88.9 mm, not
    88.89999999999999)."""
    return (round(width * MM_PER_INCH, 6), round(height * MM_PER_INCH, 6))


#: TGC's bleed, 1/8 in; MPC's, 0.12 in (36 px at 300 dpi).
TGC_BLEED_MM = MM_PER_INCH / 8
MPC_BLEED_MM = 36 / 300 * MM_PER_INCH

_TGC_API = "TGC product API (api/tgc/products), as saved by templative/templative utility/products.json @47e04c8, 2024-01-30; second-hand"
_MPC_EDITOR = "MPC design editor's parameters, as scraped by North101/mpc_api src/data/unit.json @a14edb7, 2025-01-07; second-hand"


@dataclass(frozen=True)
class Service:
    """A print service: its template for poker-size cards (the trim (width, height) and the
    bleed on each side, in mm), the resolution its images are at (dpi), where the poker figures
    come from, and its templates for other sizes (``others``)."""

    id: str
    name: str
    trim_mm: tuple[float, float]
    bleed_mm: float
    dpi: int
    source: str
    others: tuple[Template, ...] = ()

    @property
    def canvas_mm(self) -> tuple[float, float]:
        """Trim plus bleed of the poker template, mm."""
        return (self.trim_mm[0] + 2 * self.bleed_mm, self.trim_mm[1] + 2 * self.bleed_mm)

    def canvas_px(self) -> tuple[int, int]:
        """The poker template's canvas in pixels at :attr:`dpi`."""
        width, height = self.canvas_mm
        return (round(width / MM_PER_INCH * self.dpi), round(height / MM_PER_INCH * self.dpi))

    @property
    def poker(self) -> Template:
        """The poker template, as a :class:`Template`."""
        return Template("poker", self.trim_mm, self.bleed_mm, "rect", self.canvas_px(), self.source)

    @property
    def templates(self) -> tuple[Template, ...]:
        """Every template the service publishes that deckpress knows: poker first."""
        return (self.poker, *self.others)


#: US poker size, 2.5 x 3.5 in.
US_POKER_MM = _inches(2.5, 3.5)

#: Print services, by id.
SERVICES: dict[str, Service] = {
    "tgc": Service("tgc", "The Game Crafter", US_POKER_MM, TGC_BLEED_MM, 300,
                   f"TGC poker deck: 825 x 1125 px at 300 dpi ({_TGC_API})", others=(
                       Template("Large Circle Chit", _inches(1, 1), TGC_BLEED_MM, "circle", (375, 375), _TGC_API),
                       Template("Large Square Chit", _inches(1, 1), TGC_BLEED_MM, "rect", (375, 375), _TGC_API),
                       Template("Circle Deck", _inches(3.5, 3.5), TGC_BLEED_MM, "circle", (1125, 1125), _TGC_API),
                       Template("Square Deck", _inches(3.5, 3.5), TGC_BLEED_MM, "rect", (1125, 1125), _TGC_API),
                       Template("Mini Deck", _inches(1.75, 2.5), TGC_BLEED_MM, "rect", (600, 825), _TGC_API),
                   )),
    "mpc": Service("mpc", "MakePlayingCards", US_POKER_MM, MPC_BLEED_MM, 300,
                   f"MPC poker size: 822 x 1122 px at 300 dpi, 36 px bleed ({_MPC_EDITOR})", others=(
                       Template("Custom Circle Game Cards", _inches(3.5, 3.5), MPC_BLEED_MM, "circle", (1122, 1122), _MPC_EDITOR),
                       Template("Blank Square Cards (89 x 89 mm)", _inches(3.5, 3.5), MPC_BLEED_MM, "rect", (1122, 1122), _MPC_EDITOR),
                       Template("Blank Mini European Cards (44 x 67 mm)", _inches(1.73, 2.64), MPC_BLEED_MM, "rect", (591, 864), _MPC_EDITOR),
                   )),
    "dtc": Service("dtc", "DriveThruCards", US_POKER_MM, MM_PER_INCH / 8, 300, "OneBookShelf card prep: 2.75 x 3.75 in PDF page for US poker"),
}

#: Card sizes (mm) treated as poker size, fitted onto a service's template.
POKER_SIZES_MM = ((63.0, 88.0), US_POKER_MM)


def template_for(service: Service | None, trim_mm: tuple[float, float], shape: str | None = None) -> Template | None:
    """The template of ``service`` a card of ``trim_mm`` (and ``shape``, where known) is placed
    on: the poker template for a card within 1 mm of poker size, else the first of the
    service's other templates the card fits (:meth:`Template.fits`), else None (the card keeps
    its own trim and bleed).  A template smaller than the card is never chosen."""
    if service is None:
        return None
    w, h = trim_mm
    if any(abs(w - pw) <= 1 and abs(h - ph) <= 1 for pw, ph in POKER_SIZES_MM):
        poker = service.poker
        return poker if poker.trim_mm[0] >= w - _EPS_MM and poker.trim_mm[1] >= h - _EPS_MM else None
    return next((t for t in service.others if t.fits(trim_mm, shape)), None)


def service_template(service: Service | None, trim_mm: tuple[float, float], shape: str | None = None) -> tuple[tuple[float, float], float] | None:
    """The (trim, bleed) in mm a card of ``trim_mm`` is placed in for ``service``
    (:func:`template_for`), or None: the card's own trim and bleed."""
    template = template_for(service, trim_mm, shape)
    return (template.trim_mm, template.bleed_mm) if template else None


def trim_of(page: Page) -> tuple[float, float]:
    """The card's trim (width, height) in mm on a one-up page: the page less the bleed around it
    (the card's own trim, also where a service's template is larger: the card is centred in it)."""
    left, right, top, bottom = page.bleed_mm
    return page.size_mm[0] - left - right, page.size_mm[1] - top - bottom


def kept_own_size(service: Service, pages: Iterable[Page]) -> list[str]:
    """One line for each card kind among ``pages`` (a one-up PDF's, in order) that goes onto none
    of ``service``'s templates (:func:`template_for`, given the trim alone, as the export places
    cards) and so keeps its own trim and bleed, for the export to say so before a user finds out
    at upload: ``tarot (70 x 120 mm): no The Game Crafter template as large as the card and at
    most 1 mm larger: it keeps its own trim and bleed``.  Sizes in mm."""
    trims: dict[str, tuple[float, float]] = {}
    for page in pages:
        trims.setdefault(page.kind, trim_of(page))
    return [f"{kind} ({w:g} x {h:g} mm): no {service.name} template as large as the card and at most {FIT_MM:g} mm larger: "
            "it keeps its own trim and bleed"
            for kind, (w, h) in trims.items() if template_for(service, (round(w, 6), round(h, 6))) is None]

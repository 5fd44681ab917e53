"""The icon set as printed: Maybe Missions' crossed icons (a FAIL side's -1) keep their whole shape
under a thin slash, read back from rendered pixels (else "the slash knocks out the coin's
diamond and the eye's pupil and turns the sword into a stub", so in greyscale or with
--ink-friendly the crossed icons told apart only by colour).

The geometry (where the row of icons and the slash lie, how wide the slash and its halo are) is
read from the shipped layout.yaml, so the tests follow the layout; what is asserted is what a
player sees on the rendered card."""
from __future__ import annotations

from itertools import combinations
from math import hypot

import pypdfium2
import pytest

from deckpress.generator.content import load_game
from deckpress.generator.kit.adapters.maybe_missions import SIDE_SLOTS, icon_row
from deckpress.generator.kit.printdata import Deck
from deckpress.generator.render.oneup import one_up_pdf

GAME = "maybe-missions"
RESOURCES = ("gold", "reputation", "weapons", "intelligence")
SCALE = 8  # 576 dpi
PX = SCALE * 72 / 25.4  # pixels per mm
PT = 25.4 / 72  # mm per pt

#: Details that make each resource's shape, in the icon's 100 x 100 box (y down, as in
#: generator/icons/maybe-missions.yaml), all clear of the slash's band: 'paper' where the icon is
#: cut out (the panel shows), 'ink' where it is painted.
DETAILS = {
    "gold": {"the diamond's upper half": ((50, 36), "paper"), "the diamond's lower half": ((50, 64), "paper"),
             "the ring's cut": ((50, 16), "paper"), "the rim": ((50, 8), "ink"), "the face beside the diamond": ((50, 24), "ink")},
    "reputation": {"the top point": ((50, 15), "ink"), "the left point": ((15, 42), "ink"),
                   "the lower right point": ((72, 85), "ink"), "the notch between the lower points": ((50, 85), "paper")},
    "weapons": {"the blade's groove": ((50, 30), "paper"), "the blade": ((44, 30), "ink"), "beside the blade": ((35, 30), "paper"),
                "the guard": ((72, 66), "ink"), "the pommel": ((50, 91), "ink")},
    "intelligence": {"the pupil, upper left": ((44, 40), "ink"), "the pupil, lower right": ((56, 60), "ink"),
                     "the pupil's highlight": ((43, 43), "paper"), "the iris ring": ((50, 33), "paper"),
                     "the eye's corner": ((20, 50), "ink"), "above the eye": ((50, 12), "paper")},
}


@pytest.fixture(scope="module")
def content():
    return load_game(GAME)


def _fail_side(content, icons: list[dict]):
    """A mission card's red FAIL side with ``icons`` (resource, crossed) in its row, rendered (RGB)."""
    card = {"id": "test", "source": "test", "title": "Test", "success_icons": icon_row(icons, SIDE_SLOTS),
            "fail_icons": icon_row(icons, SIDE_SLOTS)}
    pdf, pages = one_up_pdf(content.documents["layout"], [Deck("mission", "Test", [card])])
    assert pages[1].side == "back"
    return pypdfium2.PdfDocument(pdf)[1].render(scale=SCALE).to_pil().convert("RGB")


def _geometry(content, icons: list[dict]):
    """Where each icon of the FAIL side's row lies on the rendered page, in mm from the page's
    top-left: (x, y, size) per icon; the slash's segment relative to an icon's top-left; and the
    half-width of the band the slash and its halo cover (mm)."""
    layout = content.documents["layout"].data
    card = layout["cards"]["mission"]
    rows = next(e for e in card["back"] if e["type"] == "rows" and e["items"] == "fail_icons")
    icon = next(e for e in rows["elements"] if e["type"] == "icon")
    slashes = [e for e in rows["elements"] if e["type"] == "line" and e.get("when") == "crossed"]
    assert slashes, "the FAIL side's row draws no slash"
    bleed = card["bleed_mm"]
    boxes = []
    for i, item in enumerate(icon_row(icons, SIDE_SLOTS)):
        if item["show"]:
            boxes.append((bleed + rows["x_mm"] + i * rows.get("dx_mm", 0) + icon["x_mm"],
                          bleed + rows["y_mm"] + i * rows.get("dy_mm", 0) + icon["y_mm"], icon["size_mm"]))
    s = slashes[0]
    assert all((e["x1_mm"], e["y1_mm"], e["x2_mm"], e["y2_mm"]) == (s["x1_mm"], s["y1_mm"], s["x2_mm"], s["y2_mm"]) for e in slashes)
    segment = (s["x1_mm"] - icon["x_mm"], s["y1_mm"] - icon["y_mm"], s["x2_mm"] - icon["x_mm"], s["y2_mm"] - icon["y_mm"])
    return boxes, segment, max(e["stroke_pt"] for e in slashes) / 2 * PT


def _distance(px: float, py: float, seg: tuple[float, float, float, float]) -> float:
    x1, y1, x2, y2 = seg
    dx, dy = x2 - x1, y2 - y1
    t = max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / (dx * dx + dy * dy)))
    return hypot(px - (x1 + t * dx), py - (y1 + t * dy))


def _hex(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


@pytest.mark.parametrize("resource", RESOURCES)
def test_a_crossed_icon_is_drawn_whole_under_a_thin_slash(content, resource):
    plain = _fail_side(content, [{"resource": resource}])
    crossed = _fail_side(content, [{"resource": resource, "crossed": True}])
    [(x, y, size)], seg, half = _geometry(content, [{"resource": resource}])
    seg = (seg[0] + x, seg[1] + y, seg[2] + x, seg[3] + y)
    band = half + 2 / PX  # the slash and its halo, plus two pixels of anti-aliasing
    # The slash is thin: its band, halo included, is at most 1.5 mm wide on an icon over 11 mm.
    assert 2 * half <= 1.5, f"the slash and its halo are {2 * half:.2f} mm wide"

    # Outside the band the crossed icon is the plain icon, pixel for pixel.
    differ, ink, ink_kept = [], 0, 0
    for j in range(round((y - 1.5) * PX), round((y + size + 1.5) * PX)):
        for i in range(round((x - 1.5) * PX), round((x + size + 1.5) * PX)):
            near = _distance((i + 0.5) / PX, (j + 0.5) / PX, seg) <= band
            before, after = plain.getpixel((i, j)), crossed.getpixel((i, j))
            if not near and max(abs(a - b) for a, b in zip(before, after)) > 2:
                differ.append((round(i / PX - x, 2), round(j / PX - y, 2)))
            if min(before) < 200:  # the icon's paint
                ink += 1
                ink_kept += not near
    assert not differ, f"{len(differ)} pixels away from the slash changed, e.g. at {differ[:5]} mm from the icon's corner"
    # ... and the band hides little of the icon: most of its paint prints as if it were not crossed.
    assert ink_kept / ink >= 0.7, f"only {ink_kept / ink:.0%} of the icon's paint is left untouched by the slash"

    # The slash is there: dark all along its middle.
    x1, y1, x2, y2 = seg
    along = [(x1 + (x2 - x1) * t / 40, y1 + (y2 - y1) * t / 40) for t in range(1, 40)]
    light = [(round(px - x, 2), round(py - y, 2)) for px, py in along if min(crossed.getpixel((round(px * PX), round(py * PX)))) > 60]
    assert not light, f"the slash is not dark at {light} mm from the icon's corner"

    # The details that tell the icon apart are printed: the coin's diamond, the eye's pupil, ...
    colour = _hex(content.documents["layout"].data["palette"][resource])
    for name, ((u, v), expect) in DETAILS[resource].items():
        px, py = x + u / 100 * size, y + v / 100 * size
        assert _distance(px, py, seg) > band, f"{resource}: {name} lies under the slash (the test's point is wrong)"
        pixel = crossed.getpixel((round(px * PX), round(py * PX)))
        if expect == "paper":
            assert min(pixel) > 230, f"{resource}: {name} is not cut out of the icon: {pixel}"
        else:
            assert max(abs(a - b) for a, b in zip(pixel, colour)) <= 40, f"{resource}: {name} is not painted {colour}: {pixel}"


def test_the_four_crossed_icons_differ_in_greyscale(content):
    # A FAIL side with all four resources crossed, in greyscale (as printed in black and white):
    # each crossed icon still looks like its plain self, and the four differ from each other.
    crossed_icons = [{"resource": r, "crossed": True} for r in RESOURCES]
    boxes, _, _ = _geometry(content, crossed_icons)

    def masks(icons):
        grey = _fail_side(content, icons).convert("L")
        out = {}
        for resource, (x, y, size) in zip(RESOURCES, boxes):
            crop = grey.crop(tuple(round(v * PX) for v in (x, y, x + size, y + size)))
            out[resource] = [p < 200 for p in crop.tobytes()]
        return out

    crossed, plain = masks(crossed_icons), masks([{"resource": r} for r in RESOURCES])
    for resource in RESOURCES:
        same = sum(p == q for p, q in zip(crossed[resource], plain[resource])) / len(plain[resource])
        assert same >= 0.9, f"crossed {resource} matches the plain {resource} in only {same:.0%} of its box in greyscale"
    for a, b in combinations(RESOURCES, 2):
        differ = sum(p != q for p, q in zip(crossed[a], crossed[b])) / len(crossed[a])
        assert differ > 0.2, f"crossed {a} and {b} differ in only {differ:.0%} of their pixels in greyscale"

"""The 50 Missions print-and-play kit, read back: pages and sizes, every mission text in the PDF,
values on the symbol cards, round missions with their cut circle and bleeding art measured on a
rendered sheet, text inside the circle's safe area, symbols that differ without colour, and a
mission added by hand printed."""
from collections import Counter
from math import floor, hypot

import pypdfium2
import pytest
from conftest import edit
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth

from deckpress.generator.content import load_game
from deckpress.generator.kit.adapters.fifty_missions import decks
from deckpress.generator.kit.imposition import PAPERS, grid
from deckpress.generator.render import fonts
from deckpress.generator.render.kit import PrintOptions, build_kit

MM = 72 / 25.4
ROUND = grid("a4", (80, 80), 3)  # 2 x 3 round cards of 80 mm per A4 sheet
POKER = grid("a4", (63, 88), 3)  # 3 x 3 symbol cards
COVER_PAGES = 2  # the cover and its blank back
SYMBOL_SHEETS, ROUND_SHEETS = 7, 9  # 56 / 9 and (50 missions + 3 medals) / 6, rounded up
RIM = (0x86, 0xAA, 0xBB)  # layout.yaml palette mission-rim
PANEL = (0xF7, 0xF2, 0xE4)  # layout.yaml palette panel


@pytest.fixture(scope="module")
def content():
    return load_game("fifty-missions")


@pytest.fixture(scope="module")
def pdf(content, tmp_path_factory):
    path = tmp_path_factory.mktemp("kit") / "fifty-missions.pdf"
    path.write_bytes(build_kit(content, PrintOptions(paper="a4")))
    return path


def symbol_face_pages():
    return [COVER_PAGES + 2 * i for i in range(SYMBOL_SHEETS)]


def symbol_grid(page: int):
    """The grid of a sheet of symbol faces: the last sheet holds the 2 cards left, on a grid of
    just the cells they need."""
    last = COVER_PAGES + 2 * (SYMBOL_SHEETS - 1)
    return grid("a4", (63, 88), 3, cards=56 - 9 * (SYMBOL_SHEETS - 1)) if page == last else POKER


def round_face_pages():
    return [COVER_PAGES + 2 * SYMBOL_SHEETS + 2 * i for i in range(ROUND_SHEETS)]


FONT_NAMES = {"Lato-Regular": "Lato", "Lato-Bold": "Lato-Bold"}  # embedded name -> registered name


def card_runs(page, g) -> list[tuple[int, str, float, float, str, float]]:
    """Text runs on the cards of a sheet laid out on grid ``g`` (the sheet's label in the margin
    left out): (slot index, text, x mm, baseline y mm from the top, font, size pt)."""
    found = []
    height = float(page.mediabox.height)
    (x0, y0), (w, h) = g.origin_mm, g.card_mm

    def visit(text, cm, tm, font, size):
        x, y = (tm[4] * cm[0] + cm[4]) / MM, (height - (tm[5] * cm[3] + cm[5])) / MM
        col, row = floor((x - x0) / w), floor((y - y0) / h)
        if text.strip() and 0 <= col < g.cols and 0 <= row < g.rows:
            found.append((row * g.cols + col, text.strip(), x, y, FONT_NAMES[str(font["/BaseFont"]).split("+")[-1]], size))

    page.extract_text(visitor_text=visit)
    return found


@pytest.mark.slow
def test_pages_and_page_size(pdf):
    reader = PdfReader(pdf)
    assert len(reader.pages) == COVER_PAGES + 2 * (SYMBOL_SHEETS + ROUND_SHEETS)
    w, h = PAPERS["a4"]
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx((w * MM, h * MM), abs=0.01)


def test_cover_has_the_checklist_and_printing_notes(pdf):
    cover = " ".join(" ".join(p.extract_text() for p in PdfReader(pdf).pages if p.trimbox == p.mediabox).split())  # the cover's pages
    for phrase in ("Component checklist", "Symbol cards 56 63 x 88 mm", "Mission cards 50 round, 80 mm across",
                   "Medal cards 3 round, 80 mm across", "after 15 mission cards", "Print at 100 %", "cut along the black circle"):
        assert phrase in cover


@pytest.mark.slow
def test_every_mission_text_and_medal_is_printed(content, pdf):
    reader = PdfReader(pdf)
    text = " ".join(" ".join(reader.pages[i].extract_text().split()) for i in round_face_pages())
    missions = [c for c in decks(content)[1].cards if c.get("mission")]
    assert len(missions) == 50
    for card in missions:
        assert card["text"] in text, card["id"]
    for medal in ("BRONZE MEDAL", "SILVER MEDAL", "GOLD MEDAL"):
        assert medal in text


@pytest.mark.slow
def test_symbol_cards_show_their_value_in_both_corners(pdf):
    reader = PdfReader(pdf)
    seen = Counter()
    for index in symbol_face_pages():
        by_slot: dict[int, list[str]] = {}
        for slot, text, *_ in card_runs(reader.pages[index], symbol_grid(index)):
            by_slot.setdefault(slot, []).append(text)
        for texts in by_slot.values():
            values = [t for t in texts if t.isdigit()]
            labels = [t for t in texts if not t.isdigit()]
            assert len(values) == 2 and values[0] == values[1] and len(labels) == 1, texts
            seen[(labels[0], int(values[0]))] += 1
    labels = {"RED LIGHTER", "BLUE BINOCULARS", "YELLOW KNIFE", "GREEN COMPASS"}
    assert seen == {(label, v): 2 for label in labels for v in range(1, 8)}


def test_mission_text_stays_in_the_circles_safe_area(pdf):
    # layout.yaml: the cut circle is r 40 mm, the safe margin 3 mm, so text must stay within r 37.
    fonts.register()
    reader = PdfReader(pdf)
    for index in round_face_pages():
        for slot, text, x, y, font, size in card_runs(reader.pages[index], ROUND):
            cx, cy = ROUND.slots[slot].x_mm + 40, ROUND.slots[slot].y_mm + 40
            width = stringWidth(text, font, size) / MM
            ascent, descent = (v / MM for v in getAscentDescent(font, size))
            for px in (x, x + width):
                for py in (y - ascent, y - descent):
                    assert hypot(px - cx, py - cy) <= 37, (text, round(hypot(px - cx, py - cy), 2))


def _render(path, index, dpi=100):
    page = pypdfium2.PdfDocument(str(path))[index]
    return page.render(scale=dpi / 72).to_pil().convert("RGB"), dpi / 25.4


def _near(pixel, colour, tolerance=12):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def test_round_missions_are_cut_on_a_circle_with_art_bleeding_past_it(pdf):
    image, px = _render(pdf, round_face_pages()[0], dpi=200)
    at = lambda x_mm, y_mm: image.getpixel((round(x_mm * px), round(y_mm * px)))
    x0, y0 = ROUND.origin_mm
    for slot in ROUND.slots:
        cx, cy = slot.x_mm + 40, slot.y_mm + 40
        # outside the circle but inside the card's square: the rim art, so a loose cut shows no white
        for dx, dy in ((-37, -37), (37, -37), (-37, 37), (37, 37)):
            assert _near(at(cx + dx, cy + dy), RIM), (slot, dx, dy)
        assert _near(at(cx, cy + 30), PANEL)
        # the cut line: dark pixels where the radius is 40 mm, all the way round
        for degrees in range(0, 360, 15):
            ux, uy = _unit(degrees)
            profile = {r / 10: sum(at(cx + ux * r / 10, cy + uy * r / 10)) / 3 for r in range(385, 416)}
            darkest = min(profile, key=profile.get)
            # a thin dark line (the rim art around it is about 163 grey) centred on r = 40 mm
            assert profile[darkest] < 125 and abs(darkest - 40) <= 0.3, (slot, degrees, darkest, profile[darkest])
            assert profile[38.5] > 150 and profile[41.5] > 150
    # bleed past the sheet's outer cut edges, then white paper
    assert _near(at(x0 - 1.5, y0 + 40), RIM) and _near(at(x0 + 80, y0 - 1.5), RIM)
    assert at(x0 - 5, y0 + 40) == (255, 255, 255)


def _unit(degrees):
    from math import cos, radians, sin
    return cos(radians(degrees)), sin(radians(degrees))


def test_symbols_differ_without_colour(pdf):
    # Colour is never the only cue: in greyscale the big icons of two symbols still differ.
    def icon_mask(page_index, slot_index):
        image, px = _render(pdf, page_index, dpi=60)
        slot = POKER.slots[slot_index]
        box = [round(v * px) for v in (slot.x_mm + 15.5, slot.y_mm + 23, slot.x_mm + 47.5, slot.y_mm + 55)]
        grey = image.crop(box).convert("L")
        return [p < 200 for p in grey.tobytes()]

    lighter, binoculars = icon_mask(symbol_face_pages()[0], 0), icon_mask(symbol_face_pages()[1], 5)  # cards 1 and 15
    assert 0.1 < sum(lighter) / len(lighter) and 0.1 < sum(binoculars) / len(binoculars)
    assert sum(a != b for a, b in zip(lighter, binoculars)) / len(lighter) > 0.15


@pytest.mark.slow
def test_a_mission_added_by_hand_is_printed(game_copy, cli, tmp_path):
    folder = game_copy("fifty-missions")
    missions = folder / "missions.yaml"
    missions.write_text(missions.read_text() + (
        "  - id: fan-sevens-apart\n"
        "    condition: {apart: [{value: 7}, {value: 7}]}\n"
        "    provenance: designed\n    method: \"a fan's mission\"\n"))
    edit(folder / "game.yaml", "count: 50", "count: 51")
    out = tmp_path / "out"
    result = cli("build", folder, "--out", out)
    assert result.exit_code == 0, result.stderr
    reader = PdfReader(out / "fifty-missions.pdf")
    text = " ".join(" ".join(p.extract_text().split()) for p in reader.pages)
    assert "Two cards of value 7 with at least one card between them." in text and "No. 51" in text


def _index_boxes(content):
    """The symbol face's two value indices in layout.yaml: the top-left one (upright) and the
    bottom-right one, turned 180 degrees; each (x, y, w, h) mm from the trim's top-left."""
    face = content.documents["layout"].data["cards"]["symbol"]["face"]
    values = [e for e in face if e["type"] == "text" and e["text"] == "{value}"]
    upright = [e for e in values if e.get("rotate", 0) == 0]
    turned = [e for e in values if e.get("rotate", 0) == 180]
    assert len(upright) == len(turned) == 1, values
    return [tuple(e[k] for k in ("x_mm", "y_mm", "w_mm", "h_mm")) for e in (upright[0], turned[0])]


@pytest.mark.slow
def test_the_bottom_right_index_is_turned_like_a_playing_card(content, pdf):
    # The bottom-right value was once printed upright; on playing cards it is turned 180 degrees
    # so that it reads from the other side. In the PDF: one upside-down value on every card, the
    # same as the card's upright one.
    reader = PdfReader(pdf)
    for index in symbol_face_pages():
        page = reader.pages[index]
        upright = [t for t in page.extract_text(orientations=(0,)).split() if t.isdigit()]
        turned = page.extract_text(orientations=(180,)).split()
        assert len(turned) == len(symbol_grid(index).slots) and sorted(turned) == sorted(upright), (index, upright, turned)

    # Printed: the bottom-right corner is the top-left index turned half round (the two boxes lie
    # point-symmetrically about the card's centre, so nothing else may differ).
    (x1, y1, w, h), (x2, y2, w2, h2) = _index_boxes(content)
    assert (w2, h2) == (w, h) and (x1 + x2 + w, y1 + y2 + h) == (63, 88)
    image, px = _render(pdf, symbol_face_pages()[0], dpi=200)
    grey = image.convert("L")
    for slot in POKER.slots:
        crop = lambda x, y, dx=0, dy=0, slot=slot: grey.crop((round((slot.x_mm + x) * px) + dx, round((slot.y_mm + y) * px) + dy,
                                                    round((slot.x_mm + x + w) * px) + dx, round((slot.y_mm + y + h) * px) + dy))
        top_left = crop(x1, y1)
        ink = sum(p < 200 for p in top_left.tobytes()) / (top_left.width * top_left.height)
        assert ink > 0.05, "no value printed in the top-left corner"

        def mismatch(reference, shifts=range(-2, 3), crop=crop):  # the best of a few pixels' shift (rounding)
            return min(sum(abs(a - b) > 60 for a, b in zip(reference.tobytes(), crop(x2, y2, dx, dy).tobytes()))
                       / (reference.width * reference.height) for dx in shifts for dy in shifts)

        assert mismatch(top_left.rotate(180)) < 0.01, f"slot {slot}: the bottom-right index is not the top-left one turned 180 degrees"
        assert mismatch(top_left) > 0.03, f"slot {slot}: the bottom-right index still reads upright"


TURNS_LAYOUT = """\
cards:
  test:
    trim: {width_mm: 63, height_mm: 88}
    face:
      - {type: text, x_mm: 5, y_mm: 5, w_mm: 40, h_mm: 10, text: "UP 0", font_pt: 20}
      - {type: text, x_mm: 48, y_mm: 5, w_mm: 10, h_mm: 40, text: "DOWN 90", font_pt: 20, rotate: 90}
      - {type: text, x_mm: 18, y_mm: 70, w_mm: 40, h_mm: 12, text: "TURN 180", font_pt: 20, rotate: 180}
      - {type: text, x_mm: 5, y_mm: 20, w_mm: 10, h_mm: 40, text: "UP 270", font_pt: 20, rotate: 270}
    back: []
"""


def test_text_turns_by_quarter_turns_inside_its_box(tmp_path):
    # rotate: 90 and 270 fit the text along the box's height (it runs down, or up), 180 prints it
    # upside down; every box stays where the layout puts it.
    from deckpress.generator.content.yamlsafe import load_yaml
    from deckpress.generator.kit.printdata import Deck
    from deckpress.generator.render.kit import render_pdf

    layout, errors = load_yaml(tmp_path / "layout.yaml", text=TURNS_LAYOUT)
    assert not errors
    path = tmp_path / "turns.pdf"
    path.write_bytes(render_pdf(layout, [Deck("test", "Test", [{"id": "a", "source": "test"}])], None, PrintOptions(duplex="none", crop_marks=False)))
    page = PdfReader(path).pages[0]
    # pypdf's orientations turn counter-clockwise as seen on the page: a text turned 90 degrees
    # clockwise reads at its 270
    for orientation, text in ((0, "UP 0"), (270, "DOWN 90"), (180, "TURN 180"), (90, "UP 270")):
        assert text in page.extract_text(orientations=(orientation,)).splitlines(), (orientation, page.extract_text(orientations=(orientation,)))
    image, px = _render(path, 0, dpi=150)
    grey = image.convert("L")
    slot = grid("a4", (63, 88), 3, cards=1).slots[0]
    boxes = [(5, 5, 40, 10), (48, 5, 10, 40), (18, 70, 40, 12), (5, 20, 10, 40)]
    inked = [0] * len(boxes)
    for j in range(round(slot.y_mm * px), round((slot.y_mm + 88) * px)):
        for i in range(round(slot.x_mm * px), round((slot.x_mm + 63) * px)):
            if grey.getpixel((i, j)) < 128:
                x, y = i / px - slot.x_mm, j / px - slot.y_mm
                inside = [k for k, (bx, by, bw, bh) in enumerate(boxes) if bx - 0.3 <= x <= bx + bw + 0.3 and by - 0.3 <= y <= by + bh + 0.3]
                assert inside, f"ink at ({x:.1f}, {y:.1f}) mm is outside every text's box"
                inked[inside[0]] += 1
    assert all(n > 100 for n in inked), inked


def test_a_text_turned_other_than_by_quarter_turns_is_refused(content, game_copy, cli, tmp_path):
    folder = game_copy("fifty-missions")
    edit(folder / "layout.yaml", "rotate: 180", "rotate: 45")
    result = cli("build", folder, "--out", tmp_path / "out")
    assert result.exit_code == 1
    line = next(n for n, text in enumerate((folder / "layout.yaml").read_text().splitlines(), 1) if "rotate: 45" in text)
    assert f"layout.yaml:{line}:" in result.stderr
    face = content.documents["layout"].data["cards"]["symbol"]["face"]
    at = next(i for i, e in enumerate(face) if e.get("rotate") == 180)
    assert f"cards.symbol.face[{at}].rotate: the number 45 is not one of: 0, 90, 180, 270" in result.stderr
    assert not (tmp_path / "out" / "fifty-missions.pdf").exists()


def test_two_builds_are_byte_identical(content, pdf):
    assert build_kit(content, PrintOptions(paper="a4")) == pdf.read_bytes()


@pytest.mark.slow
def test_ink_friendly_symbol_cards_keep_their_colour_only_as_a_light_tint(cli, tmp_path):
    # --ink-friendly once kept 50 Missions' full-colour suit bleeds (coverage only 31.8 % -> 8.1 %):
    # the symbol cards' own colours (from symbols.yaml, no palette entry) become light tints
    import pypdfium2

    def coverage(*options: str) -> float:
        out = tmp_path / "-".join(options or ("plain",))
        assert cli("build", "fifty-missions", *options, "--out", out).exit_code == 0
        path = out / "fifty-missions.pdf"
        n = next(i for i, p in enumerate(PdfReader(path).pages) if "Symbol cards · 1/" in p.extract_text())
        image = pypdfium2.PdfDocument(path)[n].render(scale=0.5).to_pil().convert("L")
        return sum(255 - v for v in image.tobytes()) / (255 * image.width * image.height)

    plain, light = coverage(), coverage("--ink-friendly")
    assert light < plain * 0.5, (plain, light)
    from deckpress.generator.kit.adapters.fifty_missions import tint

    assert tint("#d13b30") == "#f6d8d6"  # 20 % of the red on white: the same hue, light

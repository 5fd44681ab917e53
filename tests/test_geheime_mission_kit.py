"""The Geheime Mission print-and-play kit read back: pages and paper sizes,
every agent's call number and code name, round chips with their cut line, three back-door chips
with one identical back, a standing officer that folds, and a board that tiles (A4) or fits one
sheet (A3)."""
from __future__ import annotations

from math import cos, radians, sin
from pathlib import Path

import pypdfium2
import pytest
from conftest import edit
from PIL import ImageChops, ImageOps
from pypdf import PdfReader

from deckpress.generator.content import load_game
from deckpress.generator.kit.imposition import grid
from deckpress.generator.render.icons import icon_set
from deckpress.generator.render.kit import PrintOptions, build_kit

MM = 72 / 25.4
#: At 254 dpi one mm is exactly 10 px, so chips and the officer's strip sit on whole pixels.
DPI = 254
PX = DPI / 25.4
# Page indexes in the A4 kit: cover + blank back, 6 agent sheets (face, back), chips, officer, 2 board tiles.
CHIP_FACES, CHIP_BACKS, OFFICER_FACE, FIRST_TILE = 14, 15, 16, 18


@pytest.fixture(scope="module")
def content():
    return load_game("geheime-mission")


@pytest.fixture(scope="module")
def a4_pdf(content, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("gm") / "geheime-mission.pdf"
    path.write_bytes(build_kit(content, PrintOptions(paper="a4")))
    return path


def _sizes_mm(reader: PdfReader) -> list[tuple[int, int]]:
    return [(round(float(p.mediabox.width) / MM), round(float(p.mediabox.height) / MM)) for p in reader.pages]


def test_a4_kit_pages(a4_pdf):
    reader = PdfReader(a4_pdf)
    # cover (1 page + blank back); 54 agents = 6 sheets of 9; 23 chips and the officer 1 sheet each;
    # every sheet of faces followed by its backs; the board in 2 landscape tiles, each with a blank back
    assert len(reader.pages) == 2 + 6 * 2 + 2 + 2 + 2 * 2
    assert _sizes_mm(reader) == [(210, 297)] * 18 + [(297, 210)] * 4
    assert "Suitcase and back-door chips · 1/1 · faces" in reader.pages[CHIP_FACES].extract_text()
    assert "Counter-intelligence officer · 1/1 · faces" in reader.pages[OFFICER_FACE].extract_text()
    assert "tile A1" in reader.pages[FIRST_TILE].extract_text() and "tile A2" in reader.pages[FIRST_TILE + 2].extract_text()


def test_a3_kit_prints_the_board_on_one_sheet(content, tmp_path):
    path = tmp_path / "a3.pdf"
    path.write_bytes(build_kit(content, PrintOptions(paper="a3", duplex="none")))
    reader = PdfReader(path)
    # no duplex: cover, 54 agents = 4 sheets of 16 (faces only: one back for all), the chips on a
    # fold-over sheet (a suitcase's back says what is in it, so it cannot be dropped; landscape
    # fits most), the officer, one board sheet
    assert len(reader.pages) == 1 + 4 + 1 + 1 + 1
    assert _sizes_mm(reader) == [(297, 420)] * 5 + [(420, 297)] + [(297, 420)] + [(420, 297)]
    assert "fold on the dashed line" in reader.pages[5].extract_text()
    board = reader.pages[-1].extract_text()
    assert "Board · one sheet" in board and "GLUE" not in board and "EMBASSY" in board and "CITY CENTRE" in board


@pytest.mark.slow
def test_every_agent_call_number_and_code_name_is_printed(content, a4_pdf):
    reader = PdfReader(a4_pdf)
    faces = " ".join(reader.pages[i].extract_text() for i in range(2, 14, 2))
    for agent in content["agents"]["agents"]:
        assert agent["call_number"] in faces and agent["code_name"] in faces, agent["id"]
    assert faces.count("ATTACK") == faces.count("CITY CENTRE") == faces.count("DEFENCE") == 54


def _positions(page) -> dict[str, list[float]]:
    """x (mm from the left) of each occurrence of a text on the page."""
    found: dict[str, list[float]] = {}

    def visit(text, cm, tm, font, size):
        if text.strip():
            found.setdefault(text.strip(), []).append((tm[4] * cm[0] + tm[5] * cm[2] + cm[4]) / MM)

    page.extract_text(visitor_text=visit)
    return found


def test_values_are_red_blue_green_from_left_to_right(a4_pdf):
    # Rulebook: the middle (blue) value is the city centre; attack is red, defence green.
    page = PdfReader(a4_pdf).pages[2]
    pos = _positions(page)
    assert all(a < c < d for a, c, d in zip(pos["ATTACK"], pos["CITY CENTRE"], pos["DEFENCE"]))
    image = _render(a4_pdf, 2, rgb=True)
    g = grid("a4", (63, 88), 3)
    x0, y0 = g.origin_mm
    colours = [image.getpixel((round((x0 + x) * PX), round((y0 + 45) * PX))) for x in (5, 24, 43)]  # beside the big numbers
    red, blue, green = colours
    assert red[0] > 150 > red[2] and blue[2] > 150 > blue[0] and green[1] > max(green[0], green[2]) + 40, colours


def _render(path: Path, index: int, rgb: bool = False):
    image = pypdfium2.PdfDocument(str(path))[index].render(scale=DPI / 72).to_pil()
    return image.convert("RGB" if rgb else "L")


def _chip_box(slot, inset_mm: float = 0.0) -> tuple[int, int, int, int]:
    x, y = round((slot.x_mm + inset_mm) * PX), round((slot.y_mm + inset_mm) * PX)
    size = round((25 - 2 * inset_mm) * PX)
    return x, y, x + size, y + size


def _radial_profile(image, cx_mm: float, cy_mm: float, radii_mm: list[float]) -> list[float]:
    """Mean grey level on circles around a point, sampled at 48 angles away from the four points
    where neighbouring chips touch."""
    angles = [radians(a) for a in range(0, 360, 5) if min(a % 90, 90 - a % 90) >= 15]
    return [sum(image.getpixel((round((cx_mm + r * cos(a)) * PX), round((cy_mm + r * sin(a)) * PX))) for a in angles) / len(angles)
            for r in radii_mm]


def test_chips_are_cut_along_a_visible_circle(a4_pdf):
    image = _render(a4_pdf, CHIP_FACES)
    g = grid("a4", (25, 25), 2, cards=23)  # 20 suitcases and 3 doors: the sheet shrinks to the rows they need
    radii = [round(11.5 + i / 20, 2) for i in range(41)]  # 11.5 to 13.5 mm in steps of 0.05 mm
    for slot in (g.slots[0], g.slots[20]):  # a black suitcase chip and the blue door chip
        profile = dict(zip(radii, _radial_profile(image, slot.x_mm + 12.5, slot.y_mm + 12.5, radii)))
        # the black cut line 12.5 mm from the centre, with a light halo on both sides that keeps
        # it visible on dark art (measured: halo about 220, line about 60, art 22 or 84)
        line = min((r for r in radii if 12.3 <= r <= 12.7), key=profile.get)
        assert line == pytest.approx(12.5, abs=0.06) and profile[line] < 90, profile
        assert max(v for r, v in profile.items() if line - 0.3 <= r < line) > 180, profile
        assert max(v for r, v in profile.items() if line < r <= line + 0.3) > 180, profile
        profile = list(profile.values())
        assert profile[0] < 120 and profile[-1] < 120, profile  # the art bleeds past the cut


def test_the_three_door_chips_share_one_back(a4_pdf):
    faces, backs = _render(a4_pdf, CHIP_FACES), _render(a4_pdf, CHIP_BACKS)
    g = grid("a4", (25, 25), 2, cards=23)
    doors = [20, 21, 22]  # after the 20 suitcases
    back_images = [backs.crop(_chip_box(g.back_slot(i, "long"), 1)) for i in doors]
    face_images = [faces.crop(_chip_box(g.slots[i], 1)) for i in doors]
    def largest_difference(a, b) -> int:
        return ImageChops.difference(a, b).getextrema()[1]

    for other in back_images[1:]:
        assert largest_difference(back_images[0], other) <= 2  # the same but for anti-aliasing
    for a, b in ((0, 1), (1, 2), (0, 2)):
        assert largest_difference(face_images[a], face_images[b]) > 100  # the faces differ
    suitcase_back = backs.crop(_chip_box(g.back_slot(0, "long"), 1))
    assert largest_difference(back_images[0], suitcase_back) > 100


def test_officer_folds_in_the_middle_and_stands_upright_on_both_sides(a4_pdf):
    image = _render(a4_pdf, OFFICER_FACE)
    g = grid("a4", (40, 100), 3, cards=1)  # one strip: a sheet of one cell, no empty ones
    slot = g.slots[0]
    x0, y0 = round(slot.x_mm * PX), round(slot.y_mm * PX)
    # the fold line: dashed across the strip at half its height
    fold = [image.getpixel((x0 + x, y0 + 500)) < 128 for x in range(2, 398)]
    switches = sum(a != b for a, b in zip(fold, fold[1:]))
    assert any(fold) and not all(fold) and switches >= 10
    # the upper half turned by 180 degrees is the lower half (away from the fold line itself):
    # differing pixels only along edges (0.5 %), where an upright figure on both halves gives 12 %
    upper = image.crop((x0, y0, x0 + 400, y0 + 490))
    lower = image.crop((x0, y0 + 510, x0 + 400, y0 + 1000))
    turned = ImageChops.difference(ImageOps.flip(ImageOps.mirror(upper)), lower).get_flattened_data()
    assert sum(v > 60 for v in turned) / len(turned) < 0.02
    assert sum(v < 50 for v in lower.get_flattened_data()) / len(turned) > 0.1  # and there is a figure


def test_the_upside_down_officer_is_the_officer_turned_180_degrees():
    icons = icon_set()

    def turn(shape: dict) -> dict:
        t = dict(shape)
        if "rect" in shape:
            x, y, w, h = shape["rect"]
            t["rect"] = [100 - x - w, 100 - y - h, w, h]
        elif "circle" in shape:
            cx, cy, r = shape["circle"]
            t["circle"] = [100 - cx, 100 - cy, r]
        elif "polygon" in shape:
            t["polygon"] = [[100 - x, 100 - y] for x, y in shape["polygon"]]
        else:
            t["path"] = [[cmd[0], *(100 - v for v in cmd[1:])] for cmd in shape["path"]]
        return t

    assert [turn(s) for s in icons["officer"]] == icons["officer-upside-down"]


def test_board_tiles_carry_alignment_marks_and_the_doors(a4_pdf):
    reader = PdfReader(a4_pdf)
    a1, a2 = reader.pages[FIRST_TILE].extract_text(), reader.pages[FIRST_TILE + 2].extract_text()
    assert a1.count("A1|A2") == 3 and a2.count("A1|A2") == 3
    assert "GLUE · A2 on top" in a1 and "A2: cut here, lay over A1" in a2
    for colour in ("BLUE", "YELLOW", "RED"):
        assert colour in a1 and colour in a2  # each tile holds one embassy's three back doors
    assert "Player 1" in a1 and "Player 2" in a2


def test_a_broken_board_element_names_the_board_and_its_line(game_copy, cli, tmp_path):
    folder = game_copy("geheime-mission")
    layout = folder / "layout.yaml"
    edit(layout, 'text: "{middle_name}"', 'text: "{middle}"')
    result = cli("build", folder, "--out", tmp_path)
    assert result.exit_code == 1
    line = next(i for i, text in enumerate(layout.read_text().splitlines(), 1) if '"{middle}"' in text)
    assert f"layout.yaml:{line}:" in result.stderr
    assert "city board, card 'board' (components.yaml): '{middle}' names no field of this card" in result.stderr
    assert "more card" not in result.stderr  # one error for the board, not one per tile


def test_two_builds_are_byte_identical(content):
    assert build_kit(content, PrintOptions()) == build_kit(content, PrintOptions())

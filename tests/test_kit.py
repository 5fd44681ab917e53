"""The Mission Emission print-and-play kit, read back: pages, sizes, text, fonts, crop marks
measured on a rendered page, backs behind faces, loud overflow, atomic writes, determinism."""
from __future__ import annotations

from pathlib import Path

import pypdfium2
import pytest
from conftest import edit
from PIL import ImageChops
from pypdf import PdfReader

from deckpress.generator.content import load_game
from deckpress.generator.content.yamlsafe import load_yaml
from deckpress.generator.kit.imposition import PAPERS, grid
from deckpress.generator.kit.printdata import Deck
from deckpress.generator.render.kit import PrintOptions, build_kit, render_pdf

MM = 72 / 25.4


@pytest.fixture(scope="module")
def content():
    return load_game("mission-emission")


@pytest.fixture(scope="module")
def a4_pdf(content, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("kit") / "mission-emission.pdf"
    path.write_bytes(build_kit(content, PrintOptions(paper="a4")))
    return path


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pages_and_page_size(content, paper, tmp_path):
    reader = PdfReader(_write(tmp_path, build_kit(content, PrintOptions(paper=paper))))
    # cover + its blank back, then 36 states = 4 sheets and 18 points = 2 sheets, each face + back
    assert len(reader.pages) == 2 + (4 + 2) * 2
    w, h = PAPERS[paper]
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(w * MM, abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(h * MM, abs=0.01)


def test_nine_cards_per_sheet_on_a4_and_letter():
    for paper in ("a4", "letter"):
        g = grid(paper, (63, 88), 3)
        assert (g.cols, g.rows) == (3, 3)


@pytest.mark.slow
def test_every_state_name_and_the_facts_are_in_the_text(content, a4_pdf):
    reader = PdfReader(a4_pdf)
    text = " ".join(page.extract_text() for page in reader.pages)
    for state in content["states"]["states"]:
        assert state["name"] in text
    cover = reader.pages[0].extract_text()
    for phrase in ("Print at 100 %", "flipping on the long edge", "State cards", "1134", "863"):
        assert phrase in cover


def test_fonts_are_embedded_and_nothing_else_is_used(a4_pdf):
    reader = PdfReader(a4_pdf)
    names = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            names.add(str(font["/BaseFont"]))
            descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            descriptor = descendant["/FontDescriptor"].get_object()
            assert "/FontFile2" in descriptor, f"{font['/BaseFont']} is not embedded"
    assert names and all("Lato" in n for n in names), names


def _render(path: Path, index: int, dpi: int = 150):
    page = pypdfium2.PdfDocument(str(path))[index]
    return page.render(scale=dpi / 72).to_pil().convert("L"), dpi / 25.4


def _dark_runs(values: list[int], threshold: int = 128) -> list[float]:
    """Centres of runs of dark pixels along a line of pixel values."""
    runs, start = [], None
    for i, v in enumerate(values + [255]):
        if v < threshold and start is None:
            start = i
        elif v >= threshold and start is not None:
            runs.append((start + i - 1) / 2)
            start = None
    return runs


def test_crop_marks_sit_on_every_card_edge_63_by_88_mm(a4_pdf):
    image, px_per_mm = _render(a4_pdf, 2)
    g = grid("a4", (63, 88), 3)
    xs, ys = g.cut_lines()
    # a line across the top margin, above the bleed: vertical crop marks cross it
    row = int(3 * px_per_mm)
    found_x = [c / px_per_mm for c in _dark_runs([image.getpixel((x, row)) for x in range(image.width)])]
    col = int(3 * px_per_mm)
    found_y = [r / px_per_mm for r in _dark_runs([image.getpixel((col, y)) for y in range(image.height)])]
    assert found_x == pytest.approx(xs, abs=0.3)
    assert found_y == pytest.approx(ys, abs=0.3)
    widths = [b - a for a, b in zip(found_x, found_x[1:])]
    heights = [b - a for a, b in zip(found_y, found_y[1:])]
    assert widths == pytest.approx([63] * 3, abs=0.3) and heights == pytest.approx([88] * 3, abs=0.3)


def test_bleed_only_on_the_outer_edges(a4_pdf):
    image, px_per_mm = _render(a4_pdf, 2)
    g = grid("a4", (63, 88), 3)
    x0, y0 = g.origin_mm
    mid_y = int((y0 + 44) * px_per_mm)
    # 1.5 mm outside the grid's left edge is background colour (bleed), 4 mm outside is paper
    assert image.getpixel((int((x0 - 1.5) * px_per_mm), mid_y)) < 200
    assert image.getpixel((int((x0 - 4) * px_per_mm), mid_y)) > 250


TWO_SIDED_LAYOUT = """\
cards:
  test:
    trim: {width_mm: 63, height_mm: 88}
    face:
      - {type: text, x_mm: 5, y_mm: 40, w_mm: 53, h_mm: 8, text: "F-{id}", font_pt: 12}
    back:
      - {type: text, x_mm: 5, y_mm: 40, w_mm: 53, h_mm: 8, text: "B-{id}", font_pt: 12}
"""


def _text_positions(page) -> dict[str, tuple[float, float]]:
    found = {}

    def visit(text, cm, tm, font, size):
        if text.strip():  # text origin: the text matrix, then the current transformation
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            found[text.strip()] = (x / MM, y / MM)

    page.extract_text(visitor_text=visit)
    return found


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_each_back_lands_behind_its_face(tmp_path, duplex):
    layout, _ = load_yaml(tmp_path / "layout.yaml", text=TWO_SIDED_LAYOUT)
    deck = Deck("test", "Test", [{"id": f"c{i}", "source": "test"} for i in range(9)])
    reader = PdfReader(_write(tmp_path, render_pdf(layout, [deck], None, PrintOptions(duplex=duplex))))
    faces, backs = _text_positions(reader.pages[0]), _text_positions(reader.pages[1])
    width_mm, height_mm = PAPERS["a4"]
    for i in range(9):
        row, col = divmod(i, 3)
        # A long-edge flip mirrors the columns, a short-edge flip the rows: card i's back must be
        # printed where the face of its mirror slot is, so that it lands behind its own face.
        mirror = row * 3 + (2 - col) if duplex == "long" else (2 - row) * 3 + col
        if duplex == "long":
            assert backs[f"B-c{i}"] == pytest.approx(faces[f"F-c{mirror}"], abs=0.01)
        else:  # and turned 180 degrees about that slot's centre (A4: a 3 x 3 grid from 10.5, 16.5 mm)
            mx, my = faces[f"F-c{mirror}"]
            cx, cy = 10.5 + (mirror % 3) * 63 + 31.5, height_mm - 16.5 - (mirror // 3) * 88 - 44
            assert backs[f"B-c{i}"] == pytest.approx((2 * cx - mx, 2 * cy - my), abs=0.01)
        # and that slot is the card's own position seen through the paper
        fx, fy = faces[f"F-c{i}"]
        cx = fx - 5 + 31.5  # card centre x (text starts 5 mm inside a 63 mm card)
        mx, my = faces[f"F-c{mirror}"]
        if duplex == "long":
            assert mx - 5 + 31.5 == pytest.approx(width_mm - cx, abs=0.05) and my == pytest.approx(fy)
        else:
            assert mx == pytest.approx(fx) and (my + fy) == pytest.approx(faces["F-c0"][1] + faces["F-c6"][1], abs=0.05)


@pytest.mark.parametrize("duplex, expected", [("long", (1.5, 2.0)), ("short", (-1.5, -2.0))])
def test_back_offset_seen_from_the_face_side_moves_the_backs_back(tmp_path, duplex, expected):
    # --back-offset 1.5,2 says the printer puts the backs 1.5 mm right of and 2 mm below
    # where they belong, seen from the face side, on either edge.  The kit moves them back: 1.5 mm
    # left and 2 mm up seen from the face, which on the back page itself is 1.5 mm right and 2 mm
    # up after a long-edge flip (left and right swap), 1.5 mm left and 2 mm down after a short-edge one.
    layout, _ = load_yaml(tmp_path / "layout.yaml", text=TWO_SIDED_LAYOUT)
    deck = Deck("test", "Test", [{"id": "c0", "source": "test"}])
    plain = _text_positions(PdfReader(_write(tmp_path, render_pdf(layout, [deck], None, PrintOptions(duplex=duplex)), "a.pdf")).pages[1])["B-c0"]
    moved = _text_positions(PdfReader(_write(tmp_path, render_pdf(layout, [deck], None, PrintOptions(duplex=duplex, back_offset_mm=(1.5, 2.0))),
                                              "b.pdf")).pages[1])["B-c0"]
    # _text_positions gives (x right, y up) in mm on the back page
    assert (moved[0] - plain[0], moved[1] - plain[1]) == pytest.approx(expected, abs=0.01)


def test_the_cover_says_from_which_side_the_offset_is_measured(cli, tmp_path):
    assert cli("build", "mission-emission", "--back-offset", "0.5,-1", "--duplex", "short", "--out", tmp_path).exit_code == 0
    cover = " ".join(p.extract_text() for p in PdfReader(tmp_path / "mission-emission.pdf").pages[:2]).replace("\n", " ")
    assert "Back offset: 0.5 mm right, -1 mm down, as seen from the face side (the backs are moved back by as much)" in cover
    assert "deckpress calibrate --duplex short" in cover


@pytest.mark.slow
def test_text_that_cannot_fit_fails_naming_card_and_field(game_copy, cli, tmp_path):
    folder = game_copy("mission-emission")
    out = tmp_path / "out"
    assert cli("build", folder, "--out", out).exit_code == 0
    good = (out / "mission-emission.pdf").read_bytes()
    edit(folder / "states.yaml", "name: Goa", "name: Goa Daman Diu Dadra Nagar Haveli and Lakshadweep Islands")
    result = cli("build", folder, "--out", out)
    assert result.exit_code == 1
    # at the card's own line in its card file, the layout element as context
    states = folder / "states.yaml"
    line = next(i for i, text in enumerate(states.read_text().splitlines(), 1) if text.strip() == "- id: goa")
    assert f"{states}:{line}:5: state face, card 'goa': text '{{name}}' = 'Goa Daman Diu Dadra Nagar Haveli and Lakshadweep Islands' needs" in result.stderr
    assert f"(layout element at {folder / 'layout.yaml'}:" in result.stderr and "left as it was" in result.stderr
    # and validate says the same, so a validate-only pre-commit hook lets no unbuildable card in
    checked = cli("validate", folder)
    assert checked.exit_code == 1 and f"{states}:{line}:5: state face, card 'goa': text '{{name}}'" in checked.stdout + checked.stderr
    assert (out / "mission-emission.pdf").read_bytes() == good  # the previous PDF is untouched
    assert not [p for p in out.iterdir() if p.name != "mission-emission.pdf"]  # no temporary left


@pytest.mark.slow
def test_markup_in_card_text_prints_literally(game_copy, cli, tmp_path):
    folder = game_copy("mission-emission")
    edit(folder / "states.yaml", "name: Goa", "name: \"<b>Goa</b> <img src='x'/>\"")
    out = tmp_path / "out"
    assert cli("build", folder, "--out", out).exit_code == 0
    text = " ".join(p.extract_text() for p in PdfReader(out / "mission-emission.pdf").pages)
    assert "<b>Goa</b> <img src='x'/>" in text


@pytest.mark.slow
def test_two_builds_are_byte_identical(cli, tmp_path):
    assert cli("build", "mission-emission", "--out", tmp_path / "a").exit_code == 0
    assert cli("build", "mission-emission", "--out", tmp_path / "b").exit_code == 0
    assert (tmp_path / "a" / "mission-emission.pdf").read_bytes() == (tmp_path / "b" / "mission-emission.pdf").read_bytes()


def _write(folder: Path, data: bytes, name: str = "kit.pdf") -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def test_unknown_field_in_a_layout_names_the_card_and_the_line(game_copy, cli, tmp_path):
    folder = game_copy("mission-emission")
    edit(folder / "layout.yaml", 'text: "{kind}"', 'text: "{capital}"')
    result = cli("build", folder, "--out", tmp_path)
    assert result.exit_code == 1
    assert "'{capital}' names no field of this card (known: colour, id, kind, missions, name, source)" in result.stderr
    assert "state face, card 'andhra-pradesh'" in result.stderr
    assert "(and 35 more cards)" in result.stderr and result.stderr.count("names no field") == 1


@pytest.mark.slow
def test_sets_are_refused_for_a_game_without_sets_and_the_cover_lists_what_was_printed(cli, tmp_path):
    # --sets base on Mission Emission (which has no sets) is refused, not ignored with exit 0;
    # --sets base on Maybe Missions prints 26 pages, and its cover lists only what was printed.
    result = cli("build", "mission-emission", "--sets", "base", "--out", tmp_path)
    assert result.exit_code == 1 and "mission-emission has no sets to choose from" in result.stderr
    assert cli("build", "maybe-missions", "--sets", "base,", "--out", tmp_path).exit_code == 0  # a trailing comma names nothing more
    cover = PdfReader(tmp_path / "maybe-missions.pdf").pages[0].extract_text()
    assert "Vote cards" in cover and "Mission cards" in cover
    assert "Shop cards" not in cover and "identity cards" not in cover.lower()


@pytest.mark.slow
def test_ink_friendly_is_refused_with_the_reason_for_a_layout_without_that_palette(cli, tmp_path):
    # --ink-friendly once left Mission Emission's PDF byte-identical and said nothing.
    result = cli("build", "mission-emission", "--ink-friendly", "--out", tmp_path)
    assert result.exit_code == 1 and "mission-emission's layout has no ink_friendly_palette" in result.stderr
    assert cli("build", "maybe-missions", "--ink-friendly", "--out", tmp_path).exit_code == 0


@pytest.mark.parametrize("option,value", [("--gap", "nan"), ("--margin", "nan"), ("--back-offset", "nan,0"), ("--back-offset", "0,inf")])
def test_numbers_that_are_not_finite_are_refused(cli, tmp_path, option, value):
    # Python's float() reads nan and inf, and NaN passes every range check: '--gap nan' ended in a traceback
    result = cli("build", "mission-emission", option, value, "--out", tmp_path)
    assert result.exit_code == 2 and f"Invalid value for '{option}'" in result.stderr and not list(tmp_path.iterdir())


def test_a_back_offset_that_would_push_art_off_the_paper_is_refused(cli, tmp_path):
    # --back-offset 30,0 is refused: it would cut 22 mm of art off the page.
    result = cli("build", "mission-emission", "--back-offset", "30,0", "--out", tmp_path)
    assert result.exit_code == 1 and "--back-offset 30,0: the backs' art would leave the a4 sheet; this kit takes at most 7.5 mm across" in result.stderr
    assert cli("build", "mission-emission", "--back-offset", "0.5,-1", "--out", tmp_path).exit_code == 0


def test_text_that_crosses_the_safe_area_fails_once_a_card_with_the_side_and_distance(cli, tmp_path, monkeypatch):
    # print-and-engines.md: "Safe area: about 3 mm (1/8 in) inside the trim; nothing important outside it"
    monkeypatch.chdir(tmp_path)
    assert cli("init", "mygame").exit_code == 0
    layout = tmp_path / "mygame" / "layout.yaml"
    edit(layout, 'x_mm: 5, y_mm: 5, w_mm: 53, h_mm: 10, text: "{title}", font: bold, font_pt: 18, min_font_pt: 9, align: center',
         'x_mm: 1, y_mm: 5, w_mm: 53, h_mm: 10, text: "{title}", font: bold, font_pt: 18, min_font_pt: 9, align: left')
    result = cli("build", "mygame")
    assert result.exit_code == 1
    assert ("mygame/cards.csv:2:1: card face, card 'spark': text '{title}' = 'Spark' crosses the safe area (3 mm inside the cut) "
            "by 2.0 mm at the left, where the cut may take it off: move or narrow its box, or lower the card's safe_mm") in result.stderr
    # three cards (spark prints 3 times, tide twice): one error each, and nothing written
    assert result.stderr.count("crosses the safe area") == 3 and result.stderr.count("card 'spark'") == 1
    assert "not built (3 errors)" in result.stderr and not (tmp_path / "output" / "mygame.pdf").exists()
    edit(layout, "safe_mm: 3", "safe_mm: 0.5")  # the designer's own margin decides
    assert cli("build", "mygame").exit_code == 0


def test_the_safe_area_follows_a_turned_text_and_a_round_cut(game_copy, cli, tmp_path):
    folder = game_copy("fifty-missions")
    layout = folder / "layout.yaml"

    def crossing() -> list[str]:
        """The build's safe-area errors (the build failing when there are any)."""
        result = cli("build", folder, "--out", tmp_path)
        lines = [line for line in result.stderr.splitlines() if "crosses the safe area" in line]
        assert result.exit_code == (1 if lines else 0), result.stderr
        return lines

    # the symbol card's bottom-right index, printed upside down: pushed down past the safe area's bottom
    edit(layout, "x_mm: 44, y_mm: 71, w_mm: 14, h_mm: 12", "x_mm: 44, y_mm: 77, w_mm: 14, h_mm: 12")
    lines = crossing()
    assert lines and all("mm at the bottom, where" in line and "{value}" in line for line in lines)
    edit(layout, "x_mm: 44, y_mm: 77, w_mm: 14, h_mm: 12", "x_mm: 44, y_mm: 71, w_mm: 14, h_mm: 12")
    assert crossing() == []
    # a round mission card: its text moved to the top, where the circle inset by 3 mm is narrower than its box
    edit(layout, "x_mm: 11, y_mm: 24.5, w_mm: 58, h_mm: 30", "x_mm: 11, y_mm: 4, w_mm: 58, h_mm: 30")
    lines = crossing()
    assert lines and all("mission face" in line and "{text}" in line and "mm at the top" in line for line in lines)


def test_inline_icons_print_in_the_line_and_an_unknown_one_fails_at_its_card(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("init", "mygame").exit_code == 0
    layout, cards = tmp_path / "mygame" / "layout.yaml", tmp_path / "mygame" / "cards.csv"
    edit(cards, '"Draw a card. If it is red, play it at once."', '"Gain :bolt: now"')
    assert cli("export", "mygame", "--to", "pdf", "--out", "plain").exit_code == 0
    # without inline_icons the text prints as written, colons and all
    assert "Gain :bolt: now" in PdfReader(tmp_path / "plain" / "mygame-one-up.pdf").pages[0].extract_text()

    edit(layout, "wrap: true, align: center, colour: ink}", "wrap: true, align: center, colour: ink, inline_icons: true}")
    assert cli("export", "mygame", "--to", "pdf", "--out", "icons").exit_code == 0
    page = pypdfium2.PdfDocument(tmp_path / "icons" / "mygame-one-up.pdf")[0]
    text = page.get_textpage().get_text_range()
    assert "Gain now" in text and "bolt" not in text  # the icon is drawn, not written
    assert _between(page, "Gain", "now").convert("L").getextrema()[0] < 80  # the bolt, in the text's ink

    edit(cards, '"Gain :bolt: now"', '"Gain :blot: now"')
    result = cli("build", "mygame")
    assert result.exit_code == 1
    assert "mygame/cards.csv:2:1: card face, card 'spark': text '{text}' = 'Gain :blot: now': ':blot:' is not in the icon set (did you mean 'bolt' or 'mm-ballot'?)" in result.stderr


def _between(page, before: str, after: str, scale: int = 4):
    """The rendered strip of a one-up ``page`` between the words ``before`` and ``after`` of a line
    (as high as ``before``), after checking that it is at least one em of the 11 pt text wide: what
    an inline icon fills."""
    text = page.get_textpage()

    def box(word: str) -> tuple[float, float, float, float]:
        index, count = text.search(word).get_next()
        return text.get_charbox(index)[0], text.get_charbox(index)[1], text.get_charbox(index + count - 1)[2], text.get_charbox(index)[3]

    (_, bottom, left, top), right = box(before), box(after)[0]
    assert right - left >= 11  # two spaces and the icon
    height = page.get_height()
    return page.render(scale=scale).to_pil().crop((int(left * scale) + 4, int((height - top) * scale), int(right * scale) - 4, int((height - bottom) * scale)))


def test_inline_images_are_the_games_own_pictures_through_the_image_gate(cli, tmp_path, monkeypatch):
    from PIL import Image, ImageDraw

    monkeypatch.chdir(tmp_path)
    assert cli("init", "mygame").exit_code == 0
    (tmp_path / "mygame" / "art").mkdir()
    coin = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    ImageDraw.Draw(coin).ellipse((4, 4, 60, 60), fill=(230, 160, 0, 255))
    coin.save(tmp_path / "mygame" / "art" / "coin.png")
    layout = tmp_path / "mygame" / "layout.yaml"
    edit(tmp_path / "mygame" / "cards.csv", '"Draw a card. If it is red, play it at once."', '"Pay :coin: now"')
    edit(layout, "wrap: true, align: center, colour: ink}", "wrap: true, align: center, colour: ink, inline_images: {coin: art/coin.png}}")
    assert cli("export", "mygame", "--to", "pdf", "--out", "out").exit_code == 0
    page = pypdfium2.PdfDocument(tmp_path / "out" / "mygame-one-up.pdf")[0]
    assert "Pay now" in page.get_textpage().get_text_range()
    colours = _between(page, "Pay", "now").convert("RGB").getcolors(1 << 16)
    assert any(r > 200 and 130 < g < 190 and b < 60 for _, (r, g, b) in colours)  # the coin's orange
    edit(layout, "art/coin.png", "../coin.png")
    result = cli("build", "mygame")
    assert result.exit_code == 1 and "inline_images.coin: image '../coin.png' leaves the game folder" in result.stderr


def test_a_reprint_has_only_the_named_cards_and_leaves_the_kit_alone(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("init", "mygame").exit_code == 0
    assert cli("build", "mygame").exit_code == 0
    kit = (tmp_path / "output" / "mygame.pdf").read_bytes()
    result = cli("build", "mygame", "--cards", "tide,stone,tide")
    assert result.exit_code == 0 and "wrote output/mygame-reprint.pdf" in result.stdout
    assert (tmp_path / "output" / "mygame.pdf").read_bytes() == kit
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(tmp_path / "output" / "mygame-reprint.pdf").pages]
    assert len(pages) == 2 and pages[0].startswith("Tide")  # no cover: the faces, then the backs
    assert pages[0].count("Tide") == 2 and pages[0].count("Stone") == 1 and "Spark" not in pages[0]
    result = cli("build", "mygame", "--cards", "tied")
    assert result.exit_code == 1 and "--cards: no card 'tied' in this game (did you mean 'tide'?)" in result.stderr
    for nothing in ("", " , ,"):  # a reprint of nothing is refused, not taken for the whole kit
        result = cli("build", "mygame", "--cards", nothing)
        assert result.exit_code == 2 and "names nothing: give one name or more, separated by commas" in result.stderr
    assert (tmp_path / "output" / "mygame.pdf").read_bytes() == kit


def test_a_proof_shows_each_cards_cut_line_and_safe_area(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("init", "mygame").exit_code == 0
    scale = 4  # px a pt

    def column(folder: str, x_mm: float) -> set[tuple[int, int, int]]:
        """The colours down the first card's height at ``x_mm`` from the sheet's left edge (6 poker
        cards on A4: 3 x 2 centred, the first card's trim from 10.5, 60.5 mm)."""
        page = next(p for p in pypdfium2.PdfDocument(tmp_path / folder / "mygame.pdf") if "· faces" in p.get_textpage().get_text_range())
        image = page.render(scale=scale).to_pil().convert("RGB")
        x = round(x_mm / 25.4 * 72 * scale)
        return {image.getpixel((dx, round((60.5 + t) / 25.4 * 72 * scale))) for dx in (x - 1, x, x + 1) for t in range(5, 84)}

    def has(colours, test) -> bool:
        return any(test(*c) for c in colours)

    red = lambda r, g, b: r > 180 and g < 50 and b < 50  # noqa: E731 (the guides' #d50000)
    blue = lambda r, g, b: b > 160 and r < 50 and g < 110  # noqa: E731 (#0050d0)
    assert cli("build", "mygame", "--out", "plain").exit_code == 0
    assert not has(column("plain", 10.5), red) and not has(column("plain", 13.5), blue)
    result = cli("build", "mygame", "--guides", "--out", "proof")
    assert result.exit_code == 0
    assert has(column("proof", 10.5), red)  # the cut line on the trim
    assert has(column("proof", 13.5), blue) and not has(column("proof", 13.5), red)  # the safe area, 3 mm inside
    cover = " ".join(PdfReader(tmp_path / "proof" / "mygame.pdf").pages[0].extract_text().split())
    assert "A proof (built with --guides)" in cover


def test_a_refused_first_build_says_nothing_was_written(game_copy, cli, tmp_path):
    # 'left as it was' names a PDF that is there; with none yet, the line says nothing was written
    folder = game_copy("mission-emission")
    edit(folder / "states.yaml", "name: Goa", "name: Goa Daman Diu Dadra Nagar Haveli and Lakshadweep Islands")
    result = cli("build", folder, "--out", tmp_path / "new")
    assert result.exit_code == 1 and "mission-emission: not built (1 error); nothing was written" in result.stderr
    assert not (tmp_path / "new" / "mission-emission.pdf").exists()


@pytest.mark.slow
def test_a_short_edge_back_sheet_is_the_long_edge_one_turned_upside_down(cli, tmp_path):
    # Flipped on the short edge a sheet's backs come out turned 180 degrees against a long-edge
    # print: drawn turned, they make the same cards (a back upright when its card is turned over
    # sideways) whichever edge the printer flips on.  Maybe Missions' vote backs carry text.
    pages = {}
    for duplex in ("long", "short"):
        assert cli("build", "maybe-missions", "--duplex", duplex, "--out", tmp_path / duplex).exit_code == 0
        pdf = tmp_path / duplex / "maybe-missions.pdf"
        page = PdfReader(pdf).pages[3]
        assert f"backs ({duplex} edge" in page.extract_text()
        box = [float(v) / MM * 2 for v in page.bleedbox]  # px at 2 px a mm
        image = pypdfium2.PdfDocument(pdf)[3].render(scale=2 / MM).to_pil().convert("L")
        height = image.size[1]
        pages[duplex] = image, (round(box[0]), round(height - box[3]), round(box[2]), round(height - box[1]))
    (long_image, box), (short_image, _) = pages["long"], pages["short"]

    def differing(a, b) -> int:  # pixels whose grey differs by more than 60 of 255
        return sum(ImageChops.difference(a.crop(box), b.crop(box)).histogram()[61:])

    area = (box[2] - box[0]) * (box[3] - box[1])
    assert differing(long_image.rotate(180), short_image) < 0.005 * area  # anti-aliasing only
    assert differing(long_image, short_image) > 0.05 * area  # the comparison sees a back left upright


def test_a_build_leaves_the_garbage_collector_as_it_found_it(content):
    # the collector is paused while a kit is built (its passes free almost nothing there) and
    # runs again after, whether the build succeeds or fails; one paused by the caller stays so
    import gc

    from deckpress.generator.content.errors import ContentErrors

    assert build_kit(content, PrintOptions(), write=False) == b"" and gc.isenabled()
    with pytest.raises(ContentErrors):
        build_kit(content, PrintOptions(ink_friendly=True))  # Mission Emission has no ink-friendly palette
    assert gc.isenabled()
    gc.disable()
    try:
        build_kit(content, PrintOptions(), write=False)
        assert not gc.isenabled()
    finally:
        gc.enable()

"""CMYK PDFs for print shops (``--cmyk PROFILE``): every colour and image in the press's inks,
black and greys in black ink alone, the profile embedded as the output intent; the design's RGB
build untouched."""
from __future__ import annotations

from pathlib import Path

import pypdfium2
import pytest
from cmyk_profile import cmyk_profile
from conftest import edit, line_of
from PIL import Image, ImageChops, ImageDraw, ImageStat
from pypdf import PdfReader
from pypdf.generic import ContentStream

#: The content-stream operators that set a colour other than device CMYK's k and K.
OTHER_COLOUR_OPERATORS = {b"rg", b"RG", b"g", b"G", b"cs", b"CS", b"sc", b"SC", b"scn", b"SCN"}


def _walk(reader: PdfReader):
    """Every (operands, operator) of every page and of the forms they use, and every image XObject."""
    operations, images, seen = [], [], set()

    def visit(content, resources):
        operations.extend(ContentStream(content, reader).operations)
        for ref in (resources or {}).get("/XObject", {}).values():
            obj = ref.get_object()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if obj.get("/Subtype") == "/Image":
                images.append(obj)
            else:
                visit(obj, obj.get("/Resources", resources))

    for page in reader.pages:
        visit(page.get_contents(), page["/Resources"])
    return operations, images


@pytest.fixture
def press(tmp_path) -> Path:
    path = tmp_path / "press.icc"
    path.write_bytes(cmyk_profile())
    return path


@pytest.fixture
def game_with_art(cli, tmp_path, monkeypatch) -> Path:
    """A ``deckpress init`` game whose face also shows a red picture, transparent on its right half,
    and a greyscale one."""
    monkeypatch.chdir(tmp_path)
    assert cli("init", "mygame").exit_code == 0
    art = tmp_path / "mygame" / "art"
    art.mkdir()
    red = Image.new("RGBA", (40, 40), (0, 0, 0, 0))
    ImageDraw.Draw(red).rectangle((0, 0, 19, 39), fill=(230, 20, 20, 255))
    red.save(art / "red.png")
    Image.new("L", (40, 40), 64).save(art / "grey.png")
    edit(tmp_path / "mygame" / "layout.yaml", "    back:\n", "      - {type: text, x_mm: 7, y_mm: 50, w_mm: 49, h_mm: 8, text: ':red:', "
         "font: regular, font_pt: 11, min_font_pt: 6, align: left, colour: ink, inline_images: {red: art/red.png}}\n"
         "      - {type: image, x_mm: 40, y_mm: 50, w_mm: 10, h_mm: 10, image: art/grey.png}\n    back:\n")
    return tmp_path / "mygame"


def test_a_cmyk_build_prints_every_colour_and_image_in_the_presss_inks(cli, game_with_art, press, tmp_path):
    result = cli("build", game_with_art, "--cmyk", press, "--out", "cmyk")
    assert result.exit_code == 0, result.stderr
    pdf = tmp_path / "cmyk" / "mygame.pdf"
    reader = PdfReader(pdf)
    operations, images = _walk(reader)
    assert not {op for _, op in operations} & OTHER_COLOUR_OPERATORS  # no RGB or grey colour left
    fills = {tuple(round(float(v), 3) for v in operands) for operands, op in operations if op == b"k"}
    assert (0, 0, 0, round(1 - 0x1b / 255, 3)) in fills  # the text's ink #1b1b1b: black ink alone
    # the card colour #d1495b through the test press: magenta and yellow, little cyan
    assert any(c < 0.1 and m > 0.6 and y > 0.4 for c, m, y, k in fills)

    assert {str(image["/ColorSpace"]) for image in images} == {"/DeviceCMYK"}
    # the pixels as stored (pypdf's decode_as_image would turn a masked CMYK image into RGBA)
    pixels = [(Image.frombytes("CMYK", (image["/Width"], image["/Height"]), image.get_data()), "/SMask" in image) for image in images]
    grey = next(im for im, masked in pixels if not masked)
    assert grey.getpixel((5, 5)) == (0, 0, 0, 255 - 64)  # the greyscale picture: black ink alone
    red = next(im for im, masked in pixels if masked)
    c, m, y, k = red.getpixel((5, 5))
    assert c < 25 and m > 200 and y > 200  # the red half, in magenta and yellow
    smask = next(image for image in images if "/SMask" in image)["/SMask"].get_object()
    assert smask.decode_as_image().getpixel((30, 5)) == 0  # the transparent half stays transparent

    intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "deckpress test press"
    profile = intent["/DestOutputProfile"].get_object()
    assert profile["/N"] == 4 and profile.get_data() == press.read_bytes()
    cover = reader.pages[0].extract_text() + reader.pages[1].extract_text()
    assert "Colours: CMYK for the press of the profile 'deckpress test press'" in " ".join(cover.split())

    assert cli("build", game_with_art, "--cmyk", press, "--out", "again").exit_code == 0
    assert (tmp_path / "again" / "mygame.pdf").read_bytes() == pdf.read_bytes()


def test_the_cmyk_kit_looks_like_the_rgb_one_and_the_rgb_build_keeps_its_rgb(cli, game_with_art, press, tmp_path):
    assert cli("build", game_with_art, "--out", "rgb").exit_code == 0
    assert cli("build", game_with_art, "--cmyk", press, "--out", "cmyk").exit_code == 0
    operators = {op for _, op in _walk(PdfReader(tmp_path / "rgb" / "mygame.pdf"))[0]}
    assert b"rg" in operators and b"k" not in operators
    assert "/OutputIntents" not in PdfReader(tmp_path / "rgb" / "mygame.pdf").trailer["/Root"]

    def sheet(folder: str) -> Image.Image:
        document = pypdfium2.PdfDocument(tmp_path / folder / "mygame.pdf")
        page = next(i for i in range(len(document)) if "Spark" in document[i].get_textpage().get_text_range())
        return document[page].render(scale=1).to_pil().convert("RGB")

    rgb, cmyk = sheet("rgb"), sheet("cmyk")
    assert max(ImageStat.Stat(ImageChops.difference(rgb, cmyk)).mean) < 20  # the same sheet, seen through another press
    # Spark's card colour stays a red (rendered by pdfium's own CMYK reading, not the test press's)
    r, g, b = cmyk.getpixel((30, 240))  # beside the first card's text box
    assert r > g + 60 and r > b + 40, (r, g, b)


def test_a_file_that_is_not_a_presss_profile_is_refused_with_the_reason(cli, game_with_art, tmp_path):
    from PIL import ImageCms

    (tmp_path / "srgb.icc").write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    (tmp_path / "notes.icc").write_text("not a profile")
    for name, reason in (("srgb.icc", "is an RGB profile ('sRGB built-in'): give the print shop's CMYK profile of its press"),
                         ("notes.icc", "is not an ICC profile (LittleCMS cannot read it)"),
                         ("missing.icc", "does not exist")):
        result = cli("build", game_with_art, "--cmyk", tmp_path / name, "--out", "out")
        assert result.exit_code == 2 and f"'{tmp_path / name}' {reason}" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_one_up_pdf_for_a_print_service_can_be_cmyk_but_images_stay_rgb(cli, game_with_art, press, tmp_path):
    assert cli("export", game_with_art, "--to", "pdf", "--cmyk", press, "--out", "pdf").exit_code == 0
    reader = PdfReader(tmp_path / "pdf" / "mygame-one-up.pdf")
    assert not {op for _, op in _walk(reader)[0]} & OTHER_COLOUR_OPERATORS
    assert "/OutputIntents" in reader.trailer["/Root"]
    result = cli("export", game_with_art, "--to", "png", "--cmyk", press)
    assert result.exit_code == 2 and "--cmyk is for --to pdf: PNG images are RGB" in result.stderr


def test_inks_named_in_a_layout_print_as_given_in_the_rgb_and_the_cmyk_build(cli, tmp_path, monkeypatch, press):
    monkeypatch.chdir(tmp_path)
    assert cli("init", "mygame").exit_code == 0
    layout = tmp_path / "mygame" / "layout.yaml"
    edit(layout, 'back: "#2e294e"', 'back: "cmyk(60, 40, 40, 100)"')  # a rich black behind every card back
    for options in ((), ("--cmyk", press)):
        assert cli("build", "mygame", *options, "--out", "out").exit_code == 0
        operations, _ = _walk(PdfReader(tmp_path / "out" / "mygame.pdf"))
        fills = {tuple(float(v) for v in operands) for operands, op in operations if op == b"k"}
        assert (0.6, 0.4, 0.4, 1.0) in fills, options
    edit(layout, 'back: "cmyk(60, 40, 40, 100)"', 'back: "cmyk(160, 40, 40, 100)"')
    result = cli("validate", "mygame")
    assert result.exit_code == 1 and f"layout.yaml:{line_of(layout, 'cmyk(160')}:" in result.stdout + result.stderr


def test_a_profiles_own_name_reaches_the_cover_escaped(cli, game_with_art, tmp_path):
    (tmp_path / "odd.icc").write_bytes(cmyk_profile("Press\x1b[31m red"))
    assert cli("build", game_with_art, "--cmyk", tmp_path / "odd.icc", "--out", "out").exit_code == 0
    reader = PdfReader(tmp_path / "out" / "mygame.pdf")
    cover = " ".join((reader.pages[0].extract_text() + reader.pages[1].extract_text()).split())
    assert "profile 'Press\\x1b[31m red'" in cover and "\x1b" not in cover

"""Text in any script: every character printed by some font, shaped where its script
needs it, or refused at the card's own line with the characters named."""
from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import matplotlib
import pypdfium2
import pytest
import uharfbuzz as hb
import yaml
from conftest import edit, line_of
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from deckpress.generator.paths import FONTS_DIR
from deckpress.generator.render import fonts, scripts

HINDI = yaml.safe_load((Path(__file__).parent / "data" / "hindi-state-names.yaml").read_text("utf-8"))
DEJAVU = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"  # Bitstream Vera licence, ships with matplotlib
STIX = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "STIXGeneral.ttf"  # STIX font licence, ships with matplotlib


def _hindi_edition(game_copy) -> Path:
    """A copy of Mission Emission whose state cards carry their Hindi names."""
    folder = game_copy("mission-emission")
    states = folder / "states.yaml"
    text = re.sub(r"^(    name: )\"?([^\"\n]+)\"?$", lambda m: f'{m.group(1)}"{HINDI[m.group(2)]}"', states.read_text("utf-8"), flags=re.M)
    states.write_text(text, "utf-8")
    return folder


def _fonts_of(pdf: Path) -> set[str]:
    names = set()
    for page in PdfReader(pdf).pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            names.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    return names


@pytest.mark.slow
def test_a_hindi_edition_builds_and_reads_back(game_copy, cli, tmp_path):
    folder = _hindi_edition(game_copy)
    assert cli("validate", folder).exit_code == 0
    result = cli("build", folder, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "out" / "mission-emission.pdf"
    text = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    # names drawn without a conjunct or a reordered vowel sign read back whole; shaped clusters do
    # not (scripts.py's docstring: reportlab maps them to private-use characters)
    for name in ("असम", "गोवा", "गुजरात", "मेघालय", "पंजाब", "पुडुचेरी"):
        assert name in text
    assert {"NotoSansDevanagari-Bold", "Lato-Bold"} <= _fonts_of(pdf)


def _ink_width(draw) -> int:
    """Pixels between the leftmost and rightmost inked columns of a 400 x 100 pt page drawn by
    ``draw(canvas)`` and rasterised at 72 dpi x 4."""
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(400, 100))
    draw(c)
    c.save()
    image = pypdfium2.PdfDocument(buf.getvalue())[0].render(scale=4).to_pil().convert("L")
    box = image.point(lambda v: 255 if v < 128 else 0).getbbox()
    return box[2] - box[0]


@pytest.mark.parametrize("conjunct", ["क्ष", "प्र", "ष्ट्र"])
def test_a_conjunct_is_drawn_as_harfbuzz_shapes_it(conjunct):
    fonts.register()
    chain = fonts.SHIPPED.regular
    path = FONTS_DIR / "NotoSansDevanagari-Regular.ttf"
    face = hb.Face(path.read_bytes())
    font = hb.Font(face)
    buf = hb.Buffer()
    buf.add_str(conjunct)
    buf.guess_segment_properties()
    hb.shape(font, buf, {})
    assert len({g.cluster for g in buf.glyph_infos}) == 1, "HarfBuzz shapes the conjunct as one cluster"
    advance_pt = sum(p.x_advance for p in buf.glyph_positions) / face.upem * 40
    # deckpress measures what HarfBuzz shapes ...
    assert scripts.width(conjunct, chain, 40) == pytest.approx(advance_pt, abs=0.01)
    # ... and draws it: the inked width is the cluster's, not its parts' side by side with a virama
    shaped = _ink_width(lambda c: scripts.draw(c, 20, 40, conjunct, chain, 40))
    unshaped = _ink_width(lambda c: (c.setFont("NotoSansDevanagari", 40), c.drawString(20, 40, conjunct)))
    assert shaped <= advance_pt * 4 + 8
    assert unshaped > shaped * 1.25


def test_a_hindi_name_is_fitted_by_its_shaped_width(game_copy, cli):
    # the shaped width decides the fit: a long name is refused like a long Latin one, at its line
    folder = _hindi_edition(game_copy)
    edit(folder / "states.yaml", '"अंडमान और निकोबार द्वीपसमूह"', '"अंडमान और निकोबार द्वीपसमूह केन्द्र शासित प्रदेश भारत"')
    result = cli("validate", folder)
    assert result.exit_code != 0
    line = line_of(folder / "states.yaml", "id: andaman")  # errors about a card are at its record
    assert f"states.yaml:{line}:" in result.output and "to fit on one line" in result.output


@pytest.mark.slow
@pytest.mark.parametrize("name, named", [
    ("Assam 🌿🐘", ["U+1F33F HERB '🌿'", "U+1F418 ELEPHANT '🐘'"]),
    ("阿萨姆邦 Ассам", ["U+963F CJK UNIFIED IDEOGRAPH-963F '阿'", "U+90A6 CJK UNIFIED IDEOGRAPH-90A6 '邦'"]),
])
def test_characters_no_font_draws_are_refused_at_the_card_naming_them(game_copy, cli, tmp_path, name, named):
    folder = game_copy("mission-emission")
    edit(folder / "states.yaml", "name: Assam", f'name: "{name}"')
    line = line_of(folder / "states.yaml", "id: assam")  # errors about a card are at its record
    for command in (("validate", folder), ("build", folder, "--out", tmp_path / "out")):
        result = cli(*command)
        assert result.exit_code != 0
        assert f"states.yaml:{line}:" in result.output and "text '{name}'" in result.output
        assert "has characters no font draws" in result.output and "fonts tried: Lato Bold, Noto Sans Devanagari Bold" in result.output
        for what in named:
            assert what in result.output
    assert not (tmp_path / "out").exists()


def test_right_to_left_text_is_refused_with_the_reason(game_copy, cli):
    folder = game_copy("mission-emission")
    edit(folder / "states.yaml", "name: Assam", 'name: "آسام"')
    result = cli("validate", folder)
    assert result.exit_code != 0
    assert "has right-to-left characters (U+0622 ARABIC LETTER ALEF WITH MADDA ABOVE" in result.output
    assert "cannot lay out right-to-left text" in result.output


def test_a_game_declares_its_own_font_for_what_the_shipped_ones_lack(game_copy, cli, tmp_path):
    folder = game_copy("mission-emission")
    edit(folder / "states.yaml", "name: Assam", 'name: "Assam ⌚"')  # a symbol not even the shipped DejaVu Sans has
    assert "U+231A WATCH" in cli("validate", folder).output
    (folder / "fonts").mkdir()
    shutil.copy(STIX, folder / "fonts" / "STIXGeneral.ttf")
    edit(folder / "game.yaml", "\ncard_sizes:", "\nfonts:\n  - regular: fonts/STIXGeneral.ttf\ncard_sizes:")
    result = cli("build", folder, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert any("STIXGeneral" in name for name in _fonts_of(tmp_path / "out" / "mission-emission.pdf"))


@pytest.mark.parametrize("declared, expected", [
    ("fonts/missing.ttf", "font 'fonts/missing.ttf' does not exist"),
    ("fonts/bad.ttf", "font 'fonts/bad.ttf' is not a TrueType font deckpress can embed"),
    ("../outside.ttf", "font '../outside.ttf' leaves the game folder"),
])
def test_a_declared_font_that_cannot_be_used_is_an_error_at_its_line(game_copy, cli, declared, expected):
    folder = game_copy("mission-emission")
    (folder / "fonts").mkdir()
    (folder / "fonts" / "bad.ttf").write_bytes(b"not a font at all" * 10)
    (folder.parent / "outside.ttf").write_bytes(DEJAVU.read_bytes())
    edit(folder / "game.yaml", "\ncard_sizes:", f"\nfonts:\n  - regular: {declared}\ncard_sizes:")
    result = cli("validate", folder)
    assert result.exit_code != 0
    line = line_of(folder / "game.yaml", declared)
    assert f"game.yaml:{line}:" in result.output and expected in result.output
    assert "Traceback" not in result.output


def test_the_cover_prints_a_hindi_title_and_refuses_an_emoji(game_copy, cli, tmp_path):
    folder = game_copy("mission-emission")
    edit(folder / "game.yaml", "title: Mission Emission", 'title: "मिशन एमिशन (Mission Emission)"')
    result = cli("build", folder, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    cover = PdfReader(tmp_path / "out" / "mission-emission.pdf").pages[0]
    assert "(Mission Emission): print-and-play" in cover.extract_text()
    assert any("NotoSansDevanagari-Bold" in str(f.get_object()["/BaseFont"]) for f in cover["/Resources"]["/Font"].values())
    edit(folder / "game.yaml", 'title: "मिशन एमिशन (Mission Emission)"', 'title: "Mission 🚀"')
    result = cli("build", folder, "--out", tmp_path / "out")
    assert result.exit_code != 0
    assert "game.yaml: the cover's text has characters no font draws (U+1F680 ROCKET" in result.output

"""The Maybe Missions print-and-play kit, read back: pages and sizes, vote cards, red sides behind
green sides, Master rule text made from its parameters, sets, ink-friendly colours, crossed icons.

Card facts (card-facts.md): 60 votes numbered 1-60, even YES and odd NO; two-sided mission, Master
and shop cards (green SUCCESS side, red FAIL side); identities and shop cards are expansions.
"""
from __future__ import annotations

import re
from pathlib import Path

import pypdfium2
import pytest
from click.testing import CliRunner
from conftest import edit
from PIL import ImageStat
from pypdf import PdfReader

from deckpress.generator.cli import main
from deckpress.generator.content import load_game
from deckpress.generator.content.maybe_missions_vocabulary import effect_text
from deckpress.generator.kit.adapters.maybe_missions import SIDE_SLOTS, icon_row
from deckpress.generator.kit.imposition import PAPERS
from deckpress.generator.kit.printdata import Deck
from deckpress.generator.render.kit import PrintOptions, render_pdf

GAME = "maybe-missions"
MM = 72 / 25.4
_LABEL = re.compile(r"^(.+?) · (\d+)/(\d+) · (faces|backs)", re.MULTILINE)


def _build(out: Path, *args: str, game: str | Path = GAME) -> Path:
    result = CliRunner().invoke(main, ["build", str(game), "--out", str(out), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out / "maybe-missions.pdf"


@pytest.fixture(scope="module")
def kit(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("kit"), "--sets", "base,identities,gadgets")


@pytest.fixture(scope="module")
def content():
    return load_game(GAME)


def _texts(pdf: Path) -> list[str]:
    """The text of every page (pdfium's extraction: fast, and it keeps line breaks)."""
    return [page.get_textpage().get_text_range() for page in pypdfium2.PdfDocument(pdf)]


def _sheets(texts: list[str]) -> dict[tuple[str, int, str], int]:
    """Page index of each sheet by (deck name, sheet number, 'faces' or 'backs'), from the labels."""
    pages = {}
    for i, text in enumerate(texts):
        for deck, n, _, side in _LABEL.findall(text):
            pages[(deck, int(n), side)] = i
    return pages


def test_pages_and_page_size(kit):
    reader = PdfReader(kit)
    # cover + its blank back, then sheets of faces and backs: 60 votes on 16-card sheets = 4,
    # 40 missions = 5, 20 Master cards = 3, 18 public + 18 secret identities = 2 + 2, 20 shop = 3
    assert len(reader.pages) == 2 + 2 * (4 + 5 + 3 + 2 + 2 + 3)
    w, h = PAPERS["a4"]
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx((w * MM, h * MM), abs=0.01)


def test_vote_cards_show_their_number_and_yes_or_no(kit):
    texts = _texts(kit)
    sheets = _sheets(texts)
    for sheet in range(1, 5):
        numbers = range(16 * (sheet - 1) + 1, min(16 * sheet, 60) + 1)
        words = texts[sheets[("Vote cards", sheet, "faces")]].split()
        for number in numbers:
            assert words.count(str(number)) == 3  # the big number and both corners
        assert words.count("YES") == words.count("NO") == len(numbers) // 2
        back = texts[sheets[("Vote cards", sheet, "backs")]].split()
        assert back.count("VOTE") == len(numbers) and "YES" not in back and "NO" not in back


def _centre(textpage, text: str) -> tuple[float, float] | None:
    """Centre x and top y (pt) of ``text``'s characters on a page (lines of wrapped text together)."""
    search = textpage.search(text, match_case=True)
    found = search.get_next()
    if found is None:
        return None
    boxes = [textpage.get_charbox(found[0] + k) for k in range(found[1])]
    boxes = [b for b in boxes if b[2] > b[0]]
    return (min(b[0] for b in boxes) + max(b[2] for b in boxes)) / 2, max(b[3] for b in boxes)


def _own_texts(content, deck: str) -> list[str]:
    """Text printed on both sides of each card of a two-sided deck, unique to the card."""
    if deck == "Mission cards":
        return [m["title"] for m in content["missions"]["missions"]]
    return [effect_text(m["rule"]) for m in content["masters"]["masters"]]


@pytest.mark.parametrize("deck, sheets", [("Mission cards", 5), ("Master cards", 3)])
def test_each_red_side_lands_behind_its_green_side(kit, content, deck, sheets):
    """Flipped on the long edge, a card's back is its face mirrored across the sheet's vertical
    centre line: same height, x mirrored.  Found by each card's own text on both sides."""
    pages, pdf = _sheets(_texts(kit)), pypdfium2.PdfDocument(kit)
    width = PAPERS["a4"][0] * MM
    wanted, checked = _own_texts(content, deck), 0
    for sheet in range(1, sheets + 1):
        face = pdf[pages[(deck, sheet, "faces")]].get_textpage()
        back = pdf[pages[(deck, sheet, "backs")]].get_textpage()
        on_sheet = 0
        for text in wanted:
            on_face, on_back = _centre(face, text), _centre(back, text)
            if on_face is None:
                continue  # on another sheet
            assert on_back is not None, text
            # within 1.5 pt (0.5 mm): glyph outlines are not mirrored, a wrong slot is 63 mm off
            assert on_back[0] == pytest.approx(width - on_face[0], abs=1.5), text
            assert on_back[1] == pytest.approx(on_face[1], abs=1.5), text
            on_sheet += 1
        header = deck.split()[0].upper()  # each side's header: 'SUCCESS MISSION' / 'FAIL MISSION'
        assert face.get_text_range().count(f"SUCCESS {header}") == back.get_text_range().count(f"FAIL {header}") == on_sheet
        checked += on_sheet
    assert checked == len(wanted)


def test_master_rule_text_is_made_from_its_parameters(kit, game_copy, tmp_path):
    text = " ".join(_texts(kit))
    assert "Votes above 45 don't" in text  # masters.yaml: {kind: vote_cutoff, above: 45}
    folder = game_copy(GAME)
    edit(folder / "masters.yaml", "rule: {kind: vote_cutoff, above: 45}", "rule: {kind: vote_cutoff, below: 9}")
    text = " ".join(_texts(_build(tmp_path, "--sets", "base", game=folder)))
    assert "Votes below 9 don't" in text and "Votes above 45" not in text


def test_sets_base_leaves_out_identities_and_shop(kit, content, tmp_path):
    card_only = ("PUBLIC IDENTITY", "SECRET IDENTITY", "HELPS YOU", "Shop cards ·", content["shop"]["shop"][0]["success"]["gadget"],
                 content["secret-identities"]["identities"][0]["name"])
    full = " ".join(_texts(kit))
    base = _texts(_build(tmp_path, "--sets", "base"))
    for words in card_only:
        assert words in full and words not in " ".join(base)
    assert len(base) == 2 + 2 * (4 + 5 + 3)


def test_unknown_set_is_refused(tmp_path):
    result = CliRunner().invoke(main, ["build", GAME, "--sets", "base,gadget", "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert "unknown set 'gadget' (this game's sets: base, gadgets, identities)" in result.stderr


def _brightness(pdf: Path, index: int) -> float:
    """Mean grey level (0 black .. 255 white) of a rendered page."""
    image = pypdfium2.PdfDocument(pdf)[index].render(scale=0.25).to_pil().convert("L")
    return ImageStat.Stat(image).mean[0]


@pytest.mark.slow
def test_ink_friendly_lightens_the_card_backgrounds(kit, tmp_path):
    ink = _build(tmp_path, "--sets", "base", "--ink-friendly")
    for deck, side in (("Mission cards", "faces"), ("Mission cards", "backs"), ("Vote cards", "backs")):
        normal = _brightness(kit, _sheets(_texts(kit))[(deck, 1, side)])
        light = _brightness(ink, _sheets(_texts(ink))[(deck, 1, side)])
        assert light > normal + 40, (deck, side, normal, light)


def _dark_pixels(content, icons: list[dict], ink_friendly: bool) -> int:
    """Near-black pixels of one mission card rendered with these green-side icons."""
    card = {"id": "test", "source": "test", "title": "Test", "success_icons": icon_row(icons, SIDE_SLOTS), "fail_icons": icon_row(icons, SIDE_SLOTS)}
    pdf = render_pdf(content.documents["layout"], [Deck("mission", "Test", [card])], None,
                     PrintOptions(duplex="none", crop_marks=False, ink_friendly=ink_friendly))
    image = pypdfium2.PdfDocument(pdf)[0].render(scale=2).to_pil().convert("L")
    return sum(image.histogram()[:60])


@pytest.mark.parametrize("ink_friendly", [False, True])
def test_crossed_icons_are_struck_through(content, ink_friendly):
    """A crossed icon carries a thin dark slash: about 17 mm long and 0.64 mm wide (1.8 pt); that
    it leaves the icon whole is tests/test_icons.py's."""
    plain = _dark_pixels(content, [{"resource": "gold"}, {"resource": "weapons"}], ink_friendly)
    crossed = _dark_pixels(content, [{"resource": "gold", "crossed": True}, {"resource": "weapons", "crossed": True}], ink_friendly)
    px_per_mm = 2 * 72 / 25.4
    slash = 17 * 0.64 * px_per_mm ** 2
    assert crossed - plain > 2 * slash * 0.6, (plain, crossed)


def test_two_builds_are_byte_identical(kit, tmp_path):
    assert _build(tmp_path, "--sets", "base,identities,gadgets").read_bytes() == kit.read_bytes()

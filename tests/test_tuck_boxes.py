"""``deckpress build --tuck-boxes``: a box for each deck, sized to its cards, whose net prints
where its sizes say, with the deck's back art on its front."""
from __future__ import annotations

import pypdfium2

from deckpress.generator.render.tuckbox import box_for

SCALE = 4  # px a pt
MM = 72 / 25.4


def test_a_deck_gets_a_box_its_cards_fit_in_with_its_back_art_on_the_front(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("init", "mygame").exit_code == 0
    result = cli("build", "mygame", "--tuck-boxes")
    assert result.exit_code == 0, result.stderr
    document = pypdfium2.PdfDocument(tmp_path / "output" / "mygame.pdf")
    pages = [i for i in range(len(document)) if "tuck box" in document[i].get_textpage().get_text_range()]
    assert len(pages) == 1  # one deck, one box
    text = document[pages[0]].get_textpage().get_text_range()
    assert "Cards" in text and "6 cards" in text and "Mygame" in text

    box = box_for((63, 88), 6)  # 1.5 mm round the cards; six cards are thinner than the least depth
    assert (box.width, box.height, box.depth) == (64.5, 89.5, 5.0)
    image = document[pages[0]].render(scale=SCALE).to_pil().convert("L")
    ink = image.point(lambda v: 255 if v < 200 else 0).crop((0, 0, image.width, round(280 * MM * SCALE)))  # above the footer line
    left, top, right, bottom = ink.getbbox()  # the cut line, the art, the words
    net_w, net_h = 2 * 64.5 + 2 * 5 + 8, 15 + 2 * 5 + 89.5  # back, side, front, side, glue flap; tuck, lid, body, bottom
    ox, oy = (210 - net_w) / 2, (297 - net_h) / 2
    found = [v / SCALE / MM for v in (left, top, right, bottom)]
    assert all(abs(a - b) < 0.6 for a, b in zip(found, (ox, oy, ox + net_w, oy + net_h))), found
    rgb = document[pages[0]].render(scale=SCALE).to_pil().convert("RGB")
    front = rgb.getpixel((round((ox + 64.5 + 5 + 64.5 / 2) * MM * SCALE), round((oy + 15 + 5 + 15) * MM * SCALE)))
    assert max(abs(a - b) for a, b in zip(front, (0x2e, 0x29, 0x4e))) < 8  # the deck's back colour
    back_panel = rgb.getpixel((round((ox + 64.5 / 2) * MM * SCALE), round((oy + 15 + 5 + 10) * MM * SCALE)))
    assert back_panel == (255, 255, 255)


def test_a_box_larger_than_the_paper_is_refused_with_its_size(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("init", "mygame").exit_code == 0
    result = cli("build", "mygame", "--tuck-boxes", "--paper", "170x130mm")
    assert result.exit_code == 1
    assert ("--tuck-boxes: Cards: its tuck box (64.5 x 89.5 x 5.0 mm; the net 147 x 114 mm) does not fit on 170x130mm "
            "(170 x 130 mm) either way: build with a larger --paper") in result.stderr



def _net_width_mm(pdf) -> float:
    """The width of the tuck box's net on its page (its inked extent above the footer line), mm."""
    document = pypdfium2.PdfDocument(pdf)
    page = next(document[i] for i in range(len(document)) if "tuck box" in document[i].get_textpage().get_text_range())
    image = page.render(scale=SCALE).to_pil().convert("L")
    ink = image.point(lambda v: 255 if v < 200 else 0).crop((0, 0, image.width, round((page.get_height() / MM - 17) * MM * SCALE)))
    left, _, right, _ = ink.getbbox()
    return (right - left) / SCALE / MM


def test_cards_glued_from_fold_over_sheets_get_a_box_twice_as_deep(cli, tmp_path, monkeypatch):
    assert box_for((63, 88), 20).depth == 20 * 0.32 + 1.5 and box_for((63, 88), 20, layers=2).depth == 20 * 0.64 + 1.5
    monkeypatch.chdir(tmp_path)
    assert cli("init", "mygame").exit_code == 0
    widths = {}
    for duplex in ("long", "fold"):
        assert cli("build", "mygame", "--tuck-boxes", "--duplex", duplex, "--out", duplex).exit_code == 0
        widths[duplex] = _net_width_mm(tmp_path / duplex / "mygame.pdf")
    # six cards: 5 mm deep (the least depth) on one sheet, 6 x 0.64 + 1.5 = 5.34 mm glued; the net has two sides
    assert abs(widths["fold"] - widths["long"] - 2 * 0.34) < 0.15, widths

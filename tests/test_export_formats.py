"""The export functions without the CLI: ``deckpress export`` parses its options into an
:class:`ExportOptions` and hands it to the format's function, which a program (or a test) can
call directly with content it loaded, and gets back what was written."""
from __future__ import annotations

import pytest
from PIL import Image
from pypdf import PdfReader

from deckpress.generator.content import check_game, find_game
from deckpress.generator.export.formats import EXPORTERS, export_hand, export_pdf
from deckpress.generator.export.options import ExportOptions, ExportRefused
from deckpress.generator.export.pages import card_pages


def _shipped(game_id: str):
    content, errors = check_game(find_game(game_id))
    assert not errors
    return content


def test_a_one_up_pdf_of_chosen_cards_is_written_as_a_reprint_beside_the_whole_deck(tmp_path):
    content = _shipped("mission-emission")
    whole = export_pdf(card_pages(content, "mission-emission", ExportOptions("pdf", out=tmp_path)), ExportOptions("pdf", out=tmp_path))
    first = card_pages(content, "mission-emission", ExportOptions("pdf", out=tmp_path)).pages[0].card_id
    options = ExportOptions("pdf", cards=(first,), out=tmp_path)
    cards = card_pages(content, "mission-emission", options)
    reprint = export_pdf(cards, options)
    assert whole.paths == [tmp_path / "mission-emission-one-up.pdf"]
    assert reprint.paths == [tmp_path / "mission-emission-one-up-reprint.pdf"]
    pages = len(PdfReader(reprint.paths[0]).pages)
    assert pages == len(cards.pages) and pages % 2 == 0 and {p.card_id for p in cards.pages} == {first}  # face, back, per copy
    assert reprint.summary == f"wrote {reprint.paths[0]} ({pages} pages: each card's face, then its back)"
    assert len(PdfReader(whole.paths[0]).pages) > pages


def test_a_hand_shows_the_named_cards_faces_only_at_the_resolution_asked_for(tmp_path):
    content = _shipped("mission-emission")
    ids = list(dict.fromkeys(p.card_id for p in card_pages(content, "me", ExportOptions("pdf")).pages))[:2]
    options = ExportOptions("hand", dpi=80, cards=tuple(reversed(ids)), out=tmp_path)
    cards = card_pages(content, "me", options)
    assert [(p.card_id, p.side) for p in cards.pages] == [(ids[1], "face"), (ids[0], "face")]
    exported = export_hand(cards, options)
    assert exported.summary == f"wrote {tmp_path / 'me-hand.png'} (2 cards: {ids[1]}, {ids[0]}; 80 dpi)"
    assert round(Image.open(exported.paths[0]).info["dpi"][0]) == 80


@pytest.mark.parametrize("fmt, options, message", [
    ("png", {"base_url": "https://example.org/"}, "--base-url is for --to tts"),
    ("tts", {"cards": ("x",)}, "--cards chooses cards for --to png, pdf and hand"),
    ("hand", {"service": "tgc"}, "--service fits cards to a print service's template: it is for --to png, pdf and tts, not hand"),
    ("tts", {"base_url": "ftp://example.org/"}, "--base-url: "),
])
def test_an_option_another_format_takes_is_refused_before_anything_is_drawn(fmt, options, message):
    with pytest.raises(ExportRefused, match="^" + message.replace("-", r"\-")):
        ExportOptions(fmt, **options)


def test_every_format_of_the_command_has_its_function_and_its_default_resolution():
    assert sorted(EXPORTERS) == ["hand", "pdf", "png", "tts"]
    assert [ExportOptions(f).resolution() for f in ("png", "tts", "hand")] == [300, 150, 150]
    assert ExportOptions("png", service="tgc").resolution() == 300 and ExportOptions("png", dpi=72).resolution() == 72


def test_a_card_the_game_lacks_is_refused_with_the_nearest_id():
    content = _shipped("mission-emission")
    known = card_pages(content, "me", ExportOptions("pdf")).pages[0].card_id
    typo = known[:-1]
    with pytest.raises(ExportRefused, match=f"^--cards: no card '{typo}' in this game \\(did you mean '{known}'"):
        card_pages(content, "me", ExportOptions("png", cards=(typo,)))

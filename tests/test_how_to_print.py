"""A kit cover's "How to print": the facts come from the build's options, the words from the
template ``generator/templates/how-to-print.txt.j2`` (so they can be translated apart from the
drawing code)."""
from __future__ import annotations

from dataclasses import replace

from deckpress.generator.content import check_game, find_game
from deckpress.generator.kit.adapters import kit_module
from deckpress.generator.render.kit import PrintOptions, printing_section
from deckpress.generator.render.layout import compile_layout


def _geheime_mission():
    """Geheime Mission's layout (round chips beside rectangular cards) and decks."""
    content, errors = check_game(find_game("geheime-mission"))
    assert not errors
    return compile_layout(content.documents["layout"]), kit_module(content.game_id).decks(content)


def test_the_section_tells_paper_cuts_and_the_duplex_flip_from_the_options():
    layout, decks = _geheime_mission()
    section = printing_section(PrintOptions(paper="letter", duplex="short", gap_mm=2.5, back_offset_mm=(0.5, -1.25)), layout, decks)
    paper, cut, flip, offset = section.paragraphs
    assert section.heading == "How to print"
    assert paper.startswith("Paper: LETTER. Print at 100 % (actual size, no 'fit to page'): each card then measures ")
    assert cut.startswith("Cut along the crop marks in the margins: they line up with every card edge. Cards stand 2.5 mm apart, "
                          "each with its own bleed: cut both edges of every gap. Round cards (")  # the chips: a cut circle
    assert flip.endswith("behind its face, and turned upside down, so that it stands upright when its card is turned over "
                         "sideways, as on a long-edge print.")
    assert offset.startswith("Back offset: 0.5 mm right, -1.25 mm down, as seen from the face side (the backs are moved back by "
                             "as much). If your printer shifts the back page, print the calibration sheet (deckpress calibrate "
                             "--duplex short), hold it")


def test_without_duplex_the_decks_on_fold_over_sheets_and_faces_only_are_named_as_the_game_names_them():
    layout, decks = _geheime_mission()
    odd = [replace(decks[0], name="Agents ¶ and\nspies"), *decks[1:]]  # a game's own name, printed as it is
    section = printing_section(PrintOptions(duplex="none", tuck_boxes=True, guides=True), layout, odd)
    paper, cut, tuck, proof, single, faces_only = section.paragraphs
    assert tuck.startswith("Tuck boxes: after the cards, a box for each deck, on a sheet of its own (single-sided).")
    assert proof.startswith("A proof (built with --guides): every card shows its cut line in dashed red")
    assert single.startswith("Print single-sided. Fold-over sheets (Suitcase and back-door chips): each face stands beside its own back")
    assert faces_only.startswith("Without duplex, Agents ¶ and\nspies, Counter-intelligence officer print faces only (their backs are "
                                 "all alike); build with --duplex long or short for backs, or --duplex fold")

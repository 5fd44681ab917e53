"""The studio's card catalogue: every card of a game, face and back, drawn by
the per-card export's own path, redrawn card by card as its data is edited; a card whose data
breaks keeps its last image, marked stale, with the error at its file and line; a variant's
cards show what it changed beside the base game's; the search finds cards by any field."""
from __future__ import annotations

import io
import re
import shutil

import pytest
from conftest import edit, line_of
from PIL import Image

from deckpress.generator.paths import CONTENT_DIR
from deckpress.generator.studio.catalogue import CardCatalogue, matches

DPI = 72  # the export's lowest dpi: enough to tell images apart, fast to draw
VARIANT = CONTENT_DIR / "variants" / "geheime-mission-softer-00-agents.yaml"


def _pixels(png: bytes) -> tuple[tuple[int, int], bytes]:
    with Image.open(io.BytesIO(png)) as image:
        return image.size, image.convert("RGB").tobytes()


def _by(catalogue: CardCatalogue, card_id: str, side: str = "face", copy: int = 1):
    return next(c for c in catalogue.cards if (c.card_id, c.side, c.copy) == (card_id, side, copy))


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    """A catalogue of an untouched copy of Mission Emission, drawn once for the tests that only read it."""
    folder = tmp_path_factory.mktemp("studio") / "me"
    shutil.copytree(CONTENT_DIR / "mission-emission", folder)
    catalogue = CardCatalogue(folder, dpi=DPI)
    done = catalogue.refresh()
    assert done.errors == []
    return catalogue


@pytest.fixture
def me(tmp_path):
    """A catalogue of a copy of Mission Emission to edit, drawn once, and the copy's folder."""
    folder = tmp_path / "me"
    shutil.copytree(CONTENT_DIR / "mission-emission", folder)
    catalogue = CardCatalogue(folder, dpi=60)
    assert catalogue.refresh().errors == []
    return catalogue, folder


def test_every_card_of_every_deck_is_there_face_and_back_at_the_dpis_pixel_size(shipped):
    assert shipped.title == "Mission Emission" and shipped.game_id == "mission-emission" and not shipped.is_variant
    decks = shipped.decks()
    assert [(kind, name, len(cards)) for kind, name, cards in decks] == [("state", "State cards", 36 * 2), ("point", "Point cards", 18 * 2)]
    assert len(shipped.cards) == 2 * (36 + 18)
    assert [c.side for c in shipped.cards[:4]] == ["face", "back", "face", "back"]
    tokens = [c.token for c in shipped.cards]
    assert len(set(tokens)) == len(tokens) and all(re.fullmatch(r"[A-Za-z0-9_-]+", t) for t in tokens)
    # a 63 x 88 mm card with 3 mm bleed on every side: 69 x 94 mm at 72 dpi
    expected = (round(69 / 25.4 * DPI), round(94 / 25.4 * DPI))
    assert expected == (196, 266)
    for card in shipped.cards:
        assert card.png is not None and card.version == 1 and not card.stale and card.errors == []
        with Image.open(io.BytesIO(card.png)) as image:
            assert image.format == "PNG" and image.size == expected
    assam = _by(shipped, "assam")
    assert (assam.name, assam.deck, assam.file, assam.line) == ("Assam", "State cards", "states.yaml", line_of(CONTENT_DIR / "mission-emission" / "states.yaml", "id: assam"))
    assert assam.fields["missions"][0]["name"] and shipped.card(assam.token) is assam and shipped.card("nope") is None
    assert shipped.base_cards == {} and shipped.watched() == [shipped.folder]


def test_a_cards_image_is_the_per_card_exports_image_pixel_for_pixel(shipped, cli, tmp_path):
    # One drawing path: `deckpress export --to png` of the whole game gives the same pixels.
    out = tmp_path / "png"
    result = cli("export", shipped.folder, "--to", "png", "--dpi", DPI, "--out", out)
    assert result.exit_code == 0, result.output
    for card in shipped.cards:
        exported = (out / card.kind / f"{card.card_id}-{card.side}.png").read_bytes()
        assert _pixels(card.png) == _pixels(exported), f"{card.kind} {card.card_id} {card.side}"


def test_editing_one_card_redraws_only_that_card(me):
    catalogue, folder = me
    before = {c.token: (c.png, c.version) for c in catalogue.cards}
    assam, assam_back, goa = _by(catalogue, "assam"), _by(catalogue, "assam", "back"), _by(catalogue, "goa")
    edit(folder / "states.yaml", "name: Assam\n", "name: Asom\n")
    done = catalogue.refresh()
    assert done.errors == [] and done.removed == []
    assert assam.token in done.changed and set(done.changed) <= {assam.token, assam_back.token}
    now = catalogue.card(assam.token)
    assert now.name == "Asom" and now.version == 2 and now.png != assam.png and not now.stale
    for card in catalogue.cards:
        if card.token not in done.changed:
            assert card.png is before[card.token][0] and card.version == before[card.token][1]
    assert catalogue.card(goa.token).png is goa.png
    # undoing the edit gives the very same image, byte for byte (drawn again, not kept)
    edit(folder / "states.yaml", "name: Asom\n", "name: Assam\n")
    done = catalogue.refresh()
    assert assam.token in done.changed and catalogue.card(assam.token).png == assam.png
    assert catalogue.card(assam.token).version == 3


@pytest.mark.slow
def test_a_broken_card_keeps_its_last_image_stale_with_the_error_at_its_line_until_fixed(me):
    catalogue, folder = me
    states = folder / "states.yaml"
    assam = _by(catalogue, "assam")
    # a text where a number is required: the schema's error, at Assam's line
    edit(states, "forest:  {value: 35,", "forest:  {value: thirty-five,")
    done = catalogue.refresh()
    line = line_of(states, "thirty-five")
    assert any(catalogue.shown_path(e) == "states.yaml" and e.line == line and "thirty-five" in e.message for e in done.errors)
    assert done.changed == [] and catalogue.errors == done.errors
    broken = catalogue.card(assam.token)
    assert broken.stale and broken.png is assam.png and broken.version == assam.version
    assert [e.line for e in broken.errors] == [line]
    assert [c.card_id for c in catalogue.cards if c.stale] == ["assam", "assam"]  # Bihar and the rest are fine
    # fixed: not stale, no error, the same image
    edit(states, "thirty-five", "35")
    done = catalogue.refresh()
    assert done.errors == [] and catalogue.errors == []
    assert not any(c.stale or c.errors for c in catalogue.cards) and catalogue.card(assam.token).png == assam.png
    # bad indentation: the file does not parse; the error is still put on the card it is in
    edit(states, "    name: Assam\n", "    name: Assam\n      kind: state\n")
    done = catalogue.refresh()
    assert [(catalogue.shown_path(e), e.line) for e in done.errors] == [("states.yaml", line_of(states, "name: Assam") + 1)]
    assert [c.card_id for c in catalogue.cards if c.stale] == ["assam", "assam"]
    edit(states, "    name: Assam\n      kind: state\n", "    name: Assam\n")
    assert catalogue.refresh().errors == []
    # a name too long for its box: only that card cannot be drawn; the others still are
    edit(states, "name: Assam\n", "name: Assam Assam Assam Assam Assam Assam Assam Assam\n")
    edit(states, "name: Goa\n", "name: Goa and Daman\n")
    done = catalogue.refresh()
    assert [c.card_id for c in catalogue.cards if c.stale] == ["assam", "assam"]
    assert catalogue.card(assam.token).png is assam.png and "needs" in catalogue.card(assam.token).errors[0].message
    assert catalogue.card(assam.token).errors[0].line == line_of(states, "id: assam")  # the record's own line
    assert "Goa and Daman" == _by(catalogue, "goa").name and _by(catalogue, "goa").token in done.changed
    assert "layout.yaml:" in catalogue.shown(done.errors[0]) and str(folder) not in catalogue.shown(done.errors[0])


def test_a_csv_game_from_init_redraws_the_card_whose_cell_changed(cli, tmp_path):
    game = tmp_path / "mygame"
    assert cli("init", game).exit_code == 0
    catalogue = CardCatalogue(game, dpi=60)
    assert catalogue.refresh().errors == []
    assert [(c.card_id, c.copy) for c in catalogue.cards if c.side == "face"] == [
        ("spark", 1), ("spark", 2), ("spark", 3), ("tide", 1), ("tide", 2), ("stone", 1)]  # copies from the 'copies' column
    tide = _by(catalogue, "tide")
    assert (tide.file, tide.line) == ("cards.csv", 3)
    edit(game / "cards.csv", "tide,Tide,", "tide,High tide,")
    done = catalogue.refresh()
    assert sorted((catalogue.card(t).card_id, catalogue.card(t).copy, catalogue.card(t).side) for t in done.changed) == [
        ("tide", 1, "face"), ("tide", 2, "face")]
    assert catalogue.card(tide.token).name == "High tide" and catalogue.card(tide.token).png != tide.png
    edit(game / "cards.csv", "#00798c,2", "#00798c,two")
    done = catalogue.refresh()
    assert [(catalogue.shown_path(e), e.line) for e in done.errors] == [("cards.csv", 3)]
    assert {c.card_id for c in catalogue.cards if c.stale} == {"tide"}


def test_a_card_the_drawing_trips_on_is_marked_and_the_others_are_still_drawn(cli, tmp_path, monkeypatch):
    from deckpress.generator.render import oneup

    game = tmp_path / "mygame"
    assert cli("init", game).exit_code == 0
    drawn = oneup.one_up_pdf

    def tripping(layout_doc, decks, *args, **kwargs):
        if any(card["id"] == "tide" for deck in decks for card in deck.cards):
            raise ZeroDivisionError("a bug in drawing")
        return drawn(layout_doc, decks, *args, **kwargs)

    monkeypatch.setattr(oneup, "one_up_pdf", tripping)
    catalogue = CardCatalogue(game, dpi=30)
    done = catalogue.refresh()  # no exception
    tide = _by(catalogue, "tide")
    assert tide.stale and tide.png is None and "could not be drawn" in tide.errors[0].message and "a bug in drawing" in tide.errors[0].message
    assert (catalogue.shown_path(tide.errors[0]), tide.errors[0].line) == ("cards.csv", 3) and done.errors == tide.errors
    assert all(c.png and not c.stale for c in catalogue.cards if c.card_id != "tide")


def test_a_variants_changed_cards_show_their_changes_beside_the_base_games(tmp_path):
    catalogue = CardCatalogue(VARIANT, dpi=60)
    assert catalogue.is_variant and catalogue.title == "Softer 00 agents" and catalogue.game_id == "geheime-mission"
    assert catalogue.watched() == [VARIANT]  # the shipped base game does not change
    assert catalogue.refresh().errors == []
    vesper = _by(catalogue, "vesper")
    assert vesper.changed["attack"] == (9, 8) and vesper.changed["centre"] == (6, 7) and not vesper.added
    assert (vesper.file, vesper.line) == (VARIANT.name, line_of(VARIANT, "id: vesper"))
    base = catalogue.base_cards[(vesper.kind, "vesper", 1, "face")]
    assert base.fields["id"] == "vesper" and base.png != vesper.png and base.changed == {}
    assert base.file == "agents.yaml" and catalogue.card(base.token) is base
    changed = {c.card_id for c in catalogue.cards if c.changed}
    assert len(changed) == 9
    other = next(c for c in catalogue.cards if not c.changed)
    assert other.file == "agents.yaml" and catalogue.base_cards[(other.kind, other.card_id, other.copy, other.side)].png == other.png
    # a broken change: that card is stale, at the variant's line
    variant = tmp_path / VARIANT.name
    shutil.copy(VARIANT, variant)
    copy = CardCatalogue(variant, dpi=20)  # small images: drawing all 156 again is not the point here
    assert copy.refresh().errors == []
    edit(variant, "id: vesper, fields: {attack: 8", "id: vesper, fields: {attack: eight")
    done = copy.refresh()
    assert done.errors and all(copy.shown_path(e) == VARIANT.name for e in done.errors)
    assert any(e.line == line_of(variant, "id: vesper") and '"eight"' in e.message for e in done.errors)
    assert {c.card_id for c in copy.cards if c.stale} == {"vesper"}


def test_search_by_a_word_by_a_field_and_no_match(shipped):
    def found(query: str) -> set[str]:
        return {c.card_id for c in shipped.cards if matches(c, query)}

    assert found("assam") == {"assam"}
    assert [c.side for c in shipped.cards if matches(c, "ASSAM side=face")] == ["face"]  # every word must match
    assert found("pradesh") >= {"andhra-pradesh", "arunachal-pradesh", "uttar-pradesh"}
    assert found("kind=union") == {c.card_id for c in shipped.cards if c.fields.get("kind") == "UNION TERRITORY"}
    assert found("missions.value=503") == {"delhi"}
    assert len(found("colour=forest")) == 6  # the record's colour as states.yaml writes it (drawn as a colour code)
    assert found("values.garbage.value=503") == {"delhi"} and _by(shipped, "delhi").record["colour"]
    assert found("points:+7") == {"forest-bottom", "energy-bottom", "water-bottom"}
    assert found("deck=point name=smoke") == {"smoke-top", "smoke-middle", "smoke-bottom"}
    assert found('name="tamil nadu"') == {"tamil-nadu"}
    assert found("atlantis") == set() and found("name=atlantis") == set()
    assert len(found("")) == 54


def test_an_edit_to_one_kinds_layout_redraws_that_kind_only(me):
    """Saving layout.yaml with a point card's face changed redraws the 18 point-card faces; the
    36 state cards, which read another part of the layout, keep their images."""
    catalogue, folder = me
    before = {c.token: c.png for c in catalogue.cards}
    edit(folder / "layout.yaml", 'text: "{points}", font: bold, font_pt: 48', 'text: "{points}", font: bold, font_pt: 40')
    done = catalogue.refresh()
    kinds = {c.token: (c.kind, c.side) for c in catalogue.cards}
    assert done.errors == []
    assert sorted({kinds[t] for t in done.changed}) == [("point", "face")]
    assert len(done.changed) == 18
    assert all(c.png is before[c.token] for c in catalogue.cards if c.kind == "state")

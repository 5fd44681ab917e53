"""deckpress export: per-card images at the print services' published pixel sizes, a
one-card-per-page PDF whose boxes prepress tools read, and Tabletop Simulator decks, each read
back: pixel sizes and dpi, boxes to 0.01 mm, colours where the card and its bleed are, the TTS
saved object's grid, cards and names, and a fan variant's changed card in its TTS deck."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

MM_PER_PT = 25.4 / 72
POKER_KINDS = {"mission-emission": ["state", "point"], "fifty-missions": ["symbol"],
               "maybe-missions": ["identity", "master", "mission", "shop"], "geheime-mission": ["agent"]}


def _boxes(page) -> dict[str, list[float]]:
    return {name: [float(v) * MM_PER_PT for v in getattr(page, name)] for name in ("mediabox", "trimbox", "bleedbox")}


def _close(box: list[float], expected: list[float]) -> bool:
    """Equal to 0.01 mm."""
    return all(abs(a - b) < 0.01 for a, b in zip(box, expected, strict=True))


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(POKER_KINDS))
def test_tgc_images_have_the_published_pixel_size(game, cli, tmp_path):
    # The Game Crafter's poker template: 825 x 1125 px at 300 dpi (2.5 x 3.5 in + 1/8 in bleed).
    result = cli("export", game, "--to", "png", "--service", "tgc", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    for kind in POKER_KINDS[game]:
        files = sorted((tmp_path / kind).glob("*.png"))
        assert files and any(f.name.endswith("-face.png") for f in files) and any(f.name.endswith("-back.png") for f in files)
        for f in files[:4]:
            with Image.open(f) as image:
                assert image.size == (825, 1125)
                assert [round(d) for d in image.info["dpi"]] == [300, 300]


@pytest.mark.slow
def test_mpc_images_and_other_sizes_at_their_own_trim_and_bleed(cli, tmp_path):
    # MakePlayingCards' poker image: 822 x 1122 px at 300 dpi; 50 Missions' round 80 mm missions
    # are not poker size, so they keep their own 3 mm bleed: 86 mm at 300 dpi = 1016 px.
    assert cli("export", "fifty-missions", "--to", "png", "--service", "mpc", "--out", tmp_path).exit_code == 0
    with Image.open(tmp_path / "symbol" / "lighter-5-1-face.png") as image:
        assert image.size == (822, 1122)
    with Image.open(tmp_path / "mission" / "total-16-face.png") as image:
        assert image.size == (1016, 1016)
    # two copies of every symbol card: numbered, a face and a back each
    assert {p.name for p in (tmp_path / "symbol").glob("lighter-5-*")} == {
        "lighter-5-1-face.png", "lighter-5-1-back.png", "lighter-5-2-face.png", "lighter-5-2-back.png"}


def test_one_up_pdf_for_drivethrucards_has_trim_and_bleed_boxes(cli, tmp_path):
    # OneBookShelf card prep: US poker 2.5 x 3.5 in, 1/8 in bleed, a 2.75 x 3.75 in page.
    assert cli("export", "mission-emission", "--to", "pdf", "--service", "dtc", "--out", tmp_path).exit_code == 0
    reader = PdfReader(tmp_path / "mission-emission-one-up.pdf")
    assert len(reader.pages) == 2 * (36 + 18)  # each card's face, then its back
    for page in reader.pages[:3]:
        boxes = _boxes(page)
        assert _close(boxes["mediabox"], [0, 0, 69.85, 95.25]) and _close(boxes["bleedbox"], [0, 0, 69.85, 95.25])
        assert _close(boxes["trimbox"], [3.175, 3.175, 66.675, 92.075])
    text = reader.pages[0].extract_text() + reader.pages[2].extract_text()
    assert "Andhra Pradesh" in text and "Arunachal Pradesh" in text


def test_one_up_pdf_without_a_service_is_the_cards_own_trim_and_bleed(cli, tmp_path):
    assert cli("export", "maybe-missions", "--to", "pdf", "--out", tmp_path).exit_code == 0
    reader = PdfReader(tmp_path / "maybe-missions-one-up.pdf")
    sizes = {tuple(round(v, 2) for v in _boxes(p)["mediabox"]) for p in reader.pages}
    assert sizes == {(0, 0, 69, 94), (0, 0, 50, 73)}  # 63 x 88 and 44 x 67 mm cards, 3 mm bleed
    for page in reader.pages:
        boxes = _boxes(page)
        w, h = boxes["mediabox"][2:]
        assert _close(boxes["trimbox"], [3, 3, w - 3, h - 3])


@pytest.mark.slow
def test_a_cards_colour_fills_its_trim_and_runs_into_the_bleed(cli, tmp_path):
    # A Mission Emission state card's background is its mission colour, drawn to the bleed edge:
    # the same colour just inside the trim and at the very edge of the image.
    assert cli("export", "mission-emission", "--to", "png", "--out", tmp_path).exit_code == 0
    with Image.open(tmp_path / "state" / "goa-face.png") as image:
        bleed_px = round(3 / 25.4 * 300)
        inside = image.getpixel((bleed_px + 12, bleed_px + 12))
        edge = image.getpixel((1, 1))
        assert inside == edge and inside != (255, 255, 255)
        assert image.getpixel((image.width // 2, image.height // 2)) == (255, 255, 255)  # the white value panel


@pytest.mark.slow
def test_tts_deck_reads_back_with_its_grid_cards_and_names(cli, tmp_path):
    assert cli("export", "mission-emission", "--to", "tts", "--out", tmp_path).exit_code == 0
    saved = json.loads((tmp_path / "mission-emission-state.json").read_text())
    deck = saved["ObjectStates"][0]
    assert deck["Name"] == "DeckCustom"
    sheet = deck["CustomDeck"]["1"]
    assert (sheet["NumWidth"], sheet["NumHeight"]) == (10, 4)  # 36 cards and the hidden-card slot
    assert sheet["BackIsHidden"] is True and sheet["UniqueBack"] is False
    names = [c["Nickname"] for c in deck["ContainedObjects"]]
    assert len(names) == 36 and names[0] == "Andhra Pradesh" and "Goa" in names
    assert deck["DeckIDs"] == [c["CardID"] for c in deck["ContainedObjects"]] == list(range(100, 136))
    face = Path(sheet["FaceURL"].removeprefix("file://"))
    with Image.open(face) as image:  # ten cards across, four down, each its 63 x 88 mm trim at 150 dpi (to a pixel)
        card_w, card_h = image.width / 10, image.height / 4
        assert card_w == int(card_w) and abs(card_w - 63 / 25.4 * 150) <= 1 and abs(card_h - 88 / 25.4 * 150) <= 1


@pytest.mark.slow
def test_tts_sheets_stay_within_4096_px_at_any_resolution(cli, tmp_path, monkeypatch):
    # TTS takes sheets up to 4096 px each way (its knowledge base, "Asset Creation"); --dpi 1200 once
    # wrote a 29,760 x 16,628 px sheet that TTS and Pillow both refuse.  A higher resolution now puts
    # fewer cards on each sheet, and one at which a card and the hidden slot do not fit is refused.
    monkeypatch.chdir(tmp_path)
    assert cli("init", "mygame").exit_code == 0  # six poker cards (spark x3, tide x2, stone)
    assert cli("export", "mygame", "--to", "tts", "--dpi", "700", "--out", "tts").exit_code == 0
    deck = json.loads((tmp_path / "tts" / "mygame-card.json").read_text())["ObjectStates"][0]
    assert len(deck["CustomDeck"]) == 6 and all((s["NumWidth"], s["NumHeight"]) == (2, 1) for s in deck["CustomDeck"].values())
    assert deck["DeckIDs"] == [100, 200, 300, 400, 500, 600]  # one card a sheet, beside the hidden-card slot
    for sheet in deck["CustomDeck"].values():
        with Image.open(Path(sheet["FaceURL"].removeprefix("file://"))) as image:
            assert image.width <= 4096 and image.height <= 4096
    refused = cli("export", "mygame", "--to", "tts", "--dpi", "1200", "--out", "big")
    assert refused.exit_code == 2 and not (tmp_path / "big").exists()
    assert ("at 1200 dpi a 63 x 88 mm card is 2,976 x 4,157 px, and a Tabletop Simulator sheet holds a card and the hidden-card "
            "slot within 4,096 px each way: use --dpi 825 or less, the highest at which every deck fits (set by deck 'card')") in refused.stderr


@pytest.mark.slow
def test_tts_export_of_a_variant_holds_its_changed_cards(cli, tmp_path):
    variant = tmp_path / "goa.yaml"
    variant.write_text('extends: mission-emission\nname: Goa renamed\nauthor: A Fan\nversion: "1"\ndescription: x\n'
                       "changes:\n  - replace: {file: states, id: goa, fields: {name: Goa Dourada}}\n")
    result = cli("export", variant, "--to", "tts", "--out", tmp_path / "tts")
    assert result.exit_code == 0, result.output
    deck = json.loads((tmp_path / "tts" / "goa-state.json").read_text())["ObjectStates"][0]
    names = [c["Nickname"] for c in deck["ContainedObjects"]]
    assert "Goa Dourada" in names and "Goa" not in names


@pytest.mark.slow
def test_two_sided_cards_get_a_sheet_of_backs_and_hide_behind_grey(cli, tmp_path):
    # Maybe Missions' mission cards have a red side behind each green one: TTS needs every back.
    assert cli("export", "maybe-missions", "--to", "tts", "--out", tmp_path).exit_code == 0
    sheet = json.loads((tmp_path / "maybe-missions-mission.json").read_text())["ObjectStates"][0]["CustomDeck"]["1"]
    assert sheet["UniqueBack"] is True and sheet["BackURL"].endswith("maybe-missions-mission-1-backs.png")
    with Image.open(sheet["FaceURL"].removeprefix("file://")) as image:
        w, h = image.width // sheet["NumWidth"], image.height // sheet["NumHeight"]
        assert image.getpixel((image.width - w // 2, image.height - h // 2)) == (128, 128, 128)


def test_an_invalid_variant_exports_nothing(cli, tmp_path):
    variant = tmp_path / "bad.yaml"
    variant.write_text('extends: mission-emission\nname: Bad\nauthor: A Fan\nversion: "1"\ndescription: x\n'
                       "changes:\n  - replace: {file: states, id: gao, fields: {name: Goa}}\n")
    result = cli("export", variant, "--to", "png", "--out", tmp_path / "out")
    assert result.exit_code == 1 and "no card 'gao' in states.yaml (did you mean 'goa'?)" in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_exports_and_builds_show_progress_on_a_terminal(tmp_path):
    from conftest import on_a_terminal

    out, shown = on_a_terminal("export", "geheime-mission", "--to", "png", "--out", str(tmp_path / "png"))
    assert "rasterising at 300 dpi" in shown and "/156" in shown and "wrote 156 images" in out
    out, shown = on_a_terminal("build", "mission-emission", "maybe-missions", "--out", str(tmp_path / "pdf"))
    assert "building mission-emission" in shown and "wrote" in out


def test_a_game_made_from_data_alone_exports_too(cli, tmp_path):
    # Every deck of every game (the shipped four and games made from data alone).
    game = tmp_path / "mygame"
    assert cli("init", game).exit_code == 0
    assert cli("export", game, "--to", "png", "--service", "tgc", "--out", tmp_path / "png").exit_code == 0
    images = sorted((tmp_path / "png").rglob("*.png"))
    assert images and all(Image.open(p).size == (825, 1125) for p in images)
    assert cli("export", game, "--to", "tts", "--out", tmp_path / "tts").exit_code == 0
    deck = json.loads(next((tmp_path / "tts").glob("*.json")).read_text())["ObjectStates"][0]
    assert len(deck["ContainedObjects"]) == len(images) // 2


def _light_runs(image, y: int) -> list[tuple[int, int]]:
    """The runs (first x, last x) of near-white pixels along row ``y``."""
    runs, start = [], None
    for x in range(image.width + 1):
        light = x < image.width and sum(image.getpixel((x, y))) > 600
        if light and start is None:
            start = x
        elif not light and start is not None:
            runs.append((start, x - 1))
            start = None
    return runs


@pytest.mark.slow
def test_tgc_takes_geheime_missions_round_chips_on_its_large_circle_chit(cli, tmp_path):
    # TGC's product API: Large Circle Chit, 1 in across + 1/8 in bleed = 375 x 375 px at 300 dpi.
    # The 25 mm chip sits in the middle, unscaled, its colour drawn out to the image's edge.
    result = cli("export", "geheime-mission", "--to", "png", "--service", "tgc", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    chips = sorted((tmp_path / "chip").glob("*.png"))
    assert len(chips) == 2 * (20 + 3)  # 20 suitcases and 3 back-door chips, a face and a back each
    for path in chips:
        with Image.open(path) as image:
            assert image.size == (375, 375) and [round(d) for d in image.info["dpi"]] == [300, 300]
    with Image.open(tmp_path / "chip" / "door-blue-face.png") as image:
        blue = image.getpixel((image.width // 2, image.height // 2))
        assert blue == image.getpixel((0, 0)) == image.getpixel((374, 374)) and blue[2] > 150 > blue[0]
        # the white halo along the chip's 25 mm cut circle: 25 mm across at 300 dpi, centred
        runs = _light_runs(image, image.height // 2)
        left, right = sum(runs[0]) / 2, sum(runs[-1]) / 2
        assert abs((right - left) - round(25 / 25.4 * 300)) <= 1 and abs((left + right) / 2 - 187) <= 1
    # the officer strip (40 x 100 mm) has no TGC template near its size: its own 3 mm bleed
    with Image.open(tmp_path / "officer" / "officer-face.png") as image:
        assert image.size == (round(46 / 25.4 * 300), round(106 / 25.4 * 300))


def test_one_up_pdf_for_tgc_puts_chips_on_a_1_inch_trim(cli, tmp_path):
    assert cli("export", "geheime-mission", "--to", "pdf", "--service", "tgc", "--out", tmp_path).exit_code == 0
    boxes = [_boxes(p) for p in PdfReader(tmp_path / "geheime-mission-one-up.pdf").pages]
    chips = [b for b in boxes if _close(b["mediabox"], [0, 0, 31.75, 31.75])]
    assert len(chips) == 2 * (20 + 3)
    assert all(_close(b["trimbox"], [3.175, 3.175, 28.575, 28.575]) for b in chips)  # TGC's 1 in cut, centred


def test_every_template_gives_the_pixel_size_its_service_publishes():
    from deckpress.generator.export import SERVICES

    published = {(s.id, t.product): t.canvas_px() for s in SERVICES.values() for t in s.templates}
    assert published[("tgc", "poker")] == (825, 1125) and published[("mpc", "poker")] == (822, 1122)
    assert published[("tgc", "Large Circle Chit")] == (375, 375) and published[("tgc", "Circle Deck")] == (1125, 1125)
    assert published[("mpc", "Custom Circle Game Cards")] == (1122, 1122)
    assert published[("mpc", "Blank Mini European Cards (44 x 67 mm)")] == (591, 864)
    for service in SERVICES.values():
        for template in service.templates:
            assert template.canvas_px() == template.published_px, (service.id, template.product)
            assert template.source


def _shipped_kinds() -> dict[tuple[str, str], tuple[tuple[float, float], str]]:
    from deckpress.generator.content import check_game, find_game
    from deckpress.generator.render.kit import drawn_as
    from deckpress.generator.render.layout import compile_layout

    kinds = {}
    for game in sorted(POKER_KINDS):
        content, errors = check_game(find_game(game))
        assert not errors
        layout = compile_layout(content.documents["layout"], sizes=drawn_as(content)["sizes"])
        kinds.update({(game, kind): (card.trim_mm, card.shape) for kind, card in layout.cards.items()})
    return kinds


def test_which_shipped_kinds_go_onto_which_service_template():
    # Poker-size kinds onto every service's poker template; the 25 mm chips onto TGC's 1 in chit;
    # the 44 x 67 mm vote cards onto MPC's Mini European (43.94 mm wide in MPC's editor: within
    # its rounding); the 80 mm round missions and the officer strip onto none (the round cards
    # published are 88.9 mm; nothing near 40 x 100 mm): they keep their own trim and bleed.
    from deckpress.generator.export import SERVICES, service_template, template_for

    kinds = _shipped_kinds()
    others = {"tgc": {("geheime-mission", "chip"): "Large Circle Chit"},
              "mpc": {("maybe-missions", "vote"): "Blank Mini European Cards (44 x 67 mm)"}, "dtc": {}}
    for service in SERVICES.values():
        for (game, kind), (trim, shape) in kinds.items():
            chosen = template_for(service, trim, shape)
            expected = "poker" if kind in POKER_KINDS[game] else others[service.id].get((game, kind))
            assert (chosen.product if chosen else None) == expected, (service.id, game, kind)
            assert template_for(service, trim) == chosen  # the export passes no shape: the same choice
            if chosen:  # never smaller than the card but for rounding (0.1 mm), never more than 1 mm larger
                assert all(-0.1 <= t - c <= 1 for t, c in zip(chosen.trim_mm, trim))
                assert service_template(service, trim) == (chosen.trim_mm, chosen.bleed_mm)


def test_a_card_near_a_published_size_fits_and_a_larger_one_keeps_its_own():
    from deckpress.generator.export import SERVICES, service_template, template_for

    tgc, mpc = SERVICES["tgc"], SERVICES["mpc"]
    assert template_for(tgc, (88.5, 88.5), "circle").canvas_px() == (1125, 1125)  # TGC's Circle Deck
    assert template_for(mpc, (88.5, 88.5), "circle").canvas_px() == (1122, 1122)  # MPC's circle cards
    assert template_for(mpc, (43.5, 66.5)).canvas_px() == (591, 864)  # MPC's Mini European
    assert template_for(tgc, (25, 25), "rect").product == "Large Square Chit"
    # a card larger than every template keeps its own trim: 64 x 89 mm is near poker but larger
    # than US poker (63.5 x 88.9), and US poker itself fits its own template exactly
    assert all(service_template(s, (64, 89)) is None for s in SERVICES.values())
    assert service_template(mpc, (63.5, 88.9)) == ((63.5, 88.9), 36 / 300 * 25.4)


@pytest.mark.slow
def test_maybe_missions_votes_go_onto_makeplayingcards_mini_european_cards(cli, tmp_path):
    """MPC's "Mini European (44 x 67 mm)": 591 x 864 px at 300 dpi (its editor's 1.73 x 2.64 in
    plus 0.12 in of bleed).  Its trim is 0.06 mm narrower than the vote card, within the services'
    rounding: the vote is centred, never scaled, and the TrimBox is MPC's."""
    assert cli("export", "maybe-missions", "--to", "png", "--service", "mpc", "--out", tmp_path / "png").exit_code == 0
    votes = sorted((tmp_path / "png" / "vote").glob("*-face.png"))
    assert votes
    with Image.open(votes[0]) as image:
        assert image.size == (591, 864)
    assert cli("export", "maybe-missions", "--to", "pdf", "--service", "mpc", "--out", tmp_path / "pdf").exit_code == 0
    reader = PdfReader(tmp_path / "pdf" / "maybe-missions-one-up.pdf")
    vote_pages = [p for p in reader.pages if round(float(p.mediabox.width) / 72 * 25.4, 1) < 55]
    assert vote_pages
    trim = _boxes(vote_pages[0])["trimbox"]
    assert _close([trim[2] - trim[0], trim[3] - trim[1]], [43.942, 67.056])

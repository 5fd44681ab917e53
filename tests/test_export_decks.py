"""deckpress export of a game of one's own grown to several decks of several sizes (a game made
with ``deckpress init`` plus a 70 x 120 mm tarot deck and a 70 x 70 mm square one), as a user
found it: which decks a print service's templates leave at their own size, choosing cards with
--cards for png and pdf, where the PNGs go, and the highest --dpi a TTS export of every deck takes."""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

TAROT_LINE = ("tarot (70 x 120 mm): no {service} template as large as the card and at most 1 mm larger: "
              "it keeps its own trim and bleed")
SQUARE_LINE = ("square (70 x 70 mm): no {service} template as large as the card and at most 1 mm larger: "
               "it keeps its own trim and bleed")


def _px(mm: float, dpi: int = 300) -> int:
    return round(mm / 25.4 * dpi)


def _add_deck(game: Path, deck_id: str, layout: str, size: tuple[int, int], rows: str, new_size: bool = True) -> None:
    """Add a deck ``deck_id`` of layout ``layout`` (``size``: trim in mm, 3 mm bleed) and its
    CSV file (``rows``: the lines after the header ``id,title``) to an init-made game."""
    w, h = size
    if new_size:
        game_yaml = (game / "game.yaml").read_text("utf-8")
        game_yaml = game_yaml.replace("card_sizes:\n", f"card_sizes:\n  {layout}: {{width_mm: {w}, height_mm: {h}}}\n", 1)
        (game / "game.yaml").write_text(game_yaml, "utf-8")
        with (game / "layout.yaml").open("a", encoding="utf-8") as out:
            out.write(f"  {layout}:\n    trim: {{width_mm: {w}, height_mm: {h}}}\n    card_size: {layout}\n    bleed_mm: 3\n"
                      f"    face:\n      - {{type: rect, x_mm: 0, y_mm: 0, w_mm: {w}, h_mm: {h}, fill: paper, bleed: true}}\n"
                      f"      - {{type: text, x_mm: 5, y_mm: 5, w_mm: {w - 10}, h_mm: 10, text: \"{{title}}\", font: bold, font_pt: 14}}\n"
                      f"    back:\n      - {{type: rect, x_mm: 0, y_mm: 0, w_mm: {w}, h_mm: {h}, fill: back, bleed: true}}\n")
    with (game / "game.yaml").open("a", encoding="utf-8") as out:
        out.write(f"  - id: {deck_id}\n    name: {deck_id.title()}\n    file: {deck_id}.csv\n    layout: {layout}\n"
                  f"    card_size: {layout if new_size else 'poker'}\n")
    (game / f"{deck_id}.csv").write_text(f"id,title\n{rows}", "utf-8")


@pytest.fixture
def three_decks(cli, tmp_path, monkeypatch) -> Path:
    """``mygame``: init's poker deck (spark x3, tide x2, stone), a tarot deck (knight, queen) and
    a square deck (field); the current folder is its parent."""
    monkeypatch.chdir(tmp_path)
    assert cli("init", "mygame").exit_code == 0
    game = tmp_path / "mygame"
    _add_deck(game, "tarots", "tarot", (70, 120), "knight,Knight\nqueen,Queen\n")
    _add_deck(game, "squares", "square", (70, 70), "field,Field\n")
    assert cli("validate", "mygame").exit_code == 0
    return game


@pytest.mark.parametrize(("service", "name"), [("tgc", "The Game Crafter"), ("mpc", "MakePlayingCards")])
def test_a_service_names_every_deck_that_keeps_its_own_size(cli, three_decks, service, name):
    # The poker deck goes onto the service's poker template; the tarot and square decks fit none
    # and keep their own trim and 3 mm bleed: one line each on stderr, stdout as ever.
    result = cli("export", "mygame", "--to", "png", "--service", service, "--out", "png")
    assert result.exit_code == 0, result.output
    assert result.stdout == "wrote 18 images to png (300 dpi)\n"
    assert result.stderr.splitlines() == [TAROT_LINE.format(service=name), SQUARE_LINE.format(service=name)]
    with Image.open("png/card/stone-face.png") as poker, Image.open("png/tarot/knight-face.png") as tarot:
        assert poker.size == ((825, 1125) if service == "tgc" else (822, 1122))
        assert tarot.size == (_px(76), _px(126))
    result = cli("export", "mygame", "--to", "pdf", "--service", service, "--out", "pdf")
    assert result.exit_code == 0, result.output
    assert result.stdout == "wrote pdf/mygame-one-up.pdf (18 pages: each card's face, then its back)\n"
    assert result.stderr.splitlines() == [TAROT_LINE.format(service=name), SQUARE_LINE.format(service=name)]


def test_without_a_service_or_when_every_deck_fits_nothing_is_said(cli, three_decks):
    result = cli("export", "mygame", "--to", "png", "--out", "png")
    assert result.exit_code == 0 and result.stderr == ""
    result = cli("export", "mygame", "--to", "pdf", "--service", "tgc", "--cards", "spark", "--out", "pdf")
    assert result.exit_code == 0 and result.stderr == ""  # only poker cards: they all go onto TGC's poker template


def test_the_shipped_games_decks_that_keep_their_own_size_are_named(cli, tmp_path):
    # As docs/printing.md has it: Geheime Mission's officer strip at TGC; its chips too at MPC.
    result = cli("export", "geheime-mission", "--to", "pdf", "--service", "tgc", "--out", tmp_path / "tgc")
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [("officer (40 x 100 mm): no The Game Crafter template as large as the card and at most "
                                           "1 mm larger: it keeps its own trim and bleed")]
    result = cli("export", "geheime-mission", "--to", "pdf", "--service", "mpc", "--out", tmp_path / "mpc")
    assert [line.split(" (")[0] for line in result.stderr.splitlines()] == ["chip", "officer"]


@pytest.mark.slow
def test_cards_re_exports_the_named_cards_pngs_under_the_names_the_whole_export_gives(cli, three_decks):
    # A user fixes one card and re-exports it: the same files as the whole export wrote for it
    # (every copy of spark, numbered as before), nothing else written.
    assert cli("export", "mygame", "--to", "png", "--out", "png").exit_code == 0
    whole = {p.relative_to("png").as_posix() for p in Path("png").rglob("*.png")}
    csv = three_decks / "tarots.csv"
    csv.write_text(csv.read_text("utf-8").replace("knight,Knight", "knight,Knight Errant"), "utf-8")
    with Image.open("png/tarot/knight-face.png") as before:
        before_pixels = before.tobytes()
    result = cli("export", "mygame", "--to", "png", "--cards", "knight,spark", "--out", "fixed")
    assert result.exit_code == 0, result.output
    assert result.stdout == "wrote 8 images to fixed (300 dpi)\n"
    again = {p.relative_to("fixed").as_posix() for p in Path("fixed").rglob("*.png")}
    assert again == {"tarot/knight-face.png", "tarot/knight-back.png"} | {f"card/spark-{n}-{side}.png" for n in (1, 2, 3)
                                                                          for side in ("face", "back")}
    assert again <= whole
    with Image.open("fixed/tarot/knight-face.png") as after:
        assert after.tobytes() != before_pixels  # the new title is drawn


def test_cards_gives_a_one_up_pdf_of_the_named_cards_beside_the_whole_decks(cli, three_decks):
    assert cli("export", "mygame", "--to", "pdf", "--out", "pdf").exit_code == 0
    result = cli("export", "mygame", "--to", "pdf", "--cards", "knight", "--out", "pdf")
    assert result.exit_code == 0, result.output
    assert result.stdout == "wrote pdf/mygame-one-up-reprint.pdf (2 pages: each card's face, then its back)\n"
    assert "Knight" in PdfReader("pdf/mygame-one-up-reprint.pdf").pages[0].extract_text()
    assert len(PdfReader("pdf/mygame-one-up.pdf").pages) == 18  # the whole deck's PDF is kept


def test_cards_is_refused_for_tts_and_an_unknown_card_is_named(cli, three_decks):
    result = cli("export", "mygame", "--to", "tts", "--cards", "knight", "--out", "tts")
    assert result.exit_code == 2 and not Path("tts").exists()
    assert "Error: --cards chooses cards for --to png, pdf and hand: a Tabletop Simulator deck is the whole deck" in result.stderr
    result = cli("export", "mygame", "--to", "png", "--cards", "knigt,spark", "--out", "png")
    assert result.exit_code == 2 and not Path("png").exists()
    assert "Error: --cards: no card 'knigt' in this game (did you mean 'knight'?)\n" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.slow
def test_pngs_go_into_a_folder_per_card_kind_and_never_over_one_another(cli, three_decks):
    # Folders are card kinds (layout.yaml's cards.<kind>, a deck's 'layout'), not deck ids: here
    # card/, tarot/, square/ for the decks cards, tarots, squares.  A copy number only where a card
    # has copies.  Card ids are unique within a deck, not a game: a fourth deck on the poker layout
    # with its own 'stone' once wrote over the first deck's stone-face.png.
    _add_deck(three_decks, "extras", "card", (63, 88), "stone,Other stone\n", new_size=False)
    csv = three_decks / "extras.csv"
    csv.write_text("id,title,text,colour,value\nstone,Other stone,x,#000000,9\n", "utf-8")
    result = cli("export", "mygame", "--to", "png", "--out", "png")
    assert result.exit_code == 0, result.output
    assert result.stdout == "wrote 20 images to png (300 dpi)\n"
    files = {p.relative_to("png").as_posix() for p in Path("png").rglob("*.png")}
    assert len(files) == 20
    assert {f.split("/")[0] for f in files} == {"card", "tarot", "square"}
    assert {"card/spark-1-face.png", "card/spark-3-back.png", "tarot/queen-face.png", "square/field-back.png",
            "card/stone-1-face.png", "card/stone-2-face.png"} <= files


@pytest.mark.slow
def test_tts_dpi_advice_is_the_highest_at_which_every_deck_fits(cli, three_decks):
    # Poker cards fit a TTS sheet up to 825 dpi, 70 x 120 mm tarot cards up to 743: the advice is
    # the lower, whichever deck fails first, and following it works.
    for dpi in ("900", "825"):
        result = cli("export", "mygame", "--to", "tts", "--dpi", dpi, "--out", "tts")
        assert result.exit_code == 2 and not Path("tts").exists()
        assert (f"Error: at {dpi} dpi a 70 x 120 mm card is " in result.stderr
                and "use --dpi 743 or less, the highest at which every deck fits (set by deck 'tarot')\n" in result.stderr)
    result = cli("export", "mygame", "--to", "tts", "--dpi", "743", "--out", "tts")
    assert result.exit_code == 0, result.output


@pytest.mark.slow
def test_a_tts_export_too_large_for_memory_is_refused_before_drawing_with_a_dpi_that_fits(cli, three_decks, monkeypatch):
    # A whole published card database (tens of thousands of cards) would hold tens of GB of images
    # at once; the limit is lowered here so that this small game stands for one.
    from deckpress.generator.export import tts

    monkeypatch.setattr(tts, "MAX_IMAGE_BYTES", 20 * 1024 ** 2)
    result = cli("export", "mygame", "--to", "tts", "--dpi", "300", "--out", "tts")
    assert result.exit_code == 2 and not Path("tts").exists(), result.output
    advice = result.stderr.split("use --dpi ")[1].split(" ")[0]
    assert "card images at 300 dpi need about" in result.stderr and "export fewer cards (--sets)" in result.stderr
    assert cli("export", "mygame", "--to", "tts", "--dpi", advice, "--out", "tts").exit_code == 0

"""``deckpress export GAME --to hand``: chosen faces fanned out in one PNG, left to right, on a
transparent background (Squib's ``hand``)."""
from __future__ import annotations

import pytest
from PIL import Image

#: The card colours of a ``deckpress init`` game's cards (its cards.csv).
COLOURS = {"spark": (0xd1, 0x49, 0x5b), "tide": (0x00, 0x79, 0x8c), "stone": (0x6c, 0x75, 0x7d)}


def _centre_x(image: Image.Image, colour: tuple[int, int, int]) -> float:
    """The mean x of the opaque pixels of ``colour`` (within a few levels) in ``image``."""
    xs = [x for x in range(0, image.width, 2) for y in range(0, image.height, 2)
          if (p := image.getpixel((x, y)))[3] == 255 and all(abs(a - b) <= 6 for a, b in zip(p, colour))]
    assert xs, f"no {colour} in the hand"
    return sum(xs) / len(xs)


@pytest.mark.slow
def test_a_hand_fans_the_cards_left_to_right_on_a_transparent_background(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("init", "mygame").exit_code == 0
    result = cli("export", "mygame", "--to", "hand", "--dpi", "100", "--out", "out")
    assert result.exit_code == 0, result.stderr
    assert "wrote out/mygame-hand.png (3 cards: spark, tide, stone; 100 dpi)" in result.stdout
    image = Image.open(tmp_path / "out" / "mygame-hand.png")
    assert image.mode == "RGBA" and round(image.info["dpi"][0]) == 100
    assert image.getpixel((0, 0))[3] == 0 and image.getpixel((image.width - 1, 0))[3] == 0  # no background
    assert image.width > 1.5 * 63 / 25.4 * 100  # spread out, not stacked
    spark, tide, stone = (_centre_x(image, COLOURS[c]) for c in ("spark", "tide", "stone"))
    assert spark < tide < stone

    result = cli("export", "mygame", "--to", "hand", "--dpi", "100", "--cards", "stone,spark", "--out", "chosen")
    assert result.exit_code == 0 and "(2 cards: stone, spark; 100 dpi)" in result.stdout
    image = Image.open(tmp_path / "chosen" / "mygame-hand.png")
    assert _centre_x(image, COLOURS["stone"]) < _centre_x(image, COLOURS["spark"])
    assert cli("export", "mygame", "--to", "hand", "--dpi", "100", "--cards", "stone,spark", "--out", "again").exit_code == 0
    assert (tmp_path / "again" / "mygame-hand.png").read_bytes() == (tmp_path / "chosen" / "mygame-hand.png").read_bytes()
    result = cli("export", "mygame", "--to", "hand", "--dpi", "100", "--cards", "tide,,tide", "--out", "one")
    assert result.exit_code == 0 and "(1 card: tide; 100 dpi)" in result.stdout  # a card shows once in a hand


def test_a_card_the_game_lacks_is_refused_with_the_nearest_ids(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("init", "mygame").exit_code == 0
    result = cli("export", "mygame", "--to", "hand", "--cards", "sprak")
    assert result.exit_code == 2 and "--cards: no card 'sprak' in this game (did you mean 'spark'?)" in result.stderr
    result = cli("export", "mygame", "--to", "tts", "--cards", "spark")
    assert result.exit_code == 2 and "--cards chooses cards for --to png, pdf and hand" in result.stderr
    assert not (tmp_path / "output").exists()

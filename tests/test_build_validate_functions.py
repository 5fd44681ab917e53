"""``deckpress build`` and ``deckpress validate`` without the CLI: each command parses its options
into a value (:class:`PrintOptions`, :class:`ValidateOptions`) and hands it to a function a
program can call, which returns what it found instead of printing it."""
from __future__ import annotations

from pypdf import PdfReader

from deckpress.generator.check.validation import ValidateOptions, validate
from deckpress.generator.render.build import build_game
from deckpress.generator.render.kit import PrintOptions

MISSING_TITLE = "card 'tide': missing key 'title' (required here: id, title, text, colour, value, copies)"


def test_a_game_validates_and_builds_and_a_broken_one_is_refused_at_its_line(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("init", "mygame").exit_code == 0
    game = tmp_path / "mygame"
    assert validate([game], []).ok
    built = build_game(game, PrintOptions(paper="letter"), tmp_path / "out")
    assert built.ok and built.name == "mygame" and built.target == tmp_path / "out" / "mygame.pdf"
    assert built.size == built.target.stat().st_size
    width, height = PdfReader(built.target).pages[0].mediabox.upper_right
    assert (round(float(width)), round(float(height))) == (612, 792)  # US letter, pt
    reprint = build_game(game, PrintOptions(cards=("spark",)), tmp_path / "out")
    assert reprint.target == tmp_path / "out" / "mygame-reprint.pdf"  # beside the whole kit, never over it

    cards = game / "cards.csv"
    cards.write_text(cards.read_text("utf-8").replace("tide,Tide,", "tide,,"), "utf-8")
    result = validate([game], [])
    assert [str(e) for e in result.errors] == [f"mygame/cards.csv:3:1: {MISSING_TITLE}"] and result.exit_code == 1
    before = built.target.read_bytes()
    failed = build_game(game, PrintOptions(), tmp_path / "out")
    assert not failed.ok and failed.name == "mygame" and [e.message for e in failed.errors] == [MISSING_TITLE]
    assert built.target.read_bytes() == before  # the earlier kit is left as it was


def test_a_file_that_is_no_content_is_an_error_and_a_variant_is_checked_over_its_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("hello", "utf-8")
    variant = tmp_path / "v.yaml"
    variant.write_text("extends: mission-emission\nname: v\nauthor: a\nversion: '1'\ndescription: d\n"
                       "parameters:\n  no_such_parameter: 3\n", "utf-8")
    result = validate([], [variant], [tmp_path / "notes.txt"], ValidateOptions(paper="a4"))
    assert result.checked == ["v.yaml"]
    assert str(result.errors[0]).startswith("notes.txt: not deckpress content: no game.yaml beside it or above it")
    assert [(e.path, e.line) for e in result.errors[1:]] == [("v.yaml", 7)]
    assert result.errors[1].message.startswith("parameters.no_such_parameter: unknown parameter 'no_such_parameter' (known: players,")

"""Rich text in card data (docs/rich-text.md): bold, italic, line breaks and rules from the data's own
HTML tags or Markdown, icon tokens in the data's own syntax, and fallback fonts for symbols."""
from __future__ import annotations

import csv
import re
import shutil
from pathlib import Path

import matplotlib
import pytest
from conftest import edit, line_of
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from deckpress.generator.render.markup import (
    RULE,
    MarkupError,
    Run,
    _Reader,
    _simple_html,
    parse,
)
from deckpress.generator.render.tokens import Token, compile_tokens


def _game(tmp_path: Path, cli, rows: list[dict], markup: str = "html", tokens: str = "", icons: bool = True) -> Path:
    """A game made with ``deckpress init``, its card text written in ``markup``, with ``rows`` as its cards."""
    folder = tmp_path / "demo"
    assert cli("init", folder).exit_code == 0
    layout = folder / "layout.yaml"
    edit(layout, "wrap: true, align: center, colour: ink}",
         f"wrap: true, align: center, colour: ink, markup: {markup}{', inline_icons: true' if icons else ''}}}")
    if tokens:
        (folder / "game.yaml").write_text((folder / "game.yaml").read_text("utf-8") + tokens, "utf-8")
    with open(folder / "cards.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=["id", "title", "text", "colour", "value", "copies"])
        writer.writeheader()
        for i, row in enumerate(rows):
            writer.writerow({"id": f"card-{i}", "title": f"Card {i}", "colour": "#00798c", "value": i, "copies": 1, **row})
    return folder


def _build(cli, folder: Path, tmp_path: Path):
    result = cli("build", folder, "--out", tmp_path / "out")
    pdf = tmp_path / "out" / "demo.pdf"
    return result, (PdfReader(pdf) if pdf.exists() else None)


def _fonts(reader: PdfReader) -> set[str]:
    return {str(f.get_object()["/BaseFont"]).split("+")[-1] for page in reader.pages
            for f in (page["/Resources"].get("/Font") or {}).values()}


def _text(reader: PdfReader) -> str:
    """The PDF's words, one space between each (pypdf puts each run drawn on its own line)."""
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())


# --- what the markup means ---------------------------------------------------------------------

def test_html_tags_of_published_card_data_give_bold_italic_breaks_and_rules():
    blocks = parse("<strong>Ally:</strong> draw <i>one</i> <b><em>now</em></b><br>next<hr>after", "html")
    assert blocks == (
        (Run("Ally:", "bold"), Run(" draw ", "regular"), Run("one", "italic"), Run(" ", "regular"), Run("now", "bold-italic")),
        (Run("next", "regular"),),
        RULE,
        (Run("after", "regular"),),
    )


def test_a_multi_line_cell_breaks_its_lines_but_a_break_beside_br_adds_none():
    assert parse("one\ntwo", "html") == ((Run("one", "regular"),), (Run("two", "regular"),))
    assert parse("one<br>\ntwo", "html") == parse("one\n<br>two", "html") == parse("one<br>two", "html")
    assert parse("one\n\ntwo", "html")[1] == ()  # a blank line in the cell is an empty line on the card


def test_html_references_are_read_and_a_lone_angle_bracket_is_text():
    assert parse("5 &amp; 6 &lt;b&gt; <3", "html") == ((Run("5 & 6 <b> <3", "regular"),),)


def test_bold_markup_in_a_bold_element_stays_bold_and_italic_adds_to_it():
    assert parse("a <b>b</b> <i>c</i>", "html", base="bold") == ((Run("a b ", "bold"), Run("c", "bold-italic")),)


@pytest.mark.parametrize("text, named", [
    ('Trace <span class="x">3</span>', "'<span class=\"x\">' (character 7 of the text) is not a tag deckpress draws"),
    ("<font color=red>big</font>", "'<font color=red>' (character 1 of the text) is not a tag deckpress draws"),
    ("one\ntwo </u>", "'</u>' (line 2, character 5 of the text) closes a tag deckpress does not draw"),
    ('<b style="x">a</b>', "has attributes"),
    ("<img src=x>", "'<img src=x>' (character 1 of the text) is not a tag"),
    ("a <!-- note --> b", "a comment"),
    ("ring &#7; bell", "U+0007 (BELL)"),
])
def test_html_that_is_not_drawn_is_refused_naming_it(text, named):
    with pytest.raises(MarkupError) as caught:
        parse(text, "html")
    assert named in str(caught.value)
    assert "it draws <b>, <strong>, <i>, <em>, <br> and <hr>" in str(caught.value)


def test_markdown_subset_and_everything_else_printed_as_written():
    blocks = parse("**Ally:** *one* \\*x\\*\n---\n# not a heading <b>x</b>\n\nnext", "markdown")
    assert blocks == (
        (Run("Ally:", "bold"), Run(" ", "regular"), Run("one", "italic"), Run(" *x*", "regular")),
        RULE,
        (Run("# not a heading <b>x</b>", "regular"),),
        (),
        (Run("next", "regular"),),
    )


# --- icon tokens -------------------------------------------------------------------------------

def test_icon_tokens_in_the_data_own_syntax():
    tokens = compile_tokens([("[credit]", "gold"), ("[{icon}]", None), ("{Gain {number} Trade}", "gold")])
    assert tokens.split("Gain [credit], [Click] and {Gain 3 Trade}.") == [
        "Gain ", Token("gold"), ", ", Token("click"), " and ", Token("gold", "3"), "."]
    assert parse("<b>{Gain 12 Trade}</b>x", "html", tokens=tokens) == ((Run("", "bold", Token("gold", "12")), Run("x", "regular")),)


@pytest.mark.parametrize("pattern, icon, why", [
    ("{icon}", None, "no text of its own"),
    ("[{icon}{icon}]", None, "placeholder twice"),
    ("[x {number}]", None, "says no icon"),
    ("[{icon}]", "gold", "keep one"),
])
def test_a_token_pattern_that_cannot_work_is_refused(pattern, icon, why):
    with pytest.raises(ValueError) as caught:
        compile_tokens([(pattern, icon)])
    assert why in caught.value.args[0]


def test_a_token_declaration_error_is_at_its_line_in_game_yaml(tmp_path, cli):
    folder = _game(tmp_path, cli, [{"text": "x"}], tokens='icon_tokens:\n  - token: "[{icon}]"\n    icon: gold\n')
    result = cli("validate", folder)
    assert result.exit_code != 0
    assert f"game.yaml:{line_of(folder / 'game.yaml', '[{icon}]')}:" in result.output and "keep one" in result.output


# --- from card data to the PDF -----------------------------------------------------------------

TOKENS = 'icon_tokens:\n  - token: "[{icon}]"\n  - token: "{Gain {number} Trade}"\n    icon: bolt\n'


def test_a_game_prints_its_markup_icon_tokens_and_symbols(tmp_path, cli):
    folder = _game(tmp_path, cli, [
        {"text": "<b>Draw</b> a card, <i>then</i> discard.<hr>{Gain 3 Trade} [tree] ★ ♠"},
        {"text": "Every other player\npasses you <strong>one</strong> card."},
    ], tokens=TOKENS)
    assert cli("validate", folder).exit_code == 0
    result, reader = _build(cli, folder, tmp_path)
    assert result.exit_code == 0, result.output
    fonts = _fonts(reader)
    assert {"Lato-Bold", "Lato-Italic", "DejaVuSans"} <= fonts  # <b>, <i>, and the stars and spades Lato lacks
    text = _text(reader)
    assert "Draw a card, then discard." in text and "<b>" not in text and "[tree]" not in text and "Gain" not in text
    assert "★ ♠" in text and "3" in text  # the number on the trade icon
    assert "Every other player passes you one card." in text


def test_an_unknown_tag_fails_validate_at_the_card_naming_the_tag(tmp_path, cli):
    folder = _game(tmp_path, cli, [{"text": "fine"}, {"text": "<trace>Trace 3</trace> if successful"}])
    result = cli("validate", folder)
    assert result.exit_code != 0
    assert f"cards.csv:{line_of(folder / 'cards.csv', '<trace>')}:" in result.output
    assert "'<trace>' (character 1 of the text) is not a tag deckpress draws" in result.output
    assert "</trace>" not in result.output.split("is not a tag")[1]  # its closing tag is not refused again


def test_a_token_naming_no_icon_fails_at_the_card(tmp_path, cli):
    folder = _game(tmp_path, cli, [{"text": "Gain [credit]."}], tokens=TOKENS)
    result = cli("validate", folder)
    assert result.exit_code != 0
    assert f"cards.csv:{line_of(folder / 'cards.csv', '[credit]')}:" in result.output
    assert "icon 'credit' is not in the icon set" in result.output


def test_a_character_no_font_has_is_refused_at_validate_with_its_code_point(tmp_path, cli):
    folder = _game(tmp_path, cli, [{"text": "<b>Time</b> ⌚"}])
    result = cli("validate", folder)
    assert result.exit_code != 0
    assert "U+231A WATCH" in result.output and "DejaVu Sans" in result.output


def test_without_markup_tags_are_printed_as_written(tmp_path, cli):
    folder = _game(tmp_path, cli, [{"text": "<b>not bold</b>"}], markup="none", icons=False)
    result, reader = _build(cli, folder, tmp_path)
    assert result.exit_code == 0, result.output
    assert "<b>not bold</b>" in _text(reader) and "Lato-Italic" not in _fonts(reader)


def test_rich_text_shrinks_to_fit_and_fails_past_its_minimum(tmp_path, cli):
    folder = _game(tmp_path, cli, [{"text": " ".join(["<b>Draw</b> a card."] * 19)}])
    result, reader = _build(cli, folder, tmp_path)
    assert result.exit_code == 0, result.output
    page = next(p for p in reader.pages if "Draw" in (p.extract_text() or ""))
    sizes = {float(size) for size in re.findall(rb"/F[0-9+]+ ([0-9.]+) Tf", page.get_contents().get_data())}
    assert 6 <= min(sizes) < 11  # the body shrank from its 11 pt, not below its 6
    edit(folder / "layout.yaml", "w_mm: 49, h_mm: 46", "w_mm: 49, h_mm: 8")
    result = cli("validate", folder)
    assert result.exit_code != 0 and "even at the minimum of 6 pt, more than its box holds" in result.output


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["<b>", "</b>", "<i>", "</i>", "<STRONG>", "</em>", "<br>", "<br/>", "</br>", "<hr>", "<hr />",
                                 "</hr>", "\n", " ", "\t", "Ally:", "draw a card", "&amp;", "&lt;3"]), max_size=14),
       st.booleans())
def test_card_html_reads_the_same_by_the_quick_path_and_the_full_reader(pieces, bold):
    """Card text with only drawn tags takes a quick path; it must give the events the full HTML
    reader gives (the same card prints the same whichever path reads it)."""
    text = "".join(pieces)
    quick = _simple_html(text, bold, False)
    assert quick is not None  # only drawn tags: the quick path reads it
    reader = _Reader(bold, False)
    reader.feed(text)
    reader.close()
    assert _joined(quick) == _joined(reader.events)


def _joined(events: list[tuple]) -> list[tuple]:
    """Events with neighbouring texts of one style as one (the full reader may cut a text in two)."""
    out: list[tuple] = []
    for event in events:
        if out and event[0] == "text" and out[-1][0] == "text" and out[-1][2:] == event[2:]:
            out[-1] = ("text", out[-1][1] + event[1], *event[2:])
        else:
            out.append(event)
    return out


def test_a_game_italic_font_draws_its_italics(tmp_path, cli):
    stix = Path(matplotlib.get_data_path()) / "fonts" / "ttf"  # STIX font licence, ships with matplotlib
    folder = _game(tmp_path, cli, [{"text": "upright <i>slanted</i>"}])
    (folder / "fonts").mkdir()
    for name in ("STIXGeneral.ttf", "STIXGeneralItalic.ttf"):
        shutil.copy(stix / name, folder / "fonts" / name)
    edit(folder / "game.yaml", "\ncard_sizes:", "\nfonts:\n  - {regular: fonts/STIXGeneral.ttf, italic: fonts/STIXGeneralItalic.ttf}\ncard_sizes:")
    result, reader = _build(cli, folder, tmp_path)
    assert result.exit_code == 0, result.output
    used = _fonts(reader)
    assert any("Italic" in name and "STIX" in name for name in used) and "Lato-Italic" not in used


def test_the_data_own_tags_are_drawn_as_the_layout_names_them(tmp_path, cli):
    # the shape of a collectible card game's community database (its text is the publisher's: written here anew)
    folder = _game(tmp_path, cli, [{"text": "[click]: Gain 2[credit].\n<trace>Trace 3</trace> If successful, <errata>give</errata> "
                                            "the Runner 1 tag."}],
                   tokens='icon_tokens:\n  - token: "[credit]"\n    icon: gold\n  - token: "[click]"\n    icon: arrow-higher\n')
    result = cli("validate", folder)
    assert result.exit_code != 0 and "'<trace>' (line 2, character 1 of the text) is not a tag deckpress draws" in result.output
    assert "give the data's own tags under html_tags in layout.yaml" in result.output
    edit(folder / "layout.yaml", "markup: html", "markup: html, html_tags: {trace: bold, errata: plain}")
    result, reader = _build(cli, folder, tmp_path)
    assert result.exit_code == 0, result.output
    text = _text(reader)
    assert ": Gain 2 ." in text and "click" not in text and "Trace 3 If successful, give the Runner 1 tag." in text and "<" not in text

"""The expression language of a game made from data alone (docs/expressions.md): ``when``,
derived fields, maps, a layout per card and layout reuse, as a designer uses them through the CLI."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import line_of, pdf_text
from pypdf import PdfReader


def face_texts(path: Path) -> list[str]:
    """The text of each face sheet of a kit (the pages after the cover whose label says faces)."""
    return [t for t in (page.extract_text() for page in PdfReader(path).pages) if "· faces" in t]


def _game(cli, here: Path, csv: str, face: str, extra_game: str = "") -> Path:
    """A game from ``deckpress init`` with its cards replaced by ``csv`` (no schema) and its face by
    the elements ``face`` (YAML flow mappings, one a line)."""
    assert cli("init", "mygame").exit_code == 0
    folder = here / "mygame"
    (folder / "cards.csv").write_text(csv)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("    schema: card.schema.json # what a card must hold (JSON Schema): validate checks every row\n", "")
                    .replace("    copies: copies           # the field that says how many of each card to print\n", "") + extra_game)
    layout = folder / "layout.yaml"
    text = layout.read_text()
    start, end = text.index("    face:\n") + len("    face:\n"), text.index("    back:\n")
    layout.write_text(text[:start] + "".join(f"      - {line}\n" for line in face.strip().splitlines()) + text[end:])
    return folder


def test_when_shows_a_field_whose_value_is_zero(cli, here):
    # a card that costs nothing prints its 0; a card without a cost prints no cost box
    _game(cli, here, "id,title,cost\nfree,Free,0\ndear,Dear,3\nnone,None,\n",
          "{type: text, x_mm: 5, y_mm: 5, w_mm: 53, h_mm: 10, text: '{title}', font_pt: 12}\n"
          "{type: text, x_mm: 5, y_mm: 30, w_mm: 53, h_mm: 10, text: 'cost {cost}', font_pt: 12, when: cost}")
    result = cli("build", "mygame")
    assert result.exit_code == 0, result.output
    text = pdf_text(here / "output" / "mygame.pdf")
    assert "cost 0" in text and "cost 3" in text
    assert text.count("cost ") == 2  # the card with an empty cost cell prints none


def test_when_and_templates_take_field_names_as_the_data_writes_them(cli, here):
    # CSV headers are the data's own: capitalised names work in {Field} and in when
    _game(cli, here, "id,Title,Cost\nfree,Free,0\n",
          "{type: text, x_mm: 5, y_mm: 5, w_mm: 53, h_mm: 10, text: '{Title}', font_pt: 12}\n"
          "{type: text, x_mm: 5, y_mm: 30, w_mm: 53, h_mm: 10, text: 'costs {Cost}', font_pt: 12, when: Cost}")
    result = cli("build", "mygame")
    assert result.exit_code == 0, result.output
    text = pdf_text(here / "output" / "mygame.pdf")
    assert "Free" in text and "costs 0" in text and "{Title}" not in text


# A deck-builder's trade row, written for these tests in the shape of a published card list
# (a CSV with capitalised headers, factions with spaces, bases printed sideways).
TRADE = ("id,Name,type,Faction,cost,pick,unique\n"
         "scout,Scout,ship,Trade Federation,0,1,\n"
         "cutter,Cutter,ship,Trade Federation,2,2,\n"
         "outpost,Trade Outpost,base,Trade Federation,3,1,yes\n"
         "blob,Blob Fighter,ship,Blob,1,3,\n")

SHIP_FACE = """\
{type: rect, id: frame, x_mm: 0, y_mm: 0, w_mm: 63, h_mm: 88, bleed: true, fill: {by: Faction, map: {Trade Federation: Trade Federation, Blob: '#3aa537'}, default: ink}}
{type: text, x_mm: 5, y_mm: 5, w_mm: 53, h_mm: 10, text: '{Name}', font_pt: 12}
{type: text, x_mm: 5, y_mm: 20, w_mm: 53, h_mm: 8, text: '{type_line}', font_pt: 9}
{type: text, x_mm: 5, y_mm: 30, w_mm: 53, h_mm: 8, text: 'cheap', font_pt: 9, when: cost < 2}
{type: text, x_mm: 5, y_mm: 40, w_mm: 53, h_mm: 8, text: '{pick_label}', font_pt: 9, when: pick_label}
{type: text, x_mm: 5, y_mm: 50, w_mm: 53, h_mm: 8, text: 'common', font_pt: 9, when: not unique}
{type: text, x_mm: 5, y_mm: 60, w_mm: 53, h_mm: 8, text: 'a federation ship', font_pt: 9, when: 'Faction == "Trade Federation" and type == "ship"'}"""

DERIVE = """\
    derive:
      type_line: "{{ type | title }} — {{ Faction }}"
      pick_label: {value: "PICK {{ pick }}", when: "pick > 1"}
      double: "{{ cost * 2 }}"
"""


def _trade(cli, here: Path, layout_extra: str = "", deck_layout: str = "card", derive: str = DERIVE) -> Path:
    folder = _game(cli, here, TRADE, SHIP_FACE)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("    layout: card             # cards.card in layout.yaml\n",
                                             f"    layout: {deck_layout}\n{derive}"))
    layout = folder / "layout.yaml"
    layout.write_text(layout.read_text().replace('  paper: "#ffffff"\n', '  paper: "#ffffff"\n  Trade Federation: "#1f5fa8"\n') + layout_extra)
    return folder


def test_when_takes_an_expression_and_derived_fields_print(cli, here):
    _trade(cli, here)
    result = cli("build", "mygame")
    assert result.exit_code == 0, result.output
    text = pdf_text(here / "output" / "mygame.pdf")
    assert "Ship — Trade Federation" in text and "Base — Trade Federation" in text  # derived, with a filter
    assert text.count("cheap") == 2  # cost 0 and 1
    assert text.count("PICK ") == 2 and "PICK 2" in text and "PICK 3" in text and "PICK 1" not in text
    assert text.count("common") == 3  # not unique: the outpost is unique
    assert text.count("a federation ship") == 2


def test_derived_fields_are_there_before_the_schema_checks_the_card(cli, here):
    folder = _trade(cli, here)
    (folder / "card.schema.json").write_text(
        '{"type": "object", "properties": {"double": {"type": "integer", "maximum": 4}}, "required": ["double", "type_line"]}')
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("    card_size: poker\n", "    card_size: poker\n    schema: card.schema.json\n"))
    result = cli("validate", "mygame")
    # a one-expression text keeps its number: the outpost's cost 3 doubles to 6, over the schema's maximum
    assert result.exit_code == 1 and "mygame/cards.csv:4:1: card 'outpost': double: " in result.stdout and "6" in result.stdout, result.output


def test_a_map_colours_a_card_by_a_value_with_spaces(cli, here):
    _trade(cli, here)
    assert cli("build", "mygame").exit_code == 0
    pages = PdfReader(here / "output" / "mygame.pdf").pages
    streams = b"".join(page.get_contents().get_data() for page in pages)
    assert b".121569 .372549 .658824 rg" in streams  # the palette's 'Trade Federation' (#1f5fa8)
    assert b".227451 .647059 .215686 rg" in streams  # Blob's own '#3aa537'


SIDEWAYS = """\
  base:
    extends: card
    trim: {width_mm: 88, height_mm: 63}
    face:
      - {type: rect, id: frame, x_mm: 0, y_mm: 0, w_mm: 88, h_mm: 63, bleed: true, fill: '#ffd700'}
      - {type: text, x_mm: 5, y_mm: 5, w_mm: 78, h_mm: 10, text: 'BASE {Name}', font_pt: 12}
    back:
      - {type: rect, x_mm: 0, y_mm: 0, w_mm: 88, h_mm: 63, bleed: true, fill: back}
"""


def _rotation_of(pdf: Path, needle: str) -> list[tuple[float, float]]:
    """The (a, b) of the transformation each piece of text holding ``needle`` is drawn with."""
    found = []
    for page in PdfReader(pdf).pages:
        def visit(text, cm, tm, font, size):
            if needle in text:
                found.append((round(cm[0] * tm[0] + cm[2] * tm[1], 3), round(cm[1] * tm[0] + cm[3] * tm[1], 3)))
        page.extract_text(visitor_text=visit)
    return found


def test_a_layout_per_card_prints_a_base_sideways_everywhere(cli, here):
    _trade(cli, here, SIDEWAYS, "{by: type, map: {base: base}, default: card}")
    result = cli("build", "mygame")
    assert result.exit_code == 0, result.output
    kit = here / "output" / "mygame.pdf"
    # on the sheet the base is turned into an upright slot, the ships are upright; the base inherits
    # the ship's derived texts from the kind it extends, its frame replaced
    assert {b for _, b in _rotation_of(kit, "BASE Trade Outpost")} == {1.0}
    assert {b for _, b in _rotation_of(kit, "Blob Fighter")} == {0.0}
    assert "Base — Trade Federation" in pdf_text(kit)
    streams = b"".join(page.get_contents().get_data() for page in PdfReader(kit).pages)
    assert b"\n1 .843137 0 rg" in streams  # the base's own frame colour, #ffd700
    # one card per page: the base's pages are landscape
    assert cli("export", "mygame", "--to", "pdf").exit_code == 0
    one_up = PdfReader(next((here / "output").rglob("*one-up*.pdf")))
    sizes = [(round(float(p.mediabox.width) / 72 * 25.4), round(float(p.mediabox.height) / 72 * 25.4)) for p in one_up.pages]
    assert sizes.count((94, 69)) == 2 and sizes.count((69, 94)) == 6  # face and back of one base; of three ships
    # per-card images follow, and Tabletop Simulator lays the base on its side
    assert cli("export", "mygame", "--to", "png", "--dpi", "72").exit_code == 0
    from PIL import Image
    base = Image.open(next((here / "output").rglob("outpost-face.png")))
    ship = Image.open(next((here / "output").rglob("scout-face.png")))
    assert base.width > base.height and ship.width < ship.height
    assert cli("export", "mygame", "--to", "tts", "--dpi", "72").exit_code == 0
    saved = "".join(p.read_text() for p in (here / "output").rglob("*.json"))
    assert '"SidewaysCard": true' in saved


def test_extends_reports_a_missing_parent_and_a_circle_by_name(cli, here):
    folder = _trade(cli, here, SIDEWAYS.replace("extends: card", "extends: crad"), "{by: type, map: {base: base}, default: card}")
    layout = folder / "layout.yaml"
    out = cli("validate", "mygame").stdout
    assert (f"mygame/layout.yaml:{line_of(layout, 'extends: crad')}:14: cards.base.extends: no card kind 'crad' in this file "
            "(did you mean 'card'?)") in out, out
    layout.write_text(layout.read_text().replace("extends: crad", "extends: card").replace("  card:\n", "  card:\n    extends: base\n"))
    out = cli("validate", "mygame").stdout
    assert "cards.base.extends: base → card → base: these card kinds extend each other in a circle" in out, out
    assert out.count("in a circle") == 1


def test_an_expression_error_names_its_place_and_the_card(cli, here):
    folder = _trade(cli, here)
    layout = folder / "layout.yaml"
    layout.write_text(layout.read_text().replace("when: cost < 2}", "when: cost < 'two'}"))
    out = cli("validate", "mygame").stdout
    line = line_of(layout, "when: cost < 'two'")
    col = layout.read_text().splitlines()[line - 1].index("cost < 'two'") + 1
    assert (f"mygame/layout.yaml:{line}:{col}: card face, card 'scout' (cards.csv) (and 3 more cards): when: 'cost < 'two'': "
            "fails on this card: '<' not supported between a number and text") in out, out
    # a field no card has: a typo, at its column, with the nearest name (it would hold for no card, silently)
    layout.write_text(layout.read_text().replace("when: cost < 'two'}", "when: coast < 2}"))
    out = cli("validate", "mygame").stdout
    assert (f"mygame/layout.yaml:{line}:{col}: when: 'coast < 2' reads 'coast', a field no card of deck 'cards' has "
            "(did you mean 'cost'?)") in out, out
    # one that is not an expression, at once, at its place
    layout.write_text(layout.read_text().replace("when: coast < 2}", "when: cost <}"))
    out = cli("validate", "mygame").stdout
    assert f"mygame/layout.yaml:{line}:{col}: when: 'cost <' is not a valid expression: unexpected end of the expression" in out, out
    # a derived field that fails on one card: at its expression in game.yaml, naming the card
    layout.write_text(layout.read_text().replace("when: cost <}", "when: cost < 2}"))
    (folder / "cards.csv").write_text(TRADE.replace("blob,Blob Fighter,ship,Blob,1,3,", "blob,Blob Fighter,ship,Blob,one,3,"))
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace('      double: "{{ cost * 2 }}"\n', '      half: "{{ cost / 2 }}"\n'))
    out = cli("validate", "mygame").stdout
    assert (f"mygame/game.yaml:{line_of(game, 'half:')}:13: decks[0].derive.half: card 'blob': '{{{{ cost / 2 }}}}' fails on this card: "
            "unsupported operand type(s) for /: text and a number") in out, out


HOSTILE = [
    ("type.__class__", "never a value's internals"),
    ("type.__class__.__mro__[1].__subclasses__()", "calls are not part of the language"),
    ("range(10**9) | length > 1", "calls are not part of the language"),
    ("'a' * 10**9", "more than the 100,000 an expression may make"),
    ("[1] * 10**9", "more than the 100,000 an expression may make"),
    ("(10 ** 100) ** 100 > 1", "makes a number of more than 4,096 bits"),
    ("'%0999999999d' % 1", "'%' formats text"),
    ("(" * 200 + "1" + ")" * 200, "nests brackets more than 20 deep"),
    ("not " * 400 + "type", "nests too deeply"),
    ("x" * 1_048_576, "an expression is at most 2,000"),
    ("'a' * 1_048_576", "more than the 100,000 an expression may make"),
    ("type | center(10**9)", "no filter 'center'"),
    ("lipsum(10**6)", "calls are not part of the language"),
    ("self", None),  # a bare word is a field name: none here, so it never holds
]


@pytest.mark.parametrize("source, said", HOSTILE, ids=[h[0][:30] for h in HOSTILE])
def test_a_hostile_expression_is_one_clear_line(source, said):
    from deckpress.generator.content.expressions import (
        ExpressionError,
        compile_expression,
    )

    card = {"id": "scout", "type": "ship", "cost": 0}
    if said is None:
        assert compile_expression(source).holds(card) is False
        return
    with pytest.raises(ExpressionError) as caught:
        compile_expression(source).value(card)
    message = str(caught.value)
    assert said in message and "\n" not in message and "Traceback" not in message


def test_a_hostile_derived_field_is_refused_at_its_line(cli, here):
    folder = _trade(cli, here, derive="    derive:\n      loop: \"{% for i in range(10**9) %}x{% endfor %}\"\n"
                                      "      deep: \"{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}\"\n")
    game = folder / "game.yaml"
    result = cli("validate", "mygame")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert (f"mygame/game.yaml:{line_of(game, 'loop:')}:13: decks[0].derive.loop: '{{% for i in range(10**9) %}}x{{% endfor %}}' "
            "'for' is not part of the language") in result.stdout, result.stdout
    assert (f"mygame/game.yaml:{line_of(game, 'deep:')}:13: decks[0].derive.deep: '{{% macro f() %}}{{{{ f() }}}}{{% endmacro %}}{{{{ f() }}}}' "
            "'macro' is not part of the language") in result.stdout, result.stdout


def test_nested_values_by_dotted_path(cli, here):
    folder = _game(cli, here, "id\nx\n", "{type: text, x_mm: 5, y_mm: 5, w_mm: 53, h_mm: 10, text: 'attack {stats.attack}', font_pt: 12, "
                                         "when: stats.attack > 2}\n{type: text, x_mm: 5, y_mm: 30, w_mm: 53, h_mm: 10, text: '{power}', font_pt: 12}")
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("file: cards.csv", "file: cards.yaml").replace(
        "    layout: card             # cards.card in layout.yaml\n",
        "    layout: card\n    derive:\n      power: \"{{ stats.attack + stats.defence }} power\"\n"))
    (folder / "cards.yaml").write_text("cards:\n  - {id: brute, stats: {attack: 3, defence: 1}}\n  - {id: pawn, stats: {attack: 1, defence: 1}}\n")
    result = cli("build", "mygame")
    assert result.exit_code == 0, result.output
    text = pdf_text(here / "output" / "mygame.pdf")
    assert "attack 3" in text and "attack 1" not in text and "4 power" in text and "2 power" in text


def test_a_sideways_card_that_extends_an_upright_one_keeps_its_back(cli, here):
    # ICE and bases share the deck's back: left out of the sideways kind, it prints upright on the
    # back sheet as every other back, and turned onto the sideways card's own landscape page
    without_back = SIDEWAYS[:SIDEWAYS.index("    back:\n")]
    _trade(cli, here, without_back, "{by: type, map: {base: base}, default: card}")
    assert cli("build", "mygame").exit_code == 0
    kit = here / "output" / "mygame.pdf"
    assert {b for _, b in _rotation_of(kit, "Mygame")} == {0.0}  # the cover title and the four backs
    assert cli("export", "mygame", "--to", "pdf").exit_code == 0
    one_up = next((here / "output").rglob("*one-up*.pdf"))
    assert sorted({b for _, b in _rotation_of(one_up, "Mygame")}) == [-1.0, 0.0]  # the base's back turned, the ships' upright


def test_a_typo_in_game_yaml_is_named_with_the_nearest_field(cli, here):
    folder = _trade(cli, here, SIDEWAYS, "{by: typ, map: {base: base}, default: card}",
                    derive='    derive:\n      type_line: "{{ type }} — {{ Fction }}"\n')
    game = folder / "game.yaml"
    out = cli("validate", "mygame").stdout
    assert (f"mygame/game.yaml:{line_of(game, 'type_line:')}:18: decks[0].derive.type_line: '{{{{ type }}}} — {{{{ Fction }}}}' reads "
            "'Fction', a field no card of deck 'cards' has (did you mean 'Faction'?)") in out, out
    assert (f"mygame/game.yaml:{line_of(game, 'by: typ,')}:") in out and ("decks[0].layout.by: 'typ' reads 'typ', a field no card of deck "
                                                                       "'cards' has (did you mean 'type'?)") in out, out
    # a value the map has no layout for, and no default: at the map, naming the cards
    game.write_text(game.read_text().replace("{by: typ, map: {base: base}, default: card}", "{by: type, map: {base: base}}")
                    .replace("{{ Fction }}", "{{ Faction }}"))
    out = cli("validate", "mygame").stdout
    assert ("decks[0].layout: card 'scout' (and 2 more cards): by 'type' gives 'ship', which the map has no layout for "
            "(known: base), and it has no default") in out, out


def test_an_icon_map_draws_each_card_its_icon_and_names_a_value_it_lacks(cli, here):
    folder = _game(cli, here, "id,type\nscout,ship\noutpost,base\n",
                   "{type: icon, x_mm: 5, y_mm: 5, size_mm: 10, icon: {by: type, map: {ship: bolt, base: tree}}}")
    assert cli("build", "mygame").exit_code == 0
    pdf = (here / "output" / "mygame.pdf").read_bytes()
    assert b"icon-bolt" in pdf and b"icon-tree" in pdf
    (folder / "cards.csv").write_text("id,type\nscout,ship\nmine,mine\n")
    out = cli("validate", "mygame").stdout
    assert ("mygame/cards.csv:3:1: card face, card 'mine': icon: by 'type': 'mine' has no entry in the map "
            "(known: base, ship) and the map has no default") in out, out


def test_a_variant_that_changes_a_card_changes_its_derived_fields(cli, here):
    _trade(cli, here)
    variant = here / "dear.yaml"
    variant.write_text("extends: mygame\nname: Dear scout\nauthor: Fan\nversion: '1.0'\ndescription: The scout costs more.\n"
                       "changes:\n  - replace: {file: cards, id: scout, fields: {cost: 4}}\n")
    result = cli("check", variant, "--content", "mygame", "--report", here / "r")
    assert result.exit_code == 0, result.stdout
    assert "cost: 0 -> 4" in result.stdout and "double: 0 -> 8" in result.stdout, result.stdout


def test_a_tts_deck_of_upright_and_sideways_cards_puts_each_on_sheets_of_its_shape(tmp_path):
    # one saved object per deck, whatever its layouts: the sideways cards on a sheet of landscape
    # cells of their own, the deck's order kept
    import json

    from PIL import Image

    from deckpress.generator.export.tts import _deck
    from deckpress.generator.render.oneup import Page

    def card(card_id: str, size: tuple[int, int]):
        page = Page("k", card_id, card_id.title(), 1, "face", (size[0] / 10, size[1] / 10), (0, 0, 0, 0))
        return page, Image.new("RGB", size, "red")

    cards = [card("scout", (63, 88)), card("outpost", (88, 63)), card("cutter", (63, 88))]
    backs = [Image.new("RGB", image.size, "blue") for _, image in cards]
    saved = json.loads(_deck(tmp_path, "trade", cards, backs, "trade", None).read_text())["ObjectStates"][0]
    assert [o["Description"] for o in saved["ContainedObjects"]] == ["scout", "outpost", "cutter"]
    assert [o.get("SidewaysCard", False) for o in saved["ContainedObjects"]] == [False, True, False]
    assert "SidewaysCard" not in saved and len(saved["CustomDeck"]) == 2
    assert Image.open(tmp_path / "trade-1.png").size == (63 * 3, 88) and Image.open(tmp_path / "trade-2.png").size == (88 * 2, 63)


@pytest.mark.parametrize("entry", ["tre", "'{type}x'"])
def test_an_icon_map_naming_an_unknown_icon_is_one_line_not_a_crash(cli, here, entry):
    _game(cli, here, "id,type\nscout,ship\noutpost,base\ncutter,base\n",
          f"{{type: icon, x_mm: 5, y_mm: 5, size_mm: 10, icon: {{by: type, map: {{ship: bolt, base: {entry}}}}}}}")
    for command in ("validate", "build"):
        result = cli(command, "mygame")
        assert result.exit_code == 1 and "Traceback" not in result.output and "AttributeError" not in result.output, result.output
        said = "icon 'tre' is not in the icon set (did you mean 'tree'?)" if entry == "tre" else "icon 'basex' is not in the icon set"
        assert said in result.output, result.output
        if entry == "tre":  # a constant entry is the layout's fault: told once
            assert result.output.count("is not in the icon set") == 1, result.output


@pytest.mark.parametrize("when", ["Strenght", "pick_labl"])
def test_a_bare_field_name_in_when_that_no_card_has_is_one_error_at_its_line(cli, here, when):
    folder = _trade(cli, here, "", "card")
    layout = folder / "layout.yaml"
    layout.write_text(layout.read_text().replace("when: pick_label}", f"when: {when}}}"))
    out = cli("validate", "mygame").stdout
    near = {"Strenght": "", "pick_labl": " (did you mean 'pick_label'"}[when]
    assert f"when: '{when}' reads '{when}', a field no card of deck 'cards' has" in out and out.count(f"reads '{when}'") == 1, out
    assert near in out, out
    layout.write_text(layout.read_text().replace(f"when: {when}}}", "when: pick_label}"))
    assert cli("validate", "mygame").exit_code == 0  # a derived field some cards lack is a name the deck knows


def test_a_derived_yes_no_or_list_that_the_layout_prints_is_one_error_at_its_derive_line(cli, here):
    folder = _trade(cli, here, derive=DERIVE + '      flag: "{{ Name == \'Scout\' }}"\n      lst: "{{ [1, 2] }}"\n')
    layout = folder / "layout.yaml"
    layout.write_text(layout.read_text().replace("text: '{Name}'", "text: '{flag}|{lst}'"))
    result = cli("validate", "mygame")
    game = folder / "game.yaml"
    assert result.exit_code == 1 and "True" not in result.stdout, result.output
    assert (f"mygame/game.yaml:{line_of(game, 'flag:')}:13: decks[0].derive.flag: gives card 'scout' (and 3 more cards) a yes/no value (true), "
            "which has no printed form") in result.stdout, result.output
    assert f"mygame/game.yaml:{line_of(game, 'lst:')}:12: decks[0].derive.lst: gives card 'scout' (and 3 more cards) a list ([1, 2])" in result.stdout
    assert "cards.csv" not in result.stdout and "2 errors" in result.stdout, result.output


def test_a_when_written_in_braces_is_told_to_drop_them(cli, here):
    folder = _trade(cli, here)
    layout = folder / "layout.yaml"
    layout.write_text(layout.read_text().replace("when: cost < 2}", "when: '{{ cost }}'}"))
    out = cli("validate", "mygame").stdout
    assert "is written in '{{ }}': write the expression bare (when: cost > 1)" in out and "expected token" not in out, out


def test_a_map_or_derived_text_of_the_wrong_shape_is_told_what_is_wrong_with_it(cli, here):
    folder = _trade(cli, here, derive=DERIVE + "      long: '" + "x" * 2100 + "'\n")
    layout = folder / "layout.yaml"
    layout.write_text(layout.read_text().replace("default: ink}", "default: 5}"))
    out = cli("validate", "mygame").stdout
    assert "decks[0].derive.long: the text" in out and "has 2100 characters; at most 2000 allowed" in out, out
    assert "expected a mapping" not in out
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text().replace("x" * 2100, "short"))
    out = cli("validate", "mygame").stdout
    assert "fill.default: expected text, found the number 5" in out and "found a mapping" not in out, out


def test_when_tells_apart_values_that_compare_equal_card_after_card():
    # an element's when: answers are kept by the values it reads, so true, 1 and 1.0 (equal to
    # Python) are still three values, a card without the field a fourth, a list asked afresh
    from deckpress.generator.render.elements import compile_elements

    rect = {"type": "rect", "x_mm": 0, "y_mm": 0, "w_mm": 1, "h_mm": 1, "fill": "#000000", "when": "flag is sameas true"}
    element = compile_elements([rect], ("cards", "card", "face"))[0]
    cards = [{"flag": True}, {"flag": 1}, {"flag": 1.0}, {"flag": True}, {}, {"flag": [1]}, {"flag": 1}]
    assert [element.visible(card) for card in cards] == [True, False, False, True, False, False, False]


def test_an_expression_tells_apart_zero_and_minus_zero_and_works_out_a_list_every_time():
    # values are kept by the values read, with their types: 0.0 and -0.0 print differently
    from deckpress.generator.content.expressions import compile_expression

    sign = compile_expression("x ~ ''")
    assert [sign.value({"x": v}) for v in (0.0, -0.0, 0.0, 0, False)] == ["0.0", "-0.0", "0.0", "0", "False"]
    first = compile_expression("x | first")
    assert [first.value({"x": v}) for v in ([1, 2], [3], [1, 2])] == [1, 3, 1]

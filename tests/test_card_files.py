"""Card data as a designer has it: values that print as they are (null is absent, a yes/no or a
list is refused where it stands), one Tabletop Simulator deck per deck, ``init``'s values that
read back; JSON, spreadsheets, TSV and YAML lists as card files; ``init --from``; the limits a
game may raise.  Through the CLI, as a user runs it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import line_of, pdf_text
from pypdf import PdfReader

from deckpress.generator.content.yamlsafe import load_yaml


def starter(cli, here: Path, name: str = "mygame", schema: bool = True) -> Path:
    """``deckpress init NAME``: the starter game, without its card schema unless ``schema``."""
    assert cli("init", name).exit_code == 0
    folder = here / name
    if not schema:
        game = folder / "game.yaml"
        game.write_text("".join(line for line in game.read_text().splitlines(keepends=True) if "schema: card.schema.json" not in line))
    return folder


@pytest.mark.parametrize("name", ["null", "true", "no", "123", "False"])
def test_init_writes_values_that_read_back_as_written(cli, here, name):
    # `deckpress init null` once wrote `id: null`: the new game's own game.yaml then failed to validate
    folder = starter(cli, here, name)
    doc, errors = load_yaml(folder / "game.yaml")
    assert not errors and isinstance(doc.data["id"], str) and doc.data["title"] == name.capitalize()
    result = cli("validate", name)
    assert result.exit_code == 0, result.output


def test_null_is_an_absent_value_never_the_text_none(cli, here):
    folder = starter(cli, here, schema=False)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("file: cards.csv", "file: cards.yaml"))
    (folder / "cards.yaml").write_text(
        "cards:\n  - {id: one, title: One, text: First., colour: '#112233', value: 1, copies: 1}\n"
        "  - {id: two, title: Two, text: null, colour: '#445566', value: 2, copies: 1}\n")
    result = cli("validate", "mygame")
    # printed as 'None' before; now the card has no text, as an empty CSV cell
    assert result.exit_code == 1 and "'{text}' names no field of this card" in result.stdout
    layout = folder / "layout.yaml"
    layout.write_text(layout.read_text().replace('text: "{text}",', 'text: "{text}", when: text,'))
    assert cli("build", "mygame").exit_code == 0
    text = pdf_text(here / "output" / "mygame.pdf")
    assert "Two" in text and "None" not in text


def test_a_value_with_no_printed_form_is_refused_where_it_stands(cli, here):
    folder = starter(cli, here, schema=False)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("file: cards.csv", "file: cards.yaml"))
    cards = folder / "cards.yaml"
    cards.write_text(
        "cards:\n"
        "  - {id: one, title: One, text: First., colour: '#112233', value: 0, copies: 1}\n"
        "  - {id: two, title: false, text: Second., colour: '#445566', value: 2, copies: 1}\n"
        "  - id: three\n    title: Three\n    text: [1, 2]\n    colour: '#445566'\n    value: 3\n    copies: 1\n")
    result = cli("validate", "mygame")
    assert result.exit_code == 1
    out = result.stdout
    # at the value's own line and column, saying what it is and what to do; 0 is a value and prints
    assert ("mygame/cards.yaml:3:22: card 'two': title: a yes/no value (false) has no printed form, and the layout "
            "prints {title}: test it with when:, or write the text to print") in out
    assert f"mygame/cards.yaml:{line_of(cards, 'text: [1, 2]')}:11: card 'three': text: a list ([1, 2]) has no printed form" in out
    assert "card 'one'" not in out and out.rstrip().endswith("2 errors in 1 file")
    assert cli("build", "mygame").exit_code == 1  # never printed as False or [1, 2]


def test_two_decks_of_one_layout_are_two_tts_decks(cli, here):
    folder = starter(cli, here)
    game = folder / "game.yaml"
    text = game.read_text()
    deck = text[text.index("  - id: cards"):]
    game.write_text(text + deck.replace("id: cards", "id: more").replace("name: Cards", "name: More cards").replace("cards.csv", "more.csv"))
    (folder / "more.csv").write_text("id,title,text,colour,value,copies\nember,Ember,Burn a card.,#d1495b,4,2\n")
    result = cli("export", "mygame", "--to", "tts", "--dpi", "72", "--out", "tts")
    assert result.exit_code == 0, result.output
    assert "wrote 2 Tabletop Simulator decks" in result.stdout
    decks = {p.name: json.loads(p.read_text())["ObjectStates"][0] for p in (here / "tts").glob("*.json")}
    assert set(decks) == {"mygame-cards.json", "mygame-more-cards.json"}
    assert decks["mygame-cards.json"]["Nickname"] == "Cards" and len(decks["mygame-cards.json"]["ContainedObjects"]) == 6
    assert [c["Nickname"] for c in decks["mygame-more-cards.json"]["ContainedObjects"]] == ["Ember", "Ember"]
    assert decks["mygame-more-cards.json"]["CustomDeck"]["1"]["FaceURL"].startswith("file:///")


def test_tts_images_at_a_base_url_for_decks_shared_online(cli, here):
    starter(cli, here)
    result = cli("export", "mygame", "--to", "tts", "--dpi", "72", "--out", "tts", "--base-url", "https://example.org/my game/tts/")
    assert result.exit_code == 2 and "--base-url: 'https://example.org/my game/tts/' is not a web address of a folder" in result.output
    result = cli("export", "mygame", "--to", "tts", "--dpi", "72", "--out", "tts", "--base-url", "https://example.org/mygame/tts/")
    assert result.exit_code == 0, result.output
    assert "upload the .png files to https://example.org/mygame/tts" in result.stdout
    custom = json.loads((here / "tts" / "mygame-card.json").read_text())["ObjectStates"][0]["CustomDeck"]["1"]
    assert custom["FaceURL"] == "https://example.org/mygame/tts/mygame-card-1.png"
    assert custom["BackURL"] == "https://example.org/mygame/tts/mygame-card-back.png"
    assert {p.name for p in (here / "tts").glob("*.png")} == {"mygame-card-1.png", "mygame-card-back.png"}
    assert cli("export", "mygame", "--to", "png", "--base-url", "https://example.org/").exit_code == 2


def deck_file(folder: Path, name: str, extra: str = "") -> None:
    """Point the starter game's deck at the card file ``name`` (``extra``: more deck keys, YAML lines)."""
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("file: cards.csv", f"file: {name}" + "".join(f"\n    {line}" for line in extra.splitlines())))


STARTER_CARDS = [
    {"id": "spark", "title": "Spark", "text": "Draw a card.", "colour": "#d1495b", "value": 1, "copies": 3},
    {"id": "tide", "title": "Tide", "text": "Swap a card.", "colour": "#00798c", "value": 2, "copies": 2},
]


def test_a_json_list_of_cards_prints(cli, here):
    folder = starter(cli, here)
    deck_file(folder, "cards.json")
    (folder / "cards.json").write_text(json.dumps(STARTER_CARDS, indent=2))
    assert cli("build", "mygame").exit_code == 0
    text = pdf_text(here / "output" / "mygame.pdf")
    assert text.count("Spark") == 3 and text.count("Tide") == 2


def test_json_records_under_a_path_keep_their_fields_and_nested_values(cli, here):
    # the shape of a party game's published packs: a list of packs, each with its name and its cards, a pack field on each card
    folder = starter(cli, here, schema=False)
    deck_file(folder, "packs.json", "path: '[*].white'")
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("copies: copies", "copies: 1"))
    packs = [{"name": "Base", "white": [{"text": "A lost sock.", "pack": 0, "meta": {"pick": 1}}]},
             {"name": "Second", "white": [{"text": "Glitter.", "pack": 1, "meta": {"pick": 2}}, {"text": "Owls.", "pack": 1, "meta": {"pick": 1}}]}]
    (folder / "packs.json").write_text(json.dumps(packs, indent=1))
    layout = folder / "layout.yaml"
    layout.write_text(layout.read_text().replace("{title}", "{name} pack {pack}").replace('fill: "{colour}"', "fill: back")
                      .replace('text: "{value}"', 'text: "{meta}"'))
    result = cli("validate", "mygame")
    # the nested value is kept whole (for templates that name its parts), and is no text to print
    line = line_of(folder / "packs.json", '"Glitter."') + 2  # its "meta" key's value
    assert (f'mygame/packs.json:{line}:13: card \'cards-2\': meta: a group of fields ({{"pick": 2}}) has no printed form, and the layout '
            "prints {meta}: print its parts by name ({meta.part})") in result.stdout
    layout.write_text(layout.read_text().replace('text: "{meta}"', 'text: "{pack}"'))
    assert cli("build", "mygame").exit_code == 0
    text = pdf_text(here / "output" / "mygame.pdf")
    assert "A lost sock." in text and "Glitter." in text and "Owls." in text
    assert text.count("Base pack 0") == 1 and text.count("Second pack 1") == 2  # each card keeps its pack's name
    game.write_text(game.read_text().replace("'[*].white'", "'[*].black'"))
    out = cli("validate", "mygame").stdout
    assert "mygame/packs.json:2:2: path '[*].black': nothing at [*].black (keys here: name, white)" in out


def test_json_errors_are_at_their_line_and_column(cli, here):
    folder = starter(cli, here)
    deck_file(folder, "cards.json", "path: data")
    cards = folder / "cards.json"

    def errors(text: str) -> str:
        cards.write_text(text)
        result = cli("validate", "mygame")
        assert result.exit_code == 1
        return result.stdout

    good = json.dumps({"data": STARTER_CARDS}, indent=2)
    out = errors(good.replace('"value": 2', '"value": "2"'))
    at = line_of(cards, '"value": "2"')
    assert f'mygame/cards.json:{at}:16: card \'tide\': value: expected a whole number, found the text "2"' in out
    out = errors(good.replace('"value": 2,', '"value": 2, "value": 3,'))
    at = line_of(cards, '"value": 3')
    assert f"mygame/cards.json:{at}:19: data[1].value: duplicate key 'value' (first defined on line {at}): each key may appear once" in out
    out = errors(good.replace('"copies": 2', '"copies": 2,'))
    at = line_of(cards, '"copies": 2,') + 1
    assert (f"mygame/cards.json:{at}:5: not valid JSON: expecting property name enclosed in double quotes: expected a key in double "
            "quotes, or a comma too many before '}'") in out
    out = errors(good.replace('"value": 1,', '"value": NaN,'))
    assert f"mygame/cards.json:{line_of(cards, 'NaN')}:16: NaN is not a JSON number: JSON numbers are finite" in out
    out = errors(good.replace('"value": 1,', '"value": 1e400,'))
    assert f"mygame/cards.json:{line_of(cards, '1e400')}:16: 1e400 is too large a number" in out
    out = errors(good.replace("Swap a card.", "Swap\\u202e a card."))
    assert f"mygame/cards.json:{line_of(cards, 'Swap')}:15: data[1].text: contains U+202E (RIGHT-TO-LEFT OVERRIDE)" in out
    out = errors('{"data": ' + "[" * 40 + "]" * 40 + "}")
    assert "nesting is deeper than the limit of 32 levels" in out
    cards.write_text(good)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("path: data", "path: data..x"))
    assert "must be keys joined by '.', with [*] for every item of a list" in cli("validate", "mygame").stdout


def test_a_top_level_yaml_list_and_a_tsv_file_are_card_files(cli, here):
    folder = starter(cli, here)
    deck_file(folder, "cards.yaml")
    (folder / "cards.yaml").write_text("- {id: one, title: One, text: First., colour: '#112233', value: 1, copies: 1}\n"
                                       "- {id: two, title: Two, text: Second., colour: '#445566', value: '2', copies: 1}\n")
    assert "mygame/cards.yaml:2:66: card 'two': value: expected a whole number" in cli("validate", "mygame").stdout
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("cards.yaml", "cards.tsv"))
    (folder / "cards.tsv").write_text("id\ttitle\ttext\tcolour\tvalue\tcopies\none\tOne\tFirst, then more.\t#112233\t1\t2\n")
    assert cli("build", "mygame").exit_code == 0
    assert pdf_text(here / "output" / "mygame.pdf").count("First, then more.") == 2


def test_a_csv_with_classic_mac_line_ends_is_read(cli, here):
    folder = starter(cli, here)
    cards = folder / "cards.csv"
    cards.write_bytes(cards.read_bytes().replace(b"\n", b"\r").replace(b"#00798c,2,2", b"#00798c,two,2"))
    out = cli("validate", "mygame").stdout
    assert "mygame/cards.csv:3:77: card 'tide': value: expected a whole number" in out  # its own line, its own column
    cards.write_bytes(cards.read_bytes().replace(b"two", b"2"))
    assert cli("build", "mygame").exit_code == 0 and pdf_text(here / "output" / "mygame.pdf").count("Tide") == 2


def test_a_number_past_the_digit_cap_says_so(cli, here):
    folder = starter(cli, here)
    cards = folder / "cards.csv"
    cards.write_text(cards.read_text().replace("#d1495b,1,3", "#d1495b,99999999999999999999,3"))
    out = cli("validate", "mygame").stdout
    assert ('found the text "99999999999999999999" (a cell is read as a number when it has at most 16 digits before the point '
            "and 15 after it: a float keeps no more, so this one stayed text)") in out
    cards.write_text(cards.read_text().replace("99999999999999999999", "1e3"))
    assert 'found the text "1e3" (write it as plain digits, such as 12 or 1.5)' in cli("validate", "mygame").stdout


def test_a_game_raises_a_card_file_limit_in_game_yaml(cli, here):
    folder = starter(cli, here)
    deck_file(folder, "cards.csv", "limits: {cards: 2}")
    out = cli("validate", "mygame").stdout
    assert "mygame/cards.csv:4:1: more than 2 cards in one file: raise it for this deck in game.yaml: limits: {cards: 8}" in out
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("limits: {cards: 2}", "limits: {cards: 3, megabytes: 1}"))
    cards = folder / "cards.csv"
    cards.write_text(cards.read_text() + "#" * 1_000_001)
    out = cli("validate", "mygame").stdout
    assert "mygame/game.yaml:11:11: decks[0].file: 'cards.csv' is larger than 1 MB (" in out and "bytes): raise it for this deck in game.yaml: limits: {megabytes: 4}" in out
    game.write_text(game.read_text().replace("megabytes: 1}", "megabytes: 5000}"))
    assert "decks[0].limits.megabytes: 5000 is out of range: it must be at most 1000" in cli("validate", "mygame").stdout


def write_xlsx(path: Path, sheets: dict[str, list[list]], saved: dict[str, str] | None = None, doctype: bool = False) -> None:
    """A workbook of ``sheets`` (title -> rows) as a spreadsheet saves it; ``saved`` gives a
    formula (``"=1+1"``) the value a spreadsheet saves with it (openpyxl writes none)."""
    import zipfile

    import openpyxl

    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for title, rows in sheets.items():
        sheet = workbook.create_sheet(title)
        for row in rows:
            sheet.append(row)
    workbook.save(path)
    parts = {}
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            parts[name] = archive.read(name)
    for name, data in parts.items():
        if name.startswith("xl/worksheets/"):
            for formula, value in (saved or {}).items():
                data = data.replace(f"<f>{formula[1:]}</f><v />".encode(), f"<f>{formula[1:]}</f><v>{value}</v>".encode())
            if doctype:
                data = data.replace(b"<worksheet", b'<!DOCTYPE x [<!ENTITY a "aaaa">]><worksheet', 1)
            parts[name] = data
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)


HEADER = ["id", "title", "text", "colour", "value", "copies"]


def test_a_spreadsheet_is_a_card_file_with_errors_at_the_cell(cli, here):
    folder = starter(cli, here)
    deck_file(folder, "cards.xlsx", "sheet: Cards")
    book = folder / "cards.xlsx"
    rows = [HEADER, ["spark", "Spark", "Draw a card.", "#d1495b", 1, "=1+2"], ["tide", "Tide", "Swap.", "#00798c", "2", 2]]
    write_xlsx(book, {"Notes": [["not cards"]], "Cards": rows}, saved={"=1+2": "3"})
    out = cli("validate", "mygame").stdout
    # a number typed into a text cell, at its cell; the formula's saved value is read, never evaluated
    assert 'mygame/cards.xlsx: Cards!E3: cards[1].value: expected a whole number, found the text "2" (the cell is formatted as text: format it as a number)' in out
    assert out.rstrip().endswith("1 error in 1 file")
    rows[2][4] = 2
    write_xlsx(book, {"Notes": [["not cards"]], "Cards": rows}, saved={"=1+2": "3"})
    assert cli("build", "mygame").exit_code == 0
    text = pdf_text(here / "output" / "mygame.pdf")
    assert text.count("Spark") == 3 and text.count("Tide") == 2  # 3 copies: the formula's saved value
    write_xlsx(book, {"Notes": [["not cards"]], "Cards": rows})  # saved by a program that does not compute formulas
    out = cli("validate", "mygame").stdout
    assert ("mygame/cards.xlsx: Cards!F2: copies: a formula saved without its value (deckpress never evaluates formulas): open the "
            "file in a spreadsheet and save it, or paste the values") in out
    write_xlsx(book, {"Notes": [["not cards"]], "Cards": [HEADER[:5] + ["copies me"]] + rows[1:]}, saved={"=1+2": "3"})
    assert "mygame/cards.xlsx: Cards!F1: column 'copies me': a field name is letters, digits and _" in cli("validate", "mygame").stdout
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("sheet: Cards", "sheet: cards"))
    assert "mygame/cards.xlsx: has no sheet 'cards' (did you mean 'Cards'?)" in cli("validate", "mygame").stdout
    game.write_text(game.read_text().replace("\n    sheet: cards", ""))  # the first sheet
    assert "mygame/cards.xlsx: Notes!A1: column 'not cards'" in cli("validate", "mygame").stdout


def test_a_spreadsheet_that_declares_a_document_type_is_refused_unopened(cli, here):
    folder = starter(cli, here)
    deck_file(folder, "cards.xlsx")
    write_xlsx(folder / "cards.xlsx", {"Cards": [HEADER, ["spark", "Spark", "Draw.", "#d1495b", 1, 1]]}, doctype=True)
    out = cli("validate", "mygame").stdout
    assert "mygame/cards.xlsx: its part xl/worksheets/sheet1.xml declares a document type, which no spreadsheet needs: refused" in out
    (folder / "cards.xlsx").write_bytes(b"PK\x03\x04 not really")
    assert "mygame/cards.xlsx: is not a readable .xlsx spreadsheet" in cli("validate", "mygame").stdout
    import zipfile

    write_xlsx(folder / "cards.xlsx", {"Cards": [HEADER, ["spark", "Spark", "Draw.", "#d1495b", 1, 1]]})
    parts = {name: zipfile.ZipFile(folder / "cards.xlsx").read(name) for name in zipfile.ZipFile(folder / "cards.xlsx").namelist()}
    with zipfile.ZipFile(folder / "cards.xlsx", "w") as archive:  # a sheet whose XML breaks off: found as it is read
        for name, data in parts.items():
            archive.writestr(name, data.replace(b"</sheetData>", b"") if name.startswith("xl/worksheets/") else data)
    assert "mygame/cards.xlsx: sheet 'Cards' cannot be read (ParseError: " in cli("validate", "mygame").stdout


def test_init_from_a_card_file_writes_a_schema_of_its_types_and_a_layout_of_every_field(cli, here):
    # the shape of a collectible card game's published database: records under "data", nested stats, nulls, yes/no
    cards = [{"code": "01001", "title": "Noise", "type_code": "identity", "text": "Whenever you install a virus, trash.",
              "uniqueness": False, "stats": {"link": 0}, "flavor": None, "quantity": 1},
             {"code": "01002", "title": "Deja Vu", "type_code": "event", "cost": 2, "text": "Add 1 card from your heap.",
              "uniqueness": True, "flavor": "Again.", "quantity": 2}]
    (here / "core.json").write_text(json.dumps({"data": cards, "version_number": "2.0"}))
    result = cli("init", "netgame", "--from", "core.json")
    assert result.exit_code == 0, result.output
    assert "wrote netgame/: game.yaml, core.json (2 cards, at data), card.schema.json (9 fields)" in result.stdout
    folder = here / "netgame"
    assert {p.name for p in folder.iterdir()} == {"game.yaml", "core.json", "card.schema.json", "layout.yaml", ".schemas"}
    assert {p.name for p in (folder / ".schemas").iterdir()} == {"game.schema.json", "layout.schema.json", "variant.schema.json"}
    schema = json.loads((folder / "card.schema.json").read_text())
    assert schema["properties"]["cost"] == {"type": "integer"} and schema["properties"]["flavor"] == {"type": ["string", "null"]}
    assert schema["properties"]["stats"] == {"type": "object"} and schema["required"] == ["code", "title", "type_code", "text", "uniqueness", "quantity"]
    layout = (folder / "layout.yaml").read_text()
    assert "stats (a group of fields: print its parts by name, {stats.link})" in layout
    # the database's quantity is how many of each card the box holds: as many print
    assert "    copies: quantity   # the field that says how many of each card to print" in (folder / "game.yaml").read_text()
    result = cli("build", "netgame")
    assert result.exit_code == 0, result.output
    text = pdf_text(here / "output" / "netgame.pdf")
    # every value printed: the name, each field labelled, a yes/no by its name where true, a field some cards lack where present
    for shown in ("Noise", "code: 01001", "type_code: identity", "text: Whenever you install a virus, trash.", "quantity: 1",
                  "Deja Vu", "cost: 2", "uniqueness", "flavor: Again."):
        assert shown in text, shown
    assert text.count("Deja Vu") == 2 and text.count("uniqueness") == 2 and "None" not in text and "False" not in text


def test_init_from_a_spreadsheet_or_a_csv_and_what_it_refuses(cli, here):
    write_xlsx(here / "deck.xlsx", {"Cards": [["name", "power", "rules"], ["Owl", 2, "Flies."], ["Bear", 5.5, "Sleeps."]]})
    result = cli("init", "sheetgame", "--from", "deck.xlsx", "--sheet", "Cards")
    assert result.exit_code == 0, result.output
    assert json.loads((here / "sheetgame" / "card.schema.json").read_text())["properties"]["power"] == {"type": "number"}
    assert 'sheet: "Cards"' in (here / "sheetgame" / "game.yaml").read_text()
    assert cli("build", "sheetgame").exit_code == 0
    assert "power: 5.5" in pdf_text(here / "output" / "sheetgame.pdf")
    (here / "broken.csv").write_text('name,rules\nOwl,"Flies.\n')
    result = cli("init", "broken", "--from", "broken.csv")
    assert result.exit_code == 1 and "broken.csv:2:1: not a readable CSV file from this row on" in result.stderr
    assert not (here / "broken").exists()  # nothing written
    (here / "mine").mkdir()
    (here / "mine" / "deck.csv").write_text("name,power\nOwl,2\n")
    result = cli("init", "mine", "--from", "mine/deck.csv")  # the folder the card file is in becomes the game
    assert result.exit_code == 0, result.output
    assert cli("init", "mine", "--from", "mine/deck.csv").exit_code == 2  # once
    assert cli("init", "other", "--from", "broken.csv", "--sheet", "Cards").exit_code == 2


def test_init_from_nested_packs_names_each_card_by_its_own_text(cli, here):
    # a party game's packs: every card keeps its pack's name, which tells no card apart: the card's text is its name
    packs = [{"name": "Base", "official": True, "white": [{"text": f"Card {n}.", "pack": 0} for n in range(4)]},
             {"name": "Extra", "official": False, "white": [{"text": "Owls.", "pack": 1}]}]
    (here / "packs.json").write_text(json.dumps(packs))
    result = cli("init", "party", "--from", "packs.json", "--path", "[*].white")
    assert result.exit_code == 0 and "packs.json (5 cards, at [*].white)" in result.stdout
    layout = (here / "party" / "layout.yaml").read_text()
    assert 'text: "{text}", font: bold' in layout and 'text: "name: {name}"' in layout
    assert cli("build", "party").exit_code == 0
    text = pdf_text(here / "output" / "party.pdf")
    assert "Owls." in text and "name: Extra" in text and text.count("name: Base") == 4


def test_a_spreadsheet_that_unpacks_past_its_limit_is_refused_before_it_is_opened(cli, here):
    import zipfile

    folder = starter(cli, here)
    deck_file(folder, "cards.xlsx", "limits: {megabytes: 1}")
    with zipfile.ZipFile(folder / "cards.xlsx", "w", zipfile.ZIP_DEFLATED) as archive:  # a few kB that unpack to 11 MB
        archive.writestr("xl/worksheets/sheet1.xml", b" " * 11_000_000)
    assert (folder / "cards.xlsx").stat().st_size < 100_000
    out = cli("validate", "mygame").stdout
    assert "mygame/cards.xlsx: unpacks to 11,000,000 bytes, more than the limit of 10,000,000 for a spreadsheet of this size" in out


@pytest.mark.parametrize("name", ["cards.json", "cards.xlsx", "cards.tsv"])
def test_a_card_file_that_links_out_of_the_game_folder_is_refused(cli, here, name):
    folder = starter(cli, here)
    deck_file(folder, name)
    (here / "secret.json").write_text(json.dumps(STARTER_CARDS))
    (folder / name).symlink_to(Path("..") / "secret.json")
    out = cli("validate", "mygame").stdout
    assert f"mygame/game.yaml:{line_of(folder / 'game.yaml', name)}:11: decks[0].file: '{name}' leaves the game folder" in out


def test_a_list_of_plain_texts_is_a_deck_whose_cards_are_those_texts(cli, here):
    # a party game's compact file: its answers as plain texts under "white"
    (here / "compact.json").write_text(json.dumps({"white": ["Owls.", "A lost sock.", "Glitter."], "black": [{"text": "_?", "pick": 1}]},
                                                  indent=1))
    result = cli("init", "words", "--from", "compact.json", "--path", "white")
    assert result.exit_code == 0 and "compact.json (3 cards, at white)" in result.stdout
    assert cli("build", "words").exit_code == 0
    text = pdf_text(here / "output" / "words.pdf")
    assert "Owls." in text and "A lost sock." in text and "Glitter." in text
    schema = here / "words" / "card.schema.json"
    schema.write_text(schema.read_text().replace('"type": "string"', '"type": "string", "maxLength": 6'))
    out = cli("validate", "words").stdout
    assert 'words/compact.json:4:3: cards[1].text: the text "A lost sock." has 12 characters; at most 6 allowed' in out


def test_a_json_file_of_too_many_values_is_refused_before_it_is_built(cli, here, monkeypatch):
    # [0, 0, 0, ...]: each value costs memory far beyond its two bytes; counted before json builds anything
    import json as json_module

    folder = starter(cli, here)
    deck_file(folder, "cards.json", "limits: {cards: 3}")
    (folder / "cards.json").write_text(json.dumps([{"id": "a", "tags": [0] * 400, "note": "a, b, [c, {d"}]))

    def never(*args, **kwargs):
        raise AssertionError("json.loads was called")

    monkeypatch.setattr(json_module, "loads", never)
    out = cli("validate", "mygame").stdout
    assert "mygame/cards.json: more than 300 values in one file: raise it for this deck in game.yaml: limits: {cards: 12}" in out


def test_a_workbook_whose_first_sheet_is_a_chart_reads_its_first_sheet_of_cells(cli, here):
    import openpyxl
    from openpyxl.chart import BarChart, Reference

    folder = starter(cli, here)
    deck_file(folder, "cards.xlsx")
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cards"
    for row in [HEADER, ["spark", "Spark", "Draw a card.", "#d1495b", 1, 2]]:
        sheet.append(row)
    chart = book.create_chartsheet("Costs", 0)
    bars = BarChart()
    bars.add_data(Reference(sheet, min_col=5, min_row=1, max_row=2))
    chart.add_chart(bars)
    book.save(folder / "cards.xlsx")
    assert cli("build", "mygame").exit_code == 0 and pdf_text(here / "output" / "mygame.pdf").count("Spark") == 2
    deck_file(folder, "cards.xlsx")
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("file: cards.xlsx", "file: cards.xlsx\n    sheet: Costs", 1))
    assert "mygame/cards.xlsx: 'Costs' is a chart, not a sheet of cells" in cli("validate", "mygame").stdout


@pytest.mark.slow
def test_every_json_value_and_key_is_placed_where_a_yaml_reader_places_it():
    # the JSON card reader works out places with its own scan (only when an error needs one): it must
    # agree with YAML's reader, which knows positions, on any JSON (JSON is YAML 1.2)
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from deckpress.generator.content.cardfiles import _JsonPositions

    scalars = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(st.characters(blacklist_categories=("Cs", "Cc", "Cf")), max_size=8)
    values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text("abcxyz_é", min_size=1, max_size=4), inner, max_size=4),
                          max_leaves=20)

    @settings(max_examples=150, deadline=None)
    @given(values, st.sampled_from([None, 1, 2]), st.booleans())
    def agree(value, indent, ascii_only):
        text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
        doc, errors = load_yaml(Path("x.json"), text=text)
        assert not errors
        positions, keys, duplicates = _JsonPositions(text).table()
        assert positions == doc.positions and keys == doc.key_positions and duplicates == []

    agree()


def test_a_cell_that_reads_as_a_number_prints_as_written_and_text_fields_keep_their_text(cli, here):
    folder = starter(cli, here)  # init's own schema: title and text are text
    (folder / "cards.csv").write_text("id,title,text,colour,value,copies\n"
                                      "novel,1984,42,#d1495b,1,1\n"
                                      "patch,Patch,3.10,#00798c,2,1\n")
    result = cli("build", "mygame")
    assert result.exit_code == 0, result.output  # not "expected text, found the number 1984"
    text = pdf_text(here / "output" / "mygame.pdf")
    assert "1984" in text and "42" in text and "3.10" in text, text
    # without a schema a cell prints as written, and an expression still compares it as a number
    game = folder / "game.yaml"
    game.write_text("\n".join(line for line in game.read_text().splitlines() if "schema: card.schema.json" not in line) + "\n")
    (folder / "cards.csv").write_text("id,title,text,colour,value,copies\n"
                                      "a,Price,3.10,#d1495b,1.50,1\n"
                                      "b,Zero,-0,#00798c,2,1\n")
    layout = folder / "layout.yaml"
    layout.write_text(layout.read_text().replace('text: "{value}"', 'text: "{value}", when: "value > 1.4"'))
    result = cli("build", "mygame")
    assert result.exit_code == 0, result.output
    text = pdf_text(here / "output" / "mygame.pdf")
    assert "3.10" in text and "1.50" in text and "-0" in text and "3.1\n" not in text, text


def test_init_from_a_file_whose_text_holds_simple_html_draws_it_as_markup(cli, tmp_path, monkeypatch):
    # ArkhamDB and NetrunnerDB texts hold <b> and <i>: the first build draws them, not the tags.
    monkeypatch.chdir(tmp_path)
    Path("db.csv").write_text('name,text,flavour\nAlpha,"<b>Ally:</b> draw a card.<br>Then discard one.",a <u>rare</u> one\n', encoding="utf-8")
    assert cli("init", "db", "--from", "db.csv").exit_code == 0
    layout = Path("db/layout.yaml").read_text("utf-8")
    assert layout.count("markup: html") == 1  # the text field; flavour's <u> is not a tag markup draws
    assert cli("build", "db").exit_code == 0
    text = "\n".join(page.extract_text() for page in PdfReader("output/db.pdf").pages)
    assert "Ally: draw a card." in text and "<b>" not in text and "<u>rare</u>" in text

"""Editions in other languages: translate extract / update (gettext catalogues a translator edits
in Poedit or Weblate) and build / validate --lang (docs/translating.md)."""
from __future__ import annotations

import re
import shutil

import polib
import pytest
from pypdf import PdfReader

from tests.conftest import edit, line_of, pdf_text


@pytest.fixture
def game_copy(game_copy):
    """A shipped game's copy without its shipped catalogues (``locales/``, docs/translations.md),
    so that each test starts from an untranslated folder."""

    def bare(game_id: str):
        folder = game_copy(game_id)
        shutil.rmtree(folder / "locales", ignore_errors=True)
        return folder

    return bare


def _translate_all(po_path, translate) -> None:
    """Fill every entry of a catalogue as a translator's tool does (polib writes the file)."""
    po = polib.pofile(str(po_path))
    for entry in po:
        entry.msgstr = translate(entry)
    po.save()


def _french(entry) -> str:
    return {"kit/fifty-missions/medal-title/bronze": "Médaille de {medal}", "medals/bronze/name": "bronze",
            "kit/fifty-missions/number": "N° {n}",
            "missions/total-20/text": "Les 4 cartes font exactement 20 au total."}.get(entry.msgctxt, "FR " + entry.msgid)


def test_extract_writes_every_text_with_context_place_and_comment(game_copy, cli, tmp_path):
    folder = game_copy("fifty-missions")
    result = cli("translate", "extract", folder, "--out", tmp_path / "pot")
    assert result.exit_code == 0, result.output
    pot = polib.pofile(str(tmp_path / "pot" / "fifty-missions.pot"))
    by_context = {e.msgctxt: e for e in pot}
    text = by_context["missions/total-20/text"]
    assert text.msgid == "The 4 cards add up to exactly 20."
    line = next(i for i, s in enumerate((folder / "missions.yaml").read_text("utf-8").splitlines(), 1) if "id: total-20" in s)
    assert text.occurrences == [("missions.yaml", str(line))]
    assert "generated from its condition" in text.comment
    assert by_context["kit/fifty-missions/number"].msgid == "No. {n}"
    assert by_context["layout/symbol/back/4"].msgid == "MISSIONS"
    assert by_context["medals/bronze/name"].msgid == "Bronze"  # game.yaml's translate: {medals: [name]}
    # numbers, ids and icons are never texts to translate
    assert not any(e.msgid.strip().isdigit() or e.msgctxt.endswith(("/icon", "/hex", "/id", "/after_missions")) for e in pot)


@pytest.mark.slow
def test_french_edition_prints_french_text_and_the_english_numbers(game_copy, cli, here):
    folder = game_copy("fifty-missions")
    assert cli("translate", "update", folder, "--lang", "fr").exit_code == 0
    _translate_all(folder / "locales" / "fr.po", _french)
    assert cli("build", folder, "--lang", "fr", "--out", here / "out").exit_code == 0
    assert cli("build", folder, "--out", here / "out").exit_code == 0
    french, english = (" ".join(pdf_text(here / "out" / f"fifty-missions{e}.pdf").split()) for e in ("-fr", ""))
    assert "Les 4 cartes font exactement 20 au total." in french and "The 4 cards add up to exactly 20." not in french
    assert "MÉDAILLE DE BRONZE" in french and "N° 12" in french
    assert "BRONZE MEDAL" in english and "No. 12" in english
    # the symbol cards' values (1 to 7), the medals' places: the same numbers in both editions
    assert re.findall(r"\b\d+\b", french.split("FR SYMBOL CARD")[-1])[:60] == re.findall(r"\b\d+\b", english.split("SYMBOL CARD")[-1])[:60]


def test_missing_translations_are_one_error_listing_each_with_its_card(game_copy, cli, here):
    folder = game_copy("fifty-missions")
    cli("translate", "update", folder, "--lang", "fr")
    _translate_all(folder / "locales" / "fr.po", lambda e: "" if e.msgctxt in ("missions/total-20/text", "game/title") else "FR " + e.msgid)
    result = cli("build", folder, "--lang", "fr", "--out", here / "out")
    assert result.exit_code == 1
    assert "2 texts have no fr translation" in result.stderr
    assert "missions/total-20/text" in result.stderr and "card total-20" in result.stderr and "game/title" in result.stderr
    assert not (here / "out" / "fifty-missions-fr.pdf").exists()
    result = cli("build", folder, "--lang", "fr", "--allow-missing", "--out", here / "out")
    assert result.exit_code == 0, result.stderr
    assert "2 texts printed in the source language" in result.stderr
    assert "The 4 cards add up to exactly 20." in " ".join(pdf_text(here / "out" / "fifty-missions-fr.pdf").split())


def test_update_marks_exactly_the_changed_entry_fuzzy(game_copy, cli):
    folder = game_copy("mission-emission")
    cli("translate", "update", folder, "--lang", "hi")
    po_path = folder / "locales" / "hi.po"
    _translate_all(po_path, lambda e: "अनुवाद " + e.msgid)
    before = po_path.read_bytes()
    result = cli("translate", "update", folder, "--lang", "hi")
    assert "up to date" in result.output and po_path.read_bytes() == before  # nothing changed: the file is left as it was
    edit(folder / "states.yaml", "name: Kerala", "name: Keralam")
    assert cli("translate", "update", folder, "--lang", "hi").exit_code == 0
    po = polib.pofile(str(po_path))
    assert [e.msgctxt for e in po if e.fuzzy] == ["states/kerala/name"]
    changed = po.find("Keralam", msgctxt="states/kerala/name")
    assert changed.msgstr == "अनुवाद Kerala" and changed.previous_msgid == "Kerala"
    assert not any(e.msgstr == "" for e in po)


def test_a_catalogue_saved_by_another_tool_round_trips(game_copy, cli):
    """Poedit and Weblate wrap lines at their own width, add their own comments and flags: a file
    deckpress only reads is never rewritten, and an update keeps every comment and flag."""
    folder = game_copy("geheime-mission")
    cli("translate", "update", folder, "--lang", "de")
    po_path = folder / "locales" / "de.po"
    po = polib.pofile(str(po_path), wrapwidth=60)
    for entry in po:
        entry.msgstr = "DE " + entry.msgid
        entry.tcomment = "checked by the Weblate team"
        entry.flags.append("no-wrap")
    po.save()
    saved = po_path.read_bytes()
    assert cli("validate", folder, "--lang", "de").exit_code == 0
    assert cli("translate", "update", folder, "--lang", "de").exit_code == 0
    assert po_path.read_bytes() == saved
    edit(folder / "game.yaml", "title: Geheime Mission", "title: Geheime Mission!")
    cli("translate", "update", folder, "--lang", "de")
    after = polib.pofile(str(po_path))
    assert all(e.tcomment == "checked by the Weblate team" and "no-wrap" in e.flags for e in after)
    assert [e.msgctxt for e in after if e.fuzzy] == ["game/title"]


def test_a_catalogue_that_is_no_po_file_is_refused_at_its_line(game_copy, cli, here):
    folder = game_copy("geheime-mission")
    cli("translate", "update", folder, "--lang", "de")
    po_path = folder / "locales" / "de.po"
    lines = po_path.read_text("utf-8").splitlines()
    n = next(i for i, s in enumerate(lines) if s.startswith("msgctxt")) + 1
    lines[n] = "msgid_garbled \"x\""
    po_path.write_text("\n".join(lines) + "\n", "utf-8")
    result = cli("build", folder, "--lang", "de", "--out", here / "out")
    assert result.exit_code == 1
    assert re.search(rf"locales/de\.po:{n + 1}:\d+: not a gettext PO file", result.stderr), result.stderr


def test_a_translation_that_drops_a_placeholder_is_refused_at_its_entry(game_copy, cli, here):
    folder = game_copy("fifty-missions")
    cli("translate", "update", folder, "--lang", "fr")
    po_path = folder / "locales" / "fr.po"
    _translate_all(po_path, lambda e: "Numéro" if e.msgctxt == "kit/fifty-missions/number" else e.msgid)
    result = cli("build", folder, "--lang", "fr", "--out", here / "out")
    line = next(i for i, s in enumerate(po_path.read_text("utf-8").splitlines(), 1) if s == 'msgid "No. {n}"')
    assert f"fr.po:{line}:1: the translation of 'kit/fifty-missions/number' has the placeholders {{}} but its source has {{n}}" in result.stderr


def test_validate_lang_all_names_card_field_and_language_of_a_text_too_long(game_copy, cli):
    folder = game_copy("geheime-mission")
    cli("translate", "update", folder, "--lang", "de")
    _translate_all(folder / "locales" / "de.po", lambda e: e.msgid)
    assert cli("validate", folder, "--lang", "all").exit_code == 0
    _translate_all(folder / "locales" / "de.po",
                   lambda e: "STRENG GEHEIME DIENSTSACHE DER ABTEILUNG" if e.msgctxt == "kit/geheime-mission/suitcase-label" else e.msgid)
    result = cli("validate", folder, "--lang", "all")
    assert result.exit_code == 1
    assert "[de]" in result.stdout and "suitcase-01" in result.stdout and "face_label" in result.stdout, result.stdout


def test_unknown_language_lists_the_languages_there_are(game_copy, cli, here):
    folder = game_copy("geheime-mission")
    result = cli("build", folder, "--lang", "fr", "--out", here / "out")
    assert result.exit_code == 1
    assert "has no fr translation (its languages: en, qps)" in result.stderr


def test_translate_names_a_file_the_game_does_not_have_at_its_line(game_copy, cli, tmp_path):
    folder = game_copy("mission-emission")
    edit(folder / "game.yaml", "  states: [name]\n", "  stats: [name]\n")
    result = cli("translate", "extract", folder, "--out", tmp_path)
    assert result.exit_code != 0
    assert f"game.yaml:{line_of(folder / 'game.yaml', 'stats:')}:3: translate: the game has no content file 'stats'" in result.stderr


@pytest.mark.parametrize("game", ["fifty-missions", "mission-emission"])
def test_pseudo_localisation_lengthens_and_accents_every_text(game, game_copy, cli, here):
    from deckpress.generator.kit.translation import pseudo

    assert pseudo("No. {n}").startswith("[") and "{n}" in pseudo("No. {n}")
    long = pseudo("Every face-up value is 2, 4 or 6.")
    assert len(long) >= 1.35 * len("Every face-up value is 2, 4 or 6.") and "é" in long
    folder = game_copy(game)
    result = cli("build", folder, "--lang", "qps", "--allow-missing", "--out", here / "out")
    text = pdf_text(here / "out" / f"{game}-qps.pdf") if result.exit_code == 0 else result.stderr
    assert "ȧ" in text or "é" in text, text[:500]


def test_validate_refuses_a_declared_field_that_holds_numbers_or_is_not_there(game_copy, cli):
    folder = game_copy("mission-emission")
    edit(folder / "game.yaml", "  missions: [name, definition, unit]\n", "  point-cards: [points, title]\n")
    line = line_of(folder / "game.yaml", "point-cards:")
    result = cli("validate", folder)
    assert result.exit_code == 1
    assert f"game.yaml:{line}:17: translate: 'points' of point-cards holds ids or numbers, which are never translated" in result.stdout, result.stdout
    assert f"game.yaml:{line}:25: translate: no card of point-cards has a field 'title'" in result.stdout


def test_export_takes_lang_and_writes_the_edition_apart(game_copy, cli, here):
    folder = game_copy("geheime-mission")
    cli("translate", "update", folder, "--lang", "de")
    _translate_all(folder / "locales" / "de.po", lambda e: "GEHEIM" if e.msgctxt == "kit/geheime-mission/suitcase-label" else e.msgid)
    result = cli("export", folder, "--to", "pdf", "--lang", "de", "--cards", "suitcase-01", "--out", here / "out")
    assert result.exit_code == 0, result.stderr
    (pdf,) = (here / "out").glob("*.pdf")
    assert pdf.name == "geheime-mission-de-one-up-reprint.pdf"
    assert "GEHEIM" in pdf_text(pdf) and "SECRET" not in pdf_text(pdf)


FRENCH_STATES = {"West Bengal": "Bengale-Occidental", "Forest": "Forêt", "Crowd": "Foule", "Maharashtra": "Maharashtra"}


def _french_mission_emission(game_copy, cli):
    folder = game_copy("mission-emission")
    cli("translate", "update", folder, "--lang", "fr")
    _translate_all(folder / "locales" / "fr.po", lambda e: FRENCH_STATES.get(e.msgid, e.msgid))
    return folder


@pytest.mark.parametrize("header", ["language: fr\n", ""])
def test_a_log_written_with_french_names_replays(game_copy, cli, header, tmp_path):
    from deckpress.generator.paths import CONTENT_DIR

    folder = _french_mission_emission(game_copy, cli)
    english = (CONTENT_DIR / "mission-emission" / "logs" / "example-base.yaml").read_text("utf-8")
    french = english.replace("game: mission-emission\n", "game: mission-emission\n" + header)
    for source, translated in FRENCH_STATES.items():
        french = french.replace(source, translated)
    assert "Bengale-Occidental" in french and "mission: Forêt" in french
    (tmp_path / "fr.yaml").write_text(french, "utf-8")
    (tmp_path / "en.yaml").write_text(english, "utf-8")
    there = cli("replay", tmp_path / "en.yaml", "--content", folder, "--format", "json")
    here_ = cli("replay", tmp_path / "fr.yaml", "--content", folder, "--format", "json")
    assert there.exit_code == 0 and here_.exit_code == 0, here_.output
    assert here_.stdout.replace("fr.yaml", "en.yaml") == there.stdout


def test_a_log_in_a_language_the_game_has_no_catalogue_for_is_refused(game_copy, cli, tmp_path):
    folder = _french_mission_emission(game_copy, cli)
    log = tmp_path / "de.yaml"
    log.write_text("game: mission-emission\nlanguage: de\nparams: {players: 2}\nevents:\n  - {chance: deal, seat: 0, cards: [Westbengalen]}\n", "utf-8")
    result = cli("replay", log, "--content", folder)
    assert result.exit_code == 1
    assert "no card is called 'Westbengalen'" in result.output


def test_engines_are_unchanged_by_translations(game_copy, cli):
    """check, simulate and describe play the same game whatever editions the folder has."""
    folder = _french_mission_emission(game_copy, cli)
    plain = game_copy("fifty-missions").parent / "plain"
    import shutil

    shutil.copytree(folder, plain)
    shutil.rmtree(plain / "locales")
    for args in (("simulate", "--games", "20", "--seed", "3", "--format", "json"), ("describe",)):
        with_po, without = cli(args[0], folder, *args[1:]), cli(args[0], plain, *args[1:])
        assert with_po.exit_code == 0, with_po.output
        assert _untimed(with_po.stdout.replace(str(folder), "X")) == _untimed(without.stdout.replace(str(plain), "X"))


def _untimed(output: str):
    """A command's output without its timing (which no two runs share)."""
    import json

    try:
        data = json.loads(output)
    except ValueError:
        return output
    data.pop("timing", None)
    return data


@pytest.mark.slow
def test_a_hindi_edition_is_drawn_in_the_devanagari_font(game_copy, cli, here):
    """Fonts follow the script: a translated word in Devanagari is drawn with Noto Sans Devanagari,
    the numbers beside it with Lato, with no font declared for the edition."""
    from pypdf import PdfReader

    folder = game_copy("mission-emission")
    cli("translate", "update", folder, "--lang", "hi")
    _translate_all(folder / "locales" / "hi.po", lambda e: {"Goa": "गोवा", "Forest": "वन"}.get(e.msgid, e.msgid))
    assert cli("build", folder, "--lang", "hi", "--out", here / "out").exit_code == 0
    reader = PdfReader(here / "out" / "mission-emission-hi.pdf")
    fonts = {str(f.get_object()["/BaseFont"]).split("+")[-1] for page in reader.pages for f in (page["/Resources"].get("/Font") or {}).values()}
    assert {"NotoSansDevanagari-Regular", "Lato-Regular"} <= fonts
    assert "गोवा" in pdf_text(here / "out" / "mission-emission-hi.pdf")


def test_record_takes_the_names_of_the_tables_edition(game_copy, cli, tmp_path):
    from click.testing import CliRunner

    from deckpress.generator.cli import main
    from tests.rules.test_record import EXAMPLE, lines_of

    folder = _french_mission_emission(game_copy, cli)
    typed = []
    for line in lines_of(EXAMPLE):
        for source, translated in FRENCH_STATES.items():
            line = line.replace(source, translated.lower())
        typed.append(line)
    assert any("bengale-occidental" in line for line in typed)
    out = tmp_path / "game.yaml"
    result = CliRunner().invoke(main, ["record", str(folder), "--lang", "fr", "--players", "2", "--out", str(out)],
                                input="\n".join(typed) + "\n", catch_exceptions=False)
    assert "90 events; the game is over; seat 0: 26, seat 1: 2" in result.stdout, result.output
    assert "West Bengal" in out.read_text("utf-8")  # the log records the names the rules know
    assert cli("replay", out, "--content", folder).exit_code == 0


def test_the_studio_shows_an_edition(game_copy, cli):
    from deckpress.generator.studio.catalogue import CardCatalogue

    folder = _french_mission_emission(game_copy, cli)
    _translate_all(folder / "locales" / "fr.po", lambda e: {**FRENCH_STATES, "State cards": "Cartes d'État"}.get(e.msgid, e.msgid))
    catalogue = CardCatalogue(folder, dpi=30, lang="fr")
    assert catalogue.refresh().errors == []
    assert [name for _, name, _ in catalogue.decks()][0] == "Cartes d'État"
    assert "Bengale-Occidental" in {c.name for c in catalogue.cards}
    (folder / "locales" / "fr.po").write_text('msgid ""\nmsgstr ""\n', "utf-8")  # every translation gone
    errors = CardCatalogue(folder, dpi=30, lang="fr").refresh().errors
    assert len(errors) == 1 and "texts have no fr translation" in errors[0].message


def test_a_fuzzy_translation_is_printed_and_warned(game_copy, cli, here):
    folder = game_copy("geheime-mission")
    cli("translate", "update", folder, "--lang", "de")
    _translate_all(folder / "locales" / "de.po", lambda e: "DE " + e.msgid)
    edit(folder / "game.yaml", "title: Geheime Mission", "title: Geheime Mission!")
    cli("translate", "update", folder, "--lang", "de")
    result = cli("build", folder, "--lang", "de", "--out", here / "out")
    assert result.exit_code == 0, result.stderr
    assert "warning: " in result.stderr and "the de translation of game/title is fuzzy" in result.stderr
    assert "DE Geheime Mission" in pdf_text(here / "out" / "geheime-mission-de.pdf")


def test_pseudo_localisation_names_the_cards_at_risk(cli):
    """50 Missions' medal cards print their place in a 46 x 5 mm box: 40 % longer, it overflows."""
    result = cli("validate", "fifty-missions", "--lang", "qps")
    assert result.exit_code == 1
    assert re.search(r"medals\.yaml:\d+:\d+: \[qps\] mission face, card 'bronze': text '\{place\}'", result.stdout), result.stdout


def test_a_pseudo_localised_build_prints_the_cards_at_risk_with_their_boxes_framed_in_red(cli, here):
    """validate --lang qps fails on the medals' place; build --lang qps prints them anyway, past
    their box and framed in red, for the designer to look at (and says so)."""
    result = cli("build", "fifty-missions", "--lang", "qps", "--out", here)
    assert result.exit_code == 0, result.output
    assert "a pseudo-localised proof" in result.stderr and "framed in red" in result.stderr
    content = b"".join(page.get_contents().get_data() for page in PdfReader(here / "fifty-missions-qps.pdf").pages)
    assert content.count(b".85 .1 .1 RG") >= 3  # a red frame round each medal's overflowing place
    assert cli("build", "fifty-missions", "--out", here / "en").exit_code == 0
    english = b"".join(page.get_contents().get_data() for page in PdfReader(here / "en" / "fifty-missions.pdf").pages)
    assert b".85 .1 .1 RG" not in english


def test_a_variant_carries_its_own_translation_of_what_it_adds(game_copy, cli, here, tmp_path):
    import shutil

    from deckpress.generator.paths import CONTENT_DIR

    folder = game_copy("fifty-missions")
    cli("translate", "update", folder, "--lang", "fr")
    _translate_all(folder / "locales" / "fr.po", _french)
    variant = tmp_path / "night-shift.yaml"
    shutil.copy(CONTENT_DIR / "variants" / "fifty-missions-night-shift.yaml", variant)
    result = cli("translate", "update", variant, "--lang", "fr", "--content", folder)
    assert result.exit_code == 0, result.output
    po = polib.pofile(str(tmp_path / "night-shift.fr.po"))
    assert sorted(e.msgctxt for e in po) == sorted(f"missions/{m}/text" for m in (
        "three-odd", "no-ones-total-18", "red-sum-equals-green-sum", "total-odd-four-colours", "no-sevens"))  # only what the variant adds
    _translate_all(tmp_path / "night-shift.fr.po", lambda e: "Exactement 3 valeurs impaires." if "three-odd" in e.msgctxt else "FR " + e.msgid)
    result = cli("export", variant, "--to", "pdf", "--lang", "fr", "--content", folder, "--cards", "three-odd", "--out", here / "out")
    assert result.exit_code == 0, result.stderr
    (pdf,) = (here / "out").glob("*.pdf")
    assert "Exactement 3 valeurs impaires." in " ".join(pdf_text(pdf).split())


def test_a_shipped_game_installed_with_deckpress_is_translated_from_a_copy(cli, here, monkeypatch):
    """An installed wheel's game folders are replaced by an upgrade: update refuses to write there
    and names the copy to make; init --like makes it (modelines pointing at its own .schemas/),
    and the copy takes a catalogue and builds its edition."""
    from deckpress.generator import paths

    monkeypatch.setattr(paths, "IN_CHECKOUT", False)
    result = cli("translate", "update", "fifty-missions", "--lang", "es")
    assert result.exit_code == 2
    assert "installed with deckpress" in result.stderr and "deckpress init my-fifty-missions --like fifty-missions" in result.stderr
    assert not (paths.CONTENT_DIR / "fifty-missions" / "locales" / "es.po").exists()
    result = cli("translate", "extract", "fifty-missions")
    assert result.exit_code == 0 and (here / "fifty-missions.pot").is_file()  # the template, into the current folder
    assert not (paths.CONTENT_DIR / "fifty-missions" / "locales" / "fifty-missions.pot").exists()

    assert cli("init", "mine", "--like", "fifty-missions").exit_code == 0
    assert (here / "mine" / "game.yaml").read_text().startswith("# yaml-language-server: $schema=.schemas/game.schema.json\n")
    assert (here / "mine" / ".schemas" / "fifty-missions.missions.schema.json").is_file()
    result = cli("build", "fifty-missions", "--lang", "es", "--out", here / "out")
    assert result.exit_code == 1 and "deckpress init my-fifty-missions --like fifty-missions" in result.output
    assert cli("translate", "update", "mine", "--lang", "es").exit_code == 0
    result = cli("build", "mine", "--lang", "es", "--out", here / "out")
    assert result.exit_code == 1
    assert "174 texts have no es translation" in result.output and "; and 154 more (their msgstr is empty" in result.output
    assert "run 'deckpress translate update mine --lang es'" in result.output
    _translate_all(here / "mine" / "locales" / "es.po", lambda e: "ES " + e.msgid)
    result = cli("build", "mine", "--lang", "es", "--out", here / "out")
    assert result.exit_code == 0, result.output
    assert "ES Check one card with a ruler before printing the rest." in " ".join(pdf_text(here / "out" / "fifty-missions-es.pdf").split())
    result = cli("init", "other", "--like", "chess")
    assert result.exit_code == 2 and "'chess' is not a shipped game" in result.stderr


def test_a_new_game_is_told_which_card_fields_to_declare_for_translation(cli, here):
    """init leaves translate: as a comment (a designer's own fields replace the starter's); update
    then says the cards' texts are not in the catalogue and how to declare them."""
    assert cli("init", "mygame").exit_code == 0
    assert "# translate:\n#   cards: [title, text]" in (here / "mygame" / "game.yaml").read_text()
    result = cli("translate", "update", "mygame", "--lang", "de")
    assert result.exit_code == 0
    assert "note: game.yaml declares no card field translatable" in result.stderr and "cards: [title, text]" in result.stderr


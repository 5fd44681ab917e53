"""The shipped editions: 50 Missions in French, Geheime Mission in German, Mission Emission in
Hindi, each a gettext catalogue in its game's folder (docs/translations.md)."""
from __future__ import annotations

import io
import re
import unicodedata
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po
from pypdf import PdfReader

CONTENT = Path(__file__).resolve().parents[1] / "content"
EDITIONS = {"fifty-missions": "fr", "geheime-mission": "de", "mission-emission": "hi"}


def catalogue(game: str):
    path = CONTENT / game / "locales" / f"{EDITIONS[game]}.po"
    with path.open("rb") as f:
        return read_po(f)


def translated(game: str) -> dict[str, str]:
    """msgctxt -> msgstr of a shipped edition."""
    return {m.context: m.string for m in catalogue(game) if m.id}


@pytest.mark.parametrize("game", sorted(EDITIONS))
def test_every_edition_says_who_made_it_and_from_what_entry_by_entry(game):
    cat = catalogue(game)
    assert str(cat.locale) == EDITIONS[game]
    assert "Translator:" in cat.header_comment and "docs/translations.md" in cat.header_comment
    assert "deckpress" in cat.last_translator
    entries = [m for m in cat if m.id]
    assert entries
    untranslated = [m.context for m in entries if not m.string]
    assert not untranslated, f"{game}: untranslated {untranslated[:5]}"
    assert not [m.context for m in entries if m.fuzzy]
    unsourced = [m.context for m in entries if not any(c.startswith("Translation: ") for c in m.user_comments)]
    assert not unsourced, f"{game}: entries without a source {unsourced[:5]}"


@pytest.mark.parametrize("game", sorted(EDITIONS))
def test_a_shipped_catalogue_is_saved_by_babel_byte_for_byte_as_shipped(game):
    """A translator's tool that reads and writes the file changes nothing it did not edit."""
    path = CONTENT / game / "locales" / f"{EDITIONS[game]}.po"
    out = io.BytesIO()
    write_po(out, catalogue(game))
    assert out.getvalue() == path.read_bytes()


def test_french_medals_and_terms_follow_the_french_rulebook():
    fr = translated("fifty-missions")
    assert fr["kit/fifty-missions/medal-title/bronze"] == "Médaille de {medal}" and fr["medals/bronze/name"] == "Bronze"
    assert fr["kit/fifty-missions/medal-title/silver"] == "Médaille d'{medal}" and fr["medals/silver/name"] == "Argent"
    # « la Médaille en or » (French rulebook, Fin de la partie; 50 Missions de folie)
    assert fr["kit/fifty-missions/medal-title/gold"] == "Médaille en {medal}" and fr["medals/gold/name"] == "Or"
    assert fr["kit/fifty-missions/medal-level"] == "Niveau atteint\u00a0: {medal}"
    assert fr["deck/symbol/name"] == "Cartes Symboles" and fr["game/modes/crazy/name"] == "50 Missions de folie"
    # a mission quoted by a French review keeps its wording (trictrac.net)
    assert fr["missions/red-side-by-side/text"] == "2 cartes rouges (briquet) côte à côte."
    assert len([k for k in fr if k.startswith("missions/")]) == 50


def test_german_agents_have_fifty_four_distinct_names_none_another_agents_english_name():
    cat = [m for m in catalogue("geheime-mission") if m.context and m.context.startswith("agents/") and m.context.endswith("/code_name")]
    assert len(cat) == 54
    german = [m.string for m in cat]
    assert len(set(german)) == 54
    english = {m.id for m in cat}
    clash = [(m.id, m.string) for m in cat if m.string in english and m.string != m.id]
    assert not clash, clash  # 'Fingerhut' would be Thimble, not Foxglove


def _devanagari(text: str) -> bool:
    return all(ch in " -" or "DEVANAGARI" in unicodedata.name(ch, "") for ch in text)


def test_hindi_state_names_are_the_first_schedules_in_devanagari_and_the_rest_is_marked_contributed():
    cat = [m for m in catalogue("mission-emission") if m.id]
    names = [m for m in cat if m.context.startswith("states/") and m.context.endswith("/name")]
    assert len(names) == 36
    assert all(_devanagari(m.string) for m in names), [m.string for m in names if not _devanagari(m.string)]
    by_ctx = {m.context: m for m in cat}
    assert by_ctx["states/west-bengal/name"].string == "पश्चिमी बंगाल"  # the Schedule's spelling, decided
    assert any("पश्चिम बंगाल" in c for c in by_ctx["states/west-bengal/name"].user_comments)  # everyday form named
    assert by_ctx["kit/mission-emission/kind/union-territory"].string == "संघ राज्यक्षेत्र"
    official = {m.context for m in names} | {"kit/mission-emission/kind/state", "kit/mission-emission/kind/union-territory"}
    for m in cat:
        if m.context in official:
            assert any("Constitution of India, First Schedule" in c for c in m.user_comments), m.context
        else:
            assert any("translated for deckpress (contributed)" in c for c in m.user_comments), m.context


# --- the editions as printed -------------------------------------------------------------------

def _sheet_words(game: str | None) -> tuple[str, str]:
    """What ends the label of a sheet of faces and of backs in ``game``'s edition (None: English):
    the fixed words after the placeholders of ``kit/sheet/faces`` and ``kit/sheet/backs-long``."""
    words = translated(game) if game else {"kit/sheet/faces": "{deck} · {sheet}/{sheets} · faces",
                                            "kit/sheet/backs-long": "{deck} · {sheet}/{sheets} · backs (long edge)"}
    faces, backs = (words[f"kit/sheet/{k}"].rsplit("}", 1)[1] for k in ("faces", "backs-long"))
    return faces, backs.split(" (")[0]  # "· backs": what is in brackets may not extract as written (shaped Devanagari)


def _built(cli, folder: Path, game: str, lang: str | None) -> tuple[str, str]:
    """The text of the kit ``build`` writes (spaces, no-break ones included, as single spaces),
    and that of its card sheets alone (the pages labelled as sheets of faces or backs)."""
    args = ["build", game, "--out", folder] + (["--lang", lang] if lang else [])
    result = cli(*args)
    assert result.exit_code == 0, result.output
    pages = [" ".join(page.extract_text().split()) for page in PdfReader(folder / f"{game}{'-' + lang if lang else ''}.pdf").pages]
    faces, backs = (" ".join(w.split()) for w in _sheet_words(game if lang else None))
    return " ".join(pages), " ".join(p for p in pages if faces in p or backs in p)


@pytest.mark.slow
def test_fifty_missions_in_french_prints_the_french_texts_and_the_english_editions_numbers(cli, here):
    (_, french), (_, english) = _built(cli, here, "fifty-missions", "fr"), _built(cli, here, "fifty-missions", None)
    for text in ("MÉDAILLE DE BRONZE", "MÉDAILLE D'ARGENT", "MÉDAILLE EN OR", "Niveau atteint : bronze", "BRIQUET ROUGE",
                 "JUMELLES BLEUES", "BOUSSOLE VERTE", "2 cartes rouges (briquet) côte à côte.", "CARTE SYMBOLE", "N° 12",
                 "Dans la pioche Mission après 15 missions", "Cartes Symboles"):
        assert text in french, text
    for text in ("MEDAL", "LIGHTER", "Two red lighter cards side by side.", "SYMBOL CARD", "Level reached", "No. 12"):
        assert text not in french, text
    # the symbol cards' values, the missions' numbers and the medals' places: those of the English
    # edition (a mission text may word its number otherwise: "toutes inférieures à 4" for "3 or less")
    symbols_fr, symbols_en = french[:french.rindex("Cartes Symboles ·")], english[:english.rindex("Symbol cards ·")]
    assert re.findall(r"\b\d+\b", symbols_fr) == re.findall(r"\b\d+\b", symbols_en)
    assert re.findall(r"N° (\d+)", french) == re.findall(r"No\. (\d+)", english) == [str(n) for n in range(1, 51)]
    assert re.findall(r"après (\d+) missions", french) == re.findall(r"after (\d+) missions", english) == ["15", "19", "23"]


@pytest.mark.slow
def test_geheime_mission_in_german_prints_german_names_and_the_same_call_numbers_and_values(cli, here):
    (kit, german), (_, english) = _built(cli, here, "geheime-mission", "de"), _built(cli, here, "geheime-mission", None)
    for text in ("ANGRIFF", "INNENSTADT", "VERTEIDIGUNG", "GEHEIMGANG", "BLAU", "GEHEIM", "Digitalis", "Feldagent"):
        assert text in german, text
    for text in ("BOTSCHAFT", "Spieler 1", "Agenten: mit GRÜN verteidigen."):  # the board
        assert text in kit, text
    for text in ("ATTACK", "DEFENCE", "BACK DOOR", "SECRET", "BLUE", "Foxglove", "Field agent"):
        assert text not in german, text
    assert "EMBASSY" not in kit and "Player 1" not in kit
    assert re.findall(r"\b\d+\b", german) == re.findall(r"\b\d+\b", english)  # call numbers and values, card by card


@pytest.mark.slow
def test_mission_emission_in_hindi_prints_devanagari_with_the_english_editions_numbers(cli, here):
    (_, hindi), (_, english) = _built(cli, here, "mission-emission", "hi"), _built(cli, here, "mission-emission", None)
    # shaped Devanagari extracts lossily (conjuncts are glyphs of their own); words without them read back
    for text in ("असम", "गोवा", "वन", "जल", "कचरा"):
        assert text in hindi, text
    for text in ("Karnataka", "Forest", "STATE CARD", "UNION TERRITORY"):
        assert text not in hindi, text
    fonts = {str(f) for page in PdfReader(here / "mission-emission-hi.pdf").pages
             for f in (page["/Resources"].get("/Font") or {}).get_object().values()
             for f in [f.get_object().get("/BaseFont")]}
    assert any("NotoSansDevanagari" in f for f in fonts), fonts
    faces = " ".join(_sheet_words("mission-emission")[0].split())
    assert "अंक का" in hindi.split(f"· 1/2 {faces}")[0][-12:]  # the sheet's label names the deck in Devanagari too
    # the same values and points (the pile line words "card 1 of 3" as "3 में से कार्ड 1": compared as a multiset)
    assert sorted(re.findall(r"[+-]?\d+", hindi)) == sorted(re.findall(r"[+-]?\d+", english))


def test_validate_every_language_of_every_shipped_game(cli):
    result = cli("validate", "--lang", "all")
    assert result.exit_code == 0, result.output
    assert "4 checked, no errors" in result.output


def test_a_german_word_lengthened_past_its_box_fails_validate_naming_the_card_and_the_language(game_copy, cli):
    """Every language fits: VERTEIDIGUNG fits the agent card's 17 mm value box at its minimum
    size; a longer word does not, and validate says where, on which cards and in which language."""
    folder = game_copy("geheime-mission")
    po = folder / "locales" / "de.po"
    po.write_text(po.read_text("utf-8").replace('msgstr "VERTEIDIGUNG"', 'msgstr "VERTEIDIGUNGSWERT DES AGENTEN"'), "utf-8")
    result = cli("validate", folder, "--lang", "all")
    assert result.exit_code != 0
    assert "[de] agent face, card 'vesper'" in result.output and "VERTEIDIGUNGSWERT DES AGENTEN" in result.output, result.output


@pytest.mark.parametrize("game", sorted(EDITIONS))
def test_a_shipped_catalogue_is_up_to_date_with_its_game(game, game_copy, cli):
    """'translate update' finds no text to add, none changed (fuzzy) and none gone: every text the
    game prints has its entry, with the English text it translates.  (A moved line only moves an
    entry's #: place.)"""
    folder = game_copy(game)
    po = folder / "locales" / f"{EDITIONS[game]}.po"

    def entries() -> set[tuple]:
        with po.open("rb") as f:
            cat = read_po(f)
        return {(m.context, str(m.id), m.string, m.fuzzy) for m in cat if m.id} | {("obsolete", k) for k in cat.obsolete}

    before = entries()
    result = cli("translate", "update", folder, "--lang", EDITIONS[game])
    assert result.exit_code == 0, result.output
    assert entries() == before


@pytest.mark.parametrize("game, edition_log, english_log", [
    ("fifty-missions", "example-fr.yaml", "example.yaml"),
    ("geheime-mission", "example-base-de.yaml", "example-base.yaml"),
    ("mission-emission", "example-base-hi.yaml", "example-base.yaml"),
])
def test_a_log_written_with_an_editions_names_replays_as_the_english_log(game, edition_log, english_log, cli):
    """The same game written down at a French, German or Hindi table ('language:' in its header,
    cards and missions by their printed names: "briquet rouge 3", "Schwarzer Reiher", "पश्चिमी
    बंगाल") replays event for event to the English log's result."""
    logs = CONTENT / game / "logs"
    edition, english = cli("replay", logs / edition_log), cli("replay", logs / english_log)
    assert edition.exit_code == 0 and "all legal" in edition.output, edition.output
    assert edition.output.splitlines()[1:] == english.output.splitlines()[1:]
    assert edition.output.split(":")[1] == english.output.split(":")[1]  # "N events, all legal; ..."


def test_a_line_typed_at_a_french_table_reads_a_composed_name_whole():
    """`deckpress record fifty-missions --lang fr`: a card typed as the French edition prints it
    ("briquet rouge 3", its colour after its symbol) is the card the rules know ("red lighter 3"),
    never translated word by word ("lighter red 3", which no card is), in any case and inside the
    line's own syntax."""
    from deckpress.generator.content import check_game, find_game
    from deckpress.generator.kit.translation import names

    content, _ = check_game(find_game("fifty-missions"))
    typed = names(content, ["fr"])
    assert typed.in_line("seat 0 plays briquet rouge 3") == "seat 0 plays red lighter 3"
    assert typed.in_line("cards: [Briquet Rouge 3, ?]") == "cards: [red lighter 3, ?]"
    assert typed.in_line("seat 1 passes") == "seat 1 passes"


# --- the kit's own words: cover, printing instructions, sheet labels ----------------------------

@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(EDITIONS))
def test_no_sentence_of_the_english_kit_prints_in_an_edition(game, cli, tmp_path):
    """Every sentence, heading and label the kit itself writes (``kit/...``: the cover, "How to
    print", the sheets' labels, with tuck boxes and fold-over sheets too) prints in the edition's
    words: each English one the English kit prints is gone from the edition, its translation there."""
    lang = EDITIONS[game]
    texts = {}
    for edition in (None, lang):
        for options in ((), ("--tuck-boxes",), ("--duplex", "fold")):
            folder = tmp_path / f"{edition}{'-'.join(options)}"
            result = cli("build", game, "--out", folder, *options, *(("--lang", edition) if edition else ()))
            assert result.exit_code == 0, result.output
            pdf = folder / f"{game}{'-' + edition if edition else ''}.pdf"
            texts[edition] = texts.get(edition, "") + " ".join(" ".join(p.extract_text().split()) for p in PdfReader(pdf).pages)
    english, edition = texts[None], texts[lang]
    checked = 0
    for m in catalogue(game):
        if not m.id or not m.context.startswith("kit/") or "{" in m.id or len(m.id) < 12:
            continue
        source, string = " ".join(m.id.split()), " ".join(m.string.split())
        if source in english and source != string:
            checked += 1
            assert source not in edition, (m.context, source)
            if lang != "hi":  # shaped Devanagari does not extract as it was written (conjuncts are glyphs)
                assert string in edition, (m.context, string)
    assert checked >= 15  # the cover's sentences and headings, "How to print", the fold and tuck-box notes


def test_extract_lists_the_printing_sentences_of_every_option_without_building_them(cli, here):
    """A translator sees the sentences of options the default kit never prints (tuck boxes, a
    sheet template, a board's tiles): read from the template and the kit's list of phrases."""
    result = cli("translate", "extract", "maybe-missions", "--out", here)
    assert result.exit_code == 0, result.output
    with open(next(here.glob("*.pot")), "rb") as f:
        pot = {m.context: m for m in read_po(f) if m.id}
    for context in ("kit/how-to-print/tuck-boxes", "kit/how-to-print/stock-precut-some", "kit/how-to-print/cmyk",
                    "kit/how-to-print/duplex-short", "kit/board/glue", "kit/tuck-box/how", "kit/sheet/fold-over",
                    "kit/maybe-missions/cover/two-sided-score"):
        assert context in pot, context
    assert pot["kit/how-to-print/gap"].id == "Cards stand {gap} mm apart, each with its own bleed: cut both edges of every gap."
    assert pot["kit/how-to-print/gap"].auto_comments  # what the sentence is, for the translator


def test_a_template_sentence_that_extract_cannot_read_is_refused_naming_its_line(tmp_path, monkeypatch):
    from deckpress.generator import paths
    from deckpress.generator.kit.translation import template_texts

    (tmp_path / "how-to-print.txt.j2").write_text('¶ {{ tr("kit/a", "Fine.") }}\n¶ {{ tr(key, "Computed context.") }}\n')
    monkeypatch.setattr(paths, "TEMPLATES_DIR", tmp_path)
    with pytest.raises(ValueError, match=r"how-to-print.txt.j2:2: tr\(\) takes its context, English and comment as plain strings"):
        template_texts()


def test_numbers_and_lists_follow_the_language_being_built():
    from deckpress.generator.kit.translation import listed, number, percent, translating

    assert (number(1.5), number(63.0), listed(["a", "b", "c"]), listed(["a", "b"], "and"), percent(0.4414)) == ("1.5", "63", "a or b or c", "a, b", "44.1%")
    with translating(None, "fr"):
        assert (number(1.5), number(1134.0), listed(["a", "b"]), listed(["a", "b", "c"], "and")) == ("1,5", "1134", "a ou b", "a, b et c")
        assert percent(0.4414) == "44,1\u00a0%"  # French sets a percentage off with a no-break space
    with translating(None, "de"):
        assert (number(0.5), listed(["a", "b"])) == ("0,5", "a oder b")


@pytest.mark.slow
def test_an_edition_built_with_some_sets_keeps_only_their_rows_whatever_its_headings(game_copy, cli, here):
    """The checklist's set column is found by its place, not by its heading, which an edition
    translates ("Set" in German is "Satz")."""
    import polib

    folder = game_copy("maybe-missions")
    assert cli("translate", "update", folder, "--lang", "de").exit_code == 0
    po = polib.pofile(str(folder / "locales" / "de.po"))
    for entry in po:
        entry.msgstr = {"kit/maybe-missions/cover/set": "Satz", "kit/maybe-missions/cover/contents": "Inhalt"}.get(entry.msgctxt, entry.msgid)
    po.save()
    result = cli("build", folder, "--lang", "de", "--sets", "base", "--out", here)
    assert result.exit_code == 0, result.output
    cover = PdfReader(next(here.glob("*.pdf"))).pages[0].extract_text()
    assert "Satz" in cover and "Inhalt" in cover
    assert "Vote cards" in cover and "Public identity cards" not in cover and "Shop cards" not in cover

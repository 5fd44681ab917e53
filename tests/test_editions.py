"""The shipped editions: 50 Missions in French, Geheime Mission in German, Mission Emission in
Hindi, each a gettext catalogue in its game's folder (docs/translations.md)."""
from __future__ import annotations

import io
import unicodedata
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

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

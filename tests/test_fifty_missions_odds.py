"""50 Missions odds are counted once per deck and condition: the shipped
missions' counts travel in the wheel, a fan's are kept in the user's cache, and no cache ever
changes a count."""
from __future__ import annotations

import json

import pytest
from conftest import edit

from deckpress.generator.content import check_game, load_game
from deckpress.generator.content import fifty_missions_odds as odds


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """No counts kept in this process, and the user's cache in a temporary folder."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(odds, "_memo", {})
    monkeypatch.setattr(odds, "_files", {})
    calls = []
    real = odds.count_displays
    monkeypatch.setattr(odds, "count_displays", lambda condition, deck: calls.append(condition) or real(condition, deck))
    return calls


def test_the_shipped_cache_holds_the_shipped_missions_counts():
    # Regenerate with: python -m deckpress.generator.content.fifty_missions_odds
    assert json.loads(odds.SHIPPED_CACHE.read_text()) == odds.shipped_entries()


def test_loading_the_shipped_game_counts_nothing(fresh):
    load_game("fifty-missions")
    assert fresh == []


def test_a_fan_mission_is_counted_once_then_read_from_the_users_cache(fresh, game_copy, monkeypatch):
    folder = game_copy("fifty-missions")
    edit(folder / "missions.yaml", "condition: {sum: {equals: 16}}", "condition: {sum: {equals: 17}}")
    content, errors = check_game(folder)
    assert errors == [] and len(fresh) == 1  # only the changed mission is counted
    cached = json.loads(odds.user_cache().read_text())
    assert len(cached) == 1 and all(isinstance(n, int) for n in next(iter(cached.values())))
    monkeypatch.setattr(odds, "_memo", {})
    monkeypatch.setattr(odds, "_files", {})
    check_game(folder)
    assert len(fresh) == 1  # a new process would read it from the cache


def test_a_broken_user_cache_is_ignored_and_counts_stay_right(fresh, game_copy):
    odds.user_cache().parent.mkdir(parents=True)
    odds.user_cache().write_text('{"not": "counts", "x": [1, -2]}')
    folder = game_copy("fifty-missions")
    edit(folder / "missions.yaml", "condition: {sum: {equals: 16}}", "condition: {sum: {equals: 17}}")
    assert check_game(folder)[1] == [] and len(fresh) == 1

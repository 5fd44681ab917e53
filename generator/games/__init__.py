"""Registry of the games deckpress knows, one module per game.

A game module defines:

* ``FILES``: the content files (stems) its folder must hold;
* ``check(content) -> list[ContentError]``: semantic checks beyond the schemas;
* ``decks(content) -> list[Deck]``: its cards as plain field dicts for the layouts;
* ``cover(content) -> Cover``: the first page of its print-and-play kit.

These modules only turn content into plain data: they never import the renderer.
"""
from __future__ import annotations

import importlib
from types import ModuleType

_MODULES = {
    "mission-emission": "deckpress.generator.games.mission_emission",
    "fifty-missions": "deckpress.generator.games.fifty_missions",
    "maybe-missions": "deckpress.generator.games.maybe_missions",
    "geheime-mission": "deckpress.generator.games.geheime_mission",
}


def known_games() -> list[str]:
    """The ids of every game deckpress can load, sorted."""
    return sorted(_MODULES)


def game_module(game_id: str) -> ModuleType | None:
    """The module for ``game_id``, or ``None`` if deckpress does not know the game."""
    name = _MODULES.get(game_id)
    return importlib.import_module(name) if name else None

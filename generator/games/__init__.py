"""Registry of the game modules: the four shipped games with code of their own, and
:mod:`~deckpress.generator.games.data` for every game made from data alone.

A game module defines:

* ``FILES``: the content files (stems) its folder must hold (shipped games), or
  ``content_files(game_doc)``: the files its ``game.yaml`` declares, each with its loader (games
  from data alone);
* ``check(content) -> list[ContentError]``: semantic checks beyond the schemas;
* ``decks(content) -> list[Deck]``: its cards as plain field dicts for the layouts;
* ``cover(content) -> Cover``: the first page of its print-and-play kit.

These modules only turn content into plain data: they never import the renderer.
"""
from __future__ import annotations

import importlib
from types import ModuleType

from deckpress.generator.games import data as data_game

_MODULES = {
    "mission-emission": "deckpress.generator.games.mission_emission",
    "fifty-missions": "deckpress.generator.games.fifty_missions",
    "maybe-missions": "deckpress.generator.games.maybe_missions",
    "geheime-mission": "deckpress.generator.games.geheime_mission",
}

__all__ = ["data_game", "game_module", "shipped_games"]


def shipped_games() -> list[str]:
    """The ids of the games whose content ships with deckpress, sorted."""
    return sorted(_MODULES)


def game_module(game_id: str) -> ModuleType | None:
    """The module of shipped game ``game_id``, or ``None`` for any other game (made from data
    alone: :mod:`deckpress.generator.games.data`)."""
    name = _MODULES.get(game_id)
    return importlib.import_module(name) if name else None

"""Which games have rules engines, and loading one: id -> module, module -> Game class.

A game module ends with ``register(TheGame)``; :data:`_MODULES` tells the registry where to import
it from (one line per game).
"""
from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Mapping

from deckpress.rules.core.errors import ParameterError
from deckpress.rules.core.game import Game

_MODULES = {
    "mission-emission": "deckpress.rules.mission_emission",
    "maybe-missions": "deckpress.rules.maybe_missions",
    "fifty-missions": "deckpress.rules.fifty_missions",
    "geheime-mission": "deckpress.rules.geheime_mission",
}
_GAMES: dict[str, type[Game]] = {}


def register(game_class: type[Game]) -> type[Game]:
    """Record ``game_class`` under its ``info.id`` (the last statement of a game module)."""
    _GAMES[game_class.info.id] = game_class
    return game_class


def known_games() -> list[str]:
    """Ids of the games that have a rules engine, sorted."""
    return sorted(_MODULES)


def game_class(game_id: str) -> type[Game]:
    """The Game class of ``game_id``.

    Raises:
        ParameterError: no rules engine for that game (the message lists the known ones).
    """
    if game_id not in _MODULES:
        raise ParameterError(f"no rules engine for '{game_id}' (games with rules: {', '.join(known_games())})")
    importlib.import_module(_MODULES[game_id])
    return _GAMES[game_id]


def load(game_id: str, ruleset: str | None = None, overrides: Mapping[str, Any] | None = None,
         content_dir: Path | None = None) -> Game:
    """A ready :class:`Game`: its content loaded and validated, its parameters resolved.

    Args:
        game_id: a game with a rules engine (``"mission-emission"``).
        ruleset, overrides: see :func:`deckpress.rules.core.params.resolve`.
        content_dir: a folder of that game (its game.yaml ``id`` is ``game_id``) to use instead of
            the shipped content: an edition, a copy, a variant merged.

    Raises:
        ParameterError: unknown game, ruleset or parameter, or a bad value.
        deckpress.generator.content.errors.ContentErrors: the content is not valid (every error listed).
    """
    from deckpress.generator.content import load_game

    klass = game_class(game_id)
    content = load_game(content_dir if content_dir is not None else game_id)
    if content.game_id != game_id:
        raise ParameterError(f"the content in {content_dir} is the game '{content.game_id}', not '{game_id}'")
    return klass.create(content, ruleset, overrides)

"""Scenes: what the studio's table page draws, built for one viewer (a seat, or None for a
spectator) and holding only what that viewer may see (docs/table.md gives the shape).

:mod:`.engine` builds the scene of a game played with its rules engine, laid out by the data of
:mod:`.layouts`, and says what a click on it does; :mod:`.narrator` keeps its log in words.
"""
from deckpress.generator.studio.scenes.engine import (
    Clicks,
    Move,
    Target,
    click,
    engine_scene,
    layout_of,
)
from deckpress.generator.studio.scenes.narrator import Narrator

__all__ = ["Clicks", "Move", "Narrator", "Target", "click", "engine_scene", "layout_of"]

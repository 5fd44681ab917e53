"""The print side of each game: its content turned into plain cards, boards and a cover for the
renderer.  The four shipped games have a module each, named as their content module in
:mod:`deckpress.generator.content` (``SHIPPED``); every game made from data alone uses
:mod:`deckpress.generator.kit.adapters.data`.

A kit module defines ``decks(content) -> list[Deck]`` (each card a dict of fields for the
layouts), ``cover(content) -> Cover`` (the kit's first page) and optionally
``boards(content) -> list[Board]``.  These modules only make plain data: they never import
reportlab, and the rules engines never import them.
"""
from __future__ import annotations

import importlib
from types import ModuleType

from deckpress.generator.content import SHIPPED
from deckpress.generator.kit.printdata import Section
from deckpress.generator.kit.translation import tr


def kit_module(game_id: str) -> ModuleType:
    """The print-side module of ``game_id``: a shipped game's own, else the data game's."""
    return importlib.import_module(f"deckpress.generator.kit.adapters.{SHIPPED.get(game_id, 'data')}")


def how_to_play(game: dict, mode_sets: dict[str, str] | None = None) -> list[Section]:
    """The cover's rules summary for players: each way to play game.yaml's ``modes`` describe, in
    a sentence, and where the full rules are (its ``rulebook``); none when game.yaml gives neither.
    ``mode_sets`` maps a mode to the set whose cards it needs (Maybe Missions' expansions): a kit
    built without that set (``--sets``) leaves the mode out of its cover."""
    modes = game.get("modes", [])
    paragraphs = [tr("kit/cover/mode", "{mode}: {description}", "a way to play and its description", mode=m["name"], description=m["description"])
                  if m.get("description") else m["name"] for m in modes]
    sets = [(mode_sets or {}).get(m.get("id")) for m in modes]
    if game.get("rulebook"):
        paragraphs.append(tr("kit/cover/rulebook", "The full rules: {rulebook}.", "where the rules are", rulebook=game["rulebook"]))
        sets.append(None)
    return [Section(tr("kit/cover/how-to-play", "How to play", "a heading of the cover"), paragraphs, paragraph_sets=tuple(sets))] if paragraphs else []

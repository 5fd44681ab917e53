"""Semantic checks a JSON Schema cannot express, shared by every game.

Each check takes a loaded :class:`~deckpress.generator.yamlsafe.Document` (or the whole content) and returns
a list of :class:`~deckpress.generator.errors.ContentError` located at the offending value.  A game's own
module combines these in its ``check(content)``.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Iterable

from deckpress.generator.errors import ContentError
from deckpress.generator.yamlsafe import Document

if TYPE_CHECKING:
    from deckpress.generator.content import GameContent


def unique_ids(doc: Document, list_key: str, what: str) -> list[ContentError]:
    """Every record in ``doc.data[list_key]`` has a distinct ``id``."""
    seen: dict[str, int] = {}
    errors = []
    for i, record in enumerate(doc.data[list_key]):
        rid = record["id"]
        if rid in seen:
            line = doc.where((list_key, seen[rid], "id"))[0]
            errors.append(doc.error((list_key, i, "id"), f"duplicate {what} id '{rid}' (first used on line {line}): ids must be unique"))
        else:
            seen[rid] = i
    return errors


def references(doc: Document, list_key: str, field: str, valid: Iterable[str], what: str) -> list[ContentError]:
    """Every record's ``field`` names one of ``valid`` (the ids of ``what``)."""
    valid = list(valid)
    errors = []
    for i, record in enumerate(doc.data[list_key]):
        if record[field] not in valid:
            errors.append(doc.error((list_key, i, field), f"{list_key}[{i}].{field}: unknown {what} '{record[field]}' (expected one of: {', '.join(valid)})"))
    return errors


def count(content: "GameContent", component_id: str, stem: str, list_key: str) -> list[ContentError]:
    """The number of records in ``<stem>.yaml`` equals the count ``game.yaml`` gives the component."""
    game = content.documents["game"]
    for i, comp in enumerate(game.data["components"]):
        if comp["id"] == component_id:
            expected, found = comp["count"], len(content[stem][list_key])
            if found != expected:
                doc = content.documents[stem]
                return [doc.error((list_key,), f"{list_key}: {found} records, but game.yaml (line {game.where(('components', i, 'count'))[0]}) says the box has {expected} {comp['name'].lower()} (component '{component_id}'): make the two agree")]
            return []
    return [game.error(("components",), f"components: no component '{component_id}' (needed to count {stem}.yaml)")]


def game_file(content: "GameContent") -> list[ContentError]:
    """Checks on ``game.yaml`` common to all games: player and duration ranges are ordered,
    components name declared card sizes and have unique ids, and the keys the game's content
    module lists in ``GAME_KEYS`` (what its code reads) are there.  (The folder's name does not matter: a game is what its ``id`` says.)"""
    doc = content.documents["game"]
    data = doc.data
    errors = []
    for key in getattr(content.module, "GAME_KEYS", ()):
        if key not in data:
            errors.append(doc.error((), f"(top level): '{key}' is required in a {content.game_id} game.yaml (the kit's cover prints it)"))
    for key in ("players", "duration"):
        if key in data and data[key]["min"] > data[key]["max"]:
            errors.append(doc.error((key,), f"{key}: min {data[key]['min']} is more than max {data[key]['max']}"))
    if "components" in data:
        errors += unique_ids(doc, "components", "component")
    for i, comp in enumerate(data.get("components", [])):
        size = comp.get("card_size")
        if size is not None and size not in data["card_sizes"]:
            errors.append(doc.error(("components", i, "card_size"), f"components[{i}].card_size: unknown size '{size}' (expected one of: {', '.join(data['card_sizes'])})"))
    return errors


def duplicates(values: Iterable[str]) -> list[str]:
    """The values that occur more than once, in order of first repeat."""
    return [v for v, n in Counter(values).items() if n > 1]

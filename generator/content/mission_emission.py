"""Content model. Mission Emission (Nightingame): state cards with six statistics, and point cards.

Content: ``game.yaml``, ``missions.yaml``, ``states.yaml``, ``point-cards.yaml``, ``layout.yaml``
in ``content/mission-emission/``.  Facts and their sources: ``docs/card-facts.md`` and the
Mission Emission rulebook (Nightingame).

This module is the content side: the files, the checks and the facts that both the kit and the
rules engine read; the cards to print are made in :mod:`deckpress.generator.kit.adapters.mission_emission`.
"""
from __future__ import annotations

from deckpress.generator.content import semantic
from deckpress.generator.content.errors import ContentError

FILES = ("game", "missions", "states", "point-cards", "layout")
#: What this game's code reads from game.yaml (optional keys for a game made from data alone).
GAME_KEYS = ("publisher", "players", "ages", "duration", "components")


def check(content) -> list[ContentError]:
    """Ids unique; states name every mission once and stay in its declared range; colours and
    point cards name existing missions; counts match ``game.yaml``; each mission's pile has
    positions 1..n and every pile the same size."""
    missions_doc = content.documents["missions"]
    states_doc = content.documents["states"]
    points_doc = content.documents["point-cards"]
    missions = {m["id"]: m for m in missions_doc.data["missions"]}

    errors = semantic.unique_ids(missions_doc, "missions", "mission")
    errors += semantic.unique_ids(states_doc, "states", "state")
    errors += semantic.unique_ids(points_doc, "point_cards", "point card")
    errors += semantic.references(states_doc, "states", "colour", missions, "mission")
    errors += semantic.references(points_doc, "point_cards", "mission", missions, "mission")
    errors += semantic.count(content, "state", "states", "states")
    errors += semantic.count(content, "point", "point-cards", "point_cards")

    for i, state in enumerate(states_doc.data["states"]):
        values = state["values"]
        for mid in values:
            if mid not in missions:
                errors.append(states_doc.error(("states", i, "values", mid), f"states[{i}].values: unknown mission '{mid}' (expected one of: {', '.join(missions)})", key=True))
        for mid, mission in missions.items():
            if mid not in values:
                errors.append(states_doc.error(("states", i, "values"), f"states[{i}] ({state['name']}): no value for mission '{mid}'"))
                continue
            value, lo, hi = values[mid]["value"], mission["range"]["min"], mission["range"]["max"]
            if not lo <= value <= hi:
                errors.append(states_doc.error(("states", i, "values", mid, "value"), f"states[{i}] ({state['name']}): {mission['name']} value {value} is outside the mission's range {lo}..{hi} (missions.yaml)"))

    if any(card["mission"] not in missions for card in points_doc.data["point_cards"]):
        return errors  # pile shapes only make sense once every card names a real mission
    piles: dict[str, list[tuple[int, int]]] = {m: [] for m in missions}
    for i, card in enumerate(points_doc.data["point_cards"]):
        piles[card["mission"]].append((card["position"], i))
    sizes = {len(p) for p in piles.values()}
    for mid, pile in piles.items():
        positions = sorted(p for p, _ in pile)
        if positions != list(range(1, len(pile) + 1)):
            where = pile[0][1] if pile else 0
            errors.append(points_doc.error(("point_cards", where, "position"), f"point_cards: the {mid} pile has positions {positions}; expected 1..{len(pile)}, each once"))
    if len(sizes) > 1:
        errors.append(points_doc.error(("point_cards",), "point_cards: every mission needs a pile of the same size; found " + ", ".join(f"{m} {len(p)}" for m, p in piles.items())))
    return errors


def mission_extremes(content) -> dict[str, tuple[int, int]]:
    """Each mission's (max, min) over the state cards: what the rulebook's facts page prints
    (Forest 90/4, Energy 863/0, ...).  Computed, never stored twice."""
    states = content["states"]["states"]
    return {m["id"]: (max(s["values"][m["id"]]["value"] for s in states), min(s["values"][m["id"]]["value"] for s in states))
            for m in content["missions"]["missions"]}

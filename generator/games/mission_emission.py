"""Mission Emission (Nightingame): state cards with six statistics, and point cards.

Content: ``game.yaml``, ``missions.yaml``, ``states.yaml``, ``point-cards.yaml``, ``layout.yaml``
in ``content/mission-emission/``.  Facts and their sources: ``shared/notes/card-facts.md`` and the
rulebook (``shared/rulebooks/mission-emission.md``).
"""
from __future__ import annotations

from deckpress.generator import checks
from deckpress.generator.errors import ContentError
from deckpress.generator.model import Cover, Deck, Section

FILES = ("game", "missions", "states", "point-cards", "layout")


def check(content) -> list[ContentError]:
    """Ids unique; states name every mission once and stay in its declared range; colours and
    point cards name existing missions; counts match ``game.yaml``; each mission's pile has
    positions 1..n and every pile the same size."""
    missions_doc = content.documents["missions"]
    states_doc = content.documents["states"]
    points_doc = content.documents["point-cards"]
    missions = {m["id"]: m for m in missions_doc.data["missions"]}

    errors = checks.unique_ids(missions_doc, "missions", "mission")
    errors += checks.unique_ids(states_doc, "states", "state")
    errors += checks.unique_ids(points_doc, "point_cards", "point card")
    errors += checks.references(states_doc, "states", "colour", missions, "mission")
    errors += checks.references(points_doc, "point_cards", "mission", missions, "mission")
    errors += checks.count(content, "state", "states", "states")
    errors += checks.count(content, "point", "point-cards", "point_cards")

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


def _missions(content) -> list[dict]:
    return content["missions"]["missions"]


def mission_extremes(content) -> dict[str, tuple[int, int]]:
    """Each mission's (max, min) over the state cards: what the rulebook's facts page prints
    (Forest 90/4, Energy 863/0, ...).  Computed, never stored twice."""
    states = content["states"]["states"]
    return {m["id"]: (max(s["values"][m["id"]]["value"] for s in states), min(s["values"][m["id"]]["value"] for s in states))
            for m in _missions(content)}


def decks(content) -> list[Deck]:
    """The state deck and the point deck as field dicts for ``layout.yaml``.

    State card fields: ``name``, ``kind`` ('STATE' / 'UNION TERRITORY'), ``colour`` (hex of the
    card's colour), ``missions`` (a list of ``name``, ``icon``, ``colour``, ``better``, ``value``).
    Point card fields: ``name``, ``icon``, ``colour``, ``points`` ('+3', '-1'), ``pile``.
    """
    missions = _missions(content)
    by_id = {m["id"]: m for m in missions}
    states = [{
        "id": s["id"], "source": "states.yaml", "name": s["name"],
        "kind": s["kind"].replace("-", " ").upper(),
        "colour": by_id[s["colour"]]["colour"],
        "missions": [{"name": m["name"], "icon": m["icon"], "colour": m["colour"], "better": m["better"],
                      "value": s["values"][m["id"]]["value"]} for m in missions],
    } for s in content["states"]["states"]]
    pile_size = {m["id"]: sum(1 for p in content["point-cards"]["point_cards"] if p["mission"] == m["id"]) for m in missions}
    order = {m["id"]: i for i, m in enumerate(missions)}
    cards = sorted(content["point-cards"]["point_cards"], key=lambda p: (order[p["mission"]], p["position"]))
    points = [{
        "id": p["id"], "source": "point-cards.yaml", "name": by_id[p["mission"]]["name"],
        "icon": by_id[p["mission"]]["icon"], "colour": by_id[p["mission"]]["colour"],
        "points": f"{p['points']:+d}",
        "pile": f"{by_id[p['mission']]['name']} pile · card {p['position']} of {pile_size[p['mission']]}" + (" (top)" if p["position"] == 1 else ""),
    } for p in cards]
    return [Deck("state", "State cards", states), Deck("point", "Point cards", points)]


def cover(content) -> Cover:
    """The kit's first page: the facts page (meanings, units, sources, max and min computed from
    the states), where the numbers come from, and the component checklist."""
    game = content["game"]
    extremes = mission_extremes(content)
    missions = _missions(content)
    facts = [["Mission", "Better", "What the number means", "Unit", "Max", "Min", "Source (year)"]]
    for m in missions:
        hi, lo = extremes[m["id"]]
        facts.append([m["name"], m["better"], m["definition"], m["unit"], str(hi), str(lo), f"{m['source']} ({m['year']})"])
    tally = [["Mission", "official", "sourced", "reconstructed", "designed"]]
    for m in missions:
        counts = {k: 0 for k in tally[0][1:]}
        for s in content["states"]["states"]:
            counts[s["values"][m["id"]]["provenance"]] += 1
        tally.append([m["name"]] + [str(counts[k]) for k in tally[0][1:]])
    checklist = [["Component", "Count", "Size"]]
    for comp in game["components"]:
        size = game["card_sizes"].get(comp.get("card_size", ""), {})
        checklist.append([comp["name"], str(comp["count"]), f"{size['width_mm']:g} x {size['height_mm']:g} mm" if size else ""])
    return Cover(
        title=f"{game['title']}: print-and-play kit",
        subtitle=f"{game['publisher']} · {game['players']['min']}-{game['players']['max']} players · ages {game['ages']}+ · "
                 f"{game['duration']['min']}-{game['duration']['max']} min",
        sections=[
            Section("The six missions", ["States with the highest forest cover, renewable energy and groundwater win positive points; "
                                         "the highest smoke, crowd and garbage win negative points. Max and min are computed from the state cards."],
                    facts, [1.1, 0.9, 3.1, 1.3, 0.7, 0.6, 3.1]),
            Section("Where the numbers come from", ["Every value on a state card records its provenance in content/mission-emission/states.yaml: "
                                                    "'sourced' values were taken from a named report; 'reconstructed' ones were estimated, and the file says how."],
                    tally, [1.5, 1, 1, 1, 1]),
            Section("Component checklist", [], checklist, [3, 1, 2]),
        ],
    )

"""Content model. Geheime Mission (Piatnik, 1990; Gerhard Kodys): agent cards with three values, round suitcase
and back-door chips, a standing counter-intelligence officer and a board of three fields.

Content: ``game.yaml``, ``agents.yaml``, ``components.yaml``, ``layout.yaml`` in
``content/geheime-mission/``.  Facts: the Geheime Mission rulebook (Piatnik, 1990) and
``docs/card-facts.md``; the agent deck and the chip count are designed (the header of
``agents.yaml`` and ``game.yaml``'s notes explain how), and :func:`check` enforces the design rule
stated in ``agents.yaml``'s ``design`` block.

This module is the content side: the files, the checks and the facts that both the kit and the
rules engine read; the cards to print are made in :mod:`deckpress.generator.kit.adapters.geheime_mission`.
"""
from __future__ import annotations

from collections import Counter
from math import ceil

from deckpress.generator.content import semantic
from deckpress.generator.content.errors import ContentError

FILES = ("game", "agents", "components", "layout")
#: What this game's code reads from game.yaml (optional keys for a game made from data alone).
GAME_KEYS = ("publisher", "players", "components")
#: The three values of an agent, in print order: red attack, blue city centre (printed in the
#: middle), green defence (rulebook, Sequence of Play).
VALUES = ("attack", "centre", "defence")
#: The board's fields from left to right (rulebook, Preparation: "Embassy - City Centre - Embassy").
BOARD_FIELDS = ("embassy", "city-centre", "embassy")
#: Every round draws at least this many agent cards: two in the city-centre duel and two at the
#: embassy, each card played being replaced from the pile (rulebook, Sequence of Play).
MIN_CARDS_PER_ROUND = 4


def check(content) -> list[ContentError]:
    """Ids and call numbers unique; the agent count matches ``game.yaml``; every agent follows
    its band's rule in ``agents.yaml``'s ``design`` (values in the band's range and adding up to
    its budget, a weakness where the band asks for one, call number in the band's range), band
    sizes as declared, the same values in every colour if the design says so; the board is an
    embassy, the city centre and an embassy; one back-door chip per door; enough suitcase chips
    for the longest possible game."""
    doc = content.documents["agents"]
    errors = semantic.unique_ids(doc, "agents", "agent")
    errors += _unique_call_numbers(doc)
    errors += semantic.count(content, "agent", "agents", "agents")
    bands, band_errors = _bands(doc)
    errors += band_errors
    errors += semantic.references(doc, "agents", "band", bands, "band")
    for i, agent in enumerate(doc.data["agents"]):
        if agent["band"] in bands:
            errors += _agent_rule(doc, i, agent, *bands[agent["band"]])
    errors += _band_counts(doc, bands)
    if doc.data["design"].get("same_values_per_colour"):
        errors += _same_values_per_colour(doc)
    errors += _board(content.documents["components"])
    errors += _chip_counts(content)
    return errors


def _label(i: int, agent: dict) -> str:
    return f"agents[{i}] ({agent['code_name']}, {agent['call_number']})"


def _unique_call_numbers(doc) -> list[ContentError]:
    seen: dict[str, int] = {}
    errors = []
    for i, agent in enumerate(doc.data["agents"]):
        number = agent["call_number"]
        if number in seen:
            line = doc.where(("agents", seen[number], "call_number"))[0]
            errors.append(doc.error(("agents", i, "call_number"), f"{_label(i, agent)}: duplicate call number '{number}' (first used on line {line}): call numbers must be unique"))
        else:
            seen[number] = i
    return errors


def _bands(doc) -> tuple[dict[str, tuple[int, dict]], list[ContentError]]:
    """The design's bands by id with their index; errors for a repeated id or a band whose value
    range leaves the deck's scale."""
    design = doc.data["design"]
    scale = design["scale"]
    bands: dict[str, tuple[int, dict]] = {}
    errors = []
    for i, band in enumerate(design["bands"]):
        where = ("design", "bands", i)
        if band["id"] in bands:
            errors.append(doc.error(where + ("id",), f"design.bands[{i}]: duplicate band id '{band['id']}'"))
            continue
        bands[band["id"]] = (i, band)
        lo, hi = band["values"]["min"], band["values"]["max"]
        if lo > hi or lo < scale["min"] or hi > scale["max"]:
            errors.append(doc.error(where + ("values",), f"design.bands[{i}] ({band['name']}): values {lo}..{hi} must be an ordered range inside the scale {scale['min']}..{scale['max']}"))
        if not 3 * lo <= band["budget"] <= 3 * hi:
            errors.append(doc.error(where + ("budget",), f"design.bands[{i}] ({band['name']}): no three values in {lo}..{hi} add up to the budget {band['budget']}"))
    return bands, errors


def _agent_rule(doc, i: int, agent: dict, band_index: int, band: dict) -> list[ContentError]:
    """One agent against its band: value range, budget, weakness, call number range."""
    errors = []
    band_line = doc.where(("design", "bands", band_index))[0]
    rule = f"the {band['name']} band (line {band_line})"
    lo, hi = band["values"]["min"], band["values"]["max"]
    for value in VALUES:
        if not lo <= agent[value] <= hi:
            errors.append(doc.error(("agents", i, value), f"{_label(i, agent)}: {value} {agent[value]} is outside the range {lo}..{hi} of {rule}"))
    total = sum(agent[v] for v in VALUES)
    if total != band["budget"]:
        errors.append(doc.error(("agents", i), f"{_label(i, agent)}: attack + centre + defence = {total}, but {rule} has the budget {band['budget']}"))
    if "weakness" in band and min(agent[v] for v in VALUES) > band["weakness"]:
        errors.append(doc.error(("agents", i), f"{_label(i, agent)}: no value is {band['weakness']} or lower, but {rule} gives every agent a weakness"))
    number, numbers = int(agent["call_number"]), band["call_numbers"]
    if not numbers["min"] <= number <= numbers["max"]:
        errors.append(doc.error(("agents", i, "call_number"), f"{_label(i, agent)}: call number {agent['call_number']} is outside {numbers['min']:03d}..{numbers['max']:03d}, the call numbers of {rule}"))
    return errors


def _band_counts(doc, bands: dict[str, tuple[int, dict]]) -> list[ContentError]:
    found = Counter(a["band"] for a in doc.data["agents"])
    return [doc.error(("design", "bands", i, "count"), f"design.bands[{i}] ({band['name']}): count {band['count']}, but {found[bid]} agents are in the band")
            for bid, (i, band) in bands.items() if found[bid] != band["count"]]


def value_counts(agents: list[dict]) -> dict[str, Counter]:
    """How many agents show each value, per colour: ``{'attack': Counter({3: 10, ...}), ...}``."""
    return {v: Counter(a[v] for a in agents) for v in VALUES}


def _same_values_per_colour(doc) -> list[ContentError]:
    counts = value_counts(doc.data["agents"])
    shown = sorted(set().union(*counts.values()))
    differ = [k for k in shown if len({counts[v][k] for v in VALUES}) > 1]
    if not differ:
        return []
    detail = "; ".join(f"{k}: " + ", ".join(f"{v} {counts[v][k]}" for v in VALUES) for k in differ)
    return [doc.error(("design", "same_values_per_colour"), f"design.same_values_per_colour: the colours use different values (agents showing each value: {detail})")]


def _board(doc) -> list[ContentError]:
    fields = doc.data["board"]["fields"]
    errors = []
    kinds = tuple(f["kind"] for f in fields)
    if kinds != BOARD_FIELDS:
        errors.append(doc.error(("board", "fields"), f"board.fields: the rulebook's board is {', '.join(BOARD_FIELDS)} from left to right; found {', '.join(kinds)}"))
    for i, field in enumerate(fields):
        if (field["kind"] == "embassy") != ("owner" in field):
            errors.append(doc.error(("board", "fields", i), f"board.fields[{i}] ({field['id']}): an embassy names its owner, the city centre has none"))
    for name in semantic.duplicates(f["id"] for f in fields):
        errors.append(doc.error(("board", "fields"), f"board.fields: duplicate field id '{name}'"))
    for name in semantic.duplicates(d["id"] for d in doc.data["back_doors"]["doors"]):
        errors.append(doc.error(("back_doors", "doors"), f"back_doors.doors: duplicate door '{name}'"))
    return errors


def component(content, component_id: str) -> tuple[int, dict] | None:
    """``(index, entry)`` of the component ``component_id`` in game.yaml's ``components`` list of
    ``content``, or None when game.yaml lists none of that id."""
    for i, comp in enumerate(content["game"]["components"]):
        if comp["id"] == component_id:
            return i, comp
    return None


def max_rounds(content) -> int:
    """The most rounds a game can start: the cards left to draw after the deal (a hand for each
    player), divided by the fewest a round draws (:data:`MIN_CARDS_PER_ROUND`), rounded up."""
    players = content["game"]["players"]["max"]
    to_draw = len(content["agents"]["agents"]) - players * content["agents"]["deal"]["hand_size"]
    return max(1, ceil(to_draw / MIN_CARDS_PER_ROUND))


def _chip_counts(content) -> list[ContentError]:
    game = content.documents["game"]
    errors = []
    suitcase, doors = component(content, "suitcase"), component(content, "door-chip")
    needed = max_rounds(content)
    if suitcase is None:
        errors.append(game.error(("components",), "components: no component 'suitcase' (the suitcase chips)"))
    elif suitcase[1]["count"] < needed:
        errors.append(game.error(("components", suitcase[0], "count"), f"components[{suitcase[0]}] (suitcase): {suitcase[1]['count']} chips, but a game can start {needed} rounds, each with a suitcase in the city centre"))
    door_count = len(content["components"]["back_doors"]["doors"])
    if doors is None:
        errors.append(game.error(("components",), "components: no component 'door-chip' (the back-door chips)"))
    elif doors[1]["count"] != door_count:
        errors.append(game.error(("components", doors[0], "count"), f"components[{doors[0]}] (door-chip): {doors[1]['count']} chips, but components.yaml has {door_count} back doors (one chip per door)"))
    return errors

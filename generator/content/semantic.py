"""Semantic checks a JSON Schema cannot express, shared by every game.

Each check takes a loaded :class:`~deckpress.generator.content.yamlsafe.Document` (or the whole content) and returns
a list of :class:`~deckpress.generator.content.errors.ContentError` located at the offending value.  A game's own
module combines these in its ``check(content)``.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Iterable

from deckpress.generator.content.errors import ContentError
from deckpress.generator.content.safetext import excerpt
from deckpress.generator.content.yamlsafe import Document

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
    return errors + table_key(doc)


def table_key(doc: Document) -> list[ContentError]:
    """Checks on game.yaml's ``table`` (the studio's free-form table, docs/table.md): zone ids
    are unique, a zone's ``deck`` is a declared deck, and each set-up step names a centre zone
    (a declared one, or without ``zones`` the default ones: each deck's pile, ``DECK-discard``
    and ``table``)."""
    table, data = doc.data.get("table") or {}, doc.data
    decks = [d["id"] for d in data.get("decks", [])]
    errors = []
    if "zones" in table:
        seen: dict[str, int] = {}
        for i, zone in enumerate(table["zones"]):
            if zone["id"] in seen:
                errors.append(doc.error(("table", "zones", i, "id"), f"table.zones[{i}].id: zone '{zone['id']}' is already table.zones[{seen[zone['id']]}]: ids must be unique"))
            seen.setdefault(zone["id"], i)
            if "deck" in zone and "decks" in data and zone["deck"] not in decks:
                errors.append(doc.error(("table", "zones", i, "deck"), f"table.zones[{i}].deck: unknown deck '{zone['deck']}' (expected one of: {', '.join(decks)})"))
        centre = [z["id"] for z in table["zones"] if not z.get("per_seat")]
    elif "decks" in data:
        centre = decks + [f"{d}-discard" for d in decks] + ["table"]
    else:
        return errors  # a shipped game's decks are named by its code: the studio checks them
    for i, step in enumerate(table.get("setup", [])):
        for key in ("shuffle", "from", "to"):
            if key in step and step[key] not in centre:
                errors.append(doc.error(("table", "setup", i, key), f"table.setup[{i}].{key}: unknown zone '{step[key]}' (expected one of: {', '.join(centre)})"))
    return errors


def duplicates(values: Iterable[str]) -> list[str]:
    """The values that occur more than once, in order of first repeat."""
    return [v for v, n in Counter(values).items() if n > 1]


#: How far an element may pass a line before it counts as crossing it, mm (rounding in layouts).
_TOLERANCE_MM = 0.01
#: The safe margin of a card that gives none, mm (as the renderer assumes: ``schemas/layout.schema.json``).
DEFAULT_SAFE_MM = 3.0


def printed_off_card(content: "GameContent") -> list[ContentError]:
    """Icons and images that the cut takes part of, each once, at its element in ``layout.yaml``
    (text is checked as it is laid out, on every card: its extent depends on the card).

    - An icon is information, as text is: it stays inside the safe area (``safe_mm`` inside the
      trim; on a round card, inside the cut circle by as much).  An icon at ``x_mm: 55,
      size_mm: 20`` on a 63 mm card crosses it by 15 mm at the right.  An icon that covers the
      whole trim is a background pattern, run off the card on purpose (Maybe Missions' stripes).
    - An image may be art that runs off the card, but then into the bleed and exactly to its edge
      on each side it crosses: short of that edge a cut that drifts shows the paper, past it the
      image is clipped where nothing prints.

    Elements placed by a ``rows`` element, or with a position that is not a number, are left to
    the renderer.  Source: print-and-play practice, as the text check has it (docs/printing.md, "The
    print-and-play kit"): a safe area about 3 mm inside the trim, nothing important outside it;
    backgrounds bleed past the cut."""
    layout = content.documents.get("layout")
    if layout is None or not isinstance(layout.data, dict):
        return []
    from deckpress.generator.content.layout_kinds import card_kinds

    cards = layout.data.get("cards")
    if not isinstance(cards, dict):
        return []
    kinds, _ = card_kinds({k: v for k, v in cards.items() if isinstance(v, dict)})  # a kind that extends another: as drawn
    errors, seen = [], set()
    for kind, resolved in kinds.items():
        spec = resolved.spec
        trim = spec.get("trim", {})
        w, h = trim.get("width_mm"), trim.get("height_mm")
        if not all(isinstance(v, (int, float)) for v in (w, h)):
            continue
        safe, bleed, round_cut = spec.get("safe_mm", DEFAULT_SAFE_MM), spec.get("bleed_mm", 0), spec.get("shape") == "circle"
        for side in ("face", "back"):
            for element, path in zip(spec.get(side, []), resolved.sides[side]):
                where = f"cards.{path[1]}.{side}[{path[3]}]" + (f" (drawn on card kind '{kind}')" if path[1] != kind else "")
                problem = None
                if element.get("type") == "icon":
                    box = _box(element, "size_mm", "size_mm")
                    background = box is not None and box[0] <= 0 and box[1] <= 0 and box[2] >= w and box[3] >= h  # a pattern over the whole card
                    beyond = box and not background and _beyond_safe(box, w, h, safe, round_cut)
                    if beyond:
                        problem = (f"icon {_named(element.get('icon'))} crosses the safe area ({safe:g} mm inside the cut) {beyond}, "
                                   "where the cut may take it off: move or shrink it, or lower the card's safe_mm")
                elif element.get("type") == "image" and not round_cut:
                    box = _box(element, "w_mm", "h_mm")
                    crossing = box and _crosses_cut(box, w, h, bleed)
                    if crossing:
                        problem = f"image {_named(element.get('image'))} {crossing}"
                if problem and (path, problem) not in seen:  # an inherited element on a card of the same size: once
                    seen.add((path, problem))
                    errors.append(layout.error(path, f"{where}: {problem}"))
    return errors


def _named(value: object) -> str:
    """An icon or image of a layout as a message quotes it: its name, or the field its map reads."""
    if isinstance(value, dict):
        return f"chosen by '{excerpt(value.get('by'))}'"
    return f"'{excerpt(value)}'"


def _box(element: dict, wkey: str, hkey: str) -> tuple[float, float, float, float] | None:
    """``(left, top, right, bottom)`` of an element in mm from the trim's top-left, or None when
    a position or size is not a number (an expression the renderer fills in)."""
    values = [element.get(k) for k in ("x_mm", "y_mm", wkey, hkey)]
    numbers = [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if len(numbers) != 4:
        return None
    x, y, bw, bh = numbers
    return x, y, x + bw, y + bh


def _beyond_safe(box: tuple[float, float, float, float], w: float, h: float, safe: float, round_cut: bool) -> str | None:
    """How far ``box`` leaves the safe area of a ``w`` x ``h`` mm card, in words, or None."""
    left, top, right, bottom = box
    if round_cut:
        import math

        cx, cy, radius = w / 2, h / 2, min(w, h) / 2 - safe
        reach = max(math.hypot(x - cx, y - cy) for x in (left, right) for y in (top, bottom))
        return f"by {reach - radius:.1f} mm at its farthest corner" if reach > radius + _TOLERANCE_MM else None
    over = {"left": safe - left, "right": right - (w - safe), "top": safe - top, "bottom": bottom - (h - safe)}
    crossed = [f"{gap:.1f} mm at the {where}" for where, gap in over.items() if gap > _TOLERANCE_MM]
    return "by " + ", ".join(crossed) if crossed else None


def _crosses_cut(box: tuple[float, float, float, float], w: float, h: float, bleed: float) -> str | None:
    """What is wrong with an image whose ``box`` crosses the cut of a ``w`` x ``h`` mm card with
    ``bleed`` mm of bleed, or None: on each side it crosses it must end at the bleed's edge."""
    left, top, right, bottom = box
    past = {"left": -left, "right": right - w, "top": -top, "bottom": bottom - h}  # how far past the trim, mm
    short, beyond = [], []
    for where, gap in past.items():
        if gap <= _TOLERANCE_MM:
            continue
        if gap < bleed - _TOLERANCE_MM:
            short.append(f"at the {where} it ends {bleed - gap:.1f} mm short of the bleed's edge")
        elif gap > bleed + _TOLERANCE_MM:
            beyond.append(f"at the {where} it runs {gap - bleed:.1f} mm past the bleed ({bleed:g} mm), where nothing prints")
    if not short and not beyond:
        return None
    return ("crosses the cut, so the cut takes part of it: " + "; ".join(short + beyond) +
            f": keep it inside the trim, or make it art that runs off the card exactly to the bleed's edge ({bleed:g} mm past the trim)")

"""Print side of Mission Emission: state cards and point cards, for the kit.

This module turns validated content into the cards, boards and cover of the kit; the files,
checks and facts it reads, with their sources, are in :mod:`deckpress.generator.content.mission_emission`.
"""
from __future__ import annotations

from deckpress.generator.content.mission_emission import mission_extremes
from deckpress.generator.kit import words
from deckpress.generator.kit.adapters import how_to_play
from deckpress.generator.kit.printdata import Cover, Deck, Section
from deckpress.generator.kit.translation import tr


def decks(content) -> list[Deck]:
    """The state deck and the point deck as field dicts for ``layout.yaml``.

    State card fields: ``name``, ``kind`` ('STATE' / 'UNION TERRITORY'), ``colour`` (hex of the
    card's colour), ``missions`` (a list of ``name``, ``icon``, ``colour``, ``better``, ``value``).
    Point card fields: ``name``, ``icon``, ``colour``, ``points`` ('+3', '-1'), ``pile``.
    """
    missions = content["missions"]["missions"]
    by_id = {m["id"]: m for m in missions}
    states = [{
        "id": s["id"], "source": "states.yaml", "name": s["name"],
        "kind": tr(f"kit/mission-emission/kind/{s['kind']}", s["kind"].replace("-", " "), "a state card's kind (printed in capitals)").upper(),
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
        "pile": _pile_line(by_id[p["mission"]]["name"], p["position"], pile_size[p["mission"]]),
    } for p in cards]
    return [Deck("state", tr("deck/state/name", "State cards"), states), Deck("point", tr("deck/point/name", "Point cards"), points)]


def _pile_line(mission: str, position: int, count: int) -> str:
    """A point card's place in its mission's pile ('Forest cover pile · card 1 of 3 (top)')."""
    if position == 1:
        return tr("kit/mission-emission/pile-top", "{mission} pile · card {position} of {count} (top)", "a point card's place in its pile",
                  mission=mission, position=position, count=count)
    return tr("kit/mission-emission/pile", "{mission} pile · card {position} of {count}", "a point card's place in its pile",
              mission=mission, position=position, count=count)


def _cover_text(key: str, english: str, /, **values) -> str:
    """A sentence or heading of the cover, in the language being built (``kit/mission-emission/cover/KEY``)."""
    return tr(f"kit/mission-emission/cover/{key}", english, "on the kit's cover", **values)


def cover(content) -> Cover:
    """The kit's first page: the facts page (meanings, units, sources, max and min computed from
    the states), where the numbers come from, and the component checklist.  Every sentence and
    heading is one entry of a translation's catalogue (``kit/mission-emission/cover/...``); a
    mission's meaning and unit are its own (missions.yaml, translatable), its source is the
    report's own title, printed as it is."""
    game = content["game"]
    extremes = mission_extremes(content)
    missions = content["missions"]["missions"]
    better = {"higher": _cover_text("higher", "higher"), "lower": _cover_text("lower", "lower")}
    facts = [[_cover_text("mission", "Mission"), _cover_text("better", "Better"), _cover_text("meaning", "What the number means"),
              _cover_text("unit", "Unit"), _cover_text("max", "Max"), _cover_text("min", "Min"), _cover_text("source", "Source (year)")]]
    for m in missions:
        hi, lo = extremes[m["id"]]
        facts.append([m["name"], better[m["better"]], m["definition"], m["unit"], str(hi), str(lo),
                      _cover_text("source-year", "{source} ({year})", source=m["source"], year=m["year"])])
    kinds = ("official", "sourced", "reconstructed", "designed")
    tally = [[_cover_text("mission", "Mission")] + [words.PROVENANCE[k]() for k in kinds]]
    for m in missions:
        counts = {k: 0 for k in kinds}
        for s in content["states"]["states"]:
            counts[s["values"][m["id"]]["provenance"]] += 1
        tally.append([m["name"]] + [str(counts[k]) for k in kinds])
    checklist = [words.checklist_header()]
    for comp in game["components"]:
        size = game["card_sizes"].get(comp.get("card_size", ""), {})
        checklist.append([comp["name"], str(comp["count"]), words.size_mm(size["width_mm"], size["height_mm"]) if size else ""])
    return Cover(
        title=tr("kit/cover/title", "{title}: print-and-play kit", "the cover's title", title=game["title"]),
        subtitle=" · ".join([game["publisher"], words.players(game["players"]["min"], game["players"]["max"]), words.AGES(ages=game["ages"]),
                             words.minutes(game["duration"]["min"], game["duration"]["max"])]),
        sections=[
            Section(_cover_text("missions", "The six missions"), [
                _cover_text("missions-points", "States with the highest forest cover, renewable energy and groundwater win positive points; "
                            "the highest smoke, crowd and garbage win negative points. Max and min are computed from the state cards.")],
                    facts, [1.1, 0.9, 3.1, 1.3, 0.7, 0.6, 3.1]),
            Section(_cover_text("numbers", "Where the numbers come from"), [
                _cover_text("numbers-provenance", "'official' numbers are printed in the rulebook; 'sourced' ones were taken from the "
                            "report named above; 'reconstructed' ones were estimated from such reports where no figure for that state "
                            "was found; 'designed' ones were chosen for this kit.")],
                    tally, [1.5, 1, 1, 1, 1]),
            Section(words.CHECKLIST(), [], checklist, [3, 1, 2]),
            *how_to_play(game),
        ],
    )

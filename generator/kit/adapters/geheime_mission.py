"""Print side of Geheime Mission: agent cards, chips, the officer and the board, for the kit.

This module turns validated content into the cards, boards and cover of the kit; the files,
checks and facts it reads, with their sources, are in :mod:`deckpress.generator.content.geheime_mission`.
"""
from __future__ import annotations

from deckpress.generator.content.geheime_mission import VALUES, component, value_counts
from deckpress.generator.kit import words
from deckpress.generator.kit.adapters import how_to_play
from deckpress.generator.kit.printdata import Board, Cover, Deck, Section
from deckpress.generator.kit.translation import tr


def decks(content) -> list[Deck]:
    """The agent deck, the chips and the officer as field dicts for ``layout.yaml``.

    Agent card fields: ``call_number`` ('009'), ``code_name``, ``band_name`` ('00 agent'),
    ``band_colour`` (palette name 'band-<band>'), ``star`` (True for the 00 agents: call numbers
    001-009), ``attack``, ``centre``, ``defence``.  Chip fields (suitcases, then back-door
    chips): ``face_fill``, ``face_ink``, ``face_icon``, ``face_label``, ``back_fill``,
    ``back_ink``, ``back_icon``, ``back_label`` (palette and icon names); every back-door chip
    gets the same back fields.  The officer has no fields of its own.
    """
    agents_data = content["agents"]
    bands = {b["id"]: b for b in agents_data["design"]["bands"]}
    agents = [{
        "id": a["id"], "source": "agents.yaml", "call_number": a["call_number"], "code_name": a["code_name"],
        "band_name": _named("band", bands[a["band"]]), "band_colour": f"band-{a['band']}", "star": a["call_number"].startswith("00"),
        **{v: a[v] for v in VALUES},
    } for a in sorted(agents_data["agents"], key=lambda a: a["call_number"])]
    suitcase = {"face_fill": "suitcase-paper", "face_ink": "suitcase-ink", "face_icon": "suitcase",
                "face_label": tr("kit/geheime-mission/suitcase-label", "SECRET", "printed on each suitcase chip")}
    chips = component(content, "suitcase")
    if chips is None:  # checked content has it (content/geheime_mission.py's checks)
        raise ValueError("game.yaml lists no component 'suitcase': the content was not checked")
    suitcases = [{"id": f"suitcase-{n:02d}", "source": "game.yaml", **suitcase, **_back(suitcase)}
                 for n in range(1, chips[1]["count"] + 1)]
    doors = content["components"]["back_doors"]
    door_back = {"back_fill": "door-back", "back_ink": "door-back-ink", "back_icon": "back-door",
                 "back_label": tr("kit/geheime-mission/door-chip-back", doors["chip_back"]["label"], "printed on the back of every back-door chip")}
    door_chips = [{"id": f"door-{d['id']}", "source": "components.yaml", "face_fill": f"door-{d['id']}", "face_ink": f"door-{d['id']}-ink",
                   "face_icon": "back-door", "face_label": _named("door", d).upper(), **door_back} for d in doors["doors"]]
    officer = [{"id": "officer", "source": "components.yaml"}]
    return [Deck("agent", tr("deck/agent/name", "Agent cards"), agents),
            Deck("chip", tr("deck/chip/name", "Suitcase and back-door chips"), suitcases + door_chips),
            Deck("officer", tr("deck/officer/name", "Counter-intelligence officer"), officer)]


def _named(what: str, item: dict, key: str = "name") -> str:
    """``item[key]`` (a band's, door's or board field's name, or a field's owner from
    components.yaml and agents.yaml) in the language being built: ``kit/geheime-mission/WHAT/ID``."""
    return tr(f"kit/geheime-mission/{what}/{item['id']}", item[key], f"the {what} '{item['id']}' (components.yaml, agents.yaml)")


def _back(face: dict) -> dict:
    """A chip printed the same on both sides."""
    return {k.replace("face_", "back_"): v for k, v in face.items()}


def boards(content) -> list[Board]:
    """The board for ``layout.yaml``'s ``boards.city``.  Fields: ``left_name``, ``left_owner``,
    ``middle_name``, ``right_name``, ``right_owner`` (the fields left to right) and ``doors`` (a
    list of ``door_name``, ``door_fill``, ``door_ink``, top to bottom)."""
    left, middle, right = content["components"]["board"]["fields"]
    doors = [{"door_name": _named("door", d).upper(), "door_fill": f"door-{d['id']}", "door_ink": f"door-{d['id']}-ink"}
             for d in content["components"]["back_doors"]["doors"]]
    fields = {"id": "board", "source": "components.yaml", "left_name": _named("field", left).upper(), "left_owner": _named("owner", left, "owner"),
              "middle_name": _named("field", middle).upper(), "right_name": _named("field", right).upper(),
              "right_owner": _named("owner", right, "owner"), "doors": doors}
    return [Board("city", tr("kit/geheime-mission/board", "Board", "the board's name, on its tiles"), fields)]


def _cover_text(key: str, english: str, /, **values) -> str:
    """A sentence or heading of the cover, in the language being built (``kit/geheime-mission/cover/KEY``)."""
    return tr(f"kit/geheime-mission/cover/{key}", english, "on the kit's cover", **values)


def band_table(content) -> list[list[str]]:
    """The deck by band, as found in the agents (not as declared): name, cards, call numbers,
    sum of the three values, lowest and highest value; first row the header."""
    agents = content["agents"]["agents"]
    rows = [[_cover_text("band", "Band"), _cover_text("cards", "Cards"), _cover_text("call-numbers", "Call numbers"),
             _cover_text("value-sum", "Attack + centre + defence"), _cover_text("values", "Values")]]
    for band in content["agents"]["design"]["bands"]:
        members = [a for a in agents if a["band"] == band["id"]]
        if not members:
            continue
        numbers = sorted(a["call_number"] for a in members)
        sums = sorted({sum(a[v] for v in VALUES) for a in members})
        values = [a[v] for a in members for v in VALUES]
        rows.append([_named("band", band), str(len(members)), f"{numbers[0]}-{numbers[-1]}", "/".join(map(str, sums)), f"{min(values)}-{max(values)}"])
    return rows


def _subtitle(game: dict) -> str:
    parts = [game["publisher"]]
    if "year" in game:
        parts.append(str(game["year"]))
    if "designer" in game:
        parts.append(words.DESIGNED_BY(designer=game["designer"]))
    parts.append(words.players(game["players"]["min"], game["players"]["min"]))
    return " · ".join(parts)


def cover(content) -> Cover:
    """The kit's first page: how to read an agent card, the designed deck (bands and values per
    colour, computed from the agents), the component checklist and how to assemble the board
    and the officer.  Every sentence and heading is one entry of a translation's catalogue
    (``kit/geheime-mission/cover/...``)."""
    game = content["game"]
    agents = content["agents"]["agents"]
    counts = value_counts(agents)
    spread = ", ".join(f"{v}: {n}" for v, n in sorted(counts["attack"].items()))
    same = all(counts[v] == counts["attack"] for v in VALUES)
    checklist = [words.checklist_header()]
    for comp in game["components"]:
        size = game["card_sizes"].get(comp.get("card_size", ""), {})
        checklist.append([comp["name"], str(comp["count"]), words.size_mm(size["width_mm"], size["height_mm"]) if size else comp.get("description", "")])
    spread_text = (_cover_text("spread-same", "How many agents show each attack value (value: agents): {spread}. City centre and defence use "
                               "exactly the same values.", spread=spread) if same else
                   _cover_text("spread", "How many agents show each attack value (value: agents): {spread}.", spread=spread))
    return Cover(
        title=tr("kit/cover/title", "{title}: print-and-play kit", "the cover's title", title=game["title"]),
        subtitle=_subtitle(game),
        sections=[
            Section(_cover_text("reading", "Reading an agent card"), [
                _cover_text("reading-values", "Each agent card shows a call number, a code name and three values: red on the left is "
                            "attack (stealing a suitcase at the opponent's embassy), blue in the middle is the city centre (finding the "
                            "documents), green on the right is defence (holding your own embassy).")]),
            Section(_cover_text("deck", "The agent deck (designed for this kit)"), [
                _cover_text("deck-designed", "The real deck is not documented publicly, so this one is designed: every agent's three "
                            "values add up to its band's budget, so strength in one value costs the others. A few 00 agents reach 9 in "
                            "one value but each has a weakness; no agent is best at everything."),
                spread_text,
            ], band_table(content), [1.3, 0.7, 1.2, 1.7, 0.8]),
            *how_to_play(game),
            Section(words.CHECKLIST(), [], checklist, [2.2, 0.7, 3.1]),
            Section(_cover_text("assembling", "Assembling the board and the officer"), [
                _cover_text("assembling-board", "The board measures more than a sheet: it prints in tiles named A1, A2 ... Cut every tile "
                            "along its crop marks, spread glue on the washed-out strip along a tile's edge and lay the named tile over "
                            "it, its cut edge through the centres of the crosses. With --paper a3 the board fits one sheet."),
                _cover_text("assembling-officer", "Officer: cut out the strip, fold it along the dashed line and stand it up as a tent; "
                            "the figure shows on both sides."),
                _cover_text("assembling-chips", "Back-door chips: all three backs are the same, so a chip laid face down hides the "
                            "chosen door."),
            ]),
        ],
    )

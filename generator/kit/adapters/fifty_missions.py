"""Print side of 50 Missions: the symbol deck, round mission and medal cards, for the kit.

This module turns validated content into the cards, boards and cover of the kit; the files,
checks and facts it reads, with their sources, are in :mod:`deckpress.generator.content.fifty_missions`.
"""
from __future__ import annotations

from deckpress.generator.content.fifty_missions import (
    MISSION_ROW,
    mission_conditions,
    mission_odds,
    symbol_deck,
)
from deckpress.generator.content.fifty_missions_conditions import (
    DISPLAY_SIZE,
    card_text,
)
from deckpress.generator.kit import words
from deckpress.generator.kit.adapters import how_to_play
from deckpress.generator.kit.printdata import Cover, Deck, Section
from deckpress.generator.kit.translation import listed, percent, tr

#: The translator's comment on a mission's text (printed on its card, and the easiest and hardest on the cover).
_MISSION_TEXT = "mission card text, generated from its condition in missions.yaml"
#: Components printed as another card kind: medals are cards of the mission deck.
_PRINTED_AS = {"medal": "mission"}
#: Icon slots on a mission card: 4 icons at most, on half steps so that any number is centred.
_ICON_SLOTS = 2 * DISPLAY_SIZE - 1


def decks(content) -> list[Deck]:
    """The symbol deck (expanded) and the round deck of missions then medals (one card kind, so
    that medals, shuffled into the mission deck, have the very same back).

    Symbol card fields: ``value`` ('7'), ``icon``, ``colour`` (hex), ``tint`` (the colour lightened,
    for --ink-friendly: :func:`tint`), ``label`` ('RED LIGHTER').
    Mission card fields: ``mission`` (true), ``text`` (generated from the condition), ``number``
    ('No. 12'), ``rim`` (palette name), ``slots`` (7 items of ``icon``/``colour``, the colours the
    condition names centred on half steps, the others with an empty ``icon``).
    Medal card fields: ``medal`` (true), ``title`` ('BRONZE MEDAL'), ``level``, ``place``,
    ``rim`` (the medal's hex).
    """
    data = content["symbols"]
    by_colour = {s["colour"]: s for s in data["symbols"]}
    values = range(data["deck"]["values"]["min"], data["deck"]["values"]["max"] + 1)
    symbols = [{
        "id": f"{s['id']}-{v}-{copy + 1}", "source": "symbols.yaml", "value": str(v), "icon": s["icon"], "colour": s["hex"], "tint": tint(s["hex"]),
        "label": tr("kit/fifty-missions/symbol-label", "{colour} {symbol}", "a symbol card's label: its colour and symbol (printed in capitals)",
                    colour=tr(f"kit/fifty-missions/colour/{s['colour']}", s["colour"], "a colour's name"), symbol=s["name"]).upper(),
    } for s in data["symbols"] for v in values for copy in range(data["deck"]["copies"])]
    conditions = mission_conditions(content)
    missions = [{
        "id": m["id"], "source": "missions.yaml", "mission": True,
        "text": tr(f"missions/{m['id']}/text", card_text(conditions[m["id"]]), _MISSION_TEXT),
        "number": tr("kit/fifty-missions/number", "No. {n}", "a mission card's number", n=n + 1), "rim": "mission-rim", "slots": _icon_slots([by_colour[c] for c in conditions[m["id"]].colours]),
    } for n, m in enumerate(content["missions"]["missions"])]
    medals = [{
        "id": m["id"], "source": "medals.yaml", "medal": True, "rim": m["hex"],
        "title": tr(f"kit/fifty-missions/medal-title/{m['id']}", "{medal} medal", "a medal card's title (printed in capitals); one entry per medal, "
                    "as languages word them apart (French: de bronze, d'argent, en or)", medal=m["name"]).upper(),
        "level": tr("kit/fifty-missions/medal-level", "Level reached: {medal}", "on a medal card", medal=m["name"].lower()),
        "place": tr("kit/fifty-missions/medal-place", "In the mission deck after {n} missions", "on a medal card", n=m["after_missions"]),
    } for m in content["medals"]["medals"]]
    return [Deck("symbol", tr("deck/symbol/name", "Symbol cards"), symbols),
            Deck("mission", tr("deck/mission/name", "Mission and medal cards"), missions + medals)]


def _icon_slots(symbols: list[dict]) -> list[dict]:
    """``_ICON_SLOTS`` items for a row of icons stepping half an icon pitch: n icons take slots
    (4 - n) + 2k, which centres them whatever n is (the layout draws only slots with an icon)."""
    slots = [{"icon": "", "colour": "#000000"} for _ in range(_ICON_SLOTS)]
    shown = symbols[:DISPLAY_SIZE]
    for k, s in enumerate(shown):
        slots[DISPLAY_SIZE - len(shown) + 2 * k] = {"icon": s["icon"], "colour": s["hex"]}
    return slots


def tint(hex_colour: str, share: float = 0.2) -> str:
    """``hex_colour`` mixed with white, ``share`` of the colour ('#d13b30' -> '#f6d8d6'): a light
    background of the same hue for ink-friendly prints."""
    rgb = [int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - share * (255 - c)):02x}" for c in rgb)


def _colour(name: str) -> str:
    """A colour's name in the language being built (the same entry as the symbol cards' labels)."""
    return tr(f"kit/fifty-missions/colour/{name}", name, "a colour's name")


def _cover_text(key: str, english: str, /, **values) -> str:
    """A sentence or heading of the cover, in the language being built (``kit/fifty-missions/cover/KEY``)."""
    return tr(f"kit/fifty-missions/cover/{key}", english, "on the kit's cover", **values)


def cover(content) -> Cover:
    """The kit's first page: the component checklist, the symbols and their colours, the medals'
    places, how to read the missions, where they come from and their odds, and how to cut the
    round cards.  Every sentence is one entry of a translation's catalogue
    (``kit/fifty-missions/cover/...``); the French ones follow the French rulebook's terms."""
    game, data = content["game"], content["symbols"]
    sizes = game["card_sizes"]
    layouts = content["layout"]["cards"]
    checklist = [words.checklist_header()]
    for comp in game["components"]:
        size = sizes.get(comp.get("card_size", ""))
        round_ = layouts.get(_PRINTED_AS.get(comp["id"], comp["id"]), {}).get("shape") == "circle"
        if size is None:
            shown = ""
        elif round_:
            shown = words.round_size(size["width_mm"])
        else:
            shown = words.size_mm(size["width_mm"], size["height_mm"])
        checklist.append([comp["name"], str(comp["count"]), shown])
    values = data["deck"]["values"]
    symbols = [[_cover_text("symbol", "Symbol"), _cover_text("colour", "Colour"), _cover_text("values", "Values"),
                _cover_text("copies", "Copies"), _cover_text("provenance", "Provenance")]]
    for s in data["symbols"]:
        also = _cover_text("also-called", "{colour} (also called {names})", colour=_colour(s["colour"]),
                           names=listed([_colour(n) for n in s["also_called"]], "and")) if s.get("also_called") else _colour(s["colour"])
        symbols.append([s["name"], also, _cover_text("value-range", "{min} to {max}", min=values["min"], max=values["max"]),
                        str(data["deck"]["copies"]), words.PROVENANCE[s["provenance"]]()])
    medals = [[_cover_text("medal", "Medal"), _cover_text("medal-place", "Place in the mission deck")]]
    for m in content["medals"]["medals"]:
        medals.append([m["name"], _cover_text("after-missions", "after {n} mission cards", n=m["after_missions"])])
    rows, _ = mission_odds(symbol_deck(content), content.documents["missions"])
    easiest, hardest = max(rows, key=lambda r: r.probability), min(rows, key=lambda r: r.probability)
    missions = content["missions"]["missions"]
    quoted = sum(m["provenance"] == "reconstructed" for m in missions)

    def odds(row) -> dict[str, str]:
        return {"percent": percent(float(row.probability)), "text": tr(f"missions/{row.id}/text", row.text, _MISSION_TEXT)}

    low, high = odds(hardest), odds(easiest)
    return Cover(
        title=tr("kit/cover/title", "{title}: print-and-play kit", "the cover's title", title=game["title"]),
        subtitle=" · ".join([game["publisher"], game.get("designer", ""), words.players(game["players"]["min"], game["players"]["max"]),
                             words.AGES(ages=game["ages"]), words.minutes(None, game["duration"]["max"]),
                             _cover_text("cooperative", "cooperative")]),
        sections=[
            Section(words.CHECKLIST(), [], checklist, [3, 1, 2]),
            Section(_cover_text("symbols", "The symbol cards"), [
                _cover_text("symbols-colours", "Each symbol has its own colour, and every card and mission text names both (a 'red "
                            "lighter card'), so players who cannot tell the colours apart play by the symbol."),
                _cover_text("symbols-yellow", "Reviews call the fourth colour yellow or orange; this kit reads them as one colour, printed "
                            "amber and named yellow. Which symbol has which colour is not documented: the pairing is designed for this kit.")],
                symbols, [1.2, 1.6, 1, 0.8, 1.2]),
            Section(_cover_text("medals", "The medals"), [
                _cover_text("medals-how", "Lay out the first {n} missions, then slide the medals face down into the mission deck at these "
                            "places (rulebook, Preparation). The level reached is that of the last medal won. Medals share the missions' "
                            "back.", n=MISSION_ROW)], medals, [1, 3]),
            Section(_cover_text("reading", "Reading the missions"), [
                _cover_text("reading-row", "A mission is about the row of {n} face-up symbol cards under the missions, read from left to "
                            "right. 'Side by side' means neighbours in the row; 'with at least one card between them' means not neighbours.",
                            n=DISPLAY_SIZE),
                _cover_text("reading-sums", "A mission that adds up the cards of a colour needs at least one card of that colour in the "
                            "row: with none, there is nothing to add up and the mission is not met. 'At least 3' is met by 4 too; "
                            "'exactly 3' is not.")]),
            Section(_cover_text("sources", "Where the missions come from"), [
                _cover_text("sources-quoted", "The publisher's list of 50 missions is not public. {quoted} missions are quoted in published "
                            "reviews and written here in our own words; the other {designed} are designed in the same families. Each "
                            "card's text says exactly what the rules engine checks.", quoted=quoted, designed=len(missions) - quoted),
                _cover_text("sources-odds", "Odds that a random row meets a mission range from {low} ('{low_text}') to {high} "
                            "('{high_text}'). 'deckpress missions fifty-missions' lists them all.",
                            low=low["percent"], low_text=low["text"], high=high["percent"], high_text=high["text"])]),
            *how_to_play(game),
            Section(_cover_text("round-cards", "Cutting the round cards"), [
                _cover_text("round-cards-how", "Mission and medal cards are round: cut along the black circle. Their art runs past the "
                            "circle, so a cut slightly outside it shows no white edge. A circle cutter set to the diameter above is "
                            "quickest; the text stays well inside the circle.")]),
        ],
    )

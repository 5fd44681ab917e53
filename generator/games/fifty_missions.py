"""50 Missions (Oya, 2020; Ken Gruhl): a symbol deck, round mission cards and medal cards.

Content: ``game.yaml``, ``symbols.yaml`` (the 56 symbol cards as a compact definition),
``missions.yaml`` (50 conditions in the language of :mod:`fifty_missions_conditions`),
``medals.yaml``, ``layout.yaml`` in ``content/fifty-missions/``.  Rules:
``shared/rulebooks/fifty-missions.fr.md`` (the French original) and ``.en.md``; what is known of
the cards: ``shared/notes/card-facts.md``.

For the rules engine: :func:`symbol_deck` and :func:`mission_conditions` give the deck and one
compiled :class:`~deckpress.generator.games.fifty_missions_conditions.Condition` per mission; nothing here
imports reportlab.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from deckpress.generator import checks
from deckpress.generator.content import load_file, schema_for
from deckpress.generator.errors import ContentError, display_path
from deckpress.generator.games.fifty_missions_conditions import (DISPLAY_SIZE, Condition, ConditionError, SymbolDeck, card_text,
                                                       OddsTooCostly, compile_condition, count_displays)
from deckpress.generator.model import Cover, Deck, Section
from deckpress.generator.yamlsafe import Document

FILES = ("game", "symbols", "missions", "medals", "layout")

#: Missions face up on the table; the medals' places are counted below them (rulebook, Preparation).
MISSION_ROW = 4
#: Components printed as another card kind: medals are cards of the mission deck.
_PRINTED_AS = {"medal": "mission"}
#: Icon slots on a mission card: 4 icons at most, on half steps so that any number is centred.
_ICON_SLOTS = 2 * DISPLAY_SIZE - 1


@dataclass(frozen=True)
class MissionOdds:
    """How often a random row of symbol cards meets a mission: ``met`` of ``total`` ordered
    displays of distinct physical cards."""

    id: str
    text: str
    provenance: str
    met: int
    total: int

    @property
    def probability(self) -> Fraction:
        """``met / total``, exact."""
        return Fraction(self.met, self.total)


def symbol_deck(content) -> SymbolDeck:
    """The symbol deck of validated ``content``."""
    return SymbolDeck.from_data(content["symbols"])


def mission_conditions(content) -> dict[str, Condition]:
    """Every mission's compiled condition by mission id, in file order (validated ``content``
    compiles cleanly; see :func:`compile_missions` for the errors otherwise)."""
    compiled, _ = compile_missions(symbol_deck(content), content.documents["missions"])
    return {m["id"]: c for m, c in compiled}


def compile_missions(deck: SymbolDeck, missions: Document) -> tuple[list[tuple[dict, Condition]], list[ContentError]]:
    """Compile the conditions of ``missions.yaml``: the missions that compile with their
    conditions, and an error for every problem of the others (at its line in the file)."""
    compiled, errors = [], []
    for i, mission in enumerate(missions.data["missions"]):
        try:
            compiled.append((mission, compile_condition(mission["condition"], deck, ("missions", i, "condition"))))
        except ConditionError as exc:
            errors += [missions.error(path, f"missions[{i}] ({mission['id']}): {message}") for path, message in exc.problems]
    return compiled, errors


def mission_odds(deck: SymbolDeck, missions: Document) -> tuple[list[MissionOdds], list[ContentError]]:
    """Each compilable mission's odds (file order), and the errors: conditions that do not
    compile, missions no display can meet, missions every display meets, and missions whose
    odds would cost too much to count (each at its condition's line)."""
    compiled, errors = compile_missions(deck, missions)
    index = {m["id"]: i for i, m in enumerate(missions.data["missions"])}
    rows = []
    for mission, condition in compiled:
        i = index[mission["id"]]
        try:
            met, total = count_displays(condition, deck)
        except OddsTooCostly as exc:
            errors.append(missions.error(("missions", i, "condition"), f"missions[{i}] ({mission['id']}): {exc}"))
            continue
        rows.append(MissionOdds(mission["id"], card_text(condition), mission["provenance"], met, total))
        if not met:
            errors.append(missions.error(("missions", i, "condition"), f"missions[{i}] ({mission['id']}): impossible: none of the "
                                         f"{total:,} ordered rows of {DISPLAY_SIZE} symbol cards meets '{card_text(condition)}'"))
        elif met == total:
            errors.append(missions.error(("missions", i, "condition"), f"missions[{i}] ({mission['id']}): always met: every one of the "
                                         f"{total:,} ordered rows of {DISPLAY_SIZE} symbol cards meets '{card_text(condition)}', "
                                         "so it would be accomplished the moment it is drawn"))
    return rows, errors


def odds_report(folder: Path) -> tuple[list[MissionOdds], list[ContentError]]:
    """:func:`mission_odds` straight from a game folder's ``symbols.yaml`` and ``missions.yaml``,
    so that a designer sees the odds even while another file (or an impossible mission) keeps the
    game from validating.  Errors of those two files come back instead of rows."""
    docs, errors = {}, []
    for stem in ("symbols", "missions"):
        path = Path(folder) / f"{stem}.yaml"
        if not path.is_file():
            errors.append(ContentError(display_path(path), 0, 0, f"missing content file {stem}.yaml"))
            continue
        doc, errs = load_file(path, schema_for("fifty-missions", stem))
        errors += errs
        if doc is not None:
            docs[stem] = doc
    if errors:
        return [], errors
    deck_errors = _check_symbols(docs["symbols"])
    if deck_errors:
        return [], deck_errors
    return mission_odds(SymbolDeck.from_data(docs["symbols"].data), docs["missions"])


def check(content) -> list[ContentError]:
    """Ids unique; each symbol has its own colour and icon (colour is never the only cue); the
    expanded symbol deck, the missions and the medals match ``game.yaml``'s counts; every
    condition compiles against the deck and is met by some rows but not all; medals sit in order
    within the mission deck."""
    symbols_doc, missions_doc, medals_doc = (content.documents[s] for s in ("symbols", "missions", "medals"))
    errors = _check_symbols(symbols_doc)
    errors += checks.unique_ids(missions_doc, "missions", "mission")
    errors += checks.unique_ids(medals_doc, "medals", "medal")
    errors += checks.count(content, "mission", "missions", "missions")
    errors += checks.count(content, "medal", "medals", "medals")
    errors += _check_deck_count(content)
    errors += _check_medals(medals_doc, len(missions_doc.data["missions"]))
    if not any(e.path == symbols_doc.display for e in errors):
        errors += mission_odds(symbol_deck(content), missions_doc)[1]
    return errors


def _check_symbols(doc: Document) -> list[ContentError]:
    errors = checks.unique_ids(doc, "symbols", "symbol")
    for key, what in (("colour", "colour"), ("icon", "icon")):
        first: dict[str, int] = {}
        for i, symbol in enumerate(doc.data["symbols"]):
            if symbol[key] in first:
                other = doc.data["symbols"][first[symbol[key]]]["id"]
                why = " (mission conditions name colours, so each symbol needs its own)" if key == "colour" else \
                      " (the symbol must tell cards apart for players who cannot tell the colours apart)"
                errors.append(doc.error(("symbols", i, key), f"symbols[{i}].{key}: '{symbol[key]}' is already the {what} of '{other}'{why}"))
            else:
                first[symbol[key]] = i
    values = doc.data["deck"]["values"]
    if values["min"] > values["max"]:
        errors.append(doc.error(("deck", "values"), f"deck.values: min {values['min']} is more than max {values['max']}"))
    return errors


def _check_deck_count(content) -> list[ContentError]:
    doc, game = content.documents["symbols"], content.documents["game"]
    data = doc.data
    n_values = data["deck"]["values"]["max"] - data["deck"]["values"]["min"] + 1
    found = len(data["symbols"]) * n_values * data["deck"]["copies"]
    for i, comp in enumerate(game.data["components"]):
        if comp["id"] == "symbol":
            if comp["count"] != found:
                return [doc.error(("deck",), f"deck: {len(data['symbols'])} symbols x {n_values} values x {data['deck']['copies']} copies = "
                                  f"{found} cards, but game.yaml (line {game.where(('components', i, 'count'))[0]}) says the box has {comp['count']} symbol cards")]
            return []
    return [game.error(("components",), "components: no component 'symbol' (needed to count symbols.yaml)")]


def _check_medals(doc: Document, n_missions: int) -> list[ContentError]:
    errors, previous = [], -1
    below = n_missions - MISSION_ROW
    for i, medal in enumerate(doc.data["medals"]):
        after = medal["after_missions"]
        if after <= previous:
            errors.append(doc.error(("medals", i, "after_missions"), f"medals[{i}] ({medal['id']}): after {after} missions, but the medal before "
                                    f"it comes after {previous}: medals go deeper into the deck one by one"))
        if after > below:
            errors.append(doc.error(("medals", i, "after_missions"), f"medals[{i}] ({medal['id']}): after {after} missions, but only {below} "
                                    f"are left in the deck once {MISSION_ROW} are on the table"))
        previous = max(previous, after)
    return errors


def decks(content) -> list[Deck]:
    """The symbol deck (expanded) and the round deck of missions then medals (one card kind, so
    that medals, shuffled into the mission deck, have the very same back).

    Symbol card fields: ``value`` ('7'), ``icon``, ``colour`` (hex), ``label`` ('RED LIGHTER').
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
        "id": f"{s['id']}-{v}-{copy + 1}", "source": "symbols.yaml", "value": str(v), "icon": s["icon"], "colour": s["hex"],
        "label": f"{s['colour']} {s['name']}".upper(),
    } for s in data["symbols"] for v in values for copy in range(data["deck"]["copies"])]
    conditions = mission_conditions(content)
    missions = [{
        "id": m["id"], "source": "missions.yaml", "mission": True, "text": card_text(conditions[m["id"]]),
        "number": f"No. {n}", "rim": "mission-rim", "slots": _icon_slots([by_colour[c] for c in conditions[m["id"]].colours]),
    } for n, m in enumerate(content["missions"]["missions"], 1)]
    medals = [{
        "id": m["id"], "source": "medals.yaml", "medal": True, "rim": m["hex"], "title": f"{m['name']} medal".upper(),
        "level": f"Level reached: {m['name'].lower()}", "place": f"In the mission deck after {m['after_missions']} missions",
    } for m in content["medals"]["medals"]]
    return [Deck("symbol", "Symbol cards", symbols), Deck("mission", "Mission and medal cards", missions + medals)]


def _icon_slots(symbols: list[dict]) -> list[dict]:
    """``_ICON_SLOTS`` items for a row of icons stepping half an icon pitch: n icons take slots
    (4 - n) + 2k, which centres them whatever n is (the layout draws only slots with an icon)."""
    slots = [{"icon": "", "colour": "#000000"} for _ in range(_ICON_SLOTS)]
    shown = symbols[:DISPLAY_SIZE]
    for k, s in enumerate(shown):
        slots[DISPLAY_SIZE - len(shown) + 2 * k] = {"icon": s["icon"], "colour": s["hex"]}
    return slots


def cover(content) -> Cover:
    """The kit's first page: the component checklist, the symbols and their colours, the medals'
    places, how to read the missions, where they come from and their odds, and how to cut the
    round cards."""
    game, data = content["game"], content["symbols"]
    sizes = game["card_sizes"]
    layouts = content["layout"]["cards"]
    checklist = [["Component", "Count", "Size"]]
    for comp in game["components"]:
        size = sizes.get(comp.get("card_size", ""))
        round_ = layouts.get(_PRINTED_AS.get(comp["id"], comp["id"]), {}).get("shape") == "circle"
        if size is None:
            shown = ""
        elif round_:
            shown = f"round, {size['width_mm']:g} mm across"
        else:
            shown = f"{size['width_mm']:g} x {size['height_mm']:g} mm"
        checklist.append([comp["name"], str(comp["count"]), shown])
    values = data["deck"]["values"]
    symbols = [["Symbol", "Colour", "Values", "Copies", "Provenance"]]
    for s in data["symbols"]:
        also = f" (also called {', '.join(s['also_called'])})" if s.get("also_called") else ""
        symbols.append([s["name"], s["colour"] + also, f"{values['min']} to {values['max']}", str(data["deck"]["copies"]), s["provenance"]])
    medals = [["Medal", "Place in the mission deck"]]
    for m in content["medals"]["medals"]:
        medals.append([m["name"], f"after {m['after_missions']} mission cards"])
    rows, _ = mission_odds(symbol_deck(content), content.documents["missions"])
    easiest, hardest = max(rows, key=lambda r: r.probability), min(rows, key=lambda r: r.probability)
    missions = content["missions"]["missions"]
    quoted = sum(m["provenance"] == "reconstructed" for m in missions)
    return Cover(
        title=f"{game['title']}: print-and-play kit",
        subtitle=f"{game['publisher']} · {game.get('designer', '')} · {game['players']['min']}-{game['players']['max']} players · "
                 f"ages {game['ages']}+ · {game['duration']['max']} min · cooperative",
        sections=[
            Section("Component checklist", [], checklist, [3, 1, 2]),
            Section("The symbol cards", [
                "Each symbol has its own colour, and every card and mission text names both (a 'red lighter card'), so players who "
                "cannot tell the colours apart play by the symbol.",
                "Reviews call the fourth colour yellow or orange; this kit reads them as one colour, printed amber and named yellow. "
                "Which symbol has which colour is not documented: the pairing is designed for this kit."], symbols, [1.2, 1.6, 1, 0.8, 1.2]),
            Section("The medals", [
                f"Lay out the first {MISSION_ROW} missions, then slide the medals face down into the mission deck at these places "
                "(rulebook, Preparation). The level reached is that of the last medal won. Medals share the missions' back."], medals, [1, 3]),
            Section("Reading the missions", [
                f"A mission is about the row of {DISPLAY_SIZE} face-up symbol cards under the missions, read from left to right. "
                "'Side by side' means neighbours in the row; 'with at least one card between them' means not neighbours.",
                "A mission that adds up the cards of a colour needs at least one card of that colour in the row: with none, "
                "there is nothing to add up and the mission is not met. 'At least 3' is met by 4 too; 'exactly 3' is not."]),
            Section("Where the missions come from", [
                f"The publisher's list of 50 missions is not public. {quoted} missions are quoted in published reviews and "
                f"written here in our own words; the other {len(missions) - quoted} are designed in the same families. Each "
                "mission's text is generated from its condition in content/fifty-missions/missions.yaml, with its provenance.",
                f"Odds that a random row meets a mission range from {float(hardest.probability):.1%} ('{hardest.text}') to "
                f"{float(easiest.probability):.1%} ('{easiest.text}'). 'deckpress missions fifty-missions' lists them all."]),
            Section("Cutting the round cards", [
                "Mission and medal cards are round: cut along the black circle. Their art runs past the circle, so a cut "
                "slightly outside it shows no white edge. A circle cutter set to the diameter above is quickest; the text "
                "stays well inside the circle."]),
        ],
    )

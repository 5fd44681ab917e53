"""Content model. 50 Missions (Oya, 2020; Ken Gruhl): a symbol deck, round mission cards and medal cards.

Content: ``game.yaml``, ``symbols.yaml`` (the 56 symbol cards as a compact definition),
``missions.yaml`` (50 conditions in the language of :mod:`fifty_missions_conditions`),
``medals.yaml``, ``layout.yaml`` in ``content/fifty-missions/``.  Rules:
the 50 Missions rulebook (Oya, 2020; the French original and its English translation); what is
known of the cards: ``docs/card-facts.md``, "50 Missions".

For the rules engine: :func:`symbol_deck` and :func:`mission_conditions` give the deck and one
compiled :class:`~deckpress.generator.content.fifty_missions_conditions.Condition` per mission; nothing here
imports reportlab.

This module is the content side: the files, the checks and the facts that both the kit and the
rules engine read; the cards to print are made in :mod:`deckpress.generator.kit.adapters.fifty_missions`.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from deckpress.generator.content import load_file, schema_for, semantic
from deckpress.generator.content.errors import ContentError, display_path
from deckpress.generator.content.fifty_missions_conditions import (
    DISPLAY_SIZE,
    Condition,
    ConditionError,
    OddsTooCostly,
    SymbolDeck,
    card_text,
    compile_condition,
)
from deckpress.generator.content.fifty_missions_odds import counted
from deckpress.generator.content.yamlsafe import Document

FILES = ("game", "symbols", "missions", "medals", "layout")
#: What this game's code reads from game.yaml (optional keys for a game made from data alone).
GAME_KEYS = ("publisher", "players", "ages", "duration", "components")
#: Missions face up on the table; the medals' places are counted below them (rulebook, Preparation).
MISSION_ROW = 4


@dataclass(frozen=True)
class MissionOdds:
    """How often a random row of symbol cards meets a mission: ``met`` of ``total`` ordered
    displays of distinct physical cards; ``number`` is what its card prints ("No. 5")."""

    id: str
    number: str
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


def printed_number(index: int) -> str:
    """The number a mission card prints, from its place in missions.yaml (0-based): "No. 1" for
    the first.  The kit prints it, logs may name a mission by it, ``deckpress missions`` lists it."""
    return f"No. {index + 1}"


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
            met, total = counted(deck, mission["condition"], condition)
        except OddsTooCostly as exc:
            errors.append(missions.error(("missions", i, "condition"), f"missions[{i}] ({mission['id']}): {exc}"))
            continue
        rows.append(MissionOdds(mission["id"], printed_number(i), card_text(condition), mission["provenance"], met, total))
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
    errors += semantic.unique_ids(missions_doc, "missions", "mission")
    errors += semantic.unique_ids(medals_doc, "medals", "medal")
    errors += semantic.count(content, "mission", "missions", "missions")
    errors += semantic.count(content, "medal", "medals", "medals")
    errors += _check_deck_count(content)
    errors += _check_medals(medals_doc, len(missions_doc.data["missions"]))
    if not any(e.path == symbols_doc.display for e in errors):
        errors += mission_odds(symbol_deck(content), missions_doc)[1]
    return errors


def _check_symbols(doc: Document) -> list[ContentError]:
    errors = semantic.unique_ids(doc, "symbols", "symbol")
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

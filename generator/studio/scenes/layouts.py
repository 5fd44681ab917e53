"""How each engine game's table is laid out, as data: which field of a seat's observation
(``state.view(seat).to_dict()``) becomes which zone of the scene, how it is drawn and what a click
on it means.  :mod:`deckpress.generator.studio.scenes.engine` reads these tables; no game has code
of its own there.

The layouts follow each rulebook's set-up:

* Mission Emission (rulebook "Base game", "Ready?"): six face-up mission piles with the top point
  card showing, the face-down draw deck, the play pile, each seat's pocket of point cards; the
  strategy game's piles of state cards under each mission ("Strategy game").
* 50 Missions ("Preparation"): four missions in a row in the centre, a face-up symbol card under
  each of them (the four piles a card covers), the face-down symbol deck and mission deck.
* Maybe Missions: the market of missions, the mission being voted on, the Master card and the
  votes on the table; each seat's collection in front of it.
* Geheime Mission: the board's three fields (the city centre and each seat's embassy) and the
  face-down pile of agents.

A zone's ``shape`` says what the observation's field holds:

``row``      a list of card names (or vote numbers): the cards face up in a row.
``pile``     a list of card names, the top first: a face-up pile showing its top card.
``piles``    a mapping of name -> list of card names: one face-up pile per name (the name is the
             click's value: Mission Emission's "Forest" pile is the mission Forest).
``slots``    a list of card names, one per place: one pile per place, its click the place's number
             (50 Missions' ``slot``).
``backs``    a number of cards: a face-down pile of that many card backs.
``played``   a list of ``{"seat": N, <card key>: name}``: the cards of this round, each with its seat.
``per_seat`` a list (one entry per seat) of lists of card names: a face-up row in front of each seat.
``card``     one card name (or None): a single face-up card.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ZoneSpec:
    """One zone of a game's table, read from one field of the observation.

    Attributes:
        key: the observation's field.
        label: the zone's label for people; ``{field}`` is replaced by that observation field
            (``{mission}``), and ``{name}`` by the entry's name in a ``piles`` zone.
        shape: what the field holds (the module's docstring lists the shapes).
        kind: the deck kind (``cards.<kind>`` of layout.yaml) of its cards, for their backs.
        area: ``"centre"`` or ``"seat"`` (in front of a seat: ``per_seat`` zones).
        click: the event key a click on this zone's cards fills (``"slot"``, ``"pile"``), or None
            when any of a move's values may name the card.
        verb: the move a click on this zone's cards would make, as an event without its seat and
            with ``"{value}"`` for the card (``{"play": "{value}"}``): what the engine is asked to
            judge when no legal move takes the card, so that the page can say the engine's reason.
        numbers: the cards are named by numbers (Maybe Missions' votes).
        empty: the label's words for a ``card`` zone with no card (omitted zone when None).
    """

    key: str
    label: str
    shape: str
    kind: str | None = None
    area: str = "centre"
    click: str | None = None
    verb: dict[str, Any] | None = None
    numbers: bool = False
    card_key: str = "card"


@dataclass(frozen=True)
class GameLayout:
    """A game's table: its hand, how many cards each seat holds, the scores and the zones.

    Attributes:
        hand_counts: the observation's field with every seat's number of cards in hand.
        hand_kind: the deck kind of the hands' cards (their backs are shown for the other seats).
        hand_verb: the move a click on a hand card would make (``ZoneSpec.verb``).
        scores: the observation's field with every seat's score (a list), or None.
        my_score: the observation's field with the viewer's score alone (other scores are hidden).
        score_name: what a score counts, in words ("points", "suitcases").
        team: the observation's field the whole team's result is read from (a cooperative game:
            its length is the result), with ``team_name`` saying what it counts.
        numbers: hand cards are named by numbers.
        zones: the table's zones in reading order.
        facts: observation fields said in words beside the table, ``(field, words)`` with
            ``{value}`` for the field's value; a field that is None or missing is left out.
    """

    hand_counts: str
    hand_kind: str
    hand_verb: dict[str, Any]
    zones: tuple[ZoneSpec, ...]
    scores: str | None = None
    my_score: str | None = None
    score_name: str = "points"
    team: str | None = None
    team_name: str = ""
    numbers: bool = False
    facts: tuple[tuple[str, str], ...] = field(default_factory=tuple)


#: Mission Emission, every mode: the fields the modes share come first; a field a mode lacks is
#: simply absent from its observation and its zone is left out.
MISSION_EMISSION = GameLayout(
    hand_counts="hand_sizes", hand_kind="state", hand_verb={"play": "{value}"}, scores="scores",
    zones=(
        ZoneSpec("piles", "{name}", "piles", kind="point", verb={"mission": "{value}"}),
        ZoneSpec("deck_size", "Draw deck", "backs", kind="state"),
        ZoneSpec("played", "This round", "played"),
        ZoneSpec("play_pile", "Play pile", "pile", kind="state"),
        ZoneSpec("known cards", "Known to all", "row"),
        ZoneSpec("pockets", "Pocket", "per_seat", area="seat"),
        ZoneSpec("set_piles", "Set pile", "per_seat", area="seat"),
    ),
    facts=(("mission", "Mission of this round: {value}"), ("giving", "Point card to give: {value}")),
)

#: 50 Missions: the four missions, the four piles under them, the decks.
FIFTY_MISSIONS = GameLayout(
    hand_counts="hand sizes", hand_kind="symbol", hand_verb={"play": "{value}", "slot": 0},
    team="accomplished", team_name="missions accomplished",
    zones=(
        ZoneSpec("missions", "Missions", "row", kind="mission"),
        ZoneSpec("face up", "Pile {name}", "slots", kind="symbol", click="slot", verb={"play": "{selected}", "slot": "{value}"}),
        ZoneSpec("deck size", "Symbol deck", "backs", kind="symbol"),
        ZoneSpec("mission deck size", "Mission deck", "backs", kind="mission"),
    ),
    facts=(("medal", "Medal: {value}"),),
)

#: Maybe Missions: the market, the mission voted on, the Master card, the votes on the table.
MAYBE_MISSIONS = GameLayout(
    hand_counts="hand sizes", hand_kind="vote", hand_verb={"vote": "{value}"}, my_score="my score", numbers=True,
    zones=(
        ZoneSpec("market", "Market", "row", kind="mission", verb={"propose": "{value}"}),
        ZoneSpec("mission", "The mission", "row", kind="mission", verb={"collect": "{value}"}),
        ZoneSpec("master", "Master", "card", kind="master"),
        ZoneSpec("table", "Votes on the table", "played", kind="vote", numbers=True, card_key="vote"),
        ZoneSpec("collections", "Collection", "per_seat", area="seat"),
    ),
    facts=(("round", "Round {value}"), ("result", "The mission: {value}")),
)

#: Geheime Mission: the board's fields and the pile of agents.
GEHEIME_MISSION = GameLayout(
    hand_counts="hand_sizes", hand_kind="agent", hand_verb={"centre": "{value}"}, scores="suitcases", score_name="suitcases",
    zones=(
        ZoneSpec("fields", "{name}", "piles", kind="agent"),
        ZoneSpec("pile", "Pile of agents", "backs", kind="agent"),
    ),
    facts=(("round", "Round {value}"), ("answer", "Answer: {value}"), ("carrier", "Seat {value} carries the suitcase"),
           ("role", "Your part now: {value}")),
)

#: The layout of each game with a rules engine, by its game id.
LAYOUTS: dict[str, GameLayout] = {
    "mission-emission": MISSION_EMISSION,
    "fifty-missions": FIFTY_MISSIONS,
    "maybe-missions": MAYBE_MISSIONS,
    "geheime-mission": GEHEIME_MISSION,
}

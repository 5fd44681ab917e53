"""A free-form table: any game's printed cards on a table, moved by hand, with no rules.

This is how designers playtest on playingcards.io or Tabletop Simulator, on deckpress's own
printed cards: each deck is a face-down draw pile, each seat has a hand, and the table has shared
zones (a discard pile per deck, a row in the middle, a play area in front of each seat, or what
``game.yaml``'s ``table`` declares).  People shuffle (seeded), deal, draw, play face up or face
down, flip, move cards between zones, pass a card to a seat, reveal a hand and undo.

The model is plain Python (no web): :class:`FreeTable` holds the zones and applies *moves*
(plain dicts, the log's entries); every move is logged, and the log (YAML, :meth:`FreeTable.log_yaml`)
replays the session move for move (:meth:`FreeTable.from_log`): a free-form log has no legality,
only the moves.  :class:`FreeSession` turns the clicks of the table page (the opaque action ids
of a scene) into moves, keeps each seat's selected card, and builds each viewer's scene
(docs/table.md gives the scene's shape) holding only what that viewer may see: a hand's cards
for its owner (or everyone, once revealed), a face-down card for nobody.

A card is known by its :class:`CardKey` (deck kind, card id, copy), never by its image: the
studio looks its image up when it draws a scene, so a card edited during a game shows its new
face.
"""
from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from deckpress.generator.studio.scene import Refused

#: Most seats at a free-form table.
MAX_SEATS = 8
#: Most moves a log may hold (a long playtest has a few thousand).
MAX_MOVES = 100_000
#: Most cards dealt to each seat by one deal.
MAX_DEAL = 100
#: Layouts a zone may have (how the page lays its cards out): a stack, a row, a hand's fan.
LAYOUTS = ("pile", "row", "fan", "grid")
#: The log's ``table`` value, which tells a free-form log from an engine's game log.
LOG_KIND = "free-form"

_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


class LogProblem(ValueError):
    """A free-form log that cannot be replayed: its message names the move (1-based) and what is
    wrong with it."""


@dataclass(frozen=True, order=True)
class CardKey:
    """One printed card: its deck kind (``cards.<kind>`` of layout.yaml), its id, and which copy
    (1, 2, ...) of identical cards it is."""

    kind: str
    card_id: str
    copy: int = 1


@dataclass(frozen=True)
class DeckCards:
    """A deck as the table starts it: ``id`` (its draw pile's zone id), ``name`` for people, and
    its cards, each copy once."""

    id: str
    name: str
    cards: tuple[CardKey, ...]


@dataclass(frozen=True)
class ZoneSpec:
    """A zone as game.yaml's ``table: zones`` declares it.

    Attributes:
        id: the zone's id (a seat's own zone gets ``-N`` added, N its seat number from 0).
        label: its name for people.
        layout: ``pile``, ``row``, ``fan`` or ``grid`` (:data:`LAYOUTS`).
        face_up: whether a card put there lies face up unless the mover says otherwise.
        per_seat: one such zone in front of each seat (a play area), else one in the centre.
        deck: a deck's id: the zone starts holding that deck's cards (its draw pile).
    """

    id: str
    label: str
    layout: str = "row"
    face_up: bool = True
    per_seat: bool = False
    deck: str | None = None


@dataclass
class Placed:
    """A card lying in a zone, face up or down (in a hand: always seen by its owner)."""

    key: CardKey
    face_up: bool


@dataclass
class Zone:
    """A zone at the table: its cards bottom first (a pile's top card is the last)."""

    id: str
    label: str
    layout: str
    face_up: bool
    owner: int | None = None
    hand: bool = False
    revealed: bool = False
    cards: list[Placed] = field(default_factory=list)


@dataclass(frozen=True)
class Told:
    """One line of the log in words: ``text`` with ``{card}`` where the card's name goes, for the
    seats in ``knowers`` (None: everyone); the others read "a card"."""

    text: str
    card: CardKey | None = None
    knowers: frozenset[int] | None = None


def default_zones(decks: Sequence[DeckCards]) -> list[ZoneSpec]:
    """The zones of a game that declares none: each deck's face-down draw pile and face-up
    discard pile (``DECK-discard``), a row in the middle of the table (``table``) and a play
    area in front of each seat (``play-N``)."""
    zones = [ZoneSpec(d.id, d.name, "pile", face_up=False, deck=d.id) for d in decks]
    zones += [ZoneSpec(f"{d.id}-discard", f"{d.name}: discard", "pile", face_up=True) for d in decks]
    return zones + [ZoneSpec("table", "Table", "row"), ZoneSpec("play", "In play", "row", per_seat=True)]


def default_setup(decks: Sequence[DeckCards]) -> list[dict[str, Any]]:
    """The set-up of a game that declares none: every draw pile shuffled."""
    return [{"do": "shuffle", "zone": d.id} for d in decks]


def plan_from_game(game: dict[str, Any], decks: Sequence[DeckCards]) -> tuple[list[ZoneSpec], list[dict[str, Any]], int]:
    """The zones, set-up moves and default number of seats of ``game`` (game.yaml's data, its
    schema already checked), from its ``table`` key or the defaults (:func:`default_zones`,
    :func:`default_setup`; seats: ``players.min``, at least 2).

    game.yaml's set-up steps are ``{shuffle: ZONE}``, ``{deal: N, from: ZONE}`` and ``{move: N,
    from: ZONE, to: ZONE, face: up|down}`` (docs/table.md).

    Raises:
        ValueError: a zone or deck the ``table`` key names that is not there, or a zone id given
            twice; the message names the key (``table.setup[2].from``).
    """
    table = game.get("table") or {}
    players = game.get("players") or {}
    seats = int(table.get("players") or max(2, int(players.get("min", 2))))
    seats = max(1, min(seats, MAX_SEATS))
    if "zones" in table:
        deck_ids = {d.id for d in decks}
        zones, problems = [], []
        for n, z in enumerate(table["zones"]):
            if z.get("deck") is not None and z["deck"] not in deck_ids:
                problems.append(f"table.zones[{n}].deck: no deck {z['deck']!r} (decks: {', '.join(sorted(deck_ids))})")
            zones.append(ZoneSpec(z["id"], z.get("label") or z["id"], z.get("layout", "pile" if z.get("deck") else "row"),
                                  face_up=z.get("face", "down" if z.get("deck") else "up") == "up",
                                  per_seat=bool(z.get("per_seat", False)), deck=z.get("deck")))
        if problems:
            raise ValueError("; ".join(problems))
    else:
        zones = default_zones(decks)
    ids = [z.id for z in zones]
    doubled = sorted({i for i in ids if ids.count(i) > 1})
    if doubled:
        raise ValueError(f"table.zones: zone id {doubled[0]!r} given twice")
    if "setup" not in table:
        return zones, default_setup([d for d in decks if d.id in {z.deck for z in zones}]), seats
    known = {z.id for z in zones if not z.per_seat}
    setup, problems = [], []
    for n, step in enumerate(table["setup"]):
        for key in ("shuffle", "from", "to"):
            if key in step and step[key] not in known:
                problems.append(f"table.setup[{n}].{key}: no centre zone {step[key]!r} (zones: {', '.join(sorted(known))})")
        if "shuffle" in step:
            setup.append({"do": "shuffle", "zone": step["shuffle"]})
        elif "deal" in step:
            setup.append({"do": "deal", "zone": step["from"], "count": step["deal"]})
        else:
            setup.append({"do": "move", "from": step["from"], "to": step["to"], "count": step["move"],
                          "face": step.get("face", "up")})
    if problems:
        raise ValueError("; ".join(problems))
    return zones, setup, seats


def seat_name(seat: int | None) -> str:
    """A seat as people say it: seat 0 is "Seat 1"."""
    return "The table" if seat is None else f"Seat {seat + 1}"


class FreeTable:
    """The cards at a free-form table and every move made there.

    Args:
        decks: the decks, each becoming the cards of the zone whose ``deck`` names it.
        seats: how many seats (1 to :data:`MAX_SEATS`); each gets a hand (``hand-N``) and its
            ``per_seat`` zones.
        seed: the seed of every shuffle (the same seed and moves give the same table).
        zones: the zones (default: :func:`default_zones`).
        setup: moves made by the table before the first person's (default: :func:`default_setup`),
            logged as the table's.
        game: the game's id, written in the log.

    Raises:
        ValueError: seats out of range, a zone spec that is not valid.
    """

    def __init__(self, decks: Sequence[DeckCards], seats: int, seed: int = 1, zones: Sequence[ZoneSpec] | None = None,
                 setup: Sequence[dict[str, Any]] | None = None, game: str = ""):
        if not 1 <= seats <= MAX_SEATS:
            raise ValueError(f"seats: expected 1 to {MAX_SEATS}, got {seats}")
        self.game, self.seed, self.seats = game, seed, seats
        self.decks = list(decks)
        self.specs = list(zones) if zones is not None else default_zones(self.decks)
        self.rng = random.Random(seed)
        self.zones: dict[str, Zone] = {}
        by_deck = {d.id: d for d in self.decks}
        for spec in self.specs:
            if not _ID.match(spec.id) or spec.layout not in LAYOUTS:
                raise ValueError(f"zone {spec.id!r}: expected an id of lowercase letters, digits and hyphens and a layout of {LAYOUTS}")
            owners: list[int | None] = list(range(seats)) if spec.per_seat else [None]
            for owner in owners:
                ident = spec.id if owner is None else f"{spec.id}-{owner}"
                label = spec.label if owner is None else f"{spec.label}"
                cards = [Placed(k, spec.face_up) for k in by_deck[spec.deck].cards] if spec.deck in by_deck and owner is None else []
                self.zones[ident] = Zone(ident, label, spec.layout, spec.face_up, owner, cards=cards)
        for seat in range(seats):
            self.zones[f"hand-{seat}"] = Zone(f"hand-{seat}", "Hand", "fan", True, seat, hand=True)
        self.moves: list[dict[str, Any]] = []
        self.told: list[Told] = []
        self.version = 0
        self._history: list[tuple[Any, ...]] = []  # the table before each move still in effect
        self._live: list[int] = []  # those moves' numbers in self.moves
        for move in (setup if setup is not None else default_setup([d for d in self.decks if d.id in self.zones])):
            self.apply(None, dict(move))

    # -- moves --------------------------------------------------------------------------------
    def apply(self, seat: int | None, move: dict[str, Any]) -> None:
        """Make ``move`` for ``seat`` (None: the table's own set-up) and log it.

        Moves (``do``): ``shuffle`` ``zone``; ``deal`` ``zone`` ``count`` (that many to each
        seat's hand, one at a time round the table); ``draw`` ``zone`` (its top card to the
        seat's hand); ``move`` ``from`` ``index`` (0 = bottom; default the top) or ``count``
        (that many from the top), ``to``, ``face`` (``up``/``down``; default the zone's);
        ``flip`` ``zone`` ``index``; ``reveal`` ``shown`` (the seat's hand shown to all or not);
        ``undo`` (the last move not undone, back as it was).

        Raises:
            Refused: the move cannot be made (said in words); nothing changes.
        """
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.seats):
            raise Refused(f"no seat {seat!r} at this table")
        if len(self.moves) >= MAX_MOVES:
            raise Refused(f"this table has had {MAX_MOVES:,} moves: start a new one")
        do = move.get("do")
        handler = getattr(self, f"_do_{do}", None) if isinstance(do, str) and do.isidentifier() else None
        if handler is None:
            raise Refused(f"unknown move {do!r}")
        snapshot = self._snapshot()
        told = handler(seat, move)
        if do != "undo" and seat is not None:  # the set-up is not undone
            self._history.append(snapshot)
            self._live.append(len(self.moves))
        self.moves.append({"seat": seat, **move})
        self.told.append(told)
        self.version += 1

    def _zone(self, ident: Any) -> Zone:
        zone = self.zones.get(ident) if isinstance(ident, str) else None
        if zone is None:
            raise Refused(f"no zone {ident!r} at this table")
        return zone

    def _mine(self, seat: int | None, zone: Zone) -> None:
        if zone.hand and seat is not None and zone.owner != seat:
            raise Refused(f"that is {seat_name(zone.owner)}'s hand")

    def _where(self, zone: Zone) -> str:
        return f"{seat_name(zone.owner)}'s hand" if zone.hand else zone.label if zone.owner is None else f"{seat_name(zone.owner)}'s {zone.label}"

    def _do_shuffle(self, seat: int | None, move: dict[str, Any]) -> Told:
        zone = self._zone(move.get("zone"))
        self._mine(seat, zone)
        self.rng.shuffle(zone.cards)
        for card in zone.cards:
            card.face_up = zone.face_up if not zone.hand else card.face_up
        return Told(f"{seat_name(seat)} shuffled {self._where(zone)}")

    def _do_deal(self, seat: int | None, move: dict[str, Any]) -> Told:
        zone = self._zone(move.get("zone"))
        self._mine(seat, zone)
        count = move.get("count")
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_DEAL:
            raise Refused(f"deal: expected 1 to {MAX_DEAL} cards to each seat, got {count!r}")
        if len(zone.cards) < count * self.seats:
            raise Refused(f"{self._where(zone)} has {len(zone.cards)} cards: not enough to deal {count} to each of {self.seats} seats")
        for _ in range(count):
            for s in range(self.seats):
                card = zone.cards.pop()
                card.face_up = True
                self.zones[f"hand-{s}"].cards.append(card)
        return Told(f"{seat_name(seat)} dealt {count} card{'s' * (count != 1)} to each seat from {self._where(zone)}")

    def _do_draw(self, seat: int | None, move: dict[str, Any]) -> Told:
        if seat is None:
            raise Refused("the table has no hand to draw into")
        zone = self._zone(move.get("zone"))
        self._mine(seat, zone)
        if zone.hand or not zone.cards:
            raise Refused(f"nothing to draw from {self._where(zone)}")
        card = zone.cards.pop()
        known = None if card.face_up else frozenset({seat})
        card.face_up = True
        self.zones[f"hand-{seat}"].cards.append(card)
        return Told(f"{seat_name(seat)} drew {{card}} from {self._where(zone)}", card.key, known)

    def _do_move(self, seat: int | None, move: dict[str, Any]) -> Told:
        source, target = self._zone(move.get("from")), self._zone(move.get("to"))
        self._mine(seat, source)
        face = move.get("face")
        if face not in (None, "up", "down"):
            raise Refused(f"face: expected up or down, got {face!r}")
        count = move.get("count")
        if count is not None:  # the set-up's "move N from the top"
            if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= len(source.cards):
                raise Refused(f"{self._where(source)} has {len(source.cards)} cards: cannot move {count!r}")
            for _ in range(count):
                card = source.cards.pop()
                card.face_up = target.face_up if face is None else face == "up"
                target.cards.append(card)
            return Told(f"{seat_name(seat)} moved {count} card{'s' * (count != 1)} from {self._where(source)} to {self._where(target)}")
        index = move.get("index", len(source.cards) - 1)
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(source.cards):
            raise Refused(f"no such card in {self._where(source)}")
        card = source.cards[index]
        seen_before = self._public(source, card)
        knowers = {z.owner for z in (source, target) if z.hand and z.owner is not None}
        del source.cards[index]
        card.face_up = True if target.hand else (target.face_up if face is None else face == "up")
        target.cards.append(card)
        public = seen_before or self._public(target, card)
        known = None if public else frozenset(k for k in knowers if k is not None)
        if target.hand and target.owner != seat:
            return Told(f"{seat_name(seat)} passed {{card}} to {seat_name(target.owner)}", card.key, known)
        how = "" if target.hand else " face up" if card.face_up else " face down"
        verb = "played" if source.hand else "moved"
        return Told(f"{seat_name(seat)} {verb} {{card}}{how} to {self._where(target)}", card.key, known)

    def _do_flip(self, seat: int | None, move: dict[str, Any]) -> Told:
        zone = self._zone(move.get("zone"))
        if zone.hand:
            raise Refused("a card in a hand has no face up or down: play it first")
        index = move.get("index", len(zone.cards) - 1)
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(zone.cards):
            raise Refused(f"no such card in {self._where(zone)}")
        card = zone.cards[index]
        card.face_up = not card.face_up
        return Told(f"{seat_name(seat)} flipped {{card}} face {'up' if card.face_up else 'down'} in {self._where(zone)}", card.key)

    def _do_reveal(self, seat: int | None, move: dict[str, Any]) -> Told:
        if seat is None:
            raise Refused("the table has no hand to reveal")
        shown = move.get("shown", True)
        if not isinstance(shown, bool):
            raise Refused(f"reveal: expected shown: true or false, got {shown!r}")
        self.zones[f"hand-{seat}"].revealed = shown
        return Told(f"{seat_name(seat)} {'revealed' if shown else 'hid'} their hand")

    def _do_undo(self, seat: int | None, move: dict[str, Any]) -> Told:
        if not self._history:
            raise Refused("nothing to undo")
        undone = self._live.pop()
        self._restore(self._history.pop())
        what = self.told[undone]
        return Told(f"{seat_name(seat)} undid: {what.text}", what.card, what.knowers)

    def _snapshot(self) -> tuple[Any, ...]:
        return (self.rng.getstate(), {z.id: ([Placed(c.key, c.face_up) for c in z.cards], z.revealed) for z in self.zones.values()})

    def _restore(self, snapshot: tuple[Any, ...]) -> None:
        state, zones = snapshot
        self.rng.setstate(state)
        for ident, (cards, revealed) in zones.items():
            self.zones[ident].cards, self.zones[ident].revealed = cards, revealed

    # -- what each seat sees ------------------------------------------------------------------
    def _public(self, zone: Zone, card: Placed) -> bool:
        return zone.revealed if zone.hand else card.face_up

    def sees(self, viewer: int | None, zone: Zone, card: Placed) -> bool:
        """Whether ``viewer`` (a seat, None for a spectator) sees ``card``'s face in ``zone``: a
        hand's cards are its owner's (everyone's once revealed), any other card is seen face up."""
        return self._public(zone, card) or zone.hand and viewer is not None and zone.owner == viewer

    def words(self, told: Told, viewer: int | None, name: Callable[[CardKey], str]) -> str:
        """A log line for ``viewer``: the card's name where the viewer saw it, else "a card"."""
        if told.card is None:
            return told.text
        seen = told.knowers is None or viewer in told.knowers
        return told.text.replace("{card}", name(told.card) if seen else "a card")

    # -- the log ------------------------------------------------------------------------------
    def log_data(self) -> dict[str, Any]:
        """The log as data: the header (game, seed, seats, the decks' cards, the zones) and
        every move in order, each with its seat (null: the table's set-up)."""
        return {
            "table": LOG_KIND, "game": self.game, "seed": self.seed, "seats": self.seats,
            "decks": [{"id": d.id, "name": d.name, "cards": [[k.kind, k.card_id, k.copy] for k in d.cards]} for d in self.decks],
            "zones": [{"id": z.id, "label": z.label, "layout": z.layout, "face": "up" if z.face_up else "down",
                       **({"per_seat": True} if z.per_seat else {}), **({"deck": z.deck} if z.deck else {})} for z in self.specs],
            "moves": [dict(m) for m in self.moves],
        }

    def log_yaml(self) -> str:
        """The log as YAML (one move a line): :meth:`from_log` replays it."""
        data = self.log_data()
        moves = data.pop("moves")
        head = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=1_000_000)
        lines = [yaml.safe_dump(m, sort_keys=False, allow_unicode=True, default_flow_style=True, width=1_000_000).strip() for m in moves]
        return ("# deckpress free-form table log (format: docs/table.md)\n" + head + "moves:\n"
                + "".join(f"  - {line}\n" for line in lines))

    @classmethod
    def from_log(cls, data: Any) -> FreeTable:
        """The table a log (:meth:`log_data`'s shape, read by safe YAML) ends at: its decks and
        zones, then every move replayed in order (the set-up's among them).

        Raises:
            LogProblem: not a free-form log, a header field missing or out of range, or a move
                the table refuses (its number and the table's reason).
        """
        if not isinstance(data, dict) or data.get("table") != LOG_KIND:
            raise LogProblem(f"not a free-form table log (expected 'table: {LOG_KIND}' at its top)")
        try:
            decks = [DeckCards(str(d["id"]), str(d["name"]), tuple(CardKey(str(k), str(i), int(c)) for k, i, c in d["cards"]))
                     for d in data.get("decks") or []]
            zones = [ZoneSpec(str(z["id"]), str(z.get("label", z["id"])), str(z.get("layout", "row")), z.get("face", "up") == "up",
                              bool(z.get("per_seat", False)), z.get("deck")) for z in data.get("zones") or []]
            seats, seed = data["seats"], data["seed"]
            if not isinstance(seats, int) or not isinstance(seed, int) or isinstance(seats, bool):
                raise TypeError("seats and seed must be whole numbers")
            table = cls(decks, seats, seed, zones, setup=[], game=str(data.get("game") or ""))
        except (KeyError, TypeError, ValueError) as exc:
            raise LogProblem(f"the log's header is not a free-form table's: {exc}") from None
        moves = data.get("moves") or []
        if not isinstance(moves, list) or len(moves) > MAX_MOVES:
            raise LogProblem(f"moves: expected a list of at most {MAX_MOVES:,} moves")
        for n, move in enumerate(moves, 1):
            if not isinstance(move, dict):
                raise LogProblem(f"move {n}: expected a mapping such as {{seat: 0, do: draw, zone: cards}}")
            move = dict(move)
            seat = move.pop("seat", None)
            try:
                table.apply(seat, move)
            except Refused as exc:
                raise LogProblem(f"move {n}: {exc}") from None
        return table

    def state(self) -> dict[str, Any]:
        """Every zone's cards (``[kind, id, copy, face up]``, bottom first) and whether a hand is
        revealed: two tables in the same state give the same value."""
        return {z.id: {"cards": [[c.key.kind, c.key.card_id, c.key.copy, c.face_up] for c in z.cards], "revealed": z.revealed}
                for z in self.zones.values()}


@dataclass(frozen=True)
class Look:
    """How a card looks: its name and the URLs of its face and back images (None when there is
    no image, e.g. a card since removed from the data)."""

    name: str
    face: str | None
    back: str | None


class FreeSession:
    """A :class:`FreeTable` played from the table page: a click's action id becomes a move, each
    seat's selected card is kept between clicks, and :meth:`scene` draws the table for one viewer.

    Action ids (opaque to the page, which POSTs what the scene gives): ``pick:ZONE:INDEX`` selects
    a card (again: unselects it); ``to:ZONE`` moves the selected card there; ``draw:ZONE``;
    ``face:up``/``face:down`` (how the next card is placed); ``flip``; ``pass:SEAT``; ``cancel``;
    ``shuffle:ZONE``; ``deal:ZONE`` (one card to each seat); ``reveal``/``hide``; ``undo``.
    """

    def __init__(self, table: FreeTable, title: str = ""):
        self.table, self.title = table, title
        self.selected: dict[int, tuple[str, int, Placed]] = {}
        self.face_down: dict[int, bool] = {}

    def _selection(self, seat: int) -> tuple[Zone, int] | None:
        picked = self.selected.get(seat)
        if picked is None:
            return None
        ident, index, card = picked
        zone = self.table.zones.get(ident)
        if zone is None or index >= len(zone.cards) or zone.cards[index] is not card:
            self.selected.pop(seat, None)  # the card has moved since: nothing is selected
            return None
        return zone, index

    def act(self, seat: int, action: str) -> None:
        """Do what the click ``action`` of ``seat`` asks (see the class's action ids).

        Raises:
            Refused: an action id the page did not give, or a move the table refuses.
        """
        table = self.table
        if not (isinstance(seat, int) and 0 <= seat < table.seats):
            raise Refused(f"no seat {seat!r} at this table")
        verb, _, rest = str(action)[:200].partition(":")
        selection = self._selection(seat)
        if verb == "pick":
            ident, _, index_text = rest.rpartition(":")
            zone = table.zones.get(ident)
            if zone is None or not index_text.isdigit() or int(index_text) >= len(zone.cards):
                raise Refused("that card is no longer there")
            if zone.hand and zone.owner != seat:
                raise Refused(f"that is {seat_name(zone.owner)}'s hand")
            index = int(index_text)
            if selection == (zone, index):
                self.selected.pop(seat, None)
            else:
                self.selected[seat] = (ident, index, zone.cards[index])
            return
        if verb in ("face", "cancel"):
            if verb == "face":
                self.face_down[seat] = rest == "down"
            else:
                self.selected.pop(seat, None)
            return
        if verb in ("to", "flip", "pass"):
            if selection is None:
                raise Refused("choose a card first")
            zone, index = selection
            if verb == "flip":
                move: dict[str, Any] = {"do": "flip", "zone": zone.id, "index": index}
            else:
                target = rest if verb == "to" else f"hand-{rest}"
                face = "down" if self.face_down.get(seat) else "up"
                move = {"do": "move", "from": zone.id, "index": index, "to": target}
                if target in table.zones and not table.zones[target].hand:
                    move["face"] = face
            table.apply(seat, move)
            if verb != "flip":
                self.selected.pop(seat, None)
            return
        moves: dict[str, dict[str, Any]] = {"draw": {"do": "draw", "zone": rest}, "shuffle": {"do": "shuffle", "zone": rest},
                 "deal": {"do": "deal", "zone": rest, "count": 1}, "reveal": {"do": "reveal", "shown": True},
                 "hide": {"do": "reveal", "shown": False}, "undo": {"do": "undo"}}
        if verb not in moves:
            raise Refused(f"unknown action {action!r}")
        table.apply(seat, moves[verb])

    def scene(self, viewer: int | None, look: Callable[[CardKey], Look]) -> dict[str, Any]:
        """The table for ``viewer`` (a seat, None for a spectator), as the table page draws it
        (docs/table.md): only what the viewer may see; every other card as its back."""
        table = self.table
        selection = self._selection(viewer) if viewer is not None else None
        picking = viewer is not None

        def card(zone: Zone, index: int, placed: Placed) -> dict[str, Any]:
            seen = table.sees(viewer, zone, placed)
            looks = look(placed.key)
            mine = picking and (not zone.hand or zone.owner == viewer)
            return {"image": looks.face if seen else None, "back": looks.back,
                    "label": looks.name if seen else "card back",
                    "action": f"pick:{zone.id}:{index}" if mine else None,
                    "selected": selection is not None and selection == (zone, index)}

        zones = []
        for zone in table.zones.values():
            shown = list(enumerate(zone.cards))
            if zone.layout == "pile":
                shown = shown[-1:]  # a pile shows its top card
            action = None
            if picking and selection is not None and selection[0] is not zone and not (zone.hand and zone.owner != viewer):
                action = f"to:{zone.id}"
            elif picking and selection is not None and zone.hand and zone.owner != viewer:
                action = f"pass:{zone.owner}"
            elif picking and zone.layout == "pile" and zone.cards and not zone.hand:
                action = f"draw:{zone.id}"
            label = zone.label if zone.owner is None or zone.hand else f"{zone.label}"
            zones.append({"id": zone.id, "label": label + (" (shown to all)" if zone.revealed else ""),
                          "area": "centre" if zone.owner is None else "seat", "owner": zone.owner,
                          "layout": zone.layout, "count": len(zone.cards),
                          "cards": [card(zone, i, c) for i, c in shown], "action": action})
        buttons: list[dict[str, str]] = []
        prompt = "You are watching: each seat plays from its own link." if viewer is None else None
        if viewer is not None:
            if selection is not None:
                zone, index = selection
                name = look(zone.cards[index].key).name if table.sees(viewer, zone, zone.cards[index]) else "a face-down card"
                down = self.face_down.get(viewer, False)
                prompt = f"{name} chosen: click a zone to {'play' if zone.hand else 'move'} it there, face {'down' if down else 'up'}."
                buttons.append({"action": "face:up" if down else "face:down", "label": "Place face up" if down else "Place face down"})
                if not zone.hand:
                    buttons.append({"action": "flip", "label": "Flip it"})
                buttons += [{"action": f"pass:{s}", "label": f"Pass to {seat_name(s)}"} for s in range(table.seats) if s != viewer]
                buttons.append({"action": "cancel", "label": "Cancel"})
            else:
                prompt = "Click a card to choose it, or a pile to draw its top card."
                for zone in table.zones.values():
                    if zone.layout == "pile" and zone.owner is None and len(zone.cards) > 1:
                        buttons.append({"action": f"shuffle:{zone.id}", "label": f"Shuffle {zone.label}"})
                    if zone.layout == "pile" and zone.owner is None and not zone.face_up and len(zone.cards) >= table.seats:
                        buttons.append({"action": f"deal:{zone.id}", "label": f"Deal 1 each from {zone.label}"})
                hand = table.zones[f"hand-{viewer}"]
                buttons.append({"action": "hide", "label": "Hide my hand"} if hand.revealed else {"action": "reveal", "label": "Reveal my hand"})
            if table._history:
                buttons.append({"action": "undo", "label": "Undo"})
        seats = [{"seat": s, "name": seat_name(s), "hand_count": len(table.zones[f"hand-{s}"].cards), "score": None,
                  "active": s == viewer, "bot": None} for s in range(table.seats)]
        log = [table.words(t, viewer, lambda key: look(key).name) for t in table.told[-40:]]
        return {"game": table.game, "title": self.title, "viewer": viewer, "seats": seats, "zones": zones, "log": log,
                "prompt": prompt, "buttons": buttons, "finished": False, "result": None, "version": table.version}

"""The scene of an engine game's table for one seat, and what a click on it does.

:func:`engine_scene` turns a :class:`~deckpress.rules.core.table.Table` and a viewer into a scene
(the shared shape of docs/table.md: seats, zones, log, prompt, buttons), laid out by the
game's :class:`~deckpress.generator.studio.scenes.layouts.GameLayout`.  It reads the viewer's
observation only (``state.view(seat).to_dict()``): the other seats' hands are card backs and
their counts, never their cards.

Every clickable card, pile and button carries an opaque action id (:class:`Clicks`).  A click is a
:class:`Target` (a card's or a place's value, in a zone); :func:`click` matches it against the
seat's legal moves: one move that takes it is played; several (50 Missions' card and pile,
Mission Emission's strategy card and pile) make it the seat's selection, and the next click picks
among them; none is refused with the engine's own reason, as ``deckpress replay`` reports one
(``reason code: message``), got by asking the engine to judge the move the click would make
(:attr:`ZoneSpec.verb`) on a copy of the state.
"""
from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from deckpress.generator.studio.scenes.layouts import LAYOUTS, GameLayout, ZoneSpec
from deckpress.rules.core.errors import IllegalAction, Reason

#: Where a hand's cards come from in a :class:`Target`.
HAND = "hand"
#: A card named with the side it lies on, as Maybe Missions' collections name them.
_SIDE = re.compile(r"^(.+) \(([a-z]+)\)$")


@dataclass(frozen=True)
class Target:
    """What a click names: ``value`` (a card's name or number, a pile's name, a place's number)
    in the zone of observation field ``zone`` (:data:`HAND` for the viewer's hand); ``key`` the
    event key it fills, or None when any of a move's values may name it."""

    zone: str
    value: str | int
    key: str | None = None

    def fits(self, event: dict[str, Any]) -> bool:
        """Whether a move's event takes this target."""
        if self.key is not None:
            return self.key in event and _same(event[self.key], self.value)
        return any(_same(v, self.value) for k, v in event.items() if k not in ("seat", "chance"))


@dataclass(frozen=True)
class Move:
    """A move offered as a button: its engine action."""

    action: int
    label: str


class Clicks:
    """The opaque action ids of one table's scenes: an id names a :class:`Target` or a button's
    move; the same target gets the same id on every page (a keyed hash, with a secret of the
    table's own, so the page cannot make one up and one table's ids mean nothing at another)."""

    def __init__(self) -> None:
        self._key = secrets.token_bytes(16)
        self._known: dict[str, Target | Move] = {}

    def id_for(self, what: Target | Move) -> str:
        """The id of ``what`` (a :class:`Target` or a button's :class:`Move`)."""
        digest = hashlib.blake2s(repr(what).encode("utf-8"), key=self._key, digest_size=9).hexdigest()
        ident = f"a{digest}"
        self._known[ident] = what
        return ident

    def get(self, ident: str) -> Target | Move | None:
        """What ``ident`` names, or None for an id no scene of this table has sent."""
        return self._known.get(ident)


#: ``(value, numbers)`` -> the URL of the card's face image, or None (the studio's catalogue).
FaceOf = Callable[[Any, bool], "str | None"]
#: A deck kind -> the URL of its cards' back image, or None.
BackOf = Callable[[str], "str | None"]


def layout_of(game_id: str) -> GameLayout | None:
    """The table layout of ``game_id``, or None for a game without one."""
    return LAYOUTS.get(game_id)


def engine_scene(table: Any, viewer: int | None, face: FaceOf, back: BackOf, clicks: Clicks,
                 log: list[str], selected: Target | None = None, title: str = "") -> dict[str, Any]:
    """The scene of ``table`` for seat ``viewer`` (None: a spectator, who sees what every seat
    sees: of the seats' observations, only what is the same in all of them, so no seat's hand,
    secret vote, answer or own score).

    Args:
        table: a :class:`~deckpress.rules.core.table.Table`.
        face, back: the card images (:data:`FaceOf`, :data:`BackOf`).
        clicks: the table's :class:`Clicks` (ids are added to it).
        log: the log in words (:class:`~deckpress.generator.studio.scenes.narrator.Narrator`).
        selected: the viewer's selection (the first click of a two-click move), or None.

    Raises:
        KeyError: the table's game has no layout (:data:`LAYOUTS`).
    """
    game_id = table.game.info.id
    lay = LAYOUTS[game_id]
    state = table.state
    seen = 0 if viewer is None else viewer
    obs = table.observation(seen)
    if viewer is None:  # public information only: what every seat's observation holds alike
        others = [table.observation(s) for s in range(1, len(table.seats))]
        obs = {key: value for key, value in obs.items() if all(o.get(key) == value for o in others)}
    over = table.finished()
    acting = [] if over else list(state.acting_seats())
    moves = table.moves(viewer) if viewer is not None and not over else []
    events = [state.action_to_event(m.action, viewer) for m in moves]
    clickable = viewer is not None and not over
    taken: set[int] = set()  # moves some target on the table takes

    def tag(target: Target) -> str | None:
        if not clickable:
            return None
        for i, event in enumerate(events):
            if target.fits(event):
                taken.add(i)
        return clicks.id_for(target)

    def card(value: Any, kind: str | None, numbers: bool = False, target: Target | None = None) -> dict[str, Any]:
        image = face(value, numbers)
        side = _SIDE.match(value) if image is None and isinstance(value, str) else None
        if side:  # a card named with the side it lies on ("Decode the radio chatter (green)"): its face
            image = face(side.group(1), numbers)
        return {"image": image, "back": back(kind) if kind and image is None else None, "label": str(value),
                "action": tag(target) if target is not None else None, "selected": target is not None and target == selected}

    counts = obs.get(lay.hand_counts) or [0] * len(table.seats)
    zones: list[dict[str, Any]] = []
    for spec in lay.zones:
        if spec.key in obs and obs[spec.key] is not None:
            zones.extend(_zones(spec, obs, card, len(table.seats)))
    hand_back = back(lay.hand_kind)
    for s, count in enumerate(counts):
        if s == viewer:
            cards = [card(v, lay.hand_kind, lay.numbers, Target(HAND, v)) for v in obs.get("hand") or []]
            label, layout = "Your hand", "row"  # side by side: every card of one's own hand readable
        else:
            cards = [{"image": None, "back": hand_back, "label": "card back", "action": None, "selected": False}] * int(count)
            label, layout = f"Hand of seat {s + 1}", "fan"
        zones.append({"id": f"hand-{s}", "label": label, "area": "seat", "owner": s, "layout": layout,
                      "count": int(count), "cards": cards, "action": None})
    buttons = []
    for i, move in enumerate(moves):
        if i not in taken:
            buttons.append({"action": clicks.id_for(Move(move.action, move.label)), "label": _button(move.label)})
    result = table.result()
    return {
        "game": game_id, "title": title or table.game.info.name, "viewer": viewer,
        "seats": _seats(table, lay, obs, viewer, counts, acting),
        "zones": zones, "log": log, "notes": _notes(lay, obs, viewer),
        "prompt": " · ".join([*_notes(lay, obs, viewer), _prompt(state, viewer, acting, over, selected),
                              *_hand_over(table, viewer, acting)]).strip(" ·") or None,
        "buttons": buttons, "finished": over, "result": result["text"] if result else None,
    }


def click(table: Any, seat: int, target: Target | Move, selected: Target | None) -> tuple[int | None, Target | None]:
    """What seat ``seat``'s click on ``target`` does, with ``selected`` its earlier click (or None):
    ``(action, None)`` plays the engine's ``action``; ``(None, target)`` selects the target, the
    move waiting for a second click.

    Raises:
        IllegalAction: no legal move of the seat takes the click: the engine's reason and message
            for the move the click would make (:attr:`ZoneSpec.verb`), the seat not being due, or
            the game being over.
    """
    state = table.state
    if selected is not None and selected == target:  # clicked again: chosen no more
        return None, None
    if isinstance(target, Move):
        if target.action in (m.action for m in table.moves(seat)):
            return target.action, None
        raise _judged(table, seat, target.action) or IllegalAction(Reason.WRONG_PHASE, f"not a move now: {state.due()}")
    events = [(m.action, state.action_to_event(m.action, seat)) for m in table.moves(seat)]
    fits = [(a, e) for a, e in events if target.fits(e)]
    if selected is not None and not any(selected.fits(e) for _, e in events):
        selected = None  # a choice the game has moved past
    if selected is not None:
        both = [(a, e) for a, e in fits if selected.fits(e)]
        if not both and fits and (target.zone, target.key) == (selected.zone, selected.key):
            return (fits[0][0], None) if len(fits) == 1 else (None, target)  # another card of the same place: chosen instead
        fits = both
    if len(fits) == 1:
        return fits[0][0], None
    if len(fits) > 1:
        return None, target
    raise _refusal(table, seat, target, selected)


def _refusal(table: Any, seat: int, target: Target, selected: Target | None) -> IllegalAction:
    """The engine's reason a click takes no legal move: the move it would make, judged by the
    engine on a copy of the state."""
    lay = LAYOUTS[table.game.info.id]
    verb = lay.hand_verb if target.zone == HAND else next((z.verb for z in lay.zones if z.key == target.zone), None)
    state = table.state
    action = None
    if verb is not None:
        obs = table.observation(seat)
        values = {"value": target.value, "selected": selected.value if selected is not None else None}
        event: dict[str, Any] = {"seat": seat}
        for k, v in verb.items():
            key = k.format(**{**obs, **values}) if "{" in k else k
            event[key] = values[v[1:-1]] if isinstance(v, str) and v[1:-1] in values else v
        if None not in event.values():
            try:
                _, action = state.event_to_action(event)
            except IllegalAction as exc:
                if not state.is_terminal() and seat in state.acting_seats():
                    return exc
            except Exception:  # an event this game cannot read: said below in the engine's words of who is due
                action = None
    judged = _judged(table, seat, 0 if action is None else action)
    if judged is not None and (action is not None or seat not in state.acting_seats() or state.is_terminal()):
        return judged
    return IllegalAction(Reason.WRONG_PHASE, f"{target.value} takes no move now: {state.due()}")


def _judged(table: Any, seat: int, action: int) -> IllegalAction | None:
    """The engine's refusal of ``action`` by ``seat`` now (on a copy), or None if it would play."""
    with table._lock:
        copy = table.state.clone()
    try:
        copy.apply(action, seat)
    except IllegalAction as exc:
        return exc
    return None


def _zones(spec: ZoneSpec, obs: dict[str, Any], card: Callable[..., dict[str, Any]], players: int) -> list[dict[str, Any]]:
    """The zones one observation field makes (``spec.shape``)."""
    value = obs[spec.key]
    kind, numbers = spec.kind, spec.numbers

    def zone(ident: str, label: str, cards: list[dict[str, Any]], layout: str = "row", count: int | None = None,
             owner: int | None = None, action: str | None = None) -> dict[str, Any]:
        return {"id": ident, "label": _label(label, obs), "area": spec.area, "owner": owner, "layout": layout,
                "count": len(cards) if count is None else count, "cards": cards, "action": action}

    def target(v: Any, key: str | None = None) -> Target | None:
        return Target(spec.key, v, key) if spec.verb is not None or spec.click is not None else None

    slug = spec.key.replace(" ", "-").replace("_", "-")
    if spec.shape == "row" and isinstance(value, list):
        return [zone(slug, spec.label, [card(v, kind, numbers, target(v)) for v in value])]
    if spec.shape == "card":
        return [zone(slug, spec.label, [card(value, kind, numbers)], "pile")]
    if spec.shape == "pile" and isinstance(value, list):
        top = [card(value[-1], kind, numbers)] if value else []
        return [zone(slug, spec.label, top, "pile", count=len(value))]
    if spec.shape == "backs":
        count = int(value)
        face_down = card(None, kind)
        return [zone(slug, spec.label, [{**face_down, "label": "card back"}] if count else [], "pile", count=count)]
    if spec.shape == "piles" and isinstance(value, dict):
        out = []
        for name, cards in value.items():
            pile_target = target(name)
            shown = [card(c, kind, numbers) for c in (cards[:1] if spec.verb is not None else cards)]
            z = zone(f"{slug}-{name}".replace(" ", "-").lower(), spec.label.replace("{name}", str(name)[:1].upper() + str(name)[1:]), shown,
                     "pile" if spec.verb is not None else "row", count=len(cards))
            if pile_target is not None:
                z["action"] = card(name, None, False, pile_target)["action"]
                for c in z["cards"]:
                    c["action"] = z["action"]
            out.append(z)
        return out
    if spec.shape == "slots" and isinstance(value, list):
        out = []
        for i, name in enumerate(value):
            t = Target(spec.key, i, spec.click)
            z = zone(f"{slug}-{i}", spec.label.replace("{name}", str(i)), [card(name, kind, numbers, t)], "pile")
            z["action"] = z["cards"][0]["action"]
            out.append(z)
        return out
    if spec.shape == "played" and isinstance(value, list):
        cards = []
        for item in value:
            c = card(item.get(spec.card_key), kind, numbers)
            cards.append({**c, "label": f"seat {item.get('seat')}: {c['label']}"})
        return [zone(slug, spec.label, cards)]
    if spec.shape == "per_seat" and isinstance(value, list):
        return [zone(f"{slug}-{s}", spec.label, [card(v, kind, numbers) for v in cards], owner=s)
                for s, cards in enumerate(value[:players]) if isinstance(cards, list)]
    return []


def _seats(table: Any, lay: GameLayout, obs: dict[str, Any], viewer: int | None, counts: list[int],
           acting: list[int]) -> list[dict[str, Any]]:
    scores = obs.get(lay.scores) if lay.scores else None
    team = obs.get(lay.team) if lay.team else None
    out = []
    for s, entry in enumerate(table.seats):
        if isinstance(scores, list) and s < len(scores):
            score: str | None = f"{scores[s]:g} {lay.score_name}" if isinstance(scores[s], (int, float)) else str(scores[s])
        elif lay.my_score and s == viewer and obs.get(lay.my_score) is not None:
            score = f"{obs[lay.my_score]:g} {lay.score_name}"
        elif isinstance(team, list):
            score = f"team: {len(team)} {lay.team_name}"
        else:
            score = None
        bot = None if entry == "person" else entry
        name = f"Seat {s + 1}"
        out.append({"seat": s, "name": name, "hand_count": int(counts[s]) if s < len(counts) else 0, "score": score,
                    "active": s in acting, "bot": bot})
    return out


def _notes(lay: GameLayout, obs: dict[str, Any], viewer: int | None) -> list[str]:
    """The layout's facts in words (the mission of the round, the medal, the round)."""
    out = []
    for key, words in lay.facts:
        value = obs.get(key)
        if value is None or (key == "role" and viewer is None):
            continue
        out.append(words.format(value=value))
    return out


def _prompt(state: Any, viewer: int | None, acting: list[int], over: bool, selected: Target | None) -> str:
    if over:
        return "The game is over."
    due = state.due()
    if viewer is not None and viewer in acting:
        if selected is not None:
            return f"{selected.value} is chosen: click where it goes ({due}), or click it again to choose another."
        return f"Your move: {due}. Click a card, a pile or a button."
    return f"Waiting: {due}."


def _hand_over(table: Any, viewer: int | None, acting: list[int]) -> list[str]:
    """At a hot seat: the words that send the device on when another person's seat is due."""
    persons = [s for s in acting if s != viewer and table.seats[s] == "person"]
    if viewer is None or viewer in acting or not persons:
        return []
    return [f"Pass the device to seat {persons[0]}, who opens the table again (its hand-over screen hides yours)."]


def _label(label: str, obs: dict[str, Any]) -> str:
    if "{" not in label:
        return label
    try:
        return label.format(**{k.replace(" ", "_"): v for k, v in obs.items()})
    except (KeyError, IndexError, ValueError):
        return label


def _button(label: str) -> str:
    return label[:1].upper() + label[1:]


def _same(a: Any, b: Any) -> bool:
    return str(a).lower() == str(b).lower()

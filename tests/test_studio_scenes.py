"""The engine games' tables as scenes (generator/studio/scenes): what one seat sees, what a click
does, and the log in words.  Every game is played to its end by clicks alone."""
from __future__ import annotations

import json

import pytest

from deckpress.generator.studio.scenes import (
    Clicks,
    Narrator,
    Target,
    click,
    engine_scene,
)
from deckpress.rules.core.errors import IllegalAction
from deckpress.rules.core.game import SIMULTANEOUS
from deckpress.rules.core.table import Table

#: (game, seats, parameters): a person at seat 0, bots elsewhere.
GAMES = [("mission-emission", 4, {}), ("fifty-missions", 3, {}), ("maybe-missions", 4, {}), ("geheime-mission", 2, {}),
         ("mission-emission", 3, {"mode": "strategy"}), ("mission-emission", 3, {"mode": "kids"})]
IDS = [f"{g}-{p.get('mode', 'base')}" for g, _, p in GAMES]


def face(value, numbers: bool) -> str | None:
    """A stand-in for the studio's card images: every named card has one."""
    return None if value is None else f"/card/{value}.png"


def back(kind: str) -> str:
    return f"/back/{kind}.png"


def scene_of(table: Table, seat: int | None, clicks: Clicks, selected=None, narrator: Narrator | None = None) -> dict:
    return engine_scene(table, seat, face, back, clicks, narrator.lines(seat) if narrator else [], selected)


def ids_of(scene: dict) -> list[str]:
    """Every action id of a scene: its cards', its zones' and its buttons'."""
    out = [c["action"] for z in scene["zones"] for c in z["cards"] if c["action"]]
    out += [z["action"] for z in scene["zones"] if z["action"]] + [b["action"] for b in scene["buttons"]]
    return list(dict.fromkeys(out))


@pytest.mark.parametrize("game,players,params", GAMES, ids=IDS)
def test_a_seats_scene_never_shows_another_seats_hand(game, players, params):
    table = Table(game, ["person"] * players, seed=7, params=params)
    for _ in range(3):  # a few moves in, too
        seat = table.seat_to_show()
        if seat is None:
            break
        hand = table.observation(seat)["hand"]
        for other in [s for s in range(players) if s != seat] + [None]:
            # identical copies (50 Missions has two of each card) may lie face up or in one's own hand
            shown = table.observation(0 if other is None else other)
            seen = json.dumps({k: v for k, v in shown.items() if other is not None or k != "hand"})
            hidden = {face(v, True) for v in hand if json.dumps(v) not in seen}
            scene = scene_of(table, other, Clicks())
            text = json.dumps(scene)
            assert not any(url in text for url in hidden), f"seat {other} sees seat {seat}'s hand"
            backs = next(z for z in scene["zones"] if z["id"] == f"hand-{seat}")
            assert backs["count"] == len(hand) and all(c["image"] is None and c["back"] for c in backs["cards"])
        table.play(seat, table.moves(seat)[0].action)


@pytest.mark.parametrize("game,players,params", GAMES, ids=IDS)
def test_a_game_is_played_to_its_end_by_clicks_and_each_click_is_one_legal_move(game, players, params):
    """Seat 0 is a person who clicks; each click plays one legal move, selects the first half of a
    two-click move, or is refused with the engine's reason; a refused click changes nothing."""
    table = Table(game, ["person"] + ["random"] * (players - 1), seed=11, params=params)
    clicks, narrator, selected = Clicks(), Narrator(table), None
    refused: list[str] = []
    for _ in range(2000):
        if table.finished():
            break
        scene = scene_of(table, 0, clicks, selected, narrator)
        legal = {m.action for m in table.moves(0)}
        played = False
        for ident in ids_of(scene):
            before = len(table.state.history)
            try:
                action, chosen = click(table, 0, clicks.get(ident), selected)
            except IllegalAction as exc:
                refused.append(str(exc))
                assert len(table.state.history) == before
                continue
            if action is not None:
                assert action in legal
                table.play(0, action)
                selected, played = None, True
                break
            if chosen is not None and selected is None:
                selected = chosen
                break
        assert played or selected is not None, f"no click of {ids_of(scene)} moves the game: {scene['prompt']}"
    assert table.finished()
    final = scene_of(table, 0, clicks, None, narrator)
    assert final["finished"] and final["result"] and "seat 0" in final["result"] or "team" in final["result"]
    assert all(": " in r and r.split(":")[0].count(".") == 1 for r in refused)  # "reason.code: message"


def test_an_illegal_click_says_the_engines_reason():
    table = Table("mission-emission", ["person", "random", "random", "random"], seed=3)
    clicks = Clicks()
    scene = scene_of(table, 0, clicks)
    card = next(z for z in scene["zones"] if z["id"] == "hand-0")["cards"][0]
    with pytest.raises(IllegalAction) as caught:  # a card before the mission (rulebook "Let's Go!")
        click(table, 0, clicks.get(card["action"]), None)
    assert str(caught.value) == "phase.wrong: seat 0 chooses the mission first, then plays a card"


def test_a_click_at_a_seat_not_due_says_whose_turn_it_is():
    table = Table("mission-emission", ["person", "person", "random", "random"], seed=3)
    clicks = Clicks()
    scene = scene_of(table, 1, clicks)
    card = next(z for z in scene["zones"] if z["id"] == "hand-1")["cards"][0]
    with pytest.raises(IllegalAction, match=r"^turn.not-yours: it is not seat 1's turn"):
        click(table, 1, clicks.get(card["action"]), None)


def test_fifty_missions_takes_a_card_then_the_pile_it_covers():
    """A card that may cover several piles is chosen first, then the pile; a pile it may not
    cover is refused with the rule (rulebook "Flow of the game": same symbol or same value)."""
    for seed in range(1, 100):  # the first deal where a card of seat 0 may cover two piles
        table = Table("fifty-missions", ["person", "random", "random"], seed=seed)
        events = [table.state.action_to_event(m.action, 0) for m in table.moves(0)]
        cards = [e["play"] for e in events]
        card = next((c for c in cards if cards.count(c) > 1), None)
        if card is not None:
            break
    chosen = click(table, 0, Target("hand", card), None)
    assert chosen == (None, Target("hand", card))
    slots = {e["slot"] for e in events if e["play"] == card}
    for slot in range(4):
        if slot in slots:
            action, _ = click(table, 0, Target("face up", slot, "slot"), Target("hand", card))
            assert table.state.action_to_event(action, 0) == {"seat": 0, "play": card, "slot": slot}
        else:
            with pytest.raises(IllegalAction, match=r"^pile.wrong: .*same symbol or the same value"):
                click(table, 0, Target("face up", slot, "slot"), Target("hand", card))


def test_the_log_says_each_move_in_words_and_what_it_won():
    table = Table("mission-emission", ["random"] * 4, seed=5)
    lines = Narrator(table).lines(0, n=1000)
    assert any(line.startswith("You were dealt ") for line in lines)
    assert "Seats 2, 3 and 4 were each dealt 3 cards" in lines
    assert any(line.startswith("Seat ") and " played " in line and "won: " in line for line in lines), lines
    assert not any("{" in line for line in lines)


def test_the_log_hides_a_secret_vote_until_it_is_revealed():
    table = Table("maybe-missions", ["person"] * 4, seed=3)
    narrator = Narrator(table)
    while table.state.current != SIMULTANEOUS or not any(table.state.submitted(s) for s in range(4)):  # one vote in
        seat = table.seat_to_show()
        table.play(seat, table.moves(seat)[0].action)
    voter = next(s for s in range(4) if table.state.submitted(s))
    other = (voter + 1) % 4
    assert f"Seat {voter + 1} voted in secret" in narrator.lines(other)
    assert any(line.startswith("You voted ") for line in narrator.lines(voter))


def test_maybe_missions_keeps_the_other_seats_scores_hidden_until_the_end():
    """A seat sees its own score only (the engine's view gives "my score"): the log's news leaves
    the scores out while the game goes on, and the collections show their printed cards."""
    table = Table("maybe-missions", ["person"] + ["random"] * 3, seed=4)
    narrator = Narrator(table, private_scores=True)
    for _ in range(400):
        if any(table.observation(0)["collections"]):
            break
        table.play(0, table.moves(0)[0].action)
    lines = narrator.lines(0, n=1000)
    assert not [line for line in lines if "scores " in line or line.endswith(tuple("0123456789")) and " — seat " in line]
    printed = lambda value, numbers: None if "(" in str(value) else face(value, numbers)  # noqa: E731  (no card is named so)
    scene = engine_scene(table, 0, printed, back, Clicks(), [])
    collected = [c for z in scene["zones"] if z["id"].startswith("collections-") for c in z["cards"]]
    assert collected and all(c["image"] and "(" not in c["image"] for c in collected)


def test_at_a_hot_seat_the_scene_sends_the_device_on():
    table = Table("mission-emission", ["person", "person", "random", "random"], seed=3)
    table.play(0, table.moves(0)[0].action)  # the mission
    table.play(0, table.moves(0)[0].action)  # a card: seat 1, a person at this screen, is due
    assert table.seat_to_show() == 1
    assert "Pass the device to seat 1" in scene_of(table, 0, Clicks())["prompt"]
    assert "Pass the device" not in scene_of(table, 1, Clicks())["prompt"]


@pytest.mark.parametrize("game,players,params", GAMES, ids=IDS)
def test_a_spectator_sees_only_what_every_seat_sees(game, players, params):
    """A spectator's link shows public information only: every card face and every fact in its
    scene is in each seat's own scene too (Geheime Mission's answer to play, which one seat
    knows, is not in it), move after move to the end of a game."""
    table = Table(game, ["person"] * players, seed=11, params=params)
    for _ in range(300):
        seen = scene_of(table, None, Clicks())
        faces = {c["image"] for z in seen["zones"] for c in z["cards"] if c["image"]}
        for seat in range(players):
            own = scene_of(table, seat, Clicks())
            assert faces <= {c["image"] for z in own["zones"] for c in z["cards"] if c["image"]}, f"seat {seat + 1} does not see it"
            assert set(seen["notes"]) <= set(own["notes"]), f"seat {seat + 1} is not told {seen['notes']}"
        seat = table.seat_to_show()
        if seat is None or table.finished():
            break
        table.play(seat, table.moves(seat)[0].action)

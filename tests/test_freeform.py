"""The free-form table's model (no web): moves, what each seat sees, undo, and the log that
replays a session.  The same table in the studio and a browser is tests/test_studio_table.py."""
from __future__ import annotations

import pytest
import yaml

from deckpress.generator.studio.freeform import (
    CardKey,
    DeckCards,
    FreeSession,
    FreeTable,
    LogProblem,
    Look,
    Refused,
    plan_from_game,
)

DECK = DeckCards("cards", "Cards", tuple(CardKey("card", f"c{n}") for n in range(1, 21)))


def look(key: CardKey) -> Look:
    return Look(f"Card {key.card_id}", f"/card/{key.card_id}.png", "/card/back.png")


def hand(scene: dict, seat: int) -> dict:
    return next(z for z in scene["zones"] if z["id"] == f"hand-{seat}")


def test_each_deck_starts_as_a_face_down_pile_shuffled_by_the_seed():
    one, again, other = FreeTable([DECK], 2, seed=7), FreeTable([DECK], 2, seed=7), FreeTable([DECK], 2, seed=8)
    assert one.state() == again.state()  # the same seed deals the same game
    assert one.state()["cards"] != other.state()["cards"]
    assert sorted(c[1] for c in one.state()["cards"]["cards"]) == sorted(k.card_id for k in DECK.cards)
    scene = FreeSession(one).scene(0, look)
    pile = next(z for z in scene["zones"] if z["id"] == "cards")
    assert pile["count"] == 20 and pile["layout"] == "pile" and pile["area"] == "centre"
    assert pile["cards"] == [{"image": None, "back": "/card/back.png", "label": "card back", "action": "pick:cards:19", "selected": False}]
    assert pile["action"] == "draw:cards"


def test_a_seat_sees_its_own_hand_and_only_the_backs_and_count_of_the_others():
    session = FreeSession(FreeTable([DECK], 3, seed=1))
    session.act(0, "deal:cards")
    session.act(0, "deal:cards")
    mine, theirs = hand(session.scene(1, look), 1), hand(session.scene(1, look), 0)
    assert mine["count"] == 2 and all(c["image"] and c["label"].startswith("Card c") for c in mine["cards"])
    assert theirs["count"] == 2 and all(c["image"] is None and c["label"] == "card back" and c["action"] is None for c in theirs["cards"])
    spectator = session.scene(None, look)
    assert all(c["image"] is None for s in range(3) for c in hand(spectator, s)["cards"])
    assert spectator["buttons"] == [] and [s["hand_count"] for s in spectator["seats"]] == [2, 2, 2]
    with pytest.raises(Refused, match="Seat 1's hand"):
        session.act(1, "pick:hand-0:0")  # another seat's hand cannot be touched


def test_a_card_played_face_down_is_named_to_nobody_and_a_pass_only_to_the_two_seats():
    session = FreeSession(FreeTable([DECK], 3, seed=1))
    session.act(0, "draw:cards")
    session.act(0, "draw:cards")
    first, second = (c.key.card_id for c in session.table.zones["hand-0"].cards)
    session.act(0, "pick:hand-0:0")
    session.act(0, "face:down")
    session.act(0, "to:table")
    played = next(z for z in session.scene(2, look)["zones"] if z["id"] == "table")["cards"]
    assert played[0]["image"] is None and played[0]["label"] == "card back"
    assert session.scene(2, look)["log"][-1] == "Seat 1 played a card face down to Table"
    session.act(0, "pick:hand-0:0")
    session.act(0, "pass:1")
    assert [c.key.card_id for c in session.table.zones["hand-1"].cards] == [second]
    assert session.scene(1, look)["log"][-1] == f"Seat 1 passed Card {second} to Seat 2"
    assert session.scene(2, look)["log"][-1] == "Seat 1 passed a card to Seat 2"
    session.act(1, "reveal")
    assert hand(session.scene(2, look), 1)["cards"][0]["label"] == f"Card {second}"
    assert first != second


def test_flip_move_and_undo_put_the_table_back_as_it_was():
    table = FreeTable([DECK], 2, seed=3)
    before = table.state()
    session = FreeSession(table)
    session.act(1, "pick:cards:19")
    session.act(1, "to:table")  # from the draw pile, face up by default
    assert table.zones["table"].cards[0].face_up
    session.act(1, "pick:table:0")
    session.act(1, "flip")
    assert not table.zones["table"].cards[0].face_up
    session.act(0, "undo")
    session.act(0, "undo")
    assert table.state() == before
    assert session.scene(0, look)["log"][-1].startswith("Seat 1 undid: Seat 2 moved Card ")
    with pytest.raises(Refused, match="nothing to undo"):
        table.apply(0, {"do": "undo"})  # the set-up (the shuffle) is not undone


def test_the_log_replays_the_session_move_for_move():
    session = FreeSession(FreeTable([DECK], 2, seed=11, game="mygame"))
    for seat, action in [(0, "deal:cards"), (0, "deal:cards"), (1, "draw:cards"), (1, "pick:hand-1:0"), (1, "face:down"),
                         (1, "to:cards-discard"), (0, "shuffle:cards"), (0, "pick:hand-0:1"), (0, "pass:1"), (1, "undo"), (1, "reveal")]:
        session.act(seat, action)
    text = session.table.log_yaml()
    assert text.startswith("# deckpress free-form table log") and "table: free-form" in text
    replayed = FreeTable.from_log(yaml.safe_load(text))
    assert replayed.state() == session.table.state()
    assert replayed.log_yaml() == text
    broken = yaml.safe_load(text)
    broken["moves"][3] = {"seat": 1, "do": "draw", "zone": "nowhere"}
    with pytest.raises(LogProblem, match="move 4: no zone 'nowhere'"):
        FreeTable.from_log(broken)
    with pytest.raises(LogProblem, match="not a free-form table log"):
        FreeTable.from_log({"game": "mission-emission", "events": []})


def test_game_yaml_declares_a_market_row_dealt_face_up_and_a_discard_pile():
    game = {"players": {"min": 3, "max": 5}, "table": {
        "zones": [{"id": "cards", "label": "Draw pile", "deck": "cards"}, {"id": "market", "label": "Market", "layout": "row"},
                  {"id": "discard", "label": "Discard", "layout": "pile", "face": "up"},
                  {"id": "tableau", "label": "Tableau", "per_seat": True}],
        "setup": [{"shuffle": "cards"}, {"move": 4, "from": "cards", "to": "market"}, {"deal": 2, "from": "cards"}]}}
    zones, setup, seats = plan_from_game(game, [DECK])
    table = FreeTable([DECK], seats, seed=1, zones=zones, setup=setup)
    assert seats == 3 and [z for z in table.zones] == ["cards", "market", "discard", "tableau-0", "tableau-1", "tableau-2",
                                                       "hand-0", "hand-1", "hand-2"]
    assert [c.face_up for c in table.zones["market"].cards] == [True] * 4
    assert len(table.zones["cards"].cards) == 20 - 4 - 6
    with pytest.raises(ValueError, match=r"table.setup\[0\].from: no centre zone 'deck'"):
        plan_from_game({"table": {"setup": [{"deal": 2, "from": "deck"}]}}, [DECK])
    assert [z.id for z in plan_from_game({}, [DECK])[0]] == ["cards", "cards-discard", "table", "play"]


TABLE_KEY = """table:
  zones:
    - {id: cards, label: Draw pile, deck: cards}
    - {id: market, label: Market, layout: row}
    - {id: discard, label: Discard, layout: pile, face: up}
  setup:
    - {shuffle: cards}
    - {move: 2, from: cards, to: market}
    - {deal: 1, from: nowhere}
"""


def test_game_yaml_table_errors_name_file_line_and_the_zones_expected(cli, tmp_path):
    from conftest import line_of

    assert cli("init", tmp_path / "g").exit_code == 0
    game = tmp_path / "g" / "game.yaml"
    game.write_text(game.read_text() + TABLE_KEY.replace("face: up", "face: up, colour: red"))
    shape = cli("validate", tmp_path / "g")
    assert shape.exit_code != 0
    assert f"game.yaml:{line_of(game, 'colour')}:" in shape.output and "table.zones[2].colour: unknown key 'colour'" in shape.output
    game.write_text(game.read_text().replace(", colour: red", ""))
    refs = cli("validate", tmp_path / "g")
    assert f"game.yaml:{line_of(game, 'nowhere')}:" in refs.output
    assert "table.setup[2].from: unknown zone 'nowhere' (expected one of: cards, market, discard)" in refs.output
    game.write_text(game.read_text().replace("nowhere", "cards"))
    assert cli("validate", tmp_path / "g").exit_code == 0

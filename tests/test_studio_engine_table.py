"""The studio's engine table drawn from its scene: the page is the scene template over
/table/{id}/seat/{n}; clicks posted to its /act are played or refused with the engine's reason;
what the table shows reads as a table (no raw view fields)."""
from __future__ import annotations

import re

import pytest

from deckpress.generator.paths import CONTENT_DIR
from tests.test_studio import base_of, client_for, table_for

#: A game's seats for one person against bots.
SEATS = {"mission-emission": ["person", "random", "random", "random"], "fifty-missions": ["person", "random", "random"],
         "maybe-missions": ["person", "random", "random", "random"], "geheime-mission": ["person", "random"]}


def zone(scene: dict, ident: str) -> dict:
    return next(z for z in scene["zones"] if z["id"] == ident)


def test_a_card_clicked_before_the_mission_is_refused_with_the_engines_reason():
    with client_for(CONTENT_DIR / "mission-emission") as client:
        table = table_for(client, ["person", "random", "random", "random"])
        base = base_of(client.get(table).text)
        assert base == f"{table}/seat/0"
        scene = client.get(f"{base}/scene.json").json()
        card = zone(scene, "hand-0")["cards"][0]
        refused = client.post(f"{base}/act", data={"action": card["action"]})  # rulebook "Let's Go!": the mission first
        assert refused.status_code == 409
        assert refused.json() == {"error": "phase.wrong: seat 0 chooses the mission first, then plays a card"}
        chose = client.post(f"{base}/act", data={"action": zone(scene, "piles-forest")["action"]})
        assert chose.status_code == 200 and "Mission of this round: Forest" in chose.json()["prompt"]
        assert "You chose the mission Forest" in chose.json()["log"]  # the log in words
        assert "mission: Forest" in client.get(f"{table}/log.yaml").text


def test_another_seats_click_changes_nothing():
    with client_for(CONTENT_DIR / "mission-emission") as client:
        table = table_for(client, ["person", "person", "random", "random"])
        forest = zone(client.get(f"{table}/seat/0/scene.json").json(), "piles-forest")["action"]
        refused = client.post(f"{table}/seat/1/act", data={"action": forest})
        assert refused.status_code == 409 and refused.json()["error"].startswith("turn.not-yours: ")
        assert "mission:" not in client.get(f"{table}/log.yaml").text


@pytest.mark.parametrize("game", sorted(SEATS))
def test_the_table_reads_as_a_table_not_as_the_engines_fields(game):
    """Each game's scene: the other hands as card backs with their counts, the centre's zones with
    printed cards, the hand as printed cards; no raw view field in any word shown."""
    with client_for(CONTENT_DIR / game) as client:
        page = client.get(table_for(client, SEATS[game], mode=None)).text
        scene = client.get(f"{base_of(page)}/scene.json").json()
        words = [scene["prompt"], *scene["log"], *(b["label"] for b in scene["buttons"]),
                 *(s["name"] for s in scene["seats"]), *(s["score"] for s in scene["seats"] if s["score"] is not None),
                 *(z["label"] for z in scene["zones"]), *(c["label"] for z in scene["zones"] for c in z["cards"])]
        for raw in ("hand_sizes", "hand sizes", "deck_size", "deck size", "pockets", "'seat':", "{", "None", "[]"):
            assert not [w for w in words if raw in w], raw
        other = zone(scene, "hand-1")
        assert other["count"] == len(other["cards"]) > 0
        assert all(c["image"] is None and c["back"].startswith("/back/") for c in other["cards"])
        assert client.get(other["cards"][0]["back"]).status_code == 200
        centre = [z for z in scene["zones"] if z["area"] == "centre"]
        assert len(centre) >= 2 and any(c["image"] or c["back"] for z in centre for c in z["cards"])
        assert all(re.match(r"/card/\w+\.png", c["image"]) for c in zone(scene, "hand-0")["cards"])

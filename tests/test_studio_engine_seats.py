"""An engine's table played at its person seats' own links ("Invite people", docs/table.md)."""
from __future__ import annotations

import re

from deckpress.generator.paths import CONTENT_DIR
from tests.test_studio import client_for


def _invited(client, seats: list[str]) -> list[str]:
    form = {f"seat{i}": s for i, s in enumerate(seats)} | {"seed": "3", "mode": "base", "invite": "1"}
    response = client.post("/table", data=form, follow_redirects=False)
    assert response.status_code == 303, response.text
    page = client.get(response.headers["location"]).text
    return [re.sub(r"^http://[^/]+", "", u) for u in re.findall(r'class="seat-link"[^>]*>([^<]+)<', page)]


def _hand(scene: dict) -> list[str]:
    return [c["image"] for z in scene["zones"] if z["id"] == f"hand-{scene['viewer']}" for c in z["cards"]]


def test_each_person_seat_sees_only_its_own_hand_and_acts_only_with_its_own_link():
    with client_for(CONTENT_DIR / "mission-emission") as client:
        links = _invited(client, ["person", "person", "random", "random"])
        assert len(links) == 3  # two persons and the spectator: the bots have no link
        a, b, spectator = links
        scene_a, scene_b = client.get(f"{a}/scene.json").json(), client.get(f"{b}/scene.json").json()
        assert (scene_a["viewer"], scene_b["viewer"]) == (0, 1)
        hand_a, hand_b = _hand(scene_a), _hand(scene_b)
        assert hand_a and hand_b and all(hand_a) and all(hand_b)
        shown_a = {c.get("image") for z in scene_a["zones"] for c in z["cards"]}
        assert not set(hand_b) - set(hand_a) & shown_a  # none of B's hand images in A's scene
        forest = next(z for z in scene_a["zones"] if z["id"] == "piles-forest")["action"]
        for who in (b, spectator, "/seat/" + "x" * 32, "/seat/"):
            refused = client.post(f"{who}/act", data={"action": forest})
            assert refused.status_code in (403, 404, 405, 409)
        assert client.get(f"{a}/scene.json").json() == scene_a | {"log": scene_a["log"]}  # nothing changed
        played = client.post(f"{a}/act", data={"action": forest})
        assert played.status_code == 200, played.text

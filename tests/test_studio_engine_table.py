"""The studio's engine table drawn from its scene: clicks posted to /table/{id}/act, refused with
the engine's reason, and a page that reads as a table (no raw view fields)."""
from __future__ import annotations

import re

import pytest
from deckpress.generator.paths import CONTENT_DIR

from tests.test_studio import CLICK, client_for, table_for

#: A game's seats for one person against bots.
SEATS = {"mission-emission": ["person", "random", "random", "random"], "fifty-missions": ["person", "random", "random"],
         "maybe-missions": ["person", "random", "random", "random"], "geheime-mission": ["person", "random"]}
PROBLEM = re.compile(r'<div class="problem" role="alert" id="problem">(.*?)</div>', re.S)


def test_a_card_clicked_before_the_mission_is_refused_with_the_engines_reason():
    with client_for(CONTENT_DIR / "mission-emission") as client:
        table = table_for(client, ["person", "random", "random", "random"])
        page = client.get(table).text
        hand = page[page.index('id="zone-hand-0"'):]
        seat, action = CLICK.search(hand).groups()
        refused = client.post(f"{table}/act", data={"seat": seat, "action": action})
        assert refused.status_code == 409
        assert PROBLEM.search(refused.text).group(1) == "phase.wrong: seat 0 chooses the mission first, then plays a card"
        as_json = client.post(f"{table}/act", data={"seat": seat, "action": action}, headers={"Accept": "application/json"})
        assert as_json.status_code == 409 and as_json.json()["problem"].startswith("phase.wrong: ")
        pile = page[page.index('id="zone-piles-forest"'):]
        chose = client.post(f"{table}/act", data={"seat": "0", "action": CLICK.search(pile).group(2)})
        assert chose.status_code == 200 and "Mission of this round: Forest" in chose.text
        assert "You chose the mission Forest" in chose.text  # the log in words


def test_another_seats_click_changes_nothing():
    with client_for(CONTENT_DIR / "mission-emission") as client:
        table = table_for(client, ["person", "person", "random", "random"])
        page = client.get(f"{table}?seat=0").text
        seat, action = CLICK.search(page[page.index('id="zone-piles-forest"'):]).groups()
        refused = client.post(f"{table}/act", data={"seat": "1", "action": action})
        assert refused.status_code == 409 and "turn.not-yours" in PROBLEM.search(refused.text).group(1)
        assert client.get(f"{table}/log.yaml").text.count("mission:") == 0


@pytest.mark.parametrize("game", sorted(SEATS))
def test_the_table_reads_as_a_table_not_as_the_engines_fields(game):
    """Each game's page: the other hands as card backs with their counts, the centre's zones,
    the hand as printed cards; never the view's raw fields as a list."""
    with client_for(CONTENT_DIR / game) as client:
        page = client.get(table_for(client, SEATS[game], mode=None)).text
        shown = re.sub(r"<[^>]+>", " ", page.split('id="table"')[1].split('id="log"')[0])  # the words on the table
        for raw in ("hand_sizes", "hand sizes", "deck_size", "deck size", "pockets", "'seat':", "{", "None", "[]"):
            assert raw not in shown, raw
        other = page[page.index('id="zone-hand-1"'):page.index("</section>", page.index('id="zone-hand-1"'))]
        assert other.count('alt="card back"') == int(re.search(r'data-count="(\d+)"', other).group(1)) > 0
        centre = page[page.index('id="centre"'):page.index('class="status"')]
        assert centre.count('class="zone') >= 2 and '<img src="/card/' in centre

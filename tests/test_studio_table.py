"""The studio's free-form table through Starlette's test client: starting one for a game made by
``deckpress init``, what each seat's link may see and change, the log that replays, and
``deckpress studio --host``'s links.  Two real browsers at one table: tests/test_studio_browser.py."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from deckpress.generator.studio.app import Studio, create_app

BASE = "http://127.0.0.1"


@pytest.fixture
def mygame(cli, tmp_path) -> Path:
    """A game of one's own, from ``deckpress init`` (a CSV of cards, no rules engine)."""
    assert cli("init", tmp_path / "mygame").exit_code == 0
    return tmp_path / "mygame"


def designer(studio: Studio, **kw) -> TestClient:
    """The designer's browser: it opened the studio's address with its secret."""
    client = TestClient(create_app(studio, watch=False, **kw), base_url=BASE)
    assert client.get(f"/?token={studio.secret}", follow_redirects=False).status_code == 303
    return client


def start(client: TestClient, **form: str) -> tuple[str, list[str]]:
    """A new free-form table: its page and its links (seats in order, then the spectator's),
    as paths."""
    started = client.post("/table/free", data={"seats": "2", "deal": "2", "seed": "4", **form}, follow_redirects=False)
    assert started.status_code == 303, started.text
    page = client.get(started.headers["location"])
    links = [re.sub(r"^http://[^/]+", "", u) for u in re.findall(r'class="seat-link"[^>]*>([^<]+)<', page.text)]
    return started.headers["location"], links


def hand_labels(scene: dict, seat: int) -> list[str]:
    return [c["label"] for z in scene["zones"] if z["id"] == f"hand-{seat}" for c in z["cards"]]


def test_each_seat_link_shows_its_own_hand_and_only_backs_and_counts_of_the_others(mygame):
    studio = Studio(mygame, dpi=40)
    with designer(studio) as client:
        table, (one, two, watcher) = start(client)
        player = TestClient(client.app, base_url=BASE)  # another device: no studio secret, only its link
        assert player.get("/").status_code == 403 and player.get(table).status_code == 403
        page = player.get(one)
        assert page.status_code == 200 and page.headers["referrer-policy"] == "no-referrer"
        assert 'href="/table"' not in page.text  # no links into the studio from a seat's page
        first, second, spectator = (player.get(f"{link}/scene.json").json() for link in (one, two, watcher))
        assert first["viewer"] == 0 and second["viewer"] == 1 and spectator["viewer"] is None
        assert "card back" not in hand_labels(first, 0) and hand_labels(first, 1) == ["card back"] * 2
        assert hand_labels(second, 0) == ["card back"] * 2 and "card back" not in hand_labels(second, 1)
        assert hand_labels(spectator, 0) == hand_labels(spectator, 1) == ["card back"] * 2
        # a hidden card's image names no card: its back is addressed by the image, not the card
        backs = {c["back"] for z in first["zones"] for c in z["cards"] if c["image"] is None}
        assert backs and all(re.fullmatch(rf"{one}/back/[0-9a-f]{{16}}\.png", b) for b in backs)
        assert player.get(next(iter(backs))).headers["content-type"] == "image/png"
        faces = [c["image"] for c in first["zones"][-2]["cards"]]
        assert player.get(faces[0]).headers["content-type"] == "image/png"


def test_another_seats_token_a_spectators_or_none_changes_nothing(mygame):
    studio = Studio(mygame, dpi=40)
    with designer(studio) as client:
        table, (one, two, watcher) = start(client)
        stranger = TestClient(client.app, base_url=BASE)
        before = studio.tables[table.rsplit("/", 1)[1]].table.table.state()
        # seat 2's link cannot take from seat 1's hand; a spectator cannot play; a wrong token or none opens nothing
        refused = stranger.post(f"{two}/act", data={"action": "pick:hand-0:0"})
        assert refused.status_code == 409 and refused.json() == {"error": "that is Seat 1's hand"}
        assert stranger.post(f"{watcher}/act", data={"action": "draw:cards"}).status_code == 403
        wrong = one[:-4] + ("AAAA" if not one.endswith("AAAA") else "BBBB")
        for path in (f"{wrong}/act", "/seat/act", "/seat//act"):
            answer = stranger.post(path, data={"action": "undo"})
            assert answer.status_code in (404, 405) and "Seat" not in answer.text
        nowhere = stranger.post("/seat/" + "x" * 32 + "/act", data={"action": "undo"})
        assert nowhere.status_code == 404 and nowhere.json() == {"error": "this link opens no table"}
        assert stranger.get(wrong).text == stranger.get("/seat/" + "x" * 32).text  # a table there or not: the same answer
        # from another web site, even with the right token
        assert stranger.post(f"{one}/act", data={"action": "reveal"}, headers={"origin": "http://evil.example"}).status_code == 403
        assert studio.tables[table.rsplit("/", 1)[1]].table.table.state() == before
        assert stranger.post(f"{one}/act", data={"action": "reveal"}).status_code == 200
        assert studio.tables[table.rsplit("/", 1)[1]].table.table.state() != before


def test_the_downloaded_log_loads_back_as_the_same_table(mygame):
    studio = Studio(mygame, dpi=40)
    with designer(studio) as client:
        table, (one, two, _) = start(client)
        for link, action in ((one, "pick:hand-0:0"), (one, "face:down"), (one, "to:table"), (two, "draw:cards"), (two, "reveal")):
            assert client.post(f"{link}/act", data={"action": action}).status_code == 200, action
        log = client.get(f"{table}/log.yaml")
        assert log.headers["content-disposition"] == 'attachment; filename="mygame-free-t1.yaml"'
        loaded = client.post("/table/load", files={"log": ("mygame-free-t1.yaml", log.content)}, follow_redirects=False)
        assert loaded.status_code == 303
        again = studio.tables[loaded.headers["location"].rsplit("/", 1)[1]].table.table
        assert again.state() == studio.tables[table.rsplit("/", 1)[1]].table.table.state()
        broken = log.text.replace("do: draw, zone: cards", "do: draw, zone: attic")
        refused = client.post("/table/load", files={"log": ("mine.yaml", broken.encode())})
        assert refused.status_code == 400 and "mine.yaml: move 4: no zone &#39;attic&#39; at this table" in refused.text


def test_game_yaml_table_key_sets_the_table_up(mygame):
    game = mygame / "game.yaml"
    game.write_text(game.read_text() + "table:\n  players: 3\n  zones:\n    - {id: cards, label: Draw pile, deck: cards}\n"
                    "    - {id: market, label: Market, layout: row}\n  setup:\n    - {shuffle: cards}\n"
                    "    - {move: 2, from: cards, to: market}\n", encoding="utf-8")
    studio = Studio(mygame, dpi=40)
    with designer(studio) as client:
        form = client.get("/table").text
        assert 'name="seats" id="free-seats" value="3"' in form and "Zones: Draw pile, Market; a hand per seat." in form
        _, links = start(client, seats="", deal="0")
        scene = client.get(f"{links[0]}/scene.json").json()
        market = next(z for z in scene["zones"] if z["id"] == "market")
        assert len(links) == 4 and market["count"] == 2 and all(c["image"] for c in market["cards"])


def test_studio_host_prints_a_link_per_seat_and_accepts_only_its_own_host_names(mygame):
    """``deckpress studio GAME --host ADDRESS``: a warning, a table's link per seat and a
    spectator's; a link opens its seat from the address given; another Host header is refused."""
    import os
    import signal
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    proc = subprocess.Popen([sys.executable, "-c", "import sys; from deckpress.generator.cli import main; sys.exit(main())",
                             "studio", str(mygame), "--host", "127.0.0.2", "--seats", "3", "--no-browser", "--no-watch", "--dpi", "50"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ | {"PYTHONUNBUFFERED": "1"})
    try:
        lines = [proc.stdout.readline() for _ in range(6)]
        assert lines[0].startswith("deckpress studio: http://127.0.0.2:") and "?token=" in lines[0]
        assert "a free-form table of 3 seats" in lines[1]
        seats = [re.search(r"seat (\d): (http://127\.0\.0\.2:\d+/seat/[\w-]{32})$", line.strip()) for line in lines[2:5]]
        assert [m.group(1) for m in seats] == ["1", "2", "3"]
        assert lines[5].strip().startswith("spectator: http://127.0.0.2:")
        page = urllib.request.urlopen(seats[1].group(2), timeout=30)
        assert page.status == 200 and page.headers["Referrer-Policy"] == "no-referrer"
        elsewhere = urllib.request.Request(seats[1].group(2), headers={"Host": "evil.example"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(elsewhere, timeout=30)
        assert refused.value.code == 400
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    warning = proc.stderr.read()
    assert "warning: listening on 127.0.0.2" in warning and "Traceback" not in warning
    tokens = [m.group(2).rsplit("/", 1)[1] for m in seats]
    assert not any(t in warning for t in tokens)  # never logged

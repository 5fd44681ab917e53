"""deckpress studio's web app, through Starlette's test client: the pages a user sees,
what they may and may not reach, and the table's forms; and the file watcher on a real server,
saving as editors do.  The same app in a real browser is tests/test_studio_browser.py."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import line_of, retitle_first_card
from starlette.testclient import TestClient

from deckpress.generator.cli import main
from deckpress.generator.paths import CONTENT_DIR
from deckpress.generator.studio.app import Studio, create_app

VARIANTS = CONTENT_DIR / "variants"


def client_for(target: Path, **kw) -> TestClient:
    studio = Studio(target, dpi=kw.pop("dpi", 40))
    return authorised(TestClient(create_app(studio, watch=False), base_url="http://127.0.0.1", **kw), studio)


def authorised(client: TestClient, studio: Studio) -> TestClient:
    """``client`` after opening the address the studio prints (``/?token=SECRET``): its cookie."""
    opened = client.get(f"/?token={studio.secret}", follow_redirects=False)
    assert opened.status_code == 303 and opened.headers["location"] == "/"
    assert "HttpOnly" in opened.headers["set-cookie"]
    return client


@pytest.fixture
def me(game_copy) -> Path:
    return game_copy("mission-emission")


@pytest.fixture
def mygame(cli, tmp_path) -> Path:
    """A game of one's own, from ``deckpress init`` (a CSV of cards, no rules engine)."""
    assert cli("init", tmp_path / "mygame").exit_code == 0
    return tmp_path / "mygame"


def articles(html: str) -> list[str]:
    return re.findall(r'<article class="card[^"]*"', html)


def test_cards_page_shows_every_card_with_its_file_line_and_image(me):
    with client_for(me) as client:
        page = client.get("/")
        assert page.status_code == 200
        assert len(articles(page.text)) == 36 + 18  # every state and point card, once each
        assert "Valid: every card drawn." in page.text
        assert re.search(r"states\.yaml:\d+", page.text)  # each card says where it is written
        token = re.search(r'src="/card/([^".]+)\.png', page.text).group(1)
        image = client.get(f"/card/{token}.png")
        assert image.status_code == 200 and image.headers["content-type"] == "image/png"
        assert image.content.startswith(b"\x89PNG")


def test_search_filters_by_a_word_and_by_a_field(me):
    with client_for(me) as client:
        assert len(articles(client.get("/", params={"q": "Goa"}).text)) == 1
        assert len(articles(client.get("/", params={"q": "colour=forest"}).text)) == 6  # six cards of each colour
        assert len(articles(client.get("/", params={"q": "no-such-card"}).text)) == 0


@pytest.mark.slow
def test_an_error_shows_at_its_line_and_the_cards_keep_their_images(me):
    studio = Studio(me, dpi=40)
    with authorised(TestClient(create_app(studio, watch=False), base_url="http://127.0.0.1"), studio) as client:
        states = me / "states.yaml"
        text = states.read_text(encoding="utf-8")
        line = next(i for i, row in enumerate(text.splitlines(), 1) if "forest:  {value: 17" in row)
        states.write_text(text.replace("forest:  {value: 17", "forest:  {value: seventeen", 1), encoding="utf-8")
        studio.refresh()
        page = client.get("/").text
        assert 'class="errors"' in page and f"states.yaml:{line}:" in page
        assert "stale" in page  # the broken card is marked, with its last good image
        assert len(articles(page)) == 54
        states.write_text(text, encoding="utf-8")
        studio.refresh()
        assert "Valid: every card drawn." in client.get("/").text


def error_list(page: str) -> list[str]:
    """The lines of the cards page's error list, as a person reads them."""
    import html

    box = re.search(r'<div class="errors" role="alert">(.*?)</div>', page, re.S).group(1)
    return [html.unescape(line) for line in re.findall(r"<li>(.*?)</li>", box, re.S)]


def test_errors_are_listed_as_validate_prints_them(me, cli, monkeypatch, tmp_path):
    """The real error first, then the note about the checks it stopped, without a position where
    there is none; an empty folder is named alone.  The same lines as deckpress validate run in the
    game's folder."""
    states = me / "states.yaml"
    states.write_text(states.read_text(encoding="utf-8").replace("forest:  {value: 17", "forest:  {value: lots", 1), encoding="utf-8")
    empty = tmp_path / "emptydir"
    empty.mkdir()
    shown = {}
    for folder in (me, empty):
        with client_for(folder) as client:
            shown[folder.name] = error_list(client.get("/").text)
        monkeypatch.chdir(folder.parent)
        printed = cli("validate", folder.name).stdout.replace(f"{folder.name}/", "").splitlines()[:-1]  # the summary line aside
        assert shown[folder.name] == printed and ":0:0" not in "".join(printed)
    real, note = shown[me.name]
    assert real.startswith(f"states.yaml:{line_of(states, 'value: lots')}:") and "value: expected a whole number" in real
    assert note.startswith("game.yaml: the cross-file checks stopped")
    assert shown["emptydir"] == ["emptydir: not a game folder: it has no game.yaml (make one with 'deckpress init NAME')"]


def test_only_card_images_are_served_never_a_path(me):
    with client_for(me) as client:
        for url in ("/card/..%2F..%2Fgame.yaml.png", "/card/nope.png", "/base/0.png", "/../game.yaml", "/states.yaml"):
            response = client.get(url)
            assert response.status_code == 404, url
            assert "andhra" not in response.text.lower()


def test_a_foreign_host_header_is_refused(me):
    with client_for(me) as client:
        assert client.get("/", headers={"host": "evil.example"}).status_code == 400


@pytest.mark.slow
def test_content_text_is_escaped_on_the_page(mygame):
    folder = mygame
    cards = folder / "cards.csv"
    retitle_first_card(cards, "<script>alert(1)</script>")
    with client_for(folder) as client:
        page = client.get("/").text
        assert "<script>alert(1)</script>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_a_variant_shows_each_changed_card_beside_its_base():
    with client_for(VARIANTS / "geheime-mission-softer-00-agents.yaml") as client:
        page = client.get("/").text
        assert page.count('class="card changed') >= 9  # the nine 00 agents the variant changes
        assert re.search(r"<b>attack</b>: 9 → 8", page)
        base = re.search(r'src="(/base/[^"]+)"', page).group(1)
        assert client.get(base).status_code == 200
        assert "Check" in page


def test_a_hostile_variant_is_an_error_on_the_page(tmp_path):
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("extends: mission-emission\na: &a [x, x, x, x, x, x, x, x, x]\n"
                    + "".join(f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
                              for p, c in zip("abcdefgh", "bcdefghi")), encoding="utf-8")
    with client_for(bomb) as client:
        page = client.get("/")
        assert page.status_code == 200
        assert 'class="errors"' in page.text and "bomb.yaml:" in page.text
        assert "Traceback" not in page.text


def table_for(client: TestClient, seats: list[str], mode: str | None = "base", seed: int = 3) -> str:
    form = {f"seat{i}": s for i, s in enumerate(seats)} | {"seed": str(seed)}
    if mode:
        form["mode"] = mode
    response = client.post("/table", data=form, follow_redirects=False)
    assert response.status_code == 303, response.text
    return response.headers["location"].split("?")[0]


def base_of(page: str) -> str:
    """Where a table page's script fetches its scene and posts its clicks (``/table/ID/seat/N``)."""
    return re.search(r'data-base="([^"]+)"', page).group(1)


def action_ids(scene: dict) -> list[str]:
    """Every action id of a scene: its cards', its zones' and its buttons', in the page's order."""
    ids = [c["action"] for z in scene["zones"] for c in z["cards"] if c["action"]]
    ids += [z["action"] for z in scene["zones"] if z["action"]] + [b["action"] for b in scene["buttons"]]
    return list(dict.fromkeys(ids))


def click_something(client: TestClient, table: str, page: str) -> str:
    """Click the table's cards, piles and buttons in turn until one is taken (a move or a
    selection); a refused click answers 409 with the engine's reason.  Returns the next page."""
    base = base_of(page)
    for action in action_ids(client.get(f"{base}/scene.json").json()):
        answer = client.post(f"{base}/act", data={"action": action})
        if answer.status_code == 200:
            return client.get(table).text
        assert answer.status_code == 409 and answer.json()["error"]
    raise AssertionError(f"no click on the table is taken: {page}")


@pytest.mark.slow
def test_a_game_played_on_the_table_downloads_a_log_that_replays(me, tmp_path):
    with client_for(me) as client:
        table = table_for(client, ["person", "greedy", "random"])
        for _ in range(200):
            page = client.get(table).text
            if 'id="result"' in page:
                break
            page = click_something(client, table, page)
        assert "Game over" in page
        log = tmp_path / "game.yaml"
        log.write_text(client.get(f"{table}/log.yaml").text, encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(log), "--content", str(me)])
    assert result.exit_code == 0, result.output


@pytest.mark.slow
def test_an_illegal_move_shows_the_engines_reason(me):
    with client_for(me) as client:
        table = table_for(client, ["person", "greedy", "greedy"])
        page = client.get(table).text
        assert "choose a mission" in client.get(f"{base_of(page)}/scene.json").json()["prompt"]
        refused = client.post(f"{table}/attempt", data={"seat": "0", "text": "play: Goa"})
        assert refused.status_code == 422
        assert 'id="problem"' in refused.text


@pytest.mark.slow
def test_the_hot_seat_hides_the_previous_hand(me):
    with client_for(me) as client:
        table = table_for(client, ["person", "person"])
        page = client.get(table).text
        for _ in range(10):  # seat 0 chooses the mission, then plays: then seat 1 is due
            page = click_something(client, table, page)
            if 'id="handover"' in page:
                break
        assert "Pass the device to seat 1" in page
        assert "data-base" not in page and "/card/" not in page  # nobody's cards on the hand-over screen
        shown = base_of(client.get(f"{table}?seat=1").text)
        assert shown.endswith("/seat/1")
        hand = next(z for z in client.get(f"{shown}/scene.json").json()["zones"] if z["id"] == "hand-1")
        assert hand["cards"] and all(c["image"].startswith("/card/") for c in hand["cards"])


def test_a_game_without_rules_gets_the_free_form_table_and_every_engine_route_a_clear_page(mygame):
    """Every table route answers a game without a rules engine with the free-form table or a
    page saying what to do: never a server error (a log of an engine game, or none, loaded here
    once answered 500 with a traceback)."""
    with client_for(mygame, raise_server_exceptions=False) as client:
        assert len(articles(client.get("/").text)) > 0
        setup = client.get("/table")
        assert setup.status_code == 200 and 'id="free-setup"' in setup.text and 'id="setup"' not in setup.text
        log = b"game: mission-emission\nseed: 1\nparams: {players: 3}\nevents: []\n"
        for answer in (client.post("/table/load", files={"log": ("game.yaml", log)}),
                       client.post("/table/load", files={"log": ("game.yaml", log.replace(b"mission-emission", b"null"))})):
            assert answer.status_code == 400, answer.text
            assert "no rules engine: only a free-form table&#39;s log loads here" in answer.text
        nothing = client.post("/table/load", data={"seat0": "person"})
        assert nothing.status_code == 400 and "choose a log file" in nothing.text
        started = client.post("/table", data={"seat0": "person", "seat1": "greedy"})
        assert started.status_code == 404 and "play it at a free-form table" in started.text
        for route in ("/table/none/play", "/table/none/attempt"):
            assert client.post(route, data={"seat": "0", "action": "1"}).status_code in (200, 303, 404)
        assert client.get("/table/none").status_code == 404 and "No such table" in client.get("/table/none").text


def test_the_studio_command_names_a_missing_game():
    result = CliRunner().invoke(main, ["studio", "no-such-game", "--no-browser"])
    assert result.exit_code == 2
    assert "no-such-game" in result.output and "Traceback" not in result.output


@pytest.mark.slow
@pytest.mark.parametrize("game, seats", [("fifty-missions", ["person", "greedy"]), ("maybe-missions", ["person", "greedy", "greedy", "greedy"]),
                                         ("geheime-mission", ["person", "greedy"])])
def test_the_table_shows_the_hand_as_the_printed_cards(game, seats):
    """Engines name cards as people do ('red lighter 5', a vote's number, an agent's code name):
    the table still finds each hand card's printed image."""
    with client_for(CONTENT_DIR / game) as client:
        page = client.get(table_for(client, seats, mode=None)).text
        hand = next(z for z in client.get(f"{base_of(page)}/scene.json").json()["zones"] if z["id"] == "hand-0")
        assert hand["cards"] and all(c["action"] for c in hand["cards"])
        assert all(str(c["image"]).startswith("/card/") for c in hand["cards"])  # every hand card drawn, none left as bare text


@pytest.mark.slow
def test_a_post_from_another_site_is_refused(me):
    with client_for(me) as client:
        refused = client.post("/table", data={"seat0": "person", "seat1": "greedy"}, headers={"origin": "http://evil.example"})
        assert refused.status_code == 403
        assert client.post("/table", data={"seat0": "person", "seat1": "greedy"}, headers={"origin": "http://127.0.0.1"},
                           follow_redirects=False).status_code == 303
        # a sandboxed frame or a data: page of any site sends 'Origin: null'; a browser that says
        # the request is cross-site is refused whatever its Origin
        for headers in ({"origin": "null"}, {"origin": "null", "sec-fetch-site": "cross-site"}, {"sec-fetch-site": "cross-site"}):
            assert client.post("/table", data={"seat0": "person", "seat1": "greedy"}, headers=headers).status_code == 403, headers
        assert client.post("/table", data={"seat0": "person", "seat1": "greedy"}, headers={"origin": "null", "sec-fetch-site": "same-origin"},
                           follow_redirects=False).status_code == 303


@pytest.mark.slow
def test_a_table_setup_out_of_range_is_refused_on_the_page_not_changed(me):
    # a seed is never replaced by another (the same seed, the same game); a long name comes back short
    with client_for(me) as client:
        seats = {"seat0": "person", "seat1": "greedy"}
        for seed in ("abc", "99999999999999999999", "-1"):
            refused = client.post("/table", data=seats | {"seed": seed}, follow_redirects=False)
            assert refused.status_code == 400 and "seed: expected a whole number from 0 to 2,147,483,648, got " in refused.text
        refused = client.post("/table", data=seats | {"ruleset": "r" * 3000}, follow_redirects=False)
        assert refused.status_code == 400 and "unknown ruleset &#39;" + "r" * 60 + "… (3,000 characters)&#39;" in refused.text
        assert client.post("/table", data=seats | {"seed": ""}, follow_redirects=False).status_code == 303  # empty: seed 1


@pytest.mark.slow
def test_a_move_that_is_not_a_number_in_range_is_refused_saying_what_was_sent(me):
    """A seat or action the page never sends (text, a number out of range) is refused with what
    was sent and what is expected, never read as another number; the game is unchanged."""
    with client_for(me) as client:
        table = table_for(client, ["person", "greedy", "greedy"])
        before = client.get(table).text
        action = "100"  # a move's number (mission: Forest)
        sent = [("play", {"seat": "abc", "action": action}, "seat: expected a whole number from 0 to 2, got &#39;abc&#39;"),
                ("play", {"seat": "-1", "action": action}, "seat: expected a whole number from 0 to 2, got &#39;-1&#39;"),
                ("play", {"action": action}, "seat: expected a whole number from 0 to 2, got &#39;&#39;"),
                ("play", {"seat": "0", "action": "999999999999999999999"},
                 "action: expected a whole number from 0 to 1,000,000,000, got &#39;999999999999999999999&#39;"),
                ("play", {"seat": "0", "action": "abc"}, "action: expected a whole number from 0 to 1,000,000,000, got &#39;abc&#39;"),
                ("play", {"seat": "0", "action": "<b>" * 500}, "got &#39;&lt;b&gt;"),
                ("attempt", {"seat": "1e3", "text": "play: Goa"}, "seat: expected a whole number from 0 to 2, got &#39;1e3&#39;")]
        for route, form, said in sent:
            refused = client.post(f"{table}/{route}", data=form)
            problem = re.search(r'<div class="problem" role="alert" id="problem">(.*?)</div>', refused.text, re.S).group(1)
            assert refused.status_code == 400 and said in problem, (form, problem)
            assert len(problem) < 300 and "<b>" not in problem  # cut short, escaped
        made_up = client.post(f"{base_of(before)}/act", data={"action": "<b>" * 500})
        assert made_up.status_code == 409 and "no such choice on this table" in made_up.json()["error"]
        assert len(made_up.json()["error"]) < 300
        assert client.post(f"{table}/seat/7/act", data={"action": "x"}).status_code == 404  # no seat 7
        assert client.get(table).text == before  # nothing was played


@pytest.mark.slow
def test_the_check_refuses_a_number_of_games_out_of_its_range(monkeypatch):
    """Games a side out of the form's range, or not a number, is refused on the page saying the
    range, never run with another number; the field says the range too."""
    import time

    from deckpress.generator.studio.routes import check

    started = []

    def run_check(studio, games):  # what the check was asked for; it ends at once
        started.append(games)
        studio.check.running = False

    monkeypatch.setattr(check, "_run_check", run_check)
    with client_for(VARIANTS / "mission-emission-set-collection.yaml") as client:
        form = client.get("/check").text
        assert "Games a side, 10 to 100,000" in form and 'min="10" max="100000"' in form
        for games in ("5", "abc", "100000000", "12.5", "-20"):
            refused = client.post("/check", data={"games": games})
            assert refused.status_code == 400, games
            assert f"games a side: expected a whole number from 10 to 100,000, got &#39;{games}&#39;" in refused.text
        assert started == []
        for runs, games in enumerate((" 40 ", ""), 1):  # empty: the game's default
            assert client.post("/check", data={"games": games}, follow_redirects=False).status_code == 303
            deadline = time.monotonic() + 10
            while len(started) < runs:
                assert time.monotonic() < deadline, "the check did not start"
                time.sleep(0.01)
        assert started == [40, None]


@pytest.mark.slow
def test_a_downloaded_log_is_continued_or_stepped_through(me):
    with client_for(me) as client:
        table = table_for(client, ["person", "greedy", "greedy"])
        for _ in range(3):
            click_something(client, table, client.get(table).text)
        log = client.get(f"{table}/log.yaml").text
        events = len(re.findall(r"^\s*- ", log, re.M))
        seats = {"seat0": "person", "seat1": "greedy", "seat2": "greedy"}
        continued = client.post("/table/load", data=seats, files={"log": ("game.yaml", log.encode())})
        assert continued.status_code == 200 and client.get(table).text.count('class="move"') == continued.text.count('class="move"')
        stepped = client.post("/table/load", data=seats | {"step": "1"}, files={"log": ("game.yaml", log.encode())})
        assert stepped.text.count("<tr><td>") == events  # one row per event of the log
        broken = client.post("/table/load", data=seats, files={"log": ("game.yaml", b"game: mission-emission\nevents: [{seat: 9, play: Atlantis}]\n")})
        assert broken.status_code == 400 and 'class="problem"' in broken.text and "Traceback" not in broken.text


def form_fields(html: str, form_id: str) -> dict[str, list[str]]:
    """The fields a browser submits with form ``form_id`` of a page: those inside it and those
    elsewhere naming it in a ``form`` attribute; each name with its menu's options (a select),
    its value (another input) or ``[]``."""
    from html.parser import HTMLParser

    class Fields(HTMLParser):
        def __init__(self):
            super().__init__()
            self.inside, self.select, self.fields = False, None, {}

        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            if tag == "form":
                self.inside = attrs.get("id") == form_id
            owned = attrs.get("form", form_id if self.inside else None) == form_id
            if tag in ("input", "select", "textarea") and owned and attrs.get("name") and attrs.get("type") != "submit":
                self.fields[attrs["name"]] = [attrs["value"]] if tag == "input" and "value" in attrs else []
            self.select = attrs.get("name") if tag == "select" and owned else self.select if tag == "option" else None
            if tag == "option" and self.select:
                self.fields[self.select].append(attrs.get("value", ""))

        def handle_endtag(self, tag):
            if tag == "form":
                self.inside = False

    parser = Fields()
    parser.feed(html)
    return parser.fields


@pytest.mark.slow
def test_the_load_form_sends_the_seats_chosen_for_a_loaded_game(me):
    """The page's own load form has seat menus: a loaded game goes on with the bots chosen there,
    a seat left as it is plays as a person."""
    with client_for(me) as client:
        table = table_for(client, ["person", "person", "person"])
        click_something(client, table, client.get(table).text)
        log = client.get(f"{table}/log.yaml").content
        fields = form_fields(client.get("/table").text, "load")
        assert {"log", "step", "seat0", "seat1", "seat2"} <= set(fields)
        assert "greedy" in fields["seat1"] and "random" in fields["seat2"] and fields["seat0"][0] == "person"
        chosen = {name: options[0] for name, options in fields.items() if name.startswith("seat")} | {"seat1": "greedy", "seat2": "random"}
        loaded = client.post("/table/load", data=chosen, files={"log": ("game.yaml", log)})
        assert loaded.status_code == 200, loaded.text
        assert "Seats: 0: person, 1: greedy, 2: random" in loaded.text


@pytest.mark.slow
def test_an_uploaded_logs_errors_name_the_uploaded_file(me):
    """Every message about an uploaded log names the file as it was uploaded (escaped), never the
    temporary copy the studio reads it from."""
    with client_for(me) as client:
        no_players = b"game: mission-emission\nevents: []\n"
        cases = [("my <game>.yaml", no_players, {}), ("my <game>.yaml", no_players, {"step": "1"}),
                 ("my <game>.yaml", b"game: [\n", {}), ("my <game>.yaml", b"\xff\xfe", {}),
                 ("my <game>.jsonl", b"{not json\n", {}), ("C:\\logs\\my <game>.yaml", no_players, {})]
        for name, data, extra in cases:
            refused = client.post("/table/load", data={"seat0": "person"} | extra, files={"log": (name, data)})
            problem = re.search(r'<div class="problem" role="alert">(.*?)</div>', refused.text, re.S).group(1)
            assert refused.status_code == 400 and problem.startswith("my &lt;game&gt;.")  # the name, escaped
            assert "uploaded" not in problem and "tmp" not in problem, problem


@pytest.mark.slow
def test_the_variants_check_runs_on_demand_and_links_its_report_and_its_preview():
    import time
    from urllib.parse import urljoin

    studio = Studio(VARIANTS / "geheime-mission-softer-00-agents.yaml", dpi=40)
    with authorised(TestClient(create_app(studio, watch=False), base_url="http://127.0.0.1"), studio) as client:
        assert "Run the check" in client.get("/check").text
        client.post("/check", data={"games": "40"})
        for _ in range(600):
            page = client.get("/check").text
            if 'id="verdict"' in page or "could not finish" in page:
                break
            assert "Running:" in page  # the stage is shown while it runs
            time.sleep(0.1)
        assert 'id="verdict"' in page and re.search(r"Verdict: <strong>(accept|review|reject)</strong>", page)
        report = client.get("/check/report")
        assert report.status_code == 200 and "Softer 00 agents" in report.text
        link = re.search(r'<a[^>]*href="([^"]*)"[^>]*>[^<]*preview', report.text, re.I).group(1)
        preview = client.get(urljoin("http://127.0.0.1/check/report", link))  # where the browser goes
        assert preview.status_code == 200 and preview.headers["content-type"] == "application/pdf"
        assert preview.content.startswith(b"%PDF")
        folder = studio.check.report_html.parent
        assert folder.is_dir()
    assert not folder.exists()  # the check's report and preview leave with the studio


@pytest.mark.slow
def test_a_shipped_variant_is_played_to_the_end_and_its_log_replays_with_the_variant(cli, tmp_path):
    """The studio end to end: a shipped variant's game against a bot, to the end; the downloaded log
    replays with the command the page gives (the variant's agents, not the shipped ones)."""
    variant = VARIANTS / "geheime-mission-softer-00-agents.yaml"
    with client_for(variant) as client:
        table = table_for(client, ["person", "greedy"], mode=None, seed=2)
        for _ in range(300):
            page = client.get(table).text
            if 'id="result"' in page:
                break
            click_something(client, table, page)
        result = re.search(r'<div class="result" id="result"><h2>Game over</h2><p>([^<]+)</p>', page).group(1)
        winners = str([int(s) for s, mark in re.findall(r"seat (\d+): [-\d.]+( \((?:winner|shared best)\))?", result) if mark])
        command = re.search(r'<code id="replay">([^<]+)</code>', page).group(1)
        assert command.endswith(f"--content {variant.name}")
        log = tmp_path / "game.yaml"
        log.write_text(client.get(f"{table}/log.yaml").text, encoding="utf-8")
    replayed = cli("replay", log, "--content", variant, "--format", "json")
    assert replayed.exit_code == 0, replayed.output
    assert str(json.loads(replayed.stdout)["winners"]).replace(" ", "") == winners.replace(" ", "")
    shipped = cli("replay", log)  # the shipped agents are not the variant's: replay says so
    assert "recorded with other content" in shipped.output + shipped.stderr


@pytest.mark.slow
def test_a_variant_over_a_game_folder_does_not_offer_a_replay_command_that_plays_another_game(me):
    """``studio VARIANT --content FOLDER``: deckpress replay takes one --content, and a variant
    there is played over the shipped game, so the page names no such command; it says where the
    log replays (in the studio, over that folder), and the log does replay there."""
    variant = VARIANTS / "mission-emission-set-collection.yaml"
    studio = Studio(variant, me, dpi=20)
    with authorised(TestClient(create_app(studio, watch=False), base_url="http://127.0.0.1"), studio) as client:
        table = table_for(client, ["person", "greedy", "greedy", "greedy"], mode=None)
        page = client.get(table).text
        hint = re.search(r'<span id="replay">(.*?)</span>', page, re.S).group(1)
        assert "deckpress replay" in hint and "--content" not in hint
        assert "in this studio only" in hint and f"not over {me}" in hint
        log = client.get(f"{table}/log.yaml").content
        loaded = client.post("/table/load", data={"seat1": "greedy", "seat2": "greedy", "seat3": "greedy"},
                             files={"log": ("game.yaml", log)})
        assert loaded.status_code == 200 and "Seats: 0: person, 1: greedy, 2: greedy, 3: greedy" in loaded.text
    with client_for(variant) as client:  # over the shipped game: the command that replays it
        page = client.get(table_for(client, ["person", "greedy", "greedy", "greedy"], mode=None)).text
        assert re.search(r'<code id="replay">deckpress replay mission-emission-t1\.yaml --content mission-emission-set-collection\.yaml</code>', page)


def test_a_variants_table_starts_with_the_variants_own_rules():
    """Mission Emission's Set collection variant changes no card, only rules: its table must play
    them (set_collection on, the base ruleset, its four players), as the form fills them in."""
    with client_for(VARIANTS / "mission-emission-set-collection.yaml") as client:
        form = client.get("/table").text
        assert re.search(r'<textarea name="params"[^>]*>set_collection=true</textarea>', form)
        assert '<option value="base" selected>' in form
        selects = re.findall(r'<select name="(seat\d)" id="seat\d">(.*?)</select>', form, re.S)
        seats = [(name, chosen.group(1)) for name, options in selects if (chosen := re.search(r'<option value="([^"]*)" selected', options))]
        data = dict(seats) | {"params": "set_collection=true", "ruleset": "base", "seed": "1"}
        assert len(seats) == 4
        table = client.post("/table", data=data, follow_redirects=False).headers["location"]
        rules = re.search(r'<p id="rules">(.*?)</p>', client.get(table).text).group(1)
        assert "set_collection=true" in rules and "players=4" in rules and 'mode="base"' in rules


@pytest.mark.parametrize("game", ["mission-emission", "fifty-missions", "maybe-missions", "geheime-mission"])
def test_every_game_with_rules_offers_its_table(game):
    """The table's setup page of every engine game: its seats, its bots (the search bot too), and
    its modes where it has them (Maybe Missions and Geheime Mission have none)."""
    with client_for(CONTENT_DIR / game) as client:
        page = client.get("/table")
        assert page.status_code == 200, page.text
        assert 'id="seat0"' in page.text and '<option value="ismcts"' in page.text
        assert ('id="mode"' in page.text) == (game in ("mission-emission", "fifty-missions"))


@pytest.mark.slow
def test_a_variant_saved_by_rename_again_and_again_updates_the_page_each_time(tmp_path):
    """Editors save by writing a new file and renaming it over the old one (vim, ``sed -i``, a
    safe write): the variant's studio must see every such save, and in-place saves after them."""
    import os
    import time
    import urllib.request

    from deckpress.generator.studio.server import running

    variant = tmp_path / "v.yaml"
    text = (VARIANTS / "mission-emission-set-collection.yaml").read_text(encoding="utf-8")
    variant.write_text(text, encoding="utf-8")
    studio = Studio(variant, dpi=20)
    with running(studio) as url:
        for save, how in enumerate(["rename", "rename", "rename", "in place", "rename"], 1):
            saved = text.replace("name: Set collection", f"name: Saved {save} times")
            if how == "rename":
                new = tmp_path / ".v.yaml.new"
                new.write_text(saved, encoding="utf-8")
                os.replace(new, variant)
            else:
                variant.write_text(saved, encoding="utf-8")
            deadline = time.monotonic() + 30
            opened = urllib.request.Request(url, headers={"Authorization": f"token {studio.secret}"})
            while f"<title>Saved {save} times" not in urllib.request.urlopen(opened, timeout=10).read().decode():
                assert time.monotonic() < deadline, f"save {save} ({how}) never reached the page"
                time.sleep(0.05)


# -- what only its user may do, and what no request may take --------------------------------------

def test_the_studio_refuses_every_request_without_its_secret(me):
    studio = Studio(me, dpi=20)
    with TestClient(create_app(studio, watch=False), base_url="http://127.0.0.1") as stranger:
        for method, url in [("get", "/"), ("get", "/table"), ("get", "/events"), ("get", "/card/x.png"), ("post", "/table"),
                            ("get", f"/?token={studio.secret[:-1]}x"), ("get", "/?token=")]:
            refused = getattr(stranger, method)(url, follow_redirects=False)
            assert refused.status_code == 403, url
            assert "needs the address it printed when it started" in refused.text and studio.secret not in refused.text
        assert stranger.get("/", headers={"authorization": f"token {studio.secret}"}).status_code == 200  # a script's way
        opened = stranger.get(f"/table?seat=1&token={studio.secret}", follow_redirects=False)
        assert opened.status_code == 303 and opened.headers["location"] == "/table?seat=1"  # the secret leaves the address
        assert stranger.get("/table").status_code == 200  # the cookie carries it from then on


@pytest.mark.slow
def test_two_studios_have_different_secrets_and_table_ids_that_cannot_be_counted(me):
    assert Studio(me, dpi=20).secret != Studio(me, dpi=20).secret
    with client_for(me) as client:
        tables = {table_for(client, ["person", "greedy"]) for _ in range(3)}
        assert len(tables) == 3
        for table in tables:
            ident = table.rsplit("/", 1)[1]
            assert len(ident) >= 20 and not re.fullmatch(r"t\d+", ident)
        assert client.get("/table/t1").status_code == 404


def _raw_post(url: str, path: str, headers: dict[str, str], body_chunks=()) -> tuple[bytes, int]:
    """POST on a raw socket; returns (the answer's bytes, the body bytes sent before the studio
    answered or hung up)."""
    import socket
    import threading
    from urllib.parse import urlsplit

    where = urlsplit(url)
    sock = socket.create_connection((where.hostname, where.port), timeout=20)
    answer = bytearray()

    def read() -> None:
        try:
            while chunk := sock.recv(65536):
                answer.extend(chunk)
        except OSError:
            pass

    reader = threading.Thread(target=read)
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
    sock.sendall(head.encode("ascii"))
    reader.start()
    sent = 0
    try:
        for chunk in body_chunks:
            if answer:
                break
            sock.sendall(chunk)
            sent += len(chunk)
    except OSError:
        pass
    reader.join(20)
    sock.close()
    return bytes(answer), sent


def test_an_upload_over_the_limit_is_refused_by_its_length_before_a_byte_is_read(me, tmp_path, monkeypatch):
    """A 1 GB POST /table/load is answered 413 at once, from its Content-Length, with nothing
    sent after the headers; any other route takes a form's size; and a body without a length
    (chunked) is cut off at the limit, not read to its end."""
    import tempfile

    from deckpress.generator.studio.app import MAX_FORM_BYTES, MAX_UPLOAD_BYTES
    from deckpress.generator.studio.server import running

    spool = tmp_path / "spool"
    spool.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spool))  # where an upload would be written
    studio = Studio(me, dpi=20)
    auth = {"Authorization": f"token {studio.secret}"}
    with running(studio, watch=False) as url:
        form = "multipart/form-data; boundary=xyz"
        answer, _ = _raw_post(url, "/table/load", auth | {"Content-Type": form, "Content-Length": str(10**9)})
        assert answer.startswith(b"HTTP/1.1 413") and f"over {MAX_UPLOAD_BYTES:,} bytes".encode() in answer
        answer, _ = _raw_post(url, "/table", auth | {"Content-Type": "application/x-www-form-urlencoded",
                                                     "Content-Length": str(MAX_FORM_BYTES + 1)})
        assert answer.startswith(b"HTTP/1.1 413")
        answer, _ = _raw_post(url, "/table/load", auth | {"Content-Length": "1e9"})
        assert re.match(rb"HTTP/1.1 4(00|13)", answer)  # not a length: refused (by uvicorn itself)
        part = b"--xyz\r\nContent-Disposition: form-data; name=\"log\"; filename=\"big.yaml\"\r\n\r\n"
        chunks = (f"{len(c):x}\r\n".encode() + c + b"\r\n" for c in [part] + [b"x" * 2**20] * 1024)  # 1 GB, chunked
        answer, sent = _raw_post(url, "/table/load", auth | {"Content-Type": form, "Transfer-Encoding": "chunked"}, chunks)
        assert answer.startswith(b"HTTP/1.1 413")
        assert sent < 64 * 2**20, f"{sent:,} bytes were taken before the refusal"
        assert sum(f.stat().st_size for f in spool.rglob("*") if f.is_file()) <= MAX_UPLOAD_BYTES
        assert studio.tables == {}


def _descendants(pid: int) -> set[int]:
    """The living processes below ``pid`` (a zombie waiting to be reaped counts as ended)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = set(), [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP", "SIGINT"])
def test_stopping_the_studio_ends_a_running_check_and_its_workers(sig):
    """Closing the terminal (SIGHUP), ``kill`` (SIGTERM) or Ctrl-C (SIGINT) while a check runs:
    the check's process and its workers end with the studio, not tens of seconds later."""
    import os
    import signal
    import subprocess
    import sys
    import time
    import urllib.request

    if not Path("/proc/self/stat").exists():
        pytest.skip("needs /proc to see the studio's child processes")
    variant = VARIANTS / "geheime-mission-softer-00-agents.yaml"
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from deckpress.generator.cli import main; sys.exit(main())",
                             "studio", str(variant), "--no-browser", "--no-watch", "--dpi", "50"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ | {"PYTHONUNBUFFERED": "1"})
    children: set[int] = set()
    try:
        line = proc.stdout.readline()
        url = re.search(r"(http://\S+?/)\?token=(\S+)", line)
        assert url, line + proc.stderr.read()
        base, secret = url.groups()
        started = urllib.request.Request(base + "check", data=b"games=100000", method="POST",
                                         headers={"Authorization": f"token {secret}",
                                                  "Content-Type": "application/x-www-form-urlencoded"})
        urllib.request.urlopen(started, timeout=60).read()
        deadline = time.monotonic() + 120
        while len(children := _descendants(proc.pid)) < 3:  # the check's process and its two workers
            assert time.monotonic() < deadline, f"the check never started its workers: {children}"
            time.sleep(0.1)
        proc.send_signal(getattr(signal, sig))
        deadline = time.monotonic() + 5  # "within a second", with room for a loaded machine
        while (left := {p for p in children if _alive(p)}) or proc.poll() is None:
            assert time.monotonic() < deadline, f"still running after {sig}: the studio {proc.poll()}, children {left}"
            time.sleep(0.05)
        assert "Traceback" not in proc.stderr.read()
    finally:
        for pid in _descendants(proc.pid) | children | {proc.pid}:
            with __import__("contextlib").suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        proc.wait(10)

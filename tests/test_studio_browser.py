"""deckpress studio in a real browser: Debian's Chromium, headless, driven by
Selenium.  The studio runs on a temporary copy of a shipped game with its file watcher on, so an
edit saved to the YAML reaches the page by itself.  Screenshots of the cards page and the table
are saved in the test's temporary folder (the README's pictures were made the same way).

The tests skip, saying why, where Chromium and its driver are not installed; ``.ci/run`` installs
them (``apt-get install chromium chromium-driver``), so they run in CI.
"""
from __future__ import annotations

import contextlib
import re
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckpress.generator.cli import main
from deckpress.generator.paths import CONTENT_DIR
from deckpress.generator.studio.app import Studio
from deckpress.generator.studio.server import running

CHROMIUM, DRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
pytestmark = pytest.mark.skipif(not (CHROMIUM.exists() and DRIVER.exists()),
                                reason="Debian's chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)")
#: Longest wait for the page to show a change, s: far above the studio's one-second target, so
#: that a loaded machine never fails the test (benchmarks/studio.py measures the speed).
WAIT_S = 30


@pytest.fixture
def browser(tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(argument)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads), "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    driver.downloads = downloads
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def me(tmp_path) -> Path:
    folder = tmp_path / "me"
    shutil.copytree(CONTENT_DIR / "mission-emission", folder)
    return folder


@contextlib.contextmanager
def opened(browser, studio: Studio, watch: bool = True):
    """Run ``studio`` and open it in ``browser`` as its user does, from the address with its
    secret (``?token=``); yields the address without it, which the cookie now opens."""
    with running(studio, watch=watch) as url:
        browser.get(f"{url}?token={studio.secret}")
        assert "token" not in browser.current_url  # the studio took the secret out of the address
        yield url


def wait_for(predicate, what: str, timeout: float = WAIT_S):
    """Poll ``predicate`` until it returns something true; fail naming ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = predicate()
        except Exception:  # the page is being replaced under us: try again
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"the page did not show {what} within {timeout} s")
        time.sleep(0.05)


def click_and_wait(driver, element) -> None:
    """Click ``element`` (a form's button) and wait until the page it leads to has replaced it."""
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    element.click()
    WebDriverWait(driver, WAIT_S).until(expected_conditions.staleness_of(element))


def face_of(driver, card_id: str) -> str:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, f'article[data-id="{card_id}"] img.face').get_attribute("src")


@pytest.mark.slow
def test_cards_change_on_the_page_as_the_yaml_is_edited_broken_and_fixed(browser, me, tmp_path):
    from selenium.webdriver.common.by import By

    with opened(browser, Studio(me, dpi=60)):
        cards = browser.find_elements(By.CSS_SELECTOR, "article.card")
        assert len(cards) == 36 + 18
        browser.save_screenshot(str(tmp_path / "studio-cards.png"))
        before = face_of(browser, "goa")

        states = me / "states.yaml"
        text = states.read_text(encoding="utf-8")
        states.write_text(text.replace("name: Goa", "name: Goa Velha", 1), encoding="utf-8")
        wait_for(lambda: face_of(browser, "goa") != before, "Goa's new image")
        assert "Goa Velha" in browser.find_element(By.CSS_SELECTOR, 'article[data-id="goa"]').text
        assert face_of(browser, "kerala").endswith("v=1")  # the cards not edited were not drawn again

        line = next(i for i, row in enumerate(text.splitlines(), 1) if "name: Goa" in row)
        states.write_text(text.replace("name: Goa", "name: Goa: Velha", 1), encoding="utf-8")
        errors = wait_for(lambda: browser.find_element(By.CSS_SELECTOR, ".errors").text, "the YAML error")
        assert re.search(rf"states\.yaml:{line}:\d+", errors), errors
        assert browser.find_elements(By.CSS_SELECTOR, "article.card.stale")

        states.write_text(text, encoding="utf-8")
        wait_for(lambda: browser.find_element(By.ID, "valid"), "the errors cleared")


def clickables(driver) -> list:
    """The table's clickable cards, piles and buttons (drawn by the scene's script), in the page's order."""
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, "#table [data-action]")


def click_in_scene(driver, element) -> str | None:
    """Click ``element`` of the table and wait until the script has drawn the new scene (the
    element replaced) or shown a refusal; returns the refusal's words, or None."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    driver.execute_script("var p = document.getElementById('scene-problem'); p.textContent = ''; p.hidden = true;")
    element.click()  # StaleElementReferenceException: the script redrew the table first (click_a_legal_one tries again)

    def settled():
        shown = driver.find_element(By.ID, "scene-problem")
        if shown.is_displayed() and shown.text:
            return shown.text
        try:
            element.is_enabled()
        except StaleElementReferenceException:
            return "redrawn"
        return None

    said = wait_for(settled, "the table's answer to a click")
    return None if said == "redrawn" else said


def click_a_legal_one(driver) -> int:
    """Click the table's cards, piles and buttons in turn until one is taken (a move played or a
    card chosen); each refused click shows the engine's reason.  Returns how many were refused."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    wait_for(lambda: clickables(driver), "the table drawn with something to click")
    refused, i, redrawn = 0, 0, 0
    while i < len(clickables(driver)) and redrawn < 50:
        targets = clickables(driver)
        if i >= len(targets):
            break
        try:
            said = click_in_scene(driver, targets[i])
        except StaleElementReferenceException:  # redrawn under the click: the same place again
            redrawn += 1
            time.sleep(0.1)
            continue
        if said is None:
            return refused
        refused, i = refused + 1, i + 1
    raise AssertionError(f"no click on the table is taken: {driver.find_element(By.TAG_NAME, 'main').text}")


def shown_text(driver, ident: str) -> str:
    """The text of element ``ident``, read at once (the scene's script may redraw it at any time)."""
    return driver.execute_script("return document.getElementById(arguments[0]).textContent", ident)


def finished(driver) -> bool:
    """Whether the table's scene says the game is over (its result in the prompt, nothing to click)."""
    from selenium.webdriver.common.by import By

    prompt = wait_for(lambda: driver.find_element(By.ID, "prompt").text, "the table drawn")
    return not clickables(driver) and bool(re.search(r"seat 0: -?\d+|team", prompt))


@pytest.mark.slow
def test_a_whole_base_game_is_played_in_the_browser_and_its_log_replays(browser, me, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    with opened(browser, Studio(me, dpi=40), watch=False) as url:
        browser.get(url + "table")
        Select(browser.find_element(By.ID, "seat0")).select_by_value("person")
        Select(browser.find_element(By.ID, "seat1")).select_by_value("greedy")
        Select(browser.find_element(By.ID, "seat2")).select_by_value("random")
        Select(browser.find_element(By.ID, "seat3")).select_by_value("")
        Select(browser.find_element(By.ID, "mode")).select_by_value("base")
        click_and_wait(browser, browser.find_element(By.ID, "start"))
        browser.save_screenshot(str(tmp_path / "studio-table.png"))
        for _ in range(300):
            if finished(browser):
                break
            click_a_legal_one(browser)
        browser.get(browser.current_url)  # the page again: the result above the table
        result = browser.find_element(By.ID, "result").text
        assert "Game over" in result
        browser.find_element(By.ID, "download").click()
        log = wait_for(lambda: next((p for p in browser.downloads.glob("*.yaml")), None), "the downloaded log")
    replayed = CliRunner().invoke(main, ["replay", str(log), "--content", str(me)])
    assert replayed.exit_code == 0, replayed.output


@pytest.mark.slow
def test_a_log_loaded_in_the_browser_goes_on_with_the_bots_chosen_in_the_load_form(browser, me):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    with opened(browser, Studio(me, dpi=40), watch=False) as url:
        browser.get(url + "table")
        for seat, who in enumerate(["person", "person", "person", ""]):
            Select(browser.find_element(By.ID, f"seat{seat}")).select_by_value(who)
        Select(browser.find_element(By.ID, "mode")).select_by_value("base")
        click_and_wait(browser, browser.find_element(By.ID, "start"))
        click_a_legal_one(browser)
        browser.find_element(By.ID, "download").click()
        log = wait_for(lambda: next((p for p in browser.downloads.glob("*.yaml")), None), "the downloaded log")

        browser.get(url + "table")
        browser.find_element(By.CSS_SELECTOR, '#load input[name="log"]').send_keys(str(log))
        Select(browser.find_element(By.ID, "load-seat1")).select_by_value("greedy")
        Select(browser.find_element(By.ID, "load-seat2")).select_by_value("random")
        click_and_wait(browser, browser.find_element(By.ID, "load-start"))
        assert "Seats: 0: person, 1: greedy, 2: random" in browser.find_element(By.TAG_NAME, "main").text


@pytest.mark.slow
def test_an_illegal_move_clicked_in_the_browser_shows_the_reason(browser, me):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    with opened(browser, Studio(me, dpi=40), watch=False) as url:
        browser.get(url + "table")
        Select(browser.find_element(By.ID, "seat0")).select_by_value("person")
        Select(browser.find_element(By.ID, "mode")).select_by_value("base")
        click_and_wait(browser, browser.find_element(By.ID, "start"))
        # Seat 0 opens the first round by choosing a mission: a card of the hand is not one.
        assert "choose a mission" in wait_for(lambda: browser.find_element(By.ID, "prompt").text, "the prompt")
        problem = click_in_scene(browser, browser.find_elements(By.CSS_SELECTOR, "#zone-hand-0 button.tcard")[0])
        assert problem == "phase.wrong: seat 0 chooses the mission first, then plays a card", problem


@pytest.mark.slow
def test_a_person_clicking_cards_plays_mission_emission_to_the_end_against_three_bots(browser, me, tmp_path):
    """The table as a person plays it: the mission chosen by clicking its pile, a card played by
    clicking it, the bots answering; a card clicked out of turn is refused with the engine's
    reason; the game ends with its result, the other hands shown as backs all along."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    with opened(browser, Studio(me, dpi=40), watch=False) as url:
        browser.get(url + "table")
        for seat, who in enumerate(["person", "greedy", "random", "greedy"]):
            Select(browser.find_element(By.ID, f"seat{seat}")).select_by_value(who)
        Select(browser.find_element(By.ID, "mode")).select_by_value("base")
        click_and_wait(browser, browser.find_element(By.ID, "start"))
        wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#zone-hand-0 button.tcard"), "the hand drawn")
        refused = click_in_scene(browser, browser.find_elements(By.CSS_SELECTOR, "#zone-hand-0 button.tcard")[0])
        assert refused == "phase.wrong: seat 0 chooses the mission first, then plays a card"
        assert click_in_scene(browser, browser.find_element(By.CSS_SELECTOR, "#zone-piles-forest")) is None
        assert "Mission of this round: Forest" in shown_text(browser, "prompt")
        assert "You chose the mission Forest" in shown_text(browser, "log")
        for _ in range(20):  # the script redraws the table after each move (the answer, then its event): try again then
            try:
                hand = browser.find_elements(By.CSS_SELECTOR, "#zone-hand-0 button.tcard")
                card = hand[0].get_attribute("data-label")
                assert click_in_scene(browser, hand[0]) is None
                break
            except StaleElementReferenceException:
                time.sleep(0.1)
        assert f"You played {card}" in shown_text(browser, "log")
        for _ in range(300):
            if finished(browser):
                break
            backs = browser.execute_script("return Array.from(document.querySelectorAll('#zone-hand-1 img'), i => i.alt)")
            assert backs and all(alt == "card back" for alt in backs)  # read at once: the script may redraw at any time
            click_a_legal_one(browser)
        assert finished(browser)
        browser.get(browser.current_url)
        assert "Game over" in browser.find_element(By.ID, "result").text
        assert re.search(r"seat 0: -?\d+", browser.find_element(By.ID, "result").text)
        browser.save_screenshot(str(tmp_path / "mission-emission-over.png"))


@pytest.mark.slow
def test_the_cut_line_and_safe_area_are_drawn_over_the_cards_on_demand(browser, game_copy, tmp_path):
    from selenium.webdriver.common.by import By

    folder = game_copy("fifty-missions")  # poker-size symbol cards and round mission cards
    with opened(browser, Studio(folder, dpi=40)):
        guide = 'article[data-id="{}"] img.face ~ .guide.{}'
        assert not browser.find_element(By.CSS_SELECTOR, guide.format("lighter-1-1", "cut")).is_displayed()
        browser.find_element(By.ID, "show-guides").click()

        def inset(card_id: str, name: str) -> tuple[float, float, float, float]:
            """The guide's distance from each edge of the card's image, in percent of the image."""
            return browser.execute_script(
                "const g = arguments[0].getBoundingClientRect(), i = arguments[1].getBoundingClientRect();"
                "return [(g.left - i.left) / i.width, (g.top - i.top) / i.height, (i.right - g.right) / i.width,"
                " (i.bottom - g.bottom) / i.height].map(v => 100 * v);",
                browser.find_element(By.CSS_SELECTOR, guide.format(card_id, name)),
                browser.find_element(By.CSS_SELECTOR, f'article[data-id="{card_id}"] img.face'))

        # a 63 x 88 mm card with 3 mm bleed: its image is 69 x 94 mm; cut 3 mm in, safe area 3 mm more
        assert inset("lighter-1-1", "cut") == pytest.approx([300 / 69, 300 / 94, 300 / 69, 300 / 94], abs=0.5)
        assert inset("lighter-1-1", "safe") == pytest.approx([600 / 69, 600 / 94, 600 / 69, 600 / 94], abs=0.5)
        mission = browser.find_element(By.CSS_SELECTOR, "article.card img.face ~ .guide.cut.round")
        assert mission.is_displayed() and mission.value_of_css_property("border-top-left-radius") == "50%"
        browser.save_screenshot(str(tmp_path / "studio-guides.png"))

        browser.refresh()  # the switch is remembered
        assert browser.find_element(By.ID, "show-guides").is_selected()
        assert browser.find_element(By.CSS_SELECTOR, guide.format("lighter-1-1", "safe")).is_displayed()


@pytest.mark.slow
def test_the_studio_opens_from_the_address_it_prints_and_nowhere_else(browser, tmp_path):
    """``deckpress studio`` as its user runs it: the address it prints opens the cards (its secret
    kept in a cookie, gone from the address bar); another browser without the secret, or a
    guessed one, sees a page saying where to find the address, and none of the cards."""
    import os
    import signal
    import subprocess
    import sys

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    proc = subprocess.Popen([sys.executable, "-c", "import sys; from deckpress.generator.cli import main; sys.exit(main())",
                             "studio", "maybe-missions", "--no-browser", "--no-watch", "--dpi", "50"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ | {"PYTHONUNBUFFERED": "1"})
    try:
        printed = proc.stdout.readline()
        address = re.search(r"(http://\S+?/)\?token=\S+", printed)
        assert address, printed + proc.stderr.read()
        browser.get(address.group(0))
        wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "article.card"), "the cards")
        assert browser.current_url == address.group(1)
        browser.save_screenshot(str(tmp_path / "studio-opened.png"))
        browser.get(address.group(1) + "table")
        assert browser.find_element(By.ID, "seat0")  # the cookie opens the other pages

        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
            options.add_argument(argument)
        stranger = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
        try:
            for url in (address.group(1), address.group(1) + "table", address.group(1) + "?token=guessed"):
                stranger.get(url)
                shown = stranger.find_element(By.TAG_NAME, "main").text
                assert "needs the address it printed when it started" in shown, url
                assert not stranger.find_elements(By.CSS_SELECTOR, "article.card")
            stranger.save_screenshot(str(tmp_path / "studio-refused.png"))
        finally:
            stranger.quit()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()


def _chrome():
    """Another browser, as on another person's device: it shares nothing with ``browser``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(str(DRIVER)), options=options)


def _shot(driver, tmp_path: Path, name: str) -> None:
    """A screenshot in the test's folder (and in $DECKPRESS_SCREENSHOTS when set, to look at)."""
    import os

    driver.save_screenshot(str(tmp_path / name))
    if os.environ.get("DECKPRESS_SCREENSHOTS"):
        Path(os.environ["DECKPRESS_SCREENSHOTS"]).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(os.environ["DECKPRESS_SCREENSHOTS"]) / name))


def _click(driver, css: str) -> None:
    """Click the element ``css`` finds, again if the page redrew it meanwhile (a live update)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    def clicked() -> bool:
        try:
            driver.find_element(By.CSS_SELECTOR, css).click()
        except StaleElementReferenceException:
            return False
        return True

    wait_for(clicked, f"{css} to click")


def _hand(driver, seat: int, where: str) -> list[str]:
    from selenium.webdriver.common.by import By

    return [c.get_attribute("data-label") for c in driver.find_elements(By.CSS_SELECTOR, f"{where} #zone-hand-{seat} .tcard")]


@pytest.mark.slow
def test_two_people_play_a_free_form_table_each_from_their_own_browser(browser, tmp_path):
    """A game made by ``deckpress init``, played free-form by two browsers at their seats' links:
    each sees its own hand and the other's backs; a card played shows on the other screen at
    once; a card edited during the game shows its new face there; the session's log, loaded
    back in the studio, sets the same table up."""
    import urllib.request

    from selenium.webdriver.common.by import By

    assert CliRunner().invoke(main, ["init", str(tmp_path / "mygame")]).exit_code == 0
    game = tmp_path / "mygame"
    studio = Studio(game, dpi=60)
    with opened(browser, studio) as url:
        browser.get(url + "table")
        browser.find_element(By.ID, "free-deal").clear()
        browser.find_element(By.ID, "free-deal").send_keys("2")
        browser.find_element(By.ID, "free-seed").send_keys("3")
        _shot(browser, tmp_path, "free-setup.png")
        click_and_wait(browser, browser.find_element(By.ID, "free-start"))
        host = browser.current_url
        one, two, _ = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "a.seat-link")]
        other = _chrome()
        try:
            browser.get(one)
            other.get(two)
            for driver, me, them in ((browser, 0, 1), (other, 1, 0)):
                wait_for(lambda d=driver, m=me: len(_hand(d, m, "#mine")) == 2, "the seat's own hand")
                assert "card back" not in _hand(driver, me, "#mine")  # its own cards, face up
                assert _hand(driver, them, "#opponents") == ["card back", "card back"]  # the other's, as backs
                assert "(you)" in driver.find_element(By.ID, "mine").text
            mine = _hand(browser, 0, "#mine")
            _shot(browser, tmp_path, "free-seat1.png")
            _shot(other, tmp_path, "free-seat2.png")

            # seat 1 plays its first card face up to the table; seat 2's page shows it by itself
            _click(browser, "#zone-hand-0 button.tcard")
            wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#zone-hand-0 .tcard.selected"), "the card chosen")
            _click(browser, "#zone-table")
            played = mine[0]
            shown = '#zone-table .tcard img'
            wait_for(lambda: other.find_element(By.CSS_SELECTOR, shown).get_attribute("alt") == played, "the played card on seat 2's page")
            assert other.find_element(By.ID, "log-lines").text.splitlines()[-1] == f"Seat 1 played {played} face up to Table"
            assert len(_hand(other, 0, "#opponents")) == 1

            # the designer renames that card: both pages show its new face
            cards = game / "cards.csv"
            before = other.find_element(By.CSS_SELECTOR, shown).get_attribute("src")
            cards.write_text(cards.read_text(encoding="utf-8").replace(f",{played},", f",{played} Reworked,", 1), encoding="utf-8")
            wait_for(lambda: other.find_element(By.CSS_SELECTOR, shown).get_attribute("alt") == f"{played} Reworked", "the new name")
            assert other.find_element(By.CSS_SELECTOR, shown).get_attribute("src") != before  # a new image
            wait_for(lambda: browser.find_element(By.CSS_SELECTOR, shown).get_attribute("alt") == f"{played} Reworked", "it on seat 1's page")
            _shot(other, tmp_path, "free-edited.png")

            # any seat may undo the last move: the card goes back to seat 1's hand on both pages
            _click(other, '#buttons button[data-action="undo"]')
            wait_for(lambda: not other.find_elements(By.CSS_SELECTOR, shown), "the undo on seat 2's page")
            _click(browser, "#zone-hand-0 button.tcard")
            wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#zone-hand-0 .tcard.selected"), "the card chosen")
            _click(browser, "#zone-table")
            wait_for(lambda: other.find_elements(By.CSS_SELECTOR, shown), "the card played again")
        finally:
            other.quit()

        # the session's log, loaded back in the studio, sets up the same table
        ident = host.rsplit("/", 1)[1]
        request = urllib.request.Request(f"{url}table/{ident}/log.yaml", headers={"Authorization": f"token {studio.secret}"})
        log = tmp_path / "session.yaml"
        log.write_bytes(urllib.request.urlopen(request, timeout=30).read())
        browser.get(url + "table")
        browser.find_element(By.CSS_SELECTOR, '#load input[name="log"]').send_keys(str(log))
        click_and_wait(browser, browser.find_element(By.ID, "load-start"))
        again = browser.current_url.rsplit("/", 1)[1]
        assert again != ident and studio.tables[again].table.table.state() == studio.tables[ident].table.table.state()
        wait_for(lambda: browser.find_element(By.CSS_SELECTOR, shown).get_attribute("alt") == f"{played} Reworked", "the replayed table")
        assert _hand(browser, 0, "#opponents") == ["card back"]  # the designer watches as a spectator
        _shot(browser, tmp_path, "free-replayed.png")

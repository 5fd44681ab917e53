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

    with opened(browser, Studio(me, dpi=60)) as url:
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
            if browser.find_elements(By.ID, "result"):
                break
            moves = browser.find_elements(By.CSS_SELECTOR, "button.move")
            assert moves, browser.find_element(By.TAG_NAME, "main").text
            click_and_wait(browser, moves[0])
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
        click_and_wait(browser, browser.find_elements(By.CSS_SELECTOR, "button.move")[0])
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
        assert "mission:" in browser.find_element(By.ID, "moves").text
        click_and_wait(browser, browser.find_elements(By.CSS_SELECTOR, "button.hand-card")[0])
        problem = browser.find_element(By.ID, "problem").text
        assert "mission" in problem.lower(), problem


@pytest.mark.slow
def test_the_cut_line_and_safe_area_are_drawn_over_the_cards_on_demand(browser, game_copy, tmp_path):
    from selenium.webdriver.common.by import By

    folder = game_copy("fifty-missions")  # poker-size symbol cards and round mission cards
    with opened(browser, Studio(folder, dpi=40)) as url:
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

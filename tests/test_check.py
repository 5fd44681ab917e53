"""deckpress check: from a fan's variant file to a verdict, safely.

The hostile corpus lives in tests/variants/hostile/ (one file per hazard of
docs/untrusted-input.md); the cases that need a generated file (10 MB, art, links) are
built here.  Each must end in a clear error or a reject: never a traceback.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from conftest import edit, line_of, on_a_terminal
from PIL import Image
from pypdf import PdfReader

from deckpress.generator.check import CheckOptions, run_check

HOSTILE = Path(__file__).parent / "variants" / "hostile"
HEADER = "extends: mission-emission\nname: Test\nauthor: A Fan\nversion: \"1.0\"\ndescription: A test variant.\n"
QUICK = CheckOptions(games=60, time_limit_s=30)


def variant(tmp_path: Path, body: str, name: str = "variant.yaml") -> Path:
    path = tmp_path / name
    path.write_text(HEADER + body, "utf-8")
    return path


def check(path: Path, **options):
    return run_check(path, CheckOptions(**{**QUICK.__dict__, **options}))


@pytest.mark.slow
@pytest.mark.parametrize("name, verdict, message", [
    ("alias-bomb.yaml", "unreadable", "YAML anchor '&a' is not allowed"),
    ("duplicate-keys.yaml", "unreadable", "duplicate key 'name' (first defined on line 2)"),
    ("python-tag.yaml", "unreadable", "YAML tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed"),
    ("yaml11-scalars.yaml", "reject", 'the text "on" is not one of: state, union-territory'),
    ("unknown-card.yaml", "reject", "replace.id: no card 'atlantis' in states.yaml"),
    ("unknown-game.yaml", "reject", "extends: 'monopoly' is not a shipped game"),
])
def test_hostile_corpus_is_refused_cleanly(name, verdict, message):
    report = check(HOSTILE / name, simulate=False)
    assert report.verdict == verdict
    assert any(message in str(e) for e in report.errors), [str(e) for e in report.errors]
    assert all(e.line > 0 for e in report.errors)  # every error has its line


def test_yaml_11_scalars_stay_strings_in_the_merge():
    # NO stays the string "NO" (a name, accepted) and 1:20 stays "1:20" (not the integer 80).
    report = check(HOSTILE / "yaml11-scalars.yaml", simulate=False)
    assert any('expected a whole number, found the text "1:20"' in str(e) for e in report.errors)


def test_ten_megabyte_file_is_unreadable(tmp_path):
    path = variant(tmp_path, "description2: " + "x" * (10 * 1024 * 1024) + "\n")
    report = check(path, simulate=False)
    assert report.verdict == "unreadable" and report.exit_code == 3
    assert "is larger than 256 KiB" in str(report.errors[0])


def test_deep_nesting_is_unreadable(tmp_path):
    report = check(variant(tmp_path, "parameters: {a: " + "[" * 5000 + "]" * 5000 + "}\n"), simulate=False)
    assert report.verdict == "unreadable" and "nesting is deeper than the limit of 16 levels" in str(report.errors[0])


def test_a_mistake_on_line_12_is_reported_at_line_12(tmp_path):
    body = ("changes:\n"                                                                          # line 6
            "  - replace: {file: states, id: goa, fields: {name: Goa}}\n"                         # 7
            "  - replace: {file: states, id: kerala, fields: {name: Kerala}}\n"                   # 8
            "  - replace: {file: states, id: assam, fields: {name: Assam}}\n"                     # 9
            "  - replace: {file: states, id: bihar, fields: {name: Bihar}}\n"                     # 10
            "  - replace: {file: states, id: punjab, fields: {name: Punjab}}\n"                   # 11
            "  - replace: {file: states, id: sikkim, fields: {values.water.value: -3}}\n")        # 12
    report = check(variant(tmp_path, body), simulate=False)
    assert report.verdict == "reject"
    [error] = report.errors
    line_12 = "  - replace: {file: states, id: sikkim, fields: {values.water.value: -3}}"
    assert (error.line, error.column) == (12, line_12.index("-3") + 1)
    assert error.message == "states[22] (Sikkim): Water value -3 is outside the mission's range 0..200 (missions.yaml)"


def test_absurd_and_unknown_parameters_are_rejected_at_their_line(tmp_path):
    report = check(variant(tmp_path, "parameters:\n  players: 1000000\n"), simulate=False)
    assert report.verdict == "reject" and report.errors[0].line == 7
    assert "players" in report.errors[0].message and "2..6" in report.errors[0].message
    report = check(variant(tmp_path, "parameters:\n  hand_size: 0\n", "b.yaml"), simulate=False)
    assert report.verdict == "reject" and report.errors[0].line == 7 and "hand_size" in report.errors[0].message
    report = check(variant(tmp_path, "parameters:\n  turbo: true\n", "c.yaml"), simulate=False)
    assert report.verdict == "reject" and "turbo" in report.errors[0].message and "players" in report.errors[0].message


@pytest.mark.parametrize("art, message", [
    ("../outside.png", "leaves the variant's folder"),
    ("/etc/passwd.png", "is an absolute path"),
    ("link.png", "leaves the variant's folder"),
    ("fake.png", "is not a readable PNG or JPEG image"),
    ("big.png", "pixels; the limit is 25,000,000 pixels"),
    ("picture.gif.png", "is a GIF image; only PNG and JPEG are accepted"),
])
def test_art_is_checked(tmp_path, art, message):
    folder = tmp_path / "fan"
    folder.mkdir()
    Image.new("RGB", (10, 10)).save(tmp_path / "outside.png")
    os.symlink(tmp_path / "outside.png", folder / "link.png")
    (folder / "fake.png").write_text("<html>not an image</html>")
    Image.new("1", (6000, 5000)).save(folder / "big.png")
    Image.new("RGB", (10, 10)).save(folder / "picture.gif.png", format="GIF")
    report = check(variant(folder, f"art: {{goa: \"{art}\"}}\n"), simulate=False)
    assert report.verdict == "reject"
    assert message in report.errors[0].message and report.errors[0].line == 6


def test_markup_and_template_syntax_print_literally(tmp_path):
    report = check(HOSTILE / "markup-in-text.yaml", simulate=False, preview_path=tmp_path / "preview.pdf")
    assert report.verdict == "accept"
    text = " ".join(page.extract_text() for page in PdfReader(tmp_path / "preview.pdf").pages)
    assert "<b>Goa{{7*7}}</b><img src=/x/>" in text


@pytest.mark.slow
def test_a_game_that_never_ends_is_rejected(tmp_path):
    # Every state card the same: every round of the base game is a tie, no point card is ever
    # won, so no pile ever finishes and the game cannot end (rulebook: ties give nothing).
    from deckpress.generator.content import load_game

    states = load_game("mission-emission")["states"]["states"]
    lines = ["changes:"] + [
        f"  - replace: {{file: states, id: {s['id']}, fields: {{" + ", ".join(f"values.{m}.value: 10" for m in s["values"]) + "}}"
        for s in states]
    report = check(variant(tmp_path, "\n".join(lines) + "\n"), games=20)
    assert report.verdict == "reject"
    assert "20 of 20 variant games did not end within the move bound" in report.reasons[0]


@pytest.mark.slow
def test_a_count_that_no_longer_matches_is_at_the_change_that_added_the_card(tmp_path):
    # an earlier change of the same file (a replace of Goa) is not where the count went wrong
    state = ("{id: ladakh, name: Ladakh, kind: union-territory, colour: forest, values: {"
             + ", ".join(f"{m}: {{value: 5, provenance: designed, source: a fan, year: 2026, confidence: low, method: chosen}}"
                         for m in ("forest", "energy", "water", "smoke", "crowd", "garbage"))
             + "}}")
    path = variant(tmp_path, "changes:\n  - replace: {file: states, id: goa, fields: {values.forest.value: 61}}\n"
                             f"  - add: {{file: states, card: {state}}}\n")
    report = check(path, simulate=False)
    count = next(e for e in report.errors if "37 records" in e.message)
    assert count.line == line_of(path, "- add:") and "fields: {count: 37}" in count.message


@pytest.mark.slow
def test_a_point_card_whose_value_changes_is_still_compared_with_itself(tmp_path):
    # The engine names a point card as printed: forest-bottom is "Forest +7" in the base game and
    # "Forest +9" in this variant.  Its share of games won is compared by the card's id, the
    # printed names both shown; before, the row was silently left out of the differences.
    report = check(variant(tmp_path, "changes:\n  - replace: {file: point-cards, id: forest-bottom, fields: {points: 9}}\n"), games=100)
    rows = [d["what"] for d in report.simulation["differences"]]
    assert "Point cards won (share of games): Forest +7 (now Forest +9)" in rows
    assert "Point cards won (share of games): Forest +5" in rows


@pytest.mark.slow
def test_simulated_check_writes_a_report_with_plots(tmp_path, cli):
    path = variant(tmp_path, "parameters: {players: 3}\nchanges:\n  - replace: {file: states, id: karnataka, fields: {values.forest.value: 40}}\n")
    result = cli("check", path, "--games", "200", "--report", tmp_path / "report", "--format", "json")
    data = json.loads(result.stdout)
    assert result.exit_code == data["exit_code"] == {"accept": 0, "review": 1, "reject": 2}[data["verdict"]]
    assert data["content_diff"]["lines"][0] == "~ states: karnataka: values.forest.value: 19 -> 40"
    assert "~ states: karnataka: values.forest.provenance: official -> designed" in data["content_diff"]["lines"]  # no source given
    assert data["preview_cards"] == ["karnataka"]
    sim = data["simulation"]
    assert sim["base"]["games"] == sim["variant"]["games"] == 200 and len(sim["variant"]["seats"]) == 3
    assert any(d["what"] == "seat 0 win rate" for d in sim["differences"])
    html = (tmp_path / "report" / "report.html").read_text()
    assert html.count('src="data:image/png;base64,') >= 2 and "Win rate per seat" in html
    assert json.loads((tmp_path / "report" / "report.json").read_text())["verdict"] == data["verdict"]
    # The report: the CLI's notation (JSON values), percentages and points, the preview linked
    seat0 = next(d for d in sim["differences"] if d["what"] == "seat 0 win rate")
    row = re.search(r"<tr><td>seat 0 win rate</td>(.*?)</tr>", html).group(1)
    assert f"{100 * seat0['base']:.1f} %" in row and f"{100 * seat0['delta']:+.1f} points" in row
    assert "~ parameter players: 4 -> 3" in html and "mode: \"base\"" in html  # JSON, never Python's reprs
    assert '<a href="preview.pdf">' in html and (tmp_path / "report" / "preview.pdf").is_file()
    assert "<dt>beyond the noise</dt>" in html
    # The skill signal is opt-in (--skill-games): skipped by default, said so, and null
    assert data["skill"] is None and "Skill signal" not in html
    assert {"name": "6. skill signal", "status": "skipped", "notes": ["opt-in: --skill-games N (a search bot plays: minutes, not seconds)"]} in data["stages"]


@pytest.mark.slow
def test_thresholds_decide_review(tmp_path, cli):
    path = variant(tmp_path, "parameters: {players: 2}\n")
    strict = tmp_path / "strict.yaml"
    strict.write_text("seat_advantage_pp: 0.001\n")
    result = cli("check", path, "--games", "400", "--bots", "greedy,random", "--thresholds", strict, "--report", tmp_path / "r")
    assert result.exit_code == 1 and "verdict: review" in result.stdout and "seat 0 wins" in result.stdout


@pytest.mark.slow
def test_skill_signal_of_base_and_variant_goes_into_the_report_and_its_threshold_can_send_to_review(tmp_path):
    # deckpress check shows how a variant moves the skill signal, and its thresholds can flag a
    # variant that makes skill matter much less.  A threshold of -100 flags any skill signal.
    example = Path(__file__).parent.parent / "content" / "variants" / "mission-emission-set-collection.yaml"
    flag_all = tmp_path / "flag-all.yaml"
    flag_all.write_text("skill_drop_points: -100\n")
    out, shown = on_a_terminal("check", str(example), "--games", "60", "--skill-games", "20", "--skill-iterations", "10",
                               "--thresholds", str(flag_all), "--report", str(tmp_path / "r"))
    assert "6. skill signal: base" in shown and "6. skill signal: variant" in shown and "/20" in shown
    data = json.loads((tmp_path / "r" / "report.json").read_text())
    skill = data["skill"]
    base, var = skill["base"], skill["variant"]
    for side in (base, var):
        assert side["bot"] == "ismcts:10" and side["against"] == "greedy" and side["games"] == 20 and side["players"] == 4
        assert side["even_share"] == 0.25 and [s["games"] for s in side["by_seat"]] == [5, 5, 5, 5]
        assert side["win_share_95"][0] <= side["win_share"] <= side["win_share_95"][1]
    assert skill["change_points"] == round(100 * (var["win_share"] - base["win_share"]), 2)
    # with the change's own 95 % interval (Newcombe's, for two win shares)
    from deckpress.rules.core.stats import difference_interval

    expected = difference_interval(20 * var["win_share"], 20, 20 * base["win_share"], 20)
    assert all(abs(got - 100 * want) < 0.02 for got, want in zip(skill["change_95"], expected))
    assert data["verdict"] == "review" and data["exit_code"] == 1
    reason = next(r for r in data["reasons"] if "the search bot's win share" in r)
    assert f"from {100 * base['win_share']:.1f} % to {100 * var['win_share']:.1f} %" in reason and "threshold -100" in reason
    stage = next(s for s in data["stages"] if s["name"] == "6. skill signal")
    assert stage["status"] == "passed" and stage["notes"][0] == "20 games per side, ismcts:10 in each seat in turn against greedy seats, seed 1"
    # 20 games cannot tell this weak search bot from greedy: the stage says what that means
    assert base["win_share_95"][0] <= 0.25 and stage["notes"][1:] == [
        "in the base game the ismcts:10 seat is not told apart from greedy seats over these games, so this signal cannot "
        "show a variant that takes skill away: more --skill-games, or --skill-bot rollout"]
    # what the terminal and the HTML page say
    assert "verdict: review" in out and reason in out
    assert f"    base: the ismcts:10 seat won {100 * base['win_share']:.1f} % of games" in out
    low, high = skill["change_95"]
    assert f"    change: {skill['change_points']:+.1f} points (95 % interval {low:+.1f} to {high:+.1f})" in out
    html = (tmp_path / "r" / "report.html").read_text()
    assert "How much more often a stronger player wins" in html and f"{skill['change_points']:+.1f} points" in html


def test_a_skill_signal_that_beats_greedy_needs_no_note_and_one_that_does_not_says_what_to_try():
    from deckpress.generator.check import untold_skill

    beats = {"cooperative": False, "bot": "ismcts:50", "against": "greedy", "win_share_95": [0.54, 0.64], "even_share": 0.5}
    assert untold_skill(beats) is None
    assert untold_skill({**beats, "win_share_95": [0.5, 0.6]}).endswith("more --skill-games, or --skill-bot rollout")
    gain = {"cooperative": True, "bot": "rollout", "against": "greedy", "gain_95": [-0.4, 5.1]}
    assert untold_skill(gain).endswith(": more --skill-games") and untold_skill({**gain, "gain_95": [1.2, 4.6]}) is None


def test_a_drop_of_the_skill_signal_beyond_the_threshold_is_a_review():
    from types import SimpleNamespace

    from deckpress.generator.check import CheckReport, verdict
    from deckpress.generator.check.thresholds import Thresholds

    def side(share):
        return {"cooperative": False, "win_share": share, "bot": "ismcts:50", "against": "greedy"}

    sim = {"base": {"games": 0, "length_in_moves": {}, "cut_off_by_move_bound": 0},
           "variant": {"games": 0, "length_in_moves": {}, "cut_off_by_move_bound": 0}, "validated": [], "differences": []}
    engine = SimpleNamespace(info=SimpleNamespace(cooperative=False))
    report = CheckReport("v.yaml", simulation=sim, skill={"base": side(0.6), "variant": side(0.52), "change_points": -8.0})
    assert verdict(report, Thresholds(), engine)[0] == "accept"
    report.skill = {"base": side(0.6), "variant": side(0.45), "change_points": -15.0}
    assert verdict(report, Thresholds(), engine) == ("review", [
        "the variant makes skill matter less: the search bot's win share fell from 60.0 % to 45.0 % (15.0 points, threshold 10)"])
    coop = {"cooperative": True, "result": "missions completed"}
    report.skill = {"base": {**coop, "gain": 3.0}, "variant": {**coop, "gain": -3.0}, "change_points": -12.0}
    assert verdict(report, Thresholds(), engine) == ("review", [
        "the variant makes skill matter less: one search bot seat changes the team's missions completed by +3 a game in the base "
        "game and by -3 in the variant (12.0 points of the result's range, threshold 10)"])
    # a drop within the noise is still a review (the threshold is the publisher's), said as such
    report.skill = {"base": side(0.6), "variant": side(0.45), "change_points": -15.0, "change_95": [-28.1, 0.5]}
    assert verdict(report, Thresholds(), engine)[1] == [
        "the variant may make skill matter less: the search bot's win share fell from 60.0 % to 45.0 % (15.0 points, threshold 10; "
        "the change's 95 % interval, -28.1 to +0.5 points, reaches 0, so it may be noise: more --skill-games would tell)"]
    # the change's own interval decides, not whether the two sides' intervals overlap (they may
    # overlap while the difference is beyond the noise)
    report.skill = {"base": side(0.6), "variant": side(0.45), "change_points": -15.0, "change_95": [-25.3, -4.2]}
    assert verdict(report, Thresholds(), engine)[1][0].startswith("the variant makes skill matter less")


def test_skill_drop_points_may_be_negative_the_other_thresholds_may_not(tmp_path):
    from deckpress.generator.check.thresholds import load_thresholds

    path = tmp_path / "t.yaml"
    path.write_text("skill_drop_points: -100\nseat_advantage_pp: 3\n")
    thresholds, errors = load_thresholds(path)
    assert errors == [] and thresholds.skill_drop_points == -100 and thresholds.seat_advantage_pp == 3
    path.write_text("seat_advantage_pp: -1\n")
    thresholds, errors = load_thresholds(path)
    assert thresholds is None and "seat_advantage_pp: expected a positive number, got -1" in str(errors[0])


def test_fair_share_counts_only_games_not_drawn():
    # Two seats winning 40 % each with 20 % draws is perfectly fair; 48 % / 32 % is not.
    from types import SimpleNamespace

    from deckpress.generator.check import CheckReport, verdict
    from deckpress.generator.check.thresholds import Thresholds

    def side(w0, w1, draws, n=10_000):
        def seat(i, w):
            from deckpress.rules.core.stats import wilson
            return {"seat": i, "win_rate": w / n, "win_rate_95": list(wilson(w, n))}
        return {"games": n, "games_requested": n, "draws": draws, "draw_rate": draws / n, "seats": [seat(0, w0), seat(1, w1)],
                "length_in_moves": {"p50": 50}, "cut_off_by_move_bound": 0, "stopped_by_time_limit": False, "move_bound": 100}

    engine = SimpleNamespace(info=SimpleNamespace(cooperative=False))
    report = CheckReport("v.yaml", simulation={"base": side(4000, 4000, 2000), "variant": side(4000, 4000, 2000), "validated": [], "differences": []})
    assert verdict(report, Thresholds(), engine)[0] == "accept"
    report.simulation["variant"] = side(4800, 3200, 2000)
    decision, reasons = verdict(report, Thresholds(), engine)
    assert decision == "review" and "fair share of 40.0 %" in reasons[0]


BROKEN = Path(__file__).parent / "variants" / "broken"


def test_eight_mistakes_are_listed_in_one_run_at_their_lines():
    # One broken variant with eight independent mistakes: all eight in one run, not six runs.
    path = BROKEN / "eight-mistakes.yaml"
    report = check(path, simulate=False)
    lines = path.read_text().splitlines()

    def at(text: str) -> str:
        return f"{report.variant_path}:{next(i for i, line in enumerate(lines, 1) if text in line)}:"

    found = [str(e) for e in report.errors]
    expected = [
        (at("autor:"), "autor: unknown key 'autor' (did you mean 'author'?)"),
        (at("playres:"), "parameters.playres: unknown parameter 'playres' (did you mean 'players'?)"),
        (at("id: karnatka"), "replace.id: no card 'karnatka' in states.yaml (did you mean 'karnataka'?)"),
        (at('"75"'), 'values.forest.value: expected a whole number, found the text "75" (write it without quotes)'),
        (at("provenence"), "values.forest.provenence: unknown key 'provenence' (did you mean 'provenance'"),
        (at("Extraordinarily"), "card 'assam': text '{name}' = 'The Extraordinarily Long Name of Assam State' needs"),
        (at("forest-extra"), "point_cards: 19 records, but game.yaml (line "),
        (at("nowhere:"), "art: no card 'nowhere' in the merged content"),
    ]
    for where, message in expected:
        assert any(e.startswith(where) and message in e for e in found), (where, message, found)
    assert report.verdict == "reject" and report.stages[-1].name == "2. schemas and checks"
    # the shipped file the count error was found in is context, never an installation path
    count = next(e for e in found if "19 records" in e)
    assert re.search(r"\(found at (deckpress/)?content/mission-emission/point-cards\.yaml:\d+:\d+\)", count), count
    assert "- replace: {file: game, id: point, fields: {count: 19}}" in count
    assert all(e.startswith(report.variant_path + ":") for e in found)
    # and it says which cards the cross-file checks could not read yet
    assert any(e.startswith(at("changes:")) and "the cross-file checks ran without the cards the schema refused (goa, kerala)" in e for e in found)


@pytest.mark.parametrize("body, line, message", [
    # No raw parser messages: each YAML mistake gets a plain hint at its line.
    ("changes:\n\t- remove: {file: states, id: goa}\n", 7, "a tab: YAML indents with spaces only, so replace the tab with spaces"),
    ("parameters:\n    players: 4\n  tie: share\n", 8, "this line's indentation does not line up with the lines above it"),
    ("source: nightingame.com: the rules page\n", 6, "a ':' inside a value: put the value in quotes"),
    ("parameters: {players: \"4\"}\n", 6, "parameter 'players': expected an integer, got '4' (write it without quotes)"),
    ("changes:\n  - replace: {file: states, id: goa, fields: {name: " + "G" * 70 + "}}\n", 7, "has 70 characters; at most 60 allowed"),
    ("changes:\n  - replace: {file: states, id: goa, feilds: {name: Goa}}\n", 7, "unknown key 'feilds' (did you mean 'fields'"),
])
def test_each_mistake_gets_a_plain_hint_at_its_line(tmp_path, body, line, message):
    report = check(variant(tmp_path, body), simulate=False)
    assert any(e.line == line and message in e.message for e in report.errors), [str(e) for e in report.errors]


def test_a_changed_fact_without_its_own_source_is_marked_designed_with_a_warning(tmp_path):
    # A variant that changes Goa's forest from 60 to 75 no longer keeps provenance: sourced.
    path = variant(tmp_path, """changes:
  - replace: {file: states, id: goa, fields: {values.forest.value: 75}}
  - replace: {file: states, id: kerala, fields: {values.forest.value: 60, values.forest.provenance: sourced, values.forest.source: "ISFR 2021", values.forest.year: 2021}}
""")
    report = check(path, simulate=False)
    assert report.verdict == "accept"
    changes = {(c.id, p): after for c in report.content_diff.changed for p, (_, after) in c.fields.items()}
    assert changes[("goa", "values.forest.provenance")] == "designed"
    assert changes[("goa", "values.forest.source")] == "the variant 'Test' by A Fan"
    assert changes[("goa", "values.forest.confidence")] == "low"
    assert ("kerala", "values.forest.provenance") not in changes  # it gave its own: kept as given
    warning = ("states: goa: values.forest: the new value has no source of its own, so it is marked 'designed' "
               "by the variant's author (give provenance, source and method in the variant to keep a source)")
    assert report.warnings == [warning] and warning in report.reasons
    # the old value's note goes, written as the CLI writes values (JSON), not as Python's None
    assert any(line.startswith("~ states: goa: values.forest.note: Stand-in") and line.endswith("-> null") for line in report.content_diff.lines())


@pytest.mark.slow
def test_progress_shows_on_a_terminal_and_stays_out_of_json(tmp_path):
    # check shows its stage and a progress bar on a terminal; simulate shows one ...;
    # both stay silent in --format json and when not on a terminal.
    example = Path(__file__).parent.parent / "content" / "variants" / "mission-emission-set-collection.yaml"
    out, shown = on_a_terminal("check", str(example), "--games", "400", "--report", str(tmp_path / "r"))
    assert all(f"{stage}" in shown for stage in ("1. safe loading", "2. schemas and checks", "4. preview", "5. simulation: base", "5. simulation: variant"))
    assert "/400" in shown
    out, shown = on_a_terminal("check", str(example), "--games", "400", "--report", str(tmp_path / "j"), "--format", "json")
    assert shown.strip() == "" and json.loads(out)["simulation"]["variant"]["games"] == 400
    out, shown = on_a_terminal("simulate", "mission-emission", "--games", "400")
    assert "simulating" in shown and "/400" in shown


SHIPPED = sorted((Path(__file__).parent.parent / "content" / "variants").glob("*.yaml"))


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_every_shipped_example_variant_gets_a_verdict(path, tmp_path):
    # The examples are well-formed and play: a short simulation (the default is larger) ends in
    # accept or review, never reject, and writes the report.
    from deckpress.generator.check.report import write_report

    report = run_check(path, CheckOptions(games=30, time_limit_s=60, preview_path=tmp_path / "preview.pdf"))
    assert report.verdict in ("accept", "review"), (report.reasons, [str(e) for e in report.errors])
    assert report.simulation is not None and report.simulation["variant"]["cut_off_by_move_bound"] == 0
    json_path, html_path = write_report(report, tmp_path)
    assert "data:image/png;base64," in html_path.read_text()


@pytest.mark.slow
def test_the_night_shift_verdict_is_the_same_on_a_busy_machine():
    # A verdict once "was rejected twice ... while other work ran, and accepted when the
    # machine was idle". Work is bounded by games and moves, never by the clock: with one core
    # kept busy by another process, the default check gives the same verdict and figures.
    import subprocess
    import sys

    from deckpress.generator.check.report import report_dict

    night_shift = Path(__file__).parent.parent / "content" / "variants" / "fifty-missions-night-shift.yaml"
    idle = report_dict(run_check(night_shift))
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        busy = report_dict(run_check(night_shift))
    finally:
        burner.kill()
        burner.wait()
    assert idle["verdict"] in ("accept", "review") and idle["simulation"]["variant"]["games"] == 2000
    assert busy == idle


def test_the_example_variants_cover_every_game():
    assert {p.name.split("-")[0] for p in SHIPPED} >= {"mission", "fifty", "maybe", "geheime"}


@pytest.mark.slow
def test_with_content_the_base_is_simulated_on_that_folder_not_the_shipped_game(game_copy, tmp_path):
    """`check VARIANT --content FOLDER` judges the variant against FOLDER: the base side of the
    simulation must play FOLDER's cards (an edition's values), as the content hash it reports says."""
    from conftest import edit

    from deckpress.generator.check import CheckOptions, run_check
    from deckpress.generator.paths import CONTENT_DIR
    from deckpress.rules.core.registry import load

    folder = game_copy("mission-emission")
    edit(folder / "states.yaml", "forest:  {value: 17,", "forest:  {value: 18,")
    variant = CONTENT_DIR / "variants" / "mission-emission-set-collection.yaml"
    report = run_check(variant, CheckOptions(games=20, content=folder, preview_path=tmp_path / "preview.pdf"))
    edition = load("mission-emission", None, {"players": 4}, folder).content_hash
    assert report.simulation["base"]["content_hash"] == edition != load("mission-emission", None, {"players": 4}).content_hash


def test_a_symlink_loop_and_a_name_that_is_not_utf8_get_a_verdict_not_a_traceback(tmp_path, cli):
    # a link to itself: 'unreadable' (exit 3), one line; a file name in another encoding (a byte
    # that is not UTF-8) is named as \xE9 in the messages and in report.json
    loop = tmp_path / "loop.yaml"
    loop.symlink_to("loop.yaml")
    result = cli("check", loop, "--no-simulate", "--report", tmp_path / "r1", "--format", "json")
    assert result.exit_code == 3 and "a link that leads back to itself (a symlink loop)" in result.stdout
    odd = Path(os.fsdecode(bytes(tmp_path) + b"/lat\xe9n.yaml"))
    odd.write_text(HEADER + "parameters: {players: 3}\n", "utf-8")
    result = cli("check", odd, "--no-simulate", "--report", tmp_path / "r2", "--format", "json")
    assert result.exit_code == 0, result.output
    assert "lat\\xe9n.yaml" in json.loads((tmp_path / "r2" / "report.json").read_text("utf-8"))["variant"]


def test_validate_checks_a_variant_against_an_edition_and_lays_out_its_changed_cards(tmp_path, cli, game_copy):
    # the pre-commit validate hook takes --content as the check hook does (an edition whose Goa is
    # 'goa-2026'), and lays out the cards a variant changes as check does: a glyph no font draws
    # was accepted by validate and rejected by check
    edition = game_copy("mission-emission")
    edit(edition / "states.yaml", "- id: goa\n", "- id: goa-2026\n")
    path = variant(tmp_path, "changes:\n  - replace: {file: states, id: goa-2026, fields: {values.forest.value: 61}}\n")
    assert "no card 'goa-2026' in states.yaml" in cli("validate", path).stdout
    result = cli("validate", path, "--content", edition)
    assert result.exit_code == 0, result.output
    path.write_text(HEADER + 'changes:\n  - replace: {file: states, id: goa, fields: {name: "Goa \\u231a"}}\n', "utf-8")
    result = cli("validate", path)
    assert result.exit_code == 1 and "has characters no font draws (U+231A WATCH" in result.stdout


def test_two_variants_of_one_name_get_a_report_each_and_no_stale_preview_is_left(tmp_path, cli):
    # variants/x.yaml and other/variants/x.yaml: the second report wrote over the first; a report
    # without changed cards kept the preview.pdf of an earlier run beside it
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    good = variant(tmp_path / "a", "changes:\n  - replace: {file: states, id: goa, fields: {values.forest.value: 61}}\n", "x.yaml")
    plain = variant(tmp_path / "b", "parameters: {players: 3}\n", "x.yaml")
    result = cli("check", good, plain, "--no-simulate", "--report", tmp_path / "R")
    assert result.exit_code == 0, result.output
    assert f"report: {tmp_path / 'R' / 'x' / 'report.html'}" in result.output and f"report: {tmp_path / 'R' / 'x-2' / 'report.html'}" in result.output
    assert (tmp_path / "R" / "x" / "preview.pdf").is_file() and not (tmp_path / "R" / "x-2" / "preview.pdf").exists()
    assert cli("check", plain, "--no-simulate", "--report", tmp_path / "R" / "x").exit_code == 0  # the same folder again
    assert not (tmp_path / "R" / "x" / "preview.pdf").exists()


def test_a_folder_path_in_extends_is_told_to_use_a_game_id_and_content(tmp_path):
    # 'extends: editions/2026' was told "the variant does not say which game it extends"
    path = tmp_path / "v.yaml"
    path.write_text(HEADER.replace("extends: mission-emission", "extends: editions/2026"), "utf-8")
    report = check(path, simulate=False)
    assert report.verdict == "reject" and report.reasons == [
        "its 'extends' is no game's id: a variant names the game it changes by its id (mission-emission); "
        "to check it against a game folder such as an edition, give the folder with --content"]

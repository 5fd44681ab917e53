"""Logs written down at a real table: draws the recorder did not see (``card: "?"``),
bound when their seat later shows the card, and draws of one step written in any order."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckpress.rules.core.errors import IllegalAction
from deckpress.rules.core.log import read_log
from deckpress.rules.core.replay import replay

REPO = Path(__file__).resolve().parents[2]
LOGS = REPO / "content"


def hide_seat(src: Path, seat: int, tmp_path: Path) -> Path:
    """``src`` with every deal and draw of ``seat`` written as unseen, as the other players
    would write it down."""
    out = []
    for line in src.read_text("utf-8").splitlines():
        if re.search(rf"chance: (draw|deal), seat: {seat},", line):
            if "cards:" in line:
                n = line[line.index("cards:"):].count(",") + 1
                line = re.sub(r"cards: \[.*\]", "cards: [" + ", ".join(['"?"'] * n) + "]", line)
            else:
                line = re.sub(r'card: ("[^"]*"|[^}]*)}', 'card: "?"}', line)
        out.append(line)
    path = tmp_path / src.name
    path.write_text("\n".join(out) + "\n", "utf-8")
    return path


@pytest.mark.parametrize("example", ["mission-emission/logs/example-base.yaml", "mission-emission/logs/example-strategy.yaml",
                                     "fifty-missions/logs/example-standard.yaml", "fifty-missions/logs/example-crazy.yaml",
                                     "geheime-mission/logs/example-base.yaml"])
@pytest.mark.parametrize("seat", [0, 1])
def test_a_log_with_one_seats_draws_unseen_replays_to_the_recorded_result(example, seat, tmp_path):
    original = replay(read_log(LOGS / example))
    result = replay(read_log(hide_seat(LOGS / example, seat, tmp_path)))
    assert result.ok, result.error
    assert result.finished and result.state.returns() == original.state.returns()
    assert result.unseen and all(n >= 1 for n, _, _ in result.unseen)


@pytest.mark.slow
def test_an_unseen_draw_is_bound_to_the_card_its_seat_plays(tmp_path):
    example = (LOGS / "mission-emission/logs/example-base.yaml").read_text("utf-8")
    # round 1's draw for seat 1 was Jammu & Kashmir, which seat 1 plays in round 2
    text = example.replace("{chance: draw, seat: 1, card: Jammu & Kashmir}", '{chance: draw, seat: 1, card: "?"}', 1)
    path = tmp_path / "game.yaml"
    path.write_text(text, "utf-8")
    result = replay(read_log(path))
    assert result.ok
    assert result.unseen == [(7, "Jammu & Kashmir", True)]


def test_a_card_no_unseen_draw_can_have_been_is_refused_at_the_play(tmp_path):
    example = (LOGS / "mission-emission/logs/example-base.yaml").read_text("utf-8")
    text = example.replace("{chance: draw, seat: 1, card: Jammu & Kashmir}", '{chance: draw, seat: 1, card: "?"}', 1)
    # seat 1 now plays Goa, which seat 0 was dealt: no draw of seat 1 can have given it
    text = text.replace("{seat: 1, play: Jammu & Kashmir}", "{seat: 1, play: Goa}", 1)
    path = tmp_path / "game.yaml"
    path.write_text(text, "utf-8")
    result = replay(read_log(path))
    assert not result.ok and result.error.index == 9
    assert result.error.reason == "card.not-in-hand"
    assert "Goa is not in seat 1's hand (and no unseen draw of that seat before it can have been this card)" in result.error.message


def test_kids_draws_never_shown_are_named_as_deciding_the_result(tmp_path):
    path = hide_seat(LOGS / "mission-emission/logs/example-kids.yaml", 1, tmp_path)
    result = replay(read_log(path))
    assert any("never shown later, and the result depends on them: name them in the log" in w for w in result.warnings)


def test_the_draws_after_a_round_may_be_written_in_any_order(tmp_path, cli):
    example = (LOGS / "mission-emission/logs/example-base.yaml").read_text("utf-8")
    first, second = "  - {chance: draw, seat: 0, card: Telangana}\n", "  - {chance: draw, seat: 1, card: Jammu & Kashmir}\n"
    assert first + second in example
    path = tmp_path / "game.yaml"
    path.write_text(example.replace(first + second, second + first, 1), "utf-8")
    result = cli("replay", path)
    assert result.exit_code == 0, result.output
    assert "86 events, all legal; the game is over" in result.stdout and "seat 0: 26 (winner)" in result.stdout


def test_the_replay_report_lists_the_unseen_draws_and_their_cards(tmp_path, cli):
    path = hide_seat(LOGS / "mission-emission/logs/example-base.yaml", 1, tmp_path)
    result = cli("replay", path)
    assert result.exit_code == 0, result.output
    assert "unseen draws, read as the cards their seats showed later: event 2: " in result.stdout
    data = cli("replay", path, "--format", "json")
    import json
    unseen = json.loads(data.stdout)["unseen"]
    assert {"event": 2, "card": "Arunachal Pradesh", "shown": True} in unseen and len(unseen) == 19


def test_a_parameter_of_another_mode_is_named_as_ignored(tmp_path, cli):
    example = (LOGS / "mission-emission/logs/example-base.yaml").read_text("utf-8")
    path = tmp_path / "game.yaml"
    path.write_text(example.replace("params: {players: 2}", "params: {players: 2, kids_winner: better, centre: {forest: 3}}", 1), "utf-8")
    result = cli("replay", path)
    assert result.exit_code == 0, result.output
    assert "warning: parameter kids_winner: applies to the kids game only, ignored in the base game" in result.stderr
    assert "warning: parameter centre: applies to the strategy game only, ignored in the base game" in result.stderr


@pytest.mark.slow
def test_a_log_written_by_deckpress_warns_of_nothing_ignored():
    # deckpress writes every parameter, at its default where it does not apply
    for mode in ("base", "strategy", "kids"):
        result = replay(read_log(LOGS / f"mission-emission/logs/example-{mode}.yaml"))
        assert not [w for w in result.warnings if "ignored" in w], mode


def test_simulate_names_an_ignored_parameter(cli):
    result = cli("simulate", "mission-emission", "--mode", "kids", "--games", "2", "-p", "reshuffle=when-empty")
    assert result.exit_code == 0, result.output
    assert "warning: parameter reshuffle: applies to the base game only, ignored in the kids game" in result.stderr


def test_fifty_missions_play_then_draw_and_a_deal_round_the_table_replay(tmp_path):
    # the rulebook's player plays "then draws"; a table deals one card at a time round
    # the table, and may deal before turning up the face-up cards
    text = (LOGS / "fifty-missions/logs/example.yaml").read_text("utf-8")
    replaced = text.replace("""  - {chance: mission, card: all-odd}
  - {chance: mission, card: total-24}
  - {chance: draw, seat: 0, card: yellow knife 5}""", """  - {chance: draw, seat: 0, card: yellow knife 5}
  - {chance: mission, card: all-odd}
  - {chance: mission, card: total-24}""")
    replaced = replaced.replace("""  - {chance: face-up, cards: [red lighter 3, blue binoculars 5, yellow knife 7, green compass 2]}
  - {chance: deal, seat: 0, cards: [green compass 1, red lighter 6, yellow knife 2, blue binoculars 6]}
  - {chance: deal, seat: 1, cards: [red lighter 1, blue binoculars 2, yellow knife 4, green compass 7]}
""", "".join(f"  - {{chance: deal, seat: {s}, card: {c}}}\n" for pair in zip(
        ["green compass 1", "red lighter 6", "yellow knife 2", "blue binoculars 6"],
        ["red lighter 1", "blue binoculars 2", "yellow knife 4", "green compass 7"]) for s, c in enumerate(pair))
        + "  - {chance: face-up, cards: [red lighter 3, blue binoculars 5, yellow knife 7, green compass 2]}\n")
    assert replaced.count("\n") == text.count("\n") + 6
    path = tmp_path / "game.yaml"
    path.write_text(replaced, "utf-8")
    original, table = replay(read_log(LOGS / "fifty-missions/logs/example.yaml")), replay(read_log(path))
    assert table.ok, table.error
    assert table.state.returns() == original.state.returns() and table.state.outcome() == original.state.outcome()


def test_maybe_missions_identities_dealt_seat_by_seat_replay(tmp_path):
    # a table deals each seat its public, then its secret identity
    lines = (LOGS / "maybe-missions/logs/example-identities.yaml").read_text("utf-8").splitlines(True)
    public = [i for i, line in enumerate(lines) if "public-identity" in line]
    secret = [i for i, line in enumerate(lines) if "secret-identity" in line]
    assert len(public) == len(secret) == 4 and secret[0] == public[-1] + 1
    interleaved = [lines[i] for pair in zip(public, secret) for i in pair]
    path = tmp_path / "game.yaml"
    path.write_text("".join(lines[:public[0]] + interleaved + lines[secret[-1] + 1:]), "utf-8")
    result = replay(read_log(path))
    assert result.ok and result.finished, result.error


def _with_line_after(src: Path, event_number: int, line: str, tmp_path: Path) -> Path:
    log = read_log(src)
    lines = src.read_text("utf-8").splitlines(True)
    at = log.line_of(event_number - 1)  # 1-based line of that event
    path = tmp_path / "game.yaml"
    path.write_text("".join(lines[:at] + [line + "\n"] + lines[at:]), "utf-8")
    return path


@pytest.mark.slow
def test_a_medal_said_aloud_is_accepted_when_won_and_refused_before(tmp_path):
    # a medal won is written {chance: mission, card: bronze} (once refused: "no mission is called 'bronze'")
    src = LOGS / "fifty-missions/logs/example-standard.yaml"
    won = []
    replay(read_log(src), on_event=lambda n, e, state: won.append(n) if state.medals == 1 and not won else None)
    assert won, "the example wins a medal"
    result = replay(read_log(_with_line_after(src, won[0], "  - {chance: mission, card: Bronze}", tmp_path)))
    assert result.ok, result.error
    assert result.state.outcome() == replay(read_log(src)).state.outcome()
    early = replay(read_log(_with_line_after(src, won[0] - 2, "  - {chance: mission, card: bronze}", tmp_path)))
    assert not early.ok and early.error.reason == "chance.impossible"
    assert early.error.message == "the Bronze medal is not won yet: it is next in the mission deck, turned over when the next mission is completed"


def test_a_medal_next_in_the_mission_deck_is_said_to_come_with_the_next_mission_completed(tmp_path):
    # medal_places [1, 2, 5]: after two missions completed the Silver medal is the mission deck's
    # next card ("under 0 more mission cards" said nothing a table can act on)
    path = tmp_path / "game.yaml"
    path.write_text("game: fifty-missions\nparams: {players: 1, medal_places: [1, 2, 5]}\nevents:\n"
                    "  - {chance: mission, cards: [total-16, two-sevens, no-red, rising-row]}\n"
                    "  - {chance: face-up, cards: [red lighter 3, blue binoculars 5, yellow knife 7, green compass 2]}\n"
                    "  - {chance: deal, seat: 0, cards: [green compass 1, red lighter 7, blue binoculars 6, yellow knife 4]}\n"
                    "  - {seat: 0, play: green compass 1, slot: 3}\n  - {chance: mission, card: one-colour}\n"
                    "  - {chance: draw, seat: 0, card: green compass 5}\n  - {seat: 0, play: red lighter 7, slot: 0}\n", "utf-8")
    state = replay(read_log(path)).state
    assert (state.medals, state.drawn) == (1, 2)  # Bronze won; Silver lies after 2 missions drawn
    with pytest.raises(IllegalAction) as caught:
        state.said_aloud({"chance": "mission", "card": "silver"})
    assert caught.value.message == ("the Silver medal is not won yet: it is next in the mission deck, turned over when the next "
                                    "mission is completed")

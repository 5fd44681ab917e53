"""What a table says aloud, and refusals that name the rule.

Each test replays a log with ``deckpress replay`` as a person would and checks what that person
reads: the event refused (its number and line) and the message, or that the log is accepted.
Announcements (:meth:`deckpress.rules.core.game.State.said_aloud`) are checked both ways: accepted
when true, refused with what did happen when not.
"""
from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MM_EXAMPLE = REPO / "content/maybe-missions/logs/example-base.yaml"
FM_EXAMPLE = REPO / "content/fifty-missions/logs/example-standard.yaml"
#: Three seats holding votes 1-10, 11-20, 21-30 (odd numbers NO, even YES), and the market.
MM_SETUP = ["{chance: deal, seat: 0, cards: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}",
            "{chance: deal, seat: 1, cards: [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]}",
            "{chance: deal, seat: 2, cards: [21, 22, 23, 24, 25, 26, 27, 28, 29, 30]}",
            "{chance: market, cards: [Crack the hotel safe, Bribe the border guard, Swap the briefcases, Bug the embassy phone, "
            "Steal the prototype, Rig the village election]}"]


def write(tmp_path: Path, events: list[str], game: str = "maybe-missions", params: str = "{players: 3}") -> Path:
    """A hand-written log of ``events`` (event N is on line N + 3)."""
    path = tmp_path / "game.yaml"
    path.write_text(f"game: {game}\nparams: {params}\nevents:\n" + "".join(f"  - {e}\n" for e in events), "utf-8")
    return path


def with_lines(src: Path, tmp_path: Path, after: dict[int, str] | None = None, drop: tuple[int, ...] = ()) -> Path:
    """``src`` with a line added after event N (``after[N]``, 1-based) and events ``drop`` left out."""
    lines = src.read_text("utf-8").splitlines(True)
    first = next(i for i, line in enumerate(lines) if line.startswith("events:")) + 1
    out = lines[:first]
    for n, line in enumerate(lines[first:], start=1):
        if n not in drop:
            out.append(line)
        if after and n in after:
            out.append(f"  - {after[n]}\n")
    path = tmp_path / src.name
    path.write_text("".join(out), "utf-8")
    return path


def refused(cli, path: Path) -> str:
    """The refusal ``deckpress replay`` prints for ``path``: ``event N: reason: message``."""
    result = cli("replay", path)
    assert result.exit_code == 1, result.stdout
    first = result.stdout.splitlines()[0]
    return first[first.index(": event ") + 2:]


def accepted(cli, path: Path) -> str:
    result = cli("replay", path)
    assert result.exit_code == 0, result.stdout
    return result.stdout


# -- A. what the table says aloud (Maybe Missions) ---------------------------------------------------
@pytest.mark.slow
def test_the_master_card_won_said_aloud_is_accepted_when_true_and_refused_with_what_happened(cli, tmp_path):
    # Rulebook "Gameplay": "The active player always wins the Master Card. (Green side up if SUCCESS,
    # otherwise red side.)"  The example's round 1 (events 6-19): seat 0 is active, every vote is YES.
    plain = accepted(cli, MM_EXAMPLE)
    said = accepted(cli, with_lines(MM_EXAMPLE, tmp_path, after={19: "{seat: 0, takes_master: master-02, side: green}"}))
    assert "153 events, all legal; the game is over" in said and "152 events" in plain
    assert said.splitlines()[1:] == plain.splitlines()[1:]  # the same scores: it changes nothing
    both = accepted(cli, with_lines(MM_EXAMPLE, tmp_path, after={10: "{seat: 0, propose: done}",  # docs/game-logs.md's example
                                                                 19: "{seat: 0, takes_master: master-02, side: green}"}))
    assert "154 events, all legal" in both
    assert refused(cli, with_lines(MM_EXAMPLE, tmp_path, after={19: "{seat: 1, takes_master: master-02}"})) == (
        "event 20: phase.wrong: master-02 went to seat 0 (the active player), not seat 1")
    assert refused(cli, with_lines(MM_EXAMPLE, tmp_path, after={19: "{seat: 0, takes_master: master-02, side: red}"})) == (
        'event 20: phase.wrong: master-02 went to seat 0 green side up, not red: the mission SUCCEEDED, and "The active player '
        'always wins the Master Card. (Green side up if SUCCESS, otherwise red side.)" (rulebook, Gameplay)')
    assert refused(cli, with_lines(MM_EXAMPLE, tmp_path, after={19: "{seat: 0, takes_master: none}"})) == (
        'event 20: phase.wrong: master-02 went to seat 0 (the active player), green side up: "The active player always wins the '
        'Master Card. (Green side up if SUCCESS, otherwise red side.)" (rulebook, Gameplay)')
    # said before the collecting is over: the card is not won yet
    assert refused(cli, with_lines(MM_EXAMPLE, tmp_path, after={18: "{seat: 0, takes_master: master-02}"})) == (
        "event 19: phase.wrong: master-02 is not won yet: it is this round's Master card, and seat 0 (the active player) wins it "
        "once the mission's cards are collected (unless everyone votes NO)")


@pytest.mark.slow
def test_no_master_card_is_won_in_an_all_no_round_and_saying_so_is_checked(cli, tmp_path):
    # Rulebook "Gameplay", Exceptional Round: "If everyone voted NO ... The Master Card is not won."
    round_1 = MM_SETUP + ["{chance: master, card: master-16}", "{seat: 0, propose: Crack the hotel safe}",
                          "{seat: 0, propose: Bug the embassy phone}", "{chance: market, cards: [Tail the courier, Hack the bank mainframe]}",
                          "{seat: 0, vote: 1}", "{seat: 1, vote: 11}", "{seat: 2, vote: 21}",
                          "{seat: 2, collect: Crack the hotel safe}", "{seat: 1, collect: Bug the embassy phone}"]
    assert "all legal" in accepted(cli, write(tmp_path, round_1 + ["{seat: 0, takes_master: none}"]))
    assert refused(cli, write(tmp_path, round_1 + ["{seat: 0, takes_master: master-16}"])) == (
        'event 14: phase.wrong: no Master card was won in round 1: everyone voted NO, and in that exceptional round "The Master '
        'Card is not won" (rulebook, Gameplay): master-16 was discarded')
    # said once the votes are out, before the collecting: it will not be won, not "not won yet"
    assert refused(cli, write(tmp_path, round_1[:11] + ["{seat: 0, takes_master: master-16}"])) == (
        "event 12: phase.wrong: master-16 is this round's Master card, and nobody wins it: everyone voted NO, and in that "
        'exceptional round "The Master Card is not won" (rulebook, Gameplay)')


@pytest.mark.slow
def test_done_after_a_proposal_that_ended_by_itself_is_accepted_right_after_it_and_refused_later(cli, tmp_path):
    # Rulebook "Gameplay": "at most as many cards as the number of players": the example's seat 0
    # proposes a 4th card with 4 players (event 10) and the proposal ends by itself; a table may still say "done".
    plain = accepted(cli, MM_EXAMPLE)
    said = accepted(cli, with_lines(MM_EXAMPLE, tmp_path, after={10: "{seat: 0, propose: done}"}))
    assert "153 events, all legal; the game is over" in said and said.splitlines()[1:] == plain.splitlines()[1:]
    assert refused(cli, with_lines(MM_EXAMPLE, tmp_path, after={11: "{seat: 0, propose: done}"})) == (
        "event 12: phase.wrong: seat 0's proposal ended by itself since the mission is full (a mission has at most as many cards as "
        "there are players: 4 with 4 players): its 'done' may be written right after the last card, not later (now: seats 0, 1, 2, 3 "
        "to vote (in secret))")
    assert refused(cli, with_lines(MM_EXAMPLE, tmp_path, after={10: "{seat: 1, propose: done}"})) == (
        "event 11: phase.wrong: seat 1 has no proposal to end: seat 0 proposed this round's mission, and it ended by itself since "
        "the mission is full (a mission has at most as many cards as there are players: 4 with 4 players)")
    assert refused(cli, with_lines(MM_EXAMPLE, tmp_path, after={15: "{seat: 0, propose: done}"})) == (
        "event 16: phase.wrong: seat 0 has no proposal to end now: seat 0 to collect a card of the mission")


# -- B. refusals that name the rule -------------------------------------------------------------------
@pytest.mark.slow
def test_a_fourth_card_in_a_three_player_proposal_is_refused_because_the_mission_is_full(cli, tmp_path):
    # Rulebook "Gameplay": "You must choose at least 1 card, and at most as many cards as the number of players."
    events = MM_SETUP + ["{chance: master, card: master-17}", "{seat: 0, propose: Crack the hotel safe}",
                         "{seat: 0, propose: Bribe the border guard}", "{seat: 0, propose: Swap the briefcases}",
                         "{seat: 0, propose: Bug the embassy phone}"]
    assert refused(cli, write(tmp_path, events)) == (
        "event 9: phase.wrong: Bug the embassy phone cannot be proposed: the mission is full (a mission has at most as many cards as "
        "there are players: 3 with 3 players)")
    # a Master card's mission_size limit is named with its rule
    events = MM_SETUP + ["{chance: master, card: master-16}", "{seat: 0, propose: Crack the hotel safe}",
                         "{seat: 0, propose: Bribe the border guard}", "{seat: 0, propose: Swap the briefcases}"]
    assert refused(cli, write(tmp_path, events)) == (
        'event 8: phase.wrong: Swap the briefcases cannot be proposed: the mission is full (master-16: "The mission may have at '
        'most 2 cards.")')


def test_a_hand_of_one_vote_type_is_dealt_again_and_the_refusal_quotes_the_redeal_rule(cli, tmp_path):
    # Rulebook "Setup": "If someone starts with only Votes of a single type, however rare, deal again."
    events = ["{chance: deal, seat: 0, cards: [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]}",
              "{chance: deal, seat: 1, cards: [22, 24, 26, 28, 30, 1, 3, 5, 7, 9]}",
              "{chance: deal, seat: 2, cards: [11, 13, 15, 17, 19, 21, 23, 25, 27, 29]}",
              "{chance: market, card: Crack the hotel safe}"]
    assert refused(cli, write(tmp_path, events)) == (
        'event 4: chance.wrong-event: seat 0 was dealt only YES votes, and "If someone starts with only Votes of a single type, '
        'however rare, deal again." (rulebook, Setup): every vote went back, and the new deal is due ({chance: deal, seat: 0}), '
        "but the log has {chance: market}")


def test_a_sixteenth_yes_vote_with_three_players_is_refused_as_all_fifteen_are_dealt(cli, tmp_path):
    # Rulebook "Setup": "Create a deck containing 5 YES and 5 NO Votes per player": 15 YES votes with 3 players.
    events = ["{chance: deal, seat: 0, cards: [2, 4, 6, 8, 10, 1, 3, 5, 7, 9]}",
              "{chance: deal, seat: 1, cards: [12, 14, 16, 18, 20, 22, 24, 26, 28, 30]}",
              "{chance: deal, seat: 2, card: 32}"]
    assert refused(cli, write(tmp_path, events)) == (
        "event 3: chance.impossible: 32 cannot be dealt: it is a YES vote, and a three-player game has 15 YES votes (5 per player), "
        "all dealt already")


@pytest.mark.parametrize("game, params, example", [
    ("maybe-missions", "{players: 3}", "{seat: 0, propose: Crack the hotel safe} or {chance: deal, seat: 0, card: 1}"),
    ("fifty-missions", "{players: 3}", "{seat: 0, play: red lighter 3, slot: 0} or {chance: mission, card: all-five-or-more}"),
])
def test_an_empty_event_is_shown_examples_of_the_logs_own_game(cli, tmp_path, game, params, example):
    assert refused(cli, write(tmp_path, ["{}"], game, params)) == (
        f"event 1: log.malformed-event: the event is empty: write a seat's move or a chance event, such as {example}")
    assert refused(cli, write(tmp_path, ["5"], game, params)) == (
        f"event 1: log.malformed-event: an event is a mapping such as {example}, not 5")


@pytest.mark.slow
def test_a_vote_forced_by_a_public_identity_names_the_resource_that_forces_it(cli, tmp_path):
    # The Loudmouth: "If the mission shows reputation, you must vote YES (if you can)" (resource_forces_vote:
    # "If a proposed card's green side shows resource"); Crack the hotel safe's green side shows reputation.
    events = MM_SETUP[:3] + ["{chance: public-identity, seat: 0, card: The Loudmouth}", "{chance: public-identity, seat: 1, card: The Mimic}",
                             "{chance: public-identity, seat: 2, card: The Hothead}", "{chance: secret-identity, seat: 0, card: The Mole}",
                             "{chance: secret-identity, seat: 1, card: The Forger}", "{chance: secret-identity, seat: 2, card: The Ghost}",
                             MM_SETUP[3], "{chance: master, card: master-16}", "{seat: 0, propose: Crack the hotel safe}",
                             "{seat: 0, propose: done}", "{chance: market, card: Tail the courier}", "{seat: 0, vote: 1}"]
    assert refused(cli, write(tmp_path, events, params="{players: 3, identities: true}")) == (
        "event 15: phase.wrong: seat 0 must vote YES this round (its public identity, The Loudmouth: the mission shows reputation, "
        "on the green side of Crack the hotel safe) and holds such a vote")


def test_fifty_missions_names_the_mission_completed_and_its_slot_when_its_replacement_is_due(cli, tmp_path):
    # Rulebook, Sequence of Play: "if one or more Missions are successful, they are discarded [...] and replaced
    # by cards from the Mission pile".  The example's event 14 (a play in slot 1) completes the mission in slot 3;
    # event 15 draws its replacement.
    assert refused(cli, with_lines(FM_EXAMPLE, tmp_path, drop=(15,))) == (
        "event 15: chance.wrong-event: No. 13 'The blue binoculars cards add up to exactly 11' was completed in slot 3: the mission "
        "that replaces it is due ({chance: mission}), but the log has {chance: draw, seat: 0}")
    assert refused(cli, with_lines(FM_EXAMPLE, tmp_path, drop=(15, 16))) == (
        "event 15: turn.chance-due: seat 1 cannot act now: No. 13 'The blue binoculars cards add up to exactly 11' was completed in "
        "slot 3: the mission that replaces it is due")

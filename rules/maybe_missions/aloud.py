"""What a Maybe Missions table says aloud: events that change nothing but are checked.

A log may write down what the players announce besides their decisions; replay accepts such an
event when it states what the rules did, and refuses it with what did happen otherwise
(:meth:`deckpress.rules.core.game.State.said_aloud`, the core's hook, also used by 50 Missions'
medals).  Two announcements:

* **The Master card won**, ``{seat: 2, takes_master: master-08}`` (optionally ``side: green`` or
  ``side: red``), or ``{seat: 2, takes_master: none}`` when nobody won it.  Rulebook "Gameplay":
  "The active player always wins the Master Card. (Green side up if SUCCESS, otherwise red side.)";
  "Exceptional Round: If everyone voted NO ... The Master Card is not won."  The announcement is
  about the last round whose Master card was given out (``MaybeMissionsState.award``); the card of
  the round in progress is not won yet.
* **"done" after a proposal that ended by itself**, ``{seat: 0, propose: done}``: rulebook
  "Gameplay": "at most as many cards as the number of players"; the engine ends the proposal as
  soon as no card may be added (``flow.propose``), and a table may still say "done".  Accepted
  from the proposing seat right after the card that ended it (``MaybeMissionsState.closed``), and
  refused at any other time with the reason.
"""
from __future__ import annotations

from typing import Any

from deckpress.generator.content.safetext import quoted
from deckpress.rules.core.errors import IllegalAction, Reason
from deckpress.rules.core.events import check_keys, seat_of
from deckpress.rules.maybe_missions.cards import (
    ALL_NO,
    NO_MASTER,
    SIDE_NAMES,
    UNANIMOUS,
)
from deckpress.rules.maybe_missions.flow import proposal_end

#: The key of the Master card announcement: ``{seat: 2, takes_master: master-08}``.
TAKES_MASTER = "takes_master"
#: How "nobody won it" and "the proposal is over" are written.
_NONE, _DONE = "none", ("done", "none")
#: Rulebook "Gameplay", quoted in messages.
WINS_RULE = "The active player always wins the Master Card. (Green side up if SUCCESS, otherwise red side.)"
NOT_WON_RULE = "The Master Card is not won"


def said_aloud(state, event: dict[str, Any]) -> bool:
    """True for an announcement that is true now (replay accepts it and moves on); False for an
    event to apply.

    Raises:
        IllegalAction: ``phase.wrong`` for an announcement that is not true now, with what did
            happen; ``log.malformed-event``/``log.unknown-name`` for one that is not written right.
    """
    if "chance" in event:
        return False
    if TAKES_MASTER in event:
        _check_master_award(state, event)
        return True
    value = event.get("propose")
    if isinstance(value, str) and value.casefold() in _DONE:
        return _done_after_proposal(state, event)
    return False


# -- the Master card won ----------------------------------------------------------------------------
def _check_master_award(state, event: dict[str, Any]) -> None:
    game = state.game
    check_keys(event, ("seat", TAKES_MASTER), ("side",))
    seat = seat_of(event, game.players)
    said_side = event.get("side")
    if said_side is not None and (not isinstance(said_side, str) or said_side.casefold() not in SIDE_NAMES):
        raise IllegalAction(Reason.MALFORMED_EVENT, f"'side' is green or red, not {quoted(said_side)}")
    value = event[TAKES_MASTER]
    nobody = isinstance(value, str) and value.casefold() == _NONE
    card = -1 if nobody else game.card(value)
    if not nobody and card not in game.master_cards:
        raise IllegalAction(Reason.UNKNOWN_NAME, f"{game.card_names[card]} is not a Master card: {TAKES_MASTER} names the Master card "
                                                 "the active player won (master-01 ...), or none")
    if not nobody and card == state.master_now:
        if state.exceptional or state.unanimous:  # the votes are out: this round gives its Master card to nobody
            why = (f'everyone voted NO, and in that exceptional round "{NOT_WON_RULE}" (rulebook, Gameplay)' if state.exceptional else
                   "all votes agreed and a Master rule ends the round at once (nobody collects)")
            raise IllegalAction(Reason.WRONG_PHASE, f"{game.card_names[card]} is this round's Master card, and nobody wins it: {why}")
        raise IllegalAction(Reason.WRONG_PHASE, f"{game.card_names[card]} is not won yet: it is this round's Master card, and seat "
                                                f"{state.active} (the active player) wins it once the mission's cards are collected "
                                                "(unless everyone votes NO)")
    if state.award is None:
        raise IllegalAction(Reason.WRONG_PHASE, "no Master card has been given out yet: the active player wins the round's Master "
                                                "card once the mission's cards are collected")
    round_no, active, won, side = state.award
    if side < 0:
        if nobody:
            return
        raise IllegalAction(Reason.WRONG_PHASE, f"no Master card was won in round {round_no}: {_not_won(game, won, side)}")
    name, side_name = game.card_names[won], SIDE_NAMES[side]
    if nobody:
        raise IllegalAction(Reason.WRONG_PHASE, f"{name} went to seat {active} (the active player), {side_name} side up: "
                                                f'"{WINS_RULE}" (rulebook, Gameplay)')
    if card != won:
        raise IllegalAction(Reason.WRONG_PHASE, f"the Master card won last (round {round_no}) was {name}, not {game.card_names[card]} "
                                                f"(which is in {state.where(card)})")
    if seat != active:
        raise IllegalAction(Reason.WRONG_PHASE, f"{name} went to seat {active} (the active player), not seat {seat}")
    if said_side is not None and said_side.casefold() != side_name:
        result = "SUCCEEDED" if side_name == "green" else "FAILED"
        raise IllegalAction(Reason.WRONG_PHASE, f"{name} went to seat {active} {side_name} side up, not {said_side.casefold()}: the "
                                                f'mission {result}, and "{WINS_RULE}" (rulebook, Gameplay)')


def _not_won(game, card: int, why: int) -> str:
    """Why no Master card was won, in words (``why`` is NO_MASTER, ALL_NO or UNANIMOUS)."""
    if why == NO_MASTER:
        return "the Master deck was empty"
    name = game.card_names[card]
    if why == ALL_NO:
        return f'everyone voted NO, and in that exceptional round "{NOT_WON_RULE}" (rulebook, Gameplay): {name} was discarded'
    assert why == UNANIMOUS
    return f"all votes agreed and a Master rule ended the round at once (nobody collects): {name} was discarded"


# -- "done" after a proposal that ended by itself ---------------------------------------------------
def _done_after_proposal(state, event: dict[str, Any]) -> bool:
    check_keys(event, ("seat", "propose"))
    seat = seat_of(event, state.game.players)
    step = state.decision
    if step is not None and step[0] == "propose" and seat in state.acting_seats():
        return False  # the open proposal: an ordinary "done"
    closed = state.closed
    if closed is not None and closed[2] == len(state.history):
        if closed[1] == seat:
            return True
        raise IllegalAction(Reason.WRONG_PHASE, f"seat {seat} has no proposal to end: seat {closed[1]} proposed this round's mission, "
                                                f"and it ended by itself since {proposal_end(state)}")
    if closed_this_round(state) and closed[1] == seat:
        raise IllegalAction(Reason.WRONG_PHASE, f"seat {seat}'s proposal ended by itself since {proposal_end(state)}: its 'done' may be "
                                                f"written right after the last card, not later (now: {state.due()})")
    raise IllegalAction(Reason.WRONG_PHASE, f"seat {seat} has no proposal to end now: {state.due()}")


def closed_this_round(state) -> bool:
    """True when this round's proposal ended by itself and the votes are not counted yet."""
    closed = state.closed
    return closed is not None and closed[0] == state.round_no and state.rules is not None and ("result",) in state.agenda


def late_proposal(state, seat: int, value: Any) -> IllegalAction | None:
    """The refusal of a card proposed by ``seat`` after its proposal ended by itself (this round,
    before the votes are counted), naming why it ended (a fourth card with three players: "the
    mission is full"); None otherwise (the usual checks apply)."""
    step = state.decision
    if step is not None and step[0] == "propose" and seat in state.acting_seats():
        return None
    if isinstance(value, str) and value.casefold() in _DONE or not closed_this_round(state) or state.closed[1] != seat:
        return None
    name = state.game.card_names[state.game.card(value)]
    return IllegalAction(Reason.WRONG_PHASE, f"{name} cannot be proposed: {proposal_end(state)}")

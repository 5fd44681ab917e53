"""The rules engines' error vocabulary: namespaced reason codes and the exceptions that carry them.

An illegal action never changes a state: :meth:`deckpress.rules.core.game.State.apply` raises
:class:`IllegalAction` with a :class:`Reason` and a message a player understands ("Smoke pile is
finished: choose another mission").  Reason codes are stable strings (``turn.not-yours``) so
that tools and tests can match on them; messages may be reworded.

*Model:* boardgame.io ``src/core/errors.ts`` (one small module of enumerated error kinds).
"""
from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """Why an action or a log event was refused.  The part before the dot names the concern."""

    # -- whose turn ---------------------------------------------------------------------------
    NOT_YOUR_TURN = "turn.not-yours"  # a seat acted while another seat was due
    CHANCE_DUE = "turn.chance-due"  # a seat acted while a chance event (deal, draw, reshuffle) was due
    SEAT_DUE = "turn.seat-due"  # a chance event was given while a seat had to decide
    NO_SUCH_SEAT = "turn.no-such-seat"  # a seat number outside 0..players-1
    ALREADY_SUBMITTED = "turn.already-submitted"  # a second secret submission in one simultaneous step
    GAME_OVER = "game.over"  # any action after the game has ended
    # -- what the action is ------------------------------------------------------------------
    WRONG_PHASE = "phase.wrong"  # an action of the wrong kind now (a card played before a mission is chosen)
    UNKNOWN_ACTION = "action.unknown"  # no action of this game at all
    NOT_IN_HAND = "card.not-in-hand"  # the card is not in the acting seat's hand
    PILE_CLOSED = "pile.closed"  # the pile is finished or removed and cannot be chosen or played on
    WRONG_PILE = "pile.wrong"  # a card that may not go on that pile (a point card on another mission)
    # -- chance ------------------------------------------------------------------------------
    IMPOSSIBLE_OUTCOME = "chance.impossible"  # a dealt or drawn card that is not in the draw deck
    WRONG_CHANCE_EVENT = "chance.wrong-event"  # a deal where a draw is due, a draw for the wrong seat, ...
    # -- logs --------------------------------------------------------------------------------
    MALFORMED_EVENT = "log.malformed-event"  # an event that is not a mapping of the documented keys
    UNKNOWN_NAME = "log.unknown-name"  # a state, mission or card name the game does not know
    RESULT_MISMATCH = "log.result-mismatch"  # the log's recorded result differs from the replayed one
    # -- limits ------------------------------------------------------------------------------
    MOVE_LIMIT = "limit.moves"  # a game went past its declared maximum length


class RulesError(Exception):
    """Base class of every error the rules engines raise on purpose."""


class IllegalAction(RulesError):
    """An action (or log event) that the rules refuse.

    ``reason`` is a :class:`Reason`; ``message`` says in a player's words what is wrong and, where
    possible, what to do instead.  The state it was applied to is unchanged.
    """

    def __init__(self, reason: Reason, message: str):
        self.reason = reason
        self.message = message
        super().__init__(f"{reason}: {message}")


class ParameterError(RulesError):
    """Game parameters that are unknown, of the wrong type, out of range, or inconsistent."""


class MoveLimitExceeded(RulesError):
    """A game went past the maximum length its game info declares for its parameters.

    Raised by the simulation driver so that a variant that never ends is reported, never a hang.
    """

    reason = Reason.MOVE_LIMIT


class LogError(RulesError):
    """A game log that cannot be replayed at all: unreadable, not YAML/JSON, or a bad header.

    ``location`` is ``file:line`` (or ``file``) for the message.
    """

    def __init__(self, location: str, message: str):
        self.location = location
        self.message = message
        super().__init__(f"{location}: {message}")

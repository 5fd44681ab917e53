"""Replay: check a recorded game event by event through the validating path.

Each event is parsed back from its log form (names to actions; an unknown name or key is an
error of that event), chance events are compared with the chance event due (a deal where a draw
is due, a draw for the wrong seat), and every action goes through :meth:`State.apply`.  The
first refused event stops the replay and is reported with its 1-based index, its line in the
file, its reason code and a message.  When every event is legal the final scores are reported,
and checked against the log's recorded ``result`` if it has one.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from deckpress.rules.core.errors import IllegalAction, LogError, ParameterError, Reason
from deckpress.rules.core.game import CHANCE, Game, State
from deckpress.rules.core.log import GameLog, expand, format_event
from deckpress.rules.core.registry import game_class, known_games, load

if TYPE_CHECKING:
    from deckpress.generator.content import GameContent


@dataclass(frozen=True)
class EventError:
    """The first refused event: ``index`` is 1-based (None for the log's ``result``), ``line`` its
    line in the file (0 when unknown)."""

    index: int | None
    line: int
    reason: Reason
    message: str

    def where(self, source: str) -> str:
        """``file:line: event N`` (or ``file:line: result``) for messages."""
        place = f"{source}:{self.line}" if self.line else source
        return f"{place}: {'result' if self.index is None else f'event {self.index}'}"


@dataclass
class ReplayResult:
    """What a replay found: the game, the state reached, how many events were accepted, the first
    error if any, and warnings (content or rules version different from the recording's)."""

    log: GameLog
    game: Game
    state: State
    checked: int = 0
    error: EventError | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every event (and the recorded result, if any) was legal and right."""
        return self.error is None

    @property
    def finished(self) -> bool:
        """True when the replayed game reached its end."""
        return self.state.is_terminal()


def replay(log: GameLog, content_dir: Path | None = None, content: "GameContent | None" = None,
           on_event: Callable[[int, Any, State], None] | None = None) -> ReplayResult:
    """Check ``log`` against the rules of its game, with the shipped content, the content folder
    ``content_dir``, or already loaded ``content``; ``on_event(index, event, state)`` is called
    after each legal event (1-based index), for a trace.

    Raises:
        LogError: the log names no known game or has parameters the game refuses.
        deckpress.generator.errors.ContentErrors: the game's content is invalid.
    """
    cls = game_class(log.game) if log.game in known_games() else None
    declared = {p.name for p in cls.info.params} if cls is not None else set()
    if "players" in declared and "players" not in log.params and set(log.params) <= declared:
        # a default would replay the wrong table and fail somewhere unrelated (issue 12)
        raise LogError(f"{log.source}:{log.params_line}" if log.params_line else log.source,
                       "the log does not say how many players sat at the table: add 'params: {players: N}' to its header")
    try:
        if content is not None:
            game = game_class(log.game).create(content, log.ruleset, log.params)
        else:
            game = load(log.game, log.ruleset, log.params, content_dir=content_dir)
    except ParameterError as exc:
        line = log.params_line if log.params or log.ruleset else 0
        raise LogError(f"{log.source}:{line}" if line else log.source, str(exc)) from None
    result = ReplayResult(log, game, game.new_state())
    if log.content_hash and log.content_hash != game.content_hash:
        result.warnings.append(f"the log was recorded with other content ({log.content_hash[:19]}...); "
                               f"replaying with {game.content_hash[:19]}...")
    if log.engine and log.engine.split(", ")[-1] != game.engine_version().split(", ")[-1]:
        result.warnings.append(f"the log was recorded by {log.engine}; these are {game.engine_version()}")
    for index, event in enumerate(log.events):
        try:
            _apply_event(result.state, event)
        except IllegalAction as exc:
            result.error = EventError(index + 1, log.line_of(index), exc.reason, exc.message)
            return result
        result.checked += 1
        if on_event is not None:
            on_event(index + 1, event, result.state)
    if log.result is not None:
        _check_result(result)
    return result


def _apply_event(state: State, event: Any) -> None:
    if not isinstance(event, dict):
        raise IllegalAction(Reason.MALFORMED_EVENT, f"an event is a mapping such as {{seat: 1, play: Goa}}, not {event!r}")
    for single in expand(event):
        seat, action = state.event_to_action(single)
        if seat == CHANCE and state.current == CHANCE:
            due = state.due_chance_event()
            given = {k: v for k, v in single.items() if k != "card"}
            if given != due:
                raise IllegalAction(Reason.WRONG_CHANCE_EVENT, f"{format_event(due)} is due, but the log has {format_event(given)}")
        state.apply(action, seat)


def _check_result(result: ReplayResult) -> None:
    """The log's recorded ``result``: its ``scores`` (the returns), ``winners`` (seats) and any word
    of the game's own :meth:`~deckpress.rules.core.game.State.outcome` (``level: gold``; any
    case), against the replay."""
    recorded = result.log.result
    if not result.finished:
        result.error = EventError(None, result.log.result_line, Reason.RESULT_MISMATCH,
                                  f"the log records a result, but the game is not over: {result.state.due()}")
        return
    outcome = result.state.outcome()
    unknown = [k for k in recorded if k not in ("scores", "winners") and k not in outcome]
    if unknown:
        result.error = EventError(None, result.log.result_line, Reason.RESULT_MISMATCH,
                                  f"the log's result names '{unknown[0]}': a result records {', '.join(['scores', 'winners', *outcome])}")
        return
    winners = recorded.get("winners")
    if winners is not None and (not isinstance(winners, list) or sorted(map(str, winners)) != sorted(map(str, result.state.winners()))):
        result.error = EventError(None, result.log.result_line, Reason.RESULT_MISMATCH,
                                  f"the log records winners {winners}, the replay gives {result.state.winners()}")
        return
    scores = result.state.returns()
    given = recorded.get("scores")
    if given is not None and (not isinstance(given, list) or [float(x) if isinstance(x, (int, float)) else x for x in given] != scores):
        result.error = EventError(None, result.log.result_line, Reason.RESULT_MISMATCH,
                                  f"the log records scores {given}, the replay gives {[_short(x) for x in scores]}")
        return
    for name, value in outcome.items():
        if name in recorded and str(recorded[name]).casefold() != value.casefold():
            result.error = EventError(None, result.log.result_line, Reason.RESULT_MISMATCH,
                                      f"the log records the {name} '{recorded[name]}', the replay gives '{value}'")
            return


def _short(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x

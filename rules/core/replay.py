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

from deckpress.generator.content.safetext import quoted
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
    #: each unseen draw (``card: "?"``): (event number, the card it was bound to, shown later)
    unseen: list[tuple[int, str, bool]] = field(default_factory=list)

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
        deckpress.generator.content.errors.ContentErrors: the game's content is invalid.
    """
    cls = game_class(log.game) if log.game in known_games() else None
    declared = {p.name for p in cls.info.params} if cls is not None else set()
    if "players" in declared and "players" not in log.params and set(log.params) <= declared:
        # a default would replay the wrong table and fail somewhere unrelated
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
    result.warnings.extend(f"parameter {message}" for message in game.ignored_params(log.params))
    result.warnings.extend(game.inert_rules())
    if log.content_hash and log.content_hash != game.content_hash:
        result.warnings.append(f"the log was recorded with other content ({log.content_hash[:19]}...); "
                               f"replaying with {game.content_hash[:19]}...")
    if log.engine and log.engine.split(", ")[-1] != game.engine_version().split(", ")[-1]:
        result.warnings.append(f"the log was recorded by {log.engine}; these are {game.engine_version()}")
    singles, malformed = _flatten(log.events, game)
    solved = _solve(game, singles, malformed)
    if solved.bound:
        result.warnings.extend(_unshown_warnings(game, singles, solved))
    # the events once more, in the order found, for the trace and the state reached
    state, done = game.new_state(), 0
    for position, (k, concrete) in enumerate(solved.order):
        _apply_one(state, concrete)
        if k in solved.bound:
            result.unseen.append((singles[k].index + 1, str(concrete[singles[k].unseen_key()]), solved.bound[k][1]))
        single_done = solved.completes.get(position)
        if single_done is not None:
            for index in single_done:
                done += 1
                if on_event is not None:
                    on_event(index + 1, log.events[index], state)
    result.state, result.checked = state, done
    if solved.error is not None:
        index, why = solved.error
        result.error = EventError(index + 1, log.line_of(index), why.reason, why.message)
        return result
    if log.result is not None:
        _check_result(result)
    return result


# -- solving: chance events in any order within a step, unseen draws ---------------------------
#: Events applied while binding unseen draws before replay gives up (hostile or contradictory logs).
MAX_SEARCH_STEPS = 200_000
#: How an unseen outcome is written: ``{chance: draw, seat: 1, card: "?"}``.
UNSEEN = "?"


@dataclass
class _Single:
    """One single event (a ``cards`` list expanded): its 0-based event ``index``, the ``event``,
    whether it is a chance event, the key whose value is :data:`UNSEEN` (None when all are
    given), and the names it mentions (case-folded), to order the cards an unseen draw may be."""

    index: int
    event: dict[str, Any]
    chance: bool
    unseen: str | None
    names: frozenset[str]

    def unseen_key(self) -> str:
        """:attr:`unseen`, for a single known to be an unseen draw (one the solver bound to an
        outcome).  Raises ValueError when it gives every value: a bug of the solver."""
        if self.unseen is None:
            raise ValueError(f"event {self.index + 1} is no unseen draw, but was read as one")
        return self.unseen


@dataclass
class _Solution:
    """The order the singles were applied in (single number, concrete event), for each position
    the events that were complete after it, the first error (event index, why), and the outcome
    each unseen single was bound to: ``bound[single number] = (action, shown later)``."""

    order: list[tuple[int, dict[str, Any]]]
    completes: dict[int, list[int]]
    error: tuple[int, IllegalAction] | None
    bound: dict[int, tuple[int, bool]]


def _flatten(events: list[Any], game: Game) -> tuple[list[_Single], tuple[int, IllegalAction] | None]:
    """The single events of ``events`` up to the first malformed one, and that one's error (an
    event that is not a mapping, or is empty, is shown examples of ``game``'s own events)."""
    singles: list[_Single] = []
    for index, event in enumerate(events):
        try:
            if not isinstance(event, dict):
                raise IllegalAction(Reason.MALFORMED_EVENT, f"an event is a mapping such as {_examples(game)}, not {quoted(event)}")
            if not event:
                raise IllegalAction(Reason.MALFORMED_EVENT, "the event is empty: write a seat's move or a chance event, "
                                                            f"such as {_examples(game)}")
            for single in expand(event):
                unseen = next((k for k, v in single.items() if v == UNSEEN and k not in ("chance", "seat")), None)
                if unseen is not None and "chance" not in single:
                    raise IllegalAction(Reason.MALFORMED_EVENT, f"'{UNSEEN}' stands for a card nobody saw in a chance event (a deal, a "
                                                                "draw); a seat's move names what the seat does")
                names = frozenset(str(v).casefold() for k, v in single.items() if k not in ("chance", "seat") and v != UNSEEN)
                singles.append(_Single(index, single, "chance" in single, unseen, names))
        except IllegalAction as exc:
            return singles, (index, exc)
    return singles, None


#: Events a game is played through to find a seat's move for :func:`_examples`.
EXAMPLE_STEPS = 1000


def _examples(game: Game) -> str:
    """Two events of ``game`` in its log form, for messages: its first chance event and the first
    seat's move, each the first legal one, found by playing from a new state (the same for every
    log of the game: the engines are deterministic)."""
    state = game.new_state()
    found: list[dict[str, Any]] = []
    for _ in range(EXAMPLE_STEPS):
        if state.is_terminal():
            break
        if state.current == CHANCE:
            action = state.legal_actions()[0]
            if not found:
                found.append(state.action_to_event(action, CHANCE))
            state.apply_trusted(action, CHANCE)
            continue
        seats = state.acting_seats()
        if seats and state.legal_actions(seats[0]):
            found.append(state.action_to_event(state.legal_actions(seats[0])[0], seats[0]))
        break
    return " or ".join(format_event(e) for e in found[::-1]) or "{seat: 0, KEY: VALUE}"


def _solve(game: Game, singles: list[_Single], malformed: tuple[int, IllegalAction] | None, last: bool = False) -> _Solution:
    """Apply ``singles`` from a new state.  A run of consecutive chance events is applied in the
    order the engine asks for them (draws and deals of one step may be written in any order
    at a table).  An unseen draw takes the card its seat shows soonest afterwards
    (:func:`_soonest_shown`), or else a stand-in the log never names again; when its seat later
    names a card it cannot hold, the earliest unseen draw of that seat with a stand-in that could
    have been that card is bound to it for good and the log is replayed from there.  Each repair binds one draw,
    so a log is replayed at most once per unseen draw (and never more than
    :data:`MAX_SEARCH_STEPS` events in all).  The first error no repair explains is the log's.
    With ``last``, a card never named again is the last that fits rather than the first."""
    state = game.new_state()
    order: list[tuple[int, dict[str, Any]]] = []
    bound: dict[int, tuple[int, bool]] = {}  # single number -> (outcome, shown later)
    avoid: dict[int, set[int]] = {}  # single number -> outcomes it may not take
    claims: dict[int, int] = {}  # unseen single -> the later event of its seat that shows its card
    snapshots: dict[int, tuple[State, int, tuple[int, ...], int]] = {}
    position, steps = 0, 0
    run: tuple[int, ...] = ()  # the rest of a run of chance events, applied in the order the engine asks
    again: int | None = None  # the single to apply next after a repair
    while True:
        if again is not None:
            k, again = again, None
        else:
            if not run and position < len(singles) and singles[position].chance:
                end = position
                while end < len(singles) and singles[end].chance:
                    end += 1
                run, position = tuple(range(position, end)), end
            if run:
                k = _next_of_run(state, singles, run)
                run = tuple(x for x in run if x != k)
            elif position < len(singles):
                k, position = position, position + 1
            else:
                return _Solution(order, _completions(order, singles), malformed, bound)
        single = singles[k]
        steps += 1
        try:
            action = None
            if single.unseen is not None:
                if state.current != CHANCE:
                    raise IllegalAction(Reason.SEAT_DUE, f"no chance event is due now: {state.due()}")
                snapshots[k] = (state.clone(), position, run, len(order))
                if k not in bound or not bound[k][1] and not state.is_chance_outcome(bound[k][0]):
                    guess = _soonest_shown(state, singles, k, set(claims.values()), frozenset(avoid.get(k, ())))
                    if guess is not None:
                        bound[k], claims[k] = (guess[0], True), guess[1]
                    else:
                        bound[k] = (_filler(state, singles, k, last, frozenset(avoid.get(k, ()))), False)
                action = bound[k][0]
            event = _concrete(state, single, action)
            _apply_one(state, event)
        except IllegalAction as exc:
            u = _repair(singles, k, bound, avoid, claims, snapshots) if steps < MAX_SEARCH_STEPS else None
            if u is None:
                if any(singles[x].event.get("seat") == single.event.get("seat") for x in bound) and not single.chance:
                    exc = IllegalAction(exc.reason, f"{exc.message} (and no unseen draw of that seat before it can have been this card)")
                return _Solution(order, _completions(order, singles), (single.index, exc), bound)
            saved, position, run, kept = snapshots[u]
            state, order, again = saved.clone(), order[:kept], u
            continue
        order.append((k, event))


def _filler(state: State, singles: list[_Single], k: int, last: bool = False, avoid: frozenset[int] = frozenset()) -> int:
    """An outcome for the unseen chance event ``singles[k]``, not in ``avoid``: a card the log
    never names again (any such card is alike to the rest of the log); else one no later chance
    event names; else the first.  Raises
    IllegalAction when no chance event is due."""
    if state.current != CHANCE:
        raise IllegalAction(Reason.SEAT_DUE, f"no chance event is due now: {state.due()}")
    later = singles[k + 1:]
    named = frozenset().union(*(s.names for s in later))
    by_chance = frozenset().union(*(s.names for s in later if s.chance))
    outcomes = [a for a in (state.legal_actions()[::-1] if last else state.legal_actions()) if a not in avoid]
    if not outcomes:
        raise IllegalAction(Reason.IMPOSSIBLE_OUTCOME, "no card the unseen draw can have been fits the rest of the log")
    name = {a: str(state.action_to_event(a, CHANCE).get(singles[k].unseen_key(), "")).casefold() for a in outcomes}
    for unfit in (named, by_chance):
        found = next((a for a in outcomes if name[a] not in unfit), None)
        if found is not None:
            return found
    return outcomes[0]


def _repair(singles: list[_Single], k: int, bound: dict[int, tuple[int, bool]], avoid: dict[int, set[int]],
            claims: dict[int, int], snapshots: dict[int, tuple[State, int, tuple[int, ...], int]]) -> int | None:
    """The unseen draw to replay from when ``singles[k]`` was refused, or None.

    A chance event that names a card an unseen draw was guessed to be (another copy was not
    there): that draw, which must now avoid the card.  A seat's event: the earliest unseen draw
    of the same seat with a stand-in, whose chance event could have given a card the refused
    event names, bound to that card for good; or, when a draw of another seat took that card as
    a stand-in, that draw, which must now avoid it."""
    failed = singles[k]
    if failed.chance:
        for u in sorted(claims):
            action = bound[u][0]
            if u < k and u in snapshots and _outcome_name(snapshots[u][0], singles[u], action) in failed.names:
                avoid.setdefault(u, set()).add(action)
                del bound[u], claims[u]
                return u
        return None
    seat = failed.event.get("seat")
    for u in sorted(bound):
        if bound[u][1] or u >= k or singles[u].event.get("seat") != seat or u not in snapshots:
            continue
        state = snapshots[u][0]
        for action in state.legal_actions():
            if _outcome_name(state, singles[u], action) in failed.names:
                bound[u] = (action, True)
                return u
    for u in sorted(bound):
        if bound[u][1] or u >= k or u not in snapshots:
            continue
        action = bound[u][0]
        if _outcome_name(snapshots[u][0], singles[u], action) in failed.names:
            avoid.setdefault(u, set()).add(action)
            del bound[u]
            return u
    return None


def _soonest_shown(state: State, singles: list[_Single], k: int, claimed: set[int],
                   avoid: frozenset[int]) -> tuple[int, int] | None:
    """The card the unseen chance event ``singles[k]`` most likely gave, and the event that shows
    it: the card its seat names soonest afterwards (an event not already explained by another
    unseen draw) that is among the possible outcomes now and that the seat does not draw, seen,
    before that event.  A seat names a card it does not hold only after drawing it, so the soonest such
    card is the one this draw must give if a later draw cannot; None when there is none."""
    seat = singles[k].event.get("seat")
    outcomes = {_outcome_name(state, singles[k], a): a for a in state.legal_actions() if a not in avoid}
    drawn_since: set[str] = set()
    for j in range(k + 1, len(singles)):
        later = singles[j]
        if later.chance and later.event.get("seat") == seat:
            drawn_since |= later.names
        elif later.event.get("seat") == seat and j not in claimed:
            for name in sorted(later.names):
                if name in outcomes and name not in drawn_since:
                    return outcomes[name], j
    return None


def _outcome_name(state: State, single: _Single, action: int) -> str:
    """The case-folded name ``action`` gives to the unseen key of ``single``."""
    return str(state.action_to_event(action, CHANCE).get(single.unseen_key(), "")).casefold()


def _next_of_run(state: State, singles: list[_Single], run: tuple[int, ...]) -> int:
    """The single of ``run`` that matches the chance event due (the first of the run when none
    does, or no chance event is due: applying it gives the reason)."""
    first = singles[run[0]].event
    try:
        if state.said_aloud(first):  # said aloud where it was said (it changes nothing)
            return run[0]
    except IllegalAction:
        pass  # not true now: perhaps once the rest of the step is applied
    if state.current == CHANCE:
        due = state.due_chance_event()
        for k in run:
            if _skeleton(singles[k].event, due) == due and not _says(state, singles[k].event):
                return k
    return run[0]


def _says(state: State, event: dict[str, Any]) -> bool:
    """Whether ``event`` is an announcement (true or not) rather than an event to apply."""
    try:
        return state.said_aloud(event)
    except IllegalAction:
        return True


def _skeleton(event: dict[str, Any], due: dict[str, Any]) -> dict[str, Any]:
    """``event`` without its outcome: the keys a chance event due has, and ``chance`` and ``seat``."""
    return {k: v for k, v in event.items() if k in due or k in ("chance", "seat")}


def _concrete(state: State, single: _Single, action: int | None) -> dict[str, Any]:
    """The single's event, with the outcome ``action`` written in for an unseen one."""
    if action is None:
        return single.event
    key = single.unseen_key()
    return {**single.event, key: state.action_to_event(action, CHANCE)[key]}


def _apply_one(state: State, single: dict[str, Any]) -> None:
    if state.said_aloud(single):
        return
    seat, action = state.event_to_action(single)
    if seat == CHANCE and state.current == CHANCE:
        due = state.due_chance_event()
        given = _skeleton(single, due)
        if given != due:
            why = state.why_due()
            expected = f"{why} ({format_event(due)})" if why else f"{format_event(due)} is due"
            raise IllegalAction(Reason.WRONG_CHANCE_EVENT, f"{expected}, but the log has {format_event(given)}")
    state.apply(action, seat)


def _completions(order: list[tuple[int, dict[str, Any]]], singles: list[_Single]) -> dict[int, list[int]]:
    """For each position of ``order``, the events (0-based) whose last single it applied, in
    the order they are reported."""
    left: dict[int, int] = {}
    for s in singles:
        left[s.index] = left.get(s.index, 0) + 1
    out: dict[int, list[int]] = {}
    for position, (k, _) in enumerate(order):
        index = singles[k].index
        left[index] -= 1
        if left[index] == 0:
            out.setdefault(position, []).append(index)
    return out


def _unshown_warnings(game: Game, singles: list[_Single], solved: _Solution) -> list[str]:
    """A warning when unseen draws are never named again, saying whether the result depends on
    which cards they were: the log is solved once more with other such cards (the last that fit
    instead of the first) and the scores and tallies compared after every event."""
    never = sorted({singles[k].index + 1 for k, (_, shown) in solved.bound.items() if not shown})
    if not never:
        return []
    other = _solve(game, singles, None, last=True)
    courses = []
    for solution in (solved, other):
        state, course = game.new_state(), []
        for _, event in solution.order:
            _apply_one(state, event)
            course.append((state.returns(), state.tally()))
        courses.append((course, state.is_terminal()))
    shown = ("events " if len(never) > 1 else "event ") + ", ".join(map(str, never))
    if other.error is not None:
        return [f"the unseen draws of {shown} are never shown later; replayed with cards no later event names "
                "(whether the result depends on which they were could not be told)"]
    if courses[0] != courses[1]:
        return [f"the unseen draws of {shown} are never shown later, and the result depends on them: name them in the log"]
    return [f"the unseen draws of {shown} are never shown later (the result does not depend on them)"]


def _check_result(result: ReplayResult) -> None:
    """The log's recorded ``result``: its ``scores`` (the returns), ``winners`` (seats) and any word
    of the game's own :meth:`~deckpress.rules.core.game.State.outcome` (``level: gold``; any
    case), against the replay."""
    recorded = result.log.result
    if recorded is None:  # nothing recorded, nothing to check
        return
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

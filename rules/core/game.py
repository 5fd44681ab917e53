"""Game, State and View: the contract every rules engine implements, and the checks it shares.

A :class:`Game` is immutable: validated content plus effective parameters.  It makes
:class:`State` objects.  A state says who is due through :attr:`State.current`:

* a seat number ``0..players-1``: that seat decides;
* :data:`CHANCE`: a chance event (deal, draw, reshuffle) is due; :meth:`State.chance_outcomes`
  lists its outcomes with probabilities, and the caller applies one like any other action;
* :data:`SIMULTANEOUS`: several seats each submit one action (:meth:`State.acting_seats`); the
  state keeps the submissions hidden and resolves them when the last one arrives;
* :data:`ANY`: any one of several seats may act (:meth:`State.any_seats`, typically every seat with
  a legal action: a game with no turn order); the first action applied wins, and the state moves on
  as after an ordinary move.  The simulation driver picks the seat with its seeded generator;
  replay accepts the action of any seat that may act;
* :data:`TERMINAL`: the game is over; :meth:`State.returns` gives each seat's result.

A game implements a handful of short private methods (``_legal_actions``, ``_apply``, ``_why_illegal``,
...); the public ones here add the shared handling of terminal states, chance nodes and wrong
seats, so that an illegal action always raises :class:`~deckpress.rules.core.errors.IllegalAction` with a
reason and leaves the state unchanged.  :meth:`State.apply_trusted` skips the checks: the
simulation driver uses it for actions its bots chose from the legal list.

*Models:* OpenSpiel ``open_spiel/python/games/kuhn_poker.py`` (Game, State, observer; chance
outcomes) and its README's implementation notes; boardgame.io's mandatory invalid-move check.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    ClassVar,
    Mapping,
    Protocol,
    Self,
    Sequence,
)

from deckpress.rules.core.errors import IllegalAction, ParameterError, Reason
from deckpress.rules.core.params import Param, Reading, ignored, resolve

if TYPE_CHECKING:
    from deckpress.generator.content import GameContent
    from deckpress.generator.content.errors import ContentError
    from deckpress.rules.core.balance import Effect
    from deckpress.rules.core.measures import Measure
    from deckpress.rules.core.simulate import Tally

#: :attr:`State.current` when a chance event is due (also the "seat" of chance events in a history).
CHANCE = -1
#: :attr:`State.current` when several seats each submit one action before anything is revealed.
SIMULTANEOUS = -2
#: :attr:`State.current` when the game is over.
TERMINAL = -3
#: :attr:`State.current` when any one of several seats (:meth:`State.any_seats`) may act; the first
#: action applied wins (50 Missions' timed variant: "whoever wants to play a card, plays it").
ANY = -4


class BatchedEngine(Protocol):
    """A game's batched engine (:meth:`Game.batched`): a second implementation of its rules for
    fixed bots that plays many games at once, tested against the reference engine's distribution."""

    #: Games per chunk: the unit of work and of seeding, fixed so results never depend on workers.
    chunk_games: int

    def play_chunk(self, seed: int, start: int, stop: int) -> "Tally":
        """Play games ``start..stop-1`` of a run seeded ``seed`` and count them."""


@dataclass(frozen=True)
class GameInfo:
    """What a game is, declared at the top of its module.

    ``max_length`` and ``score_range`` are functions of the :class:`Game` instance, so bounds follow
    the actual parameters (more players, longer games).  ``max_length`` counts every action,
    chance events included; the simulation driver stops a game that goes past it.  ``version``
    changes whenever the game's rules code changes the outcome of a recorded game.
    """

    id: str
    name: str
    version: int
    rulebook: str
    chance: bool
    hidden_information: bool
    simultaneous: bool
    cooperative: bool
    params: tuple[Param, ...]
    # called with the game's own Game subclass, whose attributes the functions read
    max_length: Callable[[Any], int]
    score_range: Callable[[Any], tuple[float, float]]
    rulesets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: What :meth:`State.returns` measures, in words, for report titles ("points", "missions completed").
    result_name: str = "score"
    #: Games per side that ``deckpress check`` simulates by default: enough for a win rate within
    #: about ±2 points, few enough that base and variant finish within its time limit with the
    #: game's default bots on this project's machine (2 cores).
    check_games: int = 2000
    #: The rulebook's sentences the engine can read more than one way, each a parameter
    #: (:class:`~deckpress.rules.core.params.Reading`): what ``deckpress describe`` lists.
    readings: tuple[Reading, ...] = ()

    def param(self, name: str) -> Param:
        """The declaration of parameter ``name`` (KeyError if there is none)."""
        return next(p for p in self.params if p.name == name)


class Game:
    """An immutable game: content and effective parameters.  Subclasses set :attr:`info` and
    :attr:`state_class`, and read what they need from ``content`` in ``__init__`` (call super)."""

    info: ClassVar[GameInfo]
    state_class: type["State"]  # on the class, or on the instance where a mode picks it

    def __init__(self, content: "GameContent", params: Mapping[str, Any]):
        self.content = content
        self.params = params
        self.players: int = params["players"]

    @classmethod
    def create(cls, content: "GameContent", ruleset: str | None = None,
               overrides: Mapping[str, Any] | None = None) -> "Game":
        """A game from validated content, a ruleset name and explicit parameter values.

        Raises:
            ParameterError: unknown ruleset or parameter, bad value, or values that do not fit
                together or with the content.
        """
        if content.game_id != cls.info.id:
            raise ParameterError(f"content of '{content.game_id}' given to the rules of '{cls.info.id}'")
        params = resolve(cls.info.params, cls.info.rulesets, ruleset, overrides, cls.content_defaults(content))
        return cls(content, params)

    def ignored_params(self, given: Mapping[str, Any]) -> list[str]:
        """The ``given`` parameters that do not apply to this game's mode, with a non-default
        value, in words (see :func:`deckpress.rules.core.params.ignored`)."""
        return ignored(self.info.params, self.params, given, self.content_defaults(self.content))

    def inert_rules(self) -> list[str]:
        """Warnings, in words, for parameter choices that make a rule never act in this game
        (Maybe Missions: reduce randomness drawing from the votes not dealt, at 6 players).
        None by default."""
        return []

    def seat_order_note(self) -> str | None:
        """Why seats may not be alike in this game, in words, added to a seat-order finding
        (:mod:`deckpress.rules.core.balance`); None when the engine knows no reason."""
        return None

    def inert_effects(self, tallies: Mapping[str, int]) -> list["Effect"]:
        """How often each card or rule this engine can judge had a chance to act, and changed a
        result, from a run's summed tallies (:mod:`deckpress.rules.core.balance`).  By default the
        tallies' ``in force: K`` / ``changed the result: K`` pairs; a game names its cards."""
        from deckpress.rules.core.balance import tally_effects

        return tally_effects(tallies)

    @classmethod
    def content_defaults(cls, content: "GameContent") -> dict[str, Any]:
        """Values of parameters declared with a ``FROM_CONTENT`` default (none by default)."""
        return {}

    @classmethod
    def content_errors(cls, content: "GameContent") -> list["ContentError"]:
        """Located errors (``file:line:column``) for valid content this engine cannot play, such
        as a rule kind it does not implement; ``deckpress validate`` reports them.  None by default."""
        return []

    def measures(self, tallies: Mapping[str, int], games: int) -> list["Measure"]:
        """The figures a simulation report shows for this game, from its states' summed
        :meth:`State.tally` counts over ``games`` games.  By default every count as a mean per
        game; a game overrides this to report rates (see :mod:`deckpress.rules.core.measures`)."""
        from deckpress.rules.core.measures import per_game

        return [per_game("Counts per game", name, total) for name, total in sorted(tallies.items())]

    def new_state(self) -> "State":
        """The state at the start of a game (often a chance node: the deal)."""
        return self.state_class(self)

    def batched(self, bots: Sequence[str]) -> "BatchedEngine":
        """The game's batched engine for these bots: many games at once on arrays, with the same
        distribution of results as the reference engine but not the same games (``deckpress
        simulate --batched``).  Games without one inherit this refusal.

        Raises:
            ParameterError: no batched engine for this game, its parameters or these bots (the
                message says which and why).
        """
        raise ParameterError(f"{self.info.name} has no batched engine: simulate it with the reference engine")

    def max_length(self) -> int:
        """Most actions (chance events included) a game with these parameters may take."""
        return self.info.max_length(self)

    def score_range(self) -> tuple[float, float]:
        """Lowest and highest return a seat can get with these parameters."""
        return self.info.score_range(self)

    @property
    def content_hash(self) -> str:
        """The content's hash (``sha256:...``), recorded in logs and reports."""
        return _content_hash(self.content)

    def engine_version(self) -> str:
        """``deckpress <package version>, <game id> rules v<n>``: written into every log."""
        return f"deckpress {_package_version()}, {self.info.id} rules v{self.info.version}"


class State:
    """The mutable part of a game.  Subclasses declare ``__slots__`` for their own data.

    What a game implements (each a few lines):

    * ``__init__(game)``: call ``super().__init__(game)``, set up, set :attr:`current`;
    * ``_legal_actions(seat)``: sorted legal actions of a seat that is due;
    * ``chance_outcomes()``: ``[(action, probability), ...]`` at a chance node;
    * ``_apply(action, seat)``: the move itself, trusted (already checked);
    * ``_why_illegal(action, seat)``: an :class:`IllegalAction` saying why ``action`` is refused;
    * ``due()``: who or what is due, in words, for messages;
    * ``returns()``, ``view(seat)``, ``action_to_event(action, seat)``, ``event_to_action(event)``,
      ``to_dict()``, ``check_invariants()``;
    * for simultaneous steps: ``simultaneous_seats()`` and ``_resolve_simultaneous(submissions)``;
    * for steps where any of several seats may act (:data:`ANY`): ``any_seats()`` (and, to check
      one seat faster, ``is_any_seat(seat)``).

    Optional speed-ups: ``sample_chance(u)``, ``is_chance_outcome(action)`` and ``_is_legal(action,
    seat)`` (validated apply asks it instead of building the legal list; it must agree with
    ``_legal_actions``, which ``tests/rules/test_core.py`` checks for every game).

    A subclass declares ``game: ItsGame`` (an annotation only, beside its ``__slots__``) so that
    mypy knows the attributes of its own :class:`Game` subclass.
    """

    __slots__ = ("game", "current", "history", "_pending")

    def __init__(self, game: Game):
        self.game = game
        self.current = TERMINAL
        self.history: list[tuple[int, int]] = []
        self._pending: dict[int, int] = {}

    # -- who is due ---------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.current == TERMINAL

    def acting_seats(self) -> tuple[int, ...]:
        """The seats that may act now: the current seat, every seat that still has to submit in
        a simultaneous step, or every seat of :meth:`any_seats`; ``()`` at chance and terminal nodes."""
        cur = self.current
        if cur >= 0:
            return (cur,)
        if cur == SIMULTANEOUS:
            pending = self._pending
            seats = self.simultaneous_seats()
            return tuple([s for s in seats if s not in pending]) if pending else tuple(seats)
        if cur == ANY:
            return self.any_seats()
        return ()

    def may_act(self, seat: int) -> bool:
        """True when ``seat`` is one of :meth:`acting_seats`, asked without listing them (an
        :data:`ANY` step asks :meth:`is_any_seat`): what validated apply checks on every move."""
        cur = self.current
        if cur >= 0:
            return seat == cur
        if cur == SIMULTANEOUS:
            return seat not in self._pending and seat in self.simultaneous_seats()
        if cur == ANY:
            return self.is_any_seat(seat)
        return False

    def submitted(self, seat: int) -> bool:
        """True when ``seat`` has made its hidden submission in the current simultaneous step."""
        return seat in self._pending

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """The sorted legal actions of ``seat`` (default: the seat due).  At a chance node (with
        ``seat`` None or :data:`CHANCE`), the possible outcomes; ``[]`` for a seat that is not due
        and once the game is over."""
        cur = self.current
        if cur == CHANCE:
            return sorted(a for a, _ in self.chance_outcomes()) if seat in (None, CHANCE) else []
        if seat is None:
            seat = cur
        if not self.may_act(seat):
            return []
        return self._legal_actions(seat)

    # -- applying -----------------------------------------------------------------------------
    def apply(self, action: int, seat: int | None = None) -> None:
        """Apply ``action`` for ``seat`` (default: the seat due, or chance at a chance node),
        checking it first.

        Raises:
            IllegalAction: game over, not this seat's turn, chance event due (or not due), or an
                action the rules refuse (the game's reason: not in hand, pile closed, ...).  The
                state is unchanged.
        """
        cur = self.current
        if cur == TERMINAL:
            raise IllegalAction(Reason.GAME_OVER, "the game is over: no more moves")
        if cur == CHANCE:
            if seat != CHANCE and seat is not None:
                raise IllegalAction(Reason.CHANCE_DUE, f"seat {seat} cannot act now: {self.why_due() or f'{self.due()} is due'}")
            if not self.is_chance_outcome(action):
                raise self._why_illegal(action, CHANCE)
            seat = CHANCE
        else:
            if seat is None:
                if cur < 0:
                    raise IllegalAction(Reason.NOT_YOUR_TURN, f"several seats act now ({self.due()}): name the seat")
                seat = cur
            if not 0 <= seat < self.game.players:
                if seat == CHANCE:
                    raise IllegalAction(Reason.SEAT_DUE, f"no chance event is due now: {self.due()}")
                raise IllegalAction(Reason.NO_SUCH_SEAT, f"there is no seat {seat}: seats are 0 to {self.game.players - 1}")
            if not self.may_act(seat):
                if cur == SIMULTANEOUS and seat in self._pending:
                    raise IllegalAction(Reason.ALREADY_SUBMITTED, f"seat {seat} has already made its choice this step")
                raise IllegalAction(Reason.NOT_YOUR_TURN, f"it is not seat {seat}'s turn: {self.due()}")
            if not self._is_legal(action, seat):
                raise self._why_illegal(action, seat)
            if cur == SIMULTANEOUS:
                self.apply_trusted(action, seat)
                return
        # What apply_trusted does for an ordinary move or chance event, written out as play_game
        # does (one call fewer on every move checked; no engine overrides apply_trusted, tested)
        self.history.append((seat, action))
        self._apply(action, seat)

    def _is_legal(self, action: int, seat: int) -> bool:
        """True when ``action`` is among the legal actions of ``seat``, a seat that is due (any
        int may be asked: a log's action is untrusted).  A game may answer without building the
        list."""
        return action in self._legal_actions(seat)

    def apply_trusted(self, action: int, seat: int) -> None:
        """Apply ``action`` for ``seat`` (:data:`CHANCE` for chance events) without checking it:
        for actions taken from :meth:`legal_actions` or :meth:`chance_outcomes`."""
        self.history.append((seat, action))
        if self.current == SIMULTANEOUS:
            pending = self._pending
            pending[seat] = action
            if len(pending) == len(self.simultaneous_seats()):  # every seat due has submitted (only they may)
                self._pending = {}
                self._resolve_simultaneous(pending)
        else:
            self._apply(action, seat)

    # -- chance -------------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the chance event due, with probabilities summing to 1."""
        raise NotImplementedError

    def is_chance_outcome(self, action: int) -> bool:
        """True when ``action`` is a possible outcome of the chance event due."""
        return any(a == action for a, _ in self.chance_outcomes())

    def sample_chance(self, u: float) -> int:
        """The outcome at cumulative probability ``u`` (``0 <= u < 1``): the driver draws ``u`` from
        its seeded generator, so rules code needs no random generator of its own."""
        total = 0.0
        outcomes = self.chance_outcomes()
        for action, p in outcomes:
            total += p
            if u < total:
                return action
        return outcomes[-1][0]

    # -- results ------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        """Each seat's result (points, cards, ...); meaningful once the game is over."""
        raise NotImplementedError

    def winners(self) -> list[int]:
        """The seats with the best return once the game is over (several on a shared win), else
        ``[]``.  A cooperative game returns every seat when the team wins."""
        if self.current != TERMINAL:
            return []
        scores = self.returns()
        best = max(scores)
        return [s for s, v in enumerate(scores) if v == best]

    def tally(self) -> dict[str, int]:
        """Named counts of what happened in this game (point cards won, ties, ...), summed over a
        simulation run.  None by default."""
        return {}

    def outcome(self) -> dict[str, str]:
        """The game's result in the rulebook's own words, beside :meth:`returns` (50 Missions:
        ``{"level": "Silver"}``, the medal level reached); shown by ``deckpress replay`` and
        checked against a log's recorded ``result``.  Empty by default."""
        return {}

    # -- the contract games implement ----------------------------------------------------------
    def _legal_actions(self, seat: int) -> list[int]:
        raise NotImplementedError

    def _apply(self, action: int, seat: int) -> None:
        raise NotImplementedError

    def _why_illegal(self, action: int, seat: int) -> IllegalAction:
        return IllegalAction(Reason.UNKNOWN_ACTION, f"action {action} is not legal now: {self.due()}")

    def due(self) -> str:
        """Who or what is due, in a player's words ("seat 2 to play a card")."""
        cur = self.current
        return {CHANCE: "a chance event", SIMULTANEOUS: "a simultaneous choice", ANY: "any seat that can act",
                TERMINAL: "nothing (the game is over)"}.get(cur, f"seat {cur} to act")

    def due_chance_event(self) -> dict[str, Any]:
        """The log form of the chance event due, without its outcome (``{chance: draw, seat: 1}``):
        replay compares it with the log's event."""
        raise NotImplementedError

    def why_due(self) -> str:
        """Why the chance event due is due, in a player's words, when a rule made it so and the bare
        event would not say it (50 Missions: "No. 5 'Three yellow cards' was completed in slot 2:
        the mission that replaces it is due"; Maybe Missions: a hand of one vote type is dealt
        again); ``""`` by default.  Refusals of another event at a chance node say it."""
        return ""

    def view(self, seat: int) -> "View":
        """What ``seat`` may see now."""
        raise NotImplementedError

    def action_to_event(self, action: int, seat: int) -> dict[str, Any]:
        """The log form of ``action`` by ``seat`` (:data:`CHANCE` for chance) in this state, with names."""
        raise NotImplementedError

    def event_to_action(self, event: dict[str, Any]) -> tuple[int, int]:
        """``(seat, action)`` for a log event; raises IllegalAction (``log.*`` reasons) for a bad one."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain data with names (golden files, debugging)."""
        raise NotImplementedError

    def said_aloud(self, event: dict[str, Any]) -> bool:
        """Whether ``event`` is something the table says aloud that changes nothing (50 Missions: a
        medal won, ``{chance: mission, card: bronze}``), true now: replay accepts it and moves on.
        False for an event to apply.  None by default.

        Raises:
            IllegalAction: the announcement is not true now (the medal is not won yet, ...).
        """
        return False

    def news(self, before: "State") -> list[str]:
        """What the last events did, in a player's words, from ``before`` (a clone of this state
        taken before them) to now: what ``deckpress record`` says after each line and
        ``deckpress replay --trace`` after each event.  By default the named counts the tally gained
        ("won: Forest +5", "completed: total-16", "reached: bronze") and the scores when they
        changed; a game whose tally names no such gains (Geheime Mission) says who won each fight."""
        old, new = before.tally(), self.tally()
        gained = [name + (f" x{new[name] - old.get(name, 0)}" if new[name] - old.get(name, 0) > 1 else "")
                  for name in new if new[name] > old.get(name, 0) and ":" in name and not name.startswith(("displayed:", "level:"))]
        was, now = before.returns(), self.returns()
        if not gained and was == now:
            return []
        movers = [str(s) for s, (a, b) in enumerate(zip(was, now)) if a != b]
        who = f"seat {', '.join(movers)}: " if movers and len(movers) < len(now) else ""
        return [who + ("; ".join(gained) + "; " if gained else "") + "scores " + ", ".join(f"{x:g}" for x in now)]

    def check_invariants(self) -> list[str]:
        """Problems with the state's consistency (every card in one place, ...); ``[]`` when sound."""
        raise NotImplementedError

    def simultaneous_seats(self) -> tuple[int, ...]:
        """The seats that submit in the current simultaneous step (games with such steps)."""
        raise NotImplementedError

    def _resolve_simultaneous(self, submissions: dict[int, int]) -> None:
        raise NotImplementedError

    def any_seats(self) -> tuple[int, ...]:
        """At an :data:`ANY` node: the seats that may act now, sorted (games with such steps).  The
        first of them to act is applied like an ordinary move (``_apply(action, seat)``)."""
        raise NotImplementedError

    def is_any_seat(self, seat: int) -> bool:
        """At an :data:`ANY` node: True when ``seat`` is one of :meth:`any_seats` (a game may
        answer for one seat without finding them all)."""
        return seat in self.any_seats()

    # -- copies and checks --------------------------------------------------------------------
    def clone(self) -> Self:
        """An independent copy: lists and dicts are copied, the (immutable) game is shared."""
        kind = type(self)
        new = object.__new__(kind)
        names = _SLOTS.get(kind)
        if names is None:
            names = _SLOTS[kind] = tuple(name for klass in kind.__mro__ for name in getattr(klass, "__slots__", ()))
        for name in names:
            try:
                value = getattr(self, name)
            except AttributeError:  # a slot never set
                continue
            setattr(new, name, value if type(value) in _IMMUTABLE else _copy(value))
        return new


class View:
    """What one seat may see of a state.  Games subclass it with read-only properties for the
    visible parts and a :meth:`to_dict`; bots decide from views only.

    A subclass declares ``_state: ItsState`` and ``game: ItsGame`` (annotations only: the state
    and the read-only :attr:`game` stay the base's) so that mypy knows its own state and game."""

    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int):
        self._state = state
        self.seat = seat

    @property
    def game(self) -> Game:
        """The game: its rules, parameters and printed card content are public."""
        return self._state.game

    @property
    def current(self) -> int:
        """Who is due (a seat, :data:`CHANCE`, :data:`SIMULTANEOUS`, :data:`ANY` or :data:`TERMINAL`)."""
        return self._state.current

    def to_dict(self) -> dict:
        """Everything this seat sees, as plain data with names."""
        raise NotImplementedError

    def sample_state(self, rng) -> State:
        """A full state consistent with what this seat sees (a *determinisation*, for search bots
        such as ``ismcts``): a new state, never the live one, equal to the live state in
        everything the seat sees, with everything it does not see (other seats' hands, the order
        of decks, face-down cards) dealt again at random, with ``rng.random()``, from the cards
        it cannot see, keeping every count it can see.  A function of the seat's view and ``rng``
        only: states that differ only in what the seat cannot see give the same sample for the
        same ``rng`` state.  Other seats' hidden submissions of a simultaneous step in progress
        are dropped (they act again).

        Raises:
            NotImplementedError: the game's engine cannot sample its hidden information.
        """
        raise NotImplementedError(f"{self.game.info.id} cannot sample a state from a seat's view")


def shuffled(items: list, rng) -> list:
    """``items`` in a random order drawn with ``rng.random()`` (Fisher-Yates): for engines, which
    import no random module of their own (the simulation driver owns the generators)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


_HASHES: dict[int, tuple[Any, str]] = {}


def _content_hash(content: "GameContent") -> str:
    """``content.content_hash``, computed once per content object (it serialises every file)."""
    cached = _HASHES.get(id(content))
    if cached is None or cached[0] is not content:
        if len(_HASHES) > 16:
            _HASHES.clear()
        cached = _HASHES[id(content)] = (content, content.content_hash)
    return cached[1]


@lru_cache(maxsize=1)
def _package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("deckpress")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown"


#: Every slot of a state class, its own and its bases' (:meth:`State.clone`).
_SLOTS: dict[type, tuple[str, ...]] = {}
#: Values :meth:`State.clone` shares rather than copies (as :func:`_copy` would).
_IMMUTABLE = frozenset((int, float, bool, str, bytes, tuple, frozenset, type(None)))


def _copy(value: Any) -> Any:
    if isinstance(value, bytearray):
        return value[:]
    if isinstance(value, list):
        # a list of immutable items (a history of (seat, action) tuples) is copied flat; the
        # types are gathered in C, so a long history costs little to look through
        kinds = set(map(type, value))
        if kinds <= _IMMUTABLE or not any(issubclass(kind, (list, dict, bytearray)) for kind in kinds):
            return value[:]
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value

"""Sweeps: simulate a game over a grid of parameter and card values.

A sweep varies up to four things, each over a list of values: an engine parameter by name
(``tie``, ``piles_to_end``) or a card field as ``FILE:CARD-ID.FIELD``
(``point-cards:forest-bottom.points``, a point card's value).  Every point of the grid (or a
seeded random sample of ``points`` of them) is written as a variant file (``extends``, its
``ruleset`` and ``parameters``, a ``replace`` change per card field), which ``deckpress check``
accepts; the point is then simulated through that file, as ``check`` simulates a variant: merged
with its game's content, written to a temporary folder, played with the same seeds at every point.
Before any point is written, every point is checked (:func:`sweep_problems`): its parameters
against the engine, its card values merged and checked as ``check`` checks a variant's content,
and its game made from both, so that what no engine can play is refused up front.

Per point the report gives the seats' win rates and their spread (seat fairness), the first
seat's advantage over a fair share, draws, the median and mean length, and the game's own
measures (by group, a card's by its id: :func:`figures`); a cooperative game gives the team's
win rate and mean result.  The best points are those of the sweep's objective; with two
dimensions a heat map of it is drawn (:mod:`.plot`, the one module that imports matplotlib).

A point's objective comes with its 95 % interval (:func:`objective_interval`), as a simulation of
a few hundred games is noisy: with 60 games a point, the seeds 1, 2 and 3 named three different
"best" points of the same grid.  The points whose interval overlaps the best point's are *not
told apart* from it (:meth:`SweepResult.not_told_apart`), and the report, ``sweep.json`` and the
heat map say so, so that nobody takes noise for a finding.  Overlapping 95 % intervals is the
cautious reading (two points can differ and still overlap a little); more games narrow them.

The skill signal is opt-in (``Sweep.skill_games``, slow: a search bot plays): each point then also
plays ``skill_games`` games with one ``ismcts:<skill_iterations>`` seat (or ``skill_bot``:
``rollout``, ``rollout:N``) against ``greedy`` seats
(:func:`deckpress.rules.core.skill.skill_signal`) on the point's own content and parameters, the
same as its simulation, with the sweep's seed; the objective ``skill`` picks the point where
playing well pays off most (the highest
:attr:`~deckpress.rules.core.skill.SkillSignal.signal_points`).  The skill stage always runs on
local worker processes, after the point's simulation, also when the simulation runs on a Dask
cluster (its figures do not depend on where or on how many processes it runs).

The figures of a point depend only on the sweep and the content: the same on any machine, with
any number of worker processes, on any backend.
"""
from __future__ import annotations

import itertools
import json
import math
import random
import tempfile
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, Callable

import yaml

from deckpress.generator.content import GameContent, load_game
from deckpress.generator.content.errors import ContentErrors
from deckpress.generator.content.safetext import choices, excerpt
from deckpress.generator.content.schema import bundled, validate, validator
from deckpress.generator.content.variant import card_problem, merge, variant_of
from deckpress.generator.content.yamlsafe import load_yaml
from deckpress.generator.output import write_atomic
from deckpress.rules.core.skill import SKILL_ITERATIONS

#: How a sweep picks its best points; each maps a simulated point (its ``figures`` and ``skill``)
#: to a number to minimise (None: the point has no such figure).
OBJECTIVES: dict[str, Callable[[dict[str, Any]], float | None]] = {
    "fairness": lambda p: p["figures"].get("spread"),
    "first-seat": lambda p: None if p["figures"].get("first_seat_advantage") is None else abs(p["figures"]["first_seat_advantage"]),
    "shortest": lambda p: p["figures"].get("mean_length"),
    "team": lambda p: None if p["figures"].get("team_mean") is None else -p["figures"]["team_mean"],
    "skill": lambda p: None if not p.get("skill") or p["skill"].get("signal_points") is None else -p["skill"]["signal_points"],
}
OBJECTIVE_WORDS = {"fairness": "smallest spread of the seats' win rates", "first-seat": "first seat closest to a fair share",
                   "shortest": "fewest moves per game", "team": "the team's best mean result",
                   "skill": "the search bot's highest skill signal, in points"}
#: How a heat map's cell writes each objective's figure, as the text report writes it: win-rate
#: figures in percent, lengths in moves, the team's mean result, the skill signal in points.
CELL_FORMATS = {"fairness": "{:.1%}", "first-seat": "{:.1%}", "shortest": "{:.1f}", "team": "{:.2f}", "skill": "{:+.1f}"}
#: Objectives whose figure is the larger the better (a heat map shows the figure itself).
MAXIMISED = frozenset({"team", "skill"})
#: Most points a sweep simulates: the whole grid, or a random search's sample of a larger one.
MAX_POINTS = 400
#: Most values one dimension may list (``--vary``, or a sweep file's list: its schema's maxItems):
#: a grid is counted by multiplying its sizes, never built, before either limit is checked.
MAX_VALUES = 50
#: Where a sweep's output folder holds the schema its point files name, as ``deckpress init``'s
#: new game holds its schemas (the folder is anywhere: no path into this repository would do).
SCHEMAS_FOLDER = ".schemas"
VARIANT_SCHEMA = "variant.schema.json"
#: The most characters of a variant's name and description (schemas/variant.schema.json): a point's
#: values are cut to fit.
VARIANT_NAME_CHARS = 100
VARIANT_DESCRIPTION_CHARS = 5000


@dataclass(frozen=True)
class Dimension:
    """One thing a sweep varies over ``values``: an engine parameter (``target`` is its name) or a
    card field (``target`` is ``FILE:CARD-ID.FIELD``)."""

    target: str
    values: tuple

    @property
    def card(self) -> tuple[str, str, str] | None:
        """``(file, card id, field)`` for a card field, None for a parameter."""
        if ":" not in self.target:
            return None
        file, _, rest = self.target.partition(":")
        card, _, name = rest.partition(".")
        return file, card, name


@dataclass(frozen=True)
class Sweep:
    """A sweep: the game (with a rules engine), its ruleset, seats and bots (None: the game's
    defaults), games per point, the seed, the dimensions, a random search's number of points
    (None: the whole grid), the objective (a key of :data:`OBJECTIVES`) and the opt-in skill
    signal: ``skill_games`` games a point (0: off) with ``skill_iterations`` iterations a decision
    of the search bot, or ``skill_bot`` (``rollout``, ``rollout:N``) in its seat."""

    game_id: str
    dimensions: tuple[Dimension, ...]
    ruleset: str | None = None
    players: int | None = None
    bots: tuple[str, ...] | None = None
    games: int = 500
    seed: int = 1
    points: int | None = None
    objective: str = "fairness"
    skill_games: int = 0
    skill_iterations: int = SKILL_ITERATIONS
    skill_bot: str | None = None


@dataclass
class SweepResult:
    """A finished sweep: each point's values, variant file, figures (or the error that stopped
    it), skill signal (:meth:`SkillSignal.as_dict <deckpress.rules.core.skill.SkillSignal.as_dict>`,
    None when off or not simulated), and the best points by the objective."""

    sweep: Sweep
    points: list[dict[str, Any]] = field(default_factory=list)

    def best(self, n: int = 3) -> list[dict[str, Any]]:
        """The ``n`` points best by the objective (ties in grid order)."""
        key = OBJECTIVES[self.sweep.objective]
        scored = [(score, p) for p in self.points if "figures" in p and (score := key(p)) is not None]
        return [p for _, p in sorted(scored, key=lambda scored_point: scored_point[0])][:n]

    def not_told_apart(self) -> list[dict[str, Any]]:
        """The other points whose objective's 95 % interval overlaps the best point's (in grid
        order): the sweep cannot tell them from the best one.  Empty when the best point stands
        apart, or no point has an interval."""
        best = self.best(1)
        if not best or not best[0].get("objective"):
            return []
        low, high = best[0]["objective"]["interval_95"]
        return [p for p in self.points if p is not best[0] and p.get("objective")
                and p["objective"]["interval_95"][0] <= high and p["objective"]["interval_95"][1] >= low]

    def as_dict(self) -> dict[str, Any]:
        """The sweep as plain data (``deckpress sweep --format json``)."""
        s = self.sweep
        return {"game": s.game_id, "ruleset": s.ruleset, "players": s.players, "bots": list(s.bots) if s.bots else None,
                "games": s.games, "seed": s.seed, "objective": s.objective,
                "skill_games": s.skill_games, "skill_iterations": s.skill_iterations if s.skill_games and not s.skill_bot else None,
                "skill_bot": s.skill_bot if s.skill_games else None,
                "vary": {d.target: list(d.values) for d in s.dimensions},
                "points": self.points, "best": [p["index"] for p in self.best()],
                "not_told_apart_from_best": [p["index"] for p in self.not_told_apart()]}


def parse_vary(text: str) -> Dimension:
    """``--vary TARGET=V1,V2,...`` as a :class:`Dimension` (values read as YAML scalars: 7, -5, true;
    blanks dropped, as a trailing comma leaves one).

    Raises:
        ValueError: not ``TARGET=values``, more than :data:`MAX_VALUES` values (counted before
            any is read), or a value given twice (its points would be the same).
    """
    target, sep, values = text.partition("=")
    names = [v.strip() for v in values.split(",") if v.strip()]
    if len(names) > MAX_VALUES:
        raise ValueError(f"'{excerpt(target.strip())}': {len(names):,} values: at most {MAX_VALUES} a dimension "
                         "(a coarser list first, then a finer one around the best point)")
    if not sep or not target.strip() or not names:
        raise ValueError(f"'{excerpt(text)}': expected TARGET=V1,V2,... (a parameter such as tie=nobody,first-played, or a card field "
                         "such as point-cards:forest-bottom.points=5,7,9)")
    scalars = tuple(_scalar(v) for v in names)
    twice = next((name for i, (name, value) in enumerate(zip(names, scalars)) if value in scalars[:i]), None)
    if twice is not None:
        raise ValueError(f"'{excerpt(text)}': the value {excerpt(twice)} is given twice: each value is one point of the sweep")
    return Dimension(target.strip(), scalars)


def _scalar(text: str) -> Any:
    try:
        value = yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError):  # not a scalar (nested too deeply to read, even)
        return text
    return value if isinstance(value, (str, int, float, bool)) else text


def load_sweep(path: Path) -> Sweep:
    """A sweep file, checked against ``schemas/sweep.schema.json``, then against the engines and
    the content: each problem :func:`sweep_problems` finds (a game, ruleset, parameter, value,
    card value or bot no engine can play) is an error at its line, as a schema error is.  Every
    error of the file is listed in one run: the parts the schema refuses (a key, one dimension)
    are left out of the later checks, which check the rest; once ``game`` itself is refused
    nothing more can be checked.

    Raises:
        ContentErrors: the file cannot be read safely, breaks its schema or asks for what no
            engine can play (every error, at its line).
    """
    doc, errors = load_yaml(path)
    if doc is None:
        raise ContentErrors(errors)
    errors = validate(doc, "sweep.schema.json")
    refused = _refused_parts(doc.data) if errors else set()
    if not isinstance(doc.data, dict) or not isinstance(doc.data.get("game"), str) or ("game",) in refused:
        raise ContentErrors(errors)
    sweep = _sweep_of(doc.data, refused)
    errors += [doc.error(where, message, key=where[:1] == ("vary",) and len(where) <= 2) for where, message in sweep_problems(sweep)]
    if errors:
        raise ContentErrors(errors)
    return sweep


def _refused_parts(data: Any) -> set[tuple]:
    """The parts of a sweep file's ``data`` its schema refuses, as paths: a top-level key
    (``("players",)``) or one dimension (``("vary", "tie")``: its name or one of its values)."""
    parts = set()
    for err in validator("sweep.schema.json").iter_errors(data):
        path = tuple(err.absolute_path)
        if path == ("vary",) and isinstance(err.instance, str):  # a dimension's name (propertyNames): the error is at its mapping
            path += (err.instance,)
        parts.add(path[:2] if path[:1] == ("vary",) else path[:1])
    return parts


def _sweep_of(data: dict[str, Any], refused: set[tuple]) -> Sweep:
    """The :class:`Sweep` a sweep file's ``data`` asks for, each ``refused`` part left at its
    default (a refused dimension left out; a refused ``skill_bot``: no skill signal to check)."""
    d = {k: v for k, v in data.items() if (k,) not in refused}
    vary = d["vary"] if isinstance(d.get("vary"), dict) else {}
    dimensions = tuple(Dimension(k, tuple(v)) for k, v in vary.items() if ("vary", k) not in refused)
    return Sweep(d["game"], dimensions, d.get("ruleset"), d.get("players"), tuple(d["bots"]) if d.get("bots") else None,
                 d.get("games", 500), d.get("seed", 1), d.get("points"), d.get("objective", "fairness"),
                 d.get("skill_games", 0) if ("skill_bot",) not in refused else 0, d.get("skill_iterations", SKILL_ITERATIONS),
                 d.get("skill_bot"))


def sweep_problems(sweep: Sweep) -> list[tuple[tuple, str]]:
    """What no engine can play in ``sweep``, each as ``(where, message)``: ``where`` is the path of
    the value in a sweep file (``("vary", "tie", 1)``; ``("vary", "tie")`` for the key).  A game
    without an engine; a ruleset, seat count or parameter the game does not have, or a value out
    of its range, in every dimension; a bot the game cannot play or a search bot's budget out of
    range; a card file or card that the game does not have; a card value the content refuses at
    a point (:func:`_point_problems`: out of range, of the wrong type); and, when all of that is
    well, values that do not fit together or with the content at a point.  Empty when all is well."""
    from deckpress.rules.core.bots import bot_names, check_search_bot, make_bot
    from deckpress.rules.core.errors import ParameterError
    from deckpress.rules.core.ismcts import IsmctsBot
    from deckpress.rules.core.registry import game_class
    from deckpress.rules.core.skill import OPPONENT

    try:
        info = game_class(sweep.game_id).info  # registers the game's own bots
    except ParameterError as exc:
        return [(("game",), f"game: {exc}")]
    problems: list[tuple[tuple, str]] = []

    def check(where: tuple, test: Callable[[], Any]) -> None:
        try:
            test()
        except ParameterError as exc:
            problems.append((where, str(exc)))

    params = {p.name: p for p in info.params}
    if sweep.ruleset is not None and sweep.ruleset not in info.rulesets:
        problems.append((("ruleset",), f"unknown ruleset '{excerpt(sweep.ruleset)}' ({choices(sweep.ruleset, list(info.rulesets))})"))
    if sweep.players is not None:
        check(("players",), lambda: params["players"].check(sweep.players))
    content = load_game(sweep.game_id)
    cards = []  # the card dimensions whose file and card are there: their values are checked per point
    for d in sweep.dimensions:
        if d.card is not None:
            problem = card_problem(sweep.game_id, content.documents, *d.card[:2])
            if problem:
                problems.append((("vary", d.target), problem[1]))
            else:
                cards.append(d)
            continue
        if d.target not in params:
            problems.append((("vary", d.target), f"unknown parameter '{d.target}' ({choices(d.target, list(params))})"))
            continue
        for i, value in enumerate(d.values):
            check(("vary", d.target, i), partial(params[d.target].check, value))
    for i, name in enumerate(sweep.bots or ()):
        check(("bots", i), partial(make_bot, sweep.game_id, name))
    if sweep.skill_games:
        if OPPONENT not in bot_names(sweep.game_id):
            problems.append((("skill_games",), f"{sweep.game_id} has no {OPPONENT} bot, which the skill signal plays against"))
        elif sweep.skill_bot is None:
            check(("skill_iterations",), lambda: IsmctsBot(sweep.skill_iterations))
        else:
            skill_bot = sweep.skill_bot

            def search_bot() -> None:
                check_search_bot(skill_bot)
                make_bot(sweep.game_id, skill_bot)
            check(("skill_bot",), search_bot)
    problems += _point_problems(sweep, content, cards, engine=not problems)
    return [(where, f"{where[0]}: {message}") for where, message in problems]


def _point_problems(sweep: Sweep, content: GameContent, cards: list[Dimension], engine: bool) -> list[tuple[tuple, str]]:
    """What the content or the engine refuses at the points of ``sweep`` (over the shipped
    ``content``), before any is written.  Each distinct combination of the values of the card
    dimensions ``cards`` at the points is merged as a point's variant and checked as ``deckpress
    check`` checks one (the game's schemas and cross-file checks: a value out of range or of the
    wrong type), each error at the value of the card field it is in; then, with ``engine`` and no
    such error, each point's game is made from its content and parameters (values that do not fit
    together or with the content: ``piles_to_end`` above the number of missions), an error at the
    value of the parameter it names (else at ``vary``), and its seats counted against ``bots``.
    Nothing when the grid has too many points
    (:func:`grid_points` refuses it)."""
    from deckpress.rules.core.errors import ParameterError
    from deckpress.rules.core.registry import game_class

    try:
        grid = _grid(sweep)
    except ValueError:
        return []
    at = [sweep.dimensions.index(d) for d in cards]
    merged: dict[tuple, GameContent] = {}  # the content of each combination that merges without error
    found: dict[tuple, tuple[tuple, str]] = {}  # each problem once, in the order found
    by_message: dict[tuple[int, str], list[int]] = {}  # (dimension, message) -> the values that give it
    for combo in dict.fromkeys(tuple(point[i] for i in at) for point in grid):
        point_content, errors = _merged_point(sweep, content, {d.target: d.values[i] for d, i in zip(cards, combo)})
        if point_content is not None:
            merged[combo] = point_content
        for k, message in errors:
            giving = by_message.setdefault((k, message), [])
            if combo[k] not in giving:
                giving.append(combo[k])
    for (k, message), giving in by_message.items():  # a message every value gives (a path typo): once, at the dimension
        first: tuple = ("vary", cards[k].target, giving[0])
        shown = ", ".join(excerpt(str(cards[k].values[i])) for i in giving)
        found.setdefault((first, message), (first, f"{cards[k].target}={shown}: {message}"))
    if found or not engine:  # by dimension, then value, as the file and the command line give them
        targets = [d.target for d in sweep.dimensions]
        return sorted(found.values(), key=lambda problem: (targets.index(problem[0][1]), problem[0][2]))
    klass = game_class(sweep.game_id)
    for index, point in enumerate(grid):
        values = {d.target: d.values[i] for d, i in zip(sweep.dimensions, point)}
        try:
            game = klass.create(merged[tuple(point[i] for i in at)], sweep.ruleset, variant_for(sweep, values, index).get("parameters"))
        except ParameterError as exc:
            named = next((d for d in sweep.dimensions if d.card is None and f"'{d.target}'" in str(exc)), None)
            where = ("vary",) if named is None else ("vary", named.target, point[sweep.dimensions.index(named)])
            shown = ", ".join(f"{k}={excerpt(str(v))}" for k, v in values.items() if named is None or k == named.target)
            found.setdefault((where, str(exc)), (where, f"{shown}: {exc}"))
            continue
        if sweep.bots and len(sweep.bots) != game.players:
            message = f"{len(sweep.bots)} bots for {game.players} seats: give one bot per seat, in seat order"
            found.setdefault((("bots",), message), (("bots",), message))
    return list(found.values())


def _merged_point(sweep: Sweep, content: GameContent, values: dict[str, Any]) -> tuple[GameContent | None, list[tuple[int, str]]]:
    """``content`` with the card fields of a point set to ``values`` (by card dimension, in the
    sweep's order), merged and checked as the point's variant file is: ``(merged content, [])``,
    or ``(None, errors)`` with each error as ``(the index in values of the field it is at,
    message)``.  ``content`` itself when ``values`` is empty."""
    if not values:
        return content, []
    cards = replace(sweep, dimensions=tuple(d for d in sweep.dimensions if d.target in values), ruleset=None, players=None)
    text = yaml.safe_dump(variant_for(cards, values, 0), sort_keys=False, allow_unicode=True, width=1000)
    doc, errors = load_yaml(Path("sweep-point.yaml"), text=text)
    variant, errors = variant_of(doc) if doc is not None else (None, errors)
    merged, errors = merge(variant, content) if variant is not None else (None, errors)
    if not errors:
        return merged, []
    starts = [doc.where(("changes", k))[0] if doc is not None else 0 for k in range(len(values))]
    # the merge's general note ("changes: the cross-file checks ran without ...") is about the others
    shown = [e for e in errors if not e.message.startswith("changes: ")] or errors
    return None, [(max((k for k, line in enumerate(starts) if line <= e.line), default=0), e.message) for e in shown]


def grid_points(sweep: Sweep) -> list[dict[str, Any]]:
    """The points of ``sweep``: every combination of its dimensions' values, in order (the first
    dimension slowest), or ``sweep.points`` of them drawn with ``sweep.seed``, kept in grid order.

    Raises:
        ValueError: more than :data:`MAX_POINTS` points.
    """
    return [{d.target: d.values[i] for d, i in zip(sweep.dimensions, point)} for point in _grid(sweep)]


def grid_size(sweep: Sweep) -> int:
    """The number of points of ``sweep``'s whole grid: the product of its dimensions' sizes
    (counted, not built)."""
    return math.prod(len(d.values) for d in sweep.dimensions)


def _grid(sweep: Sweep) -> list[tuple[int, ...]]:
    """The points of :func:`grid_points`, each as the indices of its values in the dimensions.
    The grid is counted (:func:`grid_size`) before anything is built; a random search draws the
    positions of its points in the grid (``random.Random(seed).sample`` of a ``range``, which is
    never listed) and turns each into its point, so that sampling 10 points of a grid of millions
    takes what 10 points take.  The points are those of ``itertools.product`` at the same
    positions (the first dimension slowest).

    Raises:
        ValueError: a dimension of more than :data:`MAX_VALUES` values, or more than
            :data:`MAX_POINTS` points.
    """
    sizes = [len(d.values) for d in sweep.dimensions]
    wide = next((d for d in sweep.dimensions if len(d.values) > MAX_VALUES), None)
    if wide is not None:
        raise ValueError(f"{wide.target}: {len(wide.values):,} values: at most {MAX_VALUES} a dimension")
    total = grid_size(sweep)
    if sweep.points is not None and sweep.points < total:
        if sweep.points > MAX_POINTS:
            raise ValueError(f"{sweep.points:,} points: at most {MAX_POINTS} (fewer values, or a random search with fewer points)")
        return [_point_at(i, sizes) for i in sorted(random.Random(sweep.seed).sample(range(total), sweep.points))]
    if total > MAX_POINTS:
        raise ValueError(f"{total:,} points: at most {MAX_POINTS} (fewer values, or a random search with points, "
                         f"such as --points {min(MAX_POINTS, 50)})")
    return list(itertools.product(*(range(n) for n in sizes)))


def _point_at(position: int, sizes: list[int]) -> tuple[int, ...]:
    """The point at ``position`` of the grid of dimensions of ``sizes`` (the first slowest), as
    ``list(itertools.product(*map(range, sizes)))[position]`` is, without building the grid."""
    indices = []
    for size in reversed(sizes):
        position, index = divmod(position, size)
        indices.append(index)
    return tuple(reversed(indices))


def variant_for(sweep: Sweep, values: dict[str, Any], index: int) -> dict[str, Any]:
    """The variant file of one point: its parameters and one ``replace`` per card field."""
    parameters = {d.target: values[d.target] for d in sweep.dimensions if d.card is None}
    if sweep.players:
        parameters["players"] = sweep.players
    changes = []
    for d in sweep.dimensions:
        if d.card is not None:
            file, card, name = d.card
            changes.append({"replace": {"file": file, "id": card, "fields": {name: values[d.target]}}})
    shown = ", ".join(f"{k} = {v}" for k, v in values.items())
    variant: dict[str, Any] = {"extends": sweep.game_id, "name": _cut(f"Sweep point {index + 1}: {shown}", VARIANT_NAME_CHARS),
                               "author": "deckpress sweep", "version": "1.0",
                               "description": _cut(f"One point of a sweep of {sweep.game_id}: {shown}.", VARIANT_DESCRIPTION_CHARS)}
    if sweep.ruleset:
        variant["ruleset"] = sweep.ruleset
    if parameters:
        variant["parameters"] = parameters
    if changes:
        variant["changes"] = changes
    return variant


def _cut(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, an ellipsis saying so."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def run_sweep(sweep: Sweep, out: Path, workers: int = 2, progress: Callable[[int, int], None] | None = None,
              scheduler: str | None = None) -> SweepResult:
    """Write every point's variant file under ``out/points/`` (its ``$schema`` modeline names
    ``out/.schemas/variant.schema.json``, written with it, self-contained, as ``deckpress init``
    writes a new game's) and simulate it, on ``workers``
    local processes or on a Dask cluster (``scheduler``, as
    :attr:`deckpress.rules.core.simulate.SimulationSpec.scheduler`: the figures are the same);
    with ``sweep.skill_games``, then its skill signal on ``workers`` local processes (on every
    backend); ``progress(done, total)`` after each point.

    Raises:
        ValueError: too many points (:func:`grid_points`); the objective ``skill`` without
            ``skill_games``.
        deckpress.rules.core.errors.ParameterError: every problem :func:`sweep_problems` finds
            (an unknown game, ruleset, parameter or bot, a value out of range, a card value the
            content refuses, values that do not fit together, a skill signal the game cannot
            play), in one message, before any point is written.
        OutputError: a file cannot be written.
    """
    from deckpress.generator.check import write_content
    from deckpress.generator.content.variant import merged_content
    from deckpress.rules.core.bots import bot_names
    from deckpress.rules.core.errors import ParameterError
    from deckpress.rules.core.registry import load
    from deckpress.rules.core.results import simulation_dict
    from deckpress.rules.core.simulate import SimulationSpec, simulate
    from deckpress.rules.core.skill import skill_signal

    if sweep.objective == "skill" and not sweep.skill_games:
        raise ValueError("the objective skill needs the skill signal: --skill-games N (skill_games in a sweep file)")
    points = grid_points(sweep)
    problems = sweep_problems(sweep)  # before any point is written
    if problems:
        raise ParameterError("; ".join(message for _, message in problems))
    load(sweep.game_id, sweep.ruleset, {"players": sweep.players} if sweep.players else None)  # the content: fail first
    default_bot = "greedy" if "greedy" in bot_names(sweep.game_id) else "random"
    result = SweepResult(sweep)
    write_atomic(out / SCHEMAS_FOLDER / VARIANT_SCHEMA,
                 (json.dumps(bundled(VARIANT_SCHEMA), indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    for i, values in enumerate(points):
        variant = variant_for(sweep, values, i)
        path = out / "points" / f"point-{i + 1:03d}.yaml"
        write_atomic(path, (f"# yaml-language-server: $schema=../{SCHEMAS_FOLDER}/{VARIANT_SCHEMA}\n"
                            + yaml.safe_dump(variant, sort_keys=False, allow_unicode=True, width=1000)).encode("utf-8"))
        point: dict[str, Any] = {"index": i + 1, "values": values, "variant": str(path), "skill": None}
        with tempfile.TemporaryDirectory(prefix="deckpress-sweep-") as tmp:
            content_dir = None
            if "changes" in variant:
                merged, errors = merged_content(path)
                if errors or merged is None:
                    # the merge's general note on the changes ("changes: ...") only after what is wrong
                    errors = sorted(errors, key=lambda e: e.message.startswith("changes: "))
                    point["error"] = "; ".join(e.message for e in errors[:3]) or "the variant could not be merged"
                    result.points.append(point)
                    continue
                content_dir = write_content(merged, Path(tmp))
            overrides = dict(variant.get("parameters", {}))
            try:
                game = load(sweep.game_id, sweep.ruleset, overrides, content_dir)
            except (ValueError, ContentErrors) as exc:
                point["error"] = str(exc.errors[0].message if isinstance(exc, ContentErrors) else exc)
                result.points.append(point)
                continue
            bots = sweep.bots or (default_bot,) * game.players
            spec = SimulationSpec(sweep.game_id, dict(game.params), tuple(bots), sweep.games, sweep.seed, workers=workers,
                                  content_dir=str(content_dir) if content_dir else None, scheduler=scheduler)
            simulated = simulate(spec)
            sim = simulation_dict(simulated)
            point["figures"] = figures(sim)
            if sweep.skill_games:  # the point's own parameters and content, as its simulation; local processes
                point["skill"] = skill_signal(sweep.game_id, dict(game.params), sweep.skill_games, sweep.seed, sweep.skill_iterations,
                                              workers, spec.content_dir, bot=sweep.skill_bot).as_dict()
            point["objective"] = objective_interval(sweep.objective, sim, simulated.tally.lengths, point["skill"])
        result.points.append(point)
        if progress:
            progress(i + 1, len(points))
    return result


def objective_interval(objective: str, sim: dict[str, Any], lengths: dict[int, int],
                       skill: dict[str, Any] | None) -> dict[str, Any] | None:
    """A point's objective as its figure (in the figure's own units, as the report writes it) with
    its 95 % interval: ``{"name", "value", "interval_95": [low, high]}``, or None when the point
    has no such figure.  ``sim`` is the point's :func:`~deckpress.rules.core.results.simulation_dict`,
    ``lengths`` its histogram of game lengths in moves, ``skill`` its skill signal's ``as_dict``.

    * ``fairness``, the spread of the seats' win rates: Newcombe's interval for the difference of
      the highest and the lowest seat's rate (:func:`~deckpress.rules.core.stats.difference_interval`),
      at least 0;
    * ``first-seat``, how far the first seat's win rate is from the mean share: its Wilson interval
      (:func:`~deckpress.rules.core.stats.wilson`) less the mean share, as a distance from it
      (0 when it straddles the mean share);
    * ``shortest`` and ``team``, a mean (moves, the team's result): the mean's normal interval
      (:func:`~deckpress.rules.core.stats.mean_interval`);
    * ``skill``: the skill signal's own interval (its win share's Wilson interval, or its gain's),
      in points.
    """
    from deckpress.rules.core.stats import difference_interval, mean_interval, wilson

    f = figures(sim)
    games = sim["games"]
    value = interval = None
    if not games:
        return None
    if objective == "fairness" and "spread" in f:
        wins = [s["wins"] for s in sim["seats"]]
        top, bottom = max(range(len(wins)), key=wins.__getitem__), min(range(len(wins)), key=wins.__getitem__)
        low, high = difference_interval(wins[top], games, wins[bottom], games)
        value, interval = f["spread"], (max(0.0, low), high)
    elif objective == "first-seat" and "first_seat_advantage" in f:
        share = sum(f["win_rates"]) / len(f["win_rates"])
        low, high = (x - share for x in wilson(sim["seats"][0]["wins"], games))
        value = abs(f["first_seat_advantage"])
        interval = (0.0 if low <= 0 <= high else min(abs(low), abs(high)), max(abs(low), abs(high)))
    elif objective == "shortest" and lengths:
        _, low, high = mean_interval(lengths)
        value, interval = f["mean_length"], (low, high)
    elif objective == "team" and f.get("team_mean") is not None:
        histogram = {float(k): v for k, v in sim["team"]["histogram"].items()}
        _, low, high = mean_interval(histogram)
        value, interval = f["team_mean"], (low, high)
    elif objective == "skill" and skill and skill.get("signal_points") is not None:
        value = skill["signal_points"]
        if skill["cooperative"] and skill.get("gain_95") and skill.get("score_range"):
            scale = 100 / ((skill["score_range"][1] - skill["score_range"][0]) or 1.0)
            interval = (skill["gain_95"][0] * scale, skill["gain_95"][1] * scale)
        elif skill.get("win_share_95"):
            interval = (100 * skill["win_share_95"][0], 100 * skill["win_share_95"][1])
    if value is None or interval is None:
        return None
    return {"name": objective, "value": value, "interval_95": [round(interval[0], 4), round(interval[1], 4)]}


def figures(sim: dict[str, Any]) -> dict[str, Any]:
    """What a sweep reports of one point's simulation (:func:`deckpress.rules.core.results.simulation_dict`):
    its game's measures by group, then by name, a measure named after a card by the card's id (its
    ``key``, :mod:`deckpress.rules.core.measures`): the printed name (``Forest +5``) changes with the
    card's values from point to point; its id does not."""
    measures: dict[str, dict[str, Any]] = {}
    for m in sim["measures"]:
        measures.setdefault(m["group"], {})[m.get("key", m["name"])] = m["value"]
    out: dict[str, Any] = {"games": sim["games"], "cut_off": sim["cut_off_by_move_bound"],
                           "median_length": sim["length_in_moves"].get("p50"), "mean_length": sim["length_in_moves"].get("mean"),
                           "measures": measures}
    if sim["cooperative"]:
        team = sim["team"]
        out.update(team_win_rate=team["win_rate"], team_mean=team["mean"])
        return out
    rates = [s["win_rate"] or 0.0 for s in sim["seats"]]
    out.update(win_rates=rates, spread=round(max(rates) - min(rates), 4), draw_rate=sim["draw_rate"],
               first_seat_advantage=round(rates[0] - sum(rates) / len(rates), 4))
    return out


def shown_objective(point: dict[str, Any]) -> str | None:
    """A point's objective and its 95 % interval as the report and the heat map write them
    (``12.3% (95 %: 4.1% to 20.0%)``), or None when it has none."""
    o = point.get("objective")
    if not o:
        return None
    fmt = CELL_FORMATS[o["name"]].replace("+", "")
    low, high = o["interval_95"]
    return f"{CELL_FORMATS[o['name']].format(o['value'])} (95 %: {fmt.format(low)} to {fmt.format(high)})"

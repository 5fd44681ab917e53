"""Simulation: many seeded games between bots, reduced to mergeable counts.

The driver owns the randomness: game ``i`` of a run with seed ``s`` uses ``random.Random("s/i")``
for its chance events and its bots' tie-breaks, so results do not depend on how games are split
into chunks or over how many worker processes.  Chunks return :class:`Tally` objects (counts and
histograms, never per-game logs) that are merged in chunk order.  Every game is bounded by its
game's ``max_length`` (a game past it is counted as cut off, never a hang) and the whole run by
an optional wall-clock limit.

Bots' actions are applied through the trusted fast path (:meth:`State.apply_trusted`): they come
from the legal list.  ``tests/rules`` replays simulated games through the validating path to show
that the two agree.

This is the only module of ``rules/`` that imports :mod:`random`.

*Models:* OpenSpiel's ``games_sim_test.py`` loop; the chunked, seed-per-chunk layout of
``docs/engine-conventions.md`` ("Many games").
"""
from __future__ import annotations

import json
import random
import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from deckpress.generator.content.safetext import quoted
from deckpress.rules.core.bots import Bot, RandomBot, is_search_bot, make_bot
from deckpress.rules.core.errors import MoveLimitExceeded, ParameterError
from deckpress.rules.core.game import ANY, CHANCE, SIMULTANEOUS, Game, State
from deckpress.rules.core.registry import load

#: Games per chunk: fixed, so that the split never depends on the number of workers.
CHUNK_SIZE = 200
#: Games per chunk when a seat is a search bot (``ismcts``, ``rollout``: up to seconds a game),
#: so that a run of a few dozen games still keeps every worker busy and its progress moves.
SEARCH_CHUNK_SIZE = 10
#: Seconds to wait for a Dask scheduler given by address: a reachable one answers at once.
SCHEDULER_TIMEOUT_S = 10
#: ``reference``: every game through its State and bots, one at a time (the readable truth);
#: ``batched``: the game's batched engine (:meth:`Game.batched`), same distribution, other games.
ENGINES = ("reference", "batched")


def game_rng(seed: int, index: int) -> random.Random:
    """The generator of game ``index`` in a run seeded ``seed`` (independent of chunks and workers)."""
    return random.Random(f"{seed}/{index}")


def play_game(game: Game, bots: Sequence[Bot], rng: random.Random) -> tuple[State, int, int, int]:
    """Play one game to the end on the fast path.

    Where any of several seats may act (:data:`~deckpress.rules.core.game.ANY`), the seat that acts first is
    drawn uniformly from :meth:`State.acting_seats` with ``rng``; its bot then chooses the action.

    Returns:
        ``(final state, actions including chance events, seat moves, real decisions)`` -- a real
        decision is a move with more than one legal action.

    Raises:
        MoveLimitExceeded: the game went past ``game.max_length()`` actions.
    """
    state = game.new_state()
    limit = game.max_length()
    uniform = rng.random
    # The hot loop does what State.apply_trusted does for an ordinary move or chance event (record
    # it, then the game's _apply), and what RandomBot.act does (one uniform draw), without the
    # calls: the same history and the same draws from rng.
    record, apply = state.history.append, state._apply
    wants_view = [getattr(bot, "uses_view", True) for bot in bots]
    random_seat = [type(bot) is RandomBot for bot in bots]
    actions = moves = decisions = 0
    while True:
        cur = state.current
        if cur >= 0:
            legal = state._legal_actions(cur)
            decisions += len(legal) > 1
            if random_seat[cur]:
                action = legal[int(uniform() * len(legal))]
            else:
                action = bots[cur].act(state.view(cur) if wants_view[cur] else None, legal, rng)
            record((cur, action))
            apply(action, cur)
            moves += 1
        elif cur == CHANCE:
            action = state.sample_chance(uniform())
            record((CHANCE, action))
            apply(action, CHANCE)
        elif cur == SIMULTANEOUS:
            for seat in state.acting_seats():
                legal = state._legal_actions(seat)
                decisions += len(legal) > 1
                state.apply_trusted(bots[seat].act(state.view(seat) if wants_view[seat] else None, legal, rng), seat)
                moves += 1
                actions += 1
            actions -= 1
        elif cur == ANY:
            seats = state.acting_seats()
            seat = seats[int(uniform() * len(seats))]
            legal = state._legal_actions(seat)
            decisions += len(legal) > 1
            state.apply_trusted(bots[seat].act(state.view(seat) if wants_view[seat] else None, legal, rng), seat)
            moves += 1
        else:
            return state, actions, moves, decisions
        actions += 1
        if actions > limit:
            raise MoveLimitExceeded(f"the game passed its bound of {limit} actions ({game.info.name}, {dict(game.params)})")


@dataclass
class Tally:
    """Mergeable counts over a set of games (all seats indexed 0..players-1).

    For a cooperative game (``cooperative=True``) every seat shares one result: instead of wins per
    seat the tally counts the games the team won (:meth:`State.winners` non-empty) and a histogram
    of the team's result (:meth:`State.returns`, the same for every seat)."""

    players: int
    cooperative: bool = False
    games: int = 0  # finished games
    cut_off: int = 0  # games stopped by the move limit
    wins: list[int] = field(default_factory=list)  # games won alone, per seat
    shared: list[int] = field(default_factory=list)  # games where the seat shared the best result
    draws: int = 0  # games whose best result was shared
    score_sums: list[float] = field(default_factory=list)
    lengths: Counter = field(default_factory=Counter)  # seat moves per game -> games
    actions: int = 0
    moves: int = 0
    decisions: int = 0
    events: Counter = field(default_factory=Counter)  # the games' own tallies, summed
    stopped_by_time: bool = False
    team_wins: int = 0  # cooperative games: games the team won
    team_results: Counter = field(default_factory=Counter)  # cooperative games: team result -> games

    def __post_init__(self) -> None:
        for name in ("wins", "shared", "score_sums"):
            if not getattr(self, name):
                setattr(self, name, [0] * self.players)

    def add(self, state: State, actions: int, moves: int, decisions: int) -> None:
        """Count one finished game."""
        self.games += 1
        returns = state.returns()
        for seat, score in enumerate(returns):
            self.score_sums[seat] += score
        winners = state.winners()
        if self.cooperative:
            self.team_wins += bool(winners)
            self.team_results[returns[0]] += 1
        elif len(winners) == 1:
            self.wins[winners[0]] += 1
        else:
            self.draws += 1
            for seat in winners:
                self.shared[seat] += 1
        self.lengths[moves] += 1
        self.actions += actions
        self.moves += moves
        self.decisions += decisions
        self.events.update(state.tally())

    def merge(self, other: "Tally") -> None:
        """Add ``other``'s counts to these."""
        self.games += other.games
        self.cut_off += other.cut_off
        for name in ("wins", "shared", "score_sums"):
            mine, theirs = getattr(self, name), getattr(other, name)
            for seat in range(self.players):
                mine[seat] += theirs[seat]
        self.draws += other.draws
        self.lengths.update(other.lengths)
        self.actions += other.actions
        self.moves += other.moves
        self.decisions += other.decisions
        self.events.update(other.events)
        self.stopped_by_time = self.stopped_by_time or other.stopped_by_time
        self.team_wins += other.team_wins
        self.team_results.update(other.team_results)


@dataclass(frozen=True)
class SimulationSpec:
    """What to simulate.  ``params`` are effective parameters (or overrides); ``bots`` one bot name
    per seat; ``content_dir`` a content folder to use instead of the shipped one (it must be
    readable at the same path by every worker); ``scheduler`` where the games run (see
    :func:`simulate`)."""

    game_id: str
    params: Mapping[str, Any]
    bots: tuple[str, ...]
    games: int
    seed: int
    workers: int = 1
    time_limit: float | None = None
    content_dir: str | None = None
    scheduler: str | None = None  # None: local processes; "local": a Dask cluster started here; "tcp://HOST:8786": that Dask cluster
    engine: str = "reference"  # or "batched": the game's batched engine (Game.batched), many games at once


@dataclass
class SimulationResult:
    """A finished run: the merged tally, and how long it took.  ``baseline``: the tally of the
    same games with every seat greedy, when the caller ran them for the skill signal of a run
    with one search bot seat (:func:`deckpress.rules.core.results.skill_dict`)."""

    spec: SimulationSpec
    game: Game
    tally: Tally
    elapsed: float
    baseline: Tally | None = None


def simulate(spec: SimulationSpec, progress: Callable[[int], None] | None = None) -> SimulationResult:
    """Run ``spec.games`` games in chunks of :data:`CHUNK_SIZE` (:data:`SEARCH_CHUNK_SIZE` with a
    search bot among the seats), on ``spec.workers`` local
    processes, or on a Dask distributed cluster (``spec.scheduler``: ``"local"`` starts one of
    ``spec.workers`` processes here, an address such as ``tcp://HOST:8786`` uses that one).  Each
    game is seeded by its index alone and the chunks are merged in order, so the tally is the same
    on every backend and with any number of workers; a Dask worker that dies loses only the chunk
    it held, which the scheduler runs again.

    With ``spec.engine == "batched"`` the game's batched engine (:meth:`Game.batched`) plays
    chunks of its own ``chunk_games``, each seeded by the run's seed and its first game: the same
    tally for the same seed and number of games on any backend and number of workers, with the
    reference engine's distribution but not its games.

    ``progress(games_done)`` is called after each chunk.  With a time limit, chunks stop starting
    new games once it has passed, and the tally says ``stopped_by_time``.

    Raises:
        ParameterError: unknown game, parameter, bot or engine, a bot list that does not fit the
            seats, or no batched engine for the game, its parameters and bots.
        deckpress.generator.content.errors.ContentErrors: invalid content.
    """
    game = _game(spec.game_id, _key(spec.params), spec.content_dir)
    _bots(spec)  # fail early on unknown bots, in this process
    if spec.engine not in ENGINES:
        raise ParameterError(f"unknown engine '{spec.engine}' (engines: {', '.join(ENGINES)})")
    if spec.engine == "batched":
        size = game.batched(spec.bots).chunk_games
    else:
        size = SEARCH_CHUNK_SIZE if any(is_search_bot(name) for name in spec.bots) else CHUNK_SIZE
    started = time.time()
    deadline = started + spec.time_limit if spec.time_limit else None
    chunks = [(start, min(start + size, spec.games)) for start in range(0, spec.games, size)]
    results: dict[int, Tally] = {}
    done = 0
    if spec.scheduler:
        results = _on_dask(spec, chunks, deadline, progress)
    elif spec.workers <= 1 or len(chunks) == 1:
        for i, (start, stop) in enumerate(chunks):
            results[i] = run_chunk(spec, start, stop, deadline)
            done += results[i].games + results[i].cut_off
            if progress:
                progress(done)
            if results[i].stopped_by_time:
                break
    else:
        with ProcessPoolExecutor(max_workers=spec.workers) as pool:
            pending = {pool.submit(run_chunk, spec, start, stop, deadline): i for i, (start, stop) in enumerate(chunks)}
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    i = pending.pop(future)
                    results[i] = future.result()
                    done += results[i].games + results[i].cut_off
                    if progress:
                        progress(done)
                if any(r.stopped_by_time for r in results.values()):
                    for future in pending:
                        future.cancel()
                    break
    total = Tally(game.players, game.info.cooperative)
    for i in sorted(results):
        total.merge(results[i])
    return SimulationResult(spec, game, total, time.time() - started)


def _on_dask(spec: SimulationSpec, chunks: list[tuple[int, int]], deadline: float | None,
             progress: Callable[[int], None] | None) -> dict[int, Tally]:
    """The chunks run as tasks of a Dask distributed cluster; their tallies by chunk index.

    Raises:
        ParameterError: Dask is not installed, or the scheduler cannot be reached.
    """
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise ParameterError("a Dask backend needs the distributed package: pip install \"deckpress[dask]\"") from None
    cluster = None
    try:
        if spec.scheduler == "local":
            # no dashboard, and its health server on a free port: two runs at once do not contend for port 8787
            cluster = LocalCluster(n_workers=spec.workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                                   scheduler_kwargs={"dashboard": False})
            client = Client(cluster)
        else:
            client = Client(spec.scheduler, timeout=SCHEDULER_TIMEOUT_S)
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        raise ParameterError(f"the Dask scheduler {spec.scheduler} cannot be reached: {exc}") from None
    except ValueError as exc:  # distributed's own check of the address: no port, a port that is no number
        raise ParameterError(f"--scheduler {quoted(spec.scheduler)} is not a scheduler's address ({exc}): "
                             "expected tcp://HOST:PORT, such as tcp://10.0.0.5:8786") from None
    results: dict[int, Tally] = {}
    try:
        futures = client.map(run_chunk, [spec] * len(chunks), [a for a, _ in chunks], [b for _, b in chunks],
                             [deadline] * len(chunks), pure=False, retries=2)
        index = {f.key: i for i, f in enumerate(futures)}
        done = 0
        for future in as_completed(futures):
            i = index[future.key]
            results[i] = future.result()
            done += results[i].games + results[i].cut_off
            if progress:
                progress(done)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return results


def run_chunk(spec: SimulationSpec, start: int, stop: int, deadline: float | None = None) -> Tally:
    """Play games ``start..stop-1`` of ``spec`` and count them (a worker's unit of work)."""
    game = _game(spec.game_id, _key(spec.params), spec.content_dir)
    if spec.engine == "batched":
        if deadline is not None and time.time() > deadline:
            return Tally(game.players, game.info.cooperative, stopped_by_time=True)
        from threadpoolctl import threadpool_limits

        # one BLAS thread: NumPy's BLAS threads keep spinning after each matrix product and take
        # the cores of the other workers (Maybe Missions' batched engine ran 1.7 times slower on 2)
        with threadpool_limits(limits=1, user_api="blas"):
            return game.batched(spec.bots).play_chunk(spec.seed, start, stop)
    bots = _bots(spec)
    tally = Tally(game.players, game.info.cooperative)
    for index in range(start, stop):
        if deadline is not None and time.time() > deadline:
            tally.stopped_by_time = True
            break
        try:
            tally.add(*play_game(game, bots, game_rng(spec.seed, index)))
        except MoveLimitExceeded:
            tally.cut_off += 1
    return tally


def _bots(spec: SimulationSpec) -> list[Bot]:
    return [make_bot(spec.game_id, name) for name in spec.bots]


def _key(params: Mapping[str, Any]) -> str:
    return json.dumps(dict(params), sort_keys=True)


@lru_cache(maxsize=8)
def _game(game_id: str, params_key: str, content_dir: str | None) -> Game:
    """The game for a spec, built once per process (workers rebuild it from the content)."""
    return load(game_id, overrides=json.loads(params_key), content_dir=Path(content_dir) if content_dir else None)

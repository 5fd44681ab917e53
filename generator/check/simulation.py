"""Stage 5 of ``deckpress check``: simulate the base game and the variant with the same seeds and
bots, check a few variant games through the validating path, and compare the figures.

The work runs in a child process (:func:`deckpress.generator.limits.run_in_child`) with an
address-space limit (``--memory-limit``, or the limit deckpress inherited when that is lower) and
is killed at a wall-clock limit, so a hostile variant cannot hang or exhaust the machine.  A game
that never ends is the variant's fault (cut off by the move bound: ``reject``); reaching the
memory, CPU or time limit is the machine's (``could not finish``, exit 5, with what to change),
never a verdict.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from deckpress.generator.limits import Bounds, ChildFailed, CouldNotFinish, run_in_child

#: Games replayed through the validating path, with invariants checked at their end.
VALIDATED_GAMES = 20


@dataclass(frozen=True)
class SimulationPlan:
    """What to simulate: the game, the ruleset and parameter overrides of each side, the folder of
    the merged variant content, games per side, seed, one bot name per seat (None: the game's
    ``greedy`` bot if it has one, else ``random``), the limits (seconds, MiB), worker processes,
    and the base's game folder (``check --content``; None: the shipped game)."""

    game_id: str
    ruleset: str | None
    base_overrides: Mapping[str, Any]
    variant_overrides: Mapping[str, Any]
    variant_dir: Path
    games: int
    seed: int
    bots: tuple[str, ...] | None
    time_limit_s: float
    memory_mb: int
    workers: int = 1
    base_dir: Path | None = None


def run_bounded(plan: SimulationPlan, progress: Callable[[str, int, int], None] | None = None) -> dict[str, Any]:
    """Run :func:`_simulate_both` in a child process within the plan's limits;
    ``progress(what, done, total)`` is called here as games finish there (what: ``"base"``,
    ``"variant"`` or ``"validating"``).

    Returns ``{"base": figures, "variant": figures, "validated": [...problems]}``;
    ``{"could_not_finish": what to change}`` when a memory, CPU or time limit was reached (not
    the variant's fault); or ``{"error": reason, "trace": ...}`` when the simulation itself
    failed (an exception from the engine on the variant's content: a ``reject``).

    Raises:
        KeyboardInterrupt: Ctrl-C; the child and its workers are killed first.
    """
    bounds = Bounds("the simulation", plan.time_limit_s, "--time-limit", plan.memory_mb, "--memory-limit",
                    f"lower --games (now {plan.games:,})")
    try:
        return run_in_child(_simulate_both, (plan,), bounds, (lambda value: progress(*value)) if progress else None)
    except CouldNotFinish as exc:
        return {"could_not_finish": str(exc)}
    except ChildFailed as exc:
        return {"error": f"the simulation failed: {exc}", "trace": exc.trace}


def _simulate_both(plan: SimulationPlan, progress: Callable[[tuple[str, int, int]], None] | None = None) -> dict[str, Any]:
    from deckpress.rules.core.bots import bot_names
    from deckpress.rules.core.registry import load
    from deckpress.rules.core.results import simulation_dict
    from deckpress.rules.core.simulate import SimulationSpec, simulate

    base = load(plan.game_id, plan.ruleset, plan.base_overrides, plan.base_dir)
    variant = load(plan.game_id, plan.ruleset, plan.variant_overrides, plan.variant_dir)
    default_bot = "greedy" if "greedy" in bot_names(plan.game_id) else "random"
    out: dict[str, Any] = {}
    for side, game, content_dir in (("base", base, plan.base_dir), ("variant", variant, plan.variant_dir)):
        bots = plan.bots or (default_bot,) * game.players
        if len(bots) != game.players:
            return {"error": f"{len(bots)} bots given for {game.players} seats"}
        # No time limit on the games themselves: the work is bounded by games and moves, so the
        # figures (and the verdict) are the same on an idle or a busy machine; the wall clock only
        # guards the whole child process (run_bounded), and reaching it is "could not finish".
        spec = SimulationSpec(plan.game_id, dict(game.params), tuple(bots), plan.games, plan.seed, workers=plan.workers,
                              content_dir=str(content_dir) if content_dir else None)
        tell = (lambda done, side=side: progress((side, done, plan.games))) if progress else None
        out[side] = simulation_dict(simulate(spec, progress=tell))
        out[side].pop("timing")
    if progress:
        progress(("validating", 0, VALIDATED_GAMES))
    out["validated"] = _validate_games(variant, plan)
    return out


def run_skill_bounded(plan: SimulationPlan, games: int, iterations: int,
                      progress: Callable[[str, int, int], None] | None = None, bot: str | None = None) -> dict[str, Any]:
    """The skill signal (:mod:`deckpress.rules.core.skill`) of base and variant, ``games`` games
    each with the plan's seed and ``ismcts:<iterations>`` (or the search bot ``bot``: ``rollout``,
    ``rollout:N``) against ``greedy`` seats, in a child process within the plan's limits (the time
    limit applies to this stage on its own); ``progress(what, done, total)`` as games finish
    (what: ``"base"`` or ``"variant"``).

    Returns ``{"base": figures, "variant": figures, "change_points": variant minus base,
    "change_95": its 95 % interval}`` (figures: :meth:`SkillSignal.as_dict
    <deckpress.rules.core.skill.SkillSignal.as_dict>`; the change in
    :attr:`~deckpress.rules.core.skill.SkillSignal.signal_points`, interval from
    :func:`~deckpress.rules.core.skill.change_interval`), or
    ``{"could_not_finish": ...}`` / ``{"error": ..., "trace": ...}`` as :func:`run_bounded`.

    Raises:
        KeyboardInterrupt: Ctrl-C; the child and its workers are killed first.
    """
    bounds = Bounds("the skill signal", plan.time_limit_s, "--time-limit", plan.memory_mb, "--memory-limit",
                    f"lower --skill-games (now {games:,}) or " + (f"--skill-iterations (now {iterations:,})" if bot is None
                                                                 else f"the budget of --skill-bot (now {bot})"))
    try:
        return run_in_child(_skill_both, (plan, games, iterations, bot), bounds, (lambda value: progress(*value)) if progress else None)
    except CouldNotFinish as exc:
        return {"could_not_finish": str(exc)}
    except ChildFailed as exc:
        return {"error": f"the skill signal failed: {exc}", "trace": exc.trace}


def _skill_both(plan: SimulationPlan, games: int, iterations: int, bot: str | None,
                progress: Callable[[tuple[str, int, int]], None] | None = None) -> dict[str, Any]:
    from deckpress.rules.core.registry import load
    from deckpress.rules.core.skill import change_interval, skill_signal, total_games

    out: dict[str, Any] = {}
    signals = {}
    # The same base and variant as the simulation stage (_simulate_both).
    for side, overrides, content_dir in (("base", plan.base_overrides, plan.base_dir), ("variant", plan.variant_overrides, plan.variant_dir)):
        game = load(plan.game_id, plan.ruleset, overrides, content_dir)
        total = total_games(games, game.info.cooperative)
        if progress:
            progress((side, 0, total))
        tell = (lambda done, side=side, total=total: progress((side, done, total))) if progress else None
        signal = skill_signal(plan.game_id, dict(game.params), games, plan.seed, iterations, plan.workers,
                              str(content_dir) if content_dir else None, progress=tell, bot=bot)
        out[side] = signal.as_dict()
        signals[side] = signal
    base, variant = signals["base"], signals["variant"]
    base_points, variant_points = base.signal_points, variant.signal_points
    out["change_points"] = None if base_points is None or variant_points is None else round(variant_points - base_points, 2)
    interval = change_interval(base, variant)
    out["change_95"] = None if interval is None else [round(x, 2) for x in interval]
    return out


def _validate_games(game, plan: SimulationPlan) -> list[str]:
    """Replay the first :data:`VALIDATED_GAMES` variant games through the validating path and
    check their final states' invariants; returns the problems found."""
    from deckpress.rules.core.bots import make_bot
    from deckpress.rules.core.errors import MoveLimitExceeded
    from deckpress.rules.core.log import record
    from deckpress.rules.core.replay import replay
    from deckpress.rules.core.simulate import game_rng, play_game

    problems = []
    names = plan.bots or ("random",) * game.players
    bots = [make_bot(plan.game_id, name) for name in names]
    for index in range(min(VALIDATED_GAMES, plan.games)):
        try:
            state = play_game(game, bots, game_rng(plan.seed, index))[0]
        except MoveLimitExceeded:
            continue  # counted as cut off by the simulation itself
        broken = state.check_invariants()
        if broken:
            problems.append(f"game {index}: invariant broken at the end: {'; '.join(broken)}")
        result = replay(record(game, state.history, seed=plan.seed), content=game.content)
        if result.error is not None:  # not result.ok
            problems.append(f"game {index}: the validating path refuses event {result.error.index}: {result.error.message}")
    return problems


@dataclass(frozen=True)
class Difference:
    """A figure of base and variant side by side: values (rates 0..1 or numbers), the variant minus
    the base, and whether the difference is larger than the noise (two-proportion z-test, 95 %)."""

    what: str
    base: float | None
    variant: float | None
    delta: float | None
    significant: bool | None
    kind: str = "number"  # "rate": base and variant are shares 0..1 and delta a difference of shares

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"what": self.what, "kind": self.kind, "base": self.base, "variant": self.variant, "delta": self.delta,
                "significant": self.significant}


def rate_difference(what: str, k1: int, n1: int, k2: int, n2: int) -> Difference:
    """Compare two rates ``k1/n1`` (base) and ``k2/n2`` (variant) with a two-proportion z-test."""
    if not n1 or not n2:
        return Difference(what, round(k1 / n1, 4) if n1 else None, round(k2 / n2, 4) if n2 else None, None, None, "rate")
    p1, p2 = k1 / n1, k2 / n2
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    significant = abs(p2 - p1) / se > 1.96 if se > 0 else p1 != p2
    return Difference(what, round(p1, 4), round(p2, 4), round(p2 - p1, 4), significant, "rate")


def compare(base: dict[str, Any], variant: dict[str, Any]) -> list[Difference]:
    """Seat win rates and draws (the team's win rate and mean result in a cooperative game), median
    and 90th-percentile length, and every rate measure the game reports, base against variant."""
    diffs = []
    n1, n2 = base["games"], variant["games"]
    if base.get("cooperative"):
        bt, vt = base["team"], variant["team"]
        diffs.append(rate_difference("team win rate", bt["wins"], n1, vt["wins"], n2))
        diffs.append(Difference(f"team {bt['result']}, mean", bt["mean"], vt["mean"],
                                None if bt["mean"] is None or vt["mean"] is None else round(vt["mean"] - bt["mean"], 3), None))
    else:
        for b, v in zip(base["seats"], variant["seats"]):
            diffs.append(rate_difference(f"seat {b['seat']} win rate", b["wins"], n1, v["wins"], n2))
        diffs.append(rate_difference("draws", base["draws"], n1, variant["draws"], n2))
    for q in ("p50", "p90"):
        lb, lv = base["length_in_moves"].get(q), variant["length_in_moves"].get(q)
        diffs.append(Difference(f"game length {q} (moves)", lb, lv, None if lb is None or lv is None else lv - lb, None))
    # a measure named after a card by the card's id (its "key"): a variant that changes the card's
    # values changes its printed name (Forest +7 becomes Forest +9), not the card compared
    variant_rates = {(m["group"], m.get("key", m["name"])): m for m in variant.get("measures", []) if m["kind"] == "rate"}
    for m in base.get("measures", []):
        other = variant_rates.get((m["group"], m.get("key", m["name"])))
        if m["kind"] == "rate" and other is not None:
            name = m["name"] if other["name"] == m["name"] else f"{m['name']} (now {other['name']})"
            diffs.append(rate_difference(f"{m['group']}: {name}", m["successes"], m["trials"], other["successes"], other["trials"]))
    return diffs

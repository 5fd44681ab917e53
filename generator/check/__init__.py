"""``deckpress check``: a fan variant from file to verdict, in stages that stop at the first
failure and end with a verdict (``accept``, ``review`` or ``reject``) that comes from the variant
alone; otherwise with ``unreadable`` (the file, or the ``--content`` folder, cannot be read at all)
or ``could not finish`` (a memory, CPU or time limit deckpress runs under was reached: exit 5,
with what to change).  An output that cannot be written (the preview here, the report in
:mod:`.report`) raises :class:`~deckpress.generator.output.OutputError` (exit 4), never a verdict.

Files of a report folder, in the order they are written, each atomically: ``preview.pdf`` (by
:func:`run_check`), ``report.html``, then ``report.json`` (by :func:`.report.write_report`).  A
``report.json`` therefore always has the rest of its run beside it; a failure at any step leaves
the files of that name from an earlier run as they were.

1. Safe loading (:mod:`deckpress.generator.content.yamlsafe` with the variant limits).
2. The variant's schema; the merged content against the game's schemas and semantic checks;
   the parameters against the engine's declarations.
3. What changed: cards added, removed and changed field by field; effective parameters.
4. A preview PDF of the added and changed cards, both faces, with the game's layouts.
5. Simulation of base and variant with the same seeds and bots (:mod:`.simulation`).
6. The skill signal of base and variant, opt-in (``CheckOptions.skill_games``; skipped by
   default, as it plays a search bot: :mod:`deckpress.rules.core.skill`).
7. The verdict, by :class:`~deckpress.generator.check.thresholds.Thresholds`.

This package is application code like the CLI: it knows both the renderer and the rules.
"""
from __future__ import annotations

import json
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import yaml

from deckpress.generator import exitcodes
from deckpress.generator.check.simulation import (
    SimulationPlan,
    compare,
    run_bounded,
    run_skill_bounded,
)
from deckpress.generator.check.thresholds import Thresholds
from deckpress.generator.content import SCHEMA_COMMENT, GameContent, schema_for
from deckpress.generator.content.errors import ContentError, ContentErrors, display_path
from deckpress.generator.content.variant import (
    VARIANT_MAX_BYTES,
    VARIANT_MAX_DEPTH,
    VARIANT_MAX_NODES,
    ContentDiff,
    Variant,
    base_content,
    diff,
    merge,
    relocate,
    unsourced,
    variant_art,
    variant_of,
)
from deckpress.generator.content.yamlsafe import load_yaml
from deckpress.generator.kit.adapters import kit_module
from deckpress.generator.output import write_atomic, writing

EXIT_CODES = {"accept": exitcodes.OK, "review": exitcodes.CONTENT, "reject": exitcodes.USAGE,
              "unreadable": exitcodes.UNREADABLE, "could not finish": exitcodes.COULD_NOT_FINISH}


@dataclass(frozen=True)
class CheckOptions:
    """How to check: games per side (None: the game's own ``GameInfo.check_games``), seed, bots
    (None: the game's default), whether to simulate, the thresholds, the limits of the simulation
    stage (s, MiB; the skill stage has the same limits of its own), worker processes, where to
    write the preview, the game folder to check against (``content``; None: the shipped game the
    variant ``extends``), and the skill signal's games per side (0: skipped) and search
    iterations a decision."""

    games: int | None = None
    seed: int = 1
    bots: tuple[str, ...] | None = None
    simulate: bool = True
    thresholds: Thresholds = Thresholds()
    time_limit_s: float = 300.0
    memory_mb: int = 2048
    workers: int = 2
    preview_path: Path | None = None
    content: Path | None = None  # the game folder the variant extends (default: the shipped game of its id)
    skill_games: int = 0  # games per side of the skill signal (ismcts against greedy); 0: the stage is skipped
    skill_iterations: int = 50  # the search bot's iterations a decision in the skill signal
    skill_bot: str | None = None  # the skill signal's search bot instead of ismcts:<skill_iterations> (rollout, rollout:N)
    #: ``progress(stage, done, total)``: told as each stage starts (done and total None) and as
    #: simulated games finish (stage "5. simulation: base" ..., "6. skill signal: base" ...), for a progress bar
    progress: Callable[[str, int | None, int | None], None] | None = None


@dataclass
class Stage:
    """One stage's outcome (``passed``, ``failed`` or ``skipped``; the verdict's name for the last
    stage) and what it found."""

    name: str
    status: str
    notes: list[str] = field(default_factory=list)


@dataclass
class CheckReport:
    """Everything a check found; :attr:`exit_code` follows the verdict."""

    variant_path: str
    meta: dict[str, Any] = field(default_factory=dict)
    stages: list[Stage] = field(default_factory=list)
    errors: list[ContentError] = field(default_factory=list)
    content_diff: ContentDiff | None = None
    parameter_diff: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    effective_parameters: dict[str, Any] = field(default_factory=dict)
    preview: str | None = None
    preview_cards: list[str] = field(default_factory=list)
    simulation: dict[str, Any] | None = None
    skill: dict[str, Any] | None = None  # {"base": ..., "variant": ..., "change_points": ...} (run_skill_bounded)
    verdict: str = "reject"
    reasons: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """0 accept, 1 review, 2 reject, 3 the file could not be read at all, 5 could not finish
        (a limit deckpress runs under was reached: not a verdict on the variant)."""
        return EXIT_CODES[self.verdict]

    def stop(self, stage: str, verdict: str, reasons: list[str]) -> "CheckReport":
        """End the check at a failed ``stage``."""
        self.stages.append(Stage(stage, "failed", reasons))
        self.verdict, self.reasons = verdict, reasons
        return self


def run_check(path: Path, options: CheckOptions = CheckOptions()) -> CheckReport:
    """Check the variant at ``path`` (see the module docstring).  Never raises for bad input.

    Raises:
        OutputError: the preview (``options.preview_path``) or the temporary copy of the merged
            content cannot be written: a failure of the environment, not a verdict.
        KeyboardInterrupt: Ctrl-C (the simulation's processes are killed first).
    """
    report = CheckReport(display_path(path))
    tell = options.progress or (lambda stage, done=None, total=None: None)
    tell("1. safe loading")
    doc, errors = load_yaml(Path(path), report.variant_path, max_bytes=VARIANT_MAX_BYTES,
                            max_depth=VARIANT_MAX_DEPTH, max_nodes=VARIANT_MAX_NODES)
    if doc is None:
        report.errors = errors
        return report.stop("1. safe loading", "unreadable", [f"the file could not be read safely ({len(errors)} error{'s' * (len(errors) > 1)})"])
    report.stages.append(Stage("1. safe loading", "passed"))

    tell("2. schemas and checks")
    variant, errors = variant_of(doc)
    if variant is None:
        report.errors = errors
        said = doc.data.get("extends") if isinstance(doc.data, dict) else None
        why = ("the variant does not say which game it extends" if said is None else
               "its 'extends' is no game's id: a variant names the game it changes by its id (mission-emission); "
               "to check it against a game folder such as an edition, give the folder with --content")
        return report.stop("2. schemas and checks", "reject", [why])
    base, base_errors = base_content(doc, options.content)
    if base_errors:
        report.errors = errors + base_errors
        if options.content is None or any(e.path == report.variant_path for e in base_errors):
            return report.stop("2. schemas and checks", "reject", ["the game the variant extends could not be loaded"])
        # The game folder given by --content is broken: not the variant's fault, so no verdict.
        return report.stop("2. schemas and checks", "unreadable", [f"the game folder {display_path(options.content)} is not valid: "
                                                                     f"fix it first (deckpress validate {display_path(options.content)})"])
    report.meta = {k: doc.data.get(k) for k in ("extends", "name", "author", "version", "description", "source")}
    merged, merge_errors = merge(variant, base)
    errors += merge_errors
    engine = _engine(variant.game_id)
    art, art_errors = variant_art(variant, merged)
    errors += art_errors
    base_params = variant_params = {}
    if engine is not None:
        param_errors, base_params, variant_params = _parameters(engine, variant, base, merged if not merge_errors else base)
        errors += param_errors
    if errors:
        report.errors = sorted(set(errors) | set(_fitting_errors(base, merged, art, variant)))
        return report.stop("2. schemas and checks", "reject", [f"the variant has {_count(report.errors)}: all are listed"])
    report.stages.append(Stage("2. schemas and checks", "passed", [] if engine else [f"{variant.game_id} has no rules engine yet: parameters not checked"]))

    report.content_diff = diff(base, merged)
    report.effective_parameters = dict(variant_params)
    report.parameter_diff = {k: (base_params.get(k), v) for k, v in variant_params.items() if base_params.get(k) != v}
    report.warnings = unsourced(report.content_diff)
    report.stages.append(Stage("3. what changed", "passed", report.warnings + report.content_diff.lines() + [
        f"parameter {k}: {json.dumps(a)} -> {json.dumps(b)}" for k, (a, b) in report.parameter_diff.items()] or ["no changes"]))

    tell("4. preview")
    try:
        report.preview, report.preview_cards = _preview(base, merged, art, options.preview_path, render=True)
    except ContentErrors as exc:
        report.errors = [relocate(e, variant, base) for e in exc.errors]
        return report.stop("4. preview", "reject", ["the changed cards cannot be laid out"])
    report.stages.append(Stage("4. preview", "passed", [f"{len(report.preview_cards)} added or changed card(s)"] if report.preview_cards else ["no card changes to preview"]))

    if not options.simulate or engine is None:
        report.stages.append(Stage("5. simulation", "skipped", ["--no-simulate" if not options.simulate else f"{variant.game_id} has no rules engine yet"]))
    else:
        with tmp_dir_for_check() as tmp:
            folder = write_content(merged, Path(tmp))
            plan = SimulationPlan(variant.game_id, variant.ruleset, {"players": variant_params["players"]} if "players" in variant.parameters else {},
                                  variant.parameters, folder, options.games or engine.info.check_games, options.seed, options.bots,
                                  options.time_limit_s, options.memory_mb, options.workers, options.content)
            tell("5. simulation: base", 0, plan.games)
            result = run_bounded(plan, (lambda what, done, total: tell(f"5. simulation: {what}", done, total)) if options.progress else None)
        if "could_not_finish" in result:
            return report.stop("5. simulation", "could not finish", [result["could_not_finish"]])
        if "error" in result:
            return report.stop("5. simulation", "reject", [result["error"]])
        result["differences"] = [d.as_dict() for d in compare(result["base"], result["variant"])]
        report.simulation = result
        report.stages.append(Stage("5. simulation", "passed", [f"{result['variant']['games']:,} games per side, seed {options.seed}"]
                                   + [f"variant: {f['text']}" for f in result["variant"].get("findings", [])]))

    if report.simulation is None or not options.skill_games:
        report.stages.append(Stage("6. skill signal", "skipped", ["not simulated" if report.simulation is None else
                                                                 "opt-in: --skill-games N (a search bot plays: minutes, not seconds)"]))
    else:
        tell("6. skill signal: base", 0, options.skill_games)
        with tmp_dir_for_check() as tmp:
            folder = write_content(merged, Path(tmp))
            plan = SimulationPlan(variant.game_id, variant.ruleset, {"players": variant_params["players"]} if "players" in variant.parameters else {},
                                  variant.parameters, folder, options.skill_games, options.seed, None, options.time_limit_s,
                                  options.memory_mb, options.workers, options.content)
            skill = run_skill_bounded(plan, options.skill_games, options.skill_iterations,
                                      (lambda what, done, total: tell(f"6. skill signal: {what}", done, total)) if options.progress else None,
                                      options.skill_bot)
        if "could_not_finish" in skill:
            return report.stop("6. skill signal", "could not finish", [skill["could_not_finish"]])
        if "error" in skill:
            return report.stop("6. skill signal", "reject", [skill["error"]])
        report.skill = skill
        b = skill["base"]
        notes = [f"{options.skill_games:,} games per side, {b['bot']} in each seat in turn against {b['against']} seats, seed {options.seed}"]
        report.stages.append(Stage("6. skill signal", "passed", notes + [n for n in [untold_skill(b)] if n]))

    report.verdict, report.reasons = verdict(report, options.thresholds, engine)
    report.reasons += report.warnings
    report.stages.append(Stage("7. verdict", report.verdict))
    return report


def tmp_dir_for_check():
    """A temporary folder for the merged content, removed after use.

    Raises:
        OutputError: the temporary folder cannot be written (exit 4, never a verdict).
    """
    with writing(Path(tempfile.gettempdir())):  # no space or no permission there: exit 4, never a verdict
        return tempfile.TemporaryDirectory(prefix="deckpress-variant-")


def untold_skill(base: dict[str, Any]) -> str | None:
    """A note when the base game's skill signal does not tell the search bot from ``greedy``
    (its 95 % interval reaches the even share, or a gain of 0): a variant that took skill away
    could then not show it.  None when the search bot beats greedy beyond the noise."""
    interval, floor = (base["gain_95"], 0.0) if base["cooperative"] else (base["win_share_95"], base["even_share"])
    if interval is not None and interval[0] > floor:
        return None
    more = "more --skill-games" + ("" if base["bot"].startswith("rollout") else ", or --skill-bot rollout")
    return (f"in the base game the {base['bot']} seat is not told apart from {base['against']} seats over these games, "
            f"so this signal cannot show a variant that takes skill away: {more}")


def skill_figure(s: dict[str, Any]) -> str:
    """One side's skill signal in words."""
    if s["cooperative"]:
        if s["gain"] is None:
            return f"team {s['result']} mean {s['team_mean']} with one {s['bot']} seat (no all-greedy games to compare)"
        low, high = s["gain_95"]
        return (f"one {s['bot']} seat changes the team's {s['result']} from {s['greedy_team_mean']:g} to {s['team_mean']:g} a game "
                f"({s['gain']:+g}, 95 % interval {low:+g} to {high:+g}; {s['signal_points']:+.1f} points of the range)")
    if s["win_share"] is None:
        return "no finished game"
    low, high = s["win_share_95"]
    return (f"the {s['bot']} seat won {100 * s['win_share']:.1f} % of games (95 % interval {100 * low:.1f}–{100 * high:.1f} %) "
            f"against {s['against']} seats; an even share is {100 * s['even_share']:.1f} %")


def _count(errors: list) -> str:
    return f"{len(errors)} error{'s' * (len(errors) != 1)}"


def _fitting_errors(base: GameContent, merged: GameContent, art: dict[str, str], variant: Variant) -> list[ContentError]:
    """The layout errors of the changed cards (text that does not fit, a field the layout needs),
    found while other errors keep the check in stage 2: listed in the same run, at the variant's
    lines.  Nothing when the merged data cannot even be made into cards (its schema errors say why)."""
    try:
        _preview(base, merged, art, None, render=True)
    except ContentErrors as exc:
        return [relocate(e, variant, base) for e in exc.errors]
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):  # cards from data the schema refused
        pass
    return []


def _engine(game_id: str):
    from deckpress.rules.core.registry import game_class, known_games

    return game_class(game_id) if game_id in known_games() else None


def _parameters(engine, variant: Variant, base: GameContent, merged: GameContent):
    """Effective parameters of base (the variant's ruleset only) and variant (ruleset and
    overrides); errors located at the variant's ``parameters`` or ``ruleset`` lines."""
    from deckpress.rules.core.errors import ParameterError

    doc = variant.doc
    errors: list[ContentError] = []
    try:
        base_game = engine.create(base, variant.ruleset, {})
    except ParameterError as exc:
        return [doc.error(("ruleset",), f"ruleset: {exc}")], {}, {}
    overrides = variant.parameters
    try:
        variant_game = engine.create(merged, variant.ruleset, overrides)
    except ParameterError as exc:
        for name, value in overrides.items():  # every parameter that is wrong on its own, each at its line
            try:
                engine.create(merged, variant.ruleset, {name: value})
            except ParameterError as alone:
                errors.append(doc.error(("parameters", name), f"parameters.{name}: {alone}"))
        if not errors:  # right one by one, wrong together
            named = re.search(r"parameter '([a-z0-9_]+)'", str(exc))
            where = ("parameters", named.group(1)) if named and named.group(1) in overrides else ("parameters",)
            errors.append(doc.error(where, f"parameters: {exc}"))
        return errors, {}, {}
    content_errors = getattr(engine, "content_errors", None)
    if content_errors is not None:
        errors += content_errors(merged)
    return errors, dict(base_game.params), dict(variant_game.params)


def _preview(base: GameContent, merged: GameContent, art: dict[str, str], path: Path | None,
             render: bool = False) -> tuple[str | None, list[str]]:
    """Render the added and changed cards (both faces) of ``merged`` to ``path``, with the
    variant's checked ``art`` in each card's ``art`` field; returns the path written (None if
    nothing changed or no path) and the cards' ids.  With no path the cards are still laid out
    (so that their errors are found) when ``render`` is set.

    Raises:
        ContentErrors: a changed card cannot be laid out (the variant's fault).
        OutputError: ``path`` cannot be written.
    """
    from deckpress.generator.kit.printdata import Deck

    module = kit_module(base.game_id)
    before = {(d.kind, c["id"]): c for d in module.decks(base) for c in d.cards}
    decks, ids = [], []
    for deck in module.decks(merged):
        cards = [{**c, "art": art[c["id"]]} if c["id"] in art else c for c in deck.cards]
        cards = [c for c in cards if before.get((deck.kind, c["id"])) != c]
        if cards:
            decks.append(Deck(deck.kind, deck.name, cards, deck.set))
            ids += [c["id"] for c in cards]
    if not decks or (path is None and not render):
        return None, ids
    from deckpress.generator.render.kit import (  # a quarter second: only with cards to draw
        PrintOptions,
        drawn_as,
        render_pdf,
    )

    pdf = render_pdf(merged.documents["layout"], decks, None, PrintOptions(), title=f"{merged['game']['title']}: variant preview",
                     checked_images=frozenset(art.values()), **drawn_as(merged))
    if path is None:
        return None, ids
    write_atomic(path, pdf)
    return display_path(path), ids


def write_content(content: GameContent, root: Path) -> Path:
    """Write ``content`` as a content folder ``root/<game-id>/`` (for the engine's loader) and
    return that folder.

    Raises:
        OutputError: a file cannot be written (no space left in the temporary folder).
    """
    folder = root / content.game_id
    for stem, doc in content.documents.items():
        text = yaml.safe_dump(doc.data, sort_keys=False, allow_unicode=True, width=1000)
        write_atomic(folder / f"{stem}.yaml", f"{SCHEMA_COMMENT}../../schemas/{schema_for(content.game_id, stem)}\n{text}".encode("utf-8"))
    return folder


def verdict(report: CheckReport, t: Thresholds, engine) -> tuple[str, list[str]]:
    """``reject``, ``review`` or ``accept`` with the reasons, from the simulation figures."""
    sim = report.simulation
    if sim is None:
        return "accept", ["well-formed; not simulated, so its balance is unknown"]
    base, var = sim["base"], sim["variant"]
    rejects = []
    if var["cut_off_by_move_bound"]:
        rejects.append(f"{var['cut_off_by_move_bound']} of {var['games_requested']} variant games did not end within the move bound of {var['move_bound']} actions")
    rejects += [f"validating replay: {p}" for p in sim["validated"]]
    if rejects:
        return "reject", rejects
    reviews = []
    if not engine.info.cooperative and var["games"]:
        fair = (1 - (var["draw_rate"] or 0)) / len(var["seats"])  # an equal part of the games not drawn
        for seat in var["seats"]:
            gap = 100 * (seat["win_rate"] - fair)
            low, high = seat["win_rate_95"]
            if abs(gap) > t.seat_advantage_pp and not (low <= fair + t.seat_advantage_pp / 100 and high >= fair - t.seat_advantage_pp / 100):
                reviews.append(f"seat {seat['seat']} wins {100 * seat['win_rate']:.1f} % of games against a fair share of {100 * fair:.1f} % "
                               f"(an equal part of the {100 * (1 - (var['draw_rate'] or 0)):.1f} % not drawn; more than {t.seat_advantage_pp:g} points beyond the noise)")
    lb, lv = base["length_in_moves"].get("p50"), var["length_in_moves"].get("p50")
    if lb and lv and (lv / lb >= t.length_ratio or lb / lv >= t.length_ratio):
        reviews.append(f"the median game length changes from {lb} to {lv} moves (a factor of {t.length_ratio:g} or more)")
    for d in sim["differences"]:
        if d["significant"] and d["delta"] is not None and ":" in d["what"] and abs(100 * d["delta"]) > t.measure_change_pp:
            reviews.append(f"{d['what']} moves from {100 * d['base']:.1f} % to {100 * d['variant']:.1f} % (beyond the noise and over {t.measure_change_pp:g} points)")
    reviews += _skill_reviews(report.skill, t)
    if reviews:
        return "review", reviews
    return "accept", ["well-formed, ends every game, and no figure moves beyond the thresholds"]


def _skill_reviews(skill: dict[str, Any] | None, t: Thresholds) -> list[str]:
    """The reason for a review when the variant's skill signal is more than
    ``t.skill_drop_points`` points below the base's (see :mod:`.thresholds`).  The threshold is
    not weighed against the noise; when the change's 95 % interval reaches 0, the reason says so."""
    if not skill or skill.get("change_points") is None:
        return []
    drop = -skill["change_points"]
    if not drop > t.skill_drop_points:
        return []
    b, v = skill["base"], skill["variant"]
    interval = skill.get("change_95")
    unsure = drop > 0 and interval is not None and interval[1] >= 0
    noise = (f"; the change's 95 % interval, {interval[0]:+.1f} to {interval[1]:+.1f} points, reaches 0, so it may be noise: "
             "more --skill-games would tell") if unsure else ""
    # A threshold of 0 or below also flags a signal that did not fall: said as it is.
    if drop > 0:
        lead, by = f"the variant {'may make' if unsure else 'makes'} skill matter less: ", f"{drop:.1f} points"
    else:
        lead, by = f"the skill signal is flagged by a threshold of {t.skill_drop_points:g} points: ", f"a change of {-drop:+.1f} points"
    if b["cooperative"]:
        return [f"{lead}one search bot seat changes the team's {b['result']} by {b['gain']:+g} a game in the base game and by "
                f"{v['gain']:+g} in the variant ({by} of the result's range, threshold {t.skill_drop_points:g}{noise})"]
    return [f"{lead}the search bot's win share {'fell' if drop > 0 else 'went'} from {100 * b['win_share']:.1f} % "
            f"to {100 * v['win_share']:.1f} % ({by}, threshold {t.skill_drop_points:g}{noise})"]

"""The stages of ``deckpress check`` (listed in :mod:`deckpress.generator.check`), each a
function of the check's state that records its :class:`~.outcome.Stage` in the report and says
whether the check goes on.

Stages 1 and 2 read the variant (:func:`load_safely`, :func:`check_schemas`); the second gives a
:class:`VariantCheck`, which the later stages (:data:`LATER_STAGES`) share: the variant, its
base and merged content, the engine and the effective parameters, and the one
:class:`~.simulation.SimulationPlan` that both the simulation and the skill signal play.
"""
from __future__ import annotations

import dataclasses
import json
import tempfile
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import yaml

from deckpress.generator.check.options import CheckOptions, Progress
from deckpress.generator.check.outcome import CheckReport, Stage
from deckpress.generator.check.parameters import effective_parameters, engine_for
from deckpress.generator.check.preview import fitting_errors, preview_changed_cards
from deckpress.generator.check.simulation import (
    SimulationPlan,
    compare,
    run_bounded,
    run_skill_bounded,
)
from deckpress.generator.check.verdict import untold_skill, verdict
from deckpress.generator.content import SCHEMA_COMMENT, GameContent, schema_for
from deckpress.generator.content.errors import ContentError, ContentErrors, display_path
from deckpress.generator.content.variant import (
    VARIANT_MAX_BYTES,
    VARIANT_MAX_DEPTH,
    VARIANT_MAX_NODES,
    Variant,
    base_content,
    diff,
    merge,
    relocate,
    unsourced,
    variant_art,
    variant_of,
)
from deckpress.generator.content.yamlsafe import Document, load_yaml
from deckpress.generator.output import write_atomic, writing


def load_safely(path: Path, report: CheckReport, tell: Progress) -> Document | None:
    """Stage 1: the variant file read with the variant limits (size, depth, nodes); None (and the
    report stopped as ``unreadable``) when it cannot be read safely."""
    tell("1. safe loading")
    doc, errors = load_yaml(Path(path), report.variant_path, max_bytes=VARIANT_MAX_BYTES,
                            max_depth=VARIANT_MAX_DEPTH, max_nodes=VARIANT_MAX_NODES)
    if doc is None:
        report.errors = errors
        report.stop("1. safe loading", "unreadable", [f"the file could not be read safely ({len(errors)} error{'s' * (len(errors) > 1)})"])
        return None
    report.stages.append(Stage("1. safe loading", "passed"))
    return doc


@dataclass
class VariantCheck:
    """A variant that passed stage 2, and what the later stages share: the report they fill, the
    options, ``tell`` (progress), the variant, the content it extends (``base``) and the merged
    content, its checked art (card id to image path), the game's engine (None: no engine yet)
    and the effective parameters of each side.  ``cleanup`` removes the temporary folder of the
    merged content, written once for the :attr:`plan`, when the check ends."""

    report: CheckReport
    options: CheckOptions
    tell: Progress
    cleanup: ExitStack
    variant: Variant
    base: GameContent
    merged: GameContent
    art: dict[str, str]
    engine: Any
    base_params: dict[str, Any] = field(default_factory=dict)
    variant_params: dict[str, Any] = field(default_factory=dict)
    _plan: SimulationPlan | None = None

    def plan(self) -> SimulationPlan:
        """The simulation of base and variant (built once: the skill signal plays the same plan
        with its own games and bots).  The first call writes the merged content to a temporary
        folder that lasts until :attr:`cleanup` closes.

        Raises:
            OutputError: the temporary folder cannot be written (exit 4, never a verdict).
        """
        if self._plan is None:
            options, variant = self.options, self.variant
            folder = write_content(self.merged, Path(self.cleanup.enter_context(tmp_dir_for_check())))
            players = {"players": self.variant_params["players"]} if "players" in variant.parameters else {}
            self._plan = SimulationPlan(variant.game_id, variant.ruleset, players, variant.parameters, folder,
                                        options.games or self.engine.info.check_games, options.seed, options.bots,
                                        options.time_limit_s, options.memory_mb, options.workers, options.content)
        return self._plan

    def games_told(self, stage: str) -> Callable[[str, int, int], None] | None:
        """``progress(what, done, total)`` for the simulation of ``stage`` (None without a progress bar)."""
        return (lambda what, done, total: self.tell(f"{stage}: {what}", done, total)) if self.options.progress else None


def check_schemas(doc: Document, report: CheckReport, options: CheckOptions, tell: Progress,
                  cleanup: ExitStack) -> VariantCheck | None:
    """Stage 2: the variant's schema; the merged content against the game's schemas and semantic
    checks (and the changed cards' layout); the parameters against the engine's declarations.
    None (and the report stopped) when any of these fails: every error is listed."""
    tell("2. schemas and checks")
    variant, errors = variant_of(doc)
    if variant is None:
        report.errors = errors
        said = doc.data.get("extends") if isinstance(doc.data, dict) else None
        why = ("the variant does not say which game it extends" if said is None else
               "its 'extends' is no game's id: a variant names the game it changes by its id (mission-emission); "
               "to check it against a game folder such as an edition, give the folder with --content")
        report.stop("2. schemas and checks", "reject", [why])
        return None
    base, base_errors = base_content(doc, options.content)
    if base_errors or base is None:
        report.errors = errors + base_errors
        if options.content is None or any(e.path == report.variant_path for e in base_errors):
            report.stop("2. schemas and checks", "reject", ["the game the variant extends could not be loaded"])
        else:  # The game folder given by --content is broken: not the variant's fault, so no verdict.
            report.stop("2. schemas and checks", "unreadable", [f"the game folder {display_path(options.content)} is not valid: "
                                                                f"fix it first (deckpress validate {display_path(options.content)})"])
        return None
    report.meta = {k: doc.data.get(k) for k in ("extends", "name", "author", "version", "description", "source")}
    merged, merge_errors = merge(variant, base)
    errors += merge_errors
    engine = engine_for(variant.game_id)
    art, art_errors = variant_art(variant, merged)
    errors += art_errors
    check = VariantCheck(report, options, tell, cleanup, variant, base, merged, art, engine)
    if engine is not None:
        param_errors, check.base_params, check.variant_params = effective_parameters(engine, variant, base,
                                                                                     merged if not merge_errors else base)
        errors += param_errors
    if errors:
        report.errors = sorted(set(errors) | set(fitting_errors(base, merged, art, variant)))
        report.stop("2. schemas and checks", "reject", [f"the variant has {_count(report.errors)}: all are listed"])
        return None
    report.stages.append(Stage("2. schemas and checks", "passed", [] if engine else [f"{variant.game_id} has no rules engine yet: parameters not checked"]))
    return check


def what_changed(check: VariantCheck) -> bool:
    """Stage 3: cards added, removed and changed field by field; the effective parameters and
    those the variant changes; warnings for changes that give no source."""
    report = check.report
    report.content_diff = diff(check.base, check.merged)
    report.effective_parameters = dict(check.variant_params)
    report.parameter_diff = {k: (check.base_params.get(k), v) for k, v in check.variant_params.items() if check.base_params.get(k) != v}
    report.warnings = unsourced(report.content_diff)
    report.stages.append(Stage("3. what changed", "passed", report.warnings + report.content_diff.lines() + [
        f"parameter {k}: {json.dumps(a)} -> {json.dumps(b)}" for k, (a, b) in report.parameter_diff.items()] or ["no changes"]))
    return True


def preview(check: VariantCheck) -> bool:
    """Stage 4: the added and changed cards drawn to ``options.preview_path``; a ``reject`` when
    one cannot be laid out.

    Raises:
        OutputError: the preview cannot be written.
    """
    report = check.report
    check.tell("4. preview")
    try:
        report.preview, report.preview_cards = preview_changed_cards(check.base, check.merged, check.art, check.options.preview_path, render=True)
    except ContentErrors as exc:
        report.errors = [relocate(e, check.variant, check.base) for e in exc.errors]
        report.stop("4. preview", "reject", ["the changed cards cannot be laid out"])
        return False
    report.stages.append(Stage("4. preview", "passed", [f"{len(report.preview_cards)} added or changed card(s)"] if report.preview_cards
                               else ["no card changes to preview"]))
    return True


def simulate(check: VariantCheck) -> bool:
    """Stage 5: base and variant simulated with the same seeds and bots (:func:`.simulation.run_bounded`);
    skipped with ``--no-simulate`` or for a game with no engine; ``could not finish`` at a limit,
    ``reject`` when the engine fails on the variant's content."""
    report, options = check.report, check.options
    if not options.simulate or check.engine is None:
        report.stages.append(Stage("5. simulation", "skipped", ["--no-simulate" if not options.simulate else f"{check.variant.game_id} has no rules engine yet"]))
        return True
    plan = check.plan()
    check.tell("5. simulation: base", 0, plan.games)
    result = run_bounded(plan, check.games_told("5. simulation"))
    if stopped(report, "5. simulation", result):
        return False
    result["differences"] = [d.as_dict() for d in compare(result["base"], result["variant"])]
    report.simulation = result
    report.stages.append(Stage("5. simulation", "passed", [f"{result['variant']['games']:,} games per side, seed {options.seed}"]
                               + [f"variant: {f['text']}" for f in result["variant"].get("findings", [])]))
    return True


def stopped(report: CheckReport, stage: str, result: dict[str, Any]) -> bool:
    """Whether a bounded run (:func:`.simulation.run_bounded`, :func:`.simulation.run_skill_bounded`)
    ended the check at ``stage``: it could not finish in its limits, or the engine refused the
    content (a reject); the report is stopped there with the reason."""
    if "could_not_finish" in result:
        report.stop(stage, "could not finish", [result["could_not_finish"]])
        return True
    if "error" in result:
        report.stop(stage, "reject", [result["error"]])
        return True
    return False


def skill_signal(check: VariantCheck) -> bool:
    """Stage 6, opt-in (``options.skill_games``): the skill signal of base and variant, the
    simulation's plan played by a search bot against greedy seats (:func:`.simulation.run_skill_bounded`)."""
    report, options = check.report, check.options
    if report.simulation is None or not options.skill_games:
        report.stages.append(Stage("6. skill signal", "skipped", ["not simulated" if report.simulation is None else
                                                                 "opt-in: --skill-games N (a search bot plays: minutes, not seconds)"]))
        return True
    check.tell("6. skill signal: base", 0, options.skill_games)
    plan = dataclasses.replace(check.plan(), games=options.skill_games, bots=None)
    skill = run_skill_bounded(plan, options.skill_games, options.skill_iterations, check.games_told("6. skill signal"), options.skill_bot)
    if stopped(report, "6. skill signal", skill):
        return False
    report.skill = skill
    b = skill["base"]
    notes = [f"{options.skill_games:,} games per side, {b['bot']} in each seat in turn against {b['against']} seats, seed {options.seed}"]
    report.stages.append(Stage("6. skill signal", "passed", notes + [n for n in [untold_skill(b)] if n]))
    return True


def decide(check: VariantCheck) -> bool:
    """Stage 7: the verdict (:func:`.verdict.verdict`), its reasons followed by the warnings."""
    report = check.report
    report.verdict, report.reasons = verdict(report, check.options.thresholds, check.engine)
    report.reasons += report.warnings
    report.stages.append(Stage("7. verdict", report.verdict))
    return True


#: Stages 3 to 7, in order; each returns False when it stopped the check.
LATER_STAGES: tuple[Callable[[VariantCheck], bool], ...] = (what_changed, preview, simulate, skill_signal, decide)


def tmp_dir_for_check() -> tempfile.TemporaryDirectory[str]:
    """A temporary folder for the merged content, removed after use.

    Raises:
        OutputError: the temporary folder cannot be written (exit 4, never a verdict).
    """
    with writing(Path(tempfile.gettempdir())):  # no space or no permission there: exit 4, never a verdict
        return tempfile.TemporaryDirectory(prefix="deckpress-variant-")


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


def _count(errors: list[ContentError]) -> str:
    return f"{len(errors)} error{'s' * (len(errors) != 1)}"

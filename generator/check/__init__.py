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

Where each part lives: :mod:`.options` (how to check), :mod:`.stages` (stages 1-7 over the
check's state), :mod:`.parameters` (the engine's parameters), :mod:`.preview` (stage 4's
drawing), :mod:`.simulation` (stages 5 and 6 in a bounded child process), :mod:`.verdict`
(stage 7), :mod:`.outcome` (the report of a check), :mod:`.report` (its HTML and JSON files);
:mod:`.validation` is ``deckpress validate`` (a variant's stages 1-4, a game folder's checks).

This package is application code like the CLI: it knows both the renderer and the rules.
"""
from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

from deckpress.generator.check.options import CheckOptions, Progress
from deckpress.generator.check.outcome import EXIT_CODES, CheckReport, Stage
from deckpress.generator.check.stages import (
    LATER_STAGES,
    check_schemas,
    load_safely,
    tmp_dir_for_check,
    write_content,
)
from deckpress.generator.check.verdict import skill_figure, untold_skill, verdict
from deckpress.generator.content.errors import display_path
from deckpress.generator.content.variant import base_content

__all__ = ["EXIT_CODES", "CheckOptions", "CheckReport", "Progress", "Stage", "base_content", "run_check", "skill_figure",
           "tmp_dir_for_check", "untold_skill", "verdict", "write_content"]

DEFAULT_OPTIONS = CheckOptions()


def run_check(path: Path, options: CheckOptions = DEFAULT_OPTIONS) -> CheckReport:
    """Check the variant at ``path`` (see the module docstring): stages 1 and 2 read it, the
    later ones (:data:`.stages.LATER_STAGES`) run in order until one stops the check.  Never
    raises for bad input.

    Raises:
        OutputError: the preview (``options.preview_path``) or the temporary copy of the merged
            content cannot be written: a failure of the environment, not a verdict.
        KeyboardInterrupt: Ctrl-C (the simulation's processes are killed first).
    """
    report = CheckReport(display_path(path))
    tell = options.progress or _silent
    doc = load_safely(path, report, tell)
    if doc is None:
        return report
    with ExitStack() as cleanup:  # the merged content's temporary folder, removed when the check ends
        check = check_schemas(doc, report, options, tell, cleanup)
        if check is not None:
            for stage in LATER_STAGES:
                if not stage(check):
                    break
    return report


def _silent(stage: str, done: int | None = None, total: int | None = None) -> None:
    """No progress to tell."""

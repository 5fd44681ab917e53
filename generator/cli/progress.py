"""Progress on a terminal: a rich bar on stderr that the CLI shows only where a person watches
(stderr is a terminal, and the output is not ``--format json``) and removes when the work ends, so
that piped output, CI logs and JSON stay exactly what they were."""
from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterator

from deckpress.generator.check.options import Progress


def wanted(fmt: str) -> bool:
    """Whether to show progress: on a terminal, and not for ``--format json``."""
    return fmt != "json" and sys.stderr.isatty()


@contextmanager
def progress_bar(fmt: str) -> Iterator[Progress | None]:
    """A ``tell(what, done, total)`` for work that reports its progress: ``what`` names the step
    shown beside the bar, ``done`` of ``total`` fills it (None: a step without a count).  Yields
    None when progress is not :func:`wanted`, so callers pass it on as "no progress"."""
    if not wanted(fmt):
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("starting", total=None)

        def tell(what: str, done: int | None = None, total: int | None = None) -> None:
            new_step = bar.tasks[0].description != what  # drawn at once: a step may end before the next refresh
            bar.update(task, description=what, completed=done or 0, total=total, refresh=new_step)

        yield tell

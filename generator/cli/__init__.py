"""The ``deckpress`` command line: the one place that knows content, rendering and rules.

Each command module parses its options into plain values, runs the library, and hands the result
to a reporter.  Bad input ends with the errors listed and a non-zero exit code, never a traceback.
Command modules register here, in :data:`COMMANDS`.
"""
from __future__ import annotations

import errno
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager

import click

from deckpress.generator import exitcodes
from deckpress.generator.cli import (
    calibrate,
    check,
    content,
    describe,
    export,
    icons,
    init,
    missions,
    record,
    replay,
    simulate,
    studio,
    sweep,
    translate,
)
from deckpress.generator.content.safetext import escape
from deckpress.generator.limits import CouldNotFinish, limit_reached
from deckpress.generator.output import OutputError

COMMANDS = [init.init, content.validate, content.build, calibrate.calibrate, export.export, init.schemas, missions.missions, describe.describe, icons.icons, simulate.simulate, replay.replay, record.record, check.check, sweep.sweep, studio.studio, translate.translate]


class DeckpressGroup(click.Group):
    """The command group: failures of the environment end in one line on stderr and their own
    exit code (:mod:`deckpress.generator.exitcodes`), from any command, never a traceback:

    - an output that cannot be written (:class:`OutputError`): 4;
    - a memory, CPU or time limit reached (:class:`CouldNotFinish`, or a ``MemoryError`` and its
      kin, see :func:`~deckpress.generator.limits.limit_reached`): 5, "could not finish: ...";
    - a path given on the command line that the system refuses to even look at (a name too long,
      a loop of links, a folder you may not enter: an ``OSError`` from ``Path.is_file`` and its
      kin): 3, "cannot read PATH: reason";
    - Ctrl-C (``KeyboardInterrupt``): 130;
    - any other exception, a bug in deckpress: 70, "internal error: ..." with the exception's
      type and message; with the environment variable ``DECKPRESS_TRACEBACK`` set, raised as it is
      (its traceback shown), for a developer.

    A soft CPU time limit deckpress inherited (``ulimit -t``) raises :class:`CouldNotFinish` at
    ``SIGXCPU`` instead of ending the process without a word.
    """

    def invoke(self, ctx: click.Context):
        try:
            with _cpu_limit_is_could_not_finish():
                return super().invoke(ctx)
        except OutputError as exc:
            _fail(ctx, exitcodes.OUTPUT_FAILED, f"{exc}; any earlier file there is kept")
        except KeyboardInterrupt:
            _fail(ctx, exitcodes.INTERRUPTED, "interrupted: no output was left half-written")
        except OSError as exc:
            if exc.filename is None:  # not about a path: a bug or the machine, raised as it is
                raise
            reason = _READ_REASONS.get(exc.errno) if exc.errno is not None else None
            _fail(ctx, exitcodes.UNREADABLE, f"cannot read {exc.filename}: {reason if reason is not None else (exc.strerror or str(exc)).lower()}")
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except Exception as exc:  # a limit reached is one line; anything else is a bug, one line too
            reached = limit_reached(exc)
            if reached is not None:
                _fail(ctx, exitcodes.COULD_NOT_FINISH, f"could not finish: {reached}")
            if os.environ.get(TRACEBACK_VARIABLE):
                raise
            _fail(ctx, exitcodes.INTERNAL, f"internal error: a bug in deckpress, not in your files ({type(exc).__name__}: {exc}); "
                                           f"no output was left half-written. Run again with {TRACEBACK_VARIABLE}=1 to see where, "
                                           "and report it with the command you ran")


#: The environment variable that lets a bug's traceback through (:class:`DeckpressGroup`).
TRACEBACK_VARIABLE = "DECKPRESS_TRACEBACK"

#: Why the system refuses to look at a path, as people say it.
_READ_REASONS = {errno.ENAMETOOLONG: "the name is too long for this file system", errno.ELOOP: "too many symbolic links in the path",
                 errno.EACCES: "permission denied", errno.EPERM: "permission denied"}


def _fail(ctx: click.Context, code: int, message: str) -> None:
    """Print ``message`` (escaped: it may quote a path or a name from the user) as one line on
    stderr, and exit with ``code``."""
    click.echo(escape(message), err=True)
    ctx.exit(code)


@contextmanager
def _cpu_limit_is_could_not_finish() -> Iterator[None]:
    """While in the block, ``SIGXCPU`` (the soft ``ulimit -t`` reached) raises
    :class:`CouldNotFinish`; the earlier handler is restored after it."""
    def reached(signum, frame):
        raise CouldNotFinish("deckpress reached the CPU time limit it inherited (ulimit -t): raise that limit or ask for less work")

    try:
        earlier, installed = signal.signal(signal.SIGXCPU, reached), True
    except ValueError:  # not the main thread (an embedding application): leave signals alone
        earlier, installed = None, False
    try:
        yield
    finally:
        if installed:
            signal.signal(signal.SIGXCPU, earlier if earlier is not None else signal.SIG_DFL)


@click.group(cls=DeckpressGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="deckpress")
def main() -> None:
    """deckpress: card content from YAML to print-and-play PDFs, and rules engines on the same data."""


for _command in COMMANDS:
    main.add_command(_command)

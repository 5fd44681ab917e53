"""The ``deckpress`` command line: the one place that knows content, rendering and rules.

Each command module parses its options into plain values, runs the library, and hands the result
to a reporter.  Bad input ends with the errors listed and a non-zero exit code, never a traceback.
Command modules register here, in :data:`COMMANDS`.
"""
from __future__ import annotations

import click

from deckpress.generator import exitcodes
from deckpress.generator.output import OutputError
from deckpress.generator.safetext import escape

from deckpress.generator.cli import check, content, init, missions, play

COMMANDS = [init.init, content.validate, content.build, init.schemas, missions.missions, play.simulate, play.replay, check.check]


class DeckpressGroup(click.Group):
    """The command group: failures of the environment end in one line and their own exit code
    (:mod:`deckpress.generator.exitcodes`), from any command, never a traceback."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except OutputError as exc:
            click.echo(escape(str(exc)) + " (the previous output is kept)", err=True)
            ctx.exit(exitcodes.OUTPUT_FAILED)
        except MemoryError:
            click.echo("could not finish: deckpress ran out of memory under the limit it runs with (ulimit -v); "
                       "raise the limit or ask for less work (fewer --games)", err=True)
            ctx.exit(exitcodes.COULD_NOT_FINISH)
        except KeyboardInterrupt:
            click.echo("interrupted: nothing half-written was left in place of an earlier output", err=True)
            ctx.exit(exitcodes.INTERRUPTED)


@click.group(cls=DeckpressGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="deckpress")
def main() -> None:
    """deckpress: card content from YAML to print-and-play PDFs, and rules engines on the same data."""


for _command in COMMANDS:
    main.add_command(_command)

"""The ``deckpress`` command line: the one place that knows content, rendering and rules.

Each command module parses its options into plain values, runs the library, and hands the result
to a reporter.  Bad input ends with the errors listed and a non-zero exit code, never a traceback.
Command modules register here, in :data:`COMMANDS`.
"""
from __future__ import annotations

import click

from deckpress.generator.cli import check, content, init, missions, play

COMMANDS = [init.init, content.validate, content.build, init.schemas, missions.missions, play.simulate, play.replay, check.check]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="deckpress")
def main() -> None:
    """deckpress: card content from YAML to print-and-play PDFs, and rules engines on the same data."""


for _command in COMMANDS:
    main.add_command(_command)

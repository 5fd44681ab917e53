"""The table of commands (docs/commands.md) is where users look up an option: it must name every
command and every option each command takes (the table once left out options that --help listed)."""
from __future__ import annotations

import re
from pathlib import Path

from deckpress.generator.cli import main

COMMANDS = (Path(__file__).resolve().parent.parent / "docs" / "commands.md").read_text("utf-8")


def _table_rows() -> dict[str, str]:
    """docs/commands.md's command table: command name -> its synopsis (the row's first cell)."""
    rows: dict[str, str] = {}
    for synopsis in re.findall(r"^\| `deckpress ([^`]+)` \|", COMMANDS, re.MULTILINE):
        rows.setdefault(synopsis.split()[0], synopsis)
    return rows


def test_every_command_and_every_option_is_in_the_commands_table():
    rows = _table_rows()
    missing = []
    for name, command in sorted(main.commands.items()):
        if name not in rows:
            missing.append(f"{name} (no row)")
            continue
        for param in command.params:
            for option in param.opts + param.secondary_opts:
                if option.startswith("--") and option != "--help" and not re.search(re.escape(option) + r"\b", rows[name]):
                    missing.append(f"{name} {option}")
    assert not missing, f"options missing from docs/commands.md's command table: {', '.join(missing)}"

"""The README's table of commands is where users look up an option: it must name every command
and every option each command takes (the table once left out options that --help listed)."""
from __future__ import annotations

import re
from pathlib import Path

from deckpress.generator.cli import main

README = (Path(__file__).resolve().parent.parent / "README.md").read_text("utf-8")


def _table_rows() -> dict[str, str]:
    """The README's command table: command name -> its synopsis (the row's first cell)."""
    rows = {}
    for synopsis in re.findall(r"^\| `deckpress ([^`]+)` \|", README, re.MULTILINE):
        rows.setdefault(synopsis.split()[0], synopsis)
    return rows


def test_every_command_and_every_option_is_in_the_readme_table():
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
    assert not missing, f"options missing from the README's command table: {', '.join(missing)}"

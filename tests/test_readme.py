"""The README is the front door: the two set-up commands first (CI runs the second), a short tour,
and links to docs/ pages that exist."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text("utf-8")


def first_shell_block() -> list[str]:
    """The lines of the README's first ```sh block (.ci/run takes its second as the test command)."""
    return README.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()


def test_the_two_set_up_commands_come_first_and_the_test_command_runs_everything():
    assert first_shell_block() == ["pip install -e . && deckpress build", 'pip install -e ".[test]" && pytest -n 2']
    assert README.index("```sh") < README.index("\n## ")  # before any section


def test_the_readme_is_short_and_tours_each_use():
    assert len(README.splitlines()) <= 200
    tour = README.split("## A five-minute tour", 1)[1].split("\n## ", 1)[0]
    headings = re.findall(r"^### (.+)$", tour, re.M)
    # print, an edition in another language, own game, play and record, variant, studio
    assert [" ".join(h.split()[:2]) for h in headings] == ["Print a", "Print an", "Your own", "Play and", "Check a", "The studio"]


def test_every_page_the_readme_links_exists():
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    assert len(links) > 15
    assert [link for link in links if not (ROOT / link).exists()] == []

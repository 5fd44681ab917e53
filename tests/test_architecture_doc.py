"""docs/architecture.md answers "where is X" in one step: every path it names must exist, and it
names the places a maintainer asks for first."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "architecture.md").read_text("utf-8")
#: Paths the page may name before they exist (none today): a page written ahead of a change.
PENDING: set[str] = set()


def named_paths(text: str) -> list[str]:
    """Every `code span` of ``text`` that is a path in the repository: it holds a ``/`` or ends
    with a file extension (a dotted module name, ``deckpress.generator.cli``, is none).  A bare
    file name (``states.yaml``) is in the last folder named before it on its line
    (``content/mission-emission/``)."""
    out = []
    for line in text.splitlines():
        folder = ""
        for span in re.findall(r"`([^`\s]+)`", line):
            if span.startswith(("deckpress.", "generator.", "[")):
                continue
            if "/" in span:
                out.append(span)
                if span.endswith("/"):
                    folder = span
            elif re.search(r"\.(py|md|yaml|json|toml)$", span):
                out.append(folder + span)
    return out


def test_every_path_the_architecture_page_names_exists():
    paths = named_paths(DOC)
    assert len(paths) > 60  # the tables name files and folders, not only words
    missing = [p for p in paths if "<" not in p and not (ROOT / p).exists()]
    assert sorted(set(missing) - PENDING) == []


def test_the_path_finder_sees_a_missing_file():
    assert named_paths("drawn in `generator/render/nowhere.py`, `deckpress.generator.cli:main`") == ["generator/render/nowhere.py"]


def where(question: str) -> str:
    """The answer cell of the page's "Where is ..." row whose question starts with ``question``."""
    row = re.search(rf"^\| {re.escape(question)}[^|]*\| (.+) \|$", DOC, re.M)
    assert row, f"no row for {question!r}"
    return row[1]


def test_the_page_answers_where_the_first_questions_are_in_one_step():
    assert "`generator/render/elements.py`" in where("where a card element")
    assert "`generator/content/fifty_missions_conditions.py`" in where("where a 50 Missions condition")
    assert "`generator/check/verdict.py`" in where("where a variant's verdict")
    assert "`generator/studio/routes/`" in where("where the studio's routes")
    assert "`generator/content/csvfile.py`" in where("where the CSV reader")


def test_every_shipped_game_has_its_table_of_parts():
    from deckpress.rules.core.registry import game_class, known_games

    for game_id in known_games():
        name = game_class(game_id).info.name
        section = DOC.split(f"\n### {name}\n", 1)
        assert len(section) == 2, f"no section for {name}"
        rows = re.findall(r"^\| ([a-z ]+) \|", section[1].split("\n### ", 1)[0], re.M)
        assert {"content model", "print adapter", "engine", "batched engine", "conditions", "tests"} <= set(rows), name

"""Shared fixtures: copies of shipped content to break, the CLI runner, PDFs read back."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckpress.generator.cli import main
from deckpress.generator.paths import CONTENT_DIR, SCHEMAS_DIR


@pytest.fixture
def game_copy(tmp_path):
    """``game_copy("mission-emission")`` copies a shipped game folder (and the schemas beside it,
    so the ``$schema`` comments still resolve) into a temporary tree and returns the copy's path."""

    def copy(game_id: str) -> Path:
        target = tmp_path / "content" / game_id
        shutil.copytree(CONTENT_DIR / game_id, target)
        if not (tmp_path / "schemas").exists():
            shutil.copytree(SCHEMAS_DIR, tmp_path / "schemas")
        return target

    return copy

@pytest.fixture
def here(tmp_path, monkeypatch):
    """An empty folder to run commands in, as a user would (outputs land in ./output)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def pdf_text(path: Path) -> str:
    """The text of every page of the PDF at ``path``, as pypdf extracts it, one page a line."""
    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def line_of(path: Path, needle: str) -> int:
    """The 1-based number of the first line of ``path`` containing ``needle``."""
    return next(i for i, line in enumerate(path.read_text("utf-8").splitlines(), 1) if needle in line)


def errors_of(folder: Path) -> list[str]:
    """The errors of a game folder that must fail its checks, as printed (``file:line:col: ...``)."""
    from deckpress.generator.content import check_game

    content, errors = check_game(folder)
    assert content is None, f"{folder} passed its checks"
    return [str(e) for e in errors]


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    """Replace ``old`` by ``new`` in a text file, failing loudly if ``old`` is not there."""
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), "utf-8")


def retitle_first_card(cards_csv: Path, title: str) -> None:
    """Give the first card of a CSV card file (a ``deckpress init`` game's) another ``title``,
    as a user's editor saves it."""
    import csv

    rows = list(csv.DictReader(cards_csv.open(encoding="utf-8", newline="")))
    rows[0]["title"] = title
    with cards_csv.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


@pytest.fixture
def cli():
    """``cli("validate", path)`` runs deckpress in-process; returns click's Result (exit_code,
    stdout, stderr)."""
    runner = CliRunner()

    def run(*args: str):
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)

    return run


def on_a_terminal(*args: str) -> tuple[str, str]:
    """Run deckpress with its stderr on a pseudo-terminal (as a person watching sees it) and its
    stdout on a pipe; returns (stdout, what the terminal showed, escapes stripped)."""
    import os
    import pty
    import re
    import subprocess
    import sys

    main, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from deckpress.generator.cli import main; sys.exit(main())", *args],
                            stdout=subprocess.PIPE, stderr=follower, text=True)
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the terminal closed: the process ended
            break
        if not chunk:
            break
        shown += chunk
    out = proc.stdout.read()
    proc.wait()
    os.close(main)
    return out, re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown.decode("utf-8", "replace"))

"""The pre-commit hooks in a fan repository that holds only variants (issue 10).

pre-commit clones this checkout at ``rev`` (its HEAD commit) and installs it as a package in a
virtual environment of its own, with its dependencies from the package index, exactly as a fan
repository's CI does: so this tests *committed* code, and the first run takes a minute or two.
Skipped when the checkout is not a git repository with a commit.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from deckpress.generator.paths import CONTENT_DIR
from tests.conftest import line_of

CHECKOUT = Path(__file__).resolve().parents[1]


def _git(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)


@pytest.fixture(scope="module")
def head() -> str:
    found = _git("rev-parse", "HEAD", cwd=CHECKOUT)
    if shutil.which("git") is None or found.returncode != 0:
        pytest.skip("the checkout is not a git repository with a commit: pre-commit clones the hook repository at a rev")
    return found.stdout.strip()


@pytest.fixture(scope="module")
def fan_repo(head, tmp_path_factory) -> Path:
    """A git repository with one good variant and a .pre-commit-config.yaml using both hooks."""
    repo = tmp_path_factory.mktemp("fan")
    (repo / "variants").mkdir()
    shutil.copy(CONTENT_DIR / "variants" / "mission-emission-set-collection.yaml", repo / "variants" / "good.yaml")
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {CHECKOUT}\n    rev: {head}\n    hooks:\n"
        "      - id: deckpress-validate\n      - id: deckpress-check-variants\n")
    for args in (("init", "-q"), ("config", "user.email", "fan@example.org"), ("config", "user.name", "Fan"), ("add", "-A")):
        assert _git(*args, cwd=repo).returncode == 0
    return repo


def untracked(repo: Path) -> list[str]:
    """Files in the repository that nobody added: what a hook would have written."""
    status = _git("status", "--porcelain", "--untracked-files=all", "--ignored", cwd=repo).stdout
    return [line for line in status.splitlines() if line.startswith(("??", "!!"))]


def pre_commit(repo: Path, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home)}
    env.pop("PYTHONPATH", None)
    return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=900)


def test_hooks_pass_a_good_variant_and_fail_a_bad_one_at_its_line(fan_repo, tmp_path_factory):
    home = tmp_path_factory.mktemp("pre-commit-home")
    good = pre_commit(fan_repo, home)
    assert good.returncode == 0, good.stdout + good.stderr
    assert untracked(fan_repo) == []  # the check hook wrote nothing here
    assert "deckpress-check-" in good.stdout or "Passed" in good.stdout

    bad = fan_repo / "variants" / "bad.yaml"
    text = (fan_repo / "variants" / "good.yaml").read_text()
    bad.write_text(text.replace("extends: mission-emission", "extends: mission-emision"))
    _git("add", "-A", cwd=fan_repo)
    failed = pre_commit(fan_repo, home)
    assert failed.returncode == 1
    where = f"variants/bad.yaml:{line_of(bad, 'extends:')}:"
    assert failed.stdout.count(where) == 2, failed.stdout  # once from each hook: validate prints it once
    assert untracked(fan_repo) == []

"""The pre-commit hooks of ``.pre-commit-hooks.yaml`` in a fan repository.

A temporary git repository holds variants (and, in one test, a publisher's edition) and a
``.pre-commit-config.yaml`` whose ``repo:`` is this checkout's path and ``rev:`` its HEAD commit.
pre-commit clones the checkout *at that commit* and pip-installs it, with its dependencies from the
package index, in a virtual environment of its own, exactly as in a fan repository's CI.  So this
tests **committed** code and the committed ``.pre-commit-hooks.yaml``: uncommitted changes in the
working tree are not seen.  The first install takes a minute or two; every test here shares one
``PRE_COMMIT_HOME``, so the hook environment is installed once per module.

Skipped when the checkout is not a git repository with a commit.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from deckpress.generator.paths import CONTENT_DIR
from tests.conftest import line_of

CHECKOUT = Path(__file__).resolve().parents[1]
VARIANT = CONTENT_DIR / "variants" / "mission-emission-set-collection.yaml"
HOOKS = ("deckpress-validate", "deckpress-check-variants")


def _git(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)


@pytest.fixture(scope="module")
def head() -> str:
    """The checkout's HEAD commit, the ``rev`` pre-commit clones."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed: pre-commit clones the hook repository at a rev")
    found = _git("rev-parse", "--verify", "HEAD", cwd=CHECKOUT)
    if found.returncode != 0:
        pytest.skip("the checkout is not a git repository with a commit: pre-commit clones the hook repository at a rev")
    return found.stdout.strip()


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    """One PRE_COMMIT_HOME for the module: the hook environment is installed once."""
    return tmp_path_factory.mktemp("pre-commit-home")


def make_repo(root: Path, head: str, files: dict[str, str], args: list[str] | None = None) -> Path:
    """A git repository at ``root`` with ``files`` (path: text) and a .pre-commit-config.yaml
    using both hooks of this checkout at ``head`` (the check hook with ``args``), all staged."""
    root.mkdir()
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    check_args = f"\n        args: {args}" if args else ""
    (root / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {CHECKOUT}\n    rev: {head}\n    hooks:\n"
        f"      - id: deckpress-validate\n      - id: deckpress-check-variants{check_args}\n")
    assert _git("init", "-q", cwd=root).returncode == 0
    stage(root)
    return root


def stage(repo: Path) -> None:
    """``git add -A``: what pre-commit sees with --all-files."""
    assert _git("add", "-A", cwd=repo).returncode == 0


def written_by_hooks(repo: Path) -> list[str]:
    """Files in the repository that the test did not add (all its own are staged): what a hook wrote."""
    status = _git("status", "--porcelain", "--untracked-files=all", "--ignored", cwd=repo).stdout
    return [line for line in status.splitlines() if not line.startswith("A  ")]


def pre_commit(repo: Path, home: Path, tmp: Path, hook: str | None = None) -> subprocess.CompletedProcess:
    """``pre-commit run [HOOK] --all-files`` in ``repo``; the hooks' temporary files go to ``tmp``."""
    tmp.mkdir(exist_ok=True)
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "TMPDIR": str(tmp), "PRE_COMMIT_COLOR": "never"}
    env.pop("PYTHONPATH", None)
    env.pop("VIRTUAL_ENV", None)
    cmd = [sys.executable, "-m", "pre_commit", "run", *([hook] if hook else []), "--all-files"]
    return subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True, timeout=900)


def said(result: subprocess.CompletedProcess) -> str:
    """Everything pre-commit printed, for assertion messages."""
    return f"exit {result.returncode}\n--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}"


def reports_named(output: str) -> list[Path]:
    """The report files the check hook says it wrote."""
    return [Path(p) for p in re.findall(r"report: (\S+)", output)]


@pytest.mark.slow
def test_hooks_pass_good_variants_and_fail_bad_ones_at_their_lines(head, home, tmp_path):
    good = VARIANT.read_text()
    bad_value = good + "changes:\n  - replace: {file: states, id: sikkim, fields: {values.water.value: -3}}\n"
    bad_field = good + "changes:\n  - replace: {file: states, id: goa, fields: {values.forest.valeu: 3}}\n"
    repo = make_repo(tmp_path / "fan", head, {
        "variants/set-collection.yaml": good,
        "README.md": "Our variants of Mission Emission.\n",
        ".github/workflows/ci.yml": "name: ci\non: push\njobs: {}\n",  # YAML that is no deckpress content
    })

    passed = pre_commit(repo, home, tmp_path / "tmp")
    assert passed.returncode == 0, said(passed)
    assert passed.stdout.count("Passed") == 2, said(passed)
    assert written_by_hooks(repo) == [], said(passed)
    [report] = reports_named(passed.stdout + passed.stderr)  # the check hook says where its report is
    assert report.is_absolute() and report.is_file() and repo not in report.parents, report

    (repo / "variants" / "bad-value.yaml").write_text(bad_value)
    (repo / "variants" / "bad-field.yaml").write_text(bad_field)
    stage(repo)
    where = {name: f"variants/{name}:{line_of(repo / 'variants' / name, 'replace:')}:"
             for name in ("bad-value.yaml", "bad-field.yaml")}

    validated = pre_commit(repo, home, tmp_path / "tmp", "deckpress-validate")
    assert validated.returncode == 1, said(validated)
    for place in where.values():
        assert validated.stdout.count(place) == 1, (place, said(validated))  # each error once
    assert not re.search(r"^variants/set-collection\.yaml:\d", validated.stdout, re.M), said(validated)

    checked = pre_commit(repo, home, tmp_path / "tmp", "deckpress-check-variants")
    assert checked.returncode == 1, said(checked)
    for place in where.values():
        assert place in checked.stdout, (place, said(checked))
    assert written_by_hooks(repo) == [], said(checked)
    assert all(r.is_file() and repo not in r.parents for r in reports_named(checked.stdout + checked.stderr))


@pytest.mark.slow
def test_variants_are_checked_against_an_edition_in_the_repository(head, home, tmp_path):
    """A publisher's repository: its edition of Mission Emission in ``editions/2026/`` and a variant
    of it; the check hook is given ``args: [--content, editions/2026]``.  An error in the edition is
    reported once, although the hook is given every file of the edition."""
    files = {f"editions/2026/{p.relative_to(CONTENT_DIR / 'mission-emission')}": p.read_text()
             for p in (CONTENT_DIR / "mission-emission").rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    files["editions/2026/states.yaml"] = files["editions/2026/states.yaml"].replace("    name: Goa\n", "    name: Goa 2026\n")
    files["variants/goa.yaml"] = (
        "extends: mission-emission\nname: Goa renamed\nauthor: a fan\nversion: '1'\n"
        "description: Goa gets a new name.\nchanges:\n"
        "  - replace: {file: states, id: goa, fields: {name: Goa Nova}}\n")
    repo = make_repo(tmp_path / "publisher", head, files, args=["--content", "editions/2026"])

    passed = pre_commit(repo, home, tmp_path / "tmp")
    assert passed.returncode == 0, said(passed)
    assert "Goa 2026 -> Goa Nova" in passed.stdout, said(passed)  # checked against the edition
    assert written_by_hooks(repo) == [], said(passed)

    states = repo / "editions" / "2026" / "states.yaml"
    states.write_text(states.read_text().replace("    name: Goa 2026\n", "    name: Goa 2026\n    colr: red\n"))
    stage(repo)
    failed = pre_commit(repo, home, tmp_path / "tmp", "deckpress-validate")
    assert failed.returncode == 1, said(failed)
    assert failed.stdout.count(f"editions/2026/states.yaml:{line_of(states, 'colr:')}:") == 1, said(failed)

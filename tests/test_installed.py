"""deckpress as users install it: the wheel of this checkout in a fresh virtual environment, run
from an empty folder (issue 10).  Nothing here may depend on the checkout being the working folder
or on the editable install the test suite itself runs from.

The wheel is built without network (``--no-build-isolation``: setuptools is a test dependency)
and installed with ``--no-deps``; the fresh environment sees this environment's dependencies
through a ``.pth`` path line (a path line adds the folder to ``sys.path`` without processing the
``.pth`` files inside it, so the editable install's finder stays off: a test checks that
``deckpress`` is imported from the fresh environment).
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from pypdf import PdfReader

CHECKOUT = Path(__file__).resolve().parents[1]


def _run(cmd: list, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {k: v for k, v in __import__("os").environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    return subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", out, CHECKOUT], out)
    assert built.returncode == 0, built.stderr
    shutil.rmtree(CHECKOUT / "build", ignore_errors=True)  # setuptools' scratch folder
    [path] = out.glob("deckpress-*.whl")
    return path


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("venv")
    assert _run([sys.executable, "-m", "venv", root / "v"], root).returncode == 0
    python = root / "v" / "bin" / "python"
    site = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], root).stdout.strip())
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "zz-dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    installed = _run([python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel], root)
    assert installed.returncode == 0, installed.stderr
    return root / "v"


@pytest.fixture
def here(tmp_path) -> Path:
    """An empty folder, not the checkout, to run commands in."""
    folder = tmp_path / "empty"
    folder.mkdir()
    return folder


def deckpress(venv: Path, here: Path, *args) -> subprocess.CompletedProcess:
    return _run([venv / "bin" / "deckpress", *args], here)


def installed_content(venv: Path) -> Path:
    out = _run([venv / "bin" / "python", "-c", "from deckpress.generator.paths import CONTENT_DIR; print(CONTENT_DIR)"], venv)
    return Path(out.stdout.strip())


def test_the_wheel_installs_one_package_deckpress_with_its_data(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if not n.startswith("deckpress-")}
    assert tops == {"deckpress"}  # no top-level rules or generator
    for game in ("mission-emission", "fifty-missions", "maybe-missions", "geheime-mission"):
        assert f"deckpress/content/{game}/game.yaml" in names
    assert "deckpress/schemas/game.schema.json" in names and "deckpress/generator/fonts/Lato-Regular.ttf" in names
    packages = {str(p.parent.relative_to(CHECKOUT)) for part in ("generator", "rules") for p in (CHECKOUT / part).rglob("__init__.py")}
    for package in packages:  # pyproject lists packages explicitly: none may be forgotten
        assert f"deckpress/{package}/__init__.py" in names, package


def test_deckpress_runs_from_the_fresh_environment(venv, here):
    out = _run([venv / "bin" / "python", "-c", "import deckpress; print(deckpress.__file__)"], here)
    assert out.stdout.strip().startswith(str(venv)), out.stdout
    for top in ("rules", "generator"):
        assert _run([venv / "bin" / "python", "-c", f"import {top}"], here).returncode != 0


def test_shipped_games_validate_build_simulate_and_list_missions(venv, here):
    result = deckpress(venv, here, "validate")
    assert result.returncode == 0 and "(4 checked, no errors)" in result.stdout, result.stdout + result.stderr
    result = deckpress(venv, here, "build", "mission-emission")
    assert result.returncode == 0, result.stderr
    text = "".join(page.extract_text() for page in PdfReader(here / "output" / "mission-emission.pdf").pages)
    assert "Karnataka" in text
    result = deckpress(venv, here, "simulate", "mission-emission", "--games", "20", "--format", "json")
    assert result.returncode == 0 and json.loads(result.stdout)["games"] == 20
    result = deckpress(venv, here, "missions", "fifty-missions")
    assert result.returncode == 0 and "impossible: 0" in result.stdout


def test_a_variant_is_checked_without_simulating(venv, here):
    shutil.copy(installed_content(venv) / "variants" / "mission-emission-set-collection.yaml", here / "set.yaml")
    result = deckpress(venv, here, "check", "set.yaml", "--no-simulate")
    assert result.returncode == 0 and "verdict: accept" in result.stdout, result.stdout + result.stderr


def test_init_then_build(venv, here):
    assert deckpress(venv, here, "init", "mygame").returncode == 0
    result = deckpress(venv, here, "build", "mygame")
    assert result.returncode == 0 and (here / "output" / "mygame.pdf").is_file(), result.stderr


def test_a_renamed_copy_of_a_shipped_game_is_that_game(venv, here):
    shutil.copytree(installed_content(venv) / "mission-emission", here / "me-india")
    assert deckpress(venv, here, "validate", "me-india").returncode == 0
    result = deckpress(venv, here, "build", "me-india")
    assert result.returncode == 0 and (here / "output" / "mission-emission.pdf").is_file(), result.stderr
    assert deckpress(venv, here, "simulate", "me-india", "--games", "20").returncode == 0
    shutil.copy(installed_content(venv) / "variants" / "mission-emission-set-collection.yaml", here / "set.yaml")
    result = deckpress(venv, here, "check", "set.yaml", "--content", "me-india", "--games", "100", "--workers", "1")
    assert result.returncode in (0, 1) and "verdict: " in result.stdout, result.stdout + result.stderr

"""deckpress as users install it: the wheel of this checkout in
a fresh virtual environment, every command run from an empty folder that is not the checkout.

How the environment is made, once per module, without network:

* The wheel is built from a snapshot copy of the checkout (so the shared working tree gets no
  ``build/`` folder and its ``deckpress.egg-info`` is left alone) with ``pip wheel --no-deps
  --no-build-isolation``: setuptools comes from this environment (a test dependency).
* A fresh virtual environment gets the wheel with ``pip install --no-deps --no-index``.  It sees
  this environment's dependencies (PyYAML, reportlab, ...) through a ``.pth`` file that names this
  environment's site-packages folders.  A path line in a ``.pth`` file adds the folder to
  ``sys.path`` without processing the ``.pth`` files inside it, so the editable install the test
  suite runs from (its finder is started by a ``.pth`` file) stays off, and the fresh
  environment's own site-packages comes first: a test checks that ``import deckpress`` resolves
  there.
* Commands run with ``PYTHONPATH`` unset, the fresh environment first on ``PATH``, in an empty
  temporary folder.

Nothing here depends on the checkout being the working folder, or on git.
"""
from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
import yaml
from conftest import retitle_first_card
from pypdf import PdfReader

CHECKOUT = Path(__file__).resolve().parents[1]
SHIPPED = ("mission-emission", "fifty-missions", "maybe-missions", "geheime-mission")
# Not part of a build: version control, virtual environments, outputs and caches of the checkout.
_NOT_SOURCE = {".git", ".venv", ".venv-ci", "venv", "build", "dist", "output", ".pytest_cache",
               ".hypothesis", ".mypy_cache", ".ruff_cache"}


def _env(venv: Path | None = None) -> dict[str, str]:
    """The environment of a user's shell: no PYTHONPATH; with ``venv``, that environment active."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    if venv is not None:
        env["VIRTUAL_ENV"] = str(venv)
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


def _run(cmd: list, cwd: Path, venv: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in cmd], cwd=cwd, env=_env(venv), capture_output=True, text=True,
                          timeout=timeout)


def _ignore(folder: str, names: list[str]) -> set[str]:
    """What a snapshot of the checkout leaves out: caches anywhere, the rest at the top only."""
    skip = {n for n in names if n == "__pycache__" or n.endswith((".egg-info", ".pyc"))}
    if Path(folder) == CHECKOUT:
        skip |= {n for n in names if n in _NOT_SOURCE}
    return skip


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel of a snapshot of this checkout, built without network."""
    source = tmp_path_factory.mktemp("source") / "deckpress"
    shutil.copytree(CHECKOUT, source, ignore=_ignore, symlinks=True)
    out = tmp_path_factory.mktemp("wheel")
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", out, source], out)
    assert built.returncode == 0, built.stdout + built.stderr
    [path] = out.glob("deckpress-*.whl")
    return path


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment with the wheel installed and this environment's dependencies."""
    root = tmp_path_factory.mktemp("venv")
    made = _run([sys.executable, "-m", "venv", root / "v"], root)
    assert made.returncode == 0, made.stderr
    python = root / "v" / "bin" / "python"
    site_dir = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], root).stdout.strip())
    ours = [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], *site.getsitepackages()]
    (site_dir / "zz-dependencies.pth").write_text("".join(f"{p}\n" for p in dict.fromkeys(ours)))
    installed = _run([python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel], root)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return root / "v"


@pytest.fixture
def here(tmp_path) -> Path:
    """An empty folder, not the checkout, to run commands in."""
    folder = tmp_path / "empty"
    folder.mkdir()
    return folder


def deckpress(venv: Path, cwd: Path, *args) -> subprocess.CompletedProcess:
    """Run the installed ``deckpress`` command in ``cwd``."""
    return _run([venv / "bin" / "deckpress", *args], cwd, venv)


def said(result: subprocess.CompletedProcess) -> str:
    """Everything a command printed, for assertion messages."""
    return f"exit {result.returncode}\n--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}"


def installed_package(venv: Path) -> Path:
    """The folder of the installed ``deckpress`` package (inside the fresh environment)."""
    out = _run([venv / "bin" / "python", "-c", "import deckpress, os; print(os.path.dirname(deckpress.__file__))"],
               venv, venv)
    return Path(out.stdout.strip())


def pdf_text(path: Path) -> tuple[int, str]:
    """The number of pages of a PDF and all its text."""
    reader = PdfReader(path)
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


@pytest.mark.slow
def test_the_wheel_holds_one_package_deckpress_with_all_its_data(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    tops = {n.split("/")[0] for n in names if ".dist-info/" not in n}
    assert tops == {"deckpress"}, tops  # no top-level rules or generator
    packages = {p.parent.relative_to(CHECKOUT).as_posix() for part in ("generator", "rules")
                for p in (CHECKOUT / part).rglob("__init__.py")}
    missing = sorted(p for p in packages if f"deckpress/{p}/__init__.py" not in names)
    assert not missing, f"packages not in the wheel (list them in pyproject.toml): {missing}"
    games = sorted(p.parent.name for p in (CHECKOUT / "content").glob("*/game.yaml"))
    assert set(SHIPPED) <= set(games)
    data = [*(CHECKOUT / "content").glob("*/game.yaml"), *(CHECKOUT / "schemas").glob("*.json"),
            *(CHECKOUT / "content" / "variants").glob("*.yaml"), *(CHECKOUT / "generator" / "fonts").glob("*.ttf"),
            *(CHECKOUT / "generator" / "templates").rglob("*.j2"),  # the kit's prose, the studio's pages, the check report
            *(CHECKOUT / "content").glob("*/locales/*.po")]  # the shipped editions' catalogues
    missing = sorted(p.relative_to(CHECKOUT).as_posix() for p in data
                     if f"deckpress/{p.relative_to(CHECKOUT).as_posix()}" not in names)
    assert not missing, f"data files not in the wheel: {missing}"
    # the shipped editions' translations (gettext catalogues) travel with their games
    assert {"fifty-missions/locales/fr.po", "geheime-mission/locales/de.po", "mission-emission/locales/hi.po"} <= {
        n.removeprefix("deckpress/content/") for n in names}


@pytest.mark.slow
def test_the_fresh_environment_imports_deckpress_from_its_own_site_packages(venv, here):
    site_dir = Path(_run([venv / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         here, venv).stdout.strip())
    assert installed_package(venv) == site_dir / "deckpress"  # not the checkout through the editable finder
    tops = {p.name for p in site_dir.iterdir()}
    assert not tops & {"rules", "generator", "rules.py", "generator.py"}, sorted(tops)


@pytest.mark.slow
def test_validate_with_no_path_and_with_shipped_ids(venv, here):
    result = deckpress(venv, here, "validate")
    assert result.returncode == 0 and "(4 checked, no errors)" in result.stdout, said(result)
    result = deckpress(venv, here, "validate", *SHIPPED)
    assert result.returncode == 0 and "(4 checked, no errors)" in result.stdout, said(result)


@pytest.mark.slow
def test_a_path_that_is_no_game_is_named_in_the_error(venv, here):
    """With several paths, the message must say which one is wrong."""
    result = deckpress(venv, here, "validate", "mission-emission", "no-such-game")
    assert result.returncode == 2 and "no-such-game" in result.stdout + result.stderr, said(result)
    result = deckpress(venv, here, "build", "no-such-game")
    assert result.returncode == 2 and "no-such-game" in result.stdout + result.stderr, said(result)
    assert not (here / "output").exists()


@pytest.mark.slow
def test_build_a_shipped_game_as_the_checkout_builds_it(venv, here, tmp_path):
    result = deckpress(venv, here, "build", "mission-emission")
    assert result.returncode == 0, said(result)
    pdf = here / "output" / "mission-emission.pdf"
    pages, text = pdf_text(pdf)
    assert pages > 2 and "Karnataka" in text and "Tamil Nadu" in text
    assert sorted(p.name for p in here.iterdir()) == ["output"]  # nothing else written here
    # The same content gives a byte-identical PDF, whether deckpress is installed or editable.
    editable = subprocess.run([sys.executable, "-c", "from deckpress.generator.cli import main; main()",
                               "build", "mission-emission", "--out", tmp_path / "editable"],
                              cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=300)
    assert editable.returncode == 0, said(editable)
    assert (tmp_path / "editable" / "mission-emission.pdf").read_bytes() == pdf.read_bytes()


@pytest.mark.slow
def test_the_french_edition_builds_and_a_french_log_replays_from_the_wheel(venv, here):
    """The shipped catalogues travel in the wheel: 50 Missions prints in French, and a log written
    with French names, copied into an empty folder, replays (docs/translations.md)."""
    result = deckpress(venv, here, "build", "fifty-missions", "--lang", "fr")
    assert result.returncode == 0, said(result)
    _, text = pdf_text(here / "output" / "fifty-missions-fr.pdf")
    assert "MÉDAILLE DE BRONZE" in text and "BRIQUET ROUGE" in text and "BRONZE MEDAL" not in text
    shutil.copy(installed_package(venv) / "content" / "fifty-missions" / "logs" / "example-fr.yaml", here / "fr.yaml")
    result = deckpress(venv, here, "replay", "fr.yaml")
    assert result.returncode == 0 and "20 events, all legal" in result.stdout, said(result)


@pytest.mark.slow
def test_simulate_and_missions(venv, here):
    result = deckpress(venv, here, "simulate", "mission-emission", "--games", "20", "--format", "json")
    assert result.returncode == 0 and json.loads(result.stdout)["games"] == 20, said(result)
    result = deckpress(venv, here, "missions", "fifty-missions")
    assert result.returncode == 0 and "impossible: 0" in result.stdout, said(result)


@pytest.mark.slow
def test_a_shipped_variant_copied_here_is_checked_without_simulating(venv, here):
    shutil.copy(installed_package(venv) / "content" / "variants" / "mission-emission-set-collection.yaml", here / "set.yaml")
    result = deckpress(venv, here, "check", "set.yaml", "--no-simulate")
    assert result.returncode == 0 and "verdict: accept" in result.stdout, said(result)
    report = json.loads((here / "output" / "check" / "set" / "report.json").read_text())
    assert report["verdict"] == "accept"


@pytest.mark.slow
def test_init_then_validate_and_build_a_game_from_data_alone(venv, here):
    result = deckpress(venv, here, "init", "mygame")
    assert result.returncode == 0, said(result)
    game = yaml.safe_load((here / "mygame" / "game.yaml").read_text())
    assert game["id"] == "mygame"
    assert (here / "mygame" / "layout.yaml").is_file() and (here / "mygame" / ".schemas" / "game.schema.json").is_file()
    for deck in game["decks"]:
        assert (here / "mygame" / deck["file"]).is_file()
        if "schema" in deck:
            assert (here / "mygame" / deck["schema"]).is_file()
    result = deckpress(venv, here, "validate", "mygame")
    assert result.returncode == 0 and result.stdout.startswith("ok:"), said(result)
    result = deckpress(venv, here, "build", "mygame")
    assert result.returncode == 0, said(result)
    pages, text = pdf_text(here / "output" / "mygame.pdf")
    first_title = (here / "mygame" / "cards.csv").read_text().splitlines()[1].split(",")[1]
    assert pages >= 2 and first_title in text, (first_title, text[:500])
    result = deckpress(venv, here, "simulate", "mygame")
    assert result.returncode != 0 and "no rules engine" in result.stdout + result.stderr, said(result)


@pytest.mark.slow
def test_schemas_are_written_self_contained(venv, here):
    result = deckpress(venv, here, "schemas", "for-editors")
    assert result.returncode == 0, said(result)
    shipped = {p.name for p in (installed_package(venv) / "schemas").glob("*.json")}
    written = {p.name: json.loads(p.read_text()) for p in (here / "for-editors").glob("*.json")}
    assert set(written) == shipped

    def refs(node):
        if isinstance(node, dict):
            yield from ([node["$ref"]] if isinstance(node.get("$ref"), str) else [])
            for value in node.values():
                yield from refs(value)
        elif isinstance(node, list):
            for value in node:
                yield from refs(value)
    outside = {name: r for name, schema in written.items() for r in refs(schema) if not r.startswith("#")}
    assert not outside, outside


@pytest.mark.slow
def test_a_renamed_copy_of_a_shipped_game_is_that_game(venv, here):
    """A publisher's edition of Mission Emission in ``me-india/``: its game.yaml says
    ``id: mission-emission``, and one card differs from the shipped game, so each command shows
    that it read the copy."""
    copy = here / "me-india"
    shutil.copytree(installed_package(venv) / "content" / "mission-emission", copy)
    states = copy / "states.yaml"
    assert "    name: Goa\n" in states.read_text()
    states.write_text(states.read_text().replace("    name: Goa\n", "    name: Goa 2026\n"))

    result = deckpress(venv, here, "validate", "me-india")
    assert result.returncode == 0 and result.stdout.startswith("ok:"), said(result)
    result = deckpress(venv, copy, "validate")  # no path: the current folder, which holds game.yaml
    assert result.returncode == 0 and "(1 checked, no errors)" in result.stdout, said(result)

    result = deckpress(venv, here, "build", "me-india")
    assert result.returncode == 0, said(result)
    assert sorted(p.name for p in (here / "output").iterdir()) == ["mission-emission.pdf"]
    assert "Goa 2026" in pdf_text(here / "output" / "mission-emission.pdf")[1]

    result = deckpress(venv, here, "simulate", "me-india", "--games", "20", "--format", "json")
    assert result.returncode == 0 and json.loads(result.stdout)["games"] == 20, said(result)

    variant = here / "goa.yaml"
    variant.write_text(
        "extends: mission-emission\nname: Goa renamed\nauthor: a fan\nversion: '1'\n"
        "description: Goa gets a new name.\nchanges:\n"
        "  - replace: {file: states, id: goa, fields: {name: Goa Nova}}\n")
    result = deckpress(venv, here, "check", "goa.yaml", "--content", "me-india", "--games", "50", "--workers", "1")
    assert result.returncode in (0, 1) and "verdict: " in result.stdout, said(result)
    assert "Goa 2026 -> Goa Nova" in result.stdout, said(result)  # the copy is the base, not the shipped game


@pytest.mark.slow
def test_studio_from_the_wheel_follows_an_edit_to_a_csv_game(venv, here):
    """A new user's first steps: ``deckpress init mygame``, ``deckpress studio mygame``; a cell of the
    CSV edited reaches the page by itself, and Ctrl-C stops the studio without a traceback."""
    import re
    import signal
    import time
    import urllib.request

    assert deckpress(venv, here, "init", "mygame").returncode == 0
    studio = subprocess.Popen([str(venv / "bin" / "deckpress"), "studio", "mygame", "--no-browser", "--dpi", "50"],
                              cwd=here, env=_env(venv), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = studio.stdout.readline()
        url, secret = re.search(r"(http://127\.0\.0\.1:\d+/)\?token=(\S+)", line).groups()  # the address it prints has its secret

        def page() -> str:
            for _ in range(600):
                try:
                    with urllib.request.urlopen(urllib.request.Request(url, headers={"Authorization": f"token {secret}"}), timeout=10) as response:
                        return response.read().decode("utf-8")
                except OSError:  # still drawing the first cards
                    time.sleep(0.1)
            pytest.fail("the studio never answered")

        first = page()
        assert first.count('<article class="card') == 6  # 3 + 2 + 1 copies in the starter cards.csv
        spark = re.search(r'data-id="spark" data-token="([^"]+)"', first).group(1)
        cards = here / "mygame" / "cards.csv"
        retitle_first_card(cards, "Wildfire")
        for _ in range(300):
            now = page()
            if "Wildfire" in now:
                break
            time.sleep(0.1)
        assert "Wildfire" in now
        assert re.search(rf'src="/card/{spark}\.png\?v=2"', now)  # its image was drawn again
    finally:
        studio.send_signal(signal.SIGINT)
        _, err = studio.communicate(timeout=30)
    assert "Traceback" not in err, err

"""Writes fail in one line, with their own exit code, and lose nothing (issue 20): a read-only
folder, --out naming a file, a full disk, Ctrl-C; a report folder that cannot be written is never
a verdict; limits deckpress inherits are respected."""
from __future__ import annotations

import errno
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from deckpress.generator import exitcodes
from deckpress.generator.paths import CONTENT_DIR

DECKPRESS = Path(sys.executable).parent / "deckpress"


@pytest.fixture
def earlier(cli, tmp_path):
    """An output folder holding a good earlier build of Mission Emission; returns (folder, bytes)."""
    out = tmp_path / "out"
    assert cli("build", "mission-emission", "--out", out).exit_code == 0
    return out, (out / "mission-emission.pdf").read_bytes()


def _fail_with(monkeypatch, code: int) -> None:
    real = os.replace

    def failing(src, dst, *args, **kwargs):
        if str(dst).endswith(".pdf"):
            raise OSError(code, os.strerror(code))
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", failing)


@pytest.mark.parametrize("code, reason", [(errno.EROFS, "the output folder is on a read-only file system"),
                                          (errno.EACCES, "permission denied"),
                                          (errno.ENOSPC, "no space left on device")])
def test_a_failed_write_is_one_line_and_keeps_the_earlier_pdf(cli, earlier, monkeypatch, code, reason):
    out, before = earlier
    _fail_with(monkeypatch, code)
    result = cli("build", "mission-emission", "--out", out)
    assert result.exit_code == exitcodes.OUTPUT_FAILED
    [line] = result.stderr.splitlines()
    assert line.startswith(f"cannot write {out / 'mission-emission.pdf'}: {reason}") and "Traceback" not in result.output
    assert (out / "mission-emission.pdf").read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == ["mission-emission.pdf"]  # no temporary file left


def test_out_naming_a_file_or_a_path_under_a_file(cli, tmp_path):
    (tmp_path / "afile").write_text("mine")
    for out in (tmp_path / "afile", tmp_path / "afile" / "sub"):
        result = cli("build", "mission-emission", "--out", out)
        assert result.exit_code == exitcodes.OUTPUT_FAILED
        assert "a file stands where a folder is needed" in result.stderr and len(result.stderr.splitlines()) == 1
    assert (tmp_path / "afile").read_text() == "mine"


def test_an_unwritable_report_folder_is_never_a_verdict(cli, tmp_path):
    (tmp_path / "afile").write_text("mine")
    variant = CONTENT_DIR / "variants" / "mission-emission-set-collection.yaml"
    result = cli("check", variant, "--no-simulate", "--report", tmp_path / "afile" / "report")
    assert result.exit_code == exitcodes.OUTPUT_FAILED
    assert "verdict" not in result.output and "cannot write" in result.stderr


def test_ctrl_c_exits_130(cli, tmp_path, monkeypatch):
    import deckpress.generator.render.kit as kit

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(kit, "build_kit", interrupted)
    result = cli("build", "mission-emission", "--out", tmp_path)
    assert result.exit_code == exitcodes.INTERRUPTED and result.stderr.startswith("interrupted")


def test_check_under_an_inherited_memory_limit_never_raises_it(tmp_path):
    """A CI job's ``ulimit -v`` (1.5 GB here) is lower than check's own 2 GiB: check must run
    within it, not fail trying to raise it (a ValueError and a 'reject' before)."""
    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))

    variant = CONTENT_DIR / "variants" / "mission-emission-set-collection.yaml"
    run = subprocess.run([DECKPRESS, "check", variant, "--games", "100", "--report", tmp_path / "r"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120, preexec_fn=limited)
    assert "Traceback" not in run.stderr + run.stdout and "ValueError" not in run.stdout
    assert run.returncode in (0, 1, exitcodes.COULD_NOT_FINISH), run.stdout + run.stderr
    assert "verdict: " in run.stdout

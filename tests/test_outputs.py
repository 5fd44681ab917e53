"""Writes fail in one line, with their own exit code, and lose nothing; exit codes mean one thing;
limits deckpress inherits are never raised.

Cases run through the command line as a user runs it: in-process with click's runner (failures
faked with monkeypatch where the kernel cannot be made to fail: the tests may run as root, where a
folder's mode does not stop writes), or as a subprocess (``python -m`` style, from this Python's
environment) where a real kernel limit is set with ``preexec_fn``.
"""
from __future__ import annotations

import contextlib
import errno
import os
import re
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from deckpress.generator import exitcodes
from deckpress.generator.check import report as check_report
from deckpress.generator.check import simulation
from deckpress.generator.paths import CONTENT_DIR

VARIANTS = CONTENT_DIR / "variants"
#: A fast variant (Mission Emission's set collection: a parameter, no card changes).
QUICK_VARIANT = VARIANTS / "mission-emission-set-collection.yaml"
#: deckpress as a user runs it, from this test's own Python environment.
DECKPRESS = [sys.executable, "-c", "import sys; from deckpress.generator.cli import main; sys.exit(main())"]


def deckpress(*args, cwd: Path, preexec_fn=None, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    """Run deckpress as a separate process in ``cwd``; returns the completed process (text)."""
    return subprocess.run([*DECKPRESS, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          preexec_fn=preexec_fn, check=False, **kwargs)


def one_line(stderr: str) -> str:
    """The single line a failure prints on stderr (and no traceback)."""
    assert "Traceback" not in stderr
    [line] = stderr.splitlines()
    return line


def verdict_line(stdout: str) -> list[str]:
    """The ``verdict: ...`` line check printed, if any."""
    return re.findall(r"^verdict: .*$", stdout, re.MULTILINE)


def leftovers(folder: Path) -> list[str]:
    """Temporary files write_atomic would leave behind."""
    return sorted(p.name for p in folder.rglob("*.tmp"))


@pytest.fixture
def earlier(cli, tmp_path):
    """An output folder holding a good earlier build of Mission Emission; returns (folder, bytes)."""
    out = tmp_path / "out"
    assert cli("build", "mission-emission", "--out", out).exit_code == 0
    return out, (out / "mission-emission.pdf").read_bytes()


def _raise_at(monkeypatch, module, name: str, code: int, only_for: str = "") -> None:
    """Make ``module.name`` raise ``OSError(code)`` when its first argument or ``dst``/``dir``
    mentions ``only_for`` (every call when empty)."""
    real = getattr(module, name)

    def failing(*args, **kwargs):
        if only_for in " ".join(map(str, [*args, *kwargs.values()])):
            raise OSError(code, os.strerror(code))
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, failing)


#: Where a write fails, the system's reason, and the words the user reads.
FAILURES = [
    pytest.param("mkstemp", errno.EROFS, "the output folder is read-only", id="read-only folder"),
    pytest.param("mkstemp", errno.EACCES, "the output folder is read-only for you", id="permission denied"),
    pytest.param("fsync", errno.ENOSPC, "no space left on device", id="disk full while writing"),
    pytest.param("replace", errno.EROFS, "the output folder is read-only", id="read-only at the rename"),
]


@pytest.mark.slow
@pytest.mark.parametrize("where, code, reason", FAILURES)
def test_a_failed_write_is_one_line_exit_4_and_keeps_the_earlier_pdf(cli, earlier, monkeypatch, where, code, reason):
    import tempfile

    out, before = earlier
    _raise_at(monkeypatch, tempfile if where == "mkstemp" else os, where, code)
    result = cli("build", "mission-emission", "--out", out)
    assert result.exit_code == exitcodes.OUTPUT_FAILED
    assert one_line(result.stderr).startswith(f"cannot write {out / 'mission-emission.pdf'}: {reason}")
    assert "kept" in result.stderr
    assert (out / "mission-emission.pdf").read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == ["mission-emission.pdf"]  # no temporary file left


@pytest.mark.slow
def test_a_real_file_size_limit_is_one_line_and_keeps_the_earlier_pdf(earlier):
    """A real kernel refusal, no fake: ``ulimit -f`` smaller than the PDF (EFBIG on write)."""
    out, before = earlier

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of being killed
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))

    run = deckpress("build", "mission-emission", "--out", out, cwd=out.parent, preexec_fn=small_files,
                    env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert run.returncode == exitcodes.OUTPUT_FAILED, run.stderr
    assert one_line(run.stderr).startswith(f"cannot write {out / 'mission-emission.pdf'}: the file is larger than")
    assert (out / "mission-emission.pdf").read_bytes() == before and leftovers(out) == []


def test_out_naming_a_file_or_a_path_under_a_file(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("afile").write_text("mine")
    for out in ("afile", "afile/sub"):
        result = cli("build", "mission-emission", "--out", out)
        assert result.exit_code == exitcodes.OUTPUT_FAILED
        assert one_line(result.stderr).startswith(f"cannot write {out}/mission-emission.pdf: afile is a file, not a folder")
    assert Path("afile").read_text() == "mine" and sorted(os.listdir()) == ["afile"]


def test_a_read_only_folder_for_a_user(cli, earlier):
    """chmod 0o555 stops a user who is not root (as root, the faked EROFS/EACCES above cover it)."""
    if os.geteuid() == 0:
        pytest.skip("root writes into a 0o555 folder")
    out, before = earlier
    out.chmod(0o555)
    try:
        result = cli("build", "mission-emission", "--out", out)
    finally:
        out.chmod(0o755)
    assert result.exit_code == exitcodes.OUTPUT_FAILED and "read-only for you" in one_line(result.stderr)
    assert (out / "mission-emission.pdf").read_bytes() == before and leftovers(out) == []


@pytest.mark.parametrize("report", ["afile", "afile/report"])
def test_an_unwritable_report_folder_is_exit_4_never_a_verdict(cli, tmp_path, monkeypatch, report):
    monkeypatch.chdir(tmp_path)
    Path("afile").write_text("mine")
    result = cli("check", QUICK_VARIANT, "--no-simulate", "--report", report)
    assert result.exit_code == exitcodes.OUTPUT_FAILED
    assert "verdict" not in result.output
    assert one_line(result.stderr).startswith(f"cannot write {report}/report.html: afile is a file, not a folder")


def test_a_full_disk_under_the_report_keeps_the_earlier_report_whole(cli, tmp_path, monkeypatch):
    """report.json is written last: when report.html cannot be written, the earlier report.json
    and report.html stay as they were (never a new json beside an old html)."""
    folder = tmp_path / "report"
    assert cli("check", QUICK_VARIANT, "--no-simulate", "--report", folder).exit_code == exitcodes.OK
    before = {name: (folder / name).read_bytes() for name in ("report.json", "report.html")}
    _raise_at(monkeypatch, os, "fsync", errno.ENOSPC)
    result = cli("check", QUICK_VARIANT, "--no-simulate", "--report", folder, "--seed", "2")
    assert result.exit_code == exitcodes.OUTPUT_FAILED and "verdict" not in result.output
    assert one_line(result.stderr).startswith(f"cannot write {folder / 'report.html'}: no space left on device")
    assert {name: (folder / name).read_bytes() for name in before} == before and leftovers(folder) == []


def test_ctrl_c_exits_130_in_one_line(cli, tmp_path, monkeypatch):
    from deckpress.generator.render import kit

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(kit, "build_kit", interrupted)
    result = cli("build", "mission-emission", "--out", tmp_path)
    assert result.exit_code == exitcodes.INTERRUPTED
    assert one_line(result.stderr).startswith("interrupted")
    assert list(tmp_path.iterdir()) == []


def _processes_mentioning(marker: str) -> list[int]:
    """Processes whose command line holds ``marker`` (a forked child keeps its parent's)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker in (entry / "cmdline").read_bytes().decode(errors="replace"):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.mark.slow
def test_ctrl_c_during_check_exits_130_and_stops_the_simulation(tmp_path):
    """Ctrl-C at a terminal reaches the whole foreground process group: check exits 130 at once,
    with one line, and its simulation process (in a group of its own) is killed too."""
    report = tmp_path / "interrupted-report"
    # Ctrl-C live, as at a terminal: a test run started in the background by a shell without job
    # control (a CI script's `cmd &`) passes SIGINT on ignored, and Python keeps it ignored.
    live = "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); from deckpress.generator.cli import main; sys.exit(main())"
    run = subprocess.Popen([sys.executable, "-c", live, "check", str(QUICK_VARIANT), "--games", "100000", "--report", str(report)], cwd=tmp_path,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.time() + 30
        while len(_processes_mentioning(str(report))) < 2 and time.time() < deadline:  # the simulation child has started
            time.sleep(0.1)
        os.killpg(run.pid, signal.SIGINT)
        out, err = run.communicate(timeout=20)
        assert run.returncode == exitcodes.INTERRUPTED and one_line(err).startswith("interrupted"), out + err
        time.sleep(0.3)
        assert _processes_mentioning(str(report)) == []
        assert not (report / "report.json").exists()
    finally:  # a failure leaves no simulation running to slow the rest of the suite
        for pid in _processes_mentioning(str(report)):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.slow
def test_check_under_an_inherited_memory_limit_never_raises_it(tmp_path):
    """A CI job's ``ulimit -v`` (1.5 GB, soft and hard) is lower than check's own 2 GiB: check runs
    within it, and does not fail trying to raise it (a ValueError traceback and 'reject' before)."""
    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))

    run = deckpress("check", VARIANTS / "fifty-missions-night-shift.yaml", "--games", "30", "--report", tmp_path / "r",
                    cwd=tmp_path, preexec_fn=limited)
    said = run.stdout + run.stderr
    assert "Traceback" not in said and "ValueError" not in said
    assert run.returncode in (exitcodes.OK, exitcodes.CONTENT, exitcodes.COULD_NOT_FINISH), said
    assert bool(verdict_line(run.stdout)) == (run.returncode != exitcodes.COULD_NOT_FINISH)


def test_limit_memory_takes_the_lower_of_wanted_and_inherited(tmp_path):
    """Soft and hard limit each the lower of the wanted and the inherited one: no ValueError."""
    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (1_000_000_000, 1_200_000_000))

    code = ("import resource; from deckpress.generator.limits import limit_memory as m; m(2048); "
            "print(*resource.getrlimit(resource.RLIMIT_AS)); m(100); print(*resource.getrlimit(resource.RLIMIT_AS))")
    run = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=60, preexec_fn=limited)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[:2] == ["1000000000 1200000000", f"{100 * 2**20} {100 * 2**20}"]


def _check_simulating(cli, tmp_path, *options):
    return cli("check", QUICK_VARIANT, "--games", "20", "--report", tmp_path / "r", *options)


def _no_verdict(result) -> str:
    """The reason a check could not finish, after asserting that it is exit 5 and not a verdict."""
    assert result.exit_code == exitcodes.COULD_NOT_FINISH, result.output
    assert not verdict_line(result.stdout) and "\nno verdict: could not finish" in result.stdout
    assert "Traceback" not in result.output
    return result.stdout


def test_the_simulation_out_of_its_own_memory_limit_could_not_finish(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(simulation, "_simulate_both", lambda plan: bytearray(600 * 2**20))
    said = _no_verdict(_check_simulating(cli, tmp_path, "--memory-limit", "256"))
    assert "the simulation ran out of memory under the limit of 256 MiB (--memory-limit)" in said
    assert "raise --memory-limit or lower --games (now 20)" in said


def test_a_simulation_ended_by_a_c_library_could_not_finish(cli, tmp_path, monkeypatch):
    """OpenBLAS ends a process with exit(1) when it cannot allocate: exit 1 must not read as 'review'."""
    monkeypatch.setattr(simulation, "_simulate_both", lambda plan: os._exit(1))
    said = _no_verdict(_check_simulating(cli, tmp_path))
    assert "the simulation stopped without a result (exit code 1), most likely out of memory" in said


@pytest.mark.slow
def test_the_time_limit_could_not_finish_and_the_child_is_stopped(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(simulation, "_simulate_both", lambda plan: time.sleep(60))
    started = time.time()
    said = _no_verdict(_check_simulating(cli, tmp_path, "--time-limit", "1"))
    assert time.time() - started < 20
    assert "the simulation did not finish within its time limit of 1 s on this machine: raise --time-limit or lower --games" in said


@pytest.mark.slow
def test_plots_that_cannot_be_drawn_could_not_finish(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(check_report, "_draw_plots", lambda data: os._exit(1))
    result = _check_simulating(cli, tmp_path)
    assert result.exit_code == exitcodes.COULD_NOT_FINISH and "verdict" not in result.output
    assert one_line(result.stderr).startswith("could not finish: drawing the report's plots stopped without a result")
    assert not (tmp_path / "r" / "report.json").exists()


@pytest.mark.slow
def test_a_failure_of_the_engine_on_the_variant_is_still_reject(cli, tmp_path, monkeypatch):
    """The variant's own fault keeps its verdict: an engine failure on its content is reject."""
    def broken(plan):
        raise RuntimeError("the engine refused the variant's deck")

    monkeypatch.setattr(simulation, "_simulate_both", broken)
    result = _check_simulating(cli, tmp_path)
    assert result.exit_code == exitcodes.USAGE and "verdict: reject" in result.stdout
    assert "the simulation failed: RuntimeError: the engine refused the variant's deck" in result.stdout


def test_game_logs_that_cannot_be_written_are_exit_4(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("afile").write_text("mine")
    result = cli("simulate", "mission-emission", "--games", "3", "--save-logs", "1", "--log-dir", "afile/logs")
    assert result.exit_code == exitcodes.OUTPUT_FAILED
    assert one_line(result.stderr).startswith("cannot write afile/logs/mission-emission-") and "afile is a file, not a folder" in result.stderr


@pytest.mark.parametrize("command", [("build",), ("validate",), ("simulate",), ("describe",), ("export", "--to", "png"), ("init",)])
def test_a_game_path_the_system_refuses_to_look_at_is_one_line_exit_3(cli, tmp_path, monkeypatch, command):
    # A name longer than the file system allows made Path.is_file raise, and a traceback reached the user.
    monkeypatch.chdir(tmp_path)
    name = "x" * 300
    result = cli(command[0], name, *command[1:])
    assert result.exit_code == 3
    assert result.stderr == f"cannot read {name}: the name is too long for this file system\n"
    assert list(tmp_path.iterdir()) == []


def test_a_bug_is_one_line_with_its_own_exit_code_and_its_traceback_only_when_asked(cli, here, monkeypatch):
    """A bug in deckpress (here: the kit's cover raising TypeError) reaches the user as one line
    naming it, exit 70, and no PDF; DECKPRESS_TRACEBACK=1 lets the exception through for a developer."""
    from deckpress.generator.kit.adapters import mission_emission

    def broken(content):
        raise TypeError("cover() got an unexpected keyword argument 'x'")

    monkeypatch.setattr(mission_emission, "cover", broken)
    monkeypatch.delenv("DECKPRESS_TRACEBACK", raising=False)
    result = cli("build", "mission-emission", "--out", here)
    assert result.exit_code == exitcodes.INTERNAL == 70
    assert result.stderr.splitlines() == ["internal error: a bug in deckpress, not in your files (TypeError: cover() got an unexpected "
                                          "keyword argument 'x'); no output was left half-written. Run again with DECKPRESS_TRACEBACK=1 "
                                          "to see where, and report it with the command you ran"]
    assert not list(here.glob("*.pdf"))
    monkeypatch.setenv("DECKPRESS_TRACEBACK", "1")
    with pytest.raises(TypeError, match="unexpected keyword"):
        cli("build", "mission-emission", "--out", here)

"""A hostile corpus, written at run time: game folders, layouts, images, logs and variants made by
someone who wants to break deckpress.

Each case is a folder of its own holding the game folder under attack, a folder ``outside/``
beside it with a marker file whose secret string must never be shown, and ``output/`` holding an
earlier PDF of every game that must survive.  Every relevant command runs once per case, as a
user runs it: the installed console script in a subprocess, in the case's folder, with a time
limit and a memory cap (so a regression fails instead of eating the machine).  Each aspect of
the outcome is its own test, so one known bug does not hide the others:

* refused cleanly: a non-zero exit, no traceback, short lines, seconds, a few hundred MB;
* the error names the file, the line where the path is written, and the rule it breaks;
* the marker's secret string appears in no output, message, report or PDF;
* the earlier PDFs are byte-identical afterwards, and nothing else lands in ``output/``.
"""
from __future__ import annotations

import io
import os
import re
import resource
import shutil
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from PIL import Image, PngImagePlugin

from deckpress.generator.content.safetext import refused
from deckpress.generator.paths import CONTENT_DIR
from tests.conftest import line_of

DECKPRESS = Path(sys.executable).parent / "deckpress"
#: The marker placed outside every game folder: it must never be shown or printed.
SECRET = f"SECRET-{uuid.uuid4().hex}"
#: The outside image's size in pixels: an image of this size in a PDF was read from outside.
OUTSIDE_IMAGE_SIZE = (37, 23)
MEMORY_CAP = 1536 * 1024 * 1024
#: Peak resident memory a refusal may take ("a few hundred MB").
MAX_RSS_KB = 400 * 1024
TIMEOUT = 30
#: "Within seconds": a refusal is fast (each command starts in under a second here).
MAX_SECONDS = 10
MAX_LINE = 300

#: The earlier PDFs in every case's output/, by game id.
GAME_IDS = ("mission-emission", "hostile-deck")

ME_COMMANDS = {
    "validate": ["validate", "me"],
    "build": ["build", "me"],
    "simulate": ["simulate", "me", "--games", "20"],
    "replay": ["replay", "me/logs/example-base.yaml", "--content", "me"],
    "check": ["check", "set.yaml", "--content", "me", "--games", "20", "--report", "rep-check"],
}
DATA_COMMANDS = {"validate": ["validate", "dg"], "build": ["build", "dg"]}

LEAVES = "leaves the game folder"
NOT_REGULAR = "is not a regular file"
REFUSED_TEXT = r"control characters? and bidirectional|control character|bidirectional"


@dataclass
class Case:
    """One hostile folder: ``make(case_dir)`` writes the attack and returns the expected errors,
    each ``(file as shown, line where the path is written or None, rule as a regex)``."""

    name: str
    commands: dict[str, list[str]]
    make: object
    expected: list[tuple[str, int | None, str]] = field(default_factory=list)


# --------------------------------------------------------------------------------------------
# The games under attack


def _png(path: Path, size=(40, 30), colour=(200, 30, 30), text: str | None = None) -> None:
    info = PngImagePlugin.PngInfo()
    if text:
        info.add_text("Comment", text)
    Image.new("RGB", size, colour).save(path, pnginfo=info)


def _mission_emission(case: Path) -> Path:
    """A copy of Mission Emission in ``case/me`` and its shipped variant as ``case/set.yaml``."""
    shutil.copytree(CONTENT_DIR / "mission-emission", case / "me")
    shutil.copy(CONTENT_DIR / "variants" / "mission-emission-set-collection.yaml", case / "set.yaml")
    return case / "me"


DATA_GAME = """\
id: hostile-deck
title: Hostile deck
card_sizes:
  poker: {width_mm: 63, height_mm: 88, description: "poker size (63 x 88 mm)"}
decks:
  - id: cards
    name: Cards
    file: cards.csv
    layout: card
    card_size: poker
"""
DATA_CARDS = "id,title,art\none,First card,art/one.png\ntwo,Second card,\n"
DATA_LAYOUT = """\
palette:
  ink: "#1b1b1b"
  paper: "#ffffff"
cards:
  card:
    trim: {width_mm: 63, height_mm: 88}
    bleed_mm: 3
    safe_mm: 3
    face:
      - {type: rect, x_mm: 0, y_mm: 0, w_mm: 63, h_mm: 88, fill: paper, bleed: true}
      - {type: image, x_mm: 4, y_mm: 20, w_mm: 55, h_mm: 40, image: "{art}", when: art}
      - {type: text, x_mm: 5, y_mm: 5, w_mm: 53, h_mm: 10, text: "{title}", font: bold, font_pt: 18, min_font_pt: 9, align: center, colour: ink}
    back:
      - {type: rect, x_mm: 0, y_mm: 0, w_mm: 63, h_mm: 88, fill: ink, bleed: true}
      - {type: image, x_mm: 20, y_mm: 30, w_mm: 23, h_mm: 23, image: "art/logo.png"}
"""


def _data_game(case: Path) -> Path:
    """A small game from data alone in ``case/dg`` (id ``hostile-deck``): a CSV deck whose
    ``art`` column an image on the face takes its path from, and a fixed image on the back.
    It validates and builds as written."""
    dg = case / "dg"
    (dg / "art").mkdir(parents=True)
    (dg / "game.yaml").write_text(DATA_GAME, "utf-8")
    (dg / "cards.csv").write_text(DATA_CARDS, "utf-8")
    (dg / "layout.yaml").write_text(DATA_LAYOUT, "utf-8")
    _png(dg / "art" / "one.png")
    _png(dg / "art" / "logo.png", (20, 20), (30, 200, 30))
    return dg


def _back_image(dg: Path, name: str) -> tuple[str, int, str]:
    """Point the back's image at ``name``; the error belongs at that layout.yaml line."""
    layout = dg / "layout.yaml"
    layout.write_text(layout.read_text("utf-8").replace('image: "art/logo.png"', f'image: "{name}"'), "utf-8")
    return "dg/layout.yaml", line_of(layout, f'image: "{name}"')


# --------------------------------------------------------------------------------------------
# The cases


def states_link_out(case):
    me = _mission_emission(case)
    (me / "states.yaml").unlink()
    (me / "states.yaml").symlink_to(Path("..") / "outside" / "secret.yaml")
    return [("me/states.yaml", None, LEAVES)]


def states_dev_zero(case):
    me = _mission_emission(case)
    (me / "states.yaml").unlink()
    (me / "states.yaml").symlink_to("/dev/zero")
    return [("me/states.yaml", None, f"{LEAVES}|{NOT_REGULAR}")]


def states_fifo(case):
    me = _mission_emission(case)
    (me / "states.yaml").unlink()
    os.mkfifo(me / "states.yaml")
    return [("me/states.yaml", None, NOT_REGULAR)]


def names_with_control_characters_yaml(case):
    """Three state names, each holding one refused character as a YAML double-quoted escape."""
    me = _mission_emission(case)
    states = me / "states.yaml"
    lines = states.read_text("utf-8").split("\n")
    escapes = iter(["\\0", "\\e", "\\u202E"])
    at = []
    for i, line in enumerate(lines):
        m = re.fullmatch(r"(    name: )(\S+) (.+)", line)
        if m and len(at) < 3:
            lines[i] = f'{m[1]}"{m[2]}{next(escapes)}{m[3]}"'
            at.append(i + 1)
    states.write_text("\n".join(lines), "utf-8")
    assert len(at) == 3
    return [("me/states.yaml", n, REFUSED_TEXT) for n in at]


def names_with_control_characters_csv(case):
    """Three card titles, each holding one refused character, raw in the CSV file."""
    dg = _data_game(case)
    (dg / "cards.csv").write_bytes("id,title,art\none,Fi\x00rst,\ntwo,Sec\x1bond,\nthree,Th\u202eird,\n".encode("utf-8"))
    return [("dg/cards.csv", n, REFUSED_TEXT) for n in (2, 3, 4)]


def image_absolute(case):
    _png(case / "outside" / "abs.png", OUTSIDE_IMAGE_SIZE, text=SECRET)
    return [(*_back_image(_data_game(case), str((case / "outside" / "abs.png").resolve())), "is an absolute path")]


def image_climbing(case):
    return [(*_back_image(_data_game(case), "../../../../../../../../../../etc/passwd"), LEAVES)]


def image_climbing_to_the_marker(case):
    return [(*_back_image(_data_game(case), "art/../../outside/secret.png"), LEAVES)]


def image_https_url(case):
    return [(*_back_image(_data_game(case), "https://example.com/art.png"), "is a URL")]


def image_file_url(case):
    return [(*_back_image(_data_game(case), "file:///etc/passwd"), "is a URL")]


def image_link_out(case):
    dg = _data_game(case)
    (dg / "art" / "link.png").symlink_to(Path("..") / ".." / "outside" / "secret.png")
    return [(*_back_image(dg, "art/link.png"), LEAVES)]


def image_link_to_dev_zero(case):
    dg = _data_game(case)
    (dg / "art" / "zero.png").symlink_to("/dev/zero")
    return [(*_back_image(dg, "art/zero.png"), f"{LEAVES}|{NOT_REGULAR}")]


def image_fifo(case):
    dg = _data_game(case)
    os.mkfifo(dg / "art" / "pipe.png")
    return [(*_back_image(dg, "art/pipe.png"), NOT_REGULAR)]


def image_decompression_bomb(case):
    """20,000 x 20,000 pixels (400 Mpx) of 1-bit black: a few tens of KB on disk."""
    dg = _data_game(case)
    Image.new("1", (20_000, 20_000)).save(dg / "art" / "logo.png")
    assert (dg / "art" / "logo.png").stat().st_size < 200_000
    return [("dg/layout.yaml", line_of(dg / "layout.yaml", 'image: "art/logo.png"'), "pixels")]


def image_over_the_limit_below_pillows_warning(case):
    """6,000 x 6,000 pixels (36 Mpx): over deckpress's limit, under Pillow's own warning."""
    dg = _data_game(case)
    Image.new("1", (6_000, 6_000)).save(dg / "art" / "logo.png")
    return [("dg/layout.yaml", line_of(dg / "layout.yaml", 'image: "art/logo.png"'), "pixels")]


def image_truncated(case):
    dg = _data_game(case)
    buf = io.BytesIO()
    Image.frombytes("RGB", (64, 64), os.urandom(64 * 64 * 3)).save(buf, "PNG")
    (dg / "art" / "logo.png").write_bytes(buf.getvalue()[: len(buf.getvalue()) // 2])
    return [("dg/layout.yaml", line_of(dg / "layout.yaml", 'image: "art/logo.png"'), "not a readable PNG or JPEG")]


def image_not_an_image(case):
    dg = _data_game(case)
    (dg / "art" / "logo.png").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>\n", "utf-8")
    return [("dg/layout.yaml", line_of(dg / "layout.yaml", 'image: "art/logo.png"'), "not a readable PNG or JPEG|only PNG and JPEG")]


def image_path_with_control_characters(case):
    """A layout image path holding ESC (a terminal colour sequence), U+001D and U+202E, as YAML
    escapes: refused at its line, or shown escaped, never raw."""
    return [(*_back_image(_data_game(case), "art/\\e[31mred\\x1d\\u202Egnp.png"), f"{REFUSED_TEXT}|does not exist")]


def key_with_control_characters(case):
    """An unknown key in game.yaml holding an OSC sequence that retitles a terminal window."""
    me = _mission_emission(case)
    game = me / "game.yaml"
    game.write_text(game.read_text("utf-8") + '"\\e]0;pwned\\a": 1\n', "utf-8")
    return [("me/game.yaml", line_of(game, "pwned"), f"{REFUSED_TEXT}|unknown key")]


def card_field_image_out(case):
    """The CSV's ``art`` cell (row 2) names a file outside: the path is written in cards.csv."""
    dg = _data_game(case)
    (dg / "cards.csv").write_text("id,title,art\none,First card,../outside/secret.png\ntwo,Second card,\n", "utf-8")
    return [("dg/cards.csv", 2, LEAVES)]


def deck_file_out(case):
    dg = _data_game(case)
    game = dg / "game.yaml"
    game.write_text(game.read_text("utf-8").replace("file: cards.csv", "file: ../outside/secret.csv"), "utf-8")
    return [("dg/game.yaml", line_of(game, "file: ../outside/secret.csv"), LEAVES)]


def deck_file_link_out(case):
    dg = _data_game(case)
    (dg / "cards.csv").unlink()
    (dg / "cards.csv").symlink_to(Path("..") / "outside" / "secret.csv")
    return [("dg/game.yaml", line_of(dg / "game.yaml", "file: cards.csv"), LEAVES)]


def sparse_variant(case):
    """A 3 GiB variant: a valid header, then a sparse hole (no disk used)."""
    variant = case / "big.yaml"
    variant.write_bytes((CONTENT_DIR / "variants" / "mission-emission-set-collection.yaml").read_bytes())
    with variant.open("r+b") as f:
        f.truncate(3 * 2**30)
    assert variant.stat().st_blocks * 512 < 10 * 2**20
    return [("big.yaml", None, "is larger than")]


def log_dev_zero(case):
    (case / "log.yaml").symlink_to("/dev/zero")
    return [("log.yaml", None, f"{NOT_REGULAR}|{LEAVES}")]


def log_fifo(case):
    os.mkfifo(case / "log.yaml")
    return [("log.yaml", None, NOT_REGULAR)]


CASES = [
    Case("states-link-out", ME_COMMANDS, states_link_out),
    Case("states-dev-zero", ME_COMMANDS, states_dev_zero),
    Case("states-fifo", ME_COMMANDS, states_fifo),
    Case("names-control-yaml", {k: ME_COMMANDS[k] for k in ("validate", "build")}, names_with_control_characters_yaml),
    Case("names-control-csv", DATA_COMMANDS, names_with_control_characters_csv),
    Case("image-absolute", DATA_COMMANDS, image_absolute),
    Case("image-climbing", DATA_COMMANDS, image_climbing),
    Case("image-climbing-to-marker", DATA_COMMANDS, image_climbing_to_the_marker),
    Case("image-https-url", DATA_COMMANDS, image_https_url),
    Case("image-file-url", DATA_COMMANDS, image_file_url),
    Case("image-link-out", DATA_COMMANDS, image_link_out),
    Case("image-link-dev-zero", DATA_COMMANDS, image_link_to_dev_zero),
    Case("image-fifo", DATA_COMMANDS, image_fifo),
    Case("image-bomb", DATA_COMMANDS, image_decompression_bomb),
    Case("image-36mpx", DATA_COMMANDS, image_over_the_limit_below_pillows_warning),
    Case("image-truncated", DATA_COMMANDS, image_truncated),
    Case("image-not-png", DATA_COMMANDS, image_not_an_image),
    Case("image-path-control", DATA_COMMANDS, image_path_with_control_characters),
    Case("key-control", {k: ME_COMMANDS[k] for k in ("validate", "build")}, key_with_control_characters),
    Case("card-field-image-out", DATA_COMMANDS, card_field_image_out),
    Case("deck-file-out", DATA_COMMANDS, deck_file_out),
    Case("deck-file-link-out", DATA_COMMANDS, deck_file_link_out),
    Case("sparse-variant", {"check": ["check", "big.yaml", "--games", "20", "--report", "rep-check"], "validate": ["validate", "big.yaml"]}, sparse_variant),
    Case("log-dev-zero", {"replay": ["replay", "log.yaml"]}, log_dev_zero),
    Case("log-fifo", {"replay": ["replay", "log.yaml"]}, log_fifo),
]
BY_NAME = {c.name: c for c in CASES}

#: Known failures, each (aspect, case, command) -> what is wrong; strict, so a fix shows up.
KNOWN: dict[tuple[str, str, str], str] = {}


def _known(aspect: str, case: str, commands, reason: str) -> None:
    for command in commands:
        KNOWN[(aspect, case, command)] = reason



def params(aspect: str, only: str | None = None):
    out = []
    for case in CASES:
        for command in case.commands:
            if only and command != only:
                continue
            reason = KNOWN.get((aspect, case.name, command))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            if command == "build" and case.commands is DATA_COMMANDS:
                # validate reads every image and lays out every card as build does: the build of
                # each image case runs in the full suite, left out of the edit-test loop
                marks.append(pytest.mark.slow)
            out.append(pytest.param(case.name, command, marks=marks, id=f"{case.name}-{command}"))
    return out


# --------------------------------------------------------------------------------------------
# Building the corpus once, running each command once per case


@dataclass
class Run:
    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    new_peak_rss_kb: int | None
    #: Every file the command wrote or changed (outside/ left out), with its bytes then.
    written: dict[Path, bytes]
    #: output/ right after the command: file name -> bytes.
    output: dict[str, bytes]


def _earlier_pdf(game_id: str, case: str) -> bytes:
    return f"%PDF-1.4\n% an earlier build of {game_id} in case {case}: keep me\n%%EOF\n".encode()


def _reset_output(output: Path, case: str) -> None:
    """output/ as it was before any command: the earlier PDF of every game, nothing else."""
    shutil.rmtree(output, ignore_errors=True)
    output.mkdir()
    for game_id in GAME_IDS:
        (output / f"{game_id}.pdf").write_bytes(_earlier_pdf(game_id, case))


def _snapshot(folder: Path) -> dict[Path, tuple[int, int]]:
    """Every regular file under ``folder`` (links not followed), outside/ left out: (size, mtime)."""
    seen = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        if Path(dirpath) == folder and "outside" in dirnames:
            dirnames.remove("outside")
        for name in filenames:
            p = Path(dirpath) / name
            st = p.lstat()
            if p.is_file() and not p.is_symlink():
                seen[p] = (st.st_size, st.st_mtime_ns)
    return seen


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Each case's folder, written once: the attack, the marker outside, the earlier PDFs."""
    root = tmp_path_factory.mktemp("hostile")
    for case in CASES:
        folder = root / case.name
        (folder / "outside").mkdir(parents=True)
        (folder / "outside" / "secret.yaml").write_text(f"states:\n  - {SECRET}\n", "utf-8")
        (folder / "outside" / "secret.csv").write_text(f"id,title,art\n{SECRET.lower()},{SECRET},\n", "utf-8")
        _png(folder / "outside" / "secret.png", OUTSIDE_IMAGE_SIZE, text=SECRET)
        _reset_output(folder / "output", case.name)
        case.expected = case.make(folder)
    return root


_RUNS: dict[tuple[str, str], Run] = {}


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run_case(corpus: Path, case_name: str, command: str) -> Run:
    """Run ``command`` of case ``case_name`` (once; later calls get the same result)."""
    key = (case_name, command)
    if key not in _RUNS:
        case = BY_NAME[case_name]
        folder = corpus / case_name
        args = case.commands[command]
        _reset_output(folder / "output", case_name)
        before = _snapshot(folder)
        peak_before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        start = time.monotonic()
        try:
            proc = subprocess.run([str(DECKPRESS), *args], cwd=folder, capture_output=True, timeout=TIMEOUT, check=False,
                                  preexec_fn=_limits, env={**os.environ, "COLUMNS": "100", "NO_COLOR": "1"})
        except subprocess.TimeoutExpired as exc:
            pytest.fail(f"deckpress {' '.join(args)} ran past {TIMEOUT} s (a FIFO or a device read?)\n"
                        f"stdout: {(exc.stdout or b'')[-2000:]!r}\nstderr: {(exc.stderr or b'')[-2000:]!r}")
        seconds = time.monotonic() - start
        peak_after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        after = _snapshot(folder)
        written = {p: p.read_bytes() for p, sig in sorted(after.items()) if before.get(p) != sig}
        output = {p.name: p.read_bytes() if p.is_file() else b"(not a file)" for p in (folder / "output").iterdir()}
        _RUNS[key] = Run(args, proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"),
                         seconds, peak_after if peak_after > peak_before else None, written, output)
    return _RUNS[key]


def _shown(run: Run) -> str:
    return f"$ deckpress {' '.join(run.args)}  (exit {run.returncode}, {run.seconds:.1f} s)\n--- stdout\n{run.stdout[-3000:]}\n--- stderr\n{run.stderr[-3000:]}"


# --------------------------------------------------------------------------------------------
# The aspects


@pytest.mark.slow
@pytest.mark.parametrize("case_name, command", params("clean"))
def test_refused_cleanly(corpus, case_name, command):
    """A non-zero exit (not a signal), no traceback, every line short, within seconds and a
    few hundred MB."""
    run = run_case(corpus, case_name, command)
    assert run.returncode > 0, _shown(run)
    for stream in (run.stdout, run.stderr):
        raw = sorted({f"U+{ord(c):04X}" for c in stream if refused(c)})
        assert not raw, f"raw {', '.join(raw)} in the output: escape what is shown\n{_shown(run)!r}"
        assert "Traceback" not in stream, _shown(run)
        assert "MemoryError" not in stream and "RecursionError" not in stream, _shown(run)
        long = [line for line in stream.split("\n") if len(line) >= MAX_LINE]
        assert not long, f"{len(long)} line(s) of {MAX_LINE}+ characters, the first {len(long[0])} long\n{_shown(run)}"
    assert run.seconds < MAX_SECONDS, _shown(run)
    assert run.new_peak_rss_kb is None or run.new_peak_rss_kb < MAX_RSS_KB, f"peak {run.new_peak_rss_kb} KiB\n{_shown(run)}"


@pytest.mark.parametrize("case_name, command", params("names"))
def test_error_names_the_file_the_line_and_the_rule(corpus, case_name, command):
    """Each expected error is one line: ``file:line:col: ... rule`` where the path is written, or
    ``file: ... rule`` for a file refused as a whole."""
    run = run_case(corpus, case_name, command)
    lines = (run.stdout + "\n" + run.stderr).split("\n")  # lines as a terminal shows them
    for shown, line, rule in BY_NAME[case_name].expected:
        where = re.escape(shown) + (f":{line}:\\d+: " if line else ": ")
        pattern = re.compile(f"^{where}.*({rule})")
        assert any(pattern.search(text) for text in lines), f"no line matching {pattern.pattern!r}\n{_shown(run)}"


@pytest.mark.parametrize("case_name, command", params("secret"))
def test_the_marker_outside_is_never_shown(corpus, case_name, command):
    """The secret string is in no message and no file written (PDF text included), and no image
    read from outside is in a PDF."""
    from pypdf import PdfReader

    run = run_case(corpus, case_name, command)
    assert SECRET not in run.stdout and SECRET not in run.stderr, _shown(run)
    assert SECRET.lower() not in (run.stdout + run.stderr).lower(), _shown(run)
    for path, data in run.written.items():
        assert SECRET.encode() not in data and SECRET.lower().encode() not in data, f"{path} holds the secret\n{_shown(run)}"
        if data.startswith(b"%PDF-") and b"keep me" not in data:
            reader = PdfReader(io.BytesIO(data))
            for number, page in enumerate(reader.pages, 1):
                assert SECRET.lower() not in (page.extract_text() or "").lower(), f"{path} page {number} shows the secret"
                for image in page.images:
                    assert image.image.size != OUTSIDE_IMAGE_SIZE, f"{path} page {number} holds the image from outside the folder"


@pytest.mark.parametrize("case_name, command", params("kept"))
def test_earlier_output_is_kept(corpus, case_name, command):
    """The earlier PDFs are byte-identical, and nothing else (no partial file) is in output/."""
    run = run_case(corpus, case_name, command)
    assert sorted(run.output) == sorted(f"{g}.pdf" for g in GAME_IDS), _shown(run)
    for game_id in GAME_IDS:
        assert run.output[f"{game_id}.pdf"] == _earlier_pdf(game_id, case_name), f"{game_id}.pdf changed\n{_shown(run)}"


@pytest.mark.parametrize("case_name, command", params("pdf-named", only="build"))
def test_a_refused_build_names_the_pdf_it_kept(corpus, case_name, command):
    """``not built ...; output/<game id>.pdf left as it was``: the PDF that build would have
    written, named by the game's id, the one kept (or "nothing was written" when game.yaml itself
    cannot be read, so the id is unknown); never a PDF named after the folder."""
    run = run_case(corpus, case_name, command)
    game_id = "mission-emission" if ME_COMMANDS["build"] == BY_NAME[case_name].commands["build"] else "hostile-deck"
    refused = [line for line in run.stderr.split("\n") if "not built" in line]
    assert refused, _shown(run)
    assert all(f"output/{game_id}.pdf left as it was" in line or line.endswith("nothing was written") for line in refused), _shown(run)


def test_an_image_path_is_quoted_once(corpus):
    """An image refused by the gate is named once in its message, not twice."""
    run = run_case(corpus, "image-absolute", "validate")
    line = next(line for line in run.stdout.splitlines() if "is an absolute path" in line)
    name = str((corpus / "image-absolute" / "outside" / "abs.png").resolve())
    assert line.count(name[:40]) == 1, _shown(run)

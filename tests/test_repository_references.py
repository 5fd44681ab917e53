"""The repository stands on its own: no tracked file cites a path outside it or an issue number.

Neither the folder of notes and rulebooks kept beside the project nor its issue tracker ships with
a clone or the wheel, so a reason given as a pointer to them is lost to whoever reads the code
later.  Facts and conventions live in ``docs/`` (``docs/card-facts.md``,
``docs/print-conventions.md``, ``docs/engine-conventions.md``, ``docs/untrusted-input.md``,
``docs/fonts-and-scripts.md``, ``docs/rules-audit.md``, ...); a rule is cited by its rulebook's
title and section (e.g. "50 Missions rulebook (French original), « Fin de partie »"); a reason once
given as an issue number is said in words.

Every text file ``git ls-files`` lists is read, and one failure names every offending
``file:line`` with the text found.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The patterns are written so that this file does not match them itself.
OUTSIDE = re.compile(
    r"\.\./+shared\b"                              # a path up and out of the checkout
    r"|(?<![\w-])shared/+(?:notes|rulebooks)\b"    # the notes and rulebooks folders
    r"|(?<![\w-])shared/+[\w.-]+\.md\b",           # any note in that folder by file name
    re.IGNORECASE)
ISSUE = re.compile(
    r"\bissues?\s*#\s*\d+"                          # the word, a hash sign and a number
    r"|\bissues?\s+\d+"                            # the word and a number
    r"|\(issue:\s",                                # an issue named by its title in brackets
    re.IGNORECASE)


def references(text: str) -> list[tuple[int, str, str]]:
    """Every reference outside the repository in ``text``: ``(line number from 1, kind, the
    text matched)``, kind ``"path outside the repository"`` or ``"issue reference"``."""
    found: list[tuple[int, str, str]] = []
    for number, line in enumerate(text.splitlines(), 1):
        for pattern, kind in ((OUTSIDE, "path outside the repository"), (ISSUE, "issue reference")):
            found.extend((number, kind, m.group(0)) for m in pattern.finditer(line))
    return found


def tracked_text_files() -> list[Path]:
    """The files git tracks in this checkout that read as UTF-8 text (fonts and images are left
    out).  Skips the test where there is no git checkout (an installed wheel, an sdist)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files are unknown")
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    files = []
    for name in filter(None, names.decode("utf-8").split("\0")):
        path = ROOT / name
        if not path.is_file():  # deleted in the working tree, not yet committed
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        files.append(path)
    return files


@pytest.mark.slow
def test_no_tracked_file_cites_a_path_outside_the_repository_or_an_issue_number():
    files = tracked_text_files()
    assert any(p.name == "README.md" for p in files) and any(p.suffix == ".py" for p in files)
    offences = [f"{path.relative_to(ROOT)}:{number}: {kind}: {found!r}"
                for path in files for number, kind, found in references(path.read_text("utf-8"))]
    assert not offences, ("cite docs/ or a rulebook by title and section, and say the reason in words:\n"
                          + "\n".join(offences))


# Examples are assembled from pieces so that this file holds no reference itself.
UP, NOTES, BOOKS, ISS = "../", "shared/" + "notes", "shared/" + "rulebooks", "issue"


@pytest.mark.parametrize("text, kind", [
    (f"Rules: ``{UP}{BOOKS}/fifty-missions.fr.md``", "path outside the repository"),
    (f"hazards in ``{NOTES}/untrusted-input.md``", "path outside the repository"),
    (f"see {UP}shared for the notes", "path outside the repository"),
    ("the note shared/" + "style.md says", "path outside the repository"),
    (f"the studio ({ISS} 18, section 2)", "issue reference"),
    (f"{ISS.capitalize()} 14's fast path", "issue reference"),
    (f"fixed in {ISS} #7", "issue reference"),
    (f"{ISS}s 13 and 14", "issue reference"),
    (f"safely ({ISS}: fan variants)", "issue reference"),
])
def test_a_reference_outside_the_repository_is_found_at_its_line(text, kind):
    assert [(number, found_kind) for number, found_kind, _ in references(f"first line\n{text}\n")] == [(2, kind)]


@pytest.mark.parametrize("text", [
    "a shared best result counts as a part of a win",
    "tally.shared = at_best[~alone].sum(axis=0).tolist()",
    'for name in ("wins", "shared", "score_sums"):',
    "shared_best = winners  # shared/best is not a path we keep",
    "cards abut in a centred grid (shared cut lines)",
    "rules engines on a shared core (rules/README.md)",
    'hex: "#d1362f"',
    "Prep Issues & Solutions, article 227867607",
    "a tissue 3 mm thick",
    "docs/card-facts.md, \"Mission Emission\"; 50 Missions rulebook (French original), « Fin de partie »",
])
def test_ordinary_words_and_code_are_not_references(text):
    assert references(text) == []

"""docs/rules-audit.md: every test it names as pinning a rule exists, and every game
with a rules engine has its table."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AUDIT = ROOT / "docs" / "rules-audit.md"


def test_every_test_the_audit_names_exists():
    text = AUDIT.read_text("utf-8")
    named = 0
    for line in text.splitlines():
        path = None
        for m in re.finditer(r"`(tests/[\w/]+\.py)?::(\w+)(?:\[[^\]]*\])?`", line):
            path = m.group(1) or path  # "`file::a`, `::b`": b is in the same file
            assert path, f"no file for {m.group(2)}"
            assert re.search(rf"^def {m.group(2)}\(", (ROOT / path).read_text("utf-8"), re.M), f"{path}::{m.group(2)} is not a test"
            named += 1
    assert named > 200


def test_the_audit_has_a_table_per_game_with_a_verdict_on_every_row():
    text = AUDIT.read_text("utf-8")
    for game in ("Mission Emission", "50 Missions", "Maybe Missions", "Geheime Mission"):
        assert f"\n## {game}\n" in text
    rows = [line for line in text.splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(rows) > 120
    for row in rows:
        verdict = row.split("|")[-3].strip().strip("*")
        assert verdict.split()[0].strip("*") in ("rule", "reading", "parameter"), row[:80]

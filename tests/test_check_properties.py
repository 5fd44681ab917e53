"""Property: mutating a valid variant never crashes the checker; it is either accepted or every
error names a line."""
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckpress.generator.check import CheckOptions, run_check

VALID = """\
extends: mission-emission
name: Greener Karnataka
author: A Fan
version: "1.0"
description: Karnataka's forest value raised.
parameters: {players: 3, hand_size: 3}
changes:
  - replace: {file: states, id: karnataka, fields: {values.forest.value: 40, name: Karunadu}}
  - remove: {file: point-cards, id: smoke-bottom}
"""
SIGNIFICANT = [":", "-", " ", "\n", "{", "}", "[", "]", ",", "&", "*", "!", "#", "'", '"', "|", ">", "%", "@", "`", "\t", "x", "9", "NO", "~"]


@st.composite
def mutations(draw):
    text = VALID
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["insert", "delete", "duplicate-line", "swap-lines"]))
        if how == "insert":
            text = text[:at] + draw(st.sampled_from(SIGNIFICANT)) + text[at:]
        elif how == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 5)):]
        else:
            lines = text.split("\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            if how == "duplicate-line":
                lines.insert(i, lines[j])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture], derandomize=True)
@given(text=mutations())
def test_mutated_variants_are_accepted_or_located(tmp_path, text):
    path = Path(tmp_path) / "variant.yaml"
    path.write_text(text, "utf-8")
    report = run_check(path, CheckOptions(simulate=False))
    if report.verdict in ("unreadable", "reject"):
        assert report.errors, report.reasons
        for error in report.errors:
            assert error.line >= 1 and error.column >= 1, str(error)
    else:
        assert report.errors == []

"""deckpress check's HTML report shows every measure its report.json has: a variant's own
measures (the set-collection variant's sets completed and cards kept in set piles) are how a
designer sees whether the bots used the new rule."""
from __future__ import annotations

import html
import json

import pytest

from deckpress.generator.paths import CONTENT_DIR


@pytest.mark.slow
def test_the_html_report_shows_every_measure_of_report_json(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    variant = CONTENT_DIR / "variants" / "mission-emission-set-collection.yaml"
    result = cli("check", str(variant), "--games", "60", "--report", "r")
    assert result.exit_code in (0, 1), result.output
    data = json.loads((tmp_path / "r" / "report.json").read_text())
    page = (tmp_path / "r" / "report.html").read_text()
    measures = data["simulation"]["base"]["measures"] + data["simulation"]["variant"]["measures"]
    assert {"sets completed", "cards kept in set piles"} <= {m["name"] for m in data["simulation"]["variant"]["measures"]}
    for m in measures:
        assert f"<td>{html.escape(m['group'])}</td><td>{html.escape(m['name'])}</td>" in page, m["name"]
    kept = next(m for m in data["simulation"]["variant"]["measures"] if m["name"] == "cards kept in set piles")
    assert (f"<td>cards kept in set piles</td><td class=\"num\">–</td><td class=\"num\">{kept['value']:.2f} per game</td>"
            "<td>variant only</td>") in page

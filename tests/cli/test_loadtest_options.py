"""``baohuang loadtest``'s options for many nodes: ``--url`` repeated, ``--reconnect-for``, and
the report rows that list the servers and count reconnects. The tools are replaced by fakes
(no server): tests/e2e/test_loadtest.py runs them for real."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from baohuang.cli import app
from baohuang.cli.loadtest import DEFAULT_URL, report_rows
from baohuang.client import chaos, loadtest
from baohuang.client.chaos import ChaosReport, ChaosSettings
from baohuang.client.loadtest import LoadReport

A, B = "http://127.0.0.1:8001", "http://127.0.0.1:8002"


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What the command passed to the load test and the chaos soak (each answers at once)."""
    seen: list[dict[str, Any]] = []

    async def fake_load(url: Any, tables: int, games: int, *args: Any, **kw: Any) -> LoadReport:
        seen.append({"tool": "load", "url": url, "tables": tables} | kw)
        urls = list(url)
        report = LoadReport(urls[0], tables, games, "classic", "auto", urls=urls)
        report.games_completed, report.reconnects, report.duplicates = tables * games, 3, 1
        return report

    async def fake_chaos(url: Any, settings: ChaosSettings, *args: Any) -> ChaosReport:
        seen.append({"tool": "chaos", "url": url})
        return ChaosReport.of(url, settings)

    monkeypatch.setattr(loadtest, "load_test", fake_load)
    monkeypatch.setattr(chaos, "chaos_soak", fake_chaos)
    return seen


def test_url_repeats_and_reconnect_for(calls: list[dict[str, Any]], tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    args = ["loadtest", "--url", A, "--url", B, "--tables", "2", "--reconnect-for", "5"]
    result = CliRunner().invoke(app, [*args, "--lang", "en", "--json", str(out)])
    assert result.exit_code == 0, result.output
    (call,) = calls
    assert call["url"] == [A, B] and call["tables"] == 2 and call["reconnect_for"] == 5
    assert A in result.output and B in result.output
    assert "reconnects · duplicate events" in result.output and "3 · 1" in result.output
    data = json.loads(out.read_text())
    assert data["urls"] == [A, B] and data["url"] == A
    assert (data["reconnects"], data["duplicates"]) == (3, 1)


def test_one_url_by_default_and_for_the_chaos_soak(calls: list[dict[str, Any]]) -> None:
    result = CliRunner().invoke(app, ["loadtest", "--tables", "1"])
    assert result.exit_code == 0, result.output
    assert calls[-1]["url"] == [DEFAULT_URL] and calls[-1]["reconnect_for"] == 60
    assert "断线重连 · 重复事件" in result.output
    args = ["loadtest", "--chaos", "--url", A, "--url", B, "--minutes", "0.01"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert calls[-1] == {"tool": "chaos", "url": [A, B]}
    rejected = CliRunner().invoke(app, ["loadtest", "--reconnect-for", "-1"])
    assert rejected.exit_code == 2


def test_report_rows_name_every_server() -> None:
    report = LoadReport(A, 1, 1, "classic", "auto", urls=[A, B])
    rows = dict(report_rows(report, "en"))
    assert rows["servers"] == f"{A}\n{B}"
    assert rows["reconnects · duplicate events"] == "0 · 0"
    assert ChaosReport.of([A, B], ChaosSettings()).to_dict()["urls"] == [A, B]


def test_help_shows_the_options() -> None:
    result = CliRunner().invoke(app, ["loadtest", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "--url" in result.output and "repeatable" in result.output
    assert "--reconnect-for" in result.output

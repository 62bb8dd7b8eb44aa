"""Every result file says where it comes from (:mod:`baohuang.provenance`): the commit, the
date, the machine, the command line and the settings. The benchmark scripts write theirs
through ``benchkit.save``; ``baohuang arena --json`` and ``baohuang loadtest --json`` are
checked in tests/bots/test_arena.py and tests/e2e/test_loadtest.py."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from baohuang import provenance
from baohuang.cli.options import Lang
from helpers.stamps import check_stamp

ROOT = Path(__file__).parents[2]
BENCH = ROOT / "bench"


def git(folder: Path, *args: str) -> str:
    command = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, check=True).stdout


def test_the_commit_is_the_checkouts_and_dirty_when_tracked_files_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside, repo = tmp_path / "outside", tmp_path / "repo"
    outside.mkdir()
    repo.mkdir()
    monkeypatch.setattr(provenance, "PACKAGE", outside)
    assert provenance.commit() == "unknown"
    monkeypatch.setattr(provenance, "PACKAGE", repo)
    git(repo, "init", "-q")
    assert provenance.commit() == "unknown"  # no commit yet
    (repo / "a.py").write_text("a = 1\n")
    git(repo, "add", "a.py")
    git(repo, "commit", "-q", "-m", "a")
    head = git(repo, "rev-parse", "--short", "HEAD").strip()
    assert provenance.commit() == head
    (repo / "result.json").write_text("{}\n")  # untracked: the code is still the commit's
    assert provenance.commit() == head
    (repo / "a.py").write_text("a = 2\n")
    assert provenance.commit() == f"{head}-dirty"


def test_a_stamp_keeps_the_command_line_and_the_settings_as_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "argv", ["/x/.venv/bin/baohuang", "arena", "--bots", "a b"])
    settings = {
        "games": 2,
        "json": Path("out.json"),
        "lang": Lang.en,
        "hidden": (64,),
        "ray": None,
        "on": True,
        "options": {"roast": True},
    }
    stamp = check_stamp({"stamp": provenance.stamp(settings)})
    assert stamp["command"] == "baohuang arena --bots 'a b'"
    assert stamp["settings"] == {
        "games": 2,
        "json": "out.json",
        "lang": "en",
        "hidden": [64],
        "ray": None,
        "on": True,
        "options": {"roast": True},
    }
    json.dumps(stamp)


#: The cheap benchmark runs: (script, arguments, the fields the result had before its stamp).
RUNS = [
    (
        "engine_bench.py",
        ["--seconds", "0.02", "--presets", "classic"],
        {"machine", "seconds", "seed", "positions", "rows", "rlcard", "ratios", "target_ratio"},
    ),
    (
        "env_bench.py",
        ["--seconds", "0.02", "--presets", "classic"],
        {"machine", "seconds", "seed", "rows", "rlcard", "ratios", "lowest_raw_ratio"}
        | {"target_ratio"},
    ),
    (
        "command_cost.py",
        ["--commands", "20", "--tables", "2"],
        {"commands", "cpu_us", "wall_us", "frames_per_command", "writes_per_command"}
        | {"commits_per_command", "database"},
    ),
    (
        "solo_decisions.py",
        ["--preset", "kk_classic", "--bots", "random", "--deals", "1"],
        {"seconds", "summary", "decisions"},
    ),
    (
        "search_variants.py",
        ["--heuristic", "--preset", "classic", "--deals", "2", "--seed", "t3", "accept_at=3.0"],
        {"preset", "seed", "first", "settings", "per_deal"},
    ),
]


@pytest.mark.slow  # about 7 s, the five together
@pytest.mark.parametrize(("script", "args", "fields"), RUNS, ids=[run[0] for run in RUNS])
def test_a_benchmarks_json_is_stamped(
    script: str, args: list[str], fields: set[str], tmp_path: Path
) -> None:
    """Run for real on tiny settings: the figures as before, under a stamp whose settings are
    the script's arguments."""
    out = tmp_path / "result.json"
    command = [sys.executable, str(BENCH / script), *args, "--json", str(out)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    assert set(data) == {"stamp", *fields}
    stamp = check_stamp(data, json=str(out))
    assert stamp["command"].endswith(f"{script} {' '.join(args)} --json {out}")


def writes_json(tree: ast.Module) -> list[str]:
    """The calls in ``tree`` that write files or JSON text: ``json.dump(s)``, ``write_text``."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr in {"dump", "dumps", "write_text"}:
            found.append(ast.unparse(node.func))
    return found


@pytest.mark.parametrize("script", sorted(p.name for p in BENCH.glob("*.py")))
def test_every_benchmark_writes_its_json_through_benchkit_save(script: str) -> None:
    """The heavy ones too (cluster_bench.py, bot_load.py, …): a script with ``--json`` imports
    ``save`` from benchkit, calls it with its arguments, and writes no JSON of its own."""
    if script == "benchkit.py":
        return
    source = (BENCH / script).read_text()
    tree = ast.parse(source)
    assert writes_json(tree) == []
    if '"--json"' not in source:
        return
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "benchkit"
        for alias in node.names
    }
    assert "save" in imported
    calls = [
        ast.unparse(node)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "save"
    ]
    assert calls and all("vars(args)" in call for call in calls), calls

"""Duplicate tournaments (arena): the seat rotation, the deal-clustered statistics, the same
results for any number of processes, and the ``baohuang arena`` command."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from baohuang import GameResult, Rules
from baohuang.bots.arena import (
    DealRecord,
    assignments,
    mean_ci,
    percentile,
    play_deals,
    summarize,
)
from baohuang.cli import app
from helpers.stamps import check_stamp

CLASSIC = Rules.preset("classic")
runner = CliRunner()


@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_every_bot_sits_in_every_seat_equally_often(count: int) -> None:
    seatings = assignments(count)
    assert len(set(seatings)) == len(seatings)
    per_seat = Counter((seat, bot) for seating in seatings for seat, bot in enumerate(seating))
    assert set(per_seat.values()) == {len(seatings) // count}
    assert len(per_seat) == 5 * count


def test_two_bots_play_the_rotations_of_ababb_and_its_complement() -> None:
    seatings = set(assignments(2))
    ababb = (0, 1, 0, 1, 1)
    rotations = {ababb[r:] + ababb[:r] for r in range(5)}
    complements = {tuple(1 - b for b in s) for s in rotations}
    assert seatings == rotations | complements and len(seatings) == 10


@pytest.mark.parametrize("count", [1, 6])
def test_an_arena_takes_two_to_five_bots(count: int) -> None:
    with pytest.raises(ValueError, match="2 to 5 bots"):
        assignments(count)


def test_mean_ci_on_known_numbers() -> None:
    mean, low, high = mean_ci([1, 2, 3, 4, 5])
    half = 1.959963984540054 * math.sqrt(2.5) / math.sqrt(5)
    assert mean == 3 and low == pytest.approx(3 - half) and high == pytest.approx(3 + half)
    assert mean_ci([2, 2]) == (2, 2, 2)
    with pytest.raises(ValueError):
        mean_ci([1])


def test_percentile_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.95) == 95 and percentile(values, 0.5) == 50
    assert percentile([7.0], 0.95) == 7


def test_statistics_cluster_by_deal() -> None:
    """Each deal's mean first: deal 1 (bot 0: 4, 2 -> 3) and deal 2 (bot 0: -1 -> -1)."""
    records = [
        DealRecord(
            points=[[4, 2], [-8]],
            roles=[[("emperor", True), ("guard", True)], [("rebel", False)]],
            times=[[0.001, 0.003], [0.002]],
        ),
        DealRecord(
            points=[[-1], [1, 1]],
            roles=[[("solo", False)], [("rebel", True), ("rebel", False)]],
            times=[[0.002], []],
        ),
    ]
    first, second = summarize(["a", "b"], records)
    assert first.mean == 1 and (first.ci_low, first.ci_high) == pytest.approx(mean_ci([3, -1])[1:])
    assert second.mean == pytest.approx((-8 + 1) / 2)
    assert first.seat_games == 3 and second.seat_games == 3
    assert first.wins == {"emperor": (1, 1), "guard": (1, 1), "rebel": (0, 0), "solo": (0, 1)}
    assert second.win_rate("rebel") == pytest.approx(1 / 3) and second.win_rate("solo") is None
    assert first.role_points == {"emperor": 4, "guard": 2, "rebel": None, "solo": -1}
    assert second.role_points["rebel"] == pytest.approx((-8 + 1 + 1) / 3)
    assert first.decisions == 3 and first.time_mean_ms == pytest.approx(2.0)
    assert first.time_p95_ms == pytest.approx(3.0)


def test_roles_and_wins_from_a_result_r10() -> None:
    result = GameResult(0, 2, (0, 1, 2, 3, 4), (8, -4, 4, -4, -4), "emperor")
    assert [result.role(s) for s in range(5)] == ["emperor", "rebel", "guard"] + ["rebel"] * 2
    assert [result.won(s) for s in range(5)] == [True, False, True, False, False]
    solo = GameResult(3, None, (0, 1, 2, 3, 4), (1, 1, 1, -4, 1), "rebels")
    assert solo.role(3) == "solo" and not solo.won(3) and solo.won(0)
    draw = GameResult(0, 4, (0, 1, 2, 3, 4), (0,) * 5, "draw")
    assert not any(draw.won(s) for s in range(5))


def test_a_deal_is_played_once_per_seating_and_is_zero_sum() -> None:
    (record,) = play_deals(CLASSIC, ["auto", "random"], 1, "t")
    assert [len(p) for p in record.points] == [25, 25]  # 10 games × 5 seats, half each
    assert sum(map(sum, record.points)) == 0  # R10.1
    assert len(record.roles[0]) == 25 and all(t >= 0 for t in record.times[1])


def test_jobs_2_gives_the_same_results_as_jobs_1() -> None:
    names = ["heuristic", "random"]
    one = list(play_deals(CLASSIC, names, 3, 11, jobs=1))
    two = list(play_deals(CLASSIC, names, 3, 11, jobs=2))
    assert [(r.points, r.roles) for r in one] == [(r.points, r.roles) for r in two]


def test_play_deals_from_a_first_deal_plays_the_same_deals() -> None:
    names = ["heuristic", "random"]
    whole = list(play_deals(CLASSIC, names, 3, 11))
    rest = list(play_deals(CLASSIC, names, 2, 11, first=1))
    assert [(r.points, r.roles) for r in whole[1:]] == [(r.points, r.roles) for r in rest]


def test_cli_arena_table_and_json(tmp_path: Path) -> None:
    path = tmp_path / "arena.json"
    args = ["arena", "--bots", "heuristic,auto", "--games", "3", "--seed", "4", "--lang", "en"]
    result = runner.invoke(app, [*args, "--json", str(path)])
    assert result.exit_code == 0, result.output
    title = "duplicate arena: heuristic, auto (Classic (classic), 3 deals × 10 seatings, seed 4)"
    assert title in " ".join(result.output.split())  # the title may wrap
    rows = [line for line in result.output.splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| bot | points/game | 95% CI | emperor wins, points")
    assert rows[1].startswith("| :--- | ---: |")
    assert [row.split(" | ")[0] for row in rows[2:]] == ["| heuristic", "| auto"]
    data = json.loads(path.read_text())
    assert data["preset"] == "classic" and data["games"] == 3 and data["games_played"] == 30
    check_stamp(data, bots="heuristic,auto", games=3, seed=4, json_path=str(path), lang="en")
    for name in ("heuristic", "auto"):
        bot = data["bots"][name]
        assert bot["ci_low"] <= bot["mean"] <= bot["ci_high"]
        assert bot["seat_games"] == 75 and set(bot["wins"]) == {"emperor", "guard", "rebel", "solo"}
        assert bot["decision_ms"]["p95"] >= 0
        held = [role for role in bot["wins"].values() if role["games"]]
        games = sum(role["games"] for role in held)
        total = sum(role["points"] * role["games"] for role in held)
        assert total / games == pytest.approx(bot["mean"])  # every deal has 10 seat-games
    assert data["bots"]["heuristic"]["mean"] == pytest.approx(-data["bots"]["auto"]["mean"])


def test_cli_arena_in_chinese_with_a_preset_and_options() -> None:
    result = runner.invoke(
        app, ["arena", "--bots", "random,auto,heuristic", "--games", "2", "--preset", "weihai"]
    )
    assert result.exit_code == 0, result.output
    assert "复式赛：random, auto, heuristic（威海（weihai），2 副牌 × 15 种座位" in result.output
    assert "| 机器人 | 每局得分 | 95% 置信区间 |" in result.output


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        ("heuristic,nosuch", "unknown bot nosuch"),
        ("heuristic", "2 to 5 different bots"),
        ("random,random", "2 to 5 different bots"),
    ],
)
def test_cli_arena_rejects_bad_bot_lists(bots: str, message: str) -> None:
    result = runner.invoke(app, ["arena", "--bots", bots, "--games", "2", "--lang", "en"])
    assert result.exit_code == 2 and message in result.output


def test_search_variants_pairs_a_rerun_deal_by_deal(tmp_path: Path) -> None:
    """bench/search_variants.py: a run of the same seed and settings repeats every deal's
    points, so paired with its own --json its lead is exactly 0; a shorter run, or a piece from
    a later deal, pairs over the deals both played, deal for deal; another seed is refused."""
    script = Path(__file__).parents[2] / "bench" / "search_variants.py"
    first = tmp_path / "first.json"
    command = [sys.executable, str(script), "--heuristic", "--preset", "classic", "--seed", "t1"]
    subprocess.run([*command, "--deals", "4", "--json", str(first)], check=True)

    def paired(*more: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*command, *more], capture_output=True, text=True)

    assert len(json.loads(first.read_text())["per_deal"]) == 4
    zero = f"paired with {first} (): +0.000 [+0.000, +0.000]"
    assert f"{zero} over 3 deals (0..2)" in paired("--deals", "3", "--pair", str(first)).stdout
    later = paired("--deals", "3", "--first", "2", "--pair", str(first)).stdout
    assert f"{zero} over 2 deals (2..3)" in later
    refused = subprocess.run([*command[:-1], "t9", "--pair", str(first)], capture_output=True)
    assert refused.returncode != 0 and b"not the same deals" in refused.stderr
    apart = paired("--first", "4", "--pair", str(first))
    assert apart.returncode != 0 and "no deal in common" in apart.stderr


def test_search_variants_merges_pieces_into_the_whole_run(tmp_path: Path) -> None:
    """bench/search_variants.py: deals 0-1 and 2-3 played as pieces (--first) and merged read
    as the 4-deal run (and draw its running mean); pieces that overlap are refused by name."""
    script = Path(__file__).parents[2] / "bench" / "search_variants.py"
    command = [sys.executable, str(script), "--heuristic", "--preset", "classic", "--seed", "t2"]
    command.append("accept_at=3.0")  # it never takes the emperor card: it scores apart
    whole = subprocess.run(
        [*command, "--deals", "4"], check=True, capture_output=True, text=True
    ).stdout
    pieces = [tmp_path / "a.json", tmp_path / "b.json"]
    for first, path in zip((0, 2), pieces, strict=True):
        piece = ["--deals", "2", "--first", str(first), "--json", str(path)]
        subprocess.run([*command, *piece], check=True, capture_output=True)
    merge = [sys.executable, str(script), "--merge"]
    plot = tmp_path / "running.png"
    merged = subprocess.run(
        [*merge, *map(str, reversed(pieces)), "--plot", str(plot)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert plot.read_bytes().startswith(b"\x89PNG")
    result = re.search(r"(\S+ \[.*\]) over 4 deals", whole)
    assert result is not None and result[1] != "+0.000 [+0.000, +0.000]"
    assert f"{result[1]} over 4 deals (0..3), seed t2" in merged
    overlap = subprocess.run(
        [*merge, str(pieces[0]), str(pieces[0])], capture_output=True, text=True
    )
    assert overlap.returncode != 0 and "not pieces of one run" in overlap.stderr

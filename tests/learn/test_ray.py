"""``--ray``: the arena's deals and the trainer's self-play actors on a Ray cluster — here a
local Ray instance — with the same results as local processes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from baohuang.cli import app
from baohuang.learn import Config, Trainer

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def ray_local() -> Iterator[None]:
    import ray

    from baohuang.distributed import connect

    connect("local")
    yield
    ray.shutdown()


def test_an_arena_on_ray_matches_the_local_one(ray_local: None, tmp_path: Path) -> None:
    runner = CliRunner()
    reports = {}
    for where, extra in (("local", []), ("ray", ["--ray", "local"])):
        out = tmp_path / f"{where}.json"
        args = ["arena", "--bots", "heuristic,random", "--games", "3", "--json", str(out)]
        done = runner.invoke(app, [*args, "--lang", "en", *extra])
        assert done.exit_code == 0, done.output
        reports[where] = json.loads(out.read_text())["bots"]
    for name in ("heuristic", "random"):
        local, remote = reports["local"][name], reports["ray"][name]
        assert (remote["mean"], remote["seat_games"]) == (local["mean"], local["seat_games"])


def test_the_trainer_plays_its_games_on_ray_actors(ray_local: None, tmp_path: Path) -> None:
    """Until eight games came from the Ray actor (starting one takes a while on a busy
    machine: the five minutes are a bound, not the expected time)."""
    config = Config(actors=1, batch=128, eval_minutes=100, eval_deals=2)
    trainer = Trainer(tmp_path / "run", config)
    counters = trainer.run(5, ray="local", games=8)
    assert counters.games >= 8 and counters.updates > 0

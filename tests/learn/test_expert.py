"""Expert iteration (``baohuang train --method expert``): the expert's games recorded decision by
decision, in shards a later run goes on from and a repeat run reproduces; the network fitted to
an update budget learns the expert's choices, resumes, and its model carries its provenance."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from baohuang.bots.base import play_out
from baohuang.bots.heuristic import HeuristicBot
from baohuang.bots.learned import POINTS_SCALE, LearnedBot, QModel
from baohuang.bots.search import SearchSettings
from baohuang.cli import app
from baohuang.engine.game import new_game
from baohuang.engine.rules import Rules
from baohuang.features.actions import action_features
from baohuang.learn.expert import SHARD, Lessons, expert_game, generate, load_all, shards
from baohuang.learn.fit import MODEL, PROVENANCE, FitConfig, Fitter
from helpers.stamps import FIELDS, check_stamp

pytestmark = pytest.mark.slow

CLASSIC = Rules.preset("classic")


def test_an_expert_game_keeps_every_choice_it_had() -> None:
    lessons = expert_game(CLASSIC, "heuristic", "lesson")
    game = new_game(CLASSIC, "lesson")
    result = play_out(game, [HeuristicBot(CLASSIC) for _ in range(5)])
    sizes = np.diff(lessons.offsets)
    assert len(lessons) > 50 and (sizes > 1).all()
    assert ((lessons.chosen >= 0) & (lessons.chosen < sizes)).all()
    assert set(np.round(lessons.returns * POINTS_SCALE).astype(int)) <= set(result.scores)


def test_a_searching_expert_keeps_the_value_of_every_action_it_weighed() -> None:
    """Beside each choice, the search's mean points for the actions it weighed: some
    decisions searched, the choice always among the weighed ones there, every value within a
    game's points; a heuristic expert searches nothing."""
    lessons = expert_game(CLASSIC, "search", "kept")
    spans = list(zip(lessons.offsets[:-1], lessons.offsets[1:], strict=True))
    searched = [i for i, (a, b) in enumerate(spans) if np.isfinite(lessons.values[a:b]).any()]
    assert 0 < len(searched) < len(lessons)
    for i in searched:
        a, b = spans[i]
        weighed = np.isfinite(lessons.values[a:b])
        assert weighed[lessons.chosen[i]] and 1 < weighed.sum() <= SearchSettings().limit
    known = lessons.values[np.isfinite(lessons.values)] * POINTS_SCALE
    assert np.abs(known).max() <= 32
    assert np.isnan(expert_game(CLASSIC, "heuristic", "kept").values).all()


def test_games_recorded_before_the_search_values_load_without_them(tmp_path: Path) -> None:
    lessons = expert_game(CLASSIC, "heuristic", "old")
    fields = {k: getattr(lessons, k) for k in ("observations", "legal", "offsets", "chosen")}
    np.savez_compressed(tmp_path / "00000.npz", **fields, returns=lessons.returns)
    old = Lessons.load(tmp_path / "00000.npz")
    assert len(old.values) == len(old.legal) and np.isnan(old.values).all()
    assert np.array_equal(old.chosen, lessons.chosen)


def test_games_come_in_shards_that_a_later_run_goes_on_from(tmp_path: Path) -> None:
    assert generate(tmp_path / "a", CLASSIC, "heuristic", SHARD, "s") == SHARD
    assert generate(tmp_path / "a", CLASSIC, "heuristic", 1, "s") == 2 * SHARD
    assert len(shards(tmp_path / "a")) == 2
    generate(tmp_path / "b", CLASSIC, "heuristic", 2 * SHARD, "s")
    first, again = load_all(tmp_path / "a"), load_all(tmp_path / "b")
    assert len(first) == len(again)
    assert np.array_equal(first.observations, again.observations)
    assert np.array_equal(first.chosen, again.chosen)


def test_processes_play_the_missing_shards_as_one_process_would(tmp_path: Path) -> None:
    """Two processes write the shards one process writes; a shard lost (a run stopped while
    writing it) is played first by the next run, from its own seeds."""
    generate(tmp_path / "one", CLASSIC, "heuristic", 2 * SHARD, "j")
    generate(tmp_path / "two", CLASSIC, "heuristic", 2 * SHARD, "j", jobs=2)
    one, two = load_all(tmp_path / "one"), load_all(tmp_path / "two")
    assert np.array_equal(one.observations, two.observations)
    assert np.array_equal(one.chosen, two.chosen)
    lost = tmp_path / "two" / "games" / "00000.npz"
    lost.unlink()
    assert generate(tmp_path / "two", CLASSIC, "heuristic", SHARD, "j") == 2 * SHARD
    assert np.array_equal(load_all(tmp_path / "two").chosen, one.chosen)


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("expert")
    generate(folder, CLASSIC, "heuristic", SHARD, "fit")
    return folder


def small(seed: int = 0) -> FitConfig:
    return FitConfig(hidden=(64,), batch=64, lr=3e-3, eval_every=100, eval_deals=2, seed=seed)


def agreement(model: QModel, lessons: Lessons) -> float:
    """How often the model's best-valued action is the expert's choice."""
    features = action_features(CLASSIC.twos_wild)
    hits = 0
    for i in range(len(lessons)):
        ids = lessons.legal[lessons.offsets[i] : lessons.offsets[i + 1]]
        values = model.values(lessons.observations[i].astype(np.float32), features[ids])
        hits += int(values.argmax()) == int(lessons.chosen[i])
    return hits / len(lessons)


def test_the_fit_learns_the_experts_choices_and_resumes_to_its_budget(games: Path) -> None:
    """300 updates on ten games of the heuristic: the learned bot's best-valued action is the
    heuristic's in most decisions (far above chance); a second run with a budget of 400 goes on
    from 300 and stops at 400; the model's provenance carries the stamp (the commit, the date,
    the machine, the command, the settings), the games and the updates."""
    torch.manual_seed(0)
    lessons = load_all(games)
    chance = float(np.mean(1 / np.diff(lessons.offsets)))
    fitter = Fitter(games, small(), "cpu")
    fitter.run(300, lambda counters, row: None)
    assert fitter.counters.updates == 300
    learned = agreement(QModel.load(games / MODEL), lessons)
    assert learned > max(0.6, 3 * chance), (learned, chance)
    again = Fitter(games, small(seed=9), "cpu")  # the checkpoint's settings win
    assert again.resumed and again.counters.updates == 300 and again.config.seed == 0
    again.run(400, lambda counters, row: None)
    assert again.counters.updates == 400
    assert [row["updates"] for row in again.log] == [100, 200, 300, 400]
    provenance = json.loads((games / PROVENANCE).read_text())
    assert provenance["updates"] == 400 and provenance["games"] == SHARD
    assert provenance["settings"]["hidden"] == [64] and provenance["commit"]
    check_stamp({"stamp": {key: provenance[key] for key in FIELDS}}, seed=0, preset="classic")
    assert provenance["decisions"] == len(lessons)
    model = QModel.load(games / MODEL)
    assert model.provenance == provenance  # the weights carry it too
    bot = LearnedBot(CLASSIC, model)
    result = play_out(new_game(CLASSIC, "after"), [bot] * 5)
    assert sum(result.scores) == 0


def test_the_fit_learns_the_searchs_values(tmp_path: Path) -> None:
    """On games of a searching expert the fit logs the search-value loss, and its values of
    the actions the search weighed come closer to the search's."""
    torch.manual_seed(0)
    generate(tmp_path, CLASSIC, "search", SHARD, "values")
    lessons = load_all(tmp_path)
    features = action_features(CLASSIC.twos_wild)
    weighed = np.flatnonzero(np.isfinite(lessons.values))
    decision = np.searchsorted(lessons.offsets, weighed, side="right") - 1

    def error(model: QModel) -> float:
        got = [
            model.values(lessons.observations[i].astype(np.float32), features[[a]])[0]
            for i, a in zip(decision, lessons.legal[weighed], strict=True)
        ]
        return float(np.mean((np.array(got) - lessons.values[weighed]) ** 2))

    fitter = Fitter(tmp_path, small(), "cpu")
    before = error(fitter.net.to_model())
    fitter.run(200, lambda counters, row: None)
    assert all(row["search_loss"] is not None for row in fitter.log)
    assert error(QModel.load(tmp_path / MODEL)) < 0.5 * before


def test_train_method_expert_runs_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "run"
    answer = CliRunner().invoke(
        app,
        ["train", "--method", "expert", "--out", str(out), "--expert", "heuristic",
         "--games", "10", "--updates", "50", "--eval-deals", "2"],
    )  # fmt: skip
    assert answer.exit_code == 0, answer.output
    assert len(shards(out)) == 1 and (out / MODEL).exists() and (out / PROVENANCE).exists()
    refused = CliRunner().invoke(app, ["train", "--method", "expert", "--out", str(out),
                                       "--expert", "nobody"])  # fmt: skip
    assert refused.exit_code == 2 and "nobody" in refused.output

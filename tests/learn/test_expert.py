"""Expert iteration (``baohuang train --method expert``): the expert's games recorded decision by
decision, in shards a later run goes on from and a repeat run reproduces; the network fitted to
an update budget learns the expert's choices, resumes, and its model carries its provenance."""

from __future__ import annotations

import csv
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
from baohuang.engine.actions import Action
from baohuang.engine.game import Game, new_game
from baohuang.engine.rules import Rules
from baohuang.features.actions import action_features, action_table
from baohuang.learn.expert import (
    GAMES,
    SHARD,
    Lessons,
    annotate,
    dagger_game,
    expert_game,
    generate,
    load_all,
    shards,
    students,
    unannotated,
)
from baohuang.learn.fit import BEST, MODEL, PROVENANCE, FitConfig, Fitter
from baohuang.learn.network import QNet
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


def test_an_expert_game_keeps_the_heuristics_choice_beside_the_experts() -> None:
    """The heuristic's choice from the seat's view: the heuristic as the expert agrees with it
    at every decision; the search departs from it somewhere, and keeps it most of the time."""
    own = expert_game(CLASSIC, "heuristic", "base")
    assert np.array_equal(own.base, own.chosen)
    searched = expert_game(CLASSIC, "search", "base")
    sizes = np.diff(searched.offsets)
    assert ((searched.base >= 0) & (searched.base < sizes)).all()
    same = float(np.mean(searched.base == searched.chosen))
    assert 0.5 < same < 1.0, same


def without_base(path: Path) -> Lessons:
    """The shard at ``path`` saved as before the heuristic's choices were kept."""
    lessons = Lessons.load(path)
    with np.load(path) as data:
        np.savez_compressed(path, **{k: data[k] for k in data.files if k != "base"})
    return lessons


def test_games_recorded_without_the_heuristics_choices_get_them_by_replay(
    tmp_path: Path,
) -> None:
    """:func:`annotate` replays a shard's games from their seeds with the recorded choices and
    adds the heuristic's: the same as recording them would have given. A shard whose games do
    not replay from the seeds named is refused, by name, and left as it was."""
    generate(tmp_path, CLASSIC, "search", SHARD, "replay")
    path = shards(tmp_path)[0]
    recorded = without_base(path)
    assert unannotated(tmp_path) == [path] and (Lessons.load(path).base == -1).all()
    with pytest.raises(ValueError, match=r"00000\.npz"):
        annotate(tmp_path, CLASSIC, "another seed")
    assert unannotated(tmp_path) == [path]
    assert annotate(tmp_path, CLASSIC, "replay") == 1
    assert unannotated(tmp_path) == []
    again = Lessons.load(path)
    assert np.array_equal(again.base, recorded.base)
    assert np.array_equal(again.chosen, recorded.chosen)
    assert np.array_equal(again.values, recorded.values, equal_nan=True)
    assert annotate(tmp_path, CLASSIC, "replay") == 0


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
    """How often the action the model's policy prefers is the expert's choice."""
    hits = 0
    for i in range(len(lessons)):
        outputs = model.outputs(lessons.observations[i].astype(np.float32), rows(lessons, i))
        hits += int(outputs[:, -1].argmax()) == int(lessons.chosen[i])
    return hits / len(lessons)


def rows(lessons: Lessons, i: int) -> np.ndarray:
    """Decision ``i``'s legal actions as a hinted model reads them."""
    ids = lessons.legal[lessons.offsets[i] : lessons.offsets[i + 1]]
    hint = np.zeros((len(ids), 1), np.float32)
    hint[lessons.base[i]] = 1.0
    return np.concatenate([action_features(CLASSIC.twos_wild)[ids], hint], axis=1)


def test_the_fit_learns_the_experts_choices_and_resumes_to_its_budget(games: Path) -> None:
    """300 updates on ten games of the heuristic: the action the learned policy prefers is the
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
    best = max(fitter.log, key=lambda row: row["eval_mean"])  # the first of the best
    assert QModel.load(games / BEST).provenance["updates"] == best["updates"]
    resumed = FitConfig(hidden=(64,), batch=64, lr=3e-3, eval_every=50, eval_deals=2, seed=9)
    again = Fitter(games, resumed, "cpu")  # the checkpoint's settings win, but evaluation's
    assert again.resumed and again.counters.updates == 300 and again.config.seed == 0
    assert again.config.eval_every == 50
    again.run(400, lambda counters, row: None)
    assert again.counters.updates == 400
    assert [row["updates"] for row in again.log] == [100, 200, 300, 350, 400]
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
    weighed = np.flatnonzero(np.isfinite(lessons.values))
    decision = np.searchsorted(lessons.offsets, weighed, side="right") - 1

    def error(model: QModel) -> float:
        got = [
            model.values(lessons.observations[i].astype(np.float32), rows(lessons, i))[j]
            for i, j in zip(decision, weighed - lessons.offsets[decision], strict=True)
        ]
        return float(np.mean((np.array(got) - lessons.values[weighed]) ** 2))

    fitter = Fitter(tmp_path, small(), "cpu")
    before = error(fitter.net.to_model())
    fitter.run(200, lambda counters, row: None)
    assert all(row["search_loss"] is not None for row in fitter.log)
    assert error(QModel.load(tmp_path / MODEL)) < 0.5 * before


def test_weighting_the_departures_makes_the_policy_depart_where_the_expert_did(
    tmp_path: Path,
) -> None:
    """On games of the search, which keeps the heuristic's choice most of the time, a fit that
    weighs the search's departures from it more departs where the search did more often."""
    generate(tmp_path, CLASSIC, "search", SHARD, "departs")
    lessons = load_all(tmp_path)
    departures = np.flatnonzero(lessons.base != lessons.chosen)
    assert 0 < len(departures) < len(lessons) / 4

    def caught(weight: float) -> int:
        torch.manual_seed(0)
        folder = tmp_path / f"weight{weight}"
        (folder / "games").mkdir(parents=True)
        (folder / "games" / "00000.npz").symlink_to(shards(tmp_path)[0])
        config = FitConfig(hidden=(64,), batch=64, lr=3e-3, eval_every=300, eval_deals=2,
                           depart_weight=weight)  # fmt: skip
        Fitter(folder, config, "cpu").run(300, lambda counters, row: None)
        model = QModel.load(folder / MODEL)
        return sum(
            int(
                model.outputs(lessons.observations[i].astype(np.float32), rows(lessons, i))[
                    :, -1
                ].argmax()
            )
            == int(lessons.chosen[i])
            for i in departures
        )

    assert caught(20.0) > caught(1.0)


def test_a_hinted_fit_refuses_games_without_the_heuristics_choices(tmp_path: Path) -> None:
    generate(tmp_path, CLASSIC, "heuristic", SHARD, "bare")
    without_base(shards(tmp_path)[0])
    with pytest.raises(ValueError, match="annotate"):
        Fitter(tmp_path, small(), "cpu").run(10, lambda counters, row: None)
    Fitter(tmp_path, FitConfig(hidden=(8,), hint=False, eval_every=5, eval_deals=2), "cpu").run(
        5, lambda counters, row: None
    )  # an unhinted fit reads them


def test_train_method_expert_runs_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "run"
    answer = CliRunner().invoke(
        app,
        ["train", "--method", "expert", "--out", str(out), "--expert", "heuristic",
         "--games", "10", "--updates", "50", "--eval-deals", "2"],
    )  # fmt: skip
    assert answer.exit_code == 0, answer.output
    assert len(shards(out)) == 1 and (out / MODEL).exists() and (out / PROVENANCE).exists()
    recorded = without_base(shards(out)[0])  # as recorded before the heuristic's choices
    again = CliRunner().invoke(app, ["train", "--method", "expert", "--out", str(out),
                                     "--updates", "60", "--eval-deals", "2",
                                     "--eval-every", "5"])  # fmt: skip
    assert again.exit_code == 0, again.output
    assert (out / BEST).exists()
    with (out / "fit_log.csv").open() as rows:
        assert [row["updates"] for row in csv.DictReader(rows)] == ["50", "55", "60"]
    assert np.array_equal(Lessons.load(shards(out)[0]).base, recorded.base)
    refused = CliRunner().invoke(app, ["train", "--method", "expert", "--out", str(out),
                                       "--expert", "nobody"])  # fmt: skip
    assert refused.exit_code == 2 and "nobody" in refused.output


def a_student(path: Path) -> Path:
    """An untrained two-headed network that reads the heuristic's choice, saved at ``path``:
    a policy that departs from the heuristic often."""
    torch.manual_seed(5)
    QNet((16,), heads=2, hints=1).to_model(False, None, None).save(path)
    return path


def test_dagger_the_student_plays_and_the_expert_labels_each_position(tmp_path: Path) -> None:
    """The positions are the student's game (its moves played), each labelled with what the
    expert would play from the seat's view there: the heuristic as the expert labels every
    position with its own choice; the search labels some differently, with its values."""
    student = QModel.load(a_student(tmp_path / "student.npz"))
    labelled = dagger_game(CLASSIC, "heuristic", student, "dagger")
    game = new_game(CLASSIC, "dagger")
    play_out(game, [LearnedBot(CLASSIC, student) for _ in range(5)])
    table = action_table(False)
    legal_ids = [table.ids[str(a)] for a in legal_sets(game)]
    assert labelled.legal.tolist() == legal_ids  # the student's positions, in order
    assert np.array_equal(labelled.chosen, labelled.base)  # the heuristic's own labels
    played = expert_game(CLASSIC, "heuristic", "dagger")
    assert not np.array_equal(played.legal[: len(labelled.legal)], labelled.legal)
    searched = dagger_game(CLASSIC, "search", student, "dagger")
    assert searched.legal.tolist() == legal_ids  # the same game: the student's
    assert (searched.chosen != searched.base).any() and np.isfinite(searched.values).any()


def legal_sets(game: Game) -> list[Action]:
    """The legal actions of every decision with more than one, as the game was played."""
    replay = new_game(CLASSIC, "dagger")
    found: list[Action] = []
    for _, action in game.actions:
        legal = replay.legal_actions()
        if len(legal) > 1:
            found.extend(legal)
        replay.apply(action)
    return found


def test_dagger_games_go_to_shards_named_with_their_student(tmp_path: Path) -> None:
    """``--student``: the shards it plays are noted with the model (a shard played again by
    the expert loses its note); the fit reads them with the expert's games; a student model
    that is not there is refused by the command."""
    out = tmp_path / "run"
    generate(out, CLASSIC, "heuristic", SHARD, "s")
    model = a_student(tmp_path / "student.npz")
    answer = CliRunner().invoke(app, ["train", "--method", "expert", "--out", str(out),
                                      "--expert", "heuristic", "--student", str(model),
                                      "--games", "10", "--updates", "5",
                                      "--eval-deals", "2"])  # fmt: skip
    assert answer.exit_code == 0, answer.output
    assert [path.name for path in shards(out)] == ["00000.npz", "00001.npz"]
    noted = students(out)
    assert list(noted) == ["00001"] and noted["00001"]["model"] == str(model)
    (out / GAMES / "00001.npz").unlink()  # a stopped run: played again by the expert
    generate(out, CLASSIC, "heuristic", SHARD, "s")
    assert students(out) == {} and len(shards(out)) == 2
    assert len(load_all(out)) == len(Lessons.load(shards(out)[0])) + len(
        Lessons.load(shards(out)[1])
    )
    missing = CliRunner().invoke(app, ["train", "--method", "expert", "--out", str(out),
                                       "--student", str(tmp_path / "none.npz")])  # fmt: skip
    assert missing.exit_code == 2 and "none.npz" in missing.output

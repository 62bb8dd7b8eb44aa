"""The trainer (deep Monte-Carlo self-play) and the learned bot: a short run (a number of
updates, not of seconds) trains (the loss falls), writes its checkpoint, model, log and curve,
resumes from its checkpoint; the numpy model plays as the PyTorch network values; the learned
bot plays legal moves in every preset; ``baohuang train`` and ``baohuang arena --bots
learned:PATH`` run."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from baohuang.bots.base import BOTS, Bot, is_bot, make_bot, play_out
from baohuang.bots.heuristic import HeuristicBot
from baohuang.bots.learned import LearnedBot, QModel, shipped_model
from baohuang.cli import app
from baohuang.engine.determinize import ROLE_PHASES
from baohuang.engine.game import new_game
from baohuang.engine.rules import Rules
from baohuang.features.actions import ACTION_FEATURES
from baohuang.features.observation import SIZE
from baohuang.learn import Config, Trainer
from baohuang.learn.dmc import CHECKPOINT, CURVE, LOG, MODEL, Buffer
from baohuang.learn.network import QNet
from baohuang.learn.selfplay import Student, play_game
from helpers.rulesets import PRESET_NAMES, PRESETS

pytestmark = pytest.mark.slow


#: The short run's updates (and the games they need: about 35): bounded by work, not by time, so
#: that a busy machine takes longer rather than trains less (minutes only bound it).
UPDATES = 150
#: A bound on a run's wall time, not the expected time.
BOUND_MINUTES = 30


@dataclass
class Trained:
    """The short run's trainer, and its network's loss before and after the run."""

    trainer: Trainer
    #: The mean squared error over the samples the run trained on, before and after it.
    loss_before: float
    loss_after: float


def buffer_loss(net: QNet, buffer: Buffer) -> float:
    """``net``'s mean squared error over every sample in ``buffer``."""
    device = next(net.parameters()).device
    obs, act, ret = (
        torch.from_numpy(a[: buffer.size]).to(device) for a in (buffer.obs, buffer.act, buffer.ret)
    )
    with torch.no_grad():
        return float(torch.nn.functional.mse_loss(net(obs, act)[:, 0], ret))


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Trained:
    """:data:`UPDATES` updates of training and the games they need, the learner playing its
    own games (no actor processes); the teacher's share is constant (not annealed over wall
    time), so that the run is the same however long it takes."""
    folder = tmp_path_factory.mktemp("run")
    config = Config(actors=0, batch=128, eval_minutes=100, eval_deals=2, teacher=(0.8, 0.8))
    trainer = Trainer(folder, config)
    untrained = copy.deepcopy(trainer.net)
    trainer.run(BOUND_MINUTES, updates=UPDATES)
    before, after = (buffer_loss(net, trainer.buffer) for net in (untrained, trainer.net))
    return Trained(trainer, before, after)


@pytest.fixture(scope="module")
def trained(run: Trained) -> Trainer:
    return run.trainer


def test_a_short_run_trains_and_the_loss_falls(run: Trained) -> None:
    """The network fits the samples it trained on: their loss falls by half or more."""
    trained = run.trainer
    assert trained.counters.updates == UPDATES and trained.counters.games > 20
    assert run.loss_after < 0.5 * run.loss_before, (run.loss_before, run.loss_after)
    for name in (CHECKPOINT, MODEL, LOG, CURVE):
        assert (trained.folder / name).stat().st_size > 0
    made = QModel.load(trained.folder / MODEL).provenance  # the weights say where they are from
    assert made is not None and made["updates"] == UPDATES and made["games"] > 20
    assert made["commit"] and made["command"] and made["settings"]["preset"] == "classic"
    assert trained.log[-1]["loss"] is not None and trained.log[-1]["updates"] == UPDATES
    assert "eval_mean" in trained.log[-1]  # the last note evaluates against the heuristic


def test_a_run_resumes_from_its_checkpoint(trained: Trainer) -> None:
    before = trained.counters
    again = Trainer(trained.folder)
    assert again.resumed and again.counters == before and again.log == trained.log
    for name, tensor in trained.net.state_dict().items():
        assert torch.equal(again.net.state_dict()[name], tensor), name
    again.run(BOUND_MINUTES, updates=10)
    assert again.counters.updates == before.updates + 10 and len(again.log) > len(trained.log)


@pytest.mark.parametrize("heads", [1, 2])
def test_the_numpy_model_values_as_the_network_does(tmp_path: Path, heads: int) -> None:
    net = QNet((32, 16), heads)
    rng = np.random.default_rng(0)
    observation = rng.random(SIZE, dtype=np.float32) * 10
    actions = rng.random((7, ACTION_FEATURES), dtype=np.float32)
    model = net.to_model()
    model.save(tmp_path / "m.npz")
    loaded = QModel.load(tmp_path / "m.npz")
    expected = net.values(observation, actions)
    with torch.no_grad():
        obs = torch.from_numpy(observation).expand(len(actions), -1)
        every = net(obs, torch.from_numpy(actions)).numpy()
    assert every.shape == (7, heads)
    for m in (model, loaded):
        assert np.allclose(m.values(observation, actions), expected, atol=1e-5)
        assert np.allclose(m.outputs(observation, actions), every, atol=1e-5)


CLASSIC = Rules.preset("classic")


def test_a_two_headed_model_plays_its_policy_and_weighs_a_margin_by_its_values() -> None:
    """The policy's logit is the last output, the value the first: made opposite here, the
    greedy bot plays the policy's choice and the bot with a margin reads the values."""
    net = QNet((32,), heads=2)
    with torch.no_grad():
        last = net.linears()[-1]
        last.weight[1] = -last.weight[0]
        last.bias[1] = -last.bias[0]
    model = net.to_model()
    game = new_game(CLASSIC, "two heads")
    while len(legal := game.legal_actions()) < 3:
        game.apply(legal[0])
    seat = game.current_seat
    assert seat is not None
    greedy = LearnedBot(CLASSIC, model)
    greedy.history.see(game.view(seat))
    outputs = greedy.outputs(game.view(seat), legal)
    assert np.allclose(outputs[:, 1], -outputs[:, 0], atol=1e-5)
    assert (
        LearnedBot(CLASSIC, model).choose(game.view(seat), legal)
        == legal[int(outputs[:, 1].argmax())]
    )
    sure = LearnedBot(CLASSIC, model, margin=0.0)  # any better value overrules the heuristic
    assert sure.choose(game.view(seat), legal) == legal[int(outputs[:, 0].argmax())]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_learned_bot_plays_legal_moves_in_every_preset(trained: Trainer, name: str) -> None:
    rules = PRESETS[name]
    path = f"learned:{trained.folder / MODEL}"
    assert is_bot(path)
    for deal in range(2):
        bots = [make_bot(path, rules) for _ in range(5)]
        result = play_out(new_game(rules, f"learned/{deal}"), bots)  # apply() checks legality
        assert sorted(result.places) == list(range(5)) and sum(result.scores) == 0


def test_train_and_arena_commands(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "cli-run"
    args = ["train", "--out", str(out), "--minutes", "0.1", "--actors", "0", "--eval-deals", "2"]
    done = runner.invoke(app, args)
    assert done.exit_code == 0, done.output
    assert (out / MODEL).exists() and "learned vs heuristic" in done.output
    report = tmp_path / "arena.json"
    bots = f"learned:{out / MODEL},heuristic"
    args = ["arena", "--bots", bots, "--games", "2", "--json", str(report), "--lang", "en"]
    done = runner.invoke(app, args)
    assert done.exit_code == 0, done.output
    assert json.loads(report.read_text())["games_played"] == 20
    done = runner.invoke(app, ["arena", "--bots", "learned:,heuristic", "--games", "1"])
    assert done.exit_code != 0


def test_a_margin_keeps_the_heuristics_choice_unless_the_model_is_sure(trained: Trainer) -> None:
    """``learned:PATH@M``: with a margin no value difference reaches, the heuristic's game; with
    a margin of 0, the greedy learned bot's game."""
    rules = PRESETS["classic"]
    model = trained.folder / MODEL

    def actions(name: str) -> list[str]:
        game = new_game(rules, "margin")
        play_out(game, [make_bot(name, rules) for _ in range(5)])
        return [f"{seat} {action}" for seat, action in game.actions]

    assert actions(f"learned:{model}@1000") == actions("heuristic")
    assert actions(f"learned:{model}@0") == actions(f"learned:{model}")
    assert actions(f"learned:{model}@0") != actions("heuristic")


def test_roles_only_self_play_samples_the_role_answers_and_plays_the_heuristic() -> None:
    """``Student(roles_only=True)``: the student answers before the first play (here always
    the first legal answer), the heuristic plays the cards; the samples are those answers."""
    rules = PRESETS["weihai"]
    zeros = lambda obs, acts: np.zeros(len(acts), np.float32)  # noqa: E731 - argmax: the first
    student = Student(epsilon=0.0, roles_only=True)
    for seed in range(3):
        samples, scores, taught = play_game(rules, zeros, random.Random(seed), 0.0, student)
        assert not any(taught)
        game = new_game(rules, random.Random(seed).getrandbits(64))
        bots = [HeuristicBot(rules) for _ in range(5)]
        answered = 0
        while (seat := game.current_seat) is not None:
            legal = game.legal_actions()
            action = bots[seat].choose(game.view(seat), legal)
            if game.phase in ROLE_PHASES and len(legal) > 1:
                action, answered = legal[0], answered + 1
            game.apply(action)
        assert game.result is not None and list(game.result.scores) == scores
        assert len(samples) == answered > 0


def plays_as_the_heuristic(bot: Bot, rules: Rules, seed: str) -> int:
    """Seat 0 played by ``bot`` beside a heuristic shadow shown the same views, the others by
    the heuristic: every play (R6) is the shadow's; the number of plays compared."""
    shadow, others = HeuristicBot(rules), HeuristicBot(rules)
    game, plays = new_game(rules, seed), 0
    while (seat := game.current_seat) is not None:
        view, legal = game.view(seat), game.legal_actions()
        if seat:
            game.apply(others.choose(view, legal))
            continue
        action, expected = bot.choose(view, legal), shadow.choose(view, legal)
        if game.phase == "play" and len(legal) > 1:
            assert action == expected
            plays += 1
        game.apply(action)
    return plays


def test_a_roles_only_model_plays_the_cards_as_the_heuristic(tmp_path: Path) -> None:
    """A role-answers model: the heuristic plays the cards; under other rules than its own the
    heuristic answers too."""
    weihai, classic = PRESETS["weihai"], PRESETS["classic"]
    torch.manual_seed(3)
    rules_json = json.dumps(weihai.to_dict(), sort_keys=True)
    QNet((16,)).to_model(roles_only=True, rules=rules_json).save(tmp_path / "roles.npz")
    model = QModel.load(tmp_path / "roles.npz")
    assert model.roles_only and model.rules == rules_json
    assert plays_as_the_heuristic(LearnedBot(weihai, model), weihai, "roles-only") > 5
    games = [new_game(classic, "elsewhere") for _ in range(2)]
    play_out(games[0], [LearnedBot(classic, model) for _ in range(5)])
    play_out(games[1], [HeuristicBot(classic) for _ in range(5)])
    assert games[0].actions == games[1].actions  # not its rules: the heuristic's whole game


def test_the_shipped_models_earned_their_place_and_name_the_learned_bot() -> None:
    """The models in the package (bench/learned.md), each played under its own rules by
    ``learned``: weihai's role answers (+0.27 [+0.07, +0.46] against the heuristic over 500
    weihai deals, answering only where it prefers by a point), classic's whole game (reading
    the heuristic's choice, its policy played); under other rules the first, whose role
    answers leave every decision to the heuristic there."""
    weihai, margin = shipped_model(PRESETS["weihai"])
    assert weihai.roles_only and weihai.rules is not None and margin == 1.0
    assert Rules.from_dict(json.loads(weihai.rules)) == PRESETS["weihai"]
    made = weihai.provenance  # the run that made it: its commit, command, settings, work
    assert (
        made is not None and made["commit"] == "e04496a" and made["settings"]["preset"] == "weihai"
    )
    assert "--phases roles" in made["command"] and (made["games"], made["updates"]) == (
        193711,
        12278,
    )
    classic, margin = shipped_model(PRESETS["classic"])
    assert not classic.roles_only and classic.hints == 1 and margin is None
    assert classic.rules is not None
    assert Rules.from_dict(json.loads(classic.rules)) == PRESETS["classic"]
    made = classic.provenance
    assert made is not None and made["settings"]["preset"] == "classic"
    assert "--method expert" in made["command"] and (made["games"], made["updates"]) == (
        1310,
        5000,
    )
    assert shipped_model(PRESETS["qq"])[0] is weihai
    assert "learned" in BOTS
    for rules, model, margin in (
        (PRESETS["weihai"], weihai, 1.0),
        (PRESETS["classic"], classic, None),
    ):
        bot = make_bot("learned", rules)
        assert isinstance(bot, LearnedBot) and (bot.model, bot.margin) == (model, margin)

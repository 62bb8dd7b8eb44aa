"""The PettingZoo AEC API of baohuang.env: PettingZoo's own api_test under every preset (R7)
and option set, seeds that reproduce episodes, R10 rewards, R12 matches, the wrappers."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import numpy as np
import pytest
from env_helpers import RULE_SETS, episode, rules_id
from pettingzoo.test import api_test

from baohuang import IllegalActionError, Match, Rules
from baohuang.env import AGENTS, NUM_ACTIONS, NUM_ACTIONS_TWOS_WILD, SIZE, env, raw_env
from baohuang.env.rlcard_style import RLCardStyleEnv


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=rules_id)
def test_r7_pettingzoo_api_test_passes_for_every_preset_and_option_set(
    rule_set: tuple[str, dict[str, object]],
) -> None:
    preset, options = rule_set
    with warnings.catch_warnings():
        # PettingZoo only lists its own games as having dict observations (the action mask).
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably")
        api_test(env(preset, **options), num_cycles=150)


def test_agents_spaces_and_metadata() -> None:
    e = raw_env("qq")
    assert e.possible_agents == ["seat_0", "seat_1", "seat_2", "seat_3", "seat_4"]
    assert e.action_space("seat_0").n == NUM_ACTIONS_TWOS_WILD
    assert raw_env().action_space("seat_3").n == NUM_ACTIONS
    space = e.observation_space("seat_2")
    assert space["observation"].shape == (SIZE,) and space["observation"].dtype == np.float32
    assert space["action_mask"].shape == (NUM_ACTIONS_TWOS_WILD,)
    assert space["action_mask"].dtype == np.int8
    assert e.metadata["name"] == "baohuang_v0"


def test_options_reach_the_rules_and_bad_ones_raise() -> None:
    assert raw_env("classic", roast=True).rules == Rules.preset("classic", roast=True)
    with pytest.raises(Exception, match="option"):
        raw_env("classic", not_an_option=True)
    with pytest.raises(ValueError, match="at least one game"):
        raw_env(games=0)


@pytest.mark.parametrize("preset", ["classic", "weihai", "qq"])
def test_same_seed_reproduces_the_deal_and_the_trajectory(preset: str) -> None:
    def run(seed: int) -> list[tuple[str, bytes, bytes, int]]:
        return [
            (agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), action)
            for agent, obs, action in episode(raw_env(preset), seed, random.Random(5))
        ]

    first = run(11)
    assert first == run(11)
    assert first[0][1] != run(12)[0][1]  # another seed deals other hands


def test_reset_without_a_seed_continues_the_seeded_sequence() -> None:
    a, b = raw_env(), raw_env()
    a.reset(seed=3)
    b.reset(seed=3)
    a.reset()
    b.reset()
    assert a.game.dealt == b.game.dealt
    a.reset()
    assert a.game.dealt != b.game.dealt


def test_episode_plays_the_engine_game_of_the_same_seed() -> None:
    """The env is the engine: the match of seed s, driven by the same actions, is the same."""
    e = raw_env("weihai")
    actions = [(agent, a) for agent, _, a in episode(e, 21, random.Random(0))]
    match = Match(Rules.preset("weihai"), games=1, seed=21)
    for agent, action in actions:
        assert match.game.current_seat == AGENTS.index(agent)
        match.game.apply(e.table.action(action))
    assert match.game.result == e.game.result


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=rules_id)
def test_r10_rewards_are_each_seats_points_when_the_game_ends(
    rule_set: tuple[str, dict[str, object]],
) -> None:
    preset, options = rule_set
    e = raw_env(preset, **options)
    for seed in range(2):
        e.reset(seed=seed)
        totals = dict.fromkeys(AGENTS, 0.0)
        steps = 0
        rng = random.Random(seed)
        while e.agents:
            agent = e.agent_selection
            obs, reward, terminated, truncated, _ = e.last()
            assert not truncated
            totals[agent] += reward
            if terminated:
                e.step(None)
                continue
            assert reward == 0  # points come only when the game ends
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        result = e.game.result
        assert result is not None
        assert [totals[a] for a in AGENTS] == [float(p) for p in result.scores]
        assert sum(result.scores) == 0  # R10.1, R10.2: zero-sum
        assert steps > 50


@pytest.mark.parametrize("preset", ["classic", "qq"])
def test_r12_a_match_rewards_each_game_and_sums_to_the_match_totals(preset: str) -> None:
    e = raw_env(preset, games=2)
    e.reset(seed=4)
    totals = dict.fromkeys(AGENTS, 0.0)
    scored_games = []
    rng = random.Random(4)
    while e.agents:
        agent = e.agent_selection
        if e.terminations[agent]:
            totals[agent] += e._cumulative_rewards[agent]
            e.step(None)
            continue
        legal = np.flatnonzero(e.observe(agent)["action_mask"])
        game = e.game
        e.step(int(legal[rng.randrange(len(legal))]))
        if any(e.rewards.values()):
            assert game.result is not None
            assert [e.rewards[a] for a in AGENTS] == list(map(float, game.result.scores))
            scored_games.append(game.result)
    assert len(scored_games) == 2
    assert e.match is not None
    paid = [ev for ev in e.game.events if ev.kind == "tribute"]
    assert bool(paid) == (scored_games[0].outcome != "draw")  # R12: the second game's tribute
    assert e.match.totals == [sum(r.scores[s] for r in scored_games) for s in range(5)]


def test_illegal_actions_raise_raw_and_end_the_wrapped_episode() -> None:
    raw = raw_env()
    raw.reset(seed=0)
    mask = raw.observe(raw.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[-1])
    with pytest.raises(IllegalActionError):
        raw.step(illegal)
    wrapped = env()
    wrapped.reset(seed=0)
    agent = wrapped.agent_selection
    wrapped.last()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(illegal)
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[agent] == -1


@pytest.mark.parametrize("preset", ["classic", "qq"])
def test_r14_the_acting_agents_info_lists_its_legal_ids_and_no_other_does(preset: str) -> None:
    e = raw_env(preset, games=2)
    e.reset(seed=3)
    rng = random.Random(3)
    steps = 0
    while e.agents:
        agent = e.agent_selection
        if e.terminations[agent]:
            assert all("legal_ids" not in info for info in e.infos.values())
            e.step(None)
            continue
        ids = e.infos[agent]["legal_ids"]
        assert [a for a in AGENTS if "legal_ids" in e.infos[a]] == [agent]
        assert list(ids) == [e.table.id_of(text) for text in e.view(agent).legal]
        assert sorted(ids) == list(np.flatnonzero(e.observe(agent)["action_mask"]))
        if steps == 40:  # an illegal id changes nothing, the info included
            illegal = next(i for i in range(len(e.table)) if i not in ids)
            with pytest.raises(IllegalActionError):
                e.step(illegal)
            assert e.infos[agent]["legal_ids"] == ids and e.agent_selection == agent
        e.step(ids[rng.randrange(len(ids))])
        steps += 1
    assert steps > 200


def test_render_ansi_shows_the_acting_seats_view() -> None:
    e = raw_env(render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and "phase" in text and f"seat {e.game.current_seat}" in text
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")


def test_rlcard_style_wrapper_plays_a_match() -> None:
    r = RLCardStyleEnv("kk_simple", games=2)
    state, player = r.reset(seed=8)
    rng = random.Random(8)
    steps = 0
    while not r.is_over():
        assert set(state) == {"obs", "legal_actions", "raw_obs", "raw_legal_actions"}
        assert state["raw_obs"]["seat"] == player
        assert len(state["legal_actions"]) == len(state["raw_legal_actions"])
        state, player = r.step(rng.choice(list(state["legal_actions"])))
        steps += 1
    payoffs = r.get_payoffs()
    assert r.env.match is not None
    assert list(payoffs) == [float(t) for t in r.env.match.totals]
    assert steps > 100 and r.num_actions == NUM_ACTIONS


def test_docs_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    docs = (Path(__file__).parents[2] / "docs" / "env.md").read_text()
    example = docs.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(example, "docs/env.md", "exec"), {})
    printed = capsys.readouterr().out
    assert "seat_0" in printed

"""N games stepped in one call: masks, observations and players as numpy
arrays agree with the states, a bad step changes nothing, finished games
start again, and the same seed plays the same games."""

import menagerie
import numpy as np
import pytest

from conftest import VARIANTS


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_arrays_are_the_games(variant):
    env = menagerie.VectorEnv(variant, 3, seed=1)
    game = env.game
    obs = env.reset()
    shape = tuple(game.observation_tensor_shape())
    assert obs["observation"].shape == (3, *shape) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (3, game.num_distinct_actions()) and obs["action_mask"].dtype == np.int8
    for _ in range(25):
        actions, offsets = env.legal_actions()
        for index in range(3):
            state = env.state(index)
            player = state.current_player()
            assert player in (0, 1), "chance acts inside"
            assert obs["current_player"][index] == player
            legal = actions[offsets[index] : offsets[index + 1]]
            assert list(legal) == state.legal_actions()
            assert list(np.flatnonzero(obs["action_mask"][index])) == state.legal_actions()
            assert np.array_equal(obs["observation"][index], state.observation_tensor(player))
        obs, rewards, terminations, truncations, infos = env.step(env.sample_actions())
        assert rewards.shape == (3, 2) and terminations.shape == truncations.shape == (3,)
        assert not truncations.any() and infos == {}


def test_a_bad_step_changes_nothing():
    env = menagerie.VectorEnv("lma", 2, seed=2)
    before = [env.state(i).serialize() for i in range(2)]
    legal = env.sample_actions()
    for actions in ([legal[0], -1], [legal[0], 10**6], [legal[0]], [[1, 2], [3, 4]], [1.5, 2.5], [legal[0], 2**70]):
        with pytest.raises(ValueError):
            env.step(actions)
    assert [env.state(i).serialize() for i in range(2)] == before
    env.step(legal)
    assert [env.state(i).serialize() for i in range(2)] != before


def test_finished_games_start_again_and_report_their_end():
    env = menagerie.VectorEnv("lichen-3x3", 4, seed=3, copy=False)
    ended = 0
    for _ in range(400):
        obs, rewards, terminations, _, _ = env.step(env.sample_actions())
        for index in np.flatnonzero(terminations):
            ended += 1
            assert rewards[index].sum() == 0 and set(rewards[index]) <= {-1.0, 0.0, 1.0}
            assert env.state(index).move_number() == 0, "started again"
        assert (rewards[~terminations] == 0).all()
    assert ended > 4


def test_the_same_seed_plays_the_same_games():
    runs = []
    for _ in range(2):
        env = menagerie.VectorEnv("lunch", 2, seed=5)
        masks = []
        for _ in range(30):
            obs, *_ = env.step(env.sample_actions())
            masks.append(obs["action_mask"].copy())
        runs.append(([env.state(i).serialize() for i in range(2)], masks))
    assert runs[0][0] == runs[1][0]
    assert all(np.array_equal(a, b) for a, b in zip(runs[0][1], runs[1][1]))


def test_lunch_masks_cover_the_whole_action_space():
    env = menagerie.VectorEnv("lunch", 2, seed=6, copy=False)
    obs = env.reset()
    assert obs["action_mask"].shape == (2, 439019)
    views = obs["action_mask"]
    for _ in range(20):
        obs, *_ = env.step(env.sample_actions())
        assert obs["action_mask"] is views, "copy=False: the same arrays, written in place"
        for index in range(2):
            assert views[index].sum() == len(env.state(index).legal_actions())

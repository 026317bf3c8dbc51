"""Every variant as a PettingZoo AEC environment passes PettingZoo's own API test."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import menagerie.pettingzoo
from conftest import VARIANTS


@pytest.mark.parametrize("variant", VARIANTS)
def test_api_test(variant):
    api_test(menagerie.pettingzoo.env(variant), num_cycles=60)


def test_agents_are_the_games_players_and_masks_match_the_rules():
    env = menagerie.pettingzoo.env("kelasu")
    env.reset(seed=1)
    assert env.agents == ["blue", "red"]
    observation = env.observe(env.agent_selection)
    assert set(np.flatnonzero(observation["action_mask"])) == set(env.game_state.legal_actions())


def test_an_illegal_action_is_a_value_error():
    env = menagerie.pettingzoo.env("lma")
    env.reset(seed=2)
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not a legal move"):
        env.step(illegal)

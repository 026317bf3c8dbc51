"""A player's information state and observation never depend on what that
player may not see: Lunch Chess's other hand and the draw pile's order."""

import random

import menagerie
import numpy as np


def after_the_deal(seed):
    state = menagerie.Game("lunch").new_initial_state()
    rng = random.Random(seed)
    plies = 0
    while plies < 60 or state.is_chance_node():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        plies += 1
    return state


def test_two_states_differing_only_in_hidden_cards_look_alike_to_the_player():
    checked = 0
    for seed in range(12):
        state = after_the_deal(seed)
        if state.is_terminal():
            continue
        for player in (0, 1):
            other = state.resample(player, seed=seed + 100)
            # The hidden parts really differ (the other hand, the pile)...
            if other.serialize() == state.serialize():
                continue
            checked += 1
            # ...yet this player sees the same...
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.observation_string(player) == state.observation_string(player)
            assert np.array_equal(other.observation_tensor(player), state.observation_tensor(player))
            assert other.legal_actions() == state.legal_actions() or state.current_player() != player
            # ...while the other player, whose hand changed, does not.
            assert other.information_state_string(1 - player) != state.information_state_string(1 - player)
    assert checked >= 10


def test_the_view_text_hides_the_other_hand():
    state = after_the_deal(4)
    full = state.serialize()
    for player in (0, 1):
        seen = state.information_state_string(player)
        assert seen != full

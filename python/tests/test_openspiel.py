"""Every variant under OpenSpiel: its own random-simulation test, and its
search algorithms playing whole games."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import menagerie
import menagerie.openspiel
from conftest import PERFECT, VARIANTS

menagerie.openspiel.register()


def test_register_names_every_variant():
    names = menagerie.openspiel.register()
    assert names == ["menagerie_" + v.replace("-", "_") for v in menagerie.variants()]
    assert set(names) <= set(pyspiel.registered_names())


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_sim_test(variant):
    game = pyspiel.load_game(menagerie.openspiel.game_name(variant))
    assert game.num_distinct_actions() == menagerie.Game(variant).num_distinct_actions()
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_flag_options_are_game_parameters():
    game = pyspiel.load_game("menagerie_lunch(princess=True,no_spinning=True)")
    # The flags in the order the variant lists its options.
    assert game.menagerie.variant() == "lunch:no-spinning,princess"
    assert pyspiel.load_game("menagerie_lunch").menagerie.variant() == "lunch"


def play_whole_game(game, bots, rng):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choice(actions, p=probabilities))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state


@pytest.mark.parametrize("variant", PERFECT)
def test_mcts_plays_a_whole_game(variant):
    game = pyspiel.load_game(menagerie.openspiel.game_name(variant))
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=2, evaluator=evaluator, random_state=rng)
    state = play_whole_game(game, [bot, bot], rng)
    assert sum(state.returns()) == 0


def test_ismcts_plays_a_whole_lunch_game():
    game = pyspiel.load_game("menagerie_lunch")
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=2, random_state=rng) for _ in range(2)
    ]
    state = play_whole_game(game, bots, rng)
    assert sum(state.returns()) == 0

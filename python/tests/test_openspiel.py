"""Every variant under OpenSpiel: its own random-simulation test with
serialization, its search algorithms playing whole games, and the parts
of pyspiel's state contract a researcher relies on (pickling, undo,
information states, parameters)."""

import pickle

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
def test_random_sim_test_with_serialization(variant):
    game = pyspiel.load_game(menagerie.openspiel.game_name(variant))
    assert game.num_distinct_actions() == menagerie.Game(variant).num_distinct_actions()
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_flag_options_and_the_deck_are_game_parameters(tmp_path):
    game = pyspiel.load_game("menagerie_lunch(princess=True,no_spinning=True)")
    # The flags in the order the variant lists its options.
    assert game.menagerie.variant() == "lunch:no-spinning,princess"
    assert pyspiel.load_game("menagerie_lunch").menagerie.variant() == "lunch"
    deck = tmp_path / "small.toml"
    deck.write_text(small_deck())
    game = pyspiel.load_game("menagerie_lunch", {"deck": str(deck)})
    assert game.menagerie.variant() == f"lunch:deck={deck}"
    state = game.new_initial_state()
    assert {state.action_to_string(a) for a in state.legal_actions()} == {"draw:jab", "draw:dodge"}


def small_deck():
    return (
        '[[card]]\nname = "Jab"\ncode = "jab"\nkind = "attack"\ncount = 12\ndamage = 1\nnumbers = "confirmed"\n'
        '[[card]]\nname = "Dodge"\ncode = "dodge"\nkind = "dodge"\ncount = 10\nnumbers = "confirmed"\n'
    )


def random_state(game, plies, seed):
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("variant", ["lichen", "lunch", "fluid"])
def test_states_pickle_serialize_clone_and_undo_through_pyspiel(variant):
    game = pyspiel.load_game(menagerie.openspiel.game_name(variant))
    state = random_state(game, 60, 1)
    for other in (
        pickle.loads(pickle.dumps(state)),
        game.deserialize_state(state.serialize()),
        state.clone(),
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
    ):
        assert str(other) == str(state)
        assert other.serialize() == state.serialize()
        assert other.legal_actions() == state.legal_actions()
        assert other.history() == state.history()
    assert pickle.loads(pickle.dumps(game)).menagerie.variant() == game.menagerie.variant()
    history = state.history()
    last = history[-1]
    player = state.full_history()[-1].player
    state.undo_action(player, last)
    assert state.history() == history[:-1] and state.move_number() == len(history) - 1
    with pytest.raises(ValueError, match="not action"):
        state.undo_action(state.full_history()[-1].player, state.history()[-1] + 1)
    with pytest.raises(ValueError, match="no move to undo"):
        game.new_initial_state().undo_action()
    child = state.child(last)
    assert child.history() == history and state.history() == history[:-1]


def test_information_states_and_their_tensor():
    game = pyspiel.load_game("menagerie_lunch")
    assert game.get_type().provides_information_state_string
    assert not game.get_type().provides_information_state_tensor
    state = random_state(game, 40, 2)
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    assert state.information_state_string() == state.inner.information_state_string(player)
    assert state.information_state_string(player).count("\n") == len(state.history())
    assert state.observation_string(player) == state.inner.observation_string(player)
    # pyspiel's C++ reaches the same strings through the observers.
    assert pyspiel.State.information_state_string(state, player) == state.information_state_string(player)
    assert pyspiel.State.observation_string(state, player) == state.observation_string(player)
    with pytest.raises(ValueError, match="no information state tensor"):
        state.information_state_tensor(player)
    with pytest.raises(ValueError, match="no information state tensor"):
        pyspiel.State.information_state_tensor(state, player)
    assert np.array_equal(
        np.asarray(pyspiel.State.observation_tensor(state, player), np.float32),
        state.inner.observation_tensor(player).ravel(),
    )


def test_legal_actions_of_a_number_that_is_no_player_raise():
    state = pyspiel.load_game("menagerie_lma").new_initial_state()
    assert state.legal_actions(1) == []
    assert state.legal_actions(0) == state.legal_actions()
    for player in (7, -4, 2):
        with pytest.raises(ValueError, match="not a player"):
            state.legal_actions(player)


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

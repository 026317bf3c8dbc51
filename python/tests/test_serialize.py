"""States are whole: a state read back from its serialized text, a pickled
state and a deep copy are the same state, and go on identically: the same
legal moves, outcome (repetitions included), observations and
information states, ply after ply, to the end."""

import copy
import pickle
import random

import menagerie
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from conftest import VARIANTS


def random_step(state, rng):
    """A random legal move: chance with its probabilities."""
    if state.is_chance_node():
        actions, probabilities = zip(*state.chance_outcomes())
        return rng.choices(actions, probabilities)[0]
    return rng.choice(state.legal_actions())


def assert_same(a, b, where, whole=True):
    """The two states agree; `whole`: on their texts and information
    states too (which grow with the game: checked on some plies only)."""
    if whole:
        assert a.serialize() == b.serialize(), where
        for player in (0, 1):
            assert a.information_state_string(player) == b.information_state_string(player), where
    assert a.current_player() == b.current_player(), where
    assert a.is_terminal() == b.is_terminal(), where
    assert a.returns() == b.returns(), where
    assert a.outcome() == b.outcome(), where
    assert a.legal_actions() == b.legal_actions(), where
    assert a.history() == b.history() and a.history_texts() == b.history_texts(), where
    if a.is_chance_node():
        assert a.chance_outcomes() == b.chance_outcomes(), where
    for player in (0, 1):
        assert a.observation_string(player) == b.observation_string(player), where
        assert np.array_equal(a.observation_tensor(player), b.observation_tensor(player)), where


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=5, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), cut=st.integers(0, 600))
def test_states_survive_serialize_pickle_and_copy_and_go_on_identically(variant, seed, cut):
    game = menagerie.Game(variant)
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(cut):
        if state.is_terminal():
            break
        state.apply_action(random_step(state, rng))
    copies = {
        "deserialize": game.deserialize_state(state.serialize()),
        "pickle": pickle.loads(pickle.dumps(state)),
        "deepcopy": copy.deepcopy(state),
    }
    for ply in range(400):
        whole = ply < 10 or ply % 20 == 0 or state.is_terminal()
        for how, other in copies.items():
            assert_same(state, other, f"{variant} seed {seed}, {ply} plies after the cut at {cut} ({how})", whole)
        if state.is_terminal():
            break
        action = random_step(state, rng)
        state.apply_action(action)
        for other in copies.values():
            other.apply_action(action)
    # The copies undo as far as the original does: to the start.
    for other in copies.values():
        assert other.move_number() == state.move_number()
        while other.move_number():
            other.undo_action()
        assert other.serialize() == game.new_initial_state().serialize()


def play_moves(state, texts):
    for text in texts:
        state.apply_move(text)


def test_a_fluid_game_drawn_by_repetition_stays_drawn():
    game = menagerie.Game("fluid")
    state = game.new_initial_state()
    # The rooks join their knights and come back: the position after the
    # second move (castling queenside lost) comes a third time at the 10th.
    rooks = ["Ra1b1", "Ra8b8", "Rb1a1", "Rb8a8"]
    play_moves(state, rooks + rooks + rooks[:1])
    assert not state.is_terminal()
    before_the_draw = game.deserialize_state(state.serialize())
    state.apply_move(rooks[1])
    assert state.outcome() == "draw (threefold repetition)"
    assert game.deserialize_state(state.serialize()).outcome() == "draw (threefold repetition)"
    assert pickle.loads(pickle.dumps(state)).is_terminal()
    # The state one move before remembers the positions before it.
    before_the_draw.apply_move(rooks[1])
    assert before_the_draw.is_terminal()
    # A position text alone starts counting afresh (the rules' convention).
    assert not game.deserialize_state(state.position_text()).is_terminal()


def test_the_lichen_quiet_turn_count_survives_a_round_trip():
    game = menagerie.Game("lichen")
    rng = random.Random(4)
    state = game.new_initial_state()
    for _ in range(13):
        state.apply_action(random_step(state, rng))
    # The position text itself carries the count (its fifth field), so a
    # state read from the current position alone sees the same counter
    # (the observation's last plane).
    fields = state.position_text().split(" ")
    assert len(fields) == 5 and int(fields[4]) > 0
    current = game.deserialize_state(state.position_text())
    for player in (0, 1):
        assert np.array_equal(current.observation_tensor(player), state.observation_tensor(player))


def lunch_with_a_known_card():
    """A Lunch Chess state where a card is known to be in a hand (a weapon
    came back: the position text's field 15), a player to act."""
    game = menagerie.Game("lunch")
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_initial_state()
        for _ in range(3000):
            if state.is_terminal():
                break
            fields = state.position_text().split(" ")
            if len(fields) == 15 and not state.is_chance_node():
                return state, fields[14]
            state.apply_action(random_step(state, rng))
    raise AssertionError("no weapon came back in 200 random games")


def cards(pile):
    return {item.split("*")[0] for item in pile.split(",")}


def test_lunch_remembers_the_weapons_seen_going_back_to_a_hand():
    state, known = lunch_with_a_known_card()
    owner = 0 if known.startswith("w.") else 1
    card = known.split(",")[0].split(".")[1].split("*")[0]
    game = state.get_game()
    # Both players see it: it is public.
    for player in (0, 1):
        assert state.observation_string(player).endswith(" " + known)
    copies = {
        "live": state,
        "serialized": game.deserialize_state(state.serialize()),
        "pickled": pickle.loads(pickle.dumps(state)),
        "position text": game.deserialize_state(state.position_text()),
    }
    for how, copy_of_state in copies.items():
        for seed in range(200):
            sample = copy_of_state.resample(1 - owner, seed=seed)
            hand = sample.position_text().split(" ")[3 + owner]
            assert card in cards(hand), f"{how}, sample {seed}: {hand} lacks the known {card}"

"""Nothing a Python caller does crashes the interpreter: wrong variants,
position texts, serialized states, actions, move texts, players and
numbers raise ValueError with Menagerie's message (never OverflowError,
never a Rust panic)."""

import menagerie
import pytest
from hypothesis import given, settings, strategies as st

from conftest import VARIANTS

texts = st.one_of(st.text(max_size=40), st.text(alphabet="abcdefgh12345678KQRBNPkqrbnp/-: @,;*>=x+", max_size=60))
variant_names = st.one_of(texts, st.sampled_from(VARIANTS).flatmap(lambda v: st.tuples(st.just(v), texts).map(":".join)))


SETTINGS = settings(max_examples=300, deadline=None, derandomize=True)
huge = st.integers(min_value=-(2**70), max_value=2**70)


@SETTINGS
@given(variant_names)
def test_bad_variant_strings(text):
    try:
        game = menagerie.Game(text)
    except ValueError as error:
        assert str(error)
    else:
        assert game.new_initial_state().legal_actions()


@SETTINGS
@given(st.sampled_from(VARIANTS), texts)
def test_bad_position_texts(variant, text):
    game = menagerie.Game(variant)
    try:
        state = game.deserialize_state(text)
    except ValueError as error:
        assert str(error)
    else:
        state.legal_actions()
        state.serialize()


@SETTINGS
@given(st.sampled_from(VARIANTS), st.lists(huge, max_size=8))
def test_bad_actions(variant, actions):
    state = menagerie.Game(variant).new_initial_state()
    for action in actions:
        legal = action in state.legal_actions()
        try:
            state.apply_action(action)
        except ValueError as error:
            assert not legal and str(error)
        try:
            state.undo_action(action=action)
        except ValueError as error:
            assert str(error)
        else:
            state.apply_action(action)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.sampled_from(VARIANTS), st.lists(texts, max_size=4))
def test_bad_serialized_states(variant, lines):
    game = menagerie.Game(variant)
    start = game.new_initial_state().serialize()
    for text in (start + "\n" + "\n".join(lines), "\n".join(lines), "{" + "\n".join(lines)):
        try:
            state = game.deserialize_state(text)
        except ValueError as error:
            assert str(error)
        else:
            assert game.deserialize_state(state.serialize()).serialize() == state.serialize()


@SETTINGS
@given(st.sampled_from(VARIANTS), texts)
def test_bad_move_texts(variant, text):
    state = menagerie.Game(variant).new_initial_state()
    for call in (state.string_to_action, state.apply_move):
        try:
            call(text)
        except ValueError as error:
            assert str(error)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.sampled_from(VARIANTS), huge)
def test_bad_players_and_numbers(variant, number):
    game = menagerie.Game(variant)
    state = game.new_initial_state()
    player_calls = (
        state.observation_tensor,
        state.information_state_string,
        state.observation_string,
        state.player_return,
        state.resample,
        game.player_name,
    )
    for call in player_calls:
        if number in (0, 1):
            call(number)
        else:
            with pytest.raises(ValueError):
                call(number)
    if number not in (0, 1, -1):
        with pytest.raises(ValueError):
            state.legal_actions(number)
        with pytest.raises(ValueError):
            state.legal_actions_mask(number)
    try:
        text = state.action_to_string(number)
    except ValueError:
        pass
    else:
        assert isinstance(text, str)
    try:
        state.resample(0, seed=number)
        menagerie.random_playouts(variant, 0, seed=number)
    except ValueError as error:
        assert number < 0 or number >= 2**64, error
    # Numbers out of range only: a valid one would start a long computation.
    if number < 0 or number >= 2**32:
        with pytest.raises(ValueError):
            menagerie.perft(variant, number)
    if number < 0:
        with pytest.raises(ValueError):
            menagerie.random_playouts(variant, number)
    if number < 1 or number > 2**16:
        with pytest.raises(ValueError):
            menagerie.VectorEnv(variant, number)


def test_bad_search_and_perft_arguments():
    state = menagerie.Game("lma").new_initial_state()
    with pytest.raises(ValueError, match="unknown"):
        menagerie.search(state, nodes=10, player="deep-blue")
    with pytest.raises(ValueError):
        menagerie.search(state)
    for time in (-1.0, 0.0, 1e300, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="time"):
            menagerie.search(state, time=time)
    for bad in (-1, 2**64, 2**70):
        with pytest.raises(ValueError):
            menagerie.search(state, nodes=bad)
        with pytest.raises(ValueError):
            menagerie.search(state, depth=bad)
        with pytest.raises(ValueError):
            menagerie.search(state, nodes=10, seed=bad if bad < 0 else 2**70)
        with pytest.raises(ValueError):
            menagerie.perft("lma", bad)
    with pytest.raises(TypeError):
        state.apply_action("1a1a1c")
    with pytest.raises(ValueError, match="unknown variant"):
        menagerie.perft("chess", 1)
    with pytest.raises(ValueError):
        menagerie.perft("lma", 1, "not a position")
    with pytest.raises(ValueError, match="no move to undo"):
        state.undo_action()

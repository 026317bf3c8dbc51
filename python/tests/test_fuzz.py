"""Nothing a Python caller does crashes the interpreter: wrong variants,
position texts, actions, move texts and players raise ValueError with
Menagerie's message."""

import menagerie
import pytest
from hypothesis import given, settings, strategies as st

from conftest import VARIANTS

texts = st.one_of(st.text(max_size=40), st.text(alphabet="abcdefgh12345678KQRBNPkqrbnp/-: @,;*>=x+", max_size=60))
variant_names = st.one_of(texts, st.sampled_from(VARIANTS).flatmap(lambda v: st.tuples(st.just(v), texts).map(":".join)))


@settings(max_examples=300, deadline=None)
@given(variant_names)
def test_bad_variant_strings(text):
    try:
        game = menagerie.Game(text)
    except ValueError as error:
        assert str(error)
    else:
        assert game.new_initial_state().legal_actions()


@settings(max_examples=300, deadline=None)
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


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(VARIANTS), st.lists(st.integers(min_value=-(2**70), max_value=2**70), max_size=8))
def test_bad_actions(variant, actions):
    state = menagerie.Game(variant).new_initial_state()
    for action in actions:
        legal = action in state.legal_actions()
        try:
            state.apply_action(action)
        except (ValueError, OverflowError) as error:
            assert not legal and str(error)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(VARIANTS), texts)
def test_bad_move_texts(variant, text):
    state = menagerie.Game(variant).new_initial_state()
    for call in (state.string_to_action, state.apply_move):
        try:
            call(text)
        except ValueError as error:
            assert str(error)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(min_value=-(2**40), max_value=2**40))
def test_bad_players_and_action_texts(variant, number):
    state = menagerie.Game(variant).new_initial_state()
    for call in (state.observation_tensor, state.information_state_string, state.observation_string):
        if number in (0, 1):
            call(number)
        else:
            with pytest.raises(ValueError, match="not a player"):
                call(number)
    try:
        text = state.action_to_string(number)
    except (ValueError, OverflowError):
        pass
    else:
        assert isinstance(text, str)


def test_bad_search_and_perft_arguments():
    state = menagerie.Game("lma").new_initial_state()
    with pytest.raises(ValueError, match="unknown"):
        menagerie.search(state, nodes=10, player="deep-blue")
    with pytest.raises(ValueError):
        menagerie.search(state)
    with pytest.raises(ValueError):
        menagerie.search(state, time=-1.0)
    with pytest.raises(ValueError, match="unknown variant"):
        menagerie.perft("chess", 1)
    with pytest.raises(ValueError):
        menagerie.perft("lma", 1, "not a position")
    with pytest.raises(ValueError, match="no move to undo"):
        state.undo_action()

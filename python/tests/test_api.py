"""The package's own API, on every variant."""

import pickle
import random

import menagerie
import numpy as np
import pytest

from conftest import VARIANTS

# INTERFACES.md's ids, in registry order.
IDS = ["lma", "lma-double", "fluid", "fluid-single-promo", "fluid-double-promo", "lichen", "lichen-3x3", "kelasu", "lunch"]


def test_variants_are_the_interface_ids():
    assert menagerie.variants() == IDS


def play_random(state, rng, plies):
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_game_describes_itself(variant):
    game = menagerie.Game(variant)
    assert game.variant() == variant
    assert game.num_players() == 2
    assert game.num_distinct_actions() > 0
    assert game.max_game_length() > 0
    kind = game.game_type()
    assert kind["dynamics"] == "sequential" and kind["utility"] == "zero_sum"
    assert kind["information"] == ("imperfect" if variant == "lunch" else "perfect")
    assert game.has_chance() == (variant == "lunch")
    state = game.new_initial_state()
    tensor = state.observation_tensor(0)
    assert tensor.dtype == np.float32 and list(tensor.shape) == game.observation_tensor_shape()


def test_actions_round_trip_through_texts_in_random_play(variant):
    game = menagerie.Game(variant)
    rng = random.Random(5)
    state = game.new_initial_state()
    for _ in range(150):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [a for a, _ in outcomes] == actions
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        assert actions == sorted(set(actions)) and actions
        assert all(0 <= a < game.num_distinct_actions() for a in actions)
        texts = [state.action_to_string(a) for a in actions]
        assert sorted(texts) == state.legal_moves()
        assert [state.string_to_action(t) for t in texts] == actions
        mask = state.legal_actions_mask()
        assert mask.dtype == np.int8 and list(np.flatnonzero(mask)) == actions
        before = state.serialize()
        action = rng.choice(actions)
        state.apply_action(action)
        state.undo_action(action=action)
        assert state.serialize() == before
        state.apply_action(action)
        assert state.history_texts()[-1] == texts[actions.index(action)]


def test_serialize_round_trips_and_clones_are_independent(variant):
    game = menagerie.Game(variant)
    state = play_random(game.new_initial_state(), random.Random(9), 40)
    copy = game.deserialize_state(state.serialize())
    assert copy.serialize() == state.serialize()
    assert copy.legal_actions() == state.legal_actions()
    clone = state.clone()
    if not clone.is_terminal():
        clone.apply_action(clone.legal_actions()[0])
        assert clone.serialize() != state.serialize() or clone.history_texts() != state.history_texts()


def test_a_finished_game_has_returns(variant):
    game = menagerie.Game(variant)
    rng = random.Random(3)
    state = play_random(game.new_initial_state(), rng, game.max_game_length())
    assert state.is_terminal()
    assert state.current_player() == menagerie.TERMINAL_PLAYER
    assert state.legal_actions() == []
    returns = state.returns()
    assert sum(returns) == 0 and set(returns) <= {-1.0, 0.0, 1.0}
    assert state.outcome()
    assert state.outcome() in str(state)
    with pytest.raises(ValueError, match="over"):
        state.apply_action(0)


def two_ply_count(state):
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += len(child.legal_actions())
    return total


@pytest.mark.parametrize("variant", ["lma", "fluid", "lichen-3x3", "kelasu"])
def test_perft_counts_the_paths_the_actions_give(variant):
    start = menagerie.Game(variant).new_initial_state()
    assert menagerie.perft(variant, 1) == len(start.legal_actions())
    assert menagerie.perft(variant, 2) == two_ply_count(start)
    assert menagerie.perft(variant, 1, "startpos") == menagerie.perft(variant, 1)
    assert menagerie.perft(variant, 1, start.serialize()) == menagerie.perft(variant, 1)


def test_search_finds_a_legal_move():
    state = menagerie.Game("lma").new_initial_state()
    found = menagerie.search(state, nodes=2000)
    assert found["action"] in state.legal_actions()
    assert state.action_to_string(found["action"]) == found["move"]
    assert found["line"][0] == found["move"]
    assert found["score"].split()[0] in {"cp", "win", "loss"}
    lunch = play_random(menagerie.Game("lunch").new_initial_state(), random.Random(1), 400)
    while lunch.is_chance_node():
        lunch.apply_action(lunch.chance_outcomes()[0][0])
    if not lunch.is_terminal():
        found = menagerie.search(lunch, nodes=200, player="ismcts")
        assert found["action"] in lunch.legal_actions()


def test_str_draws_the_position():
    text = str(menagerie.Game("fluid").new_initial_state())
    assert "white to act" in text


def test_variant_strings_with_spaces_are_refused():
    for text in (" lma", "lma ", "\tlma", "lunch:princess "):
        with pytest.raises(ValueError, match="spaces"):
            menagerie.Game(text)


def test_games_pickle_and_compare(variant):
    game = menagerie.Game(variant)
    again = pickle.loads(pickle.dumps(game))
    assert again == game and hash(again) == hash(game) and again.variant() == variant
    assert again != menagerie.Game("kelasu" if variant != "kelasu" else "lma")


SMALL_DECK = (
    '[[card]]\nname = "Jab"\ncode = "jab"\nkind = "attack"\ncount = 12\ndamage = 1\nnumbers = "confirmed"\n'
    '[[card]]\nname = "Dodge"\ncode = "dodge"\nkind = "dodge"\ncount = 10\nnumbers = "confirmed"\n'
)


def test_a_deck_file_is_kept_with_the_game(tmp_path):
    deck = tmp_path / "small.toml"
    deck.write_text(SMALL_DECK)
    game = menagerie.Game(f"lunch:deck={deck}")
    state = play_random(game.new_initial_state(), random.Random(2), 30)
    pickled_game, pickled_state = pickle.dumps(game), pickle.dumps(state)
    deck.unlink()
    with pytest.raises(ValueError, match="cannot be read"):
        menagerie.Game(f"lunch:deck={deck}")
    assert pickle.loads(pickled_game) == game
    again = pickle.loads(pickled_state)
    assert again.serialize() == state.serialize() and again.legal_moves() == state.legal_moves()
    assert again.get_game().variant() == f"lunch:deck={deck}"
    with pytest.raises(ValueError, match="names no data|cannot be read|not a regular file"):
        menagerie.Game(f"lunch:deck={tmp_path}")


def test_legal_actions_of_a_player():
    state = menagerie.Game("lunch").new_initial_state()
    assert state.current_player() == menagerie.CHANCE_PLAYER
    assert state.legal_actions(menagerie.CHANCE_PLAYER) == state.legal_actions()
    assert state.legal_actions(0) == [] and state.legal_actions(1) == []
    for player in (7, -4, 2, -2):
        with pytest.raises(ValueError, match="not a player"):
            state.legal_actions(player=player)


def test_undo_goes_back_to_the_root_and_no_further():
    game = menagerie.Game("kelasu")
    state = play_random(game.new_initial_state(), random.Random(8), 20)
    read = game.deserialize_state(state.position_text())
    with pytest.raises(ValueError, match="no move to undo"):
        read.undo_action()
    texts = state.history_texts()
    for text in reversed(texts):
        assert state.history_texts()[-1] == text
        state.undo_action()
    assert state.serialize() == game.new_initial_state().serialize()


PUBLIC_MODULES = ["menagerie", "menagerie.openspiel", "menagerie.pettingzoo"]


def public_callables():
    import importlib
    import inspect

    for name in PUBLIC_MODULES:
        module = importlib.import_module(name)
        for attribute, value in vars(module).items():
            if attribute.startswith("_") or not callable(value):
                continue
            if getattr(value, "__module__", "").split(".")[0] not in ("menagerie",):
                continue
            yield f"{name}.{attribute}", value
            if inspect.isclass(value):
                for method, member in vars(value).items():
                    if not method.startswith("_") and callable(member):
                        yield f"{name}.{attribute}.{method}", member


def test_every_public_callable_has_a_docstring():
    undocumented = [name for name, value in public_callables() if not (getattr(value, "__doc__", None) or "").strip()]
    assert undocumented == []
    assert len(list(public_callables())) > 100

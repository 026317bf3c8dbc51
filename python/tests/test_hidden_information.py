"""What a player sees never depends on what it may not see (Lunch Chess's
other hand and the draw pile), and its information state has perfect
recall: it grows with every move, never forgets, and two states give a
player the same one exactly when that player cannot tell them apart."""

import random

import menagerie
import numpy as np


def random_step(state, rng):
    if state.is_chance_node():
        actions, probabilities = zip(*state.chance_outcomes())
        return rng.choices(actions, probabilities)[0]
    return rng.choice(state.legal_actions())


def lunch_games(seeds, plies):
    """Random Lunch Chess games: each state along them, every ply."""
    game = menagerie.Game("lunch")
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        for _ in range(plies):
            if state.is_terminal():
                break
            yield state
            state.apply_action(random_step(state, rng))


def test_states_differing_only_in_hidden_cards_look_alike_to_the_blind_player():
    pairs = 0
    for ply, state in enumerate(lunch_games(range(8), 700)):
        if state.is_chance_node():
            continue
        for player in (0, 1):
            other = state.resample(player, seed=ply)
            if other.position_text() == state.position_text():
                continue  # the sample dealt the same cards
            pairs += 1
            # The hidden parts differ, yet this player sees the same...
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.observation_string(player) == state.observation_string(player)
            assert np.array_equal(other.observation_tensor(player), state.observation_tensor(player))
            if state.current_player() == player:
                assert other.legal_actions() == state.legal_actions()
                assert np.array_equal(other.legal_actions_mask(), state.legal_actions_mask())
            # ...while the other player, whose hand changed, does not.
            assert other.observation_string(1 - player) != state.observation_string(1 - player)
            assert other.information_state_string(1 - player) != state.information_state_string(1 - player)
    assert pairs >= 3000, pairs


def test_the_views_hide_the_other_hand_and_the_draw_pile():
    for ply, state in enumerate(lunch_games([4], 120)):
        full = state.position_text().split(" ")
        for player in (0, 1):
            seen = state.observation_string(player).split(" ")
            assert seen[3 + player] == full[3 + player], "a player sees its own hand"
            assert seen[4 - player] == "#" + str(hand_size(full[4 - player])), "and only the size of the other"
            assert seen[5].startswith("#"), "the draw pile is a count"


def hand_size(pile):
    if pile == "-":
        return 0
    return sum(int(item.split("*")[1]) if "*" in item else 1 for item in pile.split(","))


def test_information_states_have_perfect_recall():
    """Along random games, each player's information state extends the one
    before by one line (nothing is forgotten), that line is the move when
    the player saw it and `?` for a card drawn into the other hand."""
    hidden_draws = [0, 0]
    for seed in range(6):
        game = menagerie.Game("lunch")
        rng = random.Random(seed)
        state = game.new_initial_state()
        before = [state.information_state_string(p) for p in (0, 1)]
        for _ in range(500):
            if state.is_terminal():
                break
            chance = state.is_chance_node()
            action = random_step(state, rng)
            text = state.action_to_string(action)
            mine_before = [state.position_text().split(" ")[3 + p] for p in (0, 1)]
            state.apply_action(action)
            for player in (0, 1):
                now = state.information_state_string(player)
                assert now.startswith(before[player] + "\n"), "nothing is forgotten"
                line = now[len(before[player]) + 1 :]
                assert "\n" not in line
                mine_now = state.position_text().split(" ")[3 + player]
                if chance and mine_now == mine_before[player]:
                    # A card went to the other hand: this player saw a draw, not the card.
                    assert line == "?"
                    hidden_draws[player] += 1
                else:
                    assert line == text
                before[player] = now
    assert min(hidden_draws) > 50, hidden_draws


def test_states_that_one_player_cannot_tell_apart_stay_alike_for_it():
    """A state sampled for a player (the other hand dealt anew) has that
    player's information state; playing on both with the same moves keeps
    them alike for it, through draws it sees and draws it does not, and
    apart for the other player."""
    checked = 0
    for ply, played in enumerate(lunch_games(range(3), 400)):
        if ply % 25 or played.is_chance_node():
            continue
        state = played.clone()
        player = state.current_player()
        sample = state.resample(player, seed=ply)
        rng = random.Random(ply)
        for _ in range(60):
            if state.is_terminal():
                break
            action = random_step(state, rng)
            if action not in sample.legal_actions():
                break  # the other hand holds another answer: the games part
            state.apply_action(action)
            sample.apply_action(action)
            seen_card = state.position_text().split(" ")[3 + player] == sample.position_text().split(" ")[3 + player]
            assert seen_card, "both drew the same card into this player's hand"
            assert sample.information_state_string(player) == state.information_state_string(player)
            checked += 1
    assert checked > 100, checked


def test_perfect_information_games_recall_the_moves():
    state = menagerie.Game("lma").new_initial_state()
    start = state.information_state_string(0)
    assert start == state.position_text() == state.serialize()
    played = []
    for _ in range(2):
        played.append(state.legal_moves()[0])
        state.apply_move(played[-1])
    for player in (0, 1):
        assert state.information_state_string(player) == "\n".join([start, *played]) == state.serialize()
        assert state.observation_string(player) == state.position_text()

"""A random game of a Menagerie variant, move by move.

    python examples/random_game.py [VARIANT] [--seed N]
"""

import argparse
import random

import menagerie


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("variant", nargs="?", default="lunch")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    game = menagerie.Game(args.variant)
    rng = random.Random(args.seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            action = rng.choices(actions, probabilities)[0]
            who = "chance"
        else:
            action = rng.choice(state.legal_actions())
            who = game.player_name(state.current_player())
        print(f"{who}: {state.action_to_string(action)}")
        state.apply_action(action)
    print(state)
    print("returns:", state.returns())


if __name__ == "__main__":
    main()

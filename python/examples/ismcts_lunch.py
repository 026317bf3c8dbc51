"""An information-set MCTS match in Lunch Chess under OpenSpiel: ISMCTS
against a random player, colours swapped each game. Chance deals and draws
the cards; each searcher samples the cards it cannot see.

    python examples/ismcts_lunch.py [--simulations N] [--games N]
"""

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import menagerie.openspiel


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    menagerie.openspiel.register()
    game = pyspiel.load_game("menagerie_lunch")
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=args.simulations, random_state=rng)
    score = 0.0
    for index in range(args.games):
        ismcts_player = index % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes())
                action = rng.choice(actions, p=probabilities)
            elif state.current_player() == ismcts_player:
                action = searcher.step(state)
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        searcher.reset()
        result = state.returns()[ismcts_player]
        score += (result + 1) / 2
        print(f"game {index + 1}: ISMCTS as {game.menagerie.player_name(ismcts_player)}: {state.inner.outcome()}")
    print(f"ISMCTS scored {score} of {args.games} against random play")


if __name__ == "__main__":
    main()

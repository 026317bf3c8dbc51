"""OpenSpiel's MCTS against Menagerie's alpha-beta in LMA Chess.

    python examples/mcts_vs_alphabeta.py [--simulations N] [--nodes N] [--games N]

MCTS (random rollouts) plays through OpenSpiel's interface to the game
registered by menagerie.openspiel; alpha-beta is menagerie.search, the same
engine the server plays with. They swap colours each game.
"""

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import menagerie
import menagerie.openspiel


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", default="lma")
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--nodes", type=int, default=20000)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    menagerie.openspiel.register()
    game = pyspiel.load_game(menagerie.openspiel.game_name(args.variant))
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.simulations, evaluator=evaluator, random_state=rng)
    score = 0.0
    for index in range(args.games):
        mcts_player = index % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == mcts_player:
                action = bot.step(state)
            else:
                action = menagerie.search(state.inner, nodes=args.nodes, seed=args.seed + index)["action"]
            state.apply_action(action)
        result = state.returns()[mcts_player]
        score += (result + 1) / 2
        print(f"game {index + 1}: MCTS as {game.menagerie.player_name(mcts_player)}: "
              f"{state.inner.outcome()} after {len(state.history())} plies")
    print(f"MCTS scored {score} of {args.games} against alpha-beta")


if __name__ == "__main__":
    main()

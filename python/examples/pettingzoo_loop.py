"""PettingZoo's agent loop on a Menagerie environment, random legal moves
from the action mask.

    python examples/pettingzoo_loop.py [VARIANT] [--seed N]
"""

import argparse

import numpy as np

import menagerie.pettingzoo


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("variant", nargs="?", default="kelasu")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = menagerie.pettingzoo.env(args.variant, render_mode="ansi")
    env.reset(seed=args.seed)
    rng = np.random.default_rng(args.seed)
    steps = 0
    # What each agent was paid: env.last() gives the reward an agent earned
    # since it last acted, so the sum over its turns is its game's reward.
    rewards = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        rewards[agent] += reward
        if termination or truncation:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            steps += 1
        env.step(action)
    print(env.render())
    print(f"{steps} decisions; rewards: {rewards}")
    env.close()


if __name__ == "__main__":
    main()

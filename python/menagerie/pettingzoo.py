"""Menagerie's variants as PettingZoo AEC environments.

``env("lunch")`` is a two-agent environment named by the game's players
(``white``/``black``, Kelasu's ``blue``/``red``); the agent that acts is the
one whose decision is next (several in a row in Kelasu, an answer out of turn
in Lunch Chess). Observations are dicts of ``observation`` (the player's own
view as a float32 tensor) and ``action_mask`` (int8 over the action space).
Chance (Lunch Chess's cards) acts inside the environment, drawn with its
probabilities from the generator ``reset(seed=...)`` seeds. ``env.state()``
is the global view PettingZoo defines for centralised training: both
players' observations stacked (shape ``(2, *observation shape)``; in Lunch
Chess both hands), and ``env.game_state`` the ``menagerie.State`` itself.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from pettingzoo import AECEnv

import menagerie


def env(variant: str, render_mode: str | None = None) -> "MenagerieEnv":
    """The AEC environment of a variant string (``lunch:princess``)."""
    return MenagerieEnv(variant, render_mode=render_mode)


class MenagerieEnv(AECEnv):
    """A Menagerie variant as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["ansi", "human"], "name": "menagerie", "is_parallelizable": False}

    def __init__(self, variant: str, render_mode: str | None = None):
        super().__init__()
        self.game = menagerie.Game(variant)
        self.metadata = dict(self.metadata, name="menagerie_" + self.game.variant().replace("-", "_"))
        self.render_mode = render_mode
        self.possible_agents = [self.game.player_name(0), self.game.player_name(1)]
        actions = self.game.num_distinct_actions()
        shape = tuple(self.game.observation_tensor_shape())
        self.action_spaces = {agent: gymnasium.spaces.Discrete(actions) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(-np.inf, np.inf, shape, np.float32),
                    "action_mask": gymnasium.spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.state_space = gymnasium.spaces.Box(-np.inf, np.inf, (2, *shape), np.float32)
        self._rng = np.random.default_rng()
        self.game_state = self.game.new_initial_state()

    def observation_space(self, agent):
        """The observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """The action space of ``agent``: the game's action indices."""
        return self.action_spaces[agent]

    def state(self) -> np.ndarray:
        """Both players' observations stacked, first player's first: the
        whole game for a centralised critic (never give it to a player)."""
        return np.stack([self.game_state.observation_tensor(player) for player in (0, 1)])

    def _player(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict:
        """``agent``'s observation and action mask."""
        player = self._player(agent)
        return {
            "observation": self.game_state.observation_tensor(player),
            "action_mask": self.game_state.legal_actions_mask(player),
        }

    def _let_chance_act(self) -> None:
        while self.game_state.is_chance_node():
            actions, probabilities = zip(*self.game_state.chance_outcomes())
            probabilities = np.asarray(probabilities) / np.sum(probabilities)
            self.game_state.apply_action(int(self._rng.choice(actions, p=probabilities)))

    def _select_actor(self) -> None:
        player = self.game_state.current_player()
        if player >= 0:
            self.agent_selection = self.possible_agents[player]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Starts a game (seeding chance's generator when ``seed`` is given)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game_state = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]
        self._let_chance_act()
        self._select_actor()

    def step(self, action) -> None:
        """Plays ``action`` for the agent to act (ValueError if illegal)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.game_state.apply_action(int(action))
        self._let_chance_act()
        self._cumulative_rewards[agent] = 0.0
        if self.game_state.is_terminal():
            returns = self.game_state.returns()
            for index, name in enumerate(self.agents):
                self.rewards[name] = float(returns[index])
                self.terminations[name] = True
        else:
            self._select_actor()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """The position as text (``ansi``) or printed (``human``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs a render_mode: ansi or human")
            return None
        text = str(self.game_state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

"""Menagerie's variants as OpenSpiel games.

``register()`` registers every variant with ``pyspiel.register_game`` as
``menagerie_<id with - as _>`` (``menagerie_lma_double``); each flag option
of a variant is a boolean game parameter with ``-`` as ``_``
(``pyspiel.load_game("menagerie_lunch(princess=True)")``). The games keep
Menagerie's action space: the indices documented on each rules page.
"""

from __future__ import annotations

import numpy as np
import pyspiel

import menagerie

_registered: dict[str, str] = {}


def game_name(variant_id: str) -> str:
    """The OpenSpiel name of a variant id: ``menagerie_lma_double``."""
    return "menagerie_" + variant_id.replace("-", "_")


def _flags(variant_id: str) -> list[str]:
    return [name for name, takes_value in menagerie.Game(variant_id).options() if not takes_value]


def _game_type(variant_id: str, game: menagerie.Game) -> pyspiel.GameType:
    kind = game.game_type()
    chance = (
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        if kind["chance_mode"] == "explicit_stochastic"
        else pyspiel.GameType.ChanceMode.DETERMINISTIC
    )
    information = (
        pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if kind["information"] == "imperfect"
        else pyspiel.GameType.Information.PERFECT_INFORMATION
    )
    return pyspiel.GameType(
        short_name=game_name(variant_id),
        long_name="Menagerie " + variant_id,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=information,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={flag.replace("-", "_"): False for flag in _flags(variant_id)},
    )


def _variant_string(variant_id: str, params: dict) -> str:
    chosen = [flag for flag in _flags(variant_id) if params.get(flag.replace("-", "_"), False)]
    return variant_id + (":" + ",".join(chosen) if chosen else "")


class _Observer:
    """OpenSpiel's observer of a Menagerie game: the observation tensor and
    the information state string of one player (never more than it may see)."""

    def __init__(self, game: menagerie.Game):
        shape = game.observation_tensor_shape()
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: "MenagerieState", player: int) -> None:
        self.tensor[:] = state.inner.observation_tensor(player).ravel()

    def string_from(self, state: "MenagerieState", player: int) -> str:
        return state.inner.information_state_string(player)


class MenagerieState(pyspiel.State):
    """An OpenSpiel state around a ``menagerie.State`` (``self.inner``)."""

    def __init__(self, game: "MenagerieGame", inner: menagerie.State):
        super().__init__(game)
        self.inner = inner

    def current_player(self) -> int:
        player = self.inner.current_player()
        if player == menagerie.TERMINAL_PLAYER:
            return pyspiel.PlayerId.TERMINAL
        if player == menagerie.CHANCE_PLAYER:
            return pyspiel.PlayerId.CHANCE
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return self.inner.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.inner.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.inner.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.inner.action_to_string(action)

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        return self.inner.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler=None) -> "MenagerieState":
        """A state ``player_id`` cannot tell from this one (for ISMCTS): the
        hidden cards dealt anew."""
        seed = int(np.random.randint(0, 2**63 - 1, dtype=np.int64))
        state = MenagerieState(self.get_game(), self.inner.resample(player_id, seed))
        return state

    def __str__(self) -> str:
        return str(self.inner)


class MenagerieGame(pyspiel.Game):
    """One Menagerie variant as an OpenSpiel game."""

    variant_id = ""

    def __init__(self, params=None):
        params = dict(params or {})
        self.menagerie = menagerie.Game(_variant_string(self.variant_id, params))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.menagerie.num_distinct_actions(),
            max_chance_outcomes=self.menagerie.max_chance_outcomes(),
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.menagerie.max_game_length(),
        )
        super().__init__(_game_type(self.variant_id, self.menagerie), info, params)

    def new_initial_state(self) -> MenagerieState:
        return MenagerieState(self, self.menagerie.new_initial_state())

    def make_py_observer(self, iig_obs_type=None, params=None) -> _Observer:
        return _Observer(self.menagerie)


def register() -> list[str]:
    """Registers every variant with pyspiel (once); returns the names."""
    for variant_id in menagerie.variants():
        name = game_name(variant_id)
        if name in _registered:
            continue
        game_class = type(
            "MenagerieGame_" + variant_id.replace("-", "_"), (MenagerieGame,), {"variant_id": variant_id}
        )
        pyspiel.register_game(_game_type(variant_id, menagerie.Game(variant_id)), game_class)
        _registered[name] = variant_id
    return list(_registered)

"""Menagerie's variants as OpenSpiel games.

``register()`` registers every variant with ``pyspiel.register_game`` as
``menagerie_<id with - as _>`` (``menagerie_lma_double``); each flag option
of a variant is a boolean game parameter with ``-`` as ``_``
(``pyspiel.load_game("menagerie_lunch(princess=True)")``), and Lunch Chess
takes ``deck`` (``standard``, or a deck file's path). The games keep
Menagerie's action space: the indices documented on each rules page.

The adapter is thin: a ``MenagerieState`` is a ``menagerie.State``
(``state.inner``) behind pyspiel's class. Every method a Python caller uses
is answered by the extension at once, without going through pyspiel's C++
and back (that round trip cost more than the game's own work); OpenSpiel's
C++ (``random_sim_test``, its C++ algorithms, ``serialize_game_and_state``)
reaches the same state through the methods pyspiel's trampoline calls.
The moves, the history and what each player saw live in ``state.inner``:
``history()``, ``serialize()`` and pickling read them there. (pyspiel's C++
copy of the history, which only C++ code reads, records only the moves
applied from C++.)
"""

from __future__ import annotations

import collections
from typing import Any, Callable, Optional

import numpy as np
import pyspiel

import menagerie

_registered: dict[str, str] = {}

_NO_TENSOR = (
    "Menagerie's games provide no information state tensor: a fixed-size tensor cannot hold "
    "a perfect-recall history; use information_state_string (perfect recall) or "
    "observation_tensor (what the player sees now)"
)

PlayerAction = collections.namedtuple("PlayerAction", ["player", "action"])
PlayerAction.__doc__ = "One move of ``full_history()``: who made it (-1: chance) and its action index."


def game_name(variant_id: str) -> str:
    """The OpenSpiel name of a variant id: ``menagerie_lma_double``."""
    return "menagerie_" + variant_id.replace("-", "_")


def _flags(variant_id: str) -> list[str]:
    return [name for name, takes_value in menagerie.Game(variant_id).options() if not takes_value]


def _valued(variant_id: str) -> list[str]:
    return [name for name, takes_value in menagerie.Game(variant_id).options() if takes_value]


def _parameters(variant_id: str) -> dict[str, Any]:
    parameters: dict[str, Any] = {flag.replace("-", "_"): False for flag in _flags(variant_id)}
    if "deck" in _valued(variant_id):
        parameters["deck"] = "standard"
    return parameters


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
        provides_information_state_string=kind["provides_information_state_string"],
        provides_information_state_tensor=kind["provides_information_state_tensor"],
        provides_observation_string=kind["provides_observation_string"],
        provides_observation_tensor=kind["provides_observation_tensor"],
        parameter_specification=_parameters(variant_id),
    )


def _variant_string(variant_id: str, params: dict) -> str:
    """The variant string of a game's parameters: the flags that are on, in
    the order the variant lists its options, then a deck other than the
    standard one."""
    chosen = [flag for flag in _flags(variant_id) if params.get(flag.replace("-", "_"), False)]
    deck = params.get("deck", "standard")
    if deck != "standard":
        chosen.append("deck=" + str(deck))
    return variant_id + (":" + ",".join(chosen) if chosen else "")


class _Observer:
    """OpenSpiel's observer of a Menagerie game for one kind of observation:
    what a player sees now (a tensor and a string), or with perfect recall
    (the information state: a string only; asking its tensor raises)."""

    def __init__(self, game: menagerie.Game, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        if perfect_recall:
            self.tensor: Optional[np.ndarray] = None
            self.dict: dict[str, np.ndarray] = {}
        else:
            shape = game.observation_tensor_shape()
            self.tensor = np.zeros(int(np.prod(shape)), np.float32)
            self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: "MenagerieState", player: int) -> None:
        """Writes ``player``'s observation tensor of ``state`` into ``tensor``."""
        if self.tensor is None:
            raise ValueError(_NO_TENSOR)
        self.tensor[:] = state.inner.observation_tensor(player).ravel()

    def string_from(self, state: "MenagerieState", player: int) -> str:
        """``player``'s information state string, or observation string."""
        if self.perfect_recall:
            return state.inner.information_state_string(player)
        return state.inner.observation_string(player)


def _load_game(game_string: str) -> "MenagerieGame":
    """Unpickles a ``MenagerieGame``: ``pyspiel.load_game`` of its string
    (``menagerie_lunch(princess=True)``), registering the games if needed."""
    register()
    return pyspiel.load_game(game_string)


def _restore_state(game_string: str, inner: menagerie.State) -> "MenagerieState":
    """Unpickles a ``MenagerieState`` (registering the games if needed)."""
    return MenagerieState(_load_game(game_string), inner)


class MenagerieState(pyspiel.State):
    """An OpenSpiel state around a ``menagerie.State`` (``self.inner``)."""

    def __init__(self, game: "MenagerieGame", inner: menagerie.State):
        super().__init__(game)
        self.inner = inner

    # What pyspiel's C++ trampoline calls (and Python callers too).

    def current_player(self) -> int:
        """0 or 1, ``pyspiel.PlayerId.CHANCE`` (-1), ``TERMINAL`` (-4)."""
        return self.inner.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.inner.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.inner.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.inner.action_to_string(action)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Chance's actions and their probabilities (empty unless chance acts)."""
        return self.inner.chance_outcomes()

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        """+1 for the winner, -1 for the loser at the end; 0 before."""
        return self.inner.returns()

    def rewards(self) -> list[float]:
        """The returns at the end, 0 before (rewards come at the end only)."""
        return self.inner.rewards()

    def __str__(self) -> str:
        return str(self.inner)

    # What Python callers use, answered by the extension directly.

    def legal_actions(self, player: Optional[int] = None) -> list[int]:
        """The legal action indices, ascending; with ``player``, empty unless
        that player acts (ValueError for a number that is no player)."""
        return self.inner.legal_actions(player)

    def legal_actions_mask(self, player: Optional[int] = None) -> np.ndarray:
        """An int8 numpy array over the action space, 1 at each legal action."""
        return self.inner.legal_actions_mask(player)

    def is_chance_node(self) -> bool:
        """Whether chance acts next."""
        return self.inner.is_chance_node()

    def is_player_node(self) -> bool:
        """Whether a player acts next."""
        return self.inner.is_player_node()

    def apply_action(self, action: int) -> None:
        """Plays a legal action; ValueError for any other."""
        self.inner.apply_action(action)

    def apply_action_with_legality_check(self, action: int) -> None:
        """``apply_action``, which always checks."""
        self.inner.apply_action(action)

    def undo_action(self, player: Optional[int] = None, action: Optional[int] = None) -> None:
        """Takes back the last move (``player`` and ``action``, if given,
        must be its); ValueError when there is none."""
        self.inner.undo_action(player, action)

    def clone(self) -> "MenagerieState":
        """An independent copy."""
        return MenagerieState(self.get_game(), self.inner.clone())

    def __copy__(self) -> "MenagerieState":
        return self.clone()

    def __deepcopy__(self, memo: Any) -> "MenagerieState":
        return self.clone()

    def child(self, action: int) -> "MenagerieState":
        """A copy with ``action`` applied."""
        state = self.clone()
        state.inner.apply_action(action)
        return state

    def history(self) -> list[int]:
        """The actions applied since the start (or the position read)."""
        return self.inner.history()

    def history_str(self) -> str:
        """``history()`` as OpenSpiel writes it: ``"3, 17, 5"``."""
        return ", ".join(map(str, self.inner.history()))

    def full_history(self) -> list[PlayerAction]:
        """``history()`` with who made each move."""
        return [PlayerAction(player, action) for player, action in self.inner.full_history()]

    def move_number(self) -> int:
        """The number of moves applied since the start."""
        return self.inner.move_number()

    def is_initial_state(self) -> bool:
        """Whether no move has been applied since the start."""
        return self.inner.move_number() == 0

    def action_to_string(self, player_or_action: int, action: Optional[int] = None) -> str:
        """The move text of an action: ``(action)`` or ``(player, action)``."""
        return self.inner.action_to_string(player_or_action, action)

    def string_to_action(self, player_or_text: Any, text: Optional[str] = None) -> int:
        """The action of a legal move text: ``(text)`` or ``(player, text)``."""
        return self.inner.string_to_action(player_or_text, text)

    def player_return(self, player: int) -> float:
        """``returns()[player]``."""
        return self.inner.player_return(player)

    def player_reward(self, player: int) -> float:
        """``rewards()[player]``."""
        return self.inner.player_return(player)

    def information_state_string(self, player: Optional[int] = None) -> str:
        """What ``player`` (default: the one to act) has seen, with perfect
        recall: its view of the start and every move since, an outcome of
        chance it did not see as ``?``."""
        return self.inner.information_state_string(self.current_player() if player is None else player)

    def information_state_tensor(self, player: Optional[int] = None) -> list[float]:
        """Refused (ValueError): the game type provides no information state tensor."""
        raise ValueError(_NO_TENSOR)

    def observation_string(self, player: Optional[int] = None) -> str:
        """What ``player`` (default: the one to act) sees now, as text."""
        return self.inner.observation_string(self.current_player() if player is None else player)

    def to_string(self) -> str:
        """``str(state)``."""
        return str(self.inner)

    def serialize(self) -> str:
        """The whole state as text (``menagerie.State.serialize``):
        ``game.deserialize_state`` reads it back."""
        return self.inner.serialize()

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Optional[Callable[[], float]] = None
    ) -> "MenagerieState":
        """A state ``player_id`` cannot tell from this one (for ISMCTS): the
        cards it cannot see dealt anew; its information state string is
        this one's."""
        seed = int(np.random.randint(0, 2**63 - 1, dtype=np.int64))
        return MenagerieState(self.get_game(), self.inner.resample(player_id, seed))

    def __reduce__(self) -> tuple:
        return (_restore_state, (str(self.get_game()), self.inner))


class MenagerieGame(pyspiel.Game):
    """One Menagerie variant as an OpenSpiel game."""

    variant_id = ""

    def __init__(self, params: Optional[dict] = None):
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
        """The state before the first move."""
        return MenagerieState(self, self.menagerie.new_initial_state())

    def deserialize_state(self, text: str) -> MenagerieState:
        """The state ``MenagerieState.serialize()`` wrote (or a position text)."""
        return MenagerieState(self, self.menagerie.deserialize_state(text))

    def __reduce__(self) -> tuple:
        return (_load_game, (str(self),))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer of what a player sees now, or with perfect recall
        (``iig_obs_type.perfect_recall``): the information state."""
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and self.menagerie.has_hidden_information():
            if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
                raise ValueError("Menagerie's observers show one player's own cards: private_info=SINGLE_PLAYER")
        return _Observer(self.menagerie, perfect_recall)


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

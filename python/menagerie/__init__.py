"""Menagerie's games for Python.

``menagerie.Game("lunch:princess")`` is one variant; its states number their
moves in the game's fixed action space (documented on each game's rules page,
``docs/<game>.md``) and read and write Menagerie's move and position texts.
``menagerie.openspiel.register()`` makes every variant an OpenSpiel game;
``menagerie.pettingzoo.env(variant)`` is a PettingZoo AEC environment;
``menagerie.VectorEnv(variant, n)`` steps n games in one call, with numpy
observations and masks. ``Game`` and ``State`` pickle; a state's
``serialize()`` text holds the whole state.

Every wrong value a caller can give (an illegal action, a bad position
text, an unknown variant, a negative or huge number) raises ``ValueError``
with Menagerie's message; an argument of the wrong type raises
``TypeError``, as Python does. The reference is ``docs/python.md``.
"""

from ._menagerie import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    Game,
    State,
    VectorEnv,
    perft,
    random_playouts,
    search,
    variants,
)

__all__ = [
    "CHANCE_PLAYER",
    "TERMINAL_PLAYER",
    "Game",
    "State",
    "VectorEnv",
    "perft",
    "random_playouts",
    "search",
    "variants",
]

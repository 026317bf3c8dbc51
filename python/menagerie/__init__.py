"""Menagerie's games for Python.

``menagerie.Game("lunch:princess")`` is one variant; its states number their
moves in the game's fixed action space (documented on each game's rules page,
``docs/<game>.md``) and read and write Menagerie's move and position texts.
``menagerie.openspiel.register()`` makes every variant an OpenSpiel game;
``menagerie.pettingzoo.env(variant)`` is a PettingZoo AEC environment.

Every mistake a caller can make (an illegal action, a bad position text, an
unknown variant) raises ``ValueError`` with Menagerie's message.
"""

from ._menagerie import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    Game,
    State,
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
    "perft",
    "random_playouts",
    "search",
    "variants",
]

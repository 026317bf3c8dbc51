"""The examples run to their end (with small settings)."""

import pathlib
import subprocess
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"

RUNS = [
    ["random_game.py", "lunch", "--seed", "1"],
    ["random_game.py", "kelasu"],
    ["mcts_vs_alphabeta.py", "--simulations", "2", "--nodes", "300", "--games", "1"],
    ["ismcts_lunch.py", "--simulations", "2", "--games", "1"],
    ["pettingzoo_loop.py", "lichen"],
]


@pytest.mark.parametrize("run", RUNS, ids=lambda run: " ".join(run))
def test_example_runs(run):
    done = subprocess.run([sys.executable, str(EXAMPLES / run[0]), *run[1:]], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()

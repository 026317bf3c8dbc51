"""The examples run to their end (with small settings)."""

import ast
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


def run_example(run):
    done = subprocess.run([sys.executable, str(EXAMPLES / run[0]), *run[1:]], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    return done.stdout


@pytest.mark.parametrize("run", RUNS, ids=lambda run: " ".join(run))
def test_example_runs(run):
    run_example(run)


def test_the_pettingzoo_example_prints_what_each_agent_won():
    for variant, agents in (("lichen-3x3", ("white", "black")), ("kelasu", ("blue", "red"))):
        last = run_example(["pettingzoo_loop.py", variant, "--seed", "3"]).strip().splitlines()[-1]
        rewards = ast.literal_eval(last.split("rewards: ", 1)[1])
        assert set(rewards) == set(agents)
        assert sum(rewards.values()) == 0 and set(rewards.values()) <= {-1.0, 0.0, 1.0}

"""Random playouts driven from Python, plies per second per variant, beside
OpenSpiel's own chess driven the same way in the same run, and the same
playouts run inside Rust (menagerie.random_playouts: the same action-space
calls without the Python loop), to show the cost of the Python boundary.

    python bench/playouts.py [--seconds S] [--variants lma,fluid,...]

Each Python loop asks the legal actions (chance: its outcomes, drawn with
their probabilities), picks one with `random`, applies it, until the game
is over; a measurement plays whole games for at least S seconds of CPU.
"""

import argparse
import random
import time

import menagerie


def python_playouts(new_state, seconds, rng):
    plies = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = new_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probabilities)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
    return plies / (time.process_time() - start)


def rust_playouts(variant, seconds):
    games, plies, elapsed = 1, 0, 0.0
    while elapsed < seconds:
        start = time.process_time()
        plies += menagerie.random_playouts(variant, games, seed=games)
        elapsed += time.process_time() - start
        games *= 2
    return plies / elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--variants", default=",".join(menagerie.variants()))
    args = parser.parse_args()
    rng = random.Random(1)

    try:
        import pyspiel

        chess = pyspiel.load_game("chess")
        chess_rate = python_playouts(chess.new_initial_state, args.seconds, rng)
        print(f"{'openspiel chess':22} python {chess_rate:12,.0f} plies/s")
    except ImportError:
        chess_rate = None
        print("open_spiel is not installed: no chess figure")

    for variant in args.variants.split(","):
        game = menagerie.Game(variant)
        from_python = python_playouts(game.new_initial_state, args.seconds, rng)
        in_rust = rust_playouts(variant, args.seconds)
        ratio = f"  {from_python / chess_rate:5.1f}x openspiel chess" if chess_rate else ""
        print(f"{variant:22} python {from_python:12,.0f} plies/s   rust {in_rust:12,.0f} plies/s{ratio}")


if __name__ == "__main__":
    main()

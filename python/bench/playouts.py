"""Random playouts driven from Python, plies per second per variant, both
ways a researcher drives a game: through ``menagerie.State`` directly and
through OpenSpiel (``pyspiel.load_game("menagerie_<id>")``, the states
OpenSpiel's algorithms see), beside OpenSpiel's own chess driven the same
way in the same run; then the same playouts inside Rust
(``menagerie.random_playouts``: the same calls without the Python loop),
and ``menagerie.VectorEnv`` stepping N games at once.

    python bench/playouts.py [--seconds S] [--variants lma,fluid,...] [--envs N]

Each Python loop asks whether the game is over and whether chance acts,
then the legal actions (chance: its outcomes, drawn with their
probabilities), picks one with ``random``, applies it, until the game is
over; a measurement plays whole games for at least S seconds of CPU. The
vector figure is plies per second summed over the N games of
``env.step(env.sample_actions())`` with ``copy=False``: one move in each
game, chance acting inside, and every game's observation tensor and
action mask (the whole action space) written into numpy arrays each step.
"""

import argparse
import random
import time

import menagerie

try:
    import pyspiel

    import menagerie.openspiel
except ImportError:
    pyspiel = None


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


def vector_playouts(variant, envs, seconds):
    env = menagerie.VectorEnv(variant, envs, seed=1, copy=False)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.step(env.sample_actions())
        steps += 1
    return steps * envs / (time.process_time() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--variants", default=",".join(menagerie.variants()))
    parser.add_argument("--envs", type=int, default=64, help="games stepped at once by VectorEnv")
    args = parser.parse_args()
    rng = random.Random(1)

    chess_rate = None
    if pyspiel:
        menagerie.openspiel.register()
        chess_rate = python_playouts(pyspiel.load_game("chess").new_initial_state, args.seconds, rng)

    print(f"plies per second (CPU time), {args.seconds:g} s a figure")
    print(f"{'':22} {'direct':>10} {'pyspiel':>10} {'x chess':>8} {'rust':>12} {f'vector({args.envs})':>12}")
    if chess_rate:
        print(f"{'openspiel chess':22} {'':>10} {chess_rate:10,.0f} {1.0:8.2f}")
    else:
        print("open_spiel is not installed: no pyspiel or chess figures")
    for variant in args.variants.split(","):
        direct = python_playouts(menagerie.Game(variant).new_initial_state, args.seconds, rng)
        through, ratio = "", ""
        if pyspiel:
            game = pyspiel.load_game(menagerie.openspiel.game_name(variant))
            rate = python_playouts(game.new_initial_state, args.seconds, rng)
            through, ratio = f"{rate:10,.0f}", f"{rate / chess_rate:8.2f}"
        in_rust = rust_playouts(variant, args.seconds)
        vector = vector_playouts(variant, args.envs, args.seconds)
        print(f"{variant:22} {direct:10,.0f} {through:>10} {ratio:>8} {in_rust:12,.0f} {vector:12,.0f}")


if __name__ == "__main__":
    main()

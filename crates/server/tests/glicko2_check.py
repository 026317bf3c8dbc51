#!/usr/bin/env python3
"""Ratings recomputed apart from the server, for tests/ratings.rs.

A second computation of Glicko-2, transcribed here from Glickman's "Example
of the Glicko-2 system" (2013) and the rules docs/api.md states (lichess's
parameters: start 1500 / 500 / 0.09, tau 0.75, deviation growing by 0.21436
rating periods a day since a player's last rated game, deviation 45 to 500,
volatility at most 0.1, rating at least 400 and moving at most 700 a game).
It shares no code with crates/league, so a slip in either shows.

Reads on stdin the rated games in the order they ended:
    [{"perf": "nim", "players": ["a", "b"], "score": 1.0, "at": <ms>}, ...]
(`score`: the first player's, 1 / 0.5 / 0). Writes on stdout every player's
ratings after them: {"a": {"nim": [rating, deviation, volatility]}, ...}.
"""

import json
import math
import sys

SCALE = 173.7178
START = (1500.0, 500.0, 0.09)
TAU = 0.75
PERIODS_A_DAY = 0.21436
RD_RANGE = (45.0, 500.0)
VOLATILITY_MAX = 0.1
RATING_MIN = 400.0
MOVE_MAX = 700.0
DAY_MS = 86_400_000.0


def within_bounds(rating, rd, vol):
    return max(rating, RATING_MIN), min(max(rd, RD_RANGE[0]), RD_RANGE[1]), min(vol, VOLATILITY_MAX)


def idle(player, days):
    """Step 6 for a player who played no game for `days` days."""
    rating, rd, vol = player
    phi = rd / SCALE
    periods = max(days, 0.0) * PERIODS_A_DAY
    return within_bounds(rating, SCALE * math.sqrt(phi * phi + periods * vol * vol), vol)


def g_of(phi):
    return 1.0 / math.sqrt(1.0 + 3.0 * phi ** 2 / math.pi ** 2)


def sigma_prime(phi, sigma, delta, v):
    """Step 5 (the Illinois iteration, as the paper gives it)."""
    a = math.log(sigma ** 2)

    def f(x):
        e = math.exp(x)
        return e * (delta ** 2 - phi ** 2 - v - e) / (2.0 * (phi ** 2 + v + e) ** 2) - (x - a) / TAU ** 2

    big_a = a
    if delta ** 2 > phi ** 2 + v:
        big_b = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    fa, fb = f(big_a), f(big_b)
    while abs(big_b - big_a) > 0.000001:
        big_c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(big_c)
        if fc * fb < 0:
            big_a, fa = big_b, fb
        else:
            fa = fa / 2.0
        big_b, fb = big_c, fc
    return math.exp(big_a / 2.0)


def one_game(player, opponent, score):
    """Steps 2 to 8 for one game, the idle time already in the deviation."""
    mu, phi, sigma = (player[0] - 1500.0) / SCALE, player[1] / SCALE, player[2]
    mu_j, phi_j = (opponent[0] - 1500.0) / SCALE, opponent[1] / SCALE
    g = g_of(phi_j)
    e = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
    v = 1.0 / (g * g * e * (1.0 - e))
    delta = v * g * (score - e)
    sigma_new = sigma_prime(phi, sigma, delta, v)
    phi_new = 1.0 / math.sqrt(1.0 / phi ** 2 + 1.0 / v)
    mu_new = mu + phi_new ** 2 * g * (score - e)
    rating = SCALE * mu_new + 1500.0
    rating = min(max(rating, player[0] - MOVE_MAX), player[0] + MOVE_MAX)
    return within_bounds(rating, SCALE * phi_new, sigma_new)


def main():
    games = json.load(sys.stdin)
    ratings = {}  # (player, perf) -> (rating, rd, vol, last game ms)
    for game in games:
        perf, at = game["perf"], game["at"]
        now = []
        for player in game["players"]:
            stored = ratings.get((player, perf))
            if stored is None:
                now.append(START)
            else:
                now.append(idle(stored[:3], (at - stored[3]) / DAY_MS))
        first = one_game(now[0], now[1], game["score"])
        second = one_game(now[1], now[0], 1.0 - game["score"])
        for player, new in zip(game["players"], (first, second)):
            ratings[(player, perf)] = (*new, at)
    out = {}
    for (player, perf), (rating, rd, vol, _) in ratings.items():
        out.setdefault(player, {})[perf] = [rating, rd, vol]
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()

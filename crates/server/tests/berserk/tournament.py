"""berserk joins a private arena with a tournament:write token, as lichess's
clients do (berserk sends the password in the query string), and withdraws;
then blocks a player (the token has follow:write too). Prints what it saw.

Usage: tournament.py BASE_URL TOKEN TOURNAMENT_ID PASSWORD PLAYER_TO_BLOCK
"""

import sys

import berserk


def main():
    base, token, tournament, password, player = sys.argv[1:6]
    session = berserk.TokenSession(token)
    client = berserk.Client(session, base_url=base)
    try:
        client.tournaments.join_arena(tournament, password="not the password")
        print("joined with a wrong password")
    except berserk.exceptions.ResponseError as error:
        print(f"refused {error.status_code}")
    client.tournaments.join_arena(tournament, password=password, should_pair_immediately=True)
    print("joined")
    client.tournaments.withdraw_arena(tournament)
    print("withdrew")
    # berserk has no block yet: its session posts as lichess's clients do.
    answer = session.post(f"{base}/api/rel/block/{player}")
    print(f"blocked {answer.status_code} {answer.json()}")


if __name__ == "__main__":
    main()

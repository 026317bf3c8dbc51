"""lichess's own Python client, berserk, drives Menagerie's Bot and Board API
through whole games: one account upgrades to a bot and plays through the bot
API, the other plays through the board API; the board player challenges, the
bot hears it on its event stream and accepts, both stream the game and move
(a random legal move, chosen from what their own stream shows them) when the
stream says it is their turn, until the game ends.

Usage: play.py BASE_URL BOT_TOKEN BOT_NAME BOARD_TOKEN BOARD_NAME VARIANT...
Prints one line per game: `<variant> <game id> <status> <winner> <plies>`.
"""

import random
import sys
import threading

import berserk
from berserk.exceptions import ResponseError


def next_of(events, kind):
    """The next event of `kind` (others skipped)."""
    for event in events:
        if event.get("type") == kind:
            return event
    raise AssertionError(f"the event stream ended before a {kind}")


def play(api, game_id, name, seed, outcome, key):
    """Plays `name`'s seat of the game from its stream until it ends."""
    rng = random.Random(seed)
    colour = None
    refused = 0
    for line in api.stream_game_state(game_id):
        if line["type"] == "gameFull":
            colour = "white" if line["white"].get("name") == name else "black"
            assert line[colour]["name"] == name, line
            state = line["state"]
        elif line["type"] == "gameState":
            state = line
        else:
            continue
        if state["status"] != "started":
            outcome[key] = state
            return
        if state.get("toMove") == colour:
            try:
                api.make_move(game_id, rng.choice(state["legalMoves"]))
            except ResponseError as error:
                # A line may be stale by the time the move arrives (a new
                # one follows); a move refused again and again is a failure.
                refused += 1
                assert refused < 20, f"{name}: moves refused: {error}"
    raise AssertionError(f"{name}: the stream of {game_id} ended before the game")


def main():
    base, bot_token, bot_name, board_token, board_name, *variants = sys.argv[1:]
    bot = berserk.Client(session=berserk.TokenSession(bot_token), base_url=base)
    board = berserk.Client(session=berserk.TokenSession(board_token), base_url=base)

    bot.account.upgrade_to_bot()
    assert bot.account.get()["title"] == "BOT"

    bot_events = bot.bots.stream_incoming_events()
    board_events = board.board.stream_incoming_events()
    for n, variant in enumerate(variants):
        challenge = board.challenges.create(bot_name, rated=False, variant=variant, color="random")
        heard = next_of(bot_events, "challenge")["challenge"]
        assert heard["id"] == challenge["id"], (heard, challenge)
        assert heard["variant"]["key"] == variant, heard
        assert heard["challenger"]["name"] == board_name, heard
        mine = board.challenges.get_mine()
        assert [c["id"] for c in mine["out"]] == [challenge["id"]], mine

        bot.bots.accept_challenge(challenge["id"])
        started = next_of(bot_events, "gameStart")["game"]
        game_id = started["gameId"]
        assert started["variant"]["key"] == variant, started
        assert started["opponent"]["username"] == board_name, started
        assert next_of(board_events, "gameStart")["game"]["gameId"] == game_id

        outcome = {}
        players = [
            threading.Thread(target=play, args=(bot.bots, game_id, bot_name, 2 * n, outcome, "bot")),
            threading.Thread(target=play, args=(board.board, game_id, board_name, 2 * n + 1, outcome, "board")),
        ]
        for player in players:
            player.start()
        for player in players:
            player.join()
        assert set(outcome) == {"bot", "board"}, f"{variant}: a player failed"
        end_bot, end_board = outcome["bot"], outcome["board"]
        assert end_bot["status"] == end_board["status"] != "started", (end_bot, end_board)
        assert end_bot.get("winner") == end_board.get("winner")
        # Once over, the move lists are public and the same for both.
        assert end_bot["moves"] == end_board["moves"]
        finished = next_of(bot_events, "gameFinish")["game"]
        assert finished["gameId"] == game_id, finished
        plies = len(end_bot["moves"].split(" "))
        print(variant, game_id, end_bot["status"], end_bot.get("winner", "none"), plies, flush=True)


if __name__ == "__main__":
    main()

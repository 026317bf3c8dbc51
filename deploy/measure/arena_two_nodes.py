#!/usr/bin/env python3
"""An arena on two nodes with one killed midway (issue 38's measure).

Starts two `menagerie serve` processes on one PostgreSQL database, makes
eight accounts (six people playing through the JSON API with their session,
two bots playing through the Bot API with a token), an arena of MINUTES
minutes, and plays random legal moves for everyone until it finishes. Node
A is killed (SIGKILL) at the arena's middle and started again a minute
later; players on A move to B meanwhile. At the end it checks that every
game was paired and scored once and that both nodes show the same standings.

    python3 deploy/measure/arena_two_nodes.py target/release/menagerie postgres://user@127.0.0.1:5432/db [MINUTES]

The database must exist and be empty (the script creates everything in it).
Only the standard library is used.
"""

import http.cookiejar
import json
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

BINARY, DATABASE = sys.argv[1], sys.argv[2]
MINUTES = int(sys.argv[3]) if len(sys.argv) > 3 else 5
PORTS = {"a": 18431, "b": 18432}
NAMES = ["ann", "ben", "cat", "dan", "eve", "fay", "botty", "robo"]
BOTS = {"botty", "robo"}
PASSWORD = "correct horse battery"


def start(node):
    process = subprocess.Popen(
        [BINARY, "serve", "--db", DATABASE, "--addr", f"127.0.0.1:{PORTS[node]}", "--bots-rated-vs-people"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{PORTS[node]}/readyz", timeout=1)
            return process
        except Exception:
            time.sleep(0.1)
    raise SystemExit(f"node {node} did not start")


nodes = {"a": start("a"), "b": start("b")}


def stop_nodes():
    for process in nodes.values():
        process.terminate()


import atexit  # noqa: E402

atexit.register(stop_nodes)
alive = {"a": True, "b": True}


class Client:
    """A player: its cookies, its node, and a token if a bot."""

    def __init__(self, name, node):
        self.name, self.node, self.token = name, node, None
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(self, method, path, body=None, token=False):
        for _ in range(50):
            node = self.node if alive[self.node] else ("b" if self.node == "a" else "a")
            url = f"http://127.0.0.1:{PORTS[node]}{path}"
            data = json.dumps(body if body is not None else {}).encode() if method != "GET" else None
            request = urllib.request.Request(url, data=data, method=method)
            if data is not None:
                request.add_header("Content-Type", "application/json")
            if token:
                request.add_header("Authorization", f"Bearer {self.token}")
            try:
                with self.opener.open(request, timeout=10) as response:
                    text = response.read()
                    return response.status, (json.loads(text) if text else None)
            except urllib.error.HTTPError as error:
                text = error.read()
                try:
                    return error.code, json.loads(text)
                except ValueError:
                    return error.code, None
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.2)  # the node is down: the next try goes to the other
        raise SystemExit(f"{self.name}: no node answers {path}")


clients = [Client(name, "a" if i % 2 == 0 else "b") for i, name in enumerate(NAMES)]
for client in clients:
    status, body = client.call("POST", "/api/register", {"username": client.name, "password": PASSWORD})
    assert status == 201, (status, body)
creator = clients[0]
status, arena = creator.call(
    "POST",
    "/api/tournament",
    {"name": "Two nodes", "variant": "lma", "clockTime": 1, "clockIncrement": 0, "minutes": MINUTES,
     "startDate": int(time.time() * 1000) + 8000},
)
assert status == 201, (status, arena)
arena_id = arena["id"]
for client in clients:
    if client.name in BOTS:
        status, token = client.call("POST", "/api/tokens", {"description": "arena", "scopes": ["bot:play"]})
        assert status in (200, 201), (status, token)
        client.token = token["token"]
        status, body = client.call("POST", "/api/bot/account/upgrade", token=True)
        assert status == 200, (status, body)
    status, body = client.call("POST", f"/api/tournament/{arena_id}/join")
    assert status == 200, (client.name, status, body)

moves_made = {name: 0 for name in NAMES}
finished = threading.Event()


def play(client):
    rng = random.Random(client.name)
    while not finished.is_set():
        status, t = client.call("GET", f"/api/tournament/{arena_id}")
        if status == 200 and t["status"] == "finished":
            return
        game = (t.get("me") or {}).get("gameId") if status == 200 else None
        if not game:
            time.sleep(0.3)
            continue
        status, state = client.call("GET", f"/api/games/{game}")
        if status != 200 or state.get("result") or not state.get("your_turn") or not state.get("legal_moves"):
            time.sleep(0.1)
            continue
        move = rng.choice(state["legal_moves"])
        if client.token:
            path = f"/api/bot/game/{game}/move/{urllib.parse.quote(move, safe='')}"
            status, _ = client.call("POST", path, token=True)
        else:
            status, _ = client.call("POST", f"/api/games/{game}/move", {"move": move})
        if status == 200:
            moves_made[client.name] += 1


threads = [threading.Thread(target=play, args=(c,)) for c in clients]
began = time.time()
for thread in threads:
    thread.start()
time.sleep(8 + MINUTES * 30)
nodes["a"].send_signal(signal.SIGKILL)
alive["a"] = False
killed_at = time.time() - began
print(f"node a killed at {killed_at:.0f} s", flush=True)
time.sleep(60)
nodes["a"] = start("a")
alive["a"] = True
print(f"node a back at {time.time() - began:.0f} s", flush=True)
for thread in threads:
    thread.join(timeout=MINUTES * 60 + 300)
finished.set()

views = {}
for node in ("a", "b"):
    with urllib.request.urlopen(f"http://127.0.0.1:{PORTS[node]}/api/tournament/{arena_id}", timeout=10) as response:
        views[node] = json.loads(response.read())
t = views["b"]
games = t["games"]
counted = sum(p["nbGames"] for p in t["standing"]["players"])
ids = [g["id"] for g in games]
print(f"arena of {len(NAMES)} players ({len(BOTS)} bots), {MINUTES} minutes, status {t['status']}")
print(f"games paired: {len(games)}, distinct: {len(set(ids))}, scored: {sum(1 for g in games if g['result'])}")
print(f"games counted in the standings: {counted} (two a game: {2 * len(games)})")
print(f"moves made: {sum(moves_made.values())}")
print("standings identical on both nodes:", views["a"]["standing"] == views["b"]["standing"])
print("podium:", [(p["name"], p["score"]) for p in t.get("podium", [])])
ok = (
    t["status"] == "finished"
    and len(set(ids)) == len(ids)
    and all(g["result"] for g in games)
    and counted == 2 * len(games)
    and views["a"]["standing"] == views["b"]["standing"]
)
sys.exit(0 if ok else 1)

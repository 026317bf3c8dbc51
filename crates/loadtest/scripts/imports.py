"""Import figures against a running server (issue 36's measurement):

    menagerie serve --addr 127.0.0.1:8090 --db /tmp/imports.sqlite &
    menagerie selfplay lma --white random --black random --games 1 --seed 5 --records long.pgn
    python3 crates/loadtest/scripts/imports.py http://127.0.0.1:8090   # in the folder of long.pgn

1. one import of a 512 KiB record with as many empty tags as fit (time, status);
2. one import of a long legal record (the 664-ply LMA game in long.pgn) (time, status);
3. the p50/p90 of plain requests (GET /api/games/<id>) alone, then while
   4 clients import the many-tag record in a loop, then while 4 import
   the long legal record in a loop.
"""
import http.client, json, sys, threading, time, statistics, urllib.parse

base = urllib.parse.urlparse(sys.argv[1])

def request(method, path, body=None):
    c = http.client.HTTPConnection(base.hostname, base.port, timeout=120)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    t = time.perf_counter()
    c.request(method, path, body=body, headers=headers)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, time.perf_counter() - t, data

def tags_record():
    tags = []
    n = 0
    size = len('{"record": "[Variant \\"lma\\"] *"}')
    while True:
        tag = f'[T{n} \\"\\"]\\n'
        if size + len(tag) > 512 * 1024:
            break
        tags.append(tag); size += len(tag); n += 1
    body = '{"record": "' + "".join(tags) + '[Variant \\"lma\\"] *"}'
    assert len(body) <= 512 * 1024
    return body.encode(), n + 1

def long_record():
    # An LMA game of 664 plies (menagerie selfplay lma --white random --black random
    # --games 1 --seed 5 --records long.pgn)
    return json.dumps({"record": open("long.pgn").read()}).encode()

tag_body, tag_count = tags_record()
long_body = long_record()
status, secs, data = request("POST", "/api/games", json.dumps({"variant": "lma", "opponent": "local"}).encode())
game = json.loads(data)["id"]

for name, body in [(f"{tag_count} tags, {len(tag_body)} bytes", tag_body), ("lma 664 plies", long_body)]:
    times = []
    for _ in range(3):
        status, secs, data = request("POST", "/api/games/import", body)
        times.append(secs)
    print(f"import {name}: status {status}, median {statistics.median(times)*1000:.0f} ms of 3 ({data[:90]!r})")

def plain_latencies(seconds):
    out = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        status, secs, _ = request("GET", f"/api/games/{game}")
        assert status == 200
        out.append(secs)
        time.sleep(0.02)
    return out

def under_load(body, label):
    stop = threading.Event()
    counts = []
    def importer():
        n = 0
        while not stop.is_set():
            request("POST", "/api/games/import", body); n += 1
        counts.append(n)
    threads = [threading.Thread(target=importer) for _ in range(4)]
    for t in threads: t.start()
    time.sleep(0.5)
    lat = plain_latencies(8)
    stop.set()
    for t in threads: t.join()
    q = statistics.quantiles(lat, n=10) if len(lat) > 1 else [lat[0]] * 9
    print(f"plain GET while 4 clients import {label}: p50 {statistics.median(lat)*1000:.1f} ms, p90 {q[8]*1000:.1f} ms ({len(lat)} requests; {sum(counts)} imports)")

lat = plain_latencies(4)
print(f"plain GET alone: p50 {statistics.median(lat)*1000:.1f} ms ({len(lat)} requests)")
under_load(tag_body, f"the {tag_count}-tag record")
under_load(long_body, "lma 664 plies")

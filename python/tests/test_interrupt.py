"""Ctrl-C stops perft and search: SIGINT while one runs raises
KeyboardInterrupt in the caller (the computation stops rather than run on)."""

import signal
import subprocess
import sys

import pytest

CALLS = {
    "perft": "menagerie.perft('lichen', 9)",
    "search": "menagerie.search(menagerie.Game('lichen').new_initial_state(), depth=60)",
    "playouts": "menagerie.random_playouts('lunch', 10**9)",
}


@pytest.mark.parametrize("call", CALLS, ids=list(CALLS))
def test_ctrl_c_stops_it(call):
    code = f"import menagerie; print('started', flush=True); {CALLS[call]}; print('finished')"
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout.readline().strip() == "started"
    # Wait until the computation itself runs (imports done), then interrupt.
    try:
        process.wait(timeout=1.0)
    except subprocess.TimeoutExpired:
        pass
    process.send_signal(signal.SIGINT)
    # Far longer than stopping takes (a twentieth of a second), far
    # shorter than the computation would.
    out, err = process.communicate(timeout=60)
    assert "KeyboardInterrupt" in err, err
    assert "finished" not in out
    assert process.returncode != 0

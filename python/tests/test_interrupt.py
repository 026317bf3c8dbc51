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
    # A process started in the background by a shell without job control
    # (as a CI script may start the suite) inherits SIGINT ignored, and
    # Python then leaves it ignored; at a terminal Python has its handler,
    # so the child is given it here, whoever started the tests.
    code = (
        "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
        f"import menagerie; print('started', flush=True); {CALLS[call]}; print('finished')"
    )
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
    try:
        out, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()  # not left running beside the rest of the suite
        process.communicate()
        raise
    assert "KeyboardInterrupt" in err, err
    assert "finished" not in out
    assert process.returncode != 0

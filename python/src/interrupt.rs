//! Long computations (perft, search, playouts) that Ctrl-C stops: the work
//! runs on a thread of its own while the interpreter's thread waits for it
//! without the GIL, looking for a signal every few hundredths of a second;
//! on one it tells the work to stop, waits for it to notice, and raises
//! the signal's exception (KeyboardInterrupt).

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::Duration;

/// How often the waiting thread looks for a signal.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` on another thread; `stop` asks it to end early (it then
/// returns whatever it has, which is dropped).
pub fn run_interruptible<T: Send>(
    py: Python<'_>,
    stop: impl Fn() + Sync,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (sender, mut receiver) = channel();
        scope.spawn(move || {
            let _ = sender.send(catch_unwind(AssertUnwindSafe(work)));
        });
        loop {
            let (back, received) = py.detach(move || {
                let received = receiver.recv_timeout(SIGNAL_POLL);
                (receiver, received)
            });
            receiver = back;
            match received {
                Ok(Ok(result)) => return Ok(result),
                Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err("internal error: the computation failed"))
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(signal) = py.check_signals() {
                        stop();
                        py.detach(move || drop(receiver.recv()));
                        return Err(signal);
                    }
                }
            }
        }
    })
}

//! Standard output for the commands that must outlive their reader: `serve`,
//! `bot`, `loadtest`, `engine`, `backup` and `migrate` keep SIGPIPE ignored
//! (see `Command::prints_only`), so a closed pipe turns into a failed write,
//! which `println!` would turn into a panic.

use std::fmt::Display;
use std::io::Write;

/// Prints a line; true if it was written. A reader that has gone (`serve |
/// head -1`) is no reason for a server to stop.
pub fn say(line: impl Display) -> bool {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}").and_then(|()| out.flush()).is_ok()
}

/// A line of the engine's protocol. A GUI that closed the engine's output
/// has gone: nobody will read a move again, so the engine ends, quietly and
/// successfully (a search thread may be the one to notice).
pub fn send(line: impl Display) {
    if !say(line) {
        std::process::exit(0);
    }
}

/// Prints a line on standard error; a closed one is no reason to stop.
pub fn say_err(line: impl Display) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

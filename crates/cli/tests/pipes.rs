//! A reader that closes early (`menagerie moves lichen | head -3`) ends every
//! printing command quietly, as coreutils end: by SIGPIPE, with nothing on
//! stderr, never a panic. The commands that talk to peers (the engine, the
//! load test; the server and the bot in tests/hangups.rs) never die of
//! SIGPIPE: a socket's peer hanging up would kill them too.

use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};

/// The write end of a pipe whose reader is already gone: the first write
/// into it fails, whatever the timing.
fn closed_pipe() -> Stdio {
    let mut reader = Command::new("true").stdin(Stdio::piped()).spawn().expect("`true` runs");
    let writer = reader.stdin.take().unwrap();
    // Once `true` has exited, nobody holds the read end.
    reader.wait().unwrap();
    Stdio::from(writer)
}

fn run_into_closed_pipe(args: &[&str], input: &str) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(closed_pipe())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A command that ends before reading gives a broken pipe here: fine.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_pipe_ends_every_printing_command_quietly() {
    let commands: Vec<(Vec<&str>, &str)> = vec![
        (vec!["variants"], ""),
        (vec!["moves", "lichen"], ""),
        (vec!["perft", "lma", "2"], ""),
        (vec!["perft", "lma", "1", "--divide"], ""),
        (vec!["show", "lma"], ""),
        (vec!["show", "lunch", "--seed", "1", "--text"], ""),
        (vec!["bench", "lichen-3x3", "--seconds", "0.01"], ""),
        (vec!["bench", "lichen-3x3", "--seconds", "0.01", "--playouts"], ""),
        (vec!["analyse", "lma", "--depth", "1"], ""),
        (vec!["selfplay", "lichen-3x3", "--games", "1", "--white", "random", "--black", "random"], ""),
        (vec!["play", "lichen-3x3", "--white", "random", "--black", "random"], ""),
        (vec!["play", "lma", "--white", "human", "--black", "random"], "quit\n"),
        (vec!["--help"], ""),
        (vec!["--version"], ""),
    ];
    for (args, input) in commands {
        let out = run_into_closed_pipe(&args, input);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.is_empty(), "menagerie {}: said {stderr:?}", args.join(" "));
        assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "menagerie {}: {:?}", args.join(" "), out.status);
    }
}

#[test]
fn the_engine_and_the_load_test_end_successfully_when_their_reader_has_gone() {
    // A GUI that closed the engine's output has gone: the engine ends, with
    // nothing on stderr and success, not by a signal.
    for (args, input) in
        [(vec!["engine"], "uci\nisready\ngo depth 2\nquit\n"), (vec!["loadtest", "--games", "1", "--plies", "2"], "")]
    {
        let out = run_into_closed_pipe(&args, input);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.is_empty(), "menagerie {}: said {stderr:?}", args.join(" "));
        assert_eq!(out.status.code(), Some(0), "menagerie {}: {:?}", args.join(" "), out.status);
    }
}

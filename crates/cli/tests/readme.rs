//! Every `menagerie ...` example of the README runs as shown.
//!
//! Each example is taken from a code span of README.md (the commands table
//! and the prose; a span with a `<placeholder>` or `...` is a pattern,
//! not an example), run by `sh` from an empty folder with stdin closed and the
//! binary first on PATH, and must end with status 0 and, for a pipeline,
//! nothing on stderr. Two kinds cannot simply be waited for, and are
//! bounded on a stated rule rather than skipped:
//! - `serve` runs until stopped, on an address that may be taken on the
//!   machine running the tests: it runs as shown with `--help` appended,
//!   which checks every flag and value of the example and exits. So does
//!   `bot`, which plays on a server until stopped.
//! - `migrate` and `backup` copy the `menagerie.sqlite` that `serve` keeps
//!   in the current folder: their examples run with such a file there (no games).
//! - a workload the example makes long (`selfplay --games 100`, `loadtest
//!   --games 1000`): a command still at work after [`BUDGET`] without a
//!   word on stderr has accepted its arguments (errors in them are reported
//!   at once) and counts as running as shown; it is stopped there.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BUDGET: Duration = Duration::from_secs(5);

/// The examples: code spans that start with `menagerie ` and hold no
/// `<placeholder>` or `...`.
fn examples(readme: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (index, span) in readme.split('`').enumerate() {
        // Odd pieces are inside backticks; a span may wrap across lines.
        let span = span.replace('\n', " ");
        if index % 2 == 1 && span.starts_with("menagerie ") && !span.contains('<') && !span.contains("...") {
            // A `|` inside a table cell is written `\|`.
            found.push(span.replace("\\|", "|"));
        }
    }
    found
}

/// Whether `line` is more than one command: a pipeline or an `&&` list.
fn compound(line: &str) -> bool {
    line.contains(" | ") || line.contains(" && ")
}

enum Ran {
    Finished { status: std::process::ExitStatus, stderr: String },
    StillWorking { stderr: String },
}

fn run(line: &str, folder: &Path) -> Ran {
    let binary = Path::new(env!("CARGO_BIN_EXE_menagerie"));
    let path = format!("{}:{}", binary.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    // A single command replaces the shell (`exec`), so that stopping the
    // child stops the command itself; a pipeline or a list (`a && b`)
    // stays under the shell, and must end.
    let script = if compound(line) { line.to_owned() } else { format!("exec {line}") };
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .env("PATH", path)
        .current_dir(folder)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let started = Instant::now();
    let stderr = |child: &mut std::process::Child| {
        let mut text = String::new();
        child.stderr.take().unwrap().read_to_string(&mut text).unwrap();
        text
    };
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Ran::Finished { status, stderr: stderr(&mut child) };
        }
        if started.elapsed() > BUDGET {
            child.kill().unwrap();
            child.wait().unwrap();
            assert!(!compound(line), "`{line}` did not end");
            return Ran::StillWorking { stderr: stderr(&mut child) };
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn every_command_example_of_the_readme_runs_as_shown() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let examples = examples(&readme);
    assert!(examples.len() >= 12, "found only {examples:?}");
    let mut commands_seen = std::collections::BTreeSet::new();
    for example in &examples {
        let command = example.split_whitespace().nth(1).unwrap().to_owned();
        let line = if command == "serve" || command == "bot" { format!("{example} --help") } else { example.clone() };
        // Every command of a list or pipeline counts as shown.
        let words: Vec<&str> = example.split_whitespace().collect();
        commands_seen.extend(words.windows(2).filter(|w| w[0] == "menagerie").map(|w| w[1].to_owned()));
        let folder = tempfile::tempdir().unwrap();
        if command == "migrate" || command == "backup" {
            // `migrate` and `backup` copy the games `serve` kept in the current folder:
            // the folder gets such a file (with its schema, no games).
            drop(menagerie_server::store::SqliteStore::open(&folder.path().join("menagerie.sqlite")).unwrap());
        }
        match run(&line, folder.path()) {
            Ran::Finished { status, stderr } => {
                assert!(status.success(), "`{example}` failed ({status}): {stderr}");
                if example.contains(" | ") {
                    assert!(stderr.is_empty(), "`{example}` said: {stderr}");
                }
            }
            Ran::StillWorking { stderr } => {
                assert!(stderr.trim().is_empty(), "`{example}` complained while working: {stderr}");
            }
        }
    }
    // The table shows every command.
    for command in [
        "variants", "perft", "moves", "show", "bench", "analyse", "play", "selfplay", "replay", "engine", "serve",
        "migrate", "backup", "loadtest", "bot", "datagen", "train",
    ] {
        assert!(commands_seen.contains(command), "the README shows no example of `{command}`");
    }
}

#[test]
fn examples_are_found_in_tables_and_prose() {
    let readme = "run `menagerie moves lma --position 'a b\\|c 1'` or `menagerie\nvariants`; not `cargo test`, \
                  nor `menagerie <command> ...`, nor `menagerie ...`";
    assert_eq!(examples(readme), ["menagerie moves lma --position 'a b|c 1'", "menagerie variants"]);
}

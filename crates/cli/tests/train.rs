//! `menagerie train` (docs/nnue.md): from datagen files to a network file
//! that reads back with the game's inputs and a header saying how it was
//! made; bad input is a clear error and writes nothing.

use menagerie_core::nnue::{Base, Network};
use std::path::Path;
use std::process::{Command, Output};

fn menagerie(args: &[&str], folder: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_menagerie")).args(args).current_dir(folder).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn datagen(folder: &Path, variant: &str, games: &str, out: &str) {
    let ran = menagerie(&["datagen", variant, "--games", games, "--nodes", "300", "--out", out], folder);
    assert!(ran.status.success(), "{}", text(&ran.stderr));
}

/// Each command fails with a usage error (exit 2) that names what was
/// wrong, without a panic, and writes no `x.bin`.
fn assert_refused(folder: &Path, cases: &[(&[&str], &str)]) {
    for (args, named) in cases {
        let ran = menagerie(args, folder);
        let stderr = text(&ran.stderr);
        assert_eq!(ran.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(named), "{args:?} should name {named}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!folder.join("x.bin").exists(), "{args:?} wrote a file");
    }
}

#[test]
fn a_trained_network_reads_back_with_its_games_inputs_and_how_it_was_made() {
    let folder = tempfile::tempdir().unwrap();
    datagen(folder.path(), "lichen", "40", "lichen.data");
    let args = ["train", "lichen", "--data", "lichen.data", "--out", "lichen.bin", "--epochs", "2", "--hidden", "8"];
    let ran = menagerie(&args, folder.path());
    assert!(ran.status.success(), "{}", text(&ran.stderr));
    assert!(text(&ran.stdout).contains("wrote lichen.bin"), "{}", text(&ran.stdout));
    let bytes = std::fs::read(folder.path().join("lichen.bin")).unwrap();
    let network = Network::from_bytes(&bytes).unwrap();
    assert_eq!(network.features, "lichen-1");
    assert_eq!(network.hidden(), 8);
    assert_eq!(network.base, Base::Tuned);
    assert_eq!(network.about_value("game"), Some("lichen"));
    assert_eq!(network.about_value("epochs"), Some("2"));
    let command = network.about_value("command").unwrap();
    assert!(command.starts_with("menagerie train lichen --data lichen.data"), "{command}");
    let data = network.about_value("data").unwrap();
    assert!(data.starts_with("menagerie datagen lichen --first-game 0 --games 40 --nodes 300"), "{data}");
    let loss: f64 = network.about_value("validation loss").unwrap().parse().unwrap();
    assert!(loss.is_finite() && loss > 0.0 && loss < 0.5, "{loss}");
    // Written back, the same bytes.
    assert_eq!(Network::from_bytes(&network.to_bytes()).unwrap().to_bytes(), bytes);

    // The same command again: the same network (seeded, one thread's order).
    std::fs::rename(folder.path().join("lichen.bin"), folder.path().join("first.bin")).unwrap();
    let again = menagerie(&args, folder.path());
    assert!(again.status.success(), "{}", text(&again.stderr));
    let first = Network::from_bytes(&std::fs::read(folder.path().join("first.bin")).unwrap()).unwrap();
    let second = Network::from_bytes(&std::fs::read(folder.path().join("lichen.bin")).unwrap()).unwrap();
    assert_eq!(first.about_value("validation loss"), second.about_value("validation loss"));

    // --alone trains the network as the whole evaluation.
    let alone = menagerie(
        &[
            "train",
            "lichen",
            "--data",
            "lichen.data",
            "--out",
            "alone.bin",
            "--epochs",
            "1",
            "--hidden",
            "4",
            "--alone",
        ],
        folder.path(),
    );
    assert!(alone.status.success(), "{}", text(&alone.stderr));
    let alone = Network::from_bytes(&std::fs::read(folder.path().join("alone.bin")).unwrap()).unwrap();
    assert_eq!(alone.base, Base::Nothing);
}

#[test]
fn training_goes_on_from_a_network_file_and_keeps_it_when_no_epoch_improves() {
    let folder = tempfile::tempdir().unwrap();
    datagen(folder.path(), "lichen", "40", "lichen.data");
    let first = ["train", "lichen", "--data", "lichen.data", "--out", "first.bin", "--epochs", "1", "--hidden", "8"];
    let ran = menagerie(&first, folder.path());
    assert!(ran.status.success(), "{}", text(&ran.stderr));
    let read = |name: &str| Network::from_bytes(&std::fs::read(folder.path().join(name)).unwrap()).unwrap();
    let start = read("first.bin");

    // Its size comes from the file; the header names where it started.
    let args =
        ["train", "lichen", "--data", "lichen.data", "--out", "next.bin", "--epochs", "2", "--from", "first.bin"];
    let ran = menagerie(&args, folder.path());
    let stderr = text(&ran.stderr);
    assert!(ran.status.success(), "{stderr}");
    assert!(stderr.contains("epoch 0 (the network started from)"), "{stderr}");
    let next = read("next.bin");
    assert_eq!(next.hidden(), 8);
    assert_eq!(next.about_value("from"), Some("first.bin"));
    let from_command = next.about_value("from command").unwrap();
    assert!(from_command.contains("--out first.bin"), "{from_command}");
    let start_loss: f64 = start.about_value("validation loss").unwrap().parse().unwrap();
    let next_loss: f64 = next.about_value("validation loss").unwrap().parse().unwrap();
    assert!(next_loss <= start_loss, "went on from {start_loss} to a worse {next_loss}");

    // A learning rate that throws the weights about improves nothing: the
    // network started from is kept as it was.
    let still = [
        "train",
        "lichen",
        "--data",
        "lichen.data",
        "--out",
        "still.bin",
        "--epochs",
        "1",
        "--from",
        "next.bin",
        "--learning-rate",
        "1",
    ];
    let ran = menagerie(&still, folder.path());
    assert!(ran.status.success(), "{}", text(&ran.stderr));
    let still = read("still.bin");
    assert_eq!(still.about_value("kept epoch"), Some("0"));
    assert_eq!(still.about_value("loss"), Some("none (no epoch improved on the network started from)"));
    let positions = [(vec![0u16, 9, 40], vec![3u16, 17]), (vec![], vec![1u16]), (vec![5u16; 4], vec![])];
    for (own, theirs) in &positions {
        assert_eq!(still.evaluate(own, theirs), next.evaluate(own, theirs));
    }

    // A network that does not fit is refused, naming why, and nothing is written.
    datagen(folder.path(), "fluid", "2", "fluid.data");
    let cases: &[(&[&str], &str)] = &[
        (&["train", "lichen", "--data", "lichen.data", "--out", "x.bin", "--from", "missing.bin"], "missing.bin"),
        (&["train", "lichen", "--data", "lichen.data", "--out", "x.bin", "--from", "lichen.data"], "lichen.data"),
        (&["train", "fluid", "--data", "fluid.data", "--out", "x.bin", "--from", "first.bin"], "lichen-1"),
        (
            &["train", "lichen", "--data", "lichen.data", "--out", "x.bin", "--from", "first.bin", "--hidden", "16"],
            "8 hidden",
        ),
        (&["train", "lichen", "--data", "lichen.data", "--out", "x.bin", "--from", "first.bin", "--alone"], "--alone"),
    ];
    assert_refused(folder.path(), cases);
}

#[test]
fn bad_input_is_a_clear_error_and_writes_nothing() {
    let folder = tempfile::tempdir().unwrap();
    datagen(folder.path(), "fluid", "2", "fluid.data");
    std::fs::write(folder.path().join("junk.data"), b"not a datagen file at all").unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["train", "lichen", "--data", "missing.data", "--out", "x.bin"], "missing.data"),
        (&["train", "lichen", "--data", "fluid.data", "--out", "x.bin"], "fluid"),
        (&["train", "fluid", "--data", "junk.data", "--out", "x.bin"], "junk.data"),
        (&["train", "fluid", "--data", "fluid.data", "--out", "x.bin", "--blend", "2"], "--blend"),
        (&["train", "fluid", "--data", "fluid.data", "--out", "x.bin", "--learning-rate", "0"], "--learning-rate"),
        (&["train", "fluid", "--data", "fluid.data", "--out", "x.bin", "--hidden", "0"], "--hidden"),
        (&["train", "nosuchgame", "--data", "fluid.data", "--out", "x.bin"], "nosuchgame"),
        (&["train", "fluid", "--out", "x.bin"], "--data"),
    ];
    assert_refused(folder.path(), cases);
}

//! The cluster files of deploy/studies/ run as shown: the Slurm job array
//! script (each task a shard, then the merge) and the commands of the
//! Kubernetes Indexed Job and its merge Job, run here by `sh` with the
//! environment each scheduler gives. The merged study is the same games as
//! one run, and verifies.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn binary_path() -> String {
    let binary = Path::new(env!("CARGO_BIN_EXE_menagerie"));
    format!("{}:{}", binary.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default())
}

fn run(command: &mut Command) {
    let out = command.env("PATH", binary_path()).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn digests(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("digests.txt")).unwrap()
}

const STUDY: [&str; 7] = ["lichen-3x3", "--games", "5", "--nodes", "200", "--random-plies", "2"];

fn reference(tmp: &Path) -> String {
    let dir = tmp.join("one-run");
    let mut args = vec!["study"];
    args.extend(STUDY);
    args.extend(["--quiet", "--out", dir.to_str().unwrap()]);
    run(Command::new(env!("CARGO_BIN_EXE_menagerie")).args(&args));
    digests(&dir)
}

fn verify(dir: &Path) {
    run(Command::new(env!("CARGO_BIN_EXE_menagerie")).args(["study", "verify", dir.to_str().unwrap()]));
}

#[test]
fn the_slurm_job_array_plays_shards_then_merges_them() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let script = root().join("deploy/studies/slurm.sbatch");
    for task in ["1", "2", "3"] {
        run(Command::new("bash")
            .arg(&script)
            .arg(&out)
            .args(STUDY)
            .env("SLURM_ARRAY_TASK_ID", task)
            .env("SLURM_ARRAY_TASK_COUNT", "3")
            .env("SLURM_CPUS_PER_TASK", "1"));
    }
    // The merge: the same script, outside the array.
    run(Command::new("bash").arg(&script).arg(&out).args(STUDY).env_remove("SLURM_ARRAY_TASK_ID"));
    assert_eq!(digests(&out.join("study")), reference(tmp.path()));
    verify(&out.join("study"));
}

/// The shell command of a Job file: the folded block after `- >-`, or the
/// one line after `- exec`, with the volume's mount point moved to `volume`.
fn job_command(file: &str, volume: &Path) -> String {
    let text = std::fs::read_to_string(root().join("deploy/studies").join(file)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let command = if let Some(start) = lines.iter().position(|l| l.trim() == "- >-") {
        let indent = lines[start + 1].len() - lines[start + 1].trim_start().len();
        lines[start + 1..]
            .iter()
            .take_while(|l| l.len() - l.trim_start().len() >= indent && !l.trim().is_empty())
            .map(|l| l.trim())
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        let line = lines.iter().find(|l| l.trim().starts_with("- exec ")).expect("a command");
        line.trim().trim_start_matches("- ").to_owned()
    };
    command.replace("/studies", volume.to_str().unwrap())
}

/// The value of the environment variable `name` in a Job file.
fn job_env(file: &str, name: &str) -> String {
    let text = std::fs::read_to_string(root().join("deploy/studies").join(file)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| l.trim() == format!("- name: {name}")).expect("the variable");
    lines[at + 1].trim().trim_start_matches("value: ").trim_matches('"').to_owned()
}

#[test]
fn the_kubernetes_indexed_job_plays_shards_then_merges_them() {
    let tmp = tempfile::tempdir().unwrap();
    let volume = tmp.path().join("volume");
    std::fs::create_dir(&volume).unwrap();
    let shard = job_command("study-job.yaml", &volume);
    assert!(job_env("study-job.yaml", "STUDY").starts_with("lichen "), "the file shows a real study");
    let study = STUDY.join(" ");
    for index in 0..3 {
        run(Command::new("sh")
            .args(["-c", &shard])
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .env("SHARDS", "3")
            .env("STUDY", &study));
    }
    run(Command::new("sh").args(["-c", &job_command("study-merge.yaml", &volume)]));
    let merged = volume.join("out/study");
    assert_eq!(digests(&merged), reference(tmp.path()));
    verify(&merged);
}

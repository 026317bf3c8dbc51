//! The load test at CI size: 200 concurrent games on loopback, each playing
//! random legal moves through the HTTP API with a WebSocket watching; no
//! move may be lost or duplicated. `MENAGERIE_LOAD_GAMES` and
//! `MENAGERIE_LOAD_PLIES` make it bigger; `menagerie loadtest` runs it too.

use menagerie_loadtest::{run_local, LoadOptions, LocalDatabase};

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_concurrent_games_lose_no_moves() {
    let mut variants = vec!["nim:stones=400".to_owned()];
    variants.extend(menagerie_games::variants().iter().map(|v| v.id.to_owned()));
    for variant in variants {
        let options = LoadOptions {
            games: env_or("MENAGERIE_LOAD_GAMES", 200),
            variant: variant.clone(),
            max_plies: env_or("MENAGERIE_LOAD_PLIES", 12),
            think_ms: env_or("MENAGERIE_LOAD_THINK_MS", 0) as u64,
        };
        let report = run_local(options, LocalDatabase::TemporarySqlite).await.expect("the load test runs");
        println!("{variant}:\n{report}");
        assert_eq!(report.errors, 0, "{report}");
        assert_eq!(report.lost, 0, "{report}");
        assert_eq!(report.duplicated, 0, "{report}");
        assert_eq!(report.socket_misses, 0, "{report}");
        assert!(report.moves > 0);
    }
}

//! `menagerie bench`: perft throughput, deepening each position until one
//! iteration takes long enough to measure.

use crate::error::CliError;
use menagerie_ai::playout::PlayoutBudget;
use menagerie_core::{perft, Evaluate, Game, GameVisitor, Present, VariantSpec};
use std::time::{Duration, Instant};

pub fn run(variant: Option<&str>, seconds: f64) -> Result<(), CliError> {
    let specs: Vec<String> = match variant {
        Some(v) => vec![v.to_owned()],
        None => menagerie_games::variants().iter().map(|info| info.id.to_owned()).collect(),
    };
    let budget = Duration::from_secs_f64(seconds.max(0.01));
    println!("{:<20} {:<10} {:>5} {:>14} {:>9} {:>12}", "variant", "position", "depth", "nodes", "seconds", "nodes/s");
    for text in specs {
        let spec = VariantSpec::parse(&text).map_err(|e| CliError::BadInput(e.to_string()))?;
        let rows = menagerie_games::visit_with(&spec, &crate::files::DataFiles, Bench { budget })
            .map_err(|e| CliError::BadInput(e.to_string()))?;
        let (mut nodes, mut time) = (0u64, 0f64);
        for row in &rows {
            println!(
                "{:<20} {:<10} {:>5} {:>14} {:>9.3} {:>12.0}",
                text,
                row.label,
                row.depth,
                row.nodes,
                row.seconds,
                row.nodes as f64 / row.seconds.max(1e-9)
            );
            nodes += row.nodes;
            time += row.seconds;
        }
        println!(
            "{:<20} {:<10} {:>5} {:>14} {:>9.3} {:>12.0}",
            text,
            "total",
            "",
            nodes,
            time,
            nodes as f64 / time.max(1e-9)
        );
    }
    Ok(())
}

struct Bench {
    budget: Duration,
}

struct Row {
    label: String,
    depth: u32,
    nodes: u64,
    seconds: f64,
}

impl GameVisitor for Bench {
    type Output = Vec<Row>;

    fn visit<G: Game + Evaluate + Present>(self, variant: G::Variant) -> Vec<Row> {
        let mut positions = vec![("start".to_owned(), G::start(&variant, 1))];
        for (index, text) in G::bench_positions(&variant).into_iter().enumerate() {
            match G::from_text(&variant, text) {
                Ok(game) => positions.push((format!("pos{}", index + 1), game)),
                Err(e) => eprintln!("skipping bench position {text:?}: {e}"),
            }
        }
        positions
            .into_iter()
            .filter_map(|(label, mut game)| measure(&mut game, self.budget).map(|r| Row { label, ..r }))
            .collect()
    }
}

/// Deepens until one perft takes at least `budget`, without starting a depth
/// that the last branching factor says would take more than 8 budgets.
fn measure<G: Game>(game: &mut G, budget: Duration) -> Option<Row> {
    let mut last: Option<Row> = None;
    let mut previous_nodes = 0u64;
    for depth in 1..=64 {
        let started = Instant::now();
        let nodes = perft::perft(game, depth);
        let elapsed = started.elapsed();
        if nodes == 0 {
            break;
        }
        let row = Row { label: String::new(), depth, nodes, seconds: elapsed.as_secs_f64() };
        let branching = if previous_nodes > 0 { nodes as f64 / previous_nodes as f64 } else { 1.0 };
        previous_nodes = nodes;
        last = Some(row);
        if elapsed >= budget || elapsed.as_secs_f64() * branching > 8.0 * budget.as_secs_f64() {
            break;
        }
    }
    last
}

/// `bench --playouts`: uniformly random games from the start (plies/s, and
/// the share of them that are chance's moves), for `seconds` or the number
/// of games `playouts` names, and `bench --search`: alpha-beta nodes per
/// second on each bench position.
pub fn run_ai(
    variant: Option<&str>,
    seconds: f64,
    playouts: Option<Option<u64>>,
    search: bool,
) -> Result<(), CliError> {
    let specs: Vec<String> = match variant {
        Some(v) => vec![v.to_owned()],
        None => menagerie_games::variants().iter().map(|info| info.id.to_owned()).collect(),
    };
    let budget = Duration::from_secs_f64(seconds.max(0.01));
    if let Some(games) = playouts {
        let budget = games.map_or(PlayoutBudget::Time(budget), PlayoutBudget::Games);
        println!(
            "{:<20} {:>9} {:>12} {:>9} {:>12} {:>10} {:>14} {:>8}",
            "variant", "games", "plies", "seconds", "plies/s", "plies/game", "plies/cpu-s", "chance"
        );
        for text in &specs {
            let spec = VariantSpec::parse(text).map_err(|e| CliError::BadInput(e.to_string()))?;
            let cpu = cpu_seconds();
            let stats = menagerie_games::visit_with(&spec, &crate::files::DataFiles, Playouts { budget })
                .map_err(|e| CliError::BadInput(e.to_string()))?;
            println!(
                "{:<20} {:>9} {:>12} {:>9.3} {:>12.0} {:>10.1} {:>14} {:>7.1}%",
                text,
                stats.games,
                stats.plies,
                stats.seconds,
                stats.plies_per_second(),
                stats.plies as f64 / stats.games.max(1) as f64,
                per_cpu_second(stats.plies, cpu),
                100.0 * stats.chance_plies as f64 / stats.plies.max(1) as f64
            );
        }
    }
    if search {
        println!(
            "{:<20} {:<10} {:>5} {:>12} {:>9} {:>12} {:>14}",
            "variant", "position", "depth", "nodes", "seconds", "nodes/s", "nodes/cpu-s"
        );
        for text in &specs {
            let spec = VariantSpec::parse(text).map_err(|e| CliError::BadInput(e.to_string()))?;
            let rows = menagerie_games::visit_with(&spec, &crate::files::DataFiles, Search { budget })
                .map_err(|e| CliError::BadInput(e.to_string()))?;
            for (row, cpu) in rows {
                println!(
                    "{:<20} {:<10} {:>5} {:>12} {:>9.3} {:>12.0} {:>14}",
                    text,
                    row.label,
                    row.depth,
                    row.nodes,
                    row.seconds,
                    row.nodes as f64 / row.seconds.max(1e-9),
                    cpu
                );
            }
        }
    }
    Ok(())
}

struct Playouts {
    budget: PlayoutBudget,
}

impl GameVisitor for Playouts {
    type Output = menagerie_ai::playout::PlayoutStats;
    fn visit<G: Game + Evaluate + Present>(self, variant: G::Variant) -> Self::Output {
        menagerie_ai::playout::random_playouts(&G::start(&variant, 1), self.budget, 1)
    }
}

struct Search {
    budget: Duration,
}

impl GameVisitor for Search {
    /// Each row with its rate per second of CPU time (as text).
    type Output = Vec<(Row, String)>;
    fn visit<G: Game + Evaluate + Present>(self, variant: G::Variant) -> Self::Output {
        let mut positions = vec![("start".to_owned(), G::start(&variant, 1))];
        for (index, text) in G::bench_positions(&variant).into_iter().enumerate() {
            if let Ok(game) = G::from_text(&variant, text) {
                positions.push((format!("pos{}", index + 1), game));
            }
        }
        let limits = menagerie_ai::Limits { time: Some(self.budget), ..Default::default() };
        positions
            .into_iter()
            .filter(|(_, game)| game.outcome().is_none() && game.to_act() != menagerie_core::Actor::Chance)
            .map(|(label, game)| {
                let mut search = menagerie_ai::AlphaBeta::<G>::default();
                let cpu = cpu_seconds();
                let result = search.search(&game, &limits, &menagerie_ai::StopFlag::new(), &mut |_| {});
                let rate = per_cpu_second(search.nodes(), cpu);
                (
                    Row {
                        label,
                        depth: result.info.depth,
                        nodes: search.nodes(),
                        seconds: result.info.time.as_secs_f64(),
                    },
                    rate,
                )
            })
            .collect()
    }
}

/// CPU time used by this thread so far (Linux: `/proc/thread-self/stat`,
/// in ticks of 1/100 s), so that speeds can be stated per second of CPU
/// on a machine shared with other work.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// `count` per second of CPU time since `since`, or `-` if unknown.
fn per_cpu_second(count: u64, since: Option<f64>) -> String {
    match (since, cpu_seconds()) {
        (Some(start), Some(end)) if end - start >= 0.05 => format!("{:.0}", count as f64 / (end - start)),
        _ => "-".to_owned(),
    }
}

//! The report of a study: everything computed from the game records alone
//! (so merged slices report like one run), as JSON and as Markdown.

use super::fit::{fit, Fit, Sample};
use super::provenance::Provenance;
use super::record::{GameRecord, Settings, DIVERSITY_PLIES};
use menagerie_ai::stats::{score, wilson, Estimate, Z95};
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write;

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub variant: String,
    pub settings: Settings,
    /// The program that played the games and the commands that ran it.
    pub made_by: Option<Provenance>,
    pub games: usize,
    /// Games that differ move for move (equal fingerprints are one game
    /// played again); the intervals count a repeated game once, in effect.
    pub distinct_games: usize,
    /// Computer time of all games together (threads add up).
    pub game_seconds: f64,
    pub first_player: Results,
    pub reasons: Vec<ReasonCount>,
    pub length: Length,
    pub legal_moves_by_phase: Vec<PhaseBranching>,
    pub diversity: Vec<Diversity>,
    pub first_moves: Vec<OpeningScore>,
    pub openings: Vec<OpeningScore>,
    pub piece_values: Option<Fit>,
    pub mechanics: Vec<Mechanic>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Interval {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl From<Estimate> for Interval {
    fn from(e: Estimate) -> Interval {
        Interval { value: e.value, low: e.low, high: e.high }
    }
}

impl Interval {
    pub fn estimate(&self) -> Estimate {
        Estimate { value: self.value, low: self.low, high: self.high }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Results {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// (wins + draws/2) / games, Wilson's 95% interval.
    pub score: Interval,
    /// Share of games not drawn, Wilson's 95% interval.
    pub decisive: Interval,
}

#[derive(Clone, Debug, Serialize)]
pub struct ReasonCount {
    pub reason: String,
    pub games: u64,
    pub first_wins: u64,
    pub draws: u64,
    pub second_wins: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Length {
    pub mean: f64,
    /// 95% interval of the mean (normal approximation).
    pub mean_low: f64,
    pub mean_high: f64,
    pub min: u32,
    pub lower_quartile: f64,
    pub median: f64,
    pub upper_quartile: f64,
    pub max: u32,
    pub histogram: Vec<Bin>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Bin {
    /// Lengths `from..=to` (player moves).
    pub from: u32,
    pub to: u32,
    pub games: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct PhaseBranching {
    pub phase: String,
    pub mean_legal_moves: f64,
    pub positions: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Diversity {
    pub ply: u32,
    pub games_reaching: u64,
    pub distinct_positions: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct OpeningScore {
    pub moves: String,
    pub games: u64,
    pub first_score: Interval,
}

#[derive(Clone, Debug, Serialize)]
pub struct Mechanic {
    pub name: String,
    pub total: u64,
    pub per_game: f64,
    pub games_with_any: u64,
}

/// How many openings are listed.
const TOP_OPENINGS: usize = 10;
const HISTOGRAM_BINS: u32 = 20;

pub fn build(settings: &Settings, made_by: Option<Provenance>, records: &[GameRecord]) -> Report {
    let n = records.len();
    let count = |s: i8| records.iter().filter(|r| r.first_score == s).count() as u64;
    let (wins, draws, losses) = (count(1), count(0), count(-1));
    let clusters = clusters(records);
    let distinct_games = clusters.iter().copied().collect::<HashSet<u64>>().len();
    let scores: Vec<f64> = records.iter().map(|r| (f64::from(r.first_score) + 1.0) / 2.0).collect();
    let decisive: Vec<f64> = records.iter().map(|r| f64::from(r.first_score != 0)).collect();
    let first_player = Results {
        wins,
        draws,
        losses,
        score: clustered_wilson(&scores, &clusters).into(),
        decisive: clustered_wilson(&decisive, &clusters).into(),
    };

    let mut by_reason: BTreeMap<&str, [u64; 3]> = BTreeMap::new();
    for r in records {
        by_reason.entry(&r.reason).or_default()[(1 - r.first_score) as usize] += 1;
    }
    let mut reasons: Vec<ReasonCount> = by_reason
        .into_iter()
        .map(|(reason, [w, d, l])| ReasonCount {
            reason: reason.to_owned(),
            games: w + d + l,
            first_wins: w,
            draws: d,
            second_wins: l,
        })
        .collect();
    reasons.sort_by(|a, b| b.games.cmp(&a.games).then(a.reason.cmp(&b.reason)));

    Report {
        variant: settings.variant.clone(),
        settings: settings.clone(),
        made_by,
        games: n,
        distinct_games,
        game_seconds: records.iter().map(|r| r.millis as f64 / 1000.0).sum(),
        first_player,
        reasons,
        length: length(records),
        legal_moves_by_phase: branching(records),
        diversity: diversity(records),
        first_moves: openings(records, 1),
        openings: openings(records, 2),
        piece_values: piece_values(settings, records, &clusters),
        mechanics: mechanics(records),
    }
}

/// Each game's cluster: games with one fingerprint are one game played
/// again and share a cluster (the number of the first of them); a game
/// recorded without a fingerprint is its own.
fn clusters(records: &[GameRecord]) -> Vec<u64> {
    let mut first: BTreeMap<&str, u64> = BTreeMap::new();
    records
        .iter()
        .map(|r| if r.digest.is_empty() { r.index } else { *first.entry(&r.digest).or_insert(r.index) })
        .collect()
}

/// The mean of `values` (each in [0, 1]) with Wilson's interval at the
/// effective number of games: the games divided by the design effect of
/// the clustering (the cluster-robust variance of the mean over the
/// variance were every game independent), so repeated games are not
/// counted as independent evidence.
pub fn clustered_wilson(values: &[f64], clusters: &[u64]) -> Estimate {
    let n = values.len() as f64;
    if values.is_empty() {
        return wilson(0.0, 0.0);
    }
    let mean = values.iter().sum::<f64>() / n;
    let independent: f64 = values.iter().map(|v| (v - mean).powi(2)).sum();
    let mut sums: BTreeMap<u64, f64> = BTreeMap::new();
    for (v, c) in values.iter().zip(clusters) {
        *sums.entry(*c).or_default() += v - mean;
    }
    let clustered: f64 = sums.values().map(|s| s * s).sum();
    let effect = if independent > 0.0 { (clustered / independent).max(1.0) } else { 1.0 };
    let effective = n / effect;
    let mut estimate = wilson(mean * effective, effective);
    estimate.value = mean;
    estimate
}

/// The `q` quantile of sorted values, interpolating linearly between
/// neighbours (the usual "type 7" definition).
pub fn quantile(sorted: &[u32], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let position = q * (sorted.len() - 1) as f64;
    let below = position.floor() as usize;
    let above = position.ceil() as usize;
    let fraction = position - below as f64;
    f64::from(sorted[below]) * (1.0 - fraction) + f64::from(sorted[above]) * fraction
}

fn length(records: &[GameRecord]) -> Length {
    let mut plies: Vec<u32> = records.iter().map(|r| r.plies).collect();
    plies.sort_unstable();
    let n = plies.len() as f64;
    let mean = if plies.is_empty() { 0.0 } else { plies.iter().map(|&p| f64::from(p)).sum::<f64>() / n };
    let variance = if plies.len() > 1 {
        plies.iter().map(|&p| (f64::from(p) - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let margin = Z95 * (variance / n.max(1.0)).sqrt();
    let (min, max) = (plies.first().copied().unwrap_or(0), plies.last().copied().unwrap_or(0));
    let width = ((max - min) / HISTOGRAM_BINS + 1).max(1);
    let mut histogram: Vec<Bin> = Vec::new();
    if !plies.is_empty() {
        let mut from = min - min % width;
        while from <= max {
            let to = from + width - 1;
            let games = plies.iter().filter(|&&p| p >= from && p <= to).count() as u64;
            histogram.push(Bin { from, to, games });
            from += width;
        }
    }
    Length {
        mean,
        mean_low: mean - margin,
        mean_high: mean + margin,
        min,
        lower_quartile: quantile(&plies, 0.25),
        median: quantile(&plies, 0.5),
        upper_quartile: quantile(&plies, 0.75),
        max,
        histogram,
    }
}

/// Legal moves per player move, by thirds of each game (opening, middle
/// game, ending), so games of different lengths line up by phase.
fn branching(records: &[GameRecord]) -> Vec<PhaseBranching> {
    let names = ["opening (first third)", "middle game (second third)", "ending (last third)"];
    let mut sums = [(0u64, 0u64); 3];
    for r in records {
        let len = r.legal.len();
        for (i, &moves) in r.legal.iter().enumerate() {
            let phase = (i * 3 / len.max(1)).min(2);
            sums[phase].0 += u64::from(moves);
            sums[phase].1 += 1;
        }
    }
    names
        .iter()
        .zip(sums)
        .map(|(name, (total, positions))| PhaseBranching {
            phase: (*name).to_owned(),
            mean_legal_moves: if positions == 0 { 0.0 } else { total as f64 / positions as f64 },
            positions,
        })
        .collect()
}

fn diversity(records: &[GameRecord]) -> Vec<Diversity> {
    DIVERSITY_PLIES
        .iter()
        .map(|&ply| {
            let hashes: Vec<u64> = records.iter().filter_map(|r| r.hashes.get(&ply).copied()).collect();
            let distinct: HashSet<u64> = hashes.iter().copied().collect();
            Diversity { ply, games_reaching: hashes.len() as u64, distinct_positions: distinct.len() as u64 }
        })
        .collect()
}

/// The most played sequences of the first `depth` player moves, with the
/// first player's score after them.
fn openings(records: &[GameRecord], depth: usize) -> Vec<OpeningScore> {
    let mut by_line: BTreeMap<String, [u64; 3]> = BTreeMap::new();
    for r in records.iter().filter(|r| r.opening.len() >= depth) {
        by_line.entry(r.opening[..depth].join(" ")).or_default()[(1 - r.first_score) as usize] += 1;
    }
    let mut lines: Vec<OpeningScore> = by_line
        .into_iter()
        .map(|(moves, [w, d, l])| OpeningScore { moves, games: w + d + l, first_score: score(w, d, l).into() })
        .collect();
    lines.sort_by(|a, b| b.games.cmp(&a.games).then(a.moves.cmp(&b.moves)));
    lines.truncate(TOP_OPENINGS);
    lines
}

fn piece_values(settings: &Settings, records: &[GameRecord], clusters: &[u64]) -> Option<Fit> {
    let samples: Vec<Sample> = records
        .iter()
        .zip(clusters)
        .flat_map(|(r, &cluster)| {
            let result = (f64::from(r.first_score) + 1.0) / 2.0;
            r.material.iter().map(move |(_, m)| Sample { cluster, material: m, result })
        })
        .filter(|s| s.material.len() == settings.material_kinds.len())
        .collect();
    fit(&settings.material_kinds, &samples)
}

fn mechanics(records: &[GameRecord]) -> Vec<Mechanic> {
    let mut totals: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for r in records {
        for (name, &count) in &r.mechanics {
            let entry = totals.entry(name).or_default();
            entry.0 += count;
            entry.1 += u64::from(count > 0);
        }
    }
    totals
        .into_iter()
        .map(|(name, (total, games))| Mechanic {
            name: name.to_owned(),
            total,
            per_game: total as f64 / records.len().max(1) as f64,
            games_with_any: games,
        })
        .collect()
}

fn percent(e: &Interval) -> String {
    format!("{:.1}% [{:.1}%, {:.1}%]", 100.0 * e.value, 100.0 * e.low, 100.0 * e.high)
}

/// The report as Markdown.
pub fn markdown(report: &Report) -> String {
    let mut md = String::new();
    let s = &report.settings;
    let budget = match (s.nodes, s.time_ms) {
        (Some(n), _) => format!("{n} {}", super::unit::unit_of(&s.player).rate),
        (None, Some(ms)) => format!("{ms} ms a move"),
        (None, None) => "the player's own budget".to_owned(),
    };
    let budget = match s.temperature {
        0 => budget,
        t => format!(
            "{budget}, temperature {t}: a move among those within {} of the best, one {t} worse e^-1 as often",
            4 * t
        ),
    };
    let _ = writeln!(md, "# Study of `{}`\n", report.variant);
    let opening = if s.opening.is_empty() { String::new() } else { format!("`{}`, then ", s.opening.join(" ")) };
    let _ = writeln!(
        md,
        "{} games of `{}` against itself ({budget}), seed {}; each game opens with {opening}{} uniformly random \
         moves, then both sides search; games still going after {} moves are adjudicated drawn. \
         {:.0} s of computer time in all. {} of the {} games are distinct (the others repeat one of them \
         move for move). Intervals are 95%: Wilson's for scores and rates, at the number of games the \
         repeats leave in effect; cluster-robust (by distinct game) for the fitted values.\n",
        report.games,
        s.player,
        s.seed,
        s.random_plies,
        s.max_plies,
        report.game_seconds,
        report.distinct_games,
        report.games
    );
    match &report.made_by {
        Some(made) => {
            let _ = writeln!(
                md,
                "Made by {} (settings {}). `menagerie study verify <this folder>` plays its games again \
                 and says whether today's program still plays them.\n",
                made.build, made.settings_hash
            );
        }
        None => {
            let _ = writeln!(md, "Made by a build that was not recorded (before studies recorded their build).\n");
        }
    }
    let f = &report.first_player;
    let _ = writeln!(md, "## Balance\n");
    // A header row of words: an empty one draws as an empty bar.
    let _ = writeln!(md, "| figure | value |\n|---|---|");
    let _ = writeln!(md, "| first player wins / draws / losses | {} / {} / {} |", f.wins, f.draws, f.losses);
    let _ = writeln!(md, "| first player's score | {} |", percent(&f.score));
    let _ = writeln!(md, "| decisive games | {} |\n", percent(&f.decisive));
    let _ = writeln!(
        md,
        "### Results by reason\n\n| reason | games | first wins | draws | second wins |\n|---|---:|---:|---:|---:|"
    );
    for r in &report.reasons {
        let _ = writeln!(md, "| {} | {} | {} | {} | {} |", r.reason, r.games, r.first_wins, r.draws, r.second_wins);
    }
    let l = &report.length;
    let _ = writeln!(md, "\n## Length (player moves)\n");
    let _ = writeln!(
        md,
        "mean {:.1} [{:.1}, {:.1}], median {:.1}, quartiles {:.1} and {:.1}, shortest {}, longest {}.\n",
        l.mean, l.mean_low, l.mean_high, l.median, l.lower_quartile, l.upper_quartile, l.min, l.max
    );
    let _ = writeln!(md, "![game length histogram](length.svg)\n\n| moves | games |\n|---|---:|");
    for bin in &l.histogram {
        let _ = writeln!(md, "| {}–{} | {} {} |", bin.from, bin.to, bin.games, "#".repeat(bin.games.min(60) as usize));
    }
    let _ = writeln!(md, "\n## Complexity\n\n| phase | legal moves (mean) | positions |\n|---|---:|---:|");
    for p in &report.legal_moves_by_phase {
        let _ = writeln!(md, "| {} | {:.1} | {} |", p.phase, p.mean_legal_moves, p.positions);
    }
    let _ = writeln!(md, "\n### Opening diversity\n\n| after moves | games | distinct positions |\n|---:|---:|---:|");
    for d in &report.diversity {
        let _ = writeln!(md, "| {} | {} | {} |", d.ply, d.games_reaching, d.distinct_positions);
    }
    if let Some(d) = report.diversity.iter().rev().find(|d| d.games_reaching > 0) {
        if 2 * d.distinct_positions < d.games_reaching {
            let _ = writeln!(
                md,
                "\n**Many games repeat**: after {} moves only {} of {} games differ. The player is \
                 deterministic, so the figures describe the random openings more than the game; more \
                 `--random-plies` or a `--temperature` give more distinct games.",
                d.ply, d.distinct_positions, d.games_reaching
            );
        }
    }
    for (title, lines) in [("first moves", &report.first_moves), ("openings (two moves)", &report.openings)] {
        let _ = writeln!(md, "\n### Most played {title}\n\n| moves | games | first player's score |\n|---|---:|---|");
        for o in lines {
            let _ = writeln!(md, "| `{}` | {} | {} |", o.moves, o.games, percent(&o.first_score));
        }
    }
    let _ = writeln!(md, "\n## Piece values fitted from outcomes\n");
    match &report.piece_values {
        None => {
            let _ = writeln!(md, "No material samples (the game reports no material, or no game lasted long enough).");
        }
        Some(fit) => {
            let _ = writeln!(
                md,
                "Logistic regression of the first player's result on the material difference (first minus second) \
                 over {} positions from {} games (every 4th move). A coefficient is the change of the first \
                 player's log-odds per unit of that kind; an interval that contains 0 does not show the kind \
                 matters.\n\n| kind | log-odds per unit | 95% interval | positions where it differs |\n|---|---:|---|---:|",
                fit.positions, fit.games
            );
            for c in std::iter::once(&fit.intercept).chain(&fit.kinds) {
                let _ = writeln!(
                    md,
                    "| {} | {:+.3} | [{:+.3}, {:+.3}] | {} |",
                    c.name, c.value, c.low, c.high, c.informative_positions
                );
            }
        }
    }
    let _ = writeln!(md, "\n## Mechanics\n");
    if report.mechanics.is_empty() {
        let _ = writeln!(md, "The game counts no mechanics of its own.");
    } else {
        let _ = writeln!(md, "| event | total | per game | games with any |\n|---|---:|---:|---:|");
        for m in &report.mechanics {
            let _ = writeln!(md, "| {} | {} | {:.2} | {} |", m.name, m.total, m.per_game, m.games_with_any);
        }
    }
    if let Some(made) = &report.made_by {
        let _ = writeln!(md, "\n## How it was made\n\nBy {}, commit `{}`, with\n", made.build, made.build.commit);
        let _ = writeln!(md, "```");
        for command in &made.commands {
            let _ = writeln!(md, "{command}");
        }
        let _ = writeln!(md, "```");
    }
    md
}

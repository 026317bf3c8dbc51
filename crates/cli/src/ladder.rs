//! `menagerie ladder`: a round robin of the levels (and any players named),
//! or only the pairings of neighbours, in pairs of games from one random
//! opening with colours swapped, then Elo ratings fitted to all the
//! results, anchored at random = 0.

use crate::error::CliError;
use crate::matches::{dealt, game_seed, play_game, random_opening, run_parallel, Side};
use crate::progress::GamesProgress;
use crate::typed::TypedCommand;
use menagerie_ai::level_ratings::{RatingsFile, VariantRatings};
use menagerie_ai::rating::{elo_of_score, fit_ratings, PairResult, Rating, ScoreInterval};
use menagerie_ai::{AgentKind, AgentSpec, Level, SearchParts};
use menagerie_core::{Evaluate, Game};
use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

pub struct Ladder {
    /// Players besides the levels.
    pub named: Vec<AgentSpec>,
    /// Whether the levels play too.
    pub levels: bool,
    /// Who meets whom.
    pub pairings: Pairings,
    /// Games per pairing (an even number: pairs of games).
    pub games: u32,
    pub time_ms: Option<u64>,
    pub jobs: usize,
    /// Progress as lines on stderr instead of a bar on a terminal.
    pub progress_lines: bool,
    pub seed: u64,
    pub opening_plies: u32,
    pub max_plies: u32,
    pub json: bool,
    /// Where to record the levels' ratings (`data/ratings.toml`).
    pub save: Option<PathBuf>,
    /// The command line, recorded with saved ratings.
    pub command: String,
}

/// Who meets whom in a ladder.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Pairings {
    /// Every player meets every other: a round robin.
    #[default]
    All,
    /// Each player meets only its neighbours in the list (random, the
    /// levels weakest first, then the players named): the gaps a ladder of
    /// levels is about, without the long one-sided games of the strongest
    /// against the weakest.
    Adjacent,
}

impl Pairings {
    /// The pairs of player indices that meet, each with the lower first.
    fn of(self, players: usize) -> Vec<(usize, usize)> {
        match self {
            Pairings::All => (0..players).flat_map(|i| (i + 1..players).map(move |j| (i, j))).collect(),
            Pairings::Adjacent => (1..players).map(|j| (j - 1, j)).collect(),
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Pairings::All => "round robin",
            Pairings::Adjacent => "adjacent players only",
        }
    }
}

/// One game of the round robin: which pairing, and who plays first.
#[derive(Clone, Copy)]
struct Task {
    pairing: usize,
    /// Index into the pair: 0 if the pairing's first player moves first.
    first: usize,
    /// Which pair of games of the pairing (they share an opening).
    pair: u32,
}

impl TypedCommand for Ladder {
    type Output = Result<(), CliError>;

    fn run<G: Game + Evaluate>(self, start: G, variant: &str) -> Self::Output {
        let players = self.players::<G>();
        if players.len() < 2 {
            return Err(CliError::BadInput("a ladder needs two players or more".into()));
        }
        let time = self.time_ms.map(Duration::from_millis);
        let limits: Vec<_> = players.iter().map(|p| p.limits::<G>(time)).collect();
        let pairings = self.pairings.of(players.len());
        let games = self.games.max(2).next_multiple_of(2);
        let tasks: Vec<Task> = (0..pairings.len())
            .flat_map(|pairing| (0..games).map(move |g| Task { pairing, first: (g % 2) as usize, pair: g / 2 }))
            .collect();

        let progress = GamesProgress::new("ladder", tasks.len() as u64, false, self.progress_lines);
        let play = |index: usize| {
            let task = tasks[index];
            let (i, j) = pairings[task.pairing];
            let pair_seed = game_seed(self.seed, (task.pairing as u64) << 32 | u64::from(task.pair));
            let game = dealt(&start, pair_seed);
            let opening = random_opening(&game, self.opening_plies, pair_seed ^ 0x0be0);
            let side = |p: usize| Side { spec: &players[p], limits: &limits[p] };
            let sides = if task.first == 0 { [side(i), side(j)] } else { [side(j), side(i)] };
            let finished = play_game(&game, &opening, sides, game_seed(pair_seed, task.first as u64), self.max_plies)?;
            // The score from the pairing's first player's view.
            let score = if task.first == 0 { finished.first_score } else { -finished.first_score };
            Ok((task.pairing, score, finished.plies))
        };
        let plies = AtomicU64::new(0);
        let done = |result: &(usize, i32, u32)| {
            plies.fetch_add(u64::from(result.2), Ordering::Relaxed);
            progress.inc();
        };
        let outcomes = run_parallel(tasks.len(), self.jobs, play, done)?;
        progress.finish();

        let mut results: Vec<PairResult> =
            pairings.iter().map(|&(a, b)| PairResult { a, b, wins: 0, draws: 0, losses: 0 }).collect();
        for &(pairing, score, _) in &outcomes {
            let r = &mut results[pairing];
            match score {
                1 => r.wins += 1,
                0 => r.draws += 1,
                _ => r.losses += 1,
            }
        }
        let ratings = fit_ratings(players.len(), &results, 0).map_err(|e| CliError::Failed(e.to_string()))?;
        let average_plies = plies.load(Ordering::Relaxed) as f64 / outcomes.len().max(1) as f64;
        let budget = match self.time_ms {
            Some(ms) => format!("{ms} ms a turn"),
            None => "each player's own budget".to_owned(),
        };
        if self.json {
            let rows: Vec<_> = players
                .iter()
                .zip(&ratings)
                .map(|(p, r)| json!({ "player": p.to_string(), "elo": r.elo.round(), "low": r.low.round(), "high": r.high.round() }))
                .collect();
            let pairs: Vec<_> = results
                .iter()
                .map(|r| {
                    let gap = head_to_head(r);
                    json!({
                        "a": players[r.a].to_string(), "b": players[r.b].to_string(),
                        "wins": r.wins, "draws": r.draws, "losses": r.losses,
                        "elo": gap.elo, "low": gap.low, "high": gap.high,
                    })
                })
                .collect();
            let out = json!({
                "variant": variant, "games_per_pairing": games, "time_ms": self.time_ms, "seed": self.seed,
                "anchor": "random", "pairing": self.pairings.describe(), "ratings": rows, "pairings": pairs, "average_plies": average_plies,
            });
            println!("{}", serde_json::to_string_pretty(&out).expect("JSON of plain values"));
        } else {
            let conditions = format!(
                "{}, {games} games per pairing (pairs from one opening, colours swapped), {budget}",
                self.pairings.describe()
            );
            print_table(variant, &players, &ratings, &results, &conditions, average_plies);
        }
        if let Some(path) = &self.save {
            // The levels saved are the web's (no `eval=` of their own): they
            // play their game's evaluation as this binary states it.
            let measured_with = AgentSpec::level(menagerie_ai::DEFAULT_LEVEL).evaluation::<G>();
            self.save_ratings(path, variant, &players, &ratings, games, &measured_with.to_string())?;
        }
        Ok(())
    }
}

impl Ladder {
    /// Random first (the anchor), then the levels, then the named players.
    fn players<G: Game>(&self) -> Vec<AgentSpec> {
        let mut players = vec![AgentSpec::from(AgentKind::Random)];
        if self.levels {
            players.extend(Level::all_for::<G>().iter().map(|l| AgentSpec::level(l.name)));
        }
        for spec in &self.named {
            if !players.contains(spec) {
                players.push(spec.clone());
            }
        }
        players
    }

    /// Records the levels' ratings for this variant, keeping the other
    /// variants' entries.
    fn save_ratings(
        &self,
        path: &PathBuf,
        variant: &str,
        players: &[AgentSpec],
        ratings: &[Rating],
        games: u32,
        measured_with: &str,
    ) -> Result<(), CliError> {
        let mut file = match std::fs::read_to_string(path) {
            Ok(text) => RatingsFile::parse(&text)
                .map_err(|e| CliError::BadInput(format!("{}: not a ratings file: {e}", path.display())))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => RatingsFile::default(),
            Err(e) => return Err(CliError::Failed(format!("reading {}: {e}", path.display()))),
        };
        let mut levels = std::collections::BTreeMap::new();
        for (spec, rating) in players.iter().zip(ratings) {
            let name = match (&spec.kind, &spec.eval, spec.threads) {
                (AgentKind::Random, _, _) => "random",
                // Only the levels as the web plays them.
                (AgentKind::Level(name), None, None)
                    if spec.nodes.is_none() && spec.cutoff.is_none() && spec.off == SearchParts::default() =>
                {
                    name.as_str()
                }
                _ => continue,
            };
            levels.insert(name.to_owned(), (*rating).into());
        }
        let entry = VariantRatings {
            command: self.command.clone(),
            games_per_pairing: games,
            measured_with: measured_with.to_owned(),
            levels,
        };
        file.variants.insert(variant.to_owned(), entry);
        std::fs::write(path, file.to_text())
            .map_err(|e| CliError::Failed(format!("writing {}: {e}", path.display())))?;
        eprintln!("ratings of {variant} saved in {}", path.display());
        Ok(())
    }
}

fn print_table(
    variant: &str,
    players: &[AgentSpec],
    ratings: &[Rating],
    results: &[PairResult],
    conditions: &str,
    average_plies: f64,
) {
    println!("{variant}: {} players, {conditions}", players.len());
    println!("Elo anchored at random = 0; 95% intervals (one virtual draw per pairing keeps them finite)");
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by(|&a, &b| ratings[b].elo.total_cmp(&ratings[a].elo));
    println!("{:<4} {:<32} {:>7}  {:<17} {:>6} {:>7}", "rank", "player", "Elo", "95% interval", "games", "score");
    for (rank, &i) in order.iter().enumerate() {
        let (mut played, mut points) = (0u32, 0.0f64);
        for r in results {
            let n = r.wins + r.draws + r.losses;
            if r.a == i {
                played += n;
                points += f64::from(r.wins) + 0.5 * f64::from(r.draws);
            } else if r.b == i {
                played += n;
                points += f64::from(r.losses) + 0.5 * f64::from(r.draws);
            }
        }
        let r = ratings[i];
        println!(
            "{:<4} {:<32} {:>+7.0}  [{:>+6.0}, {:>+6.0}] {:>6} {:>6.1}%",
            rank + 1,
            players[i].to_string(),
            r.elo,
            r.low,
            r.high,
            played,
            100.0 * points / f64::from(played.max(1))
        );
    }
    println!("pairings (wins-draws-losses of the first named, and its Elo over the second from these games alone):");
    for r in results {
        let gap = head_to_head(r);
        println!(
            "  {} vs {}: +{} ={} -{}, {:+.0} Elo [{:+.0}, {:+.0}]",
            players[r.a], players[r.b], r.wins, r.draws, r.losses, gap.elo, gap.low, gap.high
        );
    }
    println!("average length: {average_plies:.1} moves");
}

/// The Elo difference of one pairing's first player over its second, from
/// their games alone (with the virtual draw, as the fit): whether each
/// level beats the one below by the margin it should, without the rest of
/// the table's say.
fn head_to_head(r: &PairResult) -> Rating {
    let score = ScoreInterval::new(r.wins, r.draws, r.losses);
    // Whole points, and an even score is +0, not -0.
    let elo = |score: f64| elo_of_score(score).round() + 0.0;
    Rating { elo: elo(score.estimate), low: elo(score.low), high: elo(score.high) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_to_head_gaps_read_well() {
        let even = head_to_head(&PairResult { a: 0, b: 1, wins: 2, draws: 0, losses: 2 });
        assert_eq!(format!("{:+.0} [{:+.0}, {:+.0}]", even.elo, even.low, even.high), "+0 [-275, +275]");
        // 20 games at 70% (the virtual draw pulls it to 69%): about +139,
        // and not yet shown to be ahead at all.
        let ahead = head_to_head(&PairResult { a: 0, b: 1, wins: 10, draws: 8, losses: 2 });
        assert_eq!((ahead.elo, ahead.low, ahead.high), (139.0, -16.0, 295.0));
        let behind = head_to_head(&PairResult { a: 1, b: 0, wins: 2, draws: 8, losses: 10 });
        assert_eq!((behind.elo, behind.low, behind.high), (-ahead.elo, -ahead.high, -ahead.low));
    }

    #[test]
    fn adjacent_pairings_form_a_chain() {
        assert_eq!(Pairings::Adjacent.of(4), [(0, 1), (1, 2), (2, 3)]);
        assert_eq!(Pairings::All.of(4).len(), 6);
        assert!(Pairings::Adjacent.of(1).is_empty());
    }
}

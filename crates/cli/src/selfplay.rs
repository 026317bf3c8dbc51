//! `menagerie selfplay`: a match between two computer players, with
//! progress on stderr ([`crate::progress`]) and a closing table (wins, draws, losses, score
//! with Wilson's 95% interval, Elo difference, average length) or JSON. Games
//! run side by side on `--jobs` threads.

use crate::error::CliError;
use crate::matches::{deal, game_seed, play_game_moves, random_opening, run_parallel, Finished, Side};
use crate::progress::GamesProgress;
use crate::records::record_of;
use crate::typed::TypedCommand;
use menagerie_ai::stats::{elo, score, show_elo, Estimate};
use menagerie_ai::AgentSpec;
use menagerie_core::record::{pgn_date, Ending, RecordInfo};
use menagerie_core::{Evaluate, Game, Player, Present};
use serde_json::json;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

pub struct Selfplay {
    pub games: u32,
    /// Engine A (`--white`) and engine B (`--black`).
    pub engines: [AgentSpec; 2],
    pub time_ms: Option<u64>,
    /// Nodes (alpha-beta) or playouts (MCTS) a move of engine A and of
    /// engine B, replacing the time budget of engines without a fixed depth.
    pub nodes: [Option<u64>; 2],
    pub seed: u64,
    /// Alternate colours: A plays the second player in odd-numbered games,
    /// each pair of games from the same opening (and deal).
    pub swap: bool,
    pub json: bool,
    /// Uniformly random moves at the start of each game, for variety.
    pub opening_plies: u32,
    /// A game still going after this many moves is adjudicated a draw.
    pub max_plies: u32,
    /// Games played at once.
    pub jobs: usize,
    /// Progress as lines on stderr instead of a bar on a terminal.
    pub progress_lines: bool,
    /// Where to write every game's record.
    pub records: Option<std::path::PathBuf>,
    /// The start's position text, when it is not the variant's start.
    pub start_text: Option<String>,
}

/// One finished game, from engine A's view.
struct GameRecord {
    a_player: Player,
    /// +1 A won, 0 draw, -1 A lost.
    score: i32,
    plies: u32,
    reason: String,
    /// Its record, when records are written.
    record: Option<String>,
}

impl TypedCommand for Selfplay {
    type Output = Result<(), CliError>;

    fn run<G: Game + Evaluate + Present>(self, start: G, variant: &str) -> Self::Output {
        let time = self.time_ms.map(Duration::from_millis);
        let limits = [0, 1].map(|i| {
            let mut limits = self.engines[i].limits::<G>(time);
            if let Some(nodes) = self.nodes[i] {
                limits.nodes = Some(nodes);
                if time.is_none() {
                    limits.time = None;
                }
            }
            limits
        });
        let progress = GamesProgress::new("selfplay", u64::from(self.games), true, self.progress_lines);
        let tally = [AtomicU32::new(0), AtomicU32::new(0), AtomicU32::new(0)];
        let play = |index: usize| -> Result<GameRecord, CliError> {
            let index = index as u64;
            let a_player = if self.swap && index % 2 == 1 { Player::Second } else { Player::First };
            // The two games of a pair share their deal and opening: chance's
            // first moves (the deal) are drawn from the pair's seed.
            let pair = if self.swap { index / 2 } else { index };
            let pair_seed = game_seed(self.seed, pair);
            let dealing = deal(&start, pair_seed);
            let mut game = start.clone();
            for &mv in &dealing {
                game.play(mv);
            }
            let opening = random_opening(&game, self.opening_plies, pair_seed ^ 0x0be0);
            let a = Side { spec: &self.engines[0], limits: &limits[0] };
            let b = Side { spec: &self.engines[1], limits: &limits[1] };
            let sides = if a_player == Player::First { [a, b] } else { [b, a] };
            let (finished, moves): (Finished, _) =
                play_game_moves(&game, &opening, sides, game_seed(self.seed, index), self.max_plies)?;
            let record = match self.records {
                Some(_) => {
                    let names = [&self.engines[0], &self.engines[1]].map(|e| e.to_string());
                    let (white, black) =
                        if a_player == Player::First { (&names[0], &names[1]) } else { (&names[1], &names[0]) };
                    let info = self.record_info(index, white, black);
                    // An adjudicated draw is an end the rules did not decide.
                    let adjudicated = (finished.first_score == 0 && finished.reason.starts_with("adjudicated"))
                        .then(|| Ending { winner: None, reason: finished.reason.clone() });
                    let all: Vec<G::Move> = dealing.iter().chain(&moves).copied().collect();
                    Some(record_of(&start, self.start_text.as_deref(), variant, &all, &info, adjudicated.as_ref())?)
                }
                None => None,
            };
            Ok(GameRecord {
                a_player,
                score: finished.score_for(a_player),
                plies: finished.plies,
                reason: finished.reason,
                record,
            })
        };
        let done = |record: &GameRecord| {
            tally[(1 - record.score) as usize].fetch_add(1, Ordering::Relaxed);
            let [w, d, l] = [0, 1, 2].map(|i| tally[i].load(Ordering::Relaxed));
            progress.set_message(format!("A +{w} ={d} -{l}"));
            progress.inc();
        };
        let records = run_parallel(self.games as usize, self.jobs, play, done)?;
        progress.finish();
        if let Some(path) = &self.records {
            let texts: Vec<String> = records.iter().filter_map(|r| r.record.clone()).collect();
            crate::records::write_file(path, &texts)?;
        }
        let count = |s: i32| records.iter().filter(|r| r.score == s).count() as u32;
        let (wins, draws, losses) = (count(1), count(0), count(-1));
        let summary = score(u64::from(wins), u64::from(draws), u64::from(losses));
        let average_plies = records.iter().map(|r| f64::from(r.plies)).sum::<f64>() / records.len().max(1) as f64;
        if self.json {
            let games: Vec<_> = records
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    json!({
                        "game": i + 1,
                        "a_plays": G::player_name(r.a_player),
                        "result": match r.score { 1 => "A", 0 => "draw", _ => "B" },
                        "plies": r.plies,
                        "reason": r.reason,
                    })
                })
                .collect();
            let out = json!({
                "variant": variant,
                "a": self.engines[0].to_string(),
                "b": self.engines[1].to_string(),
                "time_ms": self.time_ms,
                "nodes": self.nodes,
                "seed": self.seed,
                "swap": self.swap,
                "games": self.games,
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "score": summary.value,
                "score_interval": [summary.low, summary.high],
                "elo": finite(elo(summary.value)),
                "elo_interval": [finite(elo(summary.low)), finite(elo(summary.high))],
                "average_plies": average_plies,
                "results": games,
            });
            println!("{}", serde_json::to_string_pretty(&out).expect("JSON of plain values"));
            return Ok(());
        }
        let budget = match (self.time_ms, self.nodes) {
            (_, [Some(a), Some(b)]) if a == b => format!("{a} nodes a move"),
            (_, [Some(a), Some(b)]) => format!("A {a} nodes a move, B {b}"),
            (Some(ms), _) => format!("{ms} ms a move"),
            (None, _) => "each engine's own budget".to_owned(),
        };
        let colours = if self.swap { "colours alternating" } else { "A always moves first" };
        println!(
            "{variant}: A = {} vs B = {}, {} games, {budget}, {colours}",
            self.engines[0], self.engines[1], self.games
        );
        println!(
            "{:<16} {:>5} {:>5} {:>6} {:>6} {:>7}  {:<17} Elo difference",
            "engine", "games", "wins", "draws", "losses", "score", "95% interval"
        );
        println!(
            "{:<16} {:>5} {:>5} {:>6} {:>6} {}",
            format!("A {}", self.engines[0]),
            self.games,
            wins,
            draws,
            losses,
            score_columns(summary),
        );
        for player in Player::BOTH {
            let mine: Vec<&GameRecord> = records.iter().filter(|r| r.a_player == player).collect();
            if !mine.is_empty() {
                let count = |s: i32| mine.iter().filter(|r| r.score == s).count();
                println!(
                    "A as {:<6}: {} games, +{} ={} -{}",
                    G::player_name(player),
                    mine.len(),
                    count(1),
                    count(0),
                    count(-1)
                );
            }
        }
        println!("average length: {average_plies:.1} moves");
        Ok(())
    }
}

/// The score, its 95% interval and the Elo difference they mean, as the
/// table prints them: `75.0%  [ 40.9%,  92.9%]  +191 [-64, +449]`.
fn score_columns(summary: Estimate) -> String {
    format!(
        "{:>6.1}%  [{:>5.1}%, {:>5.1}%]  {} [{}, {}]",
        100.0 * summary.value,
        100.0 * summary.low,
        100.0 * summary.high,
        show_elo(elo(summary.value)),
        show_elo(elo(summary.low)),
        show_elo(elo(summary.high)),
    )
}

fn finite(value: f64) -> serde_json::Value {
    if value.is_finite() {
        json!(value.round())
    } else {
        json!(show_elo(value))
    }
}

impl Selfplay {
    /// The tags of game `index` (from 0) of this match.
    fn record_info(&self, index: u64, white: &str, black: &str) -> RecordInfo {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        let event = match self.time_ms {
            Some(ms) => format!("menagerie selfplay, {ms} ms a move"),
            None => "menagerie selfplay".to_owned(),
        };
        RecordInfo {
            event: Some(event),
            site: None,
            date: Some(pgn_date(now as i64)),
            round: Some((index + 1).to_string()),
            white: Some(white.to_owned()),
            black: Some(black.to_owned()),
            time_control: Some("-".to_owned()),
            extra: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_sweep_gets_an_honest_interval() {
        // 4 wins of 4: the score is 100%, but the interval reaches down to
        // 51% and the Elo's lower bound is finite.
        assert_eq!(score_columns(score(4, 0, 0)), " 100.0%  [ 51.0%, 100.0%]  +inf [+7, +inf]");
        assert_eq!(score_columns(score(0, 0, 4)), "   0.0%  [  0.0%,  49.0%]  -inf [-inf, -7]");
        assert_eq!(score_columns(score(10, 0, 10)), "  50.0%  [ 29.9%,  70.1%]  +0 [-148, +148]");
    }
}

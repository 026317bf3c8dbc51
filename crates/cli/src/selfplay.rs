//! `menagerie selfplay`: a match between two computer players, with a
//! progress bar on stderr and a closing table (wins, draws, losses, score
//! with a 95% interval, Elo difference, average length) or JSON.

use crate::error::CliError;
use crate::typed::TypedCommand;
use indicatif::{ProgressBar, ProgressStyle};
use menagerie_ai::{AgentSpec, StopFlag};
use menagerie_core::{sample_chance, Actor, Evaluate, Game, Player, Present};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::json;
use std::time::Duration;

pub struct Selfplay {
    pub games: u32,
    /// Engine A (`--white`) and engine B (`--black`).
    pub engines: [AgentSpec; 2],
    pub time_ms: Option<u64>,
    pub seed: u64,
    /// Alternate colours: A plays the second player in odd-numbered games.
    pub swap: bool,
    pub json: bool,
    /// Uniformly random moves at the start of each game, for variety.
    pub opening_plies: u32,
    /// A game still going after this many moves is adjudicated a draw.
    pub max_plies: u32,
}

/// One finished game, from engine A's view.
struct GameRecord {
    a_player: Player,
    /// +1 A won, 0 draw, -1 A lost.
    score: i32,
    plies: u32,
    reason: String,
}

impl TypedCommand for Selfplay {
    type Output = Result<(), CliError>;

    fn run<G: Game + Evaluate + Present>(self, start: G, variant: &str) -> Self::Output {
        let time = self.time_ms.map(Duration::from_millis);
        let limits = [self.engines[0].limits::<G>(time), self.engines[1].limits::<G>(time)];
        let progress = ProgressBar::new(u64::from(self.games));
        progress.set_style(
            ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} games  {msg}  eta {eta}")
                .expect("a valid template"),
        );
        let mut records = Vec::new();
        let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
        for index in 0..self.games {
            let a_player = if self.swap && index % 2 == 1 { Player::Second } else { Player::First };
            let game_seed = self.seed.wrapping_mul(1_000_003).wrapping_add(u64::from(index));
            // Chance (a deal, draws) acts with the game's own generator, so
            // each game of the match is dealt anew.
            let mut game = start.clone();
            // agents[p] plays player p.
            let a = a_player.index();
            let mut agents = [self.engines[0].build::<G>(game_seed * 2), self.engines[1].build::<G>(game_seed * 2 + 1)];
            let mut seat_limits = [limits[0].clone(), limits[1].clone()];
            if a == 1 {
                agents.swap(0, 1);
                seat_limits.swap(0, 1);
            }
            let mut rng = SmallRng::seed_from_u64(game_seed ^ 0x5eed);
            let mut moves = Vec::new();
            let mut plies = 0u32;
            while game.outcome().is_none() && plies < self.max_plies {
                let mv = match game.to_act() {
                    Actor::Chance => sample_chance(&game, &mut rng),
                    Actor::Player(_) if plies < self.opening_plies => {
                        game.legal_moves(&mut moves);
                        Some(moves[rng.random_range(0..moves.len())])
                    }
                    Actor::Player(p) => {
                        agents[p.index()].decide(&game, &seat_limits[p.index()], &StopFlag::new(), &mut |_| {}).best
                    }
                };
                let mv = mv.ok_or_else(|| CliError::Failed("a player found no move in a game not over".into()))?;
                game.play(mv);
                plies += 1;
            }
            let (score, reason) = match game.outcome() {
                Some(outcome) => (outcome.score_for(a_player), outcome.reason().to_owned()),
                None => (0, format!("adjudicated a draw after {plies} moves")),
            };
            match score {
                1 => wins += 1,
                0 => draws += 1,
                _ => losses += 1,
            }
            records.push(GameRecord { a_player, score, plies, reason });
            progress.inc(1);
            progress.set_message(format!("A +{wins} ={draws} -{losses}"));
        }
        progress.finish_and_clear();
        let summary = Summary::new(wins, draws, losses);
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
                "seed": self.seed,
                "swap": self.swap,
                "games": self.games,
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "score": summary.score,
                "score_interval": [summary.low, summary.high],
                "elo": finite(elo(summary.score)),
                "elo_interval": [finite(elo(summary.low)), finite(elo(summary.high))],
                "average_plies": average_plies,
                "results": games,
            });
            println!("{}", serde_json::to_string_pretty(&out).expect("JSON of plain values"));
            return Ok(());
        }
        let budget = match self.time_ms {
            Some(ms) => format!("{ms} ms a move"),
            None => "each engine's own budget".to_owned(),
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
            "{:<16} {:>5} {:>5} {:>6} {:>6} {:>6.1}%  [{:>5.1}%, {:>5.1}%]  {} [{}, {}]",
            format!("A {}", self.engines[0]),
            self.games,
            wins,
            draws,
            losses,
            100.0 * summary.score,
            100.0 * summary.low,
            100.0 * summary.high,
            show_elo(elo(summary.score)),
            show_elo(elo(summary.low)),
            show_elo(elo(summary.high)),
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

/// The match score (wins + draws/2 over games) with a 95% interval from the
/// normal approximation of the per-game score's spread.
struct Summary {
    score: f64,
    low: f64,
    high: f64,
}

impl Summary {
    fn new(wins: u32, draws: u32, losses: u32) -> Summary {
        let n = f64::from(wins + draws + losses).max(1.0);
        let score = (f64::from(wins) + 0.5 * f64::from(draws)) / n;
        let variance = (f64::from(wins) * (1.0 - score).powi(2)
            + f64::from(draws) * (0.5 - score).powi(2)
            + f64::from(losses) * score.powi(2))
            / n;
        let margin = 1.96 * (variance / n).sqrt();
        Summary { score, low: (score - margin).max(0.0), high: (score + margin).min(1.0) }
    }
}

/// The Elo difference a score means (infinite at 0% and 100%).
fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

fn show_elo(value: f64) -> String {
    if value.is_finite() {
        format!("{value:+.0}")
    } else if value > 0.0 {
        "+inf".to_owned()
    } else {
        "-inf".to_owned()
    }
}

fn finite(value: f64) -> serde_json::Value {
    if value.is_finite() {
        json!(value.round())
    } else {
        json!(show_elo(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_scores_are_zero_elo_and_intervals_are_symmetric() {
        let s = Summary::new(10, 0, 10);
        assert!((s.score - 0.5).abs() < 1e-12);
        assert!((s.high - 0.5 - (0.5 - s.low)).abs() < 1e-12);
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.8).abs() < 0.1);
        assert_eq!(show_elo(elo(1.0)), "+inf");
        let all = Summary::new(5, 0, 0);
        assert_eq!((all.low, all.high), (1.0, 1.0));
    }
}

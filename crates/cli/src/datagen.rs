//! `menagerie datagen`: self-play games that record every position with the
//! search's score and the game's result, the training data of a learned
//! evaluation, in the binary format of `menagerie_ai::datagen`
//! (docs/datagen.md).
//!
//! Game `i` depends only on the settings and `i` (its seeds follow from
//! `--seed` and `i`; one single-threaded search per game with a node
//! budget is deterministic), and games are written in index order whatever
//! thread finished first, so a run is byte for byte reproducible and a
//! range of indices (`--first-game`, `--games`) can go to each process of
//! an array job. A file already there with the same header is continued
//! after its last whole game.

use crate::error::CliError;
use crate::matches::{deal, game_seed, random_opening};
use crate::progress::GamesProgress;
use crate::typed::TypedCommand;
use menagerie_ai::datagen::{flags, stored_score, DataError, DataReader, GameData, Header, Record};
use menagerie_ai::{AlphaBeta, AlphaBetaConfig, EvalKind, Limits, StopFlag};
use menagerie_core::{sample_chance, Actor, Evaluate, Game, Player};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

pub struct Datagen {
    /// Games of this file, from `first_game`.
    pub games: u64,
    pub first_game: u64,
    pub nodes: u64,
    /// The search judges with the built-in network (`eval=learned` at the
    /// game's lazy margin) instead of the tuned evaluation.
    pub learned: bool,
    pub opening_plies: u32,
    pub max_plies: u32,
    pub seed: u64,
    pub jobs: usize,
    pub out: PathBuf,
    pub progress_lines: bool,
}

/// The program that plays, for the header: games of two builds do not mix
/// (another evaluation plays other games), as in a study. The commit names
/// the built-in networks (`data/nnue/`, marked `+changes` when they differ
/// from it); the evaluation the search used follows the build.
fn this_build(learned: bool) -> String {
    let build = format!(
        "menagerie {} (commit {}, data {})",
        env!("CARGO_PKG_VERSION"),
        env!("MENAGERIE_COMMIT"),
        env!("MENAGERIE_DATA_HASH")
    );
    if learned {
        format!("{build}, eval=learned")
    } else {
        build
    }
}

impl TypedCommand for Datagen {
    type Output = Result<(), CliError>;

    fn run<G: Game + Evaluate>(self, start: G, variant: &str) -> Self::Output {
        let header = Header {
            variant: variant.to_owned(),
            build: this_build(self.learned),
            seed: self.seed,
            nodes: self.nodes,
            opening_plies: self.opening_plies,
            max_plies: self.max_plies,
            first_game: self.first_game,
            games: self.games,
        };
        let (mut file, done) = self.open(&header)?;
        let end = self.first_game + self.games;
        let first = self.first_game + done;
        let started = Instant::now();
        if first >= end {
            eprintln!(
                "datagen {variant}: {} already holds its {} games; nothing to do",
                self.out.display(),
                self.games
            );
            return Ok(());
        }
        if done > 0 {
            eprintln!("datagen {variant}: {} holds {done} games; going on from game {first}", self.out.display());
        }
        let progress = GamesProgress::new("datagen", end - first, true, self.progress_lines);
        let next = AtomicU64::new(first);
        let stop = AtomicBool::new(false);
        let (sender, receiver) = mpsc::channel::<(u64, Result<GameData, CliError>)>();
        let mut totals = Totals::default();
        let this = &self;
        let failure = std::thread::scope(|scope| {
            let jobs = self.jobs.clamp(1, usize::try_from(end - first).unwrap_or(usize::MAX));
            for _ in 0..jobs {
                let sender = sender.clone();
                let (next, stop, start) = (&next, &stop, &start);
                scope.spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= end {
                            return;
                        }
                        let game = this.play(start, index);
                        let failed = game.is_err();
                        if sender.send((index, game)).is_err() || failed {
                            stop.store(true, Ordering::Relaxed);
                            return;
                        }
                    }
                });
            }
            drop(sender);
            // Games come in as they finish and go out in index order; the
            // first failure (of a game, or of writing) ends the run after
            // the games before it are written.
            let mut waiting = BTreeMap::new();
            let mut wanted = first;
            let mut failure = None;
            for (index, game) in receiver {
                match game {
                    Ok(game) => {
                        waiting.insert(index, game);
                    }
                    Err(error) => {
                        stop.store(true, Ordering::Relaxed);
                        failure.get_or_insert(error);
                    }
                }
                while let Some(game) = waiting.remove(&wanted) {
                    if let Err(error) = self.append(&mut file, &game) {
                        stop.store(true, Ordering::Relaxed);
                        failure.get_or_insert(error);
                        break;
                    }
                    totals.add(&game);
                    progress.set_message(format!("{} positions", totals.positions));
                    progress.inc();
                    wanted += 1;
                }
                if failure.is_some() && wanted < end && !waiting.contains_key(&wanted) {
                    // Later games cannot be written without the missing one.
                    waiting.clear();
                }
            }
            failure
        });
        progress.finish();
        let seconds = started.elapsed().as_secs_f64();
        eprintln!(
            "datagen {variant}: {} games ({} adjudicated draws), {} positions in {seconds:.1} s, {:.0} positions/s, into {}",
            totals.games,
            totals.adjudicated,
            totals.positions,
            totals.positions as f64 / seconds.max(1e-9),
            self.out.display()
        );
        match failure {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }
}

/// What the run has written.
#[derive(Default)]
struct Totals {
    games: u64,
    adjudicated: u64,
    positions: u64,
}

impl Totals {
    fn add(&mut self, game: &GameData) {
        self.games += 1;
        self.adjudicated += u64::from(game.adjudicated);
        self.positions += game.records.len() as u64;
    }
}

impl Datagen {
    /// The output file, ready for the next game, and how many games it
    /// already holds. A file with another header is refused; a game cut
    /// short at its end (a run stopped while writing) is dropped.
    fn open(&self, header: &Header) -> Result<(File, u64), CliError> {
        let path = &self.out;
        let failed = |e: std::io::Error| CliError::Failed(format!("{}: {e}", path.display()));
        let exists = path.try_exists().map_err(failed)?;
        if !exists {
            let mut file = File::create(path).map_err(|e| CliError::BadInput(format!("{}: {e}", path.display())))?;
            header.write(&mut file).map_err(failed)?;
            file.flush().map_err(failed)?;
            return Ok((file, 0));
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| CliError::BadInput(format!("{}: {e}", path.display())))?;
        let bad = |e: DataError| CliError::BadInput(format!("{}: {e}", path.display()));
        let mut reader = DataReader::new(BufReader::new(&mut file)).map_err(bad)?;
        if let Some(difference) = differences(reader.header(), header) {
            return Err(CliError::BadInput(format!(
                "{} was made with other settings ({difference}): continue it with the same command, or choose another --out",
                path.display()
            )));
        }
        let mut done = 0;
        loop {
            match reader.next_game() {
                Ok(Some(game)) => {
                    let expected = header.first_game + done;
                    if game.index != expected {
                        return Err(CliError::BadInput(format!(
                            "{}: game {} where game {expected} should be",
                            path.display(),
                            game.index
                        )));
                    }
                    done += 1;
                }
                Ok(None) | Err(DataError::Truncated(_)) => break,
                Err(e) => return Err(bad(e)),
            }
        }
        let complete = reader.complete_bytes();
        drop(reader);
        file.set_len(complete).map_err(failed)?;
        file.seek(SeekFrom::End(0)).map_err(failed)?;
        Ok((file, done.min(header.games)))
    }

    /// Writes a game whole and flushes it, so that a run stopped later
    /// keeps it.
    fn append(&self, file: &mut File, game: &GameData) -> Result<(), CliError> {
        let failed = |e: std::io::Error| CliError::Failed(format!("writing {}: {e}", self.out.display()));
        let bytes = game.encode().map_err(failed)?;
        file.write_all(&bytes).map_err(failed)?;
        file.flush().map_err(failed)
    }

    /// Game `index`: the deal and the random opening drawn from its seed,
    /// then alpha-beta at `nodes` a move for both sides until the end or
    /// the move cap. Every position where a player acts after the opening
    /// is recorded with the search's score from that player's view.
    fn play<G: Game + Evaluate>(&self, start: &G, index: u64) -> Result<GameData, CliError> {
        let seed = game_seed(self.seed, index);
        let mut game = start.clone();
        let mut plies: u32 = 0;
        let dealing = deal(start, seed);
        for &mv in &dealing {
            game.play(mv);
            plies += 1;
        }
        for mv in random_opening(&game, self.opening_plies, seed ^ 0x0be0) {
            game.play(mv);
            plies += 1;
        }
        // One searcher plays both sides, one thread: with a node budget its
        // moves depend only on the seed and the positions. Lunch Chess's
        // search samples the cards it cannot see from the actor's view, so
        // its scores use only what the actor knows.
        let (eval, lazy_margin) =
            if self.learned { (EvalKind::Learned, G::LEARNED_LAZY_MARGIN) } else { (EvalKind::Tuned, None) };
        let config = AlphaBetaConfig { seed, threads: 1, eval, lazy_margin, ..AlphaBetaConfig::default() };
        let mut search = AlphaBeta::<G>::new(config);
        let limits = Limits::nodes(self.nodes);
        let mut rng = SmallRng::seed_from_u64(seed ^ 0x5eed);
        let mut recorded: Vec<(Player, Record)> = Vec::new();
        while game.outcome().is_none() && plies < self.max_plies {
            let mv = match game.to_act() {
                Actor::Chance => sample_chance(&game, &mut rng),
                Actor::Player(actor) => {
                    let result = search.search(&game, &limits, &StopFlag::new(), &mut |_| {});
                    if let Some(best) = result.best {
                        let (score, decided) = stored_score(result.info.score);
                        let mut bits = 0;
                        if decided {
                            bits |= flags::DECIDED;
                        }
                        if game.in_check() {
                            bits |= flags::IN_CHECK;
                        }
                        if game.is_tactical(best) {
                            bits |= flags::TACTICAL;
                        }
                        let position = game.to_text();
                        if position.len() > usize::from(u16::MAX) {
                            return Err(CliError::Failed(format!(
                                "game {index}: a position text of {} bytes, more than the format's 65535",
                                position.len()
                            )));
                        }
                        let ply = u16::try_from(plies).map_err(|_| CliError::Failed("ply beyond 65535".into()))?;
                        recorded.push((actor, Record { ply, score, result: 0, flags: bits, position }));
                    }
                    result.best
                }
            };
            let mv = mv.ok_or_else(|| CliError::Failed(format!("game {index}: no move in a game not over")))?;
            game.play(mv);
            plies += 1;
        }
        let outcome = game.outcome();
        let first_result = outcome.as_ref().map_or(0, |o| o.score_for(Player::First)) as i8;
        let records = recorded
            .into_iter()
            .map(|(actor, record)| Record {
                result: if actor == Player::First { first_result } else { -first_result },
                ..record
            })
            .collect();
        Ok(GameData { index, plies, first_result, adjudicated: outcome.is_none(), records })
    }
}

/// The first field in which `found` (a file's header) differs from
/// `wanted` (this run's), as `field: file's value, this run's value`.
fn differences(found: &Header, wanted: &Header) -> Option<String> {
    let fields = [
        ("variant", found.variant.clone(), wanted.variant.clone()),
        ("build", found.build.clone(), wanted.build.clone()),
        ("--seed", found.seed.to_string(), wanted.seed.to_string()),
        ("--nodes", found.nodes.to_string(), wanted.nodes.to_string()),
        ("--opening-plies", found.opening_plies.to_string(), wanted.opening_plies.to_string()),
        ("--max-plies", found.max_plies.to_string(), wanted.max_plies.to_string()),
        ("--first-game", found.first_game.to_string(), wanted.first_game.to_string()),
        ("--games", found.games.to_string(), wanted.games.to_string()),
    ];
    fields
        .into_iter()
        .find(|(_, a, b)| a != b)
        .map(|(name, file, run)| format!("{name}: the file's {file}, this run's {run}"))
}

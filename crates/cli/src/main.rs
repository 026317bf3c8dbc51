//! `menagerie`: play, study and test the Menagerie games from a terminal.

mod analyse;
mod backup;
mod bench;
mod bot;
mod chance;
mod datagen;
mod engine;
mod error;
mod files;
mod ladder;
mod matches;
mod migrate;
mod output;
mod play;
mod progress;
mod puzzles;
mod records;
mod review;
mod selfplay;
mod serve;
mod show;
mod spsa;
mod study;
mod train;
mod tune;
mod typed;

use chance::SeededChance;
use clap::{Parser, Subcommand};
use error::CliError;
use menagerie_ai::AgentSpec;
use menagerie_core::{DynGame, Player};
use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "menagerie", version, about = "Plays a menagerie of strange chess variants", propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// How the long runs (selfplay, ladder, tune) show their progress.
#[derive(clap::Args, Clone, Copy)]
struct ProgressArgs {
    /// Progress as lines on stderr, one per hundredth of the games (for a log; a terminal shows a bar without it)
    #[arg(long)]
    progress: bool,
}

/// Where a command starts: a variant string and a position.
#[derive(clap::Args, Clone)]
struct PositionArgs {
    /// Variant id with options, e.g. `lma`, `lichen-3x3`, `lunch:princess` (see `menagerie variants`)
    variant: String,
    /// A position text as the game's rules define it; `startpos` or nothing for the start
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// Let chance act by itself from this seed: the deal of a start (Lunch Chess), the draws after each move; also seeds the computer players
    #[arg(long)]
    seed: Option<u64>,
    /// Lunch Chess: play with the deck in this TOML file, or `standard` (appends `deck=FILE` to the variant)
    #[arg(long)]
    deck: Option<String>,
}

impl PositionArgs {
    /// The variant string, with `deck=FILE` appended when `--deck` is given.
    fn variant_string(&self) -> String {
        match &self.deck {
            None => self.variant.clone(),
            Some(file) if self.variant.contains(':') => format!("{},deck={file}", self.variant),
            Some(file) => format!("{}:deck={file}", self.variant),
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// List every variant id with a one-line description and its options
    Variants,
    /// Count move paths to a depth (the last line is the count alone)
    Perft {
        #[command(flatten)]
        at: PositionArgs,
        /// Number of plies
        depth: u32,
        /// Print `<move> <count>` for every legal move first, sorted by move text
        #[arg(long)]
        divide: bool,
    },
    /// List the legal move texts, sorted, one a line (nothing if the game is over)
    Moves {
        #[command(flatten)]
        at: PositionArgs,
    },
    /// Draw a position, who is to act, check, and the result if the game is over
    Show {
        #[command(flatten)]
        at: PositionArgs,
        /// Moves to play from the position first
        #[arg(long, num_args = 1.., allow_hyphen_values = true)]
        moves: Vec<String>,
        /// Show only what this player may see (`white`/`black`, `blue`/`red`, `first`/`second`)
        #[arg(long = "as")]
        viewer: Option<String>,
        /// Also print the position text after the moves
        #[arg(long)]
        text: bool,
        /// Print the view the web page draws (JSON, docs/api.md) instead of the drawing
        #[arg(long, conflicts_with = "text")]
        json: bool,
    },
    /// Measure move generation speed: perft nodes per second, per variant
    Bench {
        /// One variant string; every variant when left out
        variant: Option<String>,
        /// Seconds to spend on each position, roughly
        #[arg(long, default_value_t = 1.0)]
        seconds: f64,
        /// Measure random playouts from the start instead (plies per second)
        #[arg(long)]
        playouts: bool,
        /// With --playouts: play exactly this many games instead of --seconds (the same games every run, for instruction counts)
        #[arg(long, requires = "playouts", value_parser = clap::value_parser!(u64).range(1..))]
        games: Option<u64>,
        /// Measure alpha-beta search instead (nodes per second, one thread)
        #[arg(long)]
        search: bool,
    },
    /// Search a position: best move, score, principal variation, depth, nodes, nodes/s
    Analyse {
        #[command(flatten)]
        at: PositionArgs,
        /// Moves to play from the position first
        #[arg(long, num_args = 1.., allow_hyphen_values = true)]
        moves: Vec<String>,
        /// Thinking time in milliseconds (default: one second)
        #[arg(long, conflicts_with = "depth")]
        time: Option<u64>,
        /// Search to this depth (moves of the game model)
        #[arg(long)]
        depth: Option<u32>,
        /// Stop after this many nodes (MCTS: playouts)
        #[arg(long)]
        nodes: Option<u64>,
        /// The searcher: alphabeta, mcts, ismcts... (default: the game's own: alphabeta, or ismcts with hidden information)
        #[arg(long)]
        engine: Option<String>,
        /// Threads to search with (alpha-beta shares one table among them; MCTS grows one tree each)
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: Option<u16>,
    },
    /// Play a game in the terminal; moves are read from stdin
    Play {
        #[command(flatten)]
        at: PositionArgs,
        /// The first player: human, random, greedy, ai[:LEVEL] (easy, medium, hard, strongest), alphabeta[:DEPTH], mcts[:PLAYOUTS]
        #[arg(long, alias = "first", alias = "blue", default_value = "human")]
        white: String,
        /// The second player (same choices)
        #[arg(long, alias = "second", alias = "red", default_value = "ai")]
        black: String,
        /// Thinking time of computer players in milliseconds (default: their level's)
        #[arg(long)]
        time: Option<u64>,
    },
    /// A match between two computer players, with a closing table of results
    Selfplay {
        #[command(flatten)]
        at: PositionArgs,
        /// Number of games
        #[arg(long, default_value_t = 10)]
        games: u32,
        /// Engine A (first player, or alternating with --swap): random, greedy, ai[:LEVEL], alphabeta[:DEPTH], mcts[:PLAYOUTS], ismcts[:PLAYOUTS]
        #[arg(long, alias = "first", alias = "blue")]
        white: String,
        /// Engine B
        #[arg(long, alias = "second", alias = "red")]
        black: String,
        /// Milliseconds per move for engines without a fixed depth or playout count
        #[arg(long)]
        time: Option<u64>,
        /// Nodes (alpha-beta) or playouts (MCTS) a move, instead of time, for both engines
        #[arg(long)]
        nodes: Option<u64>,
        /// Engine B's nodes or playouts a move, when they differ from --nodes
        #[arg(long, requires = "nodes")]
        black_nodes: Option<u64>,
        /// Alternate colours from game to game
        #[arg(long)]
        swap: bool,
        /// Print the results as JSON instead of a table
        #[arg(long)]
        json: bool,
        /// Random moves at the start of each game, for variety
        #[arg(long, default_value_t = 0)]
        opening_plies: u32,
        /// Adjudicate a draw after this many moves
        #[arg(long, default_value_t = 5000)]
        max_plies: u32,
        /// Threads each player searches with (unless its name says, e.g. alphabeta:threads=2)
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: Option<u16>,
        /// Games played at once
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        jobs: u16,
        /// Write every game's record to this file (docs/records.md)
        #[arg(long)]
        records: Option<std::path::PathBuf>,
        #[command(flatten)]
        progress: ProgressArgs,
    },
    /// Self-play games recording every position with its search score and the game's result: training data for a learned evaluation, in a binary file (docs/datagen.md)
    Datagen {
        /// Variant id with options, e.g. `fluid`, `lunch:princess` (see `menagerie variants`)
        variant: String,
        /// The file to write; one with the same settings is continued after its last whole game
        #[arg(long)]
        out: std::path::PathBuf,
        /// Games to play
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        /// Index of the first game (game i's seeds follow from --seed and i): give each job of an array its own range
        #[arg(long, default_value_t = 0)]
        first_game: u64,
        /// Alpha-beta nodes a move
        #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
        /// The evaluation the search plays and scores with: `tuned`, or `learned` (the built-in network, at the game's lazy margin) to make the next network's data with the last one
        #[arg(long, default_value = "tuned", value_parser = ["tuned", "learned"])]
        eval: String,
        /// Uniformly random moves at the start of each game (not recorded), so that games differ
        #[arg(long, default_value_t = 8)]
        opening_plies: u32,
        /// Adjudicate a draw after this many moves (chance's and the opening's included)
        #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u32).range(1..=65535))]
        max_plies: u32,
        /// Seed of the run
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once, one a thread
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        jobs: u16,
        #[command(flatten)]
        progress: ProgressArgs,
    },
    /// Train a game's learned evaluation (a small network) on `datagen` files, on the CPU; writes the network file to build in as data/nnue/<game>.bin (docs/nnue.md)
    Train {
        /// Variant id, e.g. `lichen`
        variant: String,
        /// A `menagerie datagen` file of this variant; may be given several times
        #[arg(long = "data", required = true)]
        data: Vec<std::path::PathBuf>,
        /// The network file to write
        #[arg(long)]
        out: std::path::PathBuf,
        /// Hidden units per perspective [default: 64, or the --from network's]
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
        hidden: Option<u16>,
        /// Passes over the training positions
        #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u16).range(1..=1000))]
        epochs: u16,
        /// Positions a step
        #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        batch: u32,
        /// The first learning rate (it falls along a cosine to a twentieth)
        #[arg(long, default_value_t = 0.002)]
        learning_rate: f64,
        /// The search score's share of the target, from 0 (the result alone) to 1 (the score alone)
        #[arg(long, default_value_t = 0.5)]
        blend: f64,
        /// Also train on positions in check and positions whose best move was tactical
        #[arg(long)]
        keep_noisy: bool,
        /// Seed of the first weights and of the order of the positions
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Train the network alone as the evaluation, instead of a correction added to the tuned one
        #[arg(long)]
        alone: bool,
        /// Go on from this network file's weights (one `train` wrote, e.g. data/nnue/<game>.bin) instead of random ones: a later generation's data refines it
        #[arg(long, value_name = "NETWORK")]
        from: Option<std::path::PathBuf>,
    },
    /// Mine puzzles (one move wins, the others do not) from records files and self-played games: one JSON object a line (docs/puzzles.md)
    Puzzles {
        /// Variant id with options, a game of perfect information (`lma`, `fluid`, `lichen`, `kelasu`...)
        variant: String,
        /// A records file to mine (docs/records.md); its games of this variant are mined. May be given several times
        #[arg(long = "records")]
        records: Vec<std::path::PathBuf>,
        /// Games to play (seeded) and mine
        #[arg(long, default_value_t = 0)]
        selfplay: usize,
        /// Seed of the self-played games
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Append the puzzles to this file (puzzles already in it are not written again); stdout without it
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Nodes of each deep search that builds a solution (default 150000)
        #[arg(long)]
        solve_nodes: Option<u64>,
        /// Nodes of the search of each position when scanning a game (default 3000)
        #[arg(long)]
        scan_nodes: Option<u64>,
        /// Stop playing games once this many puzzles are found
        #[arg(long)]
        enough: Option<usize>,
        #[command(flatten)]
        progress: ProgressArgs,
    },
    /// The computer's review of a recorded game: every ply's evaluation and best move, lichess's inaccuracies, mistakes and blunders, each player's accuracy, as JSON (docs/learn.md)
    Review {
        /// The file of records (docs/records.md)
        file: std::path::PathBuf,
        /// Which game of the file, from 1
        #[arg(long, default_value_t = 1)]
        game: usize,
        /// Nodes of alpha-beta for each position (the server's budget for the game without it)
        #[arg(long)]
        nodes: Option<u64>,
        /// Threads of each search
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: Option<u16>,
        #[command(flatten)]
        progress: ProgressArgs,
    },
    /// Check and replay a file of game records (docs/records.md): each game's result, or the first error
    Replay {
        /// The file of records
        file: std::path::PathBuf,
    },
    /// A round robin of the levels (and any players named), with Elo ratings anchored at random = 0
    Ladder {
        #[command(flatten)]
        at: PositionArgs,
        /// Players besides the levels: alphabeta:eval=handwritten, mcts:1000, ai:hard,threads=2...
        players: Vec<String>,
        /// Leave the levels out: only random and the players named
        #[arg(long)]
        no_levels: bool,
        /// Who meets whom: `all` (a round robin) or `adjacent` (each player only its neighbours in the list)
        #[arg(long, value_enum, default_value_t = ladder::Pairings::All)]
        pairings: ladder::Pairings,
        /// Games per pairing (rounded up to an even number: pairs from one opening, colours swapped)
        #[arg(long, default_value_t = 20)]
        games: u32,
        /// Milliseconds per turn for every player (default: each level's own; one second for the others)
        #[arg(long)]
        time: Option<u64>,
        /// Games played at once
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        jobs: u16,
        /// Random moves at the start of each pair of games
        #[arg(long, default_value_t = 4)]
        opening_plies: u32,
        /// Adjudicate a draw after this many moves
        #[arg(long, default_value_t = 1000)]
        max_plies: u32,
        /// Print the ratings and results as JSON
        #[arg(long)]
        json: bool,
        /// Record the levels' ratings in this file (e.g. data/ratings.toml), keeping other variants'
        #[arg(long)]
        save: Option<std::path::PathBuf>,
        #[command(flatten)]
        progress: ProgressArgs,
    },
    /// Fit the evaluation's weights to game results (Texel's method) and write them as data/eval/<game>.toml
    Tune {
        #[command(flatten)]
        at: PositionArgs,
        /// Tune on these positions (lines of `<first player's result 1|0.5|0><TAB><position text>`) instead of self-play
        #[arg(long)]
        positions: Option<std::path::PathBuf>,
        /// Self-play games to generate positions from
        #[arg(long, default_value_t = 200)]
        games: u32,
        /// Alpha-beta nodes per move in self-play
        #[arg(long, default_value_t = 3000)]
        nodes: u64,
        /// Random moves at the start of each self-play game
        #[arg(long, default_value_t = 8)]
        opening_plies: u32,
        /// Adjudicate a self-play game a draw after this many moves
        #[arg(long, default_value_t = 600)]
        max_plies: u32,
        /// Self-play games played at once
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        jobs: u16,
        /// Gradient steps
        #[arg(long, default_value_t = 2000)]
        iterations: u32,
        /// Step size in centi-units
        #[arg(long, default_value_t = 1.0)]
        learning_rate: f64,
        /// Fit only these features (comma-separated names), keeping the others' weights
        #[arg(long, value_delimiter = ',')]
        only: Vec<String>,
        /// Label each position also with an alpha-beta search of this many nodes (its expected score)
        #[arg(long, default_value_t = 0)]
        label_nodes: u64,
        /// With --label-nodes: the game result's share of each label (0 to 1), the search's the rest
        #[arg(long, default_value_t = 0.5)]
        result_weight: f64,
        /// Where to write the weights (default: data/eval/<game>.toml)
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Also write the self-play positions (in the --positions format)
        #[arg(long)]
        save_positions: Option<std::path::PathBuf>,
        /// Tune by play instead (SPSA): this many pairs of games, colours swapped, between the weights nudged up and down, at --nodes a move
        #[arg(long, conflicts_with_all = ["positions", "games", "label_nodes", "result_weight", "save_positions", "iterations", "learning_rate"], value_parser = clap::value_parser!(u64).range(1..))]
        spsa: Option<u64>,
        /// With --spsa: how far a weight moves for a game's worth of result, in nudges
        #[arg(long, default_value_t = 0.02, requires = "spsa")]
        spsa_rate: f64,
        /// With --spsa: a weight's nudge at the last step, as a share of the weight (at least 2 centi-units)
        #[arg(long, default_value_t = 0.1, requires = "spsa")]
        spsa_nudge: f64,
        #[command(flatten)]
        progress: ProgressArgs,
    },
    /// A variant against itself, many games in parallel: balance, length, complexity, openings, piece values, mechanics (report.md, report.json, length.svg)
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Study {
        #[command(subcommand)]
        action: Option<StudyAction>,
        #[command(flatten)]
        args: StudyArgs,
    },
    /// Speak a UCI-style protocol on stdin/stdout (see the README)
    Engine,
    /// Serve the web page, the JSON API (docs/api.md) and live updates
    Serve(serve::ServeArgs),
    /// Play as a bot account on a server (lichess's Bot API, docs/bots.md) with the engine at a level
    Bot(bot::BotArgs),
    /// A consistent copy of a SQLite store, made while the server runs
    /// (SQLite's online backup); restoring is serving the copy
    Backup {
        /// The store to copy (the file `serve --db` names)
        #[arg(long)]
        db: std::path::PathBuf,
        /// The copy to write (replaced whole, only once complete)
        #[arg(long)]
        to: std::path::PathBuf,
    },
    /// Copy every game of one database into another (a SQLite file into
    /// PostgreSQL), each read back and compared; safe to run again
    Migrate {
        /// The database to copy from: a SQLite file or a postgres:// URL
        #[arg(long)]
        from: String,
        /// The database to copy into (its schema is created if needed)
        #[arg(long)]
        to: String,
    },
    /// Play many concurrent games through the API and sockets of an
    /// in-process server on loopback; report lost/duplicated moves and the
    /// move round-trip percentiles
    Loadtest {
        /// Concurrent games
        #[arg(long, default_value_t = 200)]
        games: usize,
        /// Variant string the games play (default: the first registered variant)
        #[arg(long)]
        variant: Option<String>,
        /// Moves per game at most
        #[arg(long, default_value_t = 40)]
        plies: usize,
        /// Mean pause before each move and before each game starts, in milliseconds (players thinking and arriving over time); 0 plays back to back
        #[arg(long, default_value_t = 0)]
        think_ms: u64,
        /// Drive servers running elsewhere instead (http://host:port; repeat
        /// for several nodes on one database: each move goes to the next)
        #[arg(long)]
        addr: Vec<String>,
        /// Run the in-process servers on this PostgreSQL database (postgres://...)
        #[arg(long)]
        db: Option<String>,
        /// In-process servers on the --db database
        #[arg(long, default_value_t = 1)]
        nodes: usize,
        /// Instead of games, the socket flood: open this many game sockets
        /// from one address, leave them idle, and time plain requests
        #[arg(long)]
        idle_sockets: Option<usize>,
        /// With --idle-sockets: hold the sockets this many seconds, timing
        /// plain requests every 10 s
        #[arg(long, default_value_t = 0.0, requires = "idle_sockets")]
        hold: f64,
        /// With --idle-sockets and --addr: the server's process id, to
        /// report its memory per socket (Linux)
        #[arg(long, requires = "idle_sockets")]
        server_pid: Option<u32>,
    },
}

#[derive(Subcommand)]
enum StudyAction {
    /// Join the games of several slices (`--shard`) or runs of one study, and report them
    Merge {
        /// Folders of the slices
        #[arg(required = true)]
        dirs: Vec<std::path::PathBuf>,
        /// Folder of the merged study
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Play a study's first games again and compare them with its record, game by game (exit 1 when one differs)
    Verify {
        /// Folder of the study
        dir: std::path::PathBuf,
        /// Games to play again, the first ones (default: all)
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        games: Option<u64>,
        /// Games played at once, one a thread (default: every core)
        #[arg(long)]
        threads: Option<usize>,
    },
}

#[derive(clap::Args)]
struct StudyArgs {
    /// Variant string(s); several with --compare
    #[arg(required = true)]
    variants: Vec<String>,
    /// Run the same study on every variant named and print the differences with the first
    #[arg(long)]
    compare: bool,
    /// Number of games (of all shards together)
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// The player, against itself: alphabeta[:DEPTH], mcts[:PLAYOUTS], ismcts[:PLAYOUTS], ai[:LEVEL], greedy, random
    #[arg(long, default_value = "alphabeta")]
    player: String,
    /// Milliseconds a move (results then depend on the machine's speed)
    #[arg(long)]
    time: Option<u64>,
    /// Nodes (alpha-beta) or playouts (MCTS) a move; the default when --time is not given.
    /// Several (--nodes 2000,20000,200000): the study at each, in OUT/nodes-N, and
    /// strength.md, strength.json and strength.svg: each measure against strength
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Vec<u64>,
    /// Games played at once, one a thread (default: every core)
    #[arg(long)]
    threads: Option<usize>,
    /// Seed of the study: game i's seeds follow from it and i
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Moves every game starts with, space-separated move texts
    #[arg(long, allow_hyphen_values = true)]
    opening: Option<String>,
    /// Uniformly random moves after the opening, so that games differ
    #[arg(long, default_value_t = 2)]
    random_plies: u32,
    /// A game still going after this many moves is adjudicated a draw
    #[arg(long, default_value_t = 2000)]
    max_plies: u32,
    /// Choose among the near-best moves (alphabeta), this likely (centi-units of the
    /// evaluation: a move T worse is played e^-1 as often as the best), so that games
    /// differ; 0 plays the best move
    #[arg(long, default_value_t = 0)]
    temperature: u32,
    /// Play only slice I of N (games i with i mod N = I - 1); join slices with `study merge`
    #[arg(long, value_parser = study::parse_shard)]
    shard: Option<(u64, u64)>,
    /// Folder of the study (default: study/<variant>; with --compare, one sub-folder per variant)
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// No progress bar
    #[arg(long)]
    quiet: bool,
}

fn main() -> ExitCode {
    // Help, versions and argument errors are printing too.
    quiet_on_closed_pipe(true);
    let cli = Cli::parse();
    if !cli.command.prints_only() {
        quiet_on_closed_pipe(false);
    }
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(error.exit_status())
        }
    }
}

impl Command {
    /// Whether the command's whole job is to print (a closed pipe may then
    /// end it as it ends coreutils). The servers, clients and data copies
    /// are not: they write to sockets, and not every socket write of the
    /// libraries under them suppresses SIGPIPE (a vectored write does not),
    /// so a peer hanging up would kill them with the default disposition.
    /// They keep Rust's (ignored: the write fails and is handled) and print
    /// with [`output::say`], which never panics.
    fn prints_only(&self) -> bool {
        !matches!(
            self,
            Command::Serve(_)
                | Command::Bot(_)
                | Command::Loadtest { .. }
                | Command::Engine
                | Command::Backup { .. }
                | Command::Migrate { .. }
        )
    }
}

/// A reader that stops early (`menagerie moves lichen | head -3`) ends a
/// printing command as it ends coreutils: SIGPIPE, no message. Rust ignores
/// SIGPIPE, which turns the closed pipe into an error that `println!` panics
/// on. Only for [`Command::prints_only`]: a server must outlive its clients,
/// so for the others (`quiet` false) SIGPIPE is ignored again, as Rust has it.
fn quiet_on_closed_pipe(quiet: bool) {
    #[cfg(unix)]
    // SAFETY: at the start of main, before any other thread exists, setting
    // a signal's disposition changes nothing else.
    unsafe {
        libc::signal(libc::SIGPIPE, if quiet { libc::SIG_DFL } else { libc::SIG_IGN });
    }
}

fn run(command: Command) -> Result<(), CliError> {
    match command {
        Command::Variants => {
            for info in menagerie_games::variants() {
                println!("{:<20} {}", info.id, info.summary);
                for option in info.options {
                    let name = match option.value {
                        Some(value) => format!("{}={value}", option.name),
                        None => option.name.to_owned(),
                    };
                    println!("{:<20}   option {name}: {}", "", option.summary);
                }
            }
        }
        Command::Perft { at, depth, divide } => {
            let (mut game, _) = open(&at)?;
            if divide {
                let lines = game.divide(depth);
                for (text, count) in &lines {
                    println!("{text} {count}");
                }
                println!("{}", lines.iter().map(|(_, c)| c).sum::<u64>());
            } else {
                println!("{}", game.perft(depth));
            }
        }
        Command::Moves { at } => {
            for text in open(&at)?.0.legal_moves() {
                println!("{text}");
            }
        }
        Command::Show { at, moves, viewer, text, json } => {
            let (mut game, mut chance) = open(&at)?;
            for (index, mv) in moves.iter().enumerate() {
                game.play(mv).map_err(|e| CliError::BadInput(format!("move {} of --moves: {e}", index + 1)))?;
                chance.act_dyn(game.as_mut())?;
            }
            let viewer = viewer.map(|name| parse_player(game.as_ref(), &name)).transpose()?;
            if json {
                println!("{}", game.view(viewer));
                return Ok(());
            }
            print!("{}", describe(game.as_ref(), viewer));
            if text {
                match viewer {
                    Some(p) => println!("{}", game.view_text(p)),
                    None => println!("{}", game.to_text()),
                }
            }
        }
        Command::Bench { variant, seconds, playouts, games, search } => {
            if playouts || search {
                bench::run_ai(variant.as_deref(), seconds, playouts.then_some(games), search)?
            } else {
                bench::run(variant.as_deref(), seconds)?
            }
        }
        Command::Analyse { at, moves, time, depth, nodes, engine, threads } => {
            let engine =
                engine.map(|e| AgentSpec::parse(&e)).transpose().map_err(|e| CliError::BadInput(e.to_string()))?;
            let threads = threads.map(usize::from);
            let command = analyse::Analyse { time_ms: time, depth, nodes, engine, moves, seed: at.seed, threads };
            typed::run(&start(&at), command)??
        }
        Command::Play { at, white, black, time } => {
            let seats = [play::Seat::parse(&white)?, play::Seat::parse(&black)?];
            typed::run(&start(&at), play::Play { seats, time_ms: time, seed: at.seed.unwrap_or(0) })??
        }
        Command::Selfplay {
            at,
            games,
            white,
            black,
            time,
            nodes,
            black_nodes,
            swap,
            json,
            opening_plies,
            max_plies,
            threads,
            jobs,
            records,
            progress,
        } => {
            let parse = |text: &str| AgentSpec::parse(text).map_err(|e| CliError::BadInput(e.to_string()));
            let seed = at.seed.unwrap_or(0);
            let mut engines = [parse(&white)?, parse(&black)?];
            for engine in &mut engines {
                engine.threads = engine.threads.or(threads.map(usize::from));
            }
            let command = selfplay::Selfplay {
                games,
                engines,
                jobs: usize::from(jobs),
                time_ms: time,
                nodes: [nodes, black_nodes.or(nodes)],
                seed,
                swap,
                json,
                opening_plies,
                max_plies,
                records,
                progress_lines: progress.progress,
                start_text: at.position.clone().filter(|p| p.trim() != "startpos"),
            };
            typed::run(&start(&at), command)??
        }
        Command::Study { action: Some(StudyAction::Merge { dirs, out }), .. } => {
            let report = study::merge(&dirs, &out, &command_line())?;
            println!("{}", study::summary(&report, &out));
        }
        Command::Study { action: Some(StudyAction::Verify { dir, games, threads }), .. } => {
            let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            println!("{}", study::verify(&dir, games, threads.max(1))?);
        }
        Command::Study { action: None, args } => run_study(args)?,
        Command::Replay { file } => records::replay_file(&file)?,
        Command::Datagen {
            variant,
            out,
            games,
            first_game,
            nodes,
            eval,
            opening_plies,
            max_plies,
            seed,
            jobs,
            progress,
        } => {
            if first_game.checked_add(games).is_none() {
                return Err(CliError::BadInput("--first-game plus --games goes beyond 2^64".into()));
            }
            let command = datagen::Datagen {
                games,
                first_game,
                nodes,
                learned: eval == "learned",
                opening_plies,
                max_plies,
                seed,
                jobs: usize::from(jobs),
                out,
                progress_lines: progress.progress,
            };
            typed::run(&typed::Start { variant, position: None }, command)??
        }
        Command::Train {
            variant,
            data,
            out,
            hidden,
            epochs,
            batch,
            learning_rate,
            blend,
            keep_noisy,
            seed,
            alone,
            from,
        } => {
            if !(0.0..=1.0).contains(&blend) {
                return Err(CliError::BadInput(format!("--blend {blend}: give a number from 0 to 1")));
            }
            if !(learning_rate > 0.0 && learning_rate <= 1.0) {
                return Err(CliError::BadInput(format!(
                    "--learning-rate {learning_rate}: give a number above 0, at most 1"
                )));
            }
            let settings = menagerie_train::Settings {
                hidden: hidden.map_or(64, usize::from),
                epochs: usize::from(epochs),
                batch: batch as usize,
                learning_rate,
                seed,
                base: if alone { menagerie_core::nnue::Base::Nothing } else { menagerie_core::nnue::Base::Tuned },
                start: None,
            };
            let filter = menagerie_train::Filter { keep_noisy, ..Default::default() };
            let hidden_asked = hidden.map(usize::from);
            let command =
                train::Train { data, out, blend, settings, filter, from, hidden_asked, command: command_line() };
            typed::run(&typed::Start { variant, position: None }, command)??
        }
        Command::Review { file, game, nodes, threads, progress } => review::run(review::ReviewArgs {
            file,
            game,
            nodes,
            threads: threads.map(usize::from),
            progress_lines: progress.progress,
        })?,
        Command::Puzzles { variant, records, selfplay, seed, out, solve_nodes, scan_nodes, enough, progress } => {
            puzzles::run(puzzles::PuzzlesArgs {
                variant,
                records,
                selfplay,
                seed,
                out,
                solve_nodes,
                scan_nodes,
                progress_lines: progress.progress,
                enough,
            })?
        }
        Command::Ladder {
            at,
            players,
            no_levels,
            pairings,
            games,
            time,
            jobs,
            opening_plies,
            max_plies,
            json,
            save,
            progress,
        } => {
            let named = players
                .iter()
                .map(|text| AgentSpec::parse(text).map_err(|e| CliError::BadInput(e.to_string())))
                .collect::<Result<Vec<_>, _>>()?;
            if at.position.as_deref().is_some_and(|p| p.trim() != "startpos") {
                return Err(CliError::BadInput("a ladder plays from the start: --position is not used".into()));
            }
            let command = ladder::Ladder {
                named,
                levels: !no_levels,
                pairings,
                games,
                time_ms: time,
                jobs: usize::from(jobs),
                seed: at.seed.unwrap_or(0),
                opening_plies,
                max_plies,
                json,
                save,
                progress_lines: progress.progress,
                command: command_line(),
            };
            let at = PositionArgs { seed: Some(at.seed.unwrap_or(0)), ..at };
            typed::run(&start(&at), command)??
        }
        Command::Tune {
            at,
            positions,
            games,
            nodes,
            opening_plies,
            max_plies,
            jobs,
            iterations,
            learning_rate,
            only,
            label_nodes,
            result_weight,
            out,
            save_positions,
            spsa,
            spsa_rate,
            spsa_nudge,
            progress,
        } => {
            if let Some(steps) = spsa {
                if !(spsa_rate.is_finite() && spsa_rate > 0.0) {
                    return Err(CliError::BadInput("--spsa-rate must be a positive number".into()));
                }
                if !(spsa_nudge.is_finite() && spsa_nudge > 0.0 && spsa_nudge < 1.0) {
                    return Err(CliError::BadInput("--spsa-nudge must be a number between 0 and 1".into()));
                }
                let settings = menagerie_ai::spsa::SpsaSettings {
                    steps,
                    nudge_share: spsa_nudge,
                    rate: spsa_rate,
                    ..Default::default()
                };
                let command = spsa::TuneByPlay {
                    settings,
                    only,
                    nodes: nodes.max(1),
                    opening_plies,
                    max_plies,
                    jobs: usize::from(jobs),
                    progress_lines: progress.progress,
                    seed: at.seed.unwrap_or(0),
                    out,
                    command: command_line(),
                };
                let at = PositionArgs { seed: Some(at.seed.unwrap_or(0)), ..at };
                return typed::run(&start(&at), command)?;
            }
            if !(learning_rate.is_finite() && learning_rate > 0.0) {
                return Err(CliError::BadInput("--learning-rate must be a positive number".into()));
            }
            if !(0.0..=1.0).contains(&result_weight) {
                return Err(CliError::BadInput("--result-weight must be a number from 0 to 1".into()));
            }
            let settings = menagerie_ai::tune::TuneSettings { iterations, learning_rate, ..Default::default() };
            let command = tune::Tune {
                only,
                label_nodes,
                result_weight,
                positions,
                games,
                nodes: nodes.max(1),
                opening_plies,
                max_plies,
                jobs: usize::from(jobs),
                seed: at.seed.unwrap_or(0),
                settings,
                out,
                save_positions,
                progress_lines: progress.progress,
                command: command_line(),
            };
            let at = PositionArgs { seed: Some(at.seed.unwrap_or(0)), ..at };
            typed::run(&start(&at), command)??
        }
        Command::Engine => engine::run()?,
        Command::Serve(args) => serve::serve(args)?,
        Command::Bot(args) => bot::bot(args)?,
        Command::Backup { db, to } => backup::backup(&db, &to)?,
        Command::Migrate { from, to } => migrate::migrate(&from, &to)?,
        Command::Loadtest { games, variant, plies, think_ms, addr, db, nodes, idle_sockets, hold, server_pid } => {
            let target = serve::LoadTarget::from_args(addr, db, nodes)?;
            let variant = match variant {
                Some(v) => v,
                None => menagerie_games::variants()
                    .first()
                    .map(|info| info.id.to_owned())
                    .unwrap_or_else(|| "nim:stones=200".to_owned()),
            };
            match idle_sockets {
                Some(sockets) => {
                    let hold = std::time::Duration::try_from_secs_f64(hold)
                        .map_err(|_| CliError::BadInput(format!("--hold {hold}: expected a number of seconds")))?;
                    let options = menagerie_loadtest::FloodOptions { sockets, variant, hold, server_pid };
                    serve::flood(options, target)?
                }
                None => serve::loadtest(
                    menagerie_loadtest::LoadOptions { games, variant, max_plies: plies, think_ms },
                    target,
                )?,
            }
        }
    }
    Ok(())
}

fn run_study(args: StudyArgs) -> Result<(), CliError> {
    let player = AgentSpec::parse(&args.player).map_err(|e| CliError::BadInput(e.to_string()))?;
    if args.variants.len() > 1 && !args.compare {
        return Err(CliError::BadInput("several variants need --compare".into()));
    }
    if args.games == 0 {
        return Err(CliError::BadInput("--games must be at least 1".into()));
    }
    if args.temperature > study::MAX_TEMPERATURE {
        return Err(CliError::BadInput(format!(
            "--temperature {}: at most {} (centi-units of the evaluation)",
            args.temperature,
            study::MAX_TEMPERATURE
        )));
    }
    if args.temperature > 0 && !matches!(player.kind, menagerie_ai::AgentKind::AlphaBeta { .. }) {
        return Err(CliError::BadInput(format!(
            "--temperature needs the alphabeta player (it scores the near-best moves); {} chooses its own way",
            args.player
        )));
    }
    let options = study::StudyOptions {
        games: args.games,
        player,
        time_ms: args.time,
        nodes: args.nodes.first().copied(),
        threads: args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1),
        seed: args.seed,
        opening: args.opening.map(|o| o.split_whitespace().map(str::to_owned).collect()).unwrap_or_default(),
        random_plies: args.random_plies,
        max_plies: args.max_plies,
        temperature: args.temperature,
        shard: args.shard.unwrap_or((1, 1)),
        progress: !args.quiet,
        command: command_line(),
    };
    if args.nodes.len() < 2 {
        return study_variants(&args.variants, args.compare, args.out.as_deref(), &options).map(|_| ());
    }
    let mut budgets = args.nodes.clone();
    budgets.sort_unstable();
    budgets.dedup();
    let base = args.out.clone().unwrap_or_else(|| study::default_folder(&args.variants[0]));
    let mut rungs = Vec::new();
    for nodes in budgets {
        let options = study::StudyOptions { nodes: Some(nodes), ..options.clone() };
        let dir = study::rung_folder(&base, nodes);
        let reports = study_variants(&args.variants, args.compare, Some(&dir), &options)?;
        rungs.push(study::Rung { nodes, reports });
    }
    print!("\n{}", study::write_strength(&base, &rungs)?);
    Ok(())
}

/// One study of each variant (with `compare`, side by side in `out`).
fn study_variants(
    variants: &[String],
    compare: bool,
    out: Option<&std::path::Path>,
    options: &study::StudyOptions,
) -> Result<Vec<study::Report>, CliError> {
    let mut reports = Vec::new();
    for variant in variants {
        let dir = match (out, compare) {
            (Some(out), true) => out.join(study::default_folder(variant).file_name().expect("a folder name")),
            (Some(out), false) => out.to_owned(),
            (None, _) => study::default_folder(variant),
        };
        let report = study::run(variant, &dir, options)?;
        println!("{}", study::summary(&report, &dir));
        reports.push(report);
    }
    if compare {
        let table = study::compare(&reports);
        if let Some(out) = out {
            let path = out.join("compare.md");
            std::fs::write(&path, &table).map_err(|e| CliError::Failed(format!("{}: {e}", path.display())))?;
        }
        print!("\n{table}");
    }
    Ok(reports)
}

/// The command as typed, for the files that record how they were made.
/// Words a shell would split or expand are quoted, so that the line runs as
/// recorded (`--opening "a2ne;a2*ne"`).
fn command_line() -> String {
    let quote = |word: String| {
        let plain = |c: char| c.is_ascii_alphanumeric() || "-_.,:/=+@%".contains(c);
        if !word.is_empty() && word.chars().all(plain) {
            word
        } else {
            format!("'{}'", word.replace('\'', "'\\''"))
        }
    };
    let words: Vec<String> = std::env::args().skip(1).map(quote).collect();
    format!("menagerie {}", words.join(" "))
}

fn start(at: &PositionArgs) -> typed::Start {
    typed::Start { variant: at.variant_string(), position: at.position.clone() }
}

/// The position `at` names, behind texts; with `--seed`, chance has acted
/// (the deal) and goes on acting from the returned generator.
fn open(at: &PositionArgs) -> Result<(Box<dyn DynGame>, SeededChance), CliError> {
    let mut game = menagerie_games::new_game(&at.variant_string(), at.position.as_deref(), 0, &files::DataFiles)
        .map_err(|e| CliError::BadInput(e.to_string()))?;
    let mut chance = SeededChance::new(at.seed);
    chance.act_dyn(game.as_mut())?;
    Ok((game, chance))
}

fn parse_player(game: &dyn DynGame, name: &str) -> Result<Player, CliError> {
    let lower = name.to_ascii_lowercase();
    Player::BOTH
        .into_iter()
        .find(|&p| {
            game.player_name(p) == lower
                || (p == Player::First && lower == "first")
                || (p == Player::Second && lower == "second")
        })
        .ok_or_else(|| {
            CliError::BadInput(format!(
                "unknown player {name:?}: expected {} or {}",
                game.player_name(Player::First),
                game.player_name(Player::Second)
            ))
        })
}

/// The drawing plus the status lines under it.
fn describe(game: &dyn DynGame, viewer: Option<Player>) -> String {
    show::describe(game.render(viewer), game.outcome(), game.to_act(), game.in_check(), |p| game.player_name(p))
}

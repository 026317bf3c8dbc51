//! `menagerie play`: a game in the terminal between people and computer
//! players, read from stdin (so it can be scripted and tested).

use crate::chance::SeededChance;
use crate::error::CliError;
use crate::typed::TypedCommand;
use menagerie_ai::{Agent, AgentSpec, Limits, Score, StopFlag};
use menagerie_core::{sample_chance, Actor, Evaluate, Game, Player, Present};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::io::{self, BufRead, Write};
use std::time::Duration;

/// Who sits at one side of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    Computer(AgentSpec),
}

impl Seat {
    /// `human`, or a computer player (`random`, `ai`, `ai:easy`, `mcts:500`...).
    pub fn parse(text: &str) -> Result<Seat, CliError> {
        if text == "human" {
            return Ok(Seat::Human);
        }
        AgentSpec::parse(text).map(Seat::Computer).map_err(|e| CliError::BadInput(format!("{e} (or human)")))
    }
}

/// A computer player and its budget per move.
type Computer<G> = (Box<dyn Agent<G>>, Limits);

pub struct Play {
    pub seats: [Seat; 2],
    pub time_ms: Option<u64>,
    pub seed: u64,
}

const HELP: &str = "type a move in the game's notation, or: moves (list the legal moves), \
undo (take back your last move), help, quit";

/// Plays move texts given on the command line, saying which one is wrong.
pub fn play_texts<G: Game>(
    game: &mut G,
    texts: &[String],
    what: &str,
    chance: &mut SeededChance,
) -> Result<(), CliError> {
    chance.act(game);
    for (index, text) in texts.iter().enumerate() {
        let mv = game
            .parse_move(text)
            .map_err(|e| CliError::BadInput(format!("move {} of {what} ({text:?}): {e}", index + 1)))?;
        game.play(mv);
        chance.act(game);
    }
    Ok(())
}

/// The board and the status lines under it.
pub fn describe<G: Present>(game: &G, viewer: Option<Player>) -> String {
    crate::show::describe(game.render(viewer), game.outcome(), game.to_act(), game.in_check(), G::player_name)
}

impl TypedCommand for Play {
    type Output = Result<(), CliError>;

    fn run<G: Game + Evaluate + Present>(self, mut game: G, _variant: &str) -> Self::Output {
        let time = self.time_ms.map(Duration::from_millis);
        let mut computers: Vec<Option<Computer<G>>> = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, seat)| match seat {
                Seat::Human => None,
                Seat::Computer(spec) => Some((spec.build::<G>(self.seed + i as u64), spec.limits::<G>(time))),
            })
            .collect();
        let humans: Vec<Player> = Player::BOTH.into_iter().filter(|p| self.seats[p.index()] == Seat::Human).collect();
        let mut rng = SmallRng::seed_from_u64(self.seed);
        let stdin = io::stdin();
        let mut input = stdin.lock().lines();
        // Moves played since the start, and who played each (for undo).
        let mut played: Vec<Actor> = Vec::new();
        let mut legal = Vec::new();
        loop {
            // In a game of hidden information a lone human sees only their
            // side; two humans at one screen each see their own at their turn.
            let viewer = match (G::has_hidden_information(), humans.as_slice(), game.to_act()) {
                (false, _, _) => None,
                (true, [one], _) => Some(*one),
                (true, _, Actor::Player(p)) => Some(p),
                (true, _, Actor::Chance) => None,
            };
            print!("\n{}", describe(&game, viewer));
            if game.outcome().is_some() {
                return Ok(());
            }
            let actor = game.to_act();
            let player = match actor {
                Actor::Chance => {
                    let mv = sample_chance(&game, &mut rng).expect("a chance move while the game goes on");
                    // A card drawn into a hand is no one else's business.
                    if menagerie_core::view::move_text_hidden(actor, G::has_hidden_information(), false) {
                        println!("chance moves");
                    } else {
                        println!("chance: {}", game.move_text(mv));
                    }
                    game.play(mv);
                    played.push(actor);
                    continue;
                }
                Actor::Player(p) => p,
            };
            let name = G::player_name(player);
            if let Some((agent, limits)) = &mut computers[player.index()] {
                let decision = agent.decide(&game, limits, &StopFlag::new(), &mut |_| {});
                let mv = decision.best.expect("a move while the game goes on");
                let mut line = format!("{name} plays {}", game.move_text(mv));
                if let Some(info) = decision.info {
                    let score = match info.score {
                        Score::Cp(cp) => format!("{cp:+}"),
                        Score::Win(n) => format!("wins in {n}"),
                        Score::Loss(n) => format!("loses in {n}"),
                    };
                    line.push_str(&format!(" ({score}, depth {}, {} nodes)", info.depth, info.nodes));
                }
                println!("{line}");
                game.play(mv);
                played.push(actor);
                continue;
            }
            loop {
                print!("{name}> ");
                io::stdout().flush().map_err(|e| CliError::Failed(e.to_string()))?;
                let Some(line) = input.next() else {
                    println!("\ninput ended; game abandoned");
                    return Ok(());
                };
                let line = line.map_err(|e| CliError::Failed(format!("reading stdin: {e}")))?;
                let text = line.trim();
                match text {
                    "" => continue,
                    "quit" | "resign" => {
                        println!("{name} resigns");
                        return Ok(());
                    }
                    "help" | "?" => println!("{HELP}"),
                    "moves" => {
                        game.legal_moves(&mut legal);
                        let mut texts: Vec<String> = legal.iter().map(|&mv| game.move_text(mv)).collect();
                        texts.sort();
                        println!("{}", texts.join(" "));
                    }
                    "undo" => {
                        // Take back to this player's previous turn: their
                        // last move and everything after it.
                        match played.iter().rposition(|&a| a == Actor::Player(player)) {
                            Some(from) => {
                                for _ in from..played.len() {
                                    game.undo();
                                }
                                played.truncate(from);
                                break;
                            }
                            None => println!("nothing of yours to take back"),
                        }
                    }
                    _ => match game.parse_move(text) {
                        Ok(mv) => {
                            game.play(mv);
                            played.push(actor);
                            break;
                        }
                        Err(e) => println!("{e}; type `moves` for the legal moves, `help` for help"),
                    },
                }
            }
        }
    }
}

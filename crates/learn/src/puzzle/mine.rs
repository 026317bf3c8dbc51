//! Mining a game for a puzzle, as lichess-puzzler does (its `generator`),
//! written for any game of perfect information:
//!
//! 1. **Scan**: every position of the game is searched cheaply. A position
//!    is a candidate where the player to act had no winning game a move
//!    ago (winning chances at most [`MineConfig::start_at_most`]) and the
//!    other side's move just handed them one: their winning chances jumped
//!    by at least [`MineConfig::jump`], or they now have a forced win.
//! 2. **Cook**: from a candidate, deep searches build the solution. At
//!    each of the solver's moves the best move must be the only good one:
//!    the runner-up is worse by more than [`MineConfig::gap`] in winning
//!    chances (lichess's 0.42 between the best and the second line of a
//!    multi-PV search). The other side answers with the search's best
//!    reply. The line ends where the solver's best move is no longer
//!    unique, the game ends, or the solver has made
//!    [`MineConfig::max_solver_moves`] moves; it is then cut back to end
//!    on a solver's move that was a real choice (not the only legal move).
//! 3. **Keep** only solutions that achieve something nameable
//!    ([`super::themes`]): a win, or material (lichess keeps advantage
//!    puzzles that gain material).
//!
//! Win chances come from each game's fitted win scale
//! ([`crate::chances`]), so the thresholds serve all games.
//!
//! "The runner-up is worse" is checked exactly: a first search finds the
//! best move and its score; a second, to the same depth, scores exactly
//! every root move that comes within the gap of it (alpha-beta's
//! near-best margin), so every move it does not list is proven worse.

use super::themes::{name_themes, Themes};
use super::{puzzle_id, starting_rating, Puzzle, Source};
use crate::chances::{negate, WinScale};
use menagerie_ai::{AlphaBeta, AlphaBetaConfig, Limits, Score, StopFlag};
use menagerie_core::{Actor, Evaluate, Game, Player, Present};

/// How hard the miner looks.
#[derive(Clone, Debug, PartialEq)]
pub struct MineConfig {
    /// Nodes to search each position of a game when scanning it.
    pub scan_nodes: u64,
    /// Nodes of the deep searches that build a solution.
    pub solve_nodes: u64,
    /// The runner-up must be worse than the best by more than this, in
    /// winning chances (-1 .. 1).
    pub gap: f64,
    /// The rise in winning chances that makes a candidate.
    pub jump: f64,
    /// A candidate's winning chances a move before it, at most.
    pub start_at_most: f64,
    /// The solver's winning chances after the first move, at least.
    pub winning_at_least: f64,
    pub max_solver_moves: usize,
    /// Table size of the searches.
    pub hash_megabytes: usize,
}

impl Default for MineConfig {
    fn default() -> Self {
        MineConfig {
            scan_nodes: 3_000,
            solve_nodes: 150_000,
            gap: 0.42,
            jump: 0.5,
            start_at_most: 0.66,
            winning_at_least: 0.5,
            max_solver_moves: 4,
            hash_megabytes: 32,
        }
    }
}

/// A game to mine: a start and the moves played from it.
pub struct PlayedGame<G: Game> {
    pub start: G,
    pub moves: Vec<G::Move>,
    /// Where it comes from; the ply is filled in for each puzzle.
    pub source: Source,
}

/// What the miner saw: how many positions became candidates and why the
/// others were dropped (to tune the thresholds by).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MineStats {
    pub games: usize,
    pub positions: usize,
    pub candidates: usize,
    /// The first move was not the only good one.
    pub ambiguous: usize,
    /// The first move did not leave the solver winning enough.
    pub not_winning: usize,
    /// The solution neither won, gained material, harvested nor converted.
    pub nothing_achieved: usize,
    pub kept: usize,
}

/// The miner: its searchers are kept from game to game.
pub struct Miner<G: Game + Evaluate> {
    pub stats: MineStats,
    config: MineConfig,
    scale: WinScale,
    scanner: AlphaBeta<G>,
    solver: AlphaBeta<G>,
    stop: StopFlag,
}

impl<G: Game + Evaluate + Present> Miner<G> {
    pub fn new(config: MineConfig) -> Self {
        let searcher = |mb: usize| AlphaBeta::new(AlphaBetaConfig { hash_megabytes: mb.max(1), ..Default::default() });
        Miner {
            stats: MineStats::default(),
            scale: WinScale(G::win_scale()),
            scanner: searcher(config.hash_megabytes / 4),
            solver: searcher(config.hash_megabytes),
            stop: StopFlag::new(),
            config,
        }
    }

    /// The puzzles of one game (at most one a candidate; candidates whose
    /// solution would overlap an earlier puzzle's are skipped).
    pub fn mine(&mut self, game: &PlayedGame<G>, variant: &str) -> Vec<Puzzle> {
        if G::has_hidden_information() {
            return Vec::new();
        }
        let mut positions = vec![game.start.clone()];
        for &mv in &game.moves {
            let mut next = positions.last().expect("a start").clone();
            next.play(mv);
            positions.push(next);
        }
        let scores: Vec<Option<Score>> = positions
            .iter()
            .map(|p| match p.to_act() {
                Actor::Player(_) if p.outcome().is_none() => Some(
                    self.scanner.search(p, &Limits::nodes(self.config.scan_nodes), &self.stop, &mut |_| {}).info.score,
                ),
                _ => None,
            })
            .collect();
        self.stats.games += 1;
        let mut puzzles = Vec::new();
        let mut free_from = 1;
        for i in 1..positions.len() {
            // Where the other side's turn began: a mistake early in a turn
            // of several actions (Kelasu) shows in the score at the turn's
            // start, not at its last action.
            let opponent_turn = (1..i).rev().find(|&j| positions[j].to_act() != positions[j - 1].to_act()).unwrap_or(0);
            if i < free_from {
                continue;
            }
            let (Some(now), Some(before)) = (scores[i], scores[opponent_turn]) else { continue };
            let (Actor::Player(winner), Actor::Player(mover)) = (positions[i].to_act(), positions[i - 1].to_act())
            else {
                continue;
            };
            if winner == mover || positions[opponent_turn].to_act() != Actor::Player(mover) {
                continue;
            }
            let previous = negate(before);
            let chances = |s| self.scale.winning_chances(s);
            let forced = matches!(now, Score::Win(_));
            let jumped = chances(now) >= chances(previous) + self.config.jump && chances(now) >= 0.0;
            self.stats.positions += 1;
            if chances(previous) > self.config.start_at_most || !(forced || jumped) {
                continue;
            }
            self.stats.candidates += 1;
            if let Some(mut puzzle) = self.cook(&positions[i], winner, variant) {
                puzzle.source = match &game.source {
                    Source::Selfplay { seed, game, .. } => Source::Selfplay { seed: *seed, game: *game, ply: i },
                    Source::Record { file, game, .. } => Source::Record { file: file.clone(), game: *game, ply: i },
                };
                free_from = i + puzzle.solution.len();
                self.stats.kept += 1;
                puzzles.push(puzzle);
            }
        }
        puzzles
    }

    /// Builds the solution from `start`, where `winner` acts, or `None`.
    fn cook(&mut self, start: &G, winner: Player, variant: &str) -> Option<Puzzle> {
        let mut position = start.clone();
        let mut line: Vec<G::Move> = Vec::new();
        // For each move of the line: played by the solver, with a real choice.
        let mut chosen: Vec<bool> = Vec::new();
        let mut by_solver: Vec<bool> = Vec::new();
        let mut solver_moves = 0;
        let mut final_score = None;
        let mut legal = Vec::new();
        while position.outcome().is_none() {
            let Actor::Player(actor) = position.to_act() else { return None };
            if actor == winner {
                if solver_moves == self.config.max_solver_moves {
                    break;
                }
                let Some((best, score)) = self.only_move(&position) else {
                    if solver_moves == 0 {
                        self.stats.ambiguous += 1;
                    }
                    break;
                };
                if solver_moves == 0 && self.scale.winning_chances(score) < self.config.winning_at_least {
                    self.stats.not_winning += 1;
                    return None;
                }
                position.legal_moves(&mut legal);
                chosen.push(legal.len() > 1);
                by_solver.push(true);
                line.push(best);
                final_score = Some(score);
                solver_moves += 1;
            } else {
                let best = self.best_reply(&position)?;
                chosen.push(false);
                by_solver.push(false);
                line.push(best);
            }
            position.play(line[line.len() - 1]);
        }
        // Cut back to the last real choice of the solver.
        while chosen.last() == Some(&false) {
            chosen.pop();
            by_solver.pop();
            line.pop();
        }
        if line.is_empty() {
            return None;
        }
        let mut end = start.clone();
        let mut texts = Vec::with_capacity(line.len());
        let mut after = Vec::with_capacity(line.len());
        for &mv in &line {
            texts.push(end.move_text(mv));
            end.play(mv);
            after.push(end.clone());
        }
        let won = end.outcome().and_then(|o| o.winner()) == Some(winner);
        let win_chances = if won { 1.0 } else { self.scale.winning_chances(final_score?) };
        let Themes { names, achieved, quiet_first } = name_themes(start, &texts, &after, &by_solver, winner, won);
        if !achieved {
            self.stats.nothing_achieved += 1;
            return None;
        }
        let solver = by_solver.iter().filter(|&&s| s).count();
        let position_text = start.to_text();
        Some(Puzzle {
            id: puzzle_id(variant, &position_text, &texts),
            variant: variant.to_owned(),
            position: position_text,
            rating: starting_rating(solver, quiet_first),
            solution: texts,
            themes: names,
            source: Source::Selfplay { seed: 0, game: 0, ply: 0 },
            win_chances,
        })
    }

    /// The other side's answer: the search's best move.
    fn best_reply(&mut self, position: &G) -> Option<G::Move> {
        self.solver.search(position, &Limits::nodes(self.config.solve_nodes), &self.stop, &mut |_| {}).best
    }

    /// The best move of `position` and its score, if every other move is
    /// worse by more than the gap (see the module's doc).
    fn only_move(&mut self, position: &G) -> Option<(G::Move, Score)> {
        let first = self.solver.search(position, &Limits::nodes(self.config.solve_nodes), &self.stop, &mut |_| {});
        let best = first.best?;
        let mut legal = Vec::new();
        position.legal_moves(&mut legal);
        if legal.len() == 1 {
            return Some((best, first.info.score));
        }
        // A move that wins at once is a solution whatever the others do
        // (lichess-puzzler's rule for mate in one; the puzzle page accepts
        // any move that wins at once as the last move).
        if first.info.score == Score::Win(1) {
            return Some((best, first.info.score));
        }
        let threshold = self.scale.winning_chances(first.info.score) - self.config.gap;
        if threshold <= -1.0 {
            return None;
        }
        // Moves the second search does not list score below its best value
        // minus the margin; a little slack covers a best value that comes
        // out lower the second time.
        let floor = value_of_chances(self.scale, threshold);
        let margin = first.value.saturating_sub(floor).saturating_add(SLACK).max(1);
        let depth = first.info.depth.max(1);
        let check = Limits {
            depth: Some(depth),
            nodes: Some(self.config.solve_nodes.saturating_mul(8)),
            near_best: Some(margin),
            ..Limits::default()
        };
        let second = self.solver.search(position, &check, &self.stop, &mut |_| {});
        if second.info.depth < depth {
            // Unproven: the budget ran out first.
            return None;
        }
        // The second search's best stands (the first's, if different, is
        // one of the rivals it scores).
        let best = second.best?;
        let best_chances = self.scale.winning_chances(second.info.score);
        if second.value.saturating_sub(margin) > value_of_chances(self.scale, best_chances - self.config.gap) {
            // The margin does not reach down to the threshold of this score.
            return None;
        }
        // A turn of several actions (Kelasu) may play them in any order:
        // an action the best line plays later in this same turn is not a
        // rival but the same plan (the puzzle page accepts it there).
        let later = self.later_actions_of_turn(position, &second.pv);
        let rivals = second.near_best.iter().filter(|&&(mv, _)| mv != best && !later.contains(&position.move_text(mv)));
        for &(_, value) in rivals {
            let rival = Score::from_search(value, G::WIN);
            if self.scale.winning_chances(rival) > best_chances - self.config.gap {
                return None;
            }
        }
        Some((best, second.info.score))
    }
}

impl<G: Game + Evaluate> Miner<G> {
    /// The texts of the actions `line` plays after its first while the
    /// player who acts at `position` keeps acting.
    fn later_actions_of_turn(&self, position: &G, line: &[G::Move]) -> Vec<String> {
        let actor = position.to_act();
        let mut texts = Vec::new();
        let mut legal = Vec::new();
        let mut at = position.clone();
        for (i, &mv) in line.iter().enumerate() {
            at.legal_moves(&mut legal);
            if !legal.contains(&mv) || (i > 0 && at.to_act() != actor) {
                break;
            }
            if i > 0 {
                texts.push(at.move_text(mv));
            }
            at.play(mv);
        }
        texts
    }
}

/// Centi-units of slack in the near-best margin (see [`Miner::only_move`]).
const SLACK: i32 = 50;

/// The search value (centi-units) whose winning chances are `chances`.
fn value_of_chances(scale: WinScale, chances: f64) -> i32 {
    let expected = ((chances + 1.0) / 2.0).clamp(1e-9, 1.0 - 1e-9);
    let cp = -400.0 / scale.0 * (1.0 / expected - 1.0).log10();
    cp.clamp(-1e8, 1e8).floor() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_value_of_chances_inverts_the_scale() {
        let scale = WinScale(0.4);
        for cp in [-900, -120, 0, 77, 640] {
            let chances = scale.winning_chances(Score::Cp(cp));
            assert!((value_of_chances(scale, chances) - cp).abs() <= 1, "{cp}");
        }
    }
}

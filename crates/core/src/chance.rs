//! Letting chance act: one chance move drawn with the game's probabilities
//! ([`Game::chance_probability`]). Every driver of a game (the searches'
//! playouts, the CLI's games, the server) lets chance act through here, so
//! that a deal or a draw is as likely everywhere as the rules say.

use crate::{Actor, Game};
use rand::{Rng, RngCore};

/// One of `moves`, the legal chance moves of `game`, drawn with their
/// probabilities. `moves` must not be empty.
pub fn sample_weighted<G: Game, R: RngCore + ?Sized>(game: &G, moves: &[G::Move], rng: &mut R) -> G::Move {
    let mut x: f64 = rng.random();
    for &mv in moves {
        x -= game.chance_probability(mv);
        if x < 0.0 {
            return mv;
        }
    }
    // Rounding may leave a sliver of probability: the last move takes it.
    *moves.last().expect("a chance node has moves")
}

/// A legal move of `game` drawn from the full list (left in `scratch`):
/// chance's with their probabilities, a player's uniformly; `None` when
/// there is none. What [`Game::random_move`] does unless a game draws
/// without listing.
pub fn draw_listed_move<G: Game, R: Rng + ?Sized>(
    game: &G,
    rng: &mut R,
    scratch: &mut Vec<G::Move>,
) -> Option<G::Move> {
    game.legal_moves(scratch);
    if scratch.is_empty() {
        return None;
    }
    if game.to_act() == Actor::Chance {
        return Some(sample_weighted(game, scratch, rng));
    }
    Some(scratch[rng.random_range(0..scratch.len())])
}

/// A chance move of `game` drawn with its probability; `None` unless chance
/// acts (a player acts, or the game is over).
pub fn sample_chance<G: Game, R: RngCore + ?Sized>(game: &G, rng: &mut R) -> Option<G::Move> {
    if game.to_act() != Actor::Chance || game.outcome().is_some() {
        return None;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    (!moves.is_empty()).then(|| sample_weighted(game, &moves, rng))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::coin::{Coin, HEADS, TAILS};
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn outcomes_come_as_often_as_their_probability() {
        let mut game = Coin::new(0.9);
        game.play(HEADS);
        let mut rng = StdRng::seed_from_u64(3);
        let heads = (0..10_000).filter(|_| sample_chance(&game, &mut rng) == Some(HEADS)).count();
        // 9000 expected; the standard deviation is 30.
        assert!((8850..9150).contains(&heads), "{heads} heads in 10000 draws at 0.9");
        let mut game = Coin::new(0.2);
        game.play(HEADS);
        let tails = (0..10_000).filter(|_| sample_chance(&game, &mut rng) == Some(TAILS)).count();
        assert!((7850..8150).contains(&tails), "{tails} tails in 10000 draws at 0.8");
    }

    #[test]
    fn a_game_behind_texts_draws_the_same_way() {
        use crate::{DynGame, Erased};
        let mut game = Erased::new(Coin::new(1.0), "coin:heads=100");
        let mut rng = StdRng::seed_from_u64(2);
        assert_eq!(game.sample_chance(&mut rng), None, "the first player calls first");
        game.play("tails").unwrap();
        for _ in 0..20 {
            assert_eq!(game.sample_chance(&mut rng).as_deref(), Some("heads"), "tails has probability 0");
        }
    }

    #[test]
    fn a_toss_everyone_watches_is_seen_and_a_call_is_no_chance_move() {
        use crate::{DynGame, Erased};
        let mut game = Erased::new(Coin::new(0.5), "coin:heads=50");
        assert!(!game.chance_outcome_seen("heads"), "the first player's call is not chance's");
        game.play("heads").unwrap();
        assert!(game.chance_outcome_seen("tails"), "the toss is public");
        assert!(game.chance_outcome_seen("edge"), "a text that is no legal move counts as seen");
    }

    #[test]
    fn only_chance_is_sampled() {
        let mut game = Coin::new(0.5);
        let mut rng = StdRng::seed_from_u64(1);
        assert_eq!(sample_chance(&game, &mut rng), None, "the first player calls first");
        game.play(HEADS);
        assert!(sample_chance(&game, &mut rng).is_some());
        game.play(HEADS);
        assert_eq!(sample_chance(&game, &mut rng), None, "the game is over");
    }
}

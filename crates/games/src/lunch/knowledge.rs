//! What both players know of a hand beyond its size: a weapon goes back to
//! its owner's hand when its battle ends (rules, "Cards"), in view of both,
//! so until a card of that type leaves the hand the other player knows it
//! is there. Draws are chance and unseen; cards leave a hand face up (played
//! or discarded). So the known cards follow from the public history alone.

use super::pile::Pile;
use super::position::{State, Zone};
use super::rules::Rules;
use menagerie_core::{Actor, Player};

/// The cards known to be in `player`'s hand after `states` (the game's
/// states in order, the current one last), when `known` were known in the
/// first: a lower bound of the hand, per card type.
pub(super) fn known_cards(rules: &Rules, states: impl IntoIterator<Item = State>, player: Player, known: Pile) -> Pile {
    let mut known = known;
    let mut states = states.into_iter();
    let Some(mut before) = states.next() else { return known };
    for after in states {
        // A hand grows on a player's move only when weapons come back; on
        // chance's, by a draw nobody else sees.
        let public_gain = rules.actor(&before) != Actor::Chance;
        known = after_step(known, &before, &after, player, public_gain);
        before = after;
    }
    known
}

/// What is known of `player`'s hand after one step from `before` to
/// `after`, given `known` before it; `public_gain` says whether cards that
/// came into the hand were seen by both players.
pub(super) fn after_step(mut known: Pile, before: &State, after: &State, player: Player, public_gain: bool) -> Pile {
    let hand = Zone::hand(player);
    let (was, is) = (before.pile(hand), after.pile(hand));
    for card in was.held().or(is.held()).iter() {
        let (was, is) = (was.count(card), is.count(card));
        // A card of this type left: it may have been a known one. (A
        // move that also brings one back nets out, and knowledge is
        // lost, never invented: the result stays a lower bound.)
        for _ in is..was {
            known.take(card);
        }
        if public_gain {
            for _ in was..is {
                known.add(card);
            }
        }
    }
    known
}

#[cfg(test)]
mod tests {
    use super::super::{Lunch, LunchVariant, Options};
    use std::sync::OnceLock;
    use super::*;
    use menagerie_core::{sample_chance, Game};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Random games: what is known of a hand is always in it, a weapon that
    /// came back is known at once, and every sample of the other hand
    /// holds the known cards.
    #[test]
    fn returned_weapons_are_known_and_kept_in_every_sample() {
        let variant = LunchVariant::standard(Options::default());
        let (mut returns, mut samples_with_known) = (0, 0);
        for seed in 0..12 {
            let mut game = Lunch::start(&variant, 0);
            let mut rng = StdRng::seed_from_u64(seed);
            let mut moves = Vec::new();
            for ply in 0..1500 {
                if game.outcome().is_some() {
                    break;
                }
                game.legal_moves(&mut moves);
                let mv = sample_chance(&game, &mut rng).unwrap_or_else(|| moves[rng.random_range(0..moves.len())]);
                let before = game.state;
                game.play(mv);
                for player in [Player::First, Player::Second] {
                    let hand = Zone::hand(player);
                    let came_back = |card| {
                        let in_limbo = |s: &State| s.limbo().iter().filter(|&&(p, c)| p == player && c == card).count();
                        in_limbo(&before) > in_limbo(&game.state)
                            && game.state.pile(hand).count(card) > before.pile(hand).count(card)
                    };
                    let back: Vec<_> = game.deck().cards().filter(|&c| came_back(c)).collect();
                    if back.is_empty() && ply % 16 != 0 {
                        continue;
                    }
                    let known = game.known_cards(player);
                    for card in game.deck().cards() {
                        assert!(known.count(card) <= game.state.pile(hand).count(card), "seed {seed}: more known than held");
                    }
                    for &card in &back {
                        returns += 1;
                        assert!(known.count(card) > 0, "seed {seed} ply {ply}: a weapon came back unseen");
                    }
                    if let Actor::Player(me) = game.to_act() {
                        let known = game.known_cards(me.other());
                        let sample = game.determinize(me, &mut rng);
                        for card in game.deck().cards() {
                            assert!(sample.state.hand(me.other()).count(card) >= known.count(card));
                        }
                        samples_with_known += usize::from(known.total() > 0);
                    }
                }
            }
        }
        eprintln!("{returns} weapons came back; {samples_with_known} samples with known cards");
        assert!(returns > 0 && samples_with_known > 0, "no weapon came back in these games: {returns}");
    }

    /// Knowledge carried from ply to ply (asked every ply, as a view
    /// does) is what the whole history gives, also after undos.
    #[test]
    fn knowledge_carried_over_each_move_is_the_historys() {
        let variant = LunchVariant::standard(Options::default());
        let mut carried = 0;
        for seed in 0..6 {
            let mut game = Lunch::start(&variant, 0);
            let mut rng = StdRng::seed_from_u64(seed);
            let mut moves = Vec::new();
            for ply in 0..1500 {
                if game.outcome().is_some() {
                    break;
                }
                let known = game.all_known();
                let mut fresh = game.clone();
                fresh.known = OnceLock::new();
                assert_eq!(known, fresh.all_known(), "seed {seed} ply {ply}");
                carried += usize::from(known.iter().any(|pile| pile.total() > 0));
                if ply % 97 == 96 {
                    game.undo();
                    continue;
                }
                game.legal_moves(&mut moves);
                let mv = sample_chance(&game, &mut rng).unwrap_or_else(|| moves[rng.random_range(0..moves.len())]);
                game.play(mv);
            }
        }
        assert!(carried > 100, "{carried} positions with known cards");
    }

    /// Cards drawn are nobody else's business: a hand dealt and drawn
    /// without any battle has nothing known.
    #[test]
    fn draws_reveal_nothing() {
        let variant = LunchVariant::standard(Options::default());
        let mut game = Lunch::start(&variant, 0);
        let mut rng = StdRng::seed_from_u64(7);
        while let Some(draw) = sample_chance(&game, &mut rng) {
            game.play(draw);
        }
        assert_eq!((game.state.hand_size(Player::First), game.state.hand_size(Player::Second)), (5, 5));
        assert_eq!(game.known_cards(Player::First).total(), 0);
        assert_eq!(game.known_cards(Player::Second).total(), 0);
    }
}

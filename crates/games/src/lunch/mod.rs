//! Lunch Chess (Mikko Rauhala, 2003): chess pieces with hit points, fighting
//! with the cards of Lunch Money. Rules: docs/lunch.md; texts: README.md in
//! this folder.
//!
//! Every decision is one move of the game model: the action, each answer,
//! each Humiliation or decline, free attacks, Grabs, Knight-or-Bishop and
//! promotion choices. [`Game::to_act`] says who decides. Chance (reshuffles)
//! is a generator carried in the position text, so play is deterministic
//! given the text.

pub mod board;
mod invariants;
pub mod deck;
mod eval;
pub mod moves;
pub mod notation;
pub mod piece;
pub mod position;
pub mod rules;
pub mod square;
pub mod text;
mod view;

use piece::{flag, Kind, Piece};
use deck::Deck;
use menagerie_core::{
    Actor, Game, MoveError, OptionInfo, Outcome, Player, PositionError, Resolver, VariantError, VariantInfo,
    VariantSpec,
};
use moves::Move;
use position::{Frame, State};
use rand::RngCore;
use rules::Rules;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The six rule options (all off by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    pub no_discard_in_check: bool,
    pub humiliate_kings: bool,
    pub humiliation_interventions: bool,
    pub personal_first_aid_humiliation: bool,
    pub no_spinning: bool,
    pub princess: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LunchVariant {
    pub options: Options,
    pub deck: Arc<Deck>,
}

impl LunchVariant {
    pub fn standard(options: Options) -> LunchVariant {
        LunchVariant { options, deck: Arc::new(Deck::standard()) }
    }
}

#[derive(Clone, Debug)]
pub struct Lunch {
    variant: LunchVariant,
    state: State,
    history: Vec<State>,
}

const OPTIONS: &[OptionInfo] = &[
    OptionInfo {
        name: "no-discard-in-check",
        summary: "no discarding while one of your Kings is threatened",
        value: None,
    },
    OptionInfo {
        name: "humiliate-kings",
        summary: "a King's opening card or First Aid may be Humiliated (voiding the action)",
        value: None,
    },
    OptionInfo {
        name: "humiliation-interventions",
        summary: "a third piece threatening a battle piece may Humiliate its card and attack it",
        value: None,
    },
    OptionInfo {
        name: "personal-first-aid-humiliation",
        summary: "only a piece threatening the healed piece may Humiliate a First Aid action",
        value: None,
    },
    OptionInfo { name: "no-spinning", summary: "Roundhouse and Spinning Backfist do not spin", value: None },
    OptionInfo { name: "princess", summary: "pieces rounded to 7 HP become Princesses", value: None },
    OptionInfo {
        name: deck::DECK_OPTION,
        summary: "play with another deck: `standard`, a deck file (CLI) or a deck the server offers",
        value: Some("DECK"),
    },
];

impl Lunch {
    fn rules(&self) -> Rules<'_> {
        Rules::new(&self.variant)
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn deck(&self) -> &Deck {
        &self.variant.deck
    }

    /// A player's view (hidden cards as counts).
    fn text_for(&self, viewer: Option<Player>) -> String {
        let actor = self.state.outcome().is_none().then(|| self.rules().actor(&self.state));
        text::to_text(&self.variant.deck, &self.state, actor, viewer)
    }

    fn from_state(variant: &LunchVariant, state: State) -> Lunch {
        Lunch { variant: variant.clone(), state, history: Vec::new() }
    }
}

impl Game for Lunch {
    type Move = Move;
    type Variant = LunchVariant;

    const VARIANTS: &'static [VariantInfo] = &[VariantInfo {
        id: "lunch",
        name: "Lunch Chess",
        summary: "chess pieces with hit points fight with Lunch Money cards",
        options: OPTIONS,
    }];

    fn parse_variant(spec: &VariantSpec) -> Result<LunchVariant, VariantError> {
        Self::parse_variant_with(spec, &deck::BuiltinDecks)
    }

    fn parse_variant_with(spec: &VariantSpec, resolver: &dyn Resolver) -> Result<LunchVariant, VariantError> {
        spec.check_options(&Self::VARIANTS[0])?;
        let options = Options {
            no_discard_in_check: spec.has("no-discard-in-check"),
            humiliate_kings: spec.has("humiliate-kings"),
            humiliation_interventions: spec.has("humiliation-interventions"),
            personal_first_aid_humiliation: spec.has("personal-first-aid-humiliation"),
            no_spinning: spec.has("no-spinning"),
            princess: spec.has("princess"),
        };
        // Even the standard deck is asked for, so that a caller who keeps
        // the decks its games were made with (the server) keeps that one too.
        let name = spec.value(deck::DECK_OPTION).unwrap_or(deck::STANDARD_NAME);
        let resolved = resolver.resolve(deck::DECK_OPTION, name).map_err(|e| spec.bad_option(deck::DECK_OPTION, e))?;
        let deck = Deck::parse(&resolved.text, &resolved.name)
            .map_err(|e| spec.bad_option(deck::DECK_OPTION, e.to_string()))?;
        Ok(LunchVariant { options, deck: Arc::new(deck) })
    }

    fn start(variant: &LunchVariant, seed: u64) -> Self {
        let mut s = State::empty();
        let back =
            [Kind::Rook, Kind::Knight, Kind::Bishop, Kind::Queen, Kind::King, Kind::Bishop, Kind::Knight, Kind::Rook];
        for (file, &kind) in back.iter().enumerate() {
            s.board[file] = Some(Piece::new(kind, Player::First));
            s.board[8 + file] = Some(Piece::new(Kind::Pawn, Player::First));
            s.board[48 + file] = Some(Piece::new(Kind::Pawn, Player::Second));
            s.board[56 + file] = Some(Piece::new(kind, Player::Second));
        }
        s.castling = 15;
        s.rng = menagerie_core::zobrist::splitmix64(seed).1 | 1;
        // The whole deck goes to the discard pile, and the first draw
        // shuffles it into the draw pile: White is dealt first.
        for (i, t) in variant.deck.types.iter().enumerate() {
            s.discard[i] = t.count;
        }
        let rules = Rules::new(variant);
        rules.draw_to_five(&mut s, Player::First);
        rules.draw_to_five(&mut s, Player::Second);
        rules.advance(&mut s);
        Lunch::from_state(variant, s)
    }

    fn from_text(variant: &LunchVariant, text: &str) -> Result<Self, PositionError> {
        let (mut state, actor) = text::parse(variant, text)?;
        let rules = Rules::new(variant);
        // A hand-built text may stop at an automatic step: play on to the next decision.
        rules.advance(&mut state);
        let game = Lunch::from_state(variant, state);
        let real = game.state.outcome().is_none().then(|| game.rules().actor(&game.state));
        if actor != real {
            return Err(PositionError::syntax(
                "field 15 (to act)",
                format!(
                    "says {}, but {} acts here",
                    actor.map_or("-", text::player_word),
                    real.map_or("-", text::player_word)
                ),
            ));
        }
        Ok(game)
    }

    fn to_text(&self) -> String {
        self.text_for(None)
    }

    fn variant(&self) -> &LunchVariant {
        &self.variant
    }

    fn to_act(&self) -> Actor {
        Actor::Player(self.rules().actor(&self.state))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome()
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.rules().legal_moves(&self.state, moves);
    }

    fn count_legal_moves(&self, scratch: &mut Vec<Move>) -> u64 {
        self.rules().count_moves(&self.state, scratch)
    }

    fn play(&mut self, mv: Move) {
        self.history.push(self.state);
        let variant = &self.variant;
        Rules::new(variant).apply(&mut self.state, mv);
    }

    fn undo(&mut self) {
        if let Some(previous) = self.history.pop() {
            self.state = previous;
        }
    }

    fn hash(&self) -> u64 {
        // The state is copied for undo, so the hash is computed on demand
        // from what the text says (stale stack slots excluded).
        let s = &self.state;
        let mut h = std::collections::hash_map::DefaultHasher::new();
        s.board.hash(&mut h);
        (s.side, s.castling, s.hands, s.discard, s.battle, s.quiet, s.turns, s.eventful, s.rng, s.result).hash(&mut h);
        s.draw[..s.draw_len as usize].hash(&mut h);
        s.limbo().hash(&mut h);
        s.holds().hash(&mut h);
        s.frames().hash(&mut h);
        h.finish()
    }

    fn move_text(&self, mv: Move) -> String {
        let promotion = matches!(self.state.top(), Frame::Round)
            && matches!(mv, Move::Choose { square, .. } if self.state.piece(square).is_some_and(|p| p.has(flag::PROMOTE)));
        notation::move_text(&self.variant.deck, mv, promotion)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        notation::check_syntax(&self.variant.deck, text)?;
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        legal.into_iter().find(|&mv| self.move_text(mv) == text).ok_or_else(|| {
            MoveError::illegal(text, format!("not a legal move now ({})", view::pending(self, &self.state)))
        })
    }

    fn view_text(&self, viewer: Player) -> String {
        self.text_for(Some(viewer))
    }

    fn determinize(&self, observer: Player, rng: &mut dyn RngCore) -> Self {
        let mut s = self.state;
        let other = observer.other();
        // The unseen cards: the other hand and the draw pile.
        let mut unseen: Vec<u8> = s.draw[..s.draw_len as usize].to_vec();
        for (card, &n) in s.hands[other.index()].iter().enumerate() {
            for _ in 0..n {
                unseen.push(card as u8);
            }
        }
        // Sorted first, so that the sample depends on the view and the rng
        // alone, never on the real order of the hidden cards.
        unseen.sort_unstable();
        for i in (1..unseen.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            unseen.swap(i, j);
        }
        let hand_size = s.hand_size(other) as usize;
        s.hands[other.index()] = [0; deck::MAX_TYPES];
        for &card in &unseen[..hand_size] {
            s.hands[other.index()][card as usize] += 1;
        }
        let pile = &unseen[hand_size..];
        s.draw[..pile.len()].copy_from_slice(pile);
        s.draw_len = pile.len() as u8;
        s.rng = rng.next_u64() | 1;
        Lunch { variant: self.variant.clone(), state: s, history: Vec::new() }
    }

    fn has_hidden_information() -> bool {
        true
    }

    fn bench_positions(_variant: &LunchVariant) -> Vec<&'static str> {
        vec![BENCH_MIDDLE_GAME]
    }

    fn check_invariants(&self) -> Result<(), String> {
        invariants::check(self)
    }
}

/// A middle game: pieces in contact, hands with attacks and answers.
pub const BENCH_MIDDLE_GAME: &str = "r1bqkb1r/ppp2ppp/2n2n2/3pp3/3PP3/2N2N2/PPP2PPP/R1BQKB1R w KQkq jab,kick,block,dodge,humiliation elbow,block,grab,firstaid,roundhouse dodge,slap,uppercut,block,headbutt,firstaid,jab,combo,poke,dodge,block,kick,stomp,grab,freedom,block,dodge,elbow,jab,firstaid,block,humiliation,disarm,grab,dodge - - - - turn.action 0,8,0 9e3779b97f4a7c15 - white";

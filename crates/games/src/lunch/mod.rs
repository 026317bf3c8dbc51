//! Lunch Chess (Mikko Rauhala, 2003): chess pieces with hit points, fighting
//! with the cards of Lunch Money. Rules: docs/lunch.md; texts: README.md in
//! this folder.
//!
//! Every decision is one move of the game model: the action, each answer,
//! each Humiliation or decline, free attacks, Grabs, Knight-or-Bishop and
//! promotion choices. So is every card that comes from the draw pile: the
//! deal and the draws back to 5 are moves of chance ([`Actor::Chance`]),
//! one per card type the pile holds, as likely as that type's share of the
//! pile ([`Game::chance_probability`]). The draw pile is a count per card
//! type, not an order, so a position text says everything that decides the
//! game and perft needs no seed.
//!
//! The files follow the layout of `crates/games/README.md`; besides,
//! `deck.rs` reads the deck file, `pile.rs` counts cards, `frame.rs` holds
//! the stack's pending steps, and `rules.rs` with `rules/` is the rules
//! machine.

mod board;
pub mod deck;
mod encode;
mod eval;
mod inputs;
mod study;
mod frame;
mod invariants;
mod knowledge;
mod moves;
mod notation;
mod piece;
mod pile;
mod position;
mod rules;
mod square;
mod text;
mod view;
mod zobrist;

pub use moves::Move;

use deck::Deck;
use frame::{Frame, TurnStage};
use menagerie_core::{
    Actor, Game, MoveError, OptionInfo, Outcome, Player, PositionError, Resolver, VariantError, VariantInfo,
    VariantSpec,
};
use piece::{flag, Kind, Piece};
use pile::Pile;
use position::{GameResult, History, State, Zone};
use rand::{Rng, RngCore};
use rules::Rules;
use square::Square;
use std::sync::{Arc, OnceLock};

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
    history: History,
    /// The cards each hand was known to hold when the history starts (the
    /// position text's field 15, or what a sampled position inherits).
    known_at_start: [Pile; 2],
    /// The cards each hand is known to hold ([`knowledge`]): worked out
    /// from `known_at_start` and the whole history when first asked,
    /// forgotten when the game moves.
    known: OnceLock<[Pile; 2]>,
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
        summary: "play with another deck: standard, a deck file (CLI) or a deck the server offers",
        value: Some("DECK"),
    },
];

impl Lunch {
    fn rules(&self) -> Rules<'_> {
        Rules::new(&self.variant)
    }

    fn state(&self) -> &State {
        &self.state
    }

    fn deck(&self) -> &Deck {
        &self.variant.deck
    }

    /// Whether `mv` is a pawn's promotion (`promote:`) rather than another
    /// choice of kind (`choose:`): the one move whose text depends on the
    /// position.
    fn is_promotion(&self, mv: Move) -> bool {
        matches!(mv, Move::Choose { square, .. } if self.state.piece(square).is_some_and(|p| p.has(flag::PROMOTE)))
            && matches!(self.state.top(), Frame::Round)
    }

    /// The cards both players know to be in `player`'s hand, from the
    /// public events of this game's past (before a position text: what the
    /// text says was known).
    fn known_cards(&self, player: Player) -> Pile {
        self.all_known()[player.index()]
    }

    /// [`Lunch::known_cards`] of both hands, White's first.
    fn all_known(&self) -> [Pile; 2] {
        *self.known.get_or_init(|| {
            [Player::First, Player::Second].map(|p| {
                let states = self.history.states(&self.state).into_iter().chain([self.state]);
                knowledge::known_cards(&self.rules(), states, p, self.known_at_start[p.index()])
            })
        })
    }

    /// The drawer of `mv` when it is a card of chance that only moves to
    /// the drawer's hand: another card is due after it (a hand still short,
    /// a card left), so the rules machine would leave the stage as it is
    /// (see `Rules::apply`). Most of chance's cards are so, and the history
    /// keeps them as cards, not states.
    fn card_alone(&self, mv: Move) -> Option<Player> {
        let s = &self.state;
        let Move::Draw { card } = mv else { return None };
        if s.result() != GameResult::Ongoing
            || !matches!(s.turn_on_top(), Some(TurnStage::Deal | TurnStage::Draw))
            || s.pile(Zone::DRAW).count(card) == 0
        {
            return None;
        }
        let drawer = Rules::drawer(s)?;
        let short_after = |p: Player| s.hand_size(p) + u32::from(p == drawer) < 5;
        let due_after = (short_after(s.side()) || short_after(s.side().other())) && s.pile(Zone::DRAW).total() > 1;
        due_after.then_some(drawer)
    }

    /// Who acts, `None` once the game is over.
    fn actor(&self) -> Option<Actor> {
        self.state.outcome().is_none().then(|| self.rules().actor(&self.state))
    }

    /// The full text, or a player's view (hidden cards as counts; the
    /// known cards are public).
    fn text_for(&self, viewer: Option<Player>) -> String {
        text::to_text(&self.variant.deck, &self.state, self.all_known(), self.actor(), viewer)
    }

    fn from_state(variant: &LunchVariant, state: State, known: [Pile; 2]) -> Lunch {
        Lunch { variant: variant.clone(), state, history: History::default(), known_at_start: known, known: OnceLock::new() }
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

    /// The start before the deal: the whole deck is the draw pile, and
    /// chance deals White's five cards, then Black's. The seed is not used.
    fn start(variant: &LunchVariant, _seed: u64) -> Self {
        let mut s = State::empty();
        let back =
            [Kind::Rook, Kind::Knight, Kind::Bishop, Kind::Queen, Kind::King, Kind::Bishop, Kind::Knight, Kind::Rook];
        for (file, &kind) in back.iter().enumerate() {
            let file = file as u8;
            s.set_piece(Square::new(file), Some(Piece::new(kind, Player::First)));
            s.set_piece(Square::new(8 + file), Some(Piece::new(Kind::Pawn, Player::First)));
            s.set_piece(Square::new(48 + file), Some(Piece::new(Kind::Pawn, Player::Second)));
            s.set_piece(Square::new(56 + file), Some(Piece::new(kind, Player::Second)));
        }
        s.set_castling(15);
        let mut deck = Pile::EMPTY;
        for card in variant.deck.cards() {
            for _ in 0..variant.deck.card(card).count {
                deck.add(card);
            }
        }
        s.set_pile(Zone::DRAW, deck);
        s.set_top(Frame::Turn(TurnStage::Deal));
        Rules::new(variant).advance(&mut s);
        Lunch::from_state(variant, s, [Pile::EMPTY; 2])
    }

    fn from_text(variant: &LunchVariant, text: &str) -> Result<Self, PositionError> {
        let parsed = text::parse(variant, text)?;
        let mut state = parsed.state;
        // A hand-built text may stop at an automatic step: play on to the
        // next decision. Weapons it returns to their hands come back in
        // view of both players, like any card a hand gains outside a draw.
        Rules::new(variant).advance(&mut state);
        let known = Player::BOTH.map(|p| knowledge::after_step(parsed.known[p.index()], &parsed.state, &state, p, true));
        let (game, actor) = (Lunch::from_state(variant, state, known), parsed.actor);
        let real = game.actor();
        if actor != real {
            let word = |actor: Option<Actor>| actor.map_or("-", text::actor_word);
            return Err(PositionError::syntax(
                format!("field {} (to act)", parsed.actor_field),
                format!("says {}, but {} acts here", word(actor), word(real)),
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
        self.rules().actor(&self.state)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome()
    }

    fn turn_player(&self) -> Player {
        self.state.side()
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.rules().legal_moves(&self.state, moves);
    }

    fn count_legal_moves(&self, scratch: &mut Vec<Move>) -> u64 {
        self.rules().count_moves(&self.state, scratch)
    }

    /// At the action stage, counts the actions instead of listing them
    /// ([`Rules::random_action`]); chance's card is drawn from the draw
    /// pile's counts, each type as likely as its share of the pile.
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R, scratch: &mut Vec<Move>) -> Option<Move> {
        if self.outcome().is_none() {
            match self.state.turn_on_top() {
                Some(TurnStage::Action) => return self.rules().random_action(&self.state, rng),
                Some(TurnStage::Deal | TurnStage::Draw) => {
                    let pile = self.state.pile(Zone::DRAW);
                    if !pile.is_empty() {
                        let card = pile.nth_card(rng.random_range(0..pile.total()));
                        return card.map(|card| Move::Draw { card });
                    }
                }
                _ => {}
            }
        }
        menagerie_core::draw_listed_move(self, rng, scratch)
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        // What is known of the hands, when it was worked out for this
        // position, is carried over the move (a caller that asks every ply,
        // a view or a sample, then never goes through the whole history).
        let known = self.known.take();
        if let Some(drawer) = self.card_alone(mv) {
            if let Move::Draw { card } = mv {
                self.state.move_card(Zone::DRAW, Zone::hand(drawer), card);
                self.history.card_drawn(&self.state, drawer, card);
                // A card drawn unseen: what is known stays.
                if let Some(known) = known {
                    let _ = self.known.set(known);
                }
                return;
            }
        }
        let before = known.map(|known| (known, self.state, self.rules().actor(&self.state) != Actor::Chance));
        self.history.push(&self.state);
        let variant = &self.variant;
        Rules::new(variant).apply(&mut self.state, mv);
        self.history.played(&self.state);
        if let Some((known, before, public)) = before {
            let after = Player::BOTH.map(|p| knowledge::after_step(known[p.index()], &before, &self.state, p, public));
            let _ = self.known.set(after);
        }
    }

    #[inline]
    fn undo(&mut self) {
        if self.history.pop_into(&mut self.state) {
            self.known.take();
        }
    }

    /// Kept incrementally by the state (see `zobrist.rs`) but for the keys
    /// of the stack's few frames, added here; `undo` restores it with the
    /// state.
    fn hash(&self) -> u64 {
        self.state.hash()
    }

    fn move_text(&self, mv: Move) -> String {
        notation::move_text(&self.variant.deck, mv, self.is_promotion(mv))
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

    /// A card type's share of the draw pile, for the card chance draws next.
    fn chance_probability(&self, mv: Move) -> f64 {
        let pile = self.state.pile(Zone::DRAW);
        match mv {
            Move::Draw { card } if self.to_act() == Actor::Chance && !pile.is_empty() => {
                f64::from(pile.count(card)) / f64::from(pile.total())
            }
            _ => 0.0,
        }
    }

    /// A card of chance goes to the drawer's hand, unseen by the other.
    fn chance_outcome_seen_by(&self, mv: Move, viewer: Player) -> bool {
        match mv {
            Move::Draw { .. } => Rules::drawer(&self.state) == Some(viewer),
            _ => true,
        }
    }

    fn view_text(&self, viewer: Player) -> String {
        self.text_for(Some(viewer))
    }

    /// The other hand and the draw pile dealt anew from their cards
    /// together (what the observer cannot tell apart), the other hand
    /// keeping its size and the cards the game's past showed to be in it
    /// (weapons back in their owner's hand: [`knowledge`]).
    fn determinize(&self, observer: Player, rng: &mut dyn RngCore) -> Self {
        let mut s = self.state;
        let other = Zone::hand(observer.other());
        let known = self.known_cards(observer.other());
        // The unseen cards in deck order, so that the sample depends on the
        // view and the generator alone, never on where the cards really are.
        let mut unseen = Vec::new();
        let mut hand = Pile::EMPTY;
        for card in self.deck().cards() {
            let n = s.pile(Zone::DRAW).count(card) + s.pile(other).count(card);
            let certain = known.count(card).min(s.pile(other).count(card));
            for _ in 0..certain {
                hand.add(card);
            }
            unseen.extend(std::iter::repeat_n(card, (n - certain) as usize));
        }
        let hand_size = (s.pile(other).total().saturating_sub(hand.total()) as usize).min(unseen.len());
        // The rest of the other hand: `hand_size` cards drawn at random (a
        // partial shuffle).
        for i in 0..hand_size {
            let j = rng.random_range(i..unseen.len());
            unseen.swap(i, j);
        }
        let mut draw = Pile::EMPTY;
        for (i, &card) in unseen.iter().enumerate() {
            if i < hand_size {
                hand.add(card);
            } else {
                draw.add(card);
            }
        }
        s.set_pile(other, hand);
        s.set_pile(Zone::DRAW, draw);
        // The sample keeps what both players know of the hands: it is the
        // observer's knowledge too, and a sample of the sample keeps it.
        Lunch::from_state(&self.variant, s, self.all_known())
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
const BENCH_MIDDLE_GAME: &str = "r1bqkb1r/ppp2ppp/2n2n2/3pp3/3PP3/2N2N2/PPP2PPP/R1BQKB1R w KQkq jab,kick,dodge,block,humiliation elbow,roundhouse,grab,block,firstaid jab*2,slap,elbow,headbutt,kick,uppercut,combo,poke,stomp,grab*2,dodge*4,block*4,disarm,freedom,firstaid*2,humiliation - - - - turn.action 0,8,0 - white";

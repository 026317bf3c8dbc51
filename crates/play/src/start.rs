//! How a game begins: a [`Start`] is what the store will keep of a new game
//! and its position. A new game (`POST /api/games`) and a rematch make one
//! here; [`crate::hub::Hub`] starts both the same way.

use crate::catalog::{Catalog, Kept, Recording};
use crate::command::{Colour, Setup};
use crate::error::ApiError;
use crate::opponents::Opponents;
use crate::secret;
use crate::source::GameSource;
use crate::store::{GameData, GameRecord, Mode, Seat, SeatKind};
use menagerie_core::{shown, DynGame, Player, Resolver};
use rand::Rng;

/// A game about to begin.
pub struct Start {
    pub record: GameRecord,
    pub game: Box<dyn DynGame>,
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

/// A game of the source, made with what `resolver` answers, and the data
/// it answered (to be stored with the game).
fn make_game(
    source: &dyn GameSource,
    variant: &str,
    position: Option<&str>,
    seed: u64,
    resolver: &dyn Resolver,
) -> Result<(Box<dyn DynGame>, Vec<GameData>), String> {
    let recording = Recording::new(resolver);
    let game = source.new_game(variant, position, seed, &recording)?;
    Ok((game, recording.into_taken()))
}

/// A new game as `setup` asks, and the creator's side.
pub fn new_game(
    setup: &Setup,
    source: &dyn GameSource,
    catalog: &Catalog,
    opponents: &dyn Opponents,
) -> Result<(Start, Player), ApiError> {
    setup.check_rated()?;
    if setup.rated && setup.mode == Mode::Local {
        return Err(ApiError::bad_request("a game on one device cannot be rated"));
    }
    let position = setup.position.as_deref();
    if setup.mode == Mode::Friend && (setup.seed.is_some() || position.is_some()) {
        refuse_chosen_chance(source, catalog, &setup.variant)?;
    }
    let seed = setup.seed.unwrap_or_else(secret::chance_seed);
    let (game, data) = make_game(source, &setup.variant, position, seed, catalog).map_err(ApiError::bad_request)?;
    let creator = match &setup.colour {
        Colour::Random => {
            if rand::rng().random() {
                Player::First
            } else {
                Player::Second
            }
        }
        Colour::Player(p) => *p,
        Colour::Named(name) => Player::BOTH.into_iter().find(|&p| game.player_name(p) == name).ok_or_else(|| {
            ApiError::bad_request(format!(
                "unknown colour {}: expected {}, {}, first, second or random",
                shown(name),
                game.player_name(Player::First),
                game.player_name(Player::Second)
            ))
        })?,
    };
    let level = match setup.mode {
        Mode::Computer => Some(level(setup.level.as_deref(), opponents)?),
        Mode::Friend | Mode::Local => None,
    };
    let human = || Seat { kind: SeatKind::Human, secret: Some(secret::seat_secret()) };
    let mut seats = [human(), human()];
    if let Some(level) = level {
        seats[creator.other().index()] = Seat { kind: SeatKind::Computer { level }, secret: None };
    }
    let record = GameRecord {
        id: secret::game_id(),
        variant: game.variant().to_owned(),
        position: position.map(str::to_owned),
        seed,
        mode: setup.mode,
        seats,
        created: now(),
        data,
        time_control: setup.time_control,
    };
    Ok((Start { record, game }, creator))
}

/// The level asked for, or the opponents' default; refused if unknown.
fn level(asked: Option<&str>, opponents: &dyn Opponents) -> Result<String, ApiError> {
    let levels = opponents.levels();
    let level = match asked {
        Some(level) => level.to_owned(),
        None => levels.iter().find(|l| l.default).or(levels.first()).map(|l| l.id.clone()).unwrap_or_default(),
    };
    if opponents.player(&level).is_none() {
        let valid = levels.iter().map(|l| l.id.as_str()).collect::<Vec<_>>().join(", ");
        return Err(ApiError::bad_request(format!("unknown level {}; levels: {valid}", shown(&level))));
    }
    Ok(level)
}

/// In a friend game of hidden information the server deals: whoever
/// chose the seed or the start position would know the other hand.
fn refuse_chosen_chance(source: &dyn GameSource, catalog: &Catalog, variant: &str) -> Result<(), ApiError> {
    let (probe, _) = make_game(source, variant, None, 0, catalog).map_err(ApiError::bad_request)?;
    if probe.has_hidden_information() {
        return Err(ApiError::bad_request(
            "a friend game with hidden cards is dealt by the server: leave out seed and position \
             (a computer or local game may take them)",
        ));
    }
    Ok(())
}

/// The rematch of `old`: the same variant, start, time control and data
/// (whatever the catalog says now), the seats swapped with new secrets, a new deal.
pub fn rematch(old: &GameRecord, source: &dyn GameSource, catalog: &Catalog) -> Result<Start, ApiError> {
    let seats = [old.seats[1].clone(), old.seats[0].clone()]
        .map(|seat| Seat { secret: seat.secret.as_ref().map(|_| secret::seat_secret()), kind: seat.kind });
    let seed = secret::chance_seed();
    let kept = Kept { data: &old.data, fallback: catalog };
    let (game, data) = make_game(source, &old.variant, old.position.as_deref(), seed, &kept)
        .map_err(|e| ApiError::internal(format!("rematch cannot start: {e}")))?;
    let record = GameRecord {
        id: secret::game_id(),
        variant: old.variant.clone(),
        position: old.position.clone(),
        seed,
        mode: old.mode,
        seats,
        created: now(),
        data,
        time_control: old.time_control,
    };
    Ok(Start { record, game })
}

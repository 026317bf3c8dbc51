//! What every [`Store`] must do, as checks a backend's tests run (SQLite's
//! in `sqlite.rs`; another backend calls the same functions).

use super::backend::{Store, StoreError};
use super::records::{Ending, GameMeta, GameRecord, Mode, MoveActor, Seat, SeatKind, StoredMove};
use menagerie_core::Player;

/// A record with a human and a computer seat.
pub fn record(id: &str) -> GameRecord {
    GameRecord {
        id: id.to_owned(),
        variant: "nim".into(),
        position: None,
        seed: u64::MAX,
        mode: Mode::Computer,
        seats: [
            Seat { kind: SeatKind::Human, secret: Some("s0".into()) },
            Seat { kind: SeatKind::Computer { level: "random".into() }, secret: None },
        ],
        created: 7,
        data: Vec::new(),
    }
}

/// A game written through one store value is read back whole through
/// another (`open` opens the same storage afresh each time), and a move is
/// never stored twice.
pub fn games_round_trip_and_moves_are_never_duplicated(open: &dyn Fn() -> Box<dyn Store>) {
    {
        let store = open();
        store.create(&record("g1")).unwrap();
        let mv = StoredMove { text: "1".into(), actor: MoveActor::First };
        store.append_move("g1", 0, &mv).unwrap();
        assert!(matches!(store.append_move("g1", 0, &mv), Err(StoreError::DuplicateMove { .. })));
        assert!(matches!(store.append_move("nope", 0, &mv), Err(StoreError::NoSuchGame(_))));
        let meta = GameMeta {
            ending: Some(Ending { winner: Some(Player::Second), reason: "resignation".into() }),
            draw_offer: Some(Player::First),
            rematch: Some("g2".into()),
            finished: true,
        };
        store.set_meta("g1", &meta).unwrap();
        assert_eq!(store.computer_games_in_progress().unwrap(), Vec::<String>::new());
    }
    let store = open();
    let game = store.load("g1").unwrap().unwrap();
    assert_eq!(game.record, record("g1"));
    assert_eq!(game.moves, vec![StoredMove { text: "1".into(), actor: MoveActor::First }]);
    assert_eq!(game.meta.ending.unwrap().winner, Some(Player::Second));
    assert_eq!(game.meta.rematch.as_deref(), Some("g2"));
    assert!(store.load("g2").unwrap().is_none());
}

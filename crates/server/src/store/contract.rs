//! What every [`Store`] must do, as checks a backend's tests run (SQLite's
//! in `sqlite.rs`; another backend calls the same functions).

use super::backend::{Store, StoreError};
use super::records::{Ending, GameMeta, GameRecord, Mode, MoveActor, Seat, SeatKind, StoredMove};
use crate::clock::TimeControl;
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
        time_control: None,
    }
}

/// A game written through one store value is read back whole through
/// another (`open` opens the same storage afresh each time), and a move is
/// never stored twice.
pub fn games_round_trip_and_moves_are_never_duplicated(open: &dyn Fn() -> Box<dyn Store>) {
    {
        let store = open();
        store.create(&record("g1")).unwrap();
        let mv = StoredMove { text: "1".into(), actor: MoveActor::First, at: None };
        store.append_move("g1", 0, &mv).unwrap();
        assert!(matches!(store.append_move("g1", 0, &mv), Err(StoreError::DuplicateMove { .. })));
        assert!(matches!(store.append_move("nope", 0, &mv), Err(StoreError::NoSuchGame(_))));
        let meta = GameMeta {
            ending: Some(Ending { winner: Some(Player::Second), reason: "resignation".into() }),
            draw_offer: Some(Player::First),
            rematch: Some("g2".into()),
            finished: true,
            clock_at: None,
        };
        store.set_meta("g1", &meta).unwrap();
        assert_eq!(store.computer_games_in_progress().unwrap(), Vec::<String>::new());
    }
    let store = open();
    let game = store.load("g1").unwrap().unwrap();
    assert_eq!(game.record, record("g1"));
    assert_eq!(game.moves, vec![StoredMove { text: "1".into(), actor: MoveActor::First, at: None }]);
    assert_eq!(game.meta.ending.unwrap().winner, Some(Player::Second));
    assert_eq!(game.meta.rematch.as_deref(), Some("g2"));
    assert!(store.load("g2").unwrap().is_none());
}

/// A game's time control, its moves' times and its clock time are kept; a
/// takeback removes the last moves and sets what else changed at once; the
/// unfinished games with a clock are listed for the server to watch.
pub fn clocks_and_takebacks_are_kept(open: &dyn Fn() -> Box<dyn Store>) {
    let control = TimeControl::Fischer { initial_ms: 60_000, increment_ms: 1_000 };
    {
        let store = open();
        store.create(&GameRecord { time_control: Some(control), ..record("t1") }).unwrap();
        store.create(&record("u1")).unwrap();
        for ply in 0..4 {
            let actor = if ply % 2 == 0 { MoveActor::First } else { MoveActor::Second };
            let mv = StoredMove { text: "1".into(), actor, at: Some(1_000 + ply as i64) };
            store.append_move("t1", ply, &mv).unwrap();
        }
        assert_eq!(store.timed_games_in_progress().unwrap(), vec!["t1".to_owned()]);
        let meta = GameMeta { clock_at: Some(9_000), ..GameMeta::default() };
        store.take_back("t1", 2, &meta).unwrap();
        assert!(matches!(store.take_back("nope", 0, &meta), Err(StoreError::NoSuchGame(_))));
    }
    let store = open();
    let game = store.load("t1").unwrap().unwrap();
    assert_eq!(game.record.time_control, Some(control));
    assert_eq!(game.moves.iter().map(|m| m.at).collect::<Vec<_>>(), vec![Some(1_000), Some(1_001)]);
    assert_eq!(game.meta.clock_at, Some(9_000));
    // The plies taken back can be played again.
    store.append_move("t1", 2, &StoredMove { text: "2".into(), actor: MoveActor::First, at: Some(9_500) }).unwrap();
    assert_eq!(store.load("t1").unwrap().unwrap().moves.len(), 3);
    assert_eq!(store.load("u1").unwrap().unwrap().record.time_control, None);
    store.set_meta("t1", &GameMeta { finished: true, ..GameMeta::default() }).unwrap();
    assert_eq!(store.timed_games_in_progress().unwrap(), Vec::<String>::new());
}

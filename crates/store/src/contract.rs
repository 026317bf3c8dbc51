//! What every [`Store`] must do, as checks a backend's tests run (SQLite's
//! in `sqlite.rs`; another backend calls the same functions).

use super::accounts::{self, Account};
use super::backend::Store;
use super::closing;
use super::error::StoreError;
use super::ratings;
use super::records::{Ending, GameData, GameMeta, GameRecord, Mode, MoveActor, Seat, SeatKind, Seen, StoredMove};
use super::sql;
use super::tokens::{self, StoredToken};
use super::tournaments::{self, GameOutcome, Kind, Paired, Status, Tournament};
use crate::time_control::TimeControl;
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

/// A game after `plies` moves with nothing else changed.
pub fn fresh(plies: usize) -> Seen<'static> {
    static NOTHING: GameMeta = GameMeta {
        ending: None,
        draw_offer: None,
        takeback_offer: None,
        rematch: None,
        finished: false,
        clock_at: None,
    };
    Seen { plies, meta: &NOTHING }
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
            takeback_offer: Some(Player::Second),
            rematch: Some("g2".into()),
            finished: true,
            clock_at: None,
        };
        store.set_meta("g1", fresh(1), &meta).unwrap();
        assert_eq!(store.computer_games_in_progress().unwrap(), Vec::<String>::new());
    }
    let store = open();
    let game = store.load("g1").unwrap().unwrap();
    assert_eq!(game.record, record("g1"));
    assert_eq!(game.moves, vec![StoredMove { text: "1".into(), actor: MoveActor::First, at: None }]);
    assert_eq!(game.meta.ending.unwrap().winner, Some(Player::Second));
    assert_eq!(game.meta.rematch.as_deref(), Some("g2"));
    assert_eq!(game.meta.takeback_offer, Some(Player::Second));
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
        store.take_back("t1", fresh(4), 2, &meta).unwrap();
        assert!(matches!(store.take_back("nope", fresh(0), 0, &meta), Err(StoreError::NoSuchGame(_))));
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
    store
        .set_meta(
            "t1",
            Seen { plies: 3, meta: &GameMeta { clock_at: Some(9_000), ..GameMeta::default() } },
            &GameMeta { finished: true, ..GameMeta::default() },
        )
        .unwrap();
    assert_eq!(store.timed_games_in_progress().unwrap(), Vec::<String>::new());
}

/// Two store values on the same storage (two processes, or two nodes)
/// race to store the same plies of one game: each ply is stored exactly
/// once, by one of them, and the other is told it is a duplicate.
pub fn concurrent_writers_store_each_move_once(open: &dyn Fn() -> Box<dyn Store>) {
    const PLIES: usize = 40;
    let stores: Vec<Box<dyn Store>> = vec![open(), open()];
    stores[0].create(&record("race")).unwrap();
    let stored: Vec<usize> = std::thread::scope(|scope| {
        let runs: Vec<_> = stores
            .iter()
            .enumerate()
            .map(|(writer, store)| {
                scope.spawn(move || {
                    let mut mine = 0;
                    for ply in 0..PLIES {
                        let mv = StoredMove { text: format!("{writer}:{ply}"), actor: MoveActor::First, at: None };
                        match store.append_move("race", ply, &mv) {
                            Ok(_) => mine += 1,
                            Err(StoreError::DuplicateMove { ply: refused, .. }) => assert_eq!(refused, ply),
                            Err(other) => panic!("writer {writer}, ply {ply}: {other}"),
                        }
                    }
                    mine
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    assert_eq!(stored.iter().sum::<usize>(), PLIES, "each ply stored once: {stored:?}");
    let game = open().load("race").unwrap().unwrap();
    assert_eq!(game.moves.len(), PLIES);
    for (ply, mv) in game.moves.iter().enumerate() {
        assert!(mv.text.ends_with(&format!(":{ply}")), "ply {ply} holds {}", mv.text);
    }
}

/// Every write names what its writer saw of the game, and the store
/// refuses it if the game holds something else: a move after a move it has
/// not seen, a resignation or takeback decided on a stale game (another node
/// moved first), a draw accepted after the offer was withdrawn elsewhere.
/// Moves of an imported record are stored together.
pub fn writes_of_a_stale_game_are_refused(open: &dyn Fn() -> Box<dyn Store>) {
    let store = open();
    store.create(&record("s1")).unwrap();
    let mv = |text: &str| StoredMove { text: text.into(), actor: MoveActor::First, at: None };
    store.append_moves("s1", 0, &[mv("a"), mv("b")]).unwrap();
    let resigned = GameMeta {
        ending: Some(Ending { winner: Some(Player::First), reason: "resignation".into() }),
        finished: true,
        ..GameMeta::default()
    };
    let stale = |result: Result<u64, StoreError>, what: &str| match result {
        Err(StoreError::Stale { game }) => assert_eq!(game, "s1"),
        other => panic!("{what}: {other:?}"),
    };
    stale(store.set_meta("s1", fresh(1), &resigned), "a resignation after 1 of 2 moves");
    stale(store.take_back("s1", fresh(1), 0, &GameMeta::default()), "a takeback after 1 of 2 moves");
    stale(store.append_move("s1", 3, &mv("gap")), "move 3 after 2 moves");
    stale(store.append_moves("s1", 3, &[mv("gap")]), "moves from 3 after 2 moves");
    assert!(matches!(store.append_move("s1", 1, &mv("again")), Err(StoreError::DuplicateMove { ply: 1, .. })));
    let game = open().load("s1").unwrap().unwrap();
    assert_eq!(game.moves, vec![mv("a"), mv("b")], "nothing refused was stored");
    assert_eq!(game.meta, GameMeta::default());
    // An offer, then its withdrawal and its acceptance by writers who both
    // saw it: the first to commit wins, the other is refused.
    let offered = GameMeta { draw_offer: Some(Player::Second), ..GameMeta::default() };
    store.set_meta("s1", fresh(2), &offered).unwrap();
    let seen_offer = Seen { plies: 2, meta: &offered };
    store.set_meta("s1", seen_offer, &GameMeta::default()).unwrap();
    let agreed = GameMeta {
        ending: Some(Ending { winner: None, reason: "draw agreed".into() }),
        finished: true,
        ..GameMeta::default()
    };
    stale(store.set_meta("s1", seen_offer, &agreed), "accepting a withdrawn offer");
    assert_eq!(open().load("s1").unwrap().unwrap().meta, GameMeta::default());
    // A takeback sets the count back: the plies taken back are played again,
    // and a write about the longer game is now stale.
    store.take_back("s1", fresh(2), 1, &GameMeta::default()).unwrap();
    stale(store.set_meta("s1", fresh(2), &resigned), "a resignation after a takeback");
    store.append_move("s1", 1, &mv("c")).unwrap();
    store.set_meta("s1", fresh(2), &resigned).unwrap();
    let game = open().load("s1").unwrap().unwrap();
    assert_eq!(game.moves, vec![mv("a"), mv("c")]);
    assert_eq!(game.meta, resigned);
}

/// A game's version is 0 when created and one more with every write to it,
/// as the write answers and as every store value on the storage reads it;
/// a refused write changes nothing. A takeback asked for is guarded like a
/// draw offer.
pub fn every_write_makes_the_next_version(open: &dyn Fn() -> Box<dyn Store>) {
    let store = open();
    store.create(&record("v1")).unwrap();
    let version = |store: &dyn Store| store.load("v1").unwrap().unwrap().version;
    assert_eq!(version(&*store), 0);
    let mv = |text: &str| StoredMove { text: text.into(), actor: MoveActor::First, at: None };
    assert_eq!(store.append_move("v1", 0, &mv("a")).unwrap(), 1);
    assert_eq!(store.append_moves("v1", 1, &[mv("b"), mv("c")]).unwrap(), 3);
    assert_eq!(store.append_moves("v1", 3, &[]).unwrap(), 3, "no moves, no change");
    let asked = GameMeta { takeback_offer: Some(Player::First), ..GameMeta::default() };
    assert_eq!(store.set_meta("v1", fresh(3), &asked).unwrap(), 4);
    let withdrawn_elsewhere = Seen { plies: 3, meta: &asked };
    assert_eq!(store.set_meta("v1", withdrawn_elsewhere, &GameMeta::default()).unwrap(), 5);
    let granted = GameMeta { clock_at: Some(1), ..GameMeta::default() };
    assert!(matches!(store.take_back("v1", withdrawn_elsewhere, 2, &granted), Err(StoreError::Stale { .. })));
    assert!(store.append_move("v1", 0, &mv("again")).is_err());
    assert_eq!(version(&*open()), 5, "refused writes change nothing");
    assert_eq!(store.take_back("v1", fresh(3), 2, &granted).unwrap(), 6);
    // Back at ply 2, yet on: a version never goes back.
    assert_eq!(store.append_move("v1", 2, &mv("d")).unwrap(), 7);
    let game = open().load("v1").unwrap().unwrap();
    assert_eq!((game.version, game.moves.len(), game.meta), (7, 3, granted));
}

/// Every game is listed (in creation order), and the unfinished computer
/// games are the ones to resume.
pub fn games_are_listed(open: &dyn Fn() -> Box<dyn Store>) {
    let store = open();
    let friend = |id: &str, created| GameRecord {
        mode: Mode::Friend,
        seats: [
            Seat { kind: SeatKind::Human, secret: Some("a".into()) },
            Seat { kind: SeatKind::Human, secret: Some("b".into()) },
        ],
        created,
        ..record(id)
    };
    store.create(&GameRecord { created: 1, ..record("c-open") }).unwrap();
    store.create(&friend("f-open", 2)).unwrap();
    store.create(&GameRecord { created: 3, ..record("c-done") }).unwrap();
    store.set_meta("c-done", fresh(0), &GameMeta { finished: true, ..GameMeta::default() }).unwrap();
    let store = open();
    assert_eq!(store.game_ids().unwrap(), ["c-open", "f-open", "c-done"]);
    assert_eq!(store.computer_games_in_progress().unwrap(), ["c-open"]);
    assert!(matches!(store.set_meta("nope", fresh(0), &GameMeta::default()), Err(StoreError::NoSuchGame(_))));
}

/// The data a game was made with comes back with it, stored once however
/// many games use it, a long text included.
pub fn game_data_round_trips(open: &dyn Fn() -> Box<dyn Store>) {
    let store = open();
    let long: String = (0..4000).map(|i| format!("[[card]] # {i}\n")).collect();
    let deck = GameData { option: "deck".into(), name: "big".into(), text: long.as_str().into() };
    let small = GameData { option: "deck".into(), name: "small".into(), text: "[[card]]".into() };
    store.create(&GameRecord { data: vec![deck.clone()], ..record("d1") }).unwrap();
    store.create(&GameRecord { data: vec![deck.clone(), small.clone()], ..record("d2") }).unwrap();
    let store = open();
    assert_eq!(store.load("d1").unwrap().unwrap().record.data, vec![deck.clone()]);
    assert_eq!(store.load("d2").unwrap().unwrap().record.data, vec![deck, small]);
}

/// Runs every check of the contract, each on fresh storage from `fresh`
/// (which answers how to open it).
pub fn keeps_the_whole_contract(fresh: &dyn Fn() -> Box<dyn Fn() -> Box<dyn Store>>) {
    games_round_trip_and_moves_are_never_duplicated(&*fresh());
    concurrent_writers_store_each_move_once(&*fresh());
    games_are_listed(&*fresh());
    writes_of_a_stale_game_are_refused(&*fresh());
    game_data_round_trips(&*fresh());
    clocks_and_takebacks_are_kept(&*fresh());
    every_write_makes_the_next_version(&*fresh());
    accounts_and_sessions_are_kept(&*fresh());
    seats_belong_to_their_accounts(&*fresh());
    rated_games_are_rated_once_with_their_end(&*fresh());
    notifications_and_resets_are_kept(&*fresh());
    api_tokens_and_bots_are_kept(&*fresh());
    tournaments_pair_and_score_once(&*fresh());
    lobby_is_kept(&*fresh());
    limits_count_each_request_once_across_stores(&*fresh());
    blocks_and_devices_are_kept(&*fresh());
    puzzles_are_rated_by_their_first_rounds(&*fresh());
    lesson_progress_only_grows(&*fresh());
    reviews_are_kept_once(&*fresh());
}

fn account(id: &str, username: &str) -> Account {
    Account { id: id.into(), username: username.into(), created: 1_700_000_000_000, closed: None }
}

/// Accounts are found by name in any case and a name is taken once; a
/// session opens its account until it ends, alone or with all of the
/// account's; a closed account keeps its name, logs in no more and its
/// sessions end. Everything through one store value is read back through
/// another.
pub fn accounts_and_sessions_are_kept(open: &dyn Fn() -> Box<dyn Store>) {
    let ada = account("a1", "Ada_L");
    {
        let store = open();
        assert!(sql::transact(&*store, |s| accounts::create_account(s, &ada, "hash-a")).unwrap());
        let twin = account("a2", "ada_l");
        assert!(!sql::transact(&*store, |s| accounts::create_account(s, &twin, "hash-b")).unwrap(), "name taken");
        for session in ["s1", "s2", "s3"] {
            sql::transact(&*store, |s| accounts::create_session(s, session, "a1", 5)).unwrap();
        }
    }
    let store = open();
    let found = sql::read(&*store, |s| accounts::account_for_login(s, "ADA_l")).unwrap();
    assert_eq!(found, Some((ada.clone(), "hash-a".to_owned())));
    assert_eq!(sql::read(&*store, |s| accounts::account_for_login(s, "bob")).unwrap(), None);
    assert_eq!(sql::read(&*store, |s| accounts::session_account(s, "s2")).unwrap(), Some(ada.clone()));
    assert_eq!(sql::read(&*store, |s| accounts::sessions(s, "a1")).unwrap(), vec![(5, 5); 3]);
    sql::transact(&*store, |s| accounts::end_session(s, "s2")).unwrap();
    assert_eq!(sql::read(&*store, |s| accounts::session_account(s, "s2")).unwrap(), None);
    assert_eq!(sql::read(&*store, |s| accounts::session_account(s, "s1")).unwrap(), Some(ada.clone()));
    assert_eq!(sql::transact(&*store, |s| accounts::end_sessions(s, "a1")).unwrap(), 2);
    assert_eq!(sql::read(&*store, |s| accounts::session_account(s, "s3")).unwrap(), None);
    // A failed transaction leaves nothing behind.
    let failed = sql::transact(&*store, |s| {
        accounts::create_session(s, "s4", "a1", 6)?;
        Err::<(), _>(StoreError::Database("changed my mind".into()))
    });
    assert!(failed.is_err());
    assert_eq!(sql::read(&*store, |s| accounts::sessions(s, "a1")).unwrap(), vec![]);
    sql::transact(&*store, |s| accounts::create_session(s, "s5", "a1", 7)).unwrap();
    // Passkeys: one row per credential; a ceremony is taken once, by its
    // account, before it expires.
    let key = accounts::StoredPasskey {
        id: "cred1".into(),
        account: "a1".into(),
        user_handle: "uuid-a1".into(),
        credential: "{}".into(),
        created: 8,
    };
    assert!(sql::transact(&*store, |s| accounts::add_passkey(s, &key)).unwrap());
    assert!(!sql::transact(&*store, |s| accounts::add_passkey(s, &key)).unwrap(), "registered once");
    sql::transact(&*store, |s| accounts::update_passkey(s, "cred1", "{\"n\":1}")).unwrap();
    let found = sql::read(&*store, |s| accounts::passkey_for_login(s, "cred1", "uuid-a1")).unwrap().unwrap();
    assert_eq!(found.credential, "{\"n\":1}");
    assert_eq!(sql::read(&*store, |s| accounts::passkey_for_login(s, "cred1", "uuid-b")).unwrap(), None);
    assert_eq!(sql::read(&*store, |s| accounts::passkeys(s, "a1")).unwrap().len(), 1);
    for (id, account) in [("c1", Some("a1")), ("c2", None), ("c3", None)] {
        sql::transact(&*store, |s| accounts::begin_ceremony(s, id, account, "state", 100, 0)).unwrap();
    }
    assert_eq!(sql::transact(&*store, |s| accounts::take_ceremony(s, "c1", None, 0)).unwrap(), None, "not a login's");
    assert_eq!(
        sql::transact(&*store, |s| accounts::take_ceremony(s, "c2", None, 0)).unwrap().as_deref(),
        Some("state")
    );
    assert_eq!(sql::transact(&*store, |s| accounts::take_ceremony(s, "c2", None, 0)).unwrap(), None, "taken once");
    assert_eq!(sql::transact(&*store, |s| accounts::take_ceremony(s, "c3", None, 101)).unwrap(), None, "expired");
    sql::transact(&*store, |s| closing::close_account(s, "a1", 9)).unwrap();
    assert_eq!(sql::read(&*store, |s| accounts::passkey_for_login(s, "cred1", "uuid-a1")).unwrap(), None);
    assert!(sql::read(&*store, |s| accounts::passkeys(s, "a1")).unwrap().is_empty(), "a closed account's passkeys end");
    assert_eq!(sql::read(&*store, |s| accounts::session_account(s, "s5")).unwrap(), None);
    assert_eq!(sql::read(&*store, |s| accounts::account_for_login(s, "ada_l")).unwrap(), None);
    let closed = sql::read(&*store, |s| accounts::account_by_id(s, "a1")).unwrap().unwrap();
    assert_eq!(closed.closed, Some(9));
    let again = account("a3", "ADA_L");
    assert!(
        !sql::transact(&*store, |s| accounts::create_account(s, &again, "h")).unwrap(),
        "a closed name stays taken"
    );
}

/// A notice is stored once per topic and listed newest first until read;
/// an address is set and removed; a reset is used once, before it
/// expires, and closing the account ends its resets and address.
pub fn notifications_and_resets_are_kept(open: &dyn Fn() -> Box<dyn Store>) {
    use super::notifications::{self as notes, NewNotification};
    let store = open();
    for (id, username) in [("a1", "Ada"), ("b1", "Bob")] {
        assert!(sql::transact(&*store, |s| accounts::create_account(s, &account(id, username), "h")).unwrap());
    }
    let notice = |id: &'static str, account: &'static str, topic: &'static str, created: i64| NewNotification {
        id,
        account,
        topic,
        kind: "yourMove",
        game: Some("g1"),
        body: "{\"text\":\"t\"}",
        created,
    };
    assert!(sql::transact(&*store, |s| notes::add(s, &notice("n1", "a1", "move:g1:2", 10))).unwrap());
    assert!(!sql::transact(&*store, |s| notes::add(s, &notice("n2", "a1", "move:g1:2", 11))).unwrap(), "told once");
    assert!(sql::transact(&*store, |s| notes::add(s, &notice("n3", "a1", "move:g1:4", 12))).unwrap());
    assert!(sql::transact(&*store, |s| notes::add(s, &notice("n4", "b1", "move:g1:2", 13))).unwrap(), "each account");
    let store = open();
    let listed = sql::read(&*store, |s| notes::newest(s, "a1", 10)).unwrap();
    assert_eq!(listed.iter().map(|n| n.id.as_str()).collect::<Vec<_>>(), ["n3", "n1"]);
    assert_eq!((listed[0].game.as_deref(), listed[0].created, listed[0].seen), (Some("g1"), 12, None));
    assert_eq!(sql::read(&*store, |s| notes::unread(s, "a1")).unwrap(), 2);
    assert_eq!(
        sql::transact(&*store, |s| notes::mark_read(s, "a1", Some(&["n1".into(), "n4".into()]), 20)).unwrap(),
        1
    );
    assert_eq!(sql::read(&*store, |s| notes::unread(s, "a1")).unwrap(), 1);
    assert_eq!(sql::read(&*store, |s| notes::unread(s, "b1")).unwrap(), 1, "another's are not marked");
    sql::transact(&*store, |s| notes::mark_read(s, "a1", None, 21)).unwrap();
    assert_eq!(sql::read(&*store, |s| notes::unread(s, "a1")).unwrap(), 0);
    assert_eq!(sql::read(&*store, |s| notes::newest(s, "a1", 1)).unwrap()[0].seen, Some(21));
    // Addresses.
    assert_eq!(sql::read(&*store, |s| notes::email(s, "a1")).unwrap(), None);
    sql::transact(&*store, |s| notes::set_email(s, "a1", Some("ada@example.org"))).unwrap();
    assert_eq!(sql::read(&*store, |s| notes::email(s, "a1")).unwrap().as_deref(), Some("ada@example.org"));
    // Resets: once, unexpired.
    sql::transact(&*store, |s| notes::add_reset(s, "r1", "a1", 100, 200)).unwrap();
    sql::transact(&*store, |s| notes::add_reset(s, "r2", "a1", 100, 200)).unwrap();
    assert_eq!(sql::read(&*store, |s| notes::resets_since(s, "a1", 50)).unwrap(), 2);
    assert_eq!(sql::transact(&*store, |s| notes::use_reset(s, "r1", 150)).unwrap().as_deref(), Some("a1"));
    assert_eq!(sql::transact(&*store, |s| notes::use_reset(s, "r1", 151)).unwrap(), None, "used once");
    assert_eq!(sql::transact(&*store, |s| notes::use_reset(s, "r2", 200)).unwrap(), None, "expired");
    sql::transact(&*store, |s| notes::set_password(s, "a1", "new-hash")).unwrap();
    let found = sql::read(&*store, |s| accounts::account_for_login(s, "ada")).unwrap().unwrap();
    assert_eq!(found.1, "new-hash");
    sql::transact(&*store, |s| notes::add_reset(s, "r3", "a1", 300, 400)).unwrap();
    sql::transact(&*store, |s| closing::close_account(s, "a1", 310)).unwrap();
    assert_eq!(sql::transact(&*store, |s| notes::use_reset(s, "r3", 320)).unwrap(), None, "closing ends resets");
    assert_eq!(sql::read(&*store, |s| notes::email(s, "a1")).unwrap(), None, "closing forgets the address");
}

/// A seat is held by the browser that took it and the account logged in
/// there, or the account that browser signs up for later; an account holding
/// one seat of a game acts for it, and its games in progress are listed.
pub fn seats_belong_to_their_accounts(open: &dyn Fn() -> Box<dyn Store>) {
    let store = open();
    for id in ["g1", "g2", "g3"] {
        store.create(&record(id)).unwrap();
    }
    store.set_meta("g3", fresh(0), &GameMeta { finished: true, ..GameMeta::default() }).unwrap();
    let ada = account("a1", "ada");
    sql::transact(&*store, |s| accounts::create_account(s, &ada, "h")).unwrap();
    sql::transact(&*store, |s| {
        accounts::hold_seat(s, "g1", 0, Some("browser1"), Some("a1"))?;
        accounts::hold_seat(s, "g2", 0, Some("browser2"), None)?;
        accounts::hold_seat(s, "g3", 0, Some("browser2"), None)?;
        accounts::hold_seat(s, "g3", 1, Some("browser3"), None)
    })
    .unwrap();
    assert_eq!(sql::read(&*store, |s| accounts::held_seat(s, "g1", "a1")).unwrap(), Some((0, "s0".into())));
    assert_eq!(sql::read(&*store, |s| accounts::held_seat(s, "g2", "a1")).unwrap(), None);
    assert_eq!(sql::transact(&*store, |s| accounts::claim_seats(s, "browser2", "a1")).unwrap(), 2);
    assert_eq!(sql::read(&*store, |s| accounts::held_seat(s, "g2", "a1")).unwrap(), Some((0, "s0".into())));
    let playing = sql::read(&*store, |s| accounts::held_seats(s, "a1", true)).unwrap();
    assert_eq!(playing.iter().map(|h| h.game.as_str()).collect::<Vec<_>>(), ["g1", "g2"]);
    assert!(playing.iter().all(|h| h.variant == "nim" && !h.finished && h.seat == 0));
    assert_eq!(sql::read(&*store, |s| accounts::held_seats(s, "a1", false)).unwrap().len(), 3);
    assert_eq!(sql::read(&*store, |s| accounts::seat_account(s, "g3", 0)).unwrap(), Some(ada));
    assert_eq!(sql::read(&*store, |s| accounts::seat_account(s, "g3", 1)).unwrap(), None);
}

/// A few games of every kind: moves, chance moves, an ending, data.
pub fn fill(store: &dyn Store) {
    let deck = GameData { option: "deck".into(), name: "small".into(), text: "[[card]]".into() };
    store.create(&GameRecord { created: 1, ..record("g1") }).unwrap();
    store.create(&GameRecord { created: 2, data: vec![deck], ..record("g2") }).unwrap();
    store
        .create(&GameRecord {
            created: 3,
            time_control: Some(TimeControl::Correspondence { per_move_ms: 86_400_000 }),
            ..record("g3")
        })
        .unwrap();
    for ply in 0..5 {
        let actor = [MoveActor::First, MoveActor::Chance][ply % 2];
        store
            .append_move("g1", ply, &StoredMove { text: format!("m{ply}"), actor, at: Some(1_000 + ply as i64) })
            .unwrap();
    }
    let ending = Ending { winner: Some(Player::First), reason: "resignation".into() };
    let meta = GameMeta {
        ending: Some(ending),
        finished: true,
        rematch: Some("g3".into()),
        clock_at: Some(5_000),
        ..GameMeta::default()
    };
    store.set_meta("g1", fresh(5), &meta).unwrap();
    store.append_move("g2", 0, &StoredMove { text: "x".into(), actor: MoveActor::Second, at: None }).unwrap();
}

/// Both stores hold the same games, whole.
pub fn same_games(a: &dyn Store, b: &dyn Store) {
    let ids = a.game_ids().unwrap();
    assert_eq!(ids, b.game_ids().unwrap());
    for id in ids {
        let (a, b) = (a.load(&id).unwrap().unwrap(), b.load(&id).unwrap().unwrap());
        assert!(a.same_game(&b), "game {id}: {a:?} and {b:?}");
    }
}

/// A game between two people, `moves` moves each, made one after the other.
fn played(store: &dyn Store, id: &str, moves: usize) {
    let human = Seat { kind: SeatKind::Human, secret: Some(format!("{id}-1")) };
    store.create(&GameRecord { seats: [record(id).seats[0].clone(), human], ..record(id) }).unwrap();
    for ply in 0..2 * moves {
        let actor = [MoveActor::First, MoveActor::Second][ply % 2];
        store.append_move(id, ply, &StoredMove { text: format!("m{ply}"), actor, at: None }).unwrap();
    }
}

fn resigned_by_second() -> GameMeta {
    let ending = Ending { winner: Some(Player::First), reason: "resignation".into() };
    GameMeta { ending: Some(ending), finished: true, ..GameMeta::default() }
}

/// A rated game's end stores its result and both players' new ratings (as
/// `menagerie_league` computes them), their history and the game's
/// changes, together and once: a second end of the same game (another
/// node's, another store value's) is refused and changes nothing. Too few
/// moves, or a seat no account holds, leave the ratings alone; the
/// computer is rated by its level.
pub fn rated_games_are_rated_once_with_their_end(open: &dyn Fn() -> Box<dyn Store>) {
    use menagerie_league::glicko2::{rate_game, Rating};
    let store = open();
    for (id, name) in [("a1", "Ada"), ("a2", "Bob")] {
        sql::transact(&*store, |s| accounts::create_account(s, &account(id, name), "hash")).unwrap();
    }
    let hold = |game: &str, rated: bool| {
        sql::transact(&*store, |s| {
            accounts::hold_seat(s, game, 0, None, Some("a1"))?;
            accounts::hold_seat(s, game, 1, None, Some("a2"))?;
            if rated {
                ratings::mark_rated(s, game, "nim")?;
            }
            Ok(())
        })
        .unwrap();
    };
    played(&*store, "r1", 2);
    hold("r1", true);
    let day = 86_400_000;
    let now = 1_700_000_000_000 + day;
    // Two store values end the same game: one of them wins.
    let other = open();
    let ends = [
        store.finish("r1", fresh(4), &resigned_by_second(), Some(Player::First), now),
        other.finish("r1", fresh(4), &resigned_by_second(), Some(Player::First), now),
    ];
    assert_eq!(ends.iter().filter(|e| e.is_ok()).count(), 1, "{ends:?}");
    assert!(ends.iter().any(|e| matches!(e, Err(StoreError::Stale { .. }))), "{ends:?}");
    let expected = rate_game(Rating::START, 0.0, Rating::START, 0.0, menagerie_league::Outcome::Win);
    for (player, rating, wins) in [("a1", expected[0], 1), ("a2", expected[1], 0)] {
        let perfs = sql::read(&*store, |s| ratings::perfs(s, player)).unwrap();
        assert_eq!(perfs.len(), 1, "{player}: {perfs:?}");
        assert_eq!((perfs[0].perf.as_str(), perfs[0].games, perfs[0].wins, perfs[0].last_game), ("nim", 1, wins, now));
        assert!((perfs[0].rating.rating - rating.rating).abs() < 1e-9, "{player}: {perfs:?} {rating:?}");
        assert!((perfs[0].rating.deviation - rating.deviation).abs() < 1e-9);
        let history = sql::read(&*store, |s| ratings::history(s, player)).unwrap();
        assert_eq!(history.len(), 1);
        assert_eq!((history[0].game.as_str(), history[0].at, history[0].rating), ("r1", now, perfs[0].rating));
    }
    let rated = sql::read(&*store, |s| ratings::rated_game(s, "r1")).unwrap().unwrap();
    assert_eq!(rated.status.as_deref(), Some("rated"));
    let seats = rated.seats.clone().map(|s| s.unwrap());
    assert_eq!(
        (seats[0].player.as_str(), seats[0].before, seats[0].diff),
        ("a1", 1500.0, expected[0].rating.round() as i64 - 1500)
    );
    assert!(seats[1].diff < 0);
    assert_eq!(sql::read(&*store, |s| ratings::counts(s, "a1")).unwrap(), [1, 1, 1, 0, 0]);
    assert_eq!(sql::read(&*store, |s| ratings::counts(s, "a2")).unwrap(), [1, 1, 0, 1, 0]);

    // Too few moves: aborted for ratings, the result still kept.
    played(&*store, "r2", 1);
    hold("r2", true);
    store.finish("r2", fresh(2), &resigned_by_second(), Some(Player::First), now + day).unwrap();
    assert_eq!(
        sql::read(&*store, |s| ratings::rated_game(s, "r2")).unwrap().unwrap().status.as_deref(),
        Some("aborted")
    );
    // A casual game changes no rating; a draw counts as one.
    played(&*store, "c1", 3);
    hold("c1", false);
    let drawn = GameMeta { finished: true, ..GameMeta::default() };
    store.finish("c1", fresh(6), &drawn, None, now + day).unwrap();
    assert_eq!(sql::read(&*store, |s| ratings::perfs(s, "a1")).unwrap()[0].games, 1);
    assert_eq!(sql::read(&*store, |s| ratings::counts(s, "a1")).unwrap(), [3, 1, 2, 0, 1]);
    let filter = ratings::GameFilter { result: Some("draw".into()), ..Default::default() };
    let games = sql::read(&*store, |s| ratings::account_games(s, "a2", &filter)).unwrap();
    assert_eq!(games.iter().map(|g| g.game.as_str()).collect::<Vec<_>>(), ["c1"]);
    let filter = ratings::GameFilter { rated: Some(true), ..Default::default() };
    let games = sql::read(&*store, |s| ratings::account_games(s, "a2", &filter)).unwrap();
    assert_eq!(games.iter().map(|g| g.game.as_str()).collect::<Vec<_>>(), ["r1"]);

    // Against the computer: its level has a rating of its own; a day idle
    // widens the account's deviation before the game.
    store.create(&GameRecord { created: 9, ..record("k1") }).unwrap();
    for ply in 0..4 {
        let actor = [MoveActor::First, MoveActor::Second][ply % 2];
        store.append_move("k1", ply, &StoredMove { text: format!("m{ply}"), actor, at: None }).unwrap();
    }
    sql::transact(&*store, |s| {
        accounts::hold_seat(s, "k1", 0, None, Some("a1"))?;
        ratings::mark_rated(s, "k1", "nim")
    })
    .unwrap();
    store.finish("k1", fresh(4), &drawn, None, now + day).unwrap();
    let computer = sql::read(&*store, |s| ratings::perfs(s, &ratings::computer_player("random"))).unwrap();
    assert_eq!((computer.len(), computer[0].games, computer[0].draws), (1, 1, 1));
    let ada = sql::read(&*store, |s| ratings::perfs(s, "a1")).unwrap();
    let expected = rate_game(expected[0], 1.0, Rating::START, 0.0, menagerie_league::Outcome::Draw);
    assert!((ada[0].rating.deviation - expected[0].deviation).abs() < 1e-9, "{ada:?} {expected:?}");
    let leaders = sql::read(&*store, |s| ratings::leaders(s, "nim", 600.0, 10)).unwrap();
    assert_eq!(leaders.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>(), ["Ada", "Bob"], "no computer");
    assert_eq!(sql::read(&*store, |s| ratings::recent_ratings(s, "a1", "nim", 12)).unwrap().len(), 2);
}

/// An API token authenticates its open account with its scopes until it is
/// revoked (by its handle, by its own account only) or the account closes;
/// an account becomes a bot only while it holds no seat.
pub fn api_tokens_and_bots_are_kept(open: &dyn Fn() -> Box<dyn Store>) {
    let token = |id: &str, handle: &str, account: &str| StoredToken {
        id: id.into(),
        handle: handle.into(),
        account: account.into(),
        description: format!("{handle}'s"),
        scopes: "bot:play challenge:read".into(),
        created: 10,
    };
    {
        let store = open();
        for (id, name) in [("a1", "ada"), ("a2", "bob")] {
            sql::transact(&*store, |s| accounts::create_account(s, &account(id, name), "h")).unwrap();
        }
        for (id, handle, owner) in [("t1", "h1", "a1"), ("t2", "h2", "a1"), ("t3", "h3", "a2")] {
            sql::transact(&*store, |s| tokens::add_token(s, &token(id, handle, owner))).unwrap();
        }
    }
    let store = open();
    let (found, scopes) = sql::read(&*store, |s| tokens::token_account(s, "t1")).unwrap().unwrap();
    assert_eq!((found.username.as_str(), scopes.as_str()), ("ada", "bot:play challenge:read"));
    assert_eq!(sql::read(&*store, |s| tokens::token_account(s, "nope")).unwrap(), None);
    assert_eq!(
        sql::read(&*store, |s| tokens::tokens(s, "a1")).unwrap(),
        vec![token("t1", "h1", "a1"), token("t2", "h2", "a1")]
    );
    assert!(!sql::transact(&*store, |s| tokens::revoke_token(s, "a1", "h3")).unwrap(), "not ada's");
    assert!(sql::transact(&*store, |s| tokens::revoke_token(s, "a1", "h1")).unwrap());
    assert_eq!(sql::read(&*store, |s| tokens::token_account(s, "t1")).unwrap(), None);
    assert!(sql::read(&*store, |s| tokens::token_account(s, "t3")).unwrap().is_some());
    sql::transact(&*store, |s| tokens::end_token(s, "t3")).unwrap();
    assert_eq!(sql::read(&*store, |s| tokens::token_account(s, "t3")).unwrap(), None);
    // Bots: only an account that has played no game.
    assert!(!sql::read(&*store, |s| tokens::is_bot(s, "a1")).unwrap());
    assert!(sql::transact(&*store, |s| tokens::upgrade_to_bot(s, "a1", 11)).unwrap());
    assert!(sql::transact(&*store, |s| tokens::upgrade_to_bot(s, "a1", 12)).unwrap(), "already one");
    assert!(sql::read(&*store, |s| tokens::is_bot(s, "a1")).unwrap());
    store.create(&record("g1")).unwrap();
    sql::transact(&*store, |s| accounts::hold_seat(s, "g1", 0, None, Some("a2"))).unwrap();
    assert!(!sql::transact(&*store, |s| tokens::upgrade_to_bot(s, "a2", 11)).unwrap(), "bob has played");
    assert!(!sql::read(&*store, |s| tokens::is_bot(s, "a2")).unwrap());
    // Closing an account ends its tokens.
    sql::transact(&*store, |s| closing::close_account(s, "a1", 13)).unwrap();
    assert_eq!(sql::read(&*store, |s| tokens::token_account(s, "t2")).unwrap(), None);
    assert!(sql::read(&*store, |s| tokens::tokens(s, "a1")).unwrap().is_empty());
}

/// A tournament is kept with its entrants (who may leave and come back);
/// a pairing is stored once even when made twice from the same standings
/// (two nodes), its games are listed until created, and each game is
/// scored once from its stored result.
pub fn tournaments_pair_and_score_once(open: &dyn Fn() -> Box<dyn Store>) {
    let store = open();
    for (id, name) in [("a1", "Ada"), ("a2", "Bob"), ("a3", "Cy")] {
        sql::transact(&*store, |s| accounts::create_account(s, &account(id, name), "h")).unwrap();
    }
    let arena = Tournament {
        id: "t1".into(),
        kind: Kind::Arena,
        name: "Friday arena".into(),
        variant: "nim".into(),
        clock: "fischer:60000+0".into(),
        minutes: Some(30),
        rounds: None,
        starts_at: 1_000,
        password: Some("$argon2id$hash".into()),
        creator: "a1".into(),
        status: Status::Created,
        berserk: true,
        created: 500,
        started: None,
        finished: None,
    };
    sql::transact(&*store, |s| tournaments::create(s, &arena)).unwrap();
    assert_eq!(sql::read(&*store, |s| tournaments::get(s, "t1")).unwrap(), Some(arena.clone()));
    assert_eq!(sql::read(&*store, |s| tournaments::get(s, "nope")).unwrap(), None);
    for who in ["a2", "a1", "a3"] {
        assert!(sql::transact(&*store, |s| tournaments::join(s, "t1", who, 600)).unwrap());
    }
    assert!(!sql::transact(&*store, |s| tournaments::join(s, "t1", "a1", 601)).unwrap(), "already in");
    assert!(sql::transact(&*store, |s| tournaments::withdraw(s, "t1", "a3", 602)).unwrap());
    assert!(!sql::transact(&*store, |s| tournaments::withdraw(s, "t1", "a3", 603)).unwrap(), "already out");
    let entrants = sql::read(&*store, |s| tournaments::entrants(s, "t1")).unwrap();
    let seen: Vec<_> = entrants.iter().map(|e| (e.username.as_str(), e.seed, e.withdrawn)).collect();
    assert_eq!(seen, [("Bob", 0, None), ("Ada", 1, None), ("Cy", 2, Some(602))]);
    assert!(sql::transact(&*store, |s| tournaments::join(s, "t1", "a3", 604)).unwrap(), "back in");
    assert_eq!(sql::read(&*store, |s| tournaments::entrants(s, "t1")).unwrap()[2].withdrawn, None);
    // Started once; listed by status.
    assert!(sql::transact(&*store, |s| tournaments::start(s, "t1", 1_000)).unwrap());
    assert!(!sql::transact(&*store, |s| tournaments::start(s, "t1", 1_001)).unwrap());
    let started = sql::read(&*store, |s| tournaments::list(s, Status::Started, 10)).unwrap();
    assert_eq!(started.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(), ["t1"]);
    assert_eq!(started[0].ends_at(), Some(1_000 + 30 * 60_000));
    assert!(sql::read(&*store, |s| tournaments::list(s, Status::Created, 10)).unwrap().is_empty());
    assert_eq!(sql::read(&*store, |s| tournaments::unfinished(s)).unwrap(), ["t1"]);
    // The same standings paired twice (another node, under another game
    // id): the second pairing stores nothing.
    let pairing = |game: &str, nth: i64| {
        vec![Paired { game: game.into(), first: "a1".into(), second: "a2".into(), nth: [nth; 2] }]
    };
    sql::transact(&*store, |s| tournaments::reserve(s, "t1", 1, &pairing("tg1", 0), 2_000)).unwrap();
    let again = sql::transact(&*store, |s| tournaments::reserve(s, "t1", 1, &pairing("tg-twice", 0), 2_001));
    assert!(matches!(again, Err(StoreError::Stale { .. })), "{again:?}");
    let games = sql::read(&*store, |s| tournaments::games(s, "t1")).unwrap();
    assert_eq!(games.iter().map(|g| g.game.as_str()).collect::<Vec<_>>(), ["tg1"]);
    assert_eq!((games[0].first.as_str(), games[0].second.as_str(), games[0].round), ("a1", "a2", 1));
    assert_eq!(games[0].seat_of("a2"), Some(1));
    // Reserved and not created; then created and played.
    let unready = sql::read(&*store, |s| tournaments::unready(s, "t1")).unwrap();
    assert_eq!(unready.iter().map(|(g, made)| (g.game.as_str(), *made)).collect::<Vec<_>>(), [("tg1", false)]);
    played(&*store, "tg1", 8);
    let unready = sql::read(&*store, |s| tournaments::unready(s, "t1")).unwrap();
    assert_eq!(unready.iter().map(|(g, made)| (g.game.as_str(), *made)).collect::<Vec<_>>(), [("tg1", true)]);
    sql::transact(&*store, |s| {
        accounts::hold_seat(s, "tg1", 0, None, Some("a1"))?;
        accounts::hold_seat(s, "tg1", 1, None, Some("a2"))
    })
    .unwrap();
    assert!(sql::read(&*store, |s| tournaments::unready(s, "t1")).unwrap().is_empty());
    assert!(sql::transact(&*store, |s| tournaments::berserk(s, "tg1", 1)).unwrap());
    assert!(!sql::transact(&*store, |s| tournaments::berserk(s, "tg1", 1)).unwrap(), "once");
    // Not scored before it ends; scored once after.
    assert_eq!(sql::transact(&*store, |s| tournaments::score_ended(s, "t1")).unwrap(), 0);
    store.finish("tg1", fresh(16), &resigned_by_second(), Some(Player::First), 3_000).unwrap();
    assert_eq!(sql::transact(&*store, |s| tournaments::score_ended(s, "t1")).unwrap(), 1);
    assert_eq!(sql::transact(&*store, |s| tournaments::score_ended(s, "t1")).unwrap(), 0, "scored once");
    let scored = sql::read(&*store, |s| tournaments::game(s, "tg1")).unwrap().unwrap();
    assert_eq!((scored.outcome, scored.moves, scored.berserk), (Some(GameOutcome::First), [8, 8], [false, true]));
    assert!(!sql::transact(&*store, |s| tournaments::berserk(s, "tg1", 0)).unwrap(), "not after the end");
    // The next pairing of the same players, from the standings after it.
    sql::transact(&*store, |s| tournaments::reserve(s, "t1", 2, &pairing("tg2", 1), 4_000)).unwrap();
    assert_eq!(sql::read(&*store, |s| tournaments::games(s, "t1")).unwrap().len(), 2);
    assert!(sql::transact(&*store, |s| tournaments::finish(s, "t1", 5_000)).unwrap());
    assert!(!sql::transact(&*store, |s| tournaments::finish(s, "t1", 5_001)).unwrap());
    assert!(sql::read(&*store, |s| tournaments::unfinished(s)).unwrap().is_empty());
    assert_eq!(sql::read(&*store, |s| tournaments::list(s, Status::Finished, 10)).unwrap()[0].finished, Some(5_000));
}

/// The lobby: a seek is listed while its lease lasts, taken once, and the
/// games started from it are listed while played, then leave the list when
/// they end or rest.
pub fn lobby_is_kept(open: &dyn Fn() -> Box<dyn Store>) {
    use super::lobby::{self as lobby, ListedGame, StoredSeek};
    let store = open();
    let seek = |id: &str, creator: &str, alive_until: i64| StoredSeek {
        id: id.into(),
        creator: creator.into(),
        account: None,
        name: "Ada".into(),
        address: Some("127.0.0.1".into()),
        body: "{\"variant\":\"lma\"}".into(),
        rated: false,
        rating_range: Some("1300-1700".into()),
        rating: Some(1500),
        provisional: Some(true),
        created: 100,
        alive_until,
    };
    sql::transact(&*store, |s| lobby::insert_seek(s, &seek("k1", "ada", 1_000), 100)).unwrap();
    sql::transact(&*store, |s| lobby::insert_seek(s, &seek("k2", "ada", 500), 100)).unwrap();
    sql::transact(&*store, |s| lobby::insert_seek(s, &seek("k3", "bob", 1_000), 100)).unwrap();
    let store = open();
    let live = |at: i64| -> Vec<String> {
        sql::read(&*store, |s| lobby::live_seeks(s, at)).unwrap().into_iter().map(|s| s.id).collect()
    };
    assert_eq!(live(200), ["k1", "k2", "k3"]);
    assert_eq!(sql::read(&*store, |s| lobby::live_seek(s, "k1", 200)).unwrap(), Some(seek("k1", "ada", 1_000)));
    assert_eq!(live(600), ["k1", "k3"], "a lease that ended hides its seek");
    let counts = sql::read(&*store, |s| lobby::count_seeks(s, "ada", Some("127.0.0.1"), 200)).unwrap();
    assert_eq!((counts.all, counts.creator, counts.address), (3, 2, 3));
    // Renewed leases last; a lease already over is not brought back.
    assert_eq!(sql::transact(&*store, |s| lobby::renew(s, "ada", 600, 5_000)).unwrap(), 1);
    assert_eq!(live(2_000), ["k1"]);
    assert_eq!(sql::transact(&*store, |s| lobby::cut_short(s, "ada", 2_500)).unwrap(), 1);
    assert_eq!(live(2_600), Vec::<String>::new());
    // Taken once.
    assert!(sql::transact(&*store, |s| lobby::delete_seek(s, "k3")).unwrap());
    assert!(!sql::transact(&*store, |s| lobby::delete_seek(s, "k3")).unwrap());

    // Games listed: newest first, with their moves; gone when finished or at rest.
    played(&*store, "g1", 1);
    played(&*store, "g2", 0);
    for (id, listed) in [("g1", 1_000), ("g2", 2_000)] {
        let game =
            ListedGame { id: id.into(), variant: "nim".into(), seats: "[]".into(), rated: false, listed, plies: 0 };
        sql::transact(&*store, |s| lobby::list_game(s, &game)).unwrap();
    }
    let listed = |since: i64| -> Vec<(String, i64)> {
        sql::transact(&*store, |s| lobby::listed_games(s, since, 10))
            .unwrap()
            .into_iter()
            .map(|g| (g.id, g.plies))
            .collect()
    };
    let forget = |since: i64| sql::transact(&*store, |s| lobby::forget_resting_games(s, since)).unwrap();
    assert_eq!(listed(0), [("g2".to_owned(), 0), ("g1".to_owned(), 2)]);
    assert_eq!(listed(1_500), [("g2".to_owned(), 0)], "a game without a change since leaves");
    assert_eq!(listed(0), [("g2".to_owned(), 0), ("g1".to_owned(), 2)], "a read forgets nothing");
    assert_eq!(forget(1_500), 1, "the sweep forgets the game at rest");
    assert_eq!(listed(0), [("g2".to_owned(), 0)]);
    store.set_meta("g2", fresh(0), &resigned_by_second()).unwrap();
    assert_eq!(listed(0), Vec::new(), "a finished game leaves");
    assert_eq!(forget(0), 1, "the sweep forgets the finished game");
    assert_eq!(forget(0), 0);

    // Messages for a player: taken once, in order; old ones forgotten.
    for (id, player, at) in [("m2", "ada", 20), ("m1", "ada", 10), ("m3", "bob", 30), ("m0", "ada", 1)] {
        sql::transact(&*store, |s| lobby::post_message(s, id, player, &format!("\"{id}\""), at)).unwrap();
    }
    assert_eq!(sql::transact(&*store, |s| lobby::take_messages(s, "ada", 5)).unwrap(), ["\"m1\"", "\"m2\""]);
    assert_eq!(sql::transact(&*store, |s| lobby::take_messages(s, "ada", 5)).unwrap(), Vec::<String>::new());
    assert_eq!(sql::transact(&*store, |s| lobby::take_messages(s, "bob", 5)).unwrap(), ["\"m3\""]);
}

/// A limit's count: requests are counted until its window holds `count`
/// of them, then refused (nothing counted) with when a place frees; two
/// store values counting one actor at once never pass the count together;
/// a hit taken back frees its place; hits older than the window count no
/// more, and a sweep deletes what stopped coming.
pub fn limits_count_each_request_once_across_stores(open: &dyn Fn() -> Box<dyn Store>) {
    use super::limits::{self as stored, Counted, Key};
    let key = |actor: &'static str, count: u32| Key { name: "test.limit", actor, window_ms: 1_000, count };
    let ids = |n: usize| -> Vec<String> { (0..n).map(|_| crate::random_text(10)).collect() };
    let store = open();
    let counted = |now: i64, keys: &[Key<'_>]| {
        let ids = ids(keys.len());
        sql::transact(&*store, |s| stored::count(s, keys, &ids, now, None)).unwrap()
    };
    for at in [10, 20, 30] {
        assert!(matches!(counted(at, &[key("ada", 3)]), Counted::Yes(_)));
    }
    assert_eq!(counted(40, &[key("ada", 3)]), Counted::Full { key: 0, free_at: 1_010 });
    // All or nothing: a full key refuses the request for every key.
    assert_eq!(counted(50, &[key("bob", 3), key("ada", 3)]), Counted::Full { key: 1, free_at: 1_010 });
    assert_eq!(sql::read(&*store, |s| stored::hits(s, "test.limit", "bob", 0)).unwrap(), 0);
    // The window slides: the first hit is forgotten at 1 010.
    assert!(matches!(counted(1_010, &[key("ada", 3)]), Counted::Yes(_)));
    let Counted::Yes(hit) = counted(1_500, &[key("bob", 1)]) else { panic!("bob's first") };
    assert!(matches!(counted(1_501, &[key("bob", 1)]), Counted::Full { .. }));
    sql::transact(&*store, |s| stored::uncount(s, &hit[0])).unwrap();
    assert!(matches!(counted(1_502, &[key("bob", 1)]), Counted::Yes(_)), "a hit taken back frees its place");
    // A sweep deletes every hit and key last seen before its time.
    let sweep_ids = ids(1);
    sql::transact(&*store, |s| stored::count(s, &[key("cyd", 5)], &sweep_ids, 5_000, Some(4_000))).unwrap();
    assert_eq!(sql::read(&*store, |s| stored::hits(s, "test.limit", "ada", 0)).unwrap(), 0);
    assert_eq!(sql::read(&*store, |s| stored::hits(s, "test.limit", "cyd", 0)).unwrap(), 1);
    // Two store values (two nodes) counting one actor at once: exactly
    // `count` requests pass.
    const COUNT: u32 = 25;
    let stores: Vec<Box<dyn Store>> = vec![open(), open()];
    let passed: usize = std::thread::scope(|scope| {
        let runs: Vec<_> = stores
            .iter()
            .map(|store| {
                scope.spawn(move || {
                    let mut passed = 0;
                    for _ in 0..COUNT {
                        let ids = ids(1);
                        let keys = [key("eve", COUNT)];
                        if let Counted::Yes(_) =
                            sql::transact(&**store, |s| stored::count(s, &keys, &ids, 10_000, None)).unwrap()
                        {
                            passed += 1;
                        }
                    }
                    passed
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).sum()
    });
    assert_eq!(passed, COUNT as usize, "two writers together pass the count exactly");
}

/// Blocks are kept one way (the blocked account is not blocking back),
/// once, and lifted; a browser's device is trusted by the accounts that
/// logged in with it only, and forgotten with a closed account.
pub fn blocks_and_devices_are_kept(open: &dyn Fn() -> Box<dyn Store>) {
    use super::relations;
    let (ada, bob) = (account("a1", "ada"), account("b1", "bob"));
    {
        let store = open();
        sql::transact(&*store, |s| {
            accounts::create_account(s, &ada, "h")?;
            accounts::create_account(s, &bob, "h")
        })
        .unwrap();
        assert!(sql::transact(&*store, |s| relations::block(s, "a1", "b1", 5)).unwrap());
        assert!(!sql::transact(&*store, |s| relations::block(s, "a1", "b1", 6)).unwrap(), "once");
        sql::transact(&*store, |s| relations::trust_device(s, "d1", "a1", 7)).unwrap();
        sql::transact(&*store, |s| relations::trust_device(s, "d1", "a1", 8)).unwrap();
    }
    let store = open();
    let read =
        |f: &(dyn Fn(&mut dyn sql::Sql) -> Result<bool, StoreError> + Sync)| sql::read(&*store, |s| f(s)).unwrap();
    assert!(read(&|s| relations::blocks(s, "a1", "b1")));
    assert!(!read(&|s| relations::blocks(s, "b1", "a1")), "one way");
    assert!(read(&|s| relations::blocked_either_way(s, "b1", "a1")));
    assert_eq!(sql::read(&*store, |s| relations::blocked_by(s, "a1")).unwrap(), ["b1"]);
    assert!(read(&|s| relations::device_trusted(s, "d1", "a1")));
    assert!(!read(&|s| relations::device_trusted(s, "d1", "b1")), "only by the account that logged in");
    assert!(!read(&|s| relations::device_trusted(s, "d2", "a1")));
    assert!(sql::transact(&*store, |s| relations::unblock(s, "a1", "b1")).unwrap());
    assert!(!sql::transact(&*store, |s| relations::unblock(s, "a1", "b1")).unwrap());
    assert!(!read(&|s| relations::blocked_either_way(s, "a1", "b1")));
    sql::transact(&*store, |s| closing::close_account(s, "a1", 9)).unwrap();
    assert!(!read(&|s| relations::device_trusted(s, "d1", "a1")), "a closed account trusts no browser");
}

/// Puzzles are stored once (a second add keeps the first's rating); the
/// nearest to a rating come first, without those an account played; an
/// account's first round on a puzzle is rated (both ratings move as after
/// a game, the puzzle counts a play), later rounds change nothing; a
/// round of a puzzle that does not exist is none. Through two store values.
pub fn puzzles_are_rated_by_their_first_rounds(open: &dyn Fn() -> Box<dyn Store>) {
    use super::puzzles::{self, NewPuzzle};
    use menagerie_league::glicko2::Rating;
    let solution = vec!["a1".to_owned(), "b2".to_owned()];
    let themes = vec!["mate".to_owned()];
    let new = |id: &'static str, rating: f64| NewPuzzle {
        id,
        variant: "nim",
        position: "7",
        solution: &solution,
        themes: &themes,
        source: r#"{"kind":"selfplay","seed":1,"game":2,"ply":3}"#,
        rating,
    };
    let store = open();
    sql::transact(&*store, |s| accounts::create_account(s, &account("a1", "Ada_L"), "hash")).unwrap();
    for (id, rating) in [("p1", 1300.0), ("p2", 1500.0), ("p3", 1900.0)] {
        assert!(sql::transact(&*store, |s| puzzles::add(s, &new(id, rating))).unwrap());
    }
    assert!(!sql::transact(&*store, |s| puzzles::add(s, &new("p1", 2500.0))).unwrap(), "stored once");
    let other = open();
    let p1 = sql::read(&*other, |s| puzzles::puzzle(s, "p1")).unwrap().unwrap();
    assert_eq!(
        (p1.rating.rating, p1.plays, p1.solution.clone(), p1.themes.clone()),
        (1300.0, 0, solution.clone(), themes)
    );
    assert_eq!(sql::read(&*other, |s| puzzles::variants(s)).unwrap(), ["nim"]);
    let near = |account: Option<&'static str>| -> Vec<String> {
        sql::read(&*other, |s| puzzles::nearest(s, "nim", 1450.0, account, 2))
            .unwrap()
            .into_iter()
            .map(|p| p.id)
            .collect()
    };
    assert_eq!(near(Some("a1")), ["p2", "p1"]);

    let round = sql::transact(&*store, |s| puzzles::play_round(s, "a1", "p2", true, true, 10)).unwrap().unwrap();
    assert!(round.rated && round.win && round.rating_diff > 0, "{round:?}");
    assert_eq!(round.rating_diff, (round.rating.rating.round() - Rating::START.rating) as i64);
    let (rating, plays) = sql::read(&*other, |s| puzzles::player_rating(s, "a1", "nim")).unwrap();
    assert_eq!((rating, plays), (round.rating, 1));
    let p2 = sql::read(&*other, |s| puzzles::puzzle(s, "p2")).unwrap().unwrap();
    assert!(p2.rating.rating < 1500.0 && p2.plays == 1, "a solved puzzle is rated lower: {p2:?}");
    assert_eq!(near(Some("a1")), ["p1", "p3"], "a played puzzle is not offered again");
    assert_eq!(near(None), ["p2", "p1"]);

    let again = sql::transact(&*store, |s| puzzles::play_round(s, "a1", "p2", false, true, 20)).unwrap().unwrap();
    assert!(!again.rated && again.rating_diff == 0 && again.rating == round.rating, "{again:?}");
    let unrated = sql::transact(&*store, |s| puzzles::play_round(s, "a1", "p1", false, false, 30)).unwrap().unwrap();
    assert!(!unrated.rated, "{unrated:?}");
    assert_eq!(sql::read(&*other, |s| puzzles::player_rating(s, "a1", "nim")).unwrap().1, 1);
    let lost = sql::transact(&*store, |s| puzzles::play_round(s, "a1", "p3", false, true, 40)).unwrap().unwrap();
    assert!(lost.rated && lost.rating_diff < 0, "{lost:?}");
    let rounds = sql::read(&*other, |s| puzzles::rounds(s, "a1")).unwrap();
    let shown: Vec<(&str, bool)> = rounds.iter().map(|(p, win, _, _)| (p.as_str(), *win)).collect();
    assert_eq!(shown, [("p3", false), ("p1", false), ("p2", true)], "the first round of each, newest first");
    assert_eq!(sql::transact(&*store, |s| puzzles::play_round(s, "a1", "none", true, true, 50)).unwrap(), None);
}

/// An account's progress in a lesson is kept per lesson and only grows:
/// a lower count (a lesson begun again) leaves the higher one. Through two
/// store values.
pub fn lesson_progress_only_grows(open: &dyn Fn() -> Box<dyn Store>) {
    use super::lessons;
    let store = open();
    sql::transact(&*store, |s| accounts::create_account(s, &account("a1", "Ada_L"), "hash")).unwrap();
    sql::transact(&*store, |s| accounts::create_account(s, &account("a2", "Bob_L"), "hash")).unwrap();
    sql::transact(&*store, |s| lessons::record(s, "a1", "lma-pieces", 2, 10)).unwrap();
    sql::transact(&*store, |s| lessons::record(s, "a1", "fluid-stacks", 1, 20)).unwrap();
    sql::transact(&*store, |s| lessons::record(s, "a1", "lma-pieces", 1, 30)).unwrap();
    let other = open();
    let progress = sql::read(&*other, |s| lessons::progress(s, "a1")).unwrap();
    assert_eq!(progress, [("fluid-stacks".to_owned(), 1), ("lma-pieces".to_owned(), 2)]);
    sql::transact(&*store, |s| lessons::record(s, "a1", "lma-pieces", 3, 40)).unwrap();
    assert_eq!(sql::read(&*other, |s| lessons::progress(s, "a1")).unwrap()[1].1, 3);
    assert!(sql::read(&*other, |s| lessons::progress(s, "a2")).unwrap().is_empty(), "each account its own");
}

/// A game's review is kept once (a second save keeps the first) and read
/// back through another store value; a game without one has none, and a
/// review of a game that does not exist is refused (it references the
/// game).
pub fn reviews_are_kept_once(open: &dyn Fn() -> Box<dyn Store>) {
    use super::reviews;
    let store = open();
    store.create(&record("r1")).unwrap();
    store.create(&record("r2")).unwrap();
    let review = r#"{"plies":[],"players":{}}"#;
    assert!(sql::transact(&*store, |s| reviews::save(s, "r1", review, 10)).unwrap());
    assert!(!sql::transact(&*store, |s| reviews::save(s, "r1", "{}", 20)).unwrap(), "kept once");
    let other = open();
    assert_eq!(sql::read(&*other, |s| reviews::load(s, "r1")).unwrap().as_deref(), Some(review));
    assert_eq!(sql::read(&*other, |s| reviews::load(s, "r2")).unwrap(), None);
    assert!(sql::transact(&*store, |s| reviews::save(s, "nope", review, 30)).is_err(), "no such game");
    assert_eq!(sql::read(&*other, |s| reviews::load(s, "nope")).unwrap(), None);
}

//! Running tournaments (arenas and round robins): starting them at their
//! time, pairing, creating their rated games, scoring what ended and
//! finishing them. The rules are `menagerie_league`'s; the rows are
//! [`crate::store::tournaments`]'; the routes `http/tournaments.rs`.
//!
//! Every node runs [`run`], which looks at the unfinished tournaments a
//! few times a second and works only on those whose claim it holds
//! ([`crate::store::Store::claim`], key `tournament/<id>`): on PostgreSQL
//! one node at a time, and when that node dies its claim goes with its
//! connection and the next node to look takes the tournament over. Each
//! look ([`step`]) is a function of the store alone (nothing is kept in
//! memory between looks), so the node taking over goes on exactly where
//! the other stopped: a pairing reserved and not created is created, a
//! game ended and not scored is scored, and a pairing made twice from the
//! same standings is stored once (the store's slots). A look that changed
//! something signals `tournament/<id>` to every node ([`Hub::signal`]),
//! which wakes the standings' streams.

pub mod standings;

use crate::clock::TimeControl;
use crate::command::{Colour, Setup};
use crate::error::ApiError;
use crate::hub::Hub;
use crate::notify::{Kind as NoticeKind, Notice};
use crate::store::accounts as stored_accounts;
use crate::store::ratings::{self as stored_ratings, perf_of};
use crate::store::tournaments::{self as stored, Kind, Status, Tournament, TournamentGame};
use crate::store::{AsyncStore, Mode, StoreError};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Weak};
use std::time::Duration;

/// How often a node looks at the tournaments: the longest a finished game
/// waits for the next pairing, and a dead node's tournament for another.
pub const LOOK_EVERY: Duration = Duration::from_millis(500);

pub use crate::live::claim::FIRST_MOVE_WITHIN;

/// The claim key of tournament `id`.
pub fn claim_key(id: &str) -> String {
    format!("tournament/{id}")
}

/// The topic of tournament `id`'s changes.
pub fn topic(id: &str) -> String {
    format!("tournament/{id}")
}

/// Runs this node's part of every tournament until the hub is gone.
pub async fn run(hub: Weak<Hub>) {
    let mut looks = tokio::time::interval(LOOK_EVERY);
    looks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        looks.tick().await;
        let Some(hub) = hub.upgrade() else { return };
        let store = hub.store().clone();
        let ids = match store.read(stored::unfinished).await {
            Ok(ids) => ids,
            // A store without accounts has no tournaments either.
            Err(_) => continue,
        };
        for id in ids {
            match store.claim(claim_key(&id)).await {
                Ok(true) => {}
                Ok(false) => continue,
                Err(error) => {
                    tracing::warn!(target: "menagerie::tournaments", tournament = %id, %error, "cannot claim");
                    continue;
                }
            }
            match step(&hub, &id, crate::clock::now_ms()).await {
                Ok(stepped) if stepped != Stepped::default() => hub.signal(topic(&id)).await,
                Ok(_) => {}
                Err(error) => {
                    tracing::warn!(target: "menagerie::tournaments", tournament = %id, %error, "a tournament step failed");
                }
            }
        }
    }
}

/// What one look at a tournament did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stepped {
    pub started: bool,
    /// Games a player did not start, ended.
    pub unstarted: usize,
    pub scored: usize,
    pub paired: usize,
    pub finished: bool,
}

/// One look at tournament `id` at `now` (ms), by the node that holds its
/// claim: start it when its time comes, create the games reserved and not
/// created, hold their seats, end the games a player did not start, score
/// the games that ended, pair whoever waits, finish it at its end.
pub async fn step(hub: &Arc<Hub>, id: &str, now: i64) -> Result<Stepped, ApiError> {
    let store = hub.store().clone();
    let mut done = Stepped::default();
    let key = id.to_owned();
    let Some(mut tournament) = store.read(move |sql| stored::get(sql, &key)).await? else { return Ok(done) };
    if tournament.status == Status::Created {
        if now < tournament.starts_at {
            return Ok(done);
        }
        let key = id.to_owned();
        if store.transact(move |sql| stored::start(sql, &key, now)).await? {
            done.started = true;
            tournament.status = Status::Started;
            tournament.started = Some(now);
            tell_started(hub, &tournament).await;
        }
    }
    if tournament.status != Status::Started {
        return Ok(done);
    }
    create_reserved(hub, &tournament).await?;
    done.unstarted = end_unstarted(hub, &tournament, now).await?;
    let key = id.to_owned();
    done.scored = store.transact(move |sql| stored::score_ended(sql, &key)).await?;
    let (entrants, games, ratings) = read_state(&store, &tournament, now).await?;
    let table = standings::table(tournament.kind, &entrants, &ratings, &games);
    let playing = games.iter().any(|g| g.outcome.is_none());
    // The next games and their round; `None` once there is nothing more to pair.
    let next: Option<(i64, Vec<stored::Paired>)> = match tournament.kind {
        Kind::Arena if tournament.ends_at().is_some_and(|end| now < end) => {
            let wave = games.iter().map(|g| g.round).max().unwrap_or(0) + 1;
            Some((wave, standings::arena_pairing(&table, &games, crate::secret::game_id)))
        }
        Kind::Arena => None,
        // One round at a time: the next when every game of this one is scored.
        Kind::RoundRobin if playing => Some((0, Vec::new())),
        Kind::RoundRobin => next_round(&tournament, &entrants, &games, now),
    };
    match next {
        Some((round, paired)) if !paired.is_empty() => {
            let (key, reserved) = (id.to_owned(), paired.clone());
            match store.transact(move |sql| stored::reserve(sql, &key, round, &reserved, now)).await {
                Ok(()) => {
                    done.paired = paired.len();
                    create_reserved(hub, &tournament).await?;
                }
                // Paired already from these standings (another node): the next look sees it.
                Err(StoreError::Stale { .. }) => {}
                Err(error) => return Err(error.into()),
            }
        }
        Some(_) => {}
        None if !playing => {
            let key = id.to_owned();
            if store.transact(move |sql| stored::finish(sql, &key, now)).await? {
                done.finished = true;
                let _ = store.release(claim_key(id)).await;
            }
        }
        None => {}
    }
    Ok(done)
}

/// Ends the tournament's games that have waited [`Hub::first_move_within`]
/// for a player who has not started them ([`crate::live::LiveGame::end_unstarted`]):
/// the opponent wins, and that player is withdrawn, so that the next
/// pairing does not give another opponent the same wait. Answers how many
/// ended.
async fn end_unstarted(hub: &Arc<Hub>, tournament: &Tournament, now: i64) -> Result<usize, ApiError> {
    let within = hub.first_move_within();
    let id = tournament.id.clone();
    let games = hub.store().read(move |sql| stored::games(sql, &id)).await?;
    let waited_long_enough = |game: &TournamentGame| now - game.paired >= within.as_millis() as i64;
    let mut ended = 0;
    for game in games.iter().filter(|g| g.outcome.is_none() && waited_long_enough(g)) {
        let slot = match hub.slot(&game.game).await {
            Ok(slot) => slot,
            Err(error) => {
                tracing::warn!(target: "menagerie::tournaments", game = %game.game, %error, "cannot load a game");
                continue;
            }
        };
        let culprit = {
            // Every game in play is looked at twice a second: one busy
            // with a move now has started, or is looked at next time.
            let Ok(mut live) = slot.live.try_lock() else { continue };
            match live.end_unstarted(hub.store(), now, within).await {
                Ok(culprit) => {
                    if culprit.is_some() {
                        slot.publish(&mut live);
                    }
                    culprit
                }
                // Another node changed the game first (a move): read it
                // again; the next look judges it.
                Err(error) if error.status == http::StatusCode::CONFLICT => {
                    if let Err(error) = slot.catch_up_locked(&mut live, hub.store()).await {
                        tracing::warn!(target: "menagerie::tournaments", game = %game.game, %error, "cannot read a game again");
                    }
                    None
                }
                Err(error) => return Err(error),
            }
        };
        let Some(culprit) = culprit else { continue };
        let (key, account) = (tournament.id.clone(), [&game.first, &game.second][culprit.index()].clone());
        hub.store().transact(move |sql| stored::withdraw(sql, &key, &account, now)).await?;
        ended += 1;
    }
    Ok(ended)
}

/// A round robin's next round with a game (a round whose players all
/// withdrew has none) and its games; `None` after the last.
fn next_round(
    tournament: &Tournament,
    entrants: &[stored::Entrant],
    games: &[TournamentGame],
    now: i64,
) -> Option<(i64, Vec<stored::Paired>)> {
    let players = standings::round_robin_players(entrants, tournament.started.unwrap_or(now));
    let withdrawn: Vec<String> = entrants.iter().filter(|e| e.withdrawn.is_some()).map(|e| e.account.clone()).collect();
    let last = tournament.rounds.map_or(usize::MAX, |r| r.max(0) as usize);
    let mut round = games.iter().map(|g| g.round).max().unwrap_or(0) as usize;
    loop {
        round += 1;
        if round > last {
            return None;
        }
        let paired = standings::round_robin_round(&players, round, &withdrawn, games, crate::secret::game_id)?;
        if !paired.is_empty() {
            return Some((round as i64, paired));
        }
    }
}

/// The entrants, the games and each entrant's rating in the variant now.
async fn read_state(
    store: &AsyncStore,
    tournament: &Tournament,
    now: i64,
) -> Result<(Vec<stored::Entrant>, Vec<TournamentGame>, HashMap<String, i64>), StoreError> {
    let (id, perf) = (tournament.id.clone(), perf_of(&tournament.variant).to_owned());
    store
        .read(move |sql| {
            let entrants = stored::entrants(sql, &id)?;
            let games = stored::games(sql, &id)?;
            let mut ratings = HashMap::new();
            for entrant in &entrants {
                let rating = stored_ratings::rating_now(sql, &entrant.account, &perf, now)?;
                ratings.insert(entrant.account.clone(), rating.rating.round() as i64);
            }
            Ok((entrants, games, ratings))
        })
        .await
}

/// The tournament's standings, games and ratings as any node reads them.
pub async fn state(
    store: &AsyncStore,
    tournament: &Tournament,
    now: i64,
) -> Result<(Vec<standings::Line>, Vec<TournamentGame>), StoreError> {
    let (entrants, games, ratings) = read_state(store, tournament, now).await?;
    Ok((standings::table(tournament.kind, &entrants, &ratings, &games), games))
}

/// Creates the games reserved and not yet created (this node's pairing,
/// or one a node that died had reserved), rated, with the tournament's
/// clock, each seat held by its player's account.
async fn create_reserved(hub: &Arc<Hub>, tournament: &Tournament) -> Result<(), ApiError> {
    let store = hub.store().clone();
    let id = tournament.id.clone();
    let unready = store.read(move |sql| stored::unready(sql, &id)).await?;
    if unready.is_empty() {
        return Ok(());
    }
    let time_control = TimeControl::parse(&tournament.clock)
        .ok_or_else(|| ApiError::internal(format!("tournament {} has no valid clock", tournament.id)))?;
    let setup = Setup {
        variant: tournament.variant.clone(),
        position: None,
        mode: Mode::Friend,
        level: None,
        colour: Colour::Player(menagerie_core::Player::First),
        seed: None,
        time_control: Some(time_control),
        rated: true,
    };
    let perf = perf_of(&tournament.variant).to_owned();
    for (game, created) in unready {
        if !created {
            hub.create_paired(&setup, game.game.clone()).await?;
        }
        let perf = perf.clone();
        let held = game.clone();
        store
            .transact(move |sql| {
                stored_accounts::hold_seat(sql, &held.game, 0, None, Some(&held.first))?;
                stored_accounts::hold_seat(sql, &held.game, 1, None, Some(&held.second))?;
                stored_ratings::mark_rated(sql, &held.game, &perf)
            })
            .await?;
        tell_paired(hub, tournament, &game).await;
    }
    Ok(())
}

/// Tells both players of `game` that it has started (the bell links it):
/// the tournament's page opens it by itself, but a player elsewhere must
/// learn of it before [`FIRST_MOVE_WITHIN`] runs out. Once per game and
/// player, whichever node tells it (the notice's topic).
async fn tell_paired(hub: &Arc<Hub>, tournament: &Tournament, game: &TournamentGame) {
    for account in [&game.first, &game.second] {
        let notice = Notice {
            kind: NoticeKind::TournamentGame,
            topic: format!("tournament-game/{}", game.game),
            game: Some(game.game.clone()),
            text: format!("Your game in {} has started", tournament.name),
            link: format!("/g/{}", game.game),
            from: None,
        };
        hub.notifier().tell(hub.store(), account, notice).await;
    }
}

/// Tells every entrant still in that the tournament started.
async fn tell_started(hub: &Arc<Hub>, tournament: &Tournament) {
    let id = tournament.id.clone();
    let entrants = match hub.store().read(move |sql| stored::entrants(sql, &id)).await {
        Ok(entrants) => entrants,
        Err(error) => {
            return tracing::warn!(target: "menagerie::tournaments", %error, "entrants not told of the start");
        }
    };
    let mut told = HashSet::new();
    for entrant in entrants.iter().filter(|e| e.withdrawn.is_none()) {
        if told.insert(entrant.account.clone()) {
            let notice = Notice {
                kind: NoticeKind::TournamentStarting,
                topic: topic(&tournament.id),
                game: None,
                text: format!("The tournament {} is starting", tournament.name),
                link: format!("/tournament/{}", tournament.id),
                from: None,
            };
            hub.notifier().tell(hub.store(), &entrant.account, notice).await;
        }
    }
}

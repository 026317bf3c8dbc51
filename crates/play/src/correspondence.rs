//! The notices of correspondence games (days a move): a player who is not
//! watching must learn that it is their move, and again when their time to
//! make it runs low. Only seats held by an account are told (an anonymous
//! seat has nobody to tell).

use crate::clock::{now_ms, TimeControl};
use crate::live::GameSlot;
use crate::store::accounts as stored_accounts;
use crate::store::AsyncStore;
use menagerie_core::{Actor, Player};
use menagerie_notify::{Kind, Notice, Notifier};
use std::sync::Arc;
use std::time::Duration;

/// When this much of a move's time is left, its player is told (a quarter:
/// 18 hours of a 3-day move).
pub fn time_low_margin(per_move_ms: u64) -> u64 {
    per_move_ms / 4
}

/// Tells the account holding `player`'s seat of `game` (if one does) that
/// it is their move at `ply`.
pub async fn tell_to_move(
    notifier: &Arc<Notifier>,
    store: &AsyncStore,
    game: &str,
    variant: &str,
    ply: usize,
    player: Player,
) {
    let notice = Notice {
        kind: Kind::YourMove,
        topic: format!("move:{game}:{ply}"),
        game: Some(game.to_owned()),
        text: format!("It is your move in your {} game", variant_name(variant)),
        link: format!("/g/{game}"),
        from: None,
    };
    tell_seat(notifier, store, game, player, notice).await;
}

async fn tell_seat(notifier: &Arc<Notifier>, store: &AsyncStore, game: &str, player: Player, notice: Notice) {
    let id = game.to_owned();
    match store.read(move |sql| stored_accounts::seat_account(sql, &id, player.index())).await {
        Ok(Some(account)) if account.closed.is_none() => notifier.tell(store, &account.id, notice).await,
        Ok(_) => {}
        Err(error) => tracing::warn!(target: "menagerie::notify", %error, "a seat's account could not be read"),
    }
}

/// The variant's name as players know it (`lunch:princess` is Lunch Chess).
fn variant_name(variant: &str) -> String {
    let base = variant.split(':').next().unwrap_or(variant);
    menagerie_games::variants()
        .into_iter()
        .find(|info| info.id == base)
        .map(|info| info.name.to_owned())
        .unwrap_or_else(|| base.to_owned())
}

/// For a correspondence game in memory: tells the player to move when a
/// quarter of their time is left, once a move. Ends when the game ends or
/// leaves memory (the game's clock timer keeps a game with a running clock
/// in memory, on every node that loaded it: the store keeps the notice
/// once).
pub fn watch_time_low(slot: Arc<GameSlot>, store: AsyncStore, notifier: Arc<Notifier>) {
    let mut changes = slot.subscribe();
    let game = Arc::downgrade(&slot);
    drop(slot);
    tokio::spawn(async move {
        loop {
            changes.borrow_and_update();
            let Some(slot) = game.upgrade() else { return };
            let due = {
                let live = slot.live.lock().await;
                let Some(TimeControl::Correspondence { per_move_ms }) = live.record.time_control else { return };
                if live.is_over() {
                    return;
                }
                match (live.clock.as_ref().and_then(|c| c.clock.deadline()), live.game.to_act()) {
                    (Some((runs, deadline)), Actor::Player(to_act)) if runs == to_act => Some((
                        deadline - time_low_margin(per_move_ms) as i64,
                        to_act,
                        live.moves.len(),
                        live.record.id.clone(),
                        live.record.variant.clone(),
                    )),
                    _ => None,
                }
            };
            drop(slot);
            let Some((at, player, ply, id, variant)) = due else {
                if changes.changed().await.is_err() {
                    return;
                }
                continue;
            };
            let wait = Duration::from_millis(at.saturating_sub(now_ms()).max(0) as u64);
            tokio::select! {
                _ = tokio::time::sleep(wait) => {
                    let notice = Notice {
                        kind: Kind::TimeLow,
                        topic: format!("time:{id}:{ply}"),
                        game: Some(id.clone()),
                        text: format!("Your time to move is running low in your {} game", variant_name(&variant)),
                        link: format!("/g/{id}"),
                        from: None,
                    };
                    tell_seat(&notifier, &store, &id, player, notice).await;
                    // Told (or nobody to tell): wait for the next move.
                    if changes.changed().await.is_err() {
                        return;
                    }
                }
                changed = changes.changed() => if changed.is_err() { return },
            }
        }
    });
}

//! Computer reviews of finished games (docs/api.md, "Game review"; the
//! review itself is `menagerie_learn::review`): asked for with `POST
//! /api/games/<id>/analysis`, run on this node's queue ([`queue`]), kept in
//! the store so that every node answers it once done.
//!
//! - Who may ask: any account, for any finished game. A finished game is
//!   public on this server (its moves and record are open to anyone, no
//!   secret needed), and its review tells nothing they do not; so anyone
//!   may read a review. A game in play is not reviewed (409: the review
//!   would be advice to its players), nor a game with hidden information
//!   (422, with the learn crate's reason).
//! - What it costs: a review is some tens of seconds of a core. Reviews
//!   run on tokio's blocking pool with permits of their own (one at a time
//!   on a node by default), never the computer players', so moves in play
//!   are not slowed; the queue is bounded (503 when full) and each account
//!   and node limited (`review.account`, `review.node`). Asking for a
//!   review stored or on its way costs nothing.
//! - Several nodes: the node that queues a review holds the claim
//!   `review/<id>` (on PostgreSQL an advisory lock, freed if the node
//!   dies), so another node asked for the same game answers that it runs
//!   (its progress unknown there) rather than running it twice.

mod queue;

pub use queue::Status;

use crate::clock::now_ms;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::limits::{self, Charge};
use crate::store::{reviews as stored, AsyncStore};
use menagerie_learn::review::{review, ReviewBudget, ReviewError};
use queue::{Found, Queue, Reserved};
use serde_json::Value;
use std::sync::Arc;

/// Reviews running at once on a node by default: one core, whatever the
/// machine, so the computer players keep the rest.
pub const DEFAULT_RUNNING: usize = 1;
/// Reviews waiting or running on a node at most: at 20 to 40 seconds
/// each, the last waits some minutes.
pub const DEFAULT_PENDING: usize = 16;

/// What a review request or read answers.
#[derive(Debug)]
pub enum Answer {
    /// The review, as the API shows it.
    Done(Value),
    /// Not done yet.
    Pending(Status),
    /// A finished game nobody has asked to review (yet).
    NotAsked,
}

/// A finished game as its review needs it.
struct Finished {
    variant: String,
    position: Option<String>,
    moves: Vec<String>,
}

/// The reviews of one server: its queue, the search budget, and who it is
/// for the per-node limit.
pub struct Reviews {
    queue: Arc<Queue>,
    /// `None`: each game's own ([`ReviewBudget::for_game`]).
    budget: Option<ReviewBudget>,
    /// This node's id for `review.node` (random: a node is this process).
    node: String,
    /// Held while this node takes, tests or lets go of a review's claim,
    /// so that a read testing whether another node runs a review never
    /// lets go of the claim a request of this node just took.
    claims: Arc<tokio::sync::Mutex<()>>,
}

impl Default for Reviews {
    fn default() -> Self {
        Reviews::new(DEFAULT_RUNNING, DEFAULT_PENDING)
    }
}

impl Drop for Reviews {
    /// The server is going away: its reviews stop (their claims go with
    /// the process; nothing half done is stored).
    fn drop(&mut self) {
        self.queue.stop_all();
    }
}

impl Reviews {
    /// `running` reviews at once, `pending` waiting or running at most.
    pub fn new(running: usize, pending: usize) -> Reviews {
        Reviews {
            queue: Arc::new(Queue::new(running, pending)),
            budget: None,
            node: crate::secret::game_id(),
            claims: Arc::default(),
        }
    }

    /// The same budget for every game instead of each game's (tests: a
    /// small one).
    pub fn with_budget(mut self, budget: ReviewBudget) -> Reviews {
        self.budget = Some(budget);
        self
    }

    /// Reviews waiting or running on this node, and how many may run at once.
    pub fn load(&self) -> (usize, usize) {
        self.queue.load()
    }

    /// `account` asks for game `id`'s review: the review if stored, else
    /// where it stands, queuing it (counted against the limits) if
    /// nobody has.
    pub async fn request(&self, hub: &Hub, account: &str, id: &str) -> Result<Answer, ApiError> {
        let store = hub.store();
        if let Some(done) = stored_review(store, id).await? {
            return Ok(Answer::Done(done));
        }
        if let Found::Pending(status) = self.queue.find(id) {
            return Ok(Answer::Pending(status));
        }
        let game = finished(hub, id).await?;
        let place = match self.queue.reserve(id)? {
            Reserved::Already(status) => return Ok(Answer::Pending(status)),
            Reserved::Place(place) => place,
        };
        {
            let _claims = self.claims.lock().await;
            if !store.claim(claim_key(id)).await? {
                return Ok(Answer::Pending(Status::Running { progress: None }));
            }
        }
        // The claim is this node's from here: let go of it on every way
        // out but the review's start.
        let charged = async {
            // Another node may have stored it since this one looked.
            if let Some(done) = stored_review(store, id).await? {
                return Ok(Some(done));
            }
            let charges = vec![
                Charge::new(&limits::REVIEWS_PER_ACCOUNT, account),
                Charge::new(&limits::REVIEWS_PER_NODE, self.node.as_str()),
            ];
            limits::count(store, charges).await.map(|_| None)
        }
        .await;
        match charged {
            Ok(None) => {
                self.start(store.clone(), place, game);
                Ok(Answer::Pending(Status::Queued))
            }
            Ok(Some(done)) => {
                drop(place);
                self.let_go(store, id).await;
                Ok(Answer::Done(done))
            }
            Err(error) => {
                drop(place);
                self.let_go(store, id).await;
                Err(error)
            }
        }
    }

    /// Game `id`'s review as it stands, asked for by anyone: 404 for no
    /// such game or a review nobody asked for.
    pub async fn read(&self, hub: &Hub, id: &str) -> Result<Answer, ApiError> {
        let store = hub.store();
        if let Some(done) = stored_review(store, id).await? {
            return Ok(Answer::Done(done));
        }
        match self.queue.find(id) {
            Found::Pending(status) => return Ok(Answer::Pending(status)),
            Found::Failed(error) => return Err(error),
            Found::Nothing => {}
        }
        finished(hub, id).await?;
        {
            // Another node runs it if it holds the claim.
            let _claims = self.claims.lock().await;
            if let Found::Pending(status) = self.queue.find(id) {
                return Ok(Answer::Pending(status));
            }
            if !store.claim(claim_key(id)).await? {
                return Ok(Answer::Pending(Status::Running { progress: None }));
            }
            store.release(claim_key(id)).await?;
        }
        // It may have ended between the first look and the claim.
        if let Some(done) = stored_review(store, id).await? {
            return Ok(Answer::Done(done));
        }
        Ok(Answer::NotAsked)
    }

    /// Queues the review of `game`, in `place`: it runs when a place to run
    /// is free, then is stored and leaves the queue.
    fn start(&self, store: AsyncStore, place: queue::Place, game: Finished) {
        let (id, job) = place.keep();
        let queue = Arc::clone(&self.queue);
        let claims = Arc::clone(&self.claims);
        let budget = self.budget.clone().unwrap_or_else(|| ReviewBudget::for_game(game_of(&game.variant)));
        tokio::spawn(async move {
            let ran = queue
                .run(job, move |job| {
                    let mut progress = |done, total| job.progress(done, total);
                    review(&game.variant, game.position.as_deref(), &game.moves, &budget, &mut progress, &job.stop)
                })
                .await;
            let failure = match ran {
                Some(Ok(done)) => save(&store, &id, &done).await.err(),
                Some(Err(ReviewError::Cancelled)) => None,
                Some(Err(error)) => Some(ApiError::unprocessable(format!("game {id} cannot be reviewed: {error}"))),
                None => Some(ApiError::internal(format!("the review of game {id} failed"))),
            };
            if let Some(error) = &failure {
                tracing::warn!(target: "menagerie::reviews", game = %id, %error, "a review failed");
            }
            let _claims = claims.lock().await;
            queue.end(&id, failure);
            if let Err(error) = store.release(claim_key(&id)).await {
                tracing::warn!(target: "menagerie::reviews", game = %id, %error, "cannot let go of a review's claim");
            }
        });
    }

    async fn let_go(&self, store: &AsyncStore, id: &str) {
        let _claims = self.claims.lock().await;
        if let Err(error) = store.release(claim_key(id)).await {
            tracing::warn!(target: "menagerie::reviews", game = %id, %error, "cannot let go of a review's claim");
        }
    }
}

/// The claim a node holds while it reviews game `id` (never a game's id).
fn claim_key(id: &str) -> String {
    format!("review/{id}")
}

/// The game of a variant string (`lichen-3x3:...` → `lichen`): the
/// review's budget is the game's.
fn game_of(variant: &str) -> &str {
    variant.split([':', '-']).next().unwrap_or(variant)
}

/// Game `id`'s stored review, if any.
async fn stored_review(store: &AsyncStore, id: &str) -> Result<Option<Value>, ApiError> {
    let key = id.to_owned();
    let text = store.read(move |sql| stored::load(sql, &key)).await?;
    text.map(|text| {
        serde_json::from_str(&text).map_err(|e| ApiError::internal(format!("a stored review is corrupt: {e}")))
    })
    .transpose()
}

async fn save(store: &AsyncStore, id: &str, done: &menagerie_learn::review::Review) -> Result<(), ApiError> {
    let json =
        serde_json::to_string(done).map_err(|e| ApiError::internal(format!("a review cannot be written: {e}")))?;
    let game = id.to_owned();
    store.transact(move |sql| stored::save(sql, &game, &json, now_ms())).await?;
    Ok(())
}

/// Game `id` as its review needs it: 404 for no such game, 409 while in
/// play, 422 for a game with hidden information.
async fn finished(hub: &Hub, id: &str) -> Result<Finished, ApiError> {
    let slot = hub.slot(id).await?;
    let live = slot.live.lock().await;
    if !live.is_over() {
        return Err(ApiError::conflict(format!("game {id} is still in play: it may be reviewed once it is over")));
    }
    let variant = live.record.variant.clone();
    if live.game.has_hidden_information() {
        let id = variant.split(':').next().unwrap_or(&variant);
        let name = hub.source().variants().into_iter().find(|v| v.id == id).map_or(id, |v| v.name);
        return Err(ApiError::unprocessable(ReviewError::HiddenInformation(name.to_owned()).to_string()));
    }
    Ok(Finished {
        variant,
        position: live.record.position.clone(),
        moves: live.moves.iter().map(|m| m.text.clone()).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_string_names_its_game_and_claims_are_never_game_ids() {
        assert_eq!(game_of("lichen-3x3"), "lichen");
        assert_eq!(game_of("lunch:deck=small"), "lunch");
        assert_eq!(game_of("kelasu"), "kelasu");
        assert!(claim_key("abc").contains('/'));
    }
}

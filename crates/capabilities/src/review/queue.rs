//! This node's reviews in memory: those waiting for a place and those
//! running, with their progress. A review leaves when it ends: stored
//! (the store answers it from then on) or failed (its error is kept, a few
//! of them, so that whoever polls learns why).
//!
//! Places: at most `max_running` reviews run at once, each holding a
//! permit of this queue's own semaphore (never the computer players'), and
//! at most `max_pending` are waiting or running; one more is refused.

use crate::error::ApiError;
use http::StatusCode;
use menagerie_ai::StopFlag;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;

/// Failed reviews whose errors are kept (a failure is rare: a game the
/// review cannot replay, a storage error; more only replace older ones).
const FAILURES_KEPT: usize = 64;

/// Where a review not yet stored stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Status {
    /// Waiting for a place.
    Queued,
    /// Running: the share of the game's positions searched (0 .. 1), or
    /// `None` when another node runs it (its progress is there).
    Running { progress: Option<f64> },
}

impl Status {
    /// The API's shape: `{"status": "queued"|"running", "progress": ..}`.
    pub fn to_json(self) -> serde_json::Value {
        match self {
            Status::Queued => serde_json::json!({ "status": "queued", "progress": 0.0 }),
            Status::Running { progress } => serde_json::json!({ "status": "running", "progress": progress }),
        }
    }
}

/// One review of the queue: whether it has a place, how far it got, and
/// its stop flag.
#[derive(Default)]
pub struct Job {
    started: AtomicBool,
    done: AtomicUsize,
    total: AtomicUsize,
    pub stop: StopFlag,
}

impl Job {
    /// The review's progress callback: `done` positions of `total`.
    pub fn progress(&self, done: usize, total: usize) {
        self.total.store(total, Ordering::Relaxed);
        self.done.store(done, Ordering::Relaxed);
    }

    fn status(&self) -> Status {
        if !self.started.load(Ordering::Relaxed) {
            return Status::Queued;
        }
        let (done, total) = (self.done.load(Ordering::Relaxed), self.total.load(Ordering::Relaxed));
        let share = if total == 0 { 0.0 } else { (done.min(total) as f64 / total as f64 * 1000.0).round() / 1000.0 };
        Status::Running { progress: Some(share) }
    }
}

enum Entry {
    Pending(Arc<Job>),
    Failed(ApiError),
}

/// What the queue knows of a game.
pub enum Found {
    Pending(Status),
    Failed(ApiError),
    Nothing,
}

pub struct Queue {
    running: Arc<Semaphore>,
    max_running: usize,
    max_pending: usize,
    entries: Mutex<HashMap<String, Entry>>,
}

/// A place taken in the queue for one game: given up when dropped unless
/// its review was started ([`Place::keep`]).
pub struct Place {
    queue: Arc<Queue>,
    id: String,
    job: Arc<Job>,
    kept: bool,
}

impl Place {
    /// The review starts: the place stays until [`Queue::end`].
    pub fn keep(mut self) -> (String, Arc<Job>) {
        self.kept = true;
        (self.id.clone(), Arc::clone(&self.job))
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        if !self.kept {
            let mut entries = self.queue.lock();
            if matches!(entries.get(&self.id), Some(Entry::Pending(job)) if Arc::ptr_eq(job, &self.job)) {
                entries.remove(&self.id);
            }
        }
    }
}

/// What [`Queue::reserve`] found.
pub enum Reserved {
    /// The game's review is already waiting or running here.
    Already(Status),
    Place(Place),
}

impl Queue {
    pub fn new(max_running: usize, max_pending: usize) -> Queue {
        let max_running = max_running.max(1);
        Queue {
            running: Arc::new(Semaphore::new(max_running)),
            max_running,
            max_pending: max_pending.max(max_running),
            entries: Mutex::default(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn find(&self, id: &str) -> Found {
        match self.lock().get(id) {
            Some(Entry::Pending(job)) => Found::Pending(job.status()),
            Some(Entry::Failed(error)) => Found::Failed(error.clone()),
            None => Found::Nothing,
        }
    }

    /// Reviews waiting or running, and how many may run at once.
    pub fn load(&self) -> (usize, usize) {
        let pending = self.lock().values().filter(|e| matches!(e, Entry::Pending(_))).count();
        (pending, self.max_running)
    }

    /// A place for game `id`'s review (a failure kept for it is
    /// forgotten: it is asked again); 503 when the queue is full.
    pub fn reserve(self: &Arc<Self>, id: &str) -> Result<Reserved, ApiError> {
        let mut entries = self.lock();
        if let Some(Entry::Pending(job)) = entries.get(id) {
            return Ok(Reserved::Already(job.status()));
        }
        let pending = entries.values().filter(|e| matches!(e, Entry::Pending(_))).count();
        if pending >= self.max_pending {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the review queue is full ({} games waiting or running): try again in a few minutes",
                    self.max_pending
                ),
            ));
        }
        let job = Arc::new(Job::default());
        entries.insert(id.to_owned(), Entry::Pending(Arc::clone(&job)));
        Ok(Reserved::Place(Place { queue: Arc::clone(self), id: id.to_owned(), job, kept: false }))
    }

    /// Runs `work` for `job` on tokio's blocking pool once a place to run
    /// is free; the permit is held by the blocking thread, so the cap holds
    /// for as long as the search runs. `None` if the work panicked.
    pub async fn run<T: Send + 'static>(
        &self,
        job: Arc<Job>,
        work: impl FnOnce(&Job) -> T + Send + 'static,
    ) -> Option<T> {
        // The semaphore is never closed: acquiring fails only then.
        let permit = Arc::clone(&self.running).acquire_owned().await.ok()?;
        job.started.store(true, Ordering::Relaxed);
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work(&job)
        })
        .await
        .ok()
    }

    /// Game `id`'s review ended: it leaves the queue, its error kept if
    /// it failed.
    pub fn end(&self, id: &str, failure: Option<ApiError>) {
        let mut entries = self.lock();
        entries.remove(id);
        if let Some(error) = failure {
            let failed: Vec<String> =
                entries.iter().filter(|(_, e)| matches!(e, Entry::Failed(_))).map(|(k, _)| k.clone()).collect();
            if failed.len() >= FAILURES_KEPT {
                entries.remove(&failed[0]);
            }
            entries.insert(id.to_owned(), Entry::Failed(error));
        }
    }

    /// Stops every review waiting or running (the service is going away).
    pub fn stop_all(&self) {
        for entry in self.lock().values() {
            if let Entry::Pending(job) = entry {
                job.stop.stop();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn places_are_bounded_given_up_when_dropped_and_progress_is_a_share() {
        let queue = Arc::new(Queue::new(1, 2));
        let Ok(Reserved::Place(a)) = queue.reserve("a") else { panic!("a place") };
        assert!(matches!(queue.reserve("a"), Ok(Reserved::Already(Status::Queued))), "once");
        let Ok(Reserved::Place(b)) = queue.reserve("b") else { panic!("a place") };
        let full = queue.reserve("c").err().expect("full");
        assert_eq!(full.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(full.reason.contains("queue is full"), "{}", full.reason);
        drop(b);
        assert!(matches!(queue.find("b"), Found::Nothing), "a place not kept is given up");
        let (id, job) = a.keep();
        let ran = queue.run(Arc::clone(&job), |job| job.progress(1, 4)).await;
        assert_eq!(ran, Some(()));
        assert!(matches!(queue.find("a"), Found::Pending(Status::Running { progress: Some(p) }) if p == 0.25));
        queue.end(&id, Some(ApiError::unprocessable("cannot")));
        assert!(matches!(queue.find("a"), Found::Failed(e) if e.reason == "cannot"));
        assert_eq!(queue.load(), (0, 1));
        assert!(matches!(queue.reserve("a"), Ok(Reserved::Place(_))), "a failed review may be asked again");
    }
}

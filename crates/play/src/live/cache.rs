//! The texts a live game has sent since it last changed: its state per
//! viewer and its board per view. A change clears them, so a move watched by
//! many pages costs one serialisation, and the board one per distinct view.

use crate::viewer::Viewer;
use bytes::Bytes;
use menagerie_core::Player;
use serde_json::value::RawValue;
use serde_json::Value;
use std::sync::Mutex;

/// A game's state as JSON text, ready to send.
#[derive(Clone, Debug)]
pub struct StateJson(pub Bytes);

impl StateJson {
    /// The state as a JSON value (for tests and callers that edit it).
    pub fn to_value(&self) -> Value {
        serde_json::from_slice(&self.0).expect("states are valid JSON")
    }
}

#[derive(Default)]
struct Texts {
    states: Vec<(Viewer, StateJson)>,
    /// Boards by the view they show (`None`: the public view).
    boards: Vec<(Option<Player>, Box<RawValue>)>,
}

/// The cache of one game.
#[derive(Default)]
pub struct ViewCache(Mutex<Texts>);

impl ViewCache {
    pub fn clear(&self) {
        let mut texts = self.lock();
        texts.states.clear();
        texts.boards.clear();
    }

    /// The state sent to `viewer`, built by `build` if it is not cached.
    pub fn state(&self, viewer: Viewer, build: impl FnOnce() -> StateJson) -> StateJson {
        if let Some((_, cached)) = self.lock().states.iter().find(|(v, _)| *v == viewer) {
            return cached.clone();
        }
        let built = build();
        self.lock().states.push((viewer, built.clone()));
        built
    }

    /// The board of `view`, built by `build` if it is not cached.
    pub fn board(&self, view: Option<Player>, build: impl FnOnce() -> Box<RawValue>) -> Box<RawValue> {
        if let Some((_, cached)) = self.lock().boards.iter().find(|(v, _)| *v == view) {
            return cached.clone();
        }
        let built = build();
        self.lock().boards.push((view, built.clone()));
        built
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Texts> {
        // The cache holds only finished texts: a poisoned one is still right.
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

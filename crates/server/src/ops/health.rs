//! Health: whether the process answers (`/healthz`) and whether this node
//! should be sent players (`/readyz`). Both are cheap and need no login: a
//! load balancer asks every few seconds.

use serde_json::{json, Value};

/// What `/readyz` found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Readiness {
    /// The store answered and the node is not stopping.
    Ready,
    /// The node is stopping (SIGTERM): no new players, please.
    Draining,
    /// The store did not answer; the reason, for the operator.
    StoreDown(String),
}

impl Readiness {
    /// Ready unless draining or the store failed; draining first, since a
    /// stopping node is not coming back whatever its store says.
    pub fn judge(draining: bool, store: Result<(), String>) -> Readiness {
        match (draining, store) {
            (true, _) => Readiness::Draining,
            (false, Err(reason)) => Readiness::StoreDown(reason),
            (false, Ok(())) => Readiness::Ready,
        }
    }

    pub fn is_ready(&self) -> bool {
        *self == Readiness::Ready
    }

    /// The answer's body: `{"status": "ready"}`, or `{"error": ...}`.
    pub fn body(&self) -> Value {
        match self {
            Readiness::Ready => json!({ "status": "ready" }),
            Readiness::Draining => json!({ "error": "the server is stopping" }),
            // The store's own message may name hosts or files: the
            // operator reads it in the logs, not the world.
            Readiness::StoreDown(_) => json!({ "error": "the store does not answer" }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Readiness;

    #[test]
    fn ready_only_when_the_store_answers_and_the_node_is_not_stopping() {
        assert!(Readiness::judge(false, Ok(())).is_ready());
        assert_eq!(Readiness::judge(true, Ok(())), Readiness::Draining);
        assert_eq!(Readiness::judge(true, Err("gone".into())), Readiness::Draining);
        let down = Readiness::judge(false, Err("connection refused at db.internal:5432".into()));
        assert_eq!(down, Readiness::StoreDown("connection refused at db.internal:5432".into()));
        assert!(!down.body().to_string().contains("db.internal"), "the store's reason stays in the logs");
    }
}

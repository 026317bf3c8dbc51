//! CPU-heavy request work (an imported record replayed, a long game's
//! record written, moves played on the analysis board) runs on tokio's
//! blocking pool, as the store's calls do: on the runtime's few threads it
//! would hold up every other request and socket meanwhile.

use crate::error::ApiError;

/// Runs `work` on the blocking pool and answers what it answers (a panic
/// in it is an internal error, never a dropped connection).
pub async fn on_blocking_pool<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|_| Err(ApiError::internal("the request's work failed")))
}

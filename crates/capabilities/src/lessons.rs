//! Lessons (docs/learn.md): the shipped lessons (`data/lessons/`), one
//! lesson's steps for the page, a move tried at a step judged by the rules
//! engine, and each account's progress (the steps done, kept in the store;
//! a page without an account keeps it in the browser).

use crate::clock::now_ms;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::store::lessons as stored;
use menagerie_learn::lesson::{self, Lesson, Verdict};
use serde_json::{json, Map, Value};
use std::sync::LazyLock;

/// The shipped lessons, read and checked once (the tests check them too:
/// a lesson that does not load is a build's fault, answered as one).
fn all() -> Result<&'static [Lesson], ApiError> {
    static LESSONS: LazyLock<Result<Vec<Lesson>, String>> =
        LazyLock::new(|| lesson::builtin().map_err(|e| e.to_string()));
    LESSONS.as_deref().map_err(|e| ApiError::internal(format!("the lessons do not load: {e}")))
}

/// `GET /api/learn`: every lesson, each game's in turn.
pub fn list() -> Result<Value, ApiError> {
    Ok(lesson::api_list(all()?))
}

fn find(id: &str) -> Result<&'static Lesson, ApiError> {
    all()?.iter().find(|l| l.id == id).ok_or_else(|| ApiError::not_found(format!("no lesson {id:?}")))
}

/// One lesson for its page: each step's position and goal, and a move that
/// meets it (the page's "show me").
pub fn lesson_json(id: &str) -> Result<Value, ApiError> {
    let lesson = find(id)?;
    let steps: Vec<Value> = lesson
        .steps
        .iter()
        .map(|step| {
            json!({
                "position": step.position,
                "goal": step.goal,
                "kind": step.kind,
                "example": step.moves.first(),
            })
        })
        .collect();
    let all = all()?;
    let at = all.iter().position(|l| l.id == lesson.id).unwrap_or(0);
    // The lesson after it in the same game, for the page's "next lesson".
    let next = all.get(at + 1).filter(|l| l.variant == lesson.variant).map(|l| l.id.clone());
    Ok(json!({
        "lesson": { "id": lesson.id, "variant": lesson.variant, "title": lesson.title, "steps": steps },
        "next": next,
    }))
}

/// The verdict on `mv` tried at step `step` (from 0) of lesson `id`; when
/// it meets the goal and `account` is signed in, the account's progress
/// grows to this step.
pub async fn try_move(hub: &Hub, account: Option<&str>, id: &str, step: usize, mv: &str) -> Result<Value, ApiError> {
    let lesson = find(id)?;
    if mv.len() > 200 {
        return Err(ApiError::bad_request("a move text is at most 200 bytes"));
    }
    let verdict = lesson::judge(lesson, step, mv).map_err(ApiError::not_found)?;
    let done = matches!(verdict, Verdict::Done { .. });
    if let (true, Some(account)) = (done, account) {
        let (account, lesson_id, steps) = (account.to_owned(), lesson.id.clone(), step as i64 + 1);
        hub.store().transact(move |sql| stored::record(sql, &account, &lesson_id, steps, now_ms())).await?;
    }
    let mut answer = serde_json::to_value(&verdict).map_err(|e| ApiError::internal(e.to_string()))?;
    if let Value::Object(fields) = &mut answer {
        fields.insert("last".into(), Value::Bool(step + 1 == lesson.steps.len()));
    }
    Ok(answer)
}

/// `account`'s progress: `{"progress": {"<lesson>": <steps done>}}`.
pub async fn progress(hub: &Hub, account: &str) -> Result<Value, ApiError> {
    let account = account.to_owned();
    let rows = hub.store().read(move |sql| stored::progress(sql, &account)).await?;
    let progress: Map<String, Value> = rows.into_iter().map(|(lesson, steps)| (lesson, json!(steps))).collect();
    Ok(json!({ "progress": progress }))
}

/// Takes progress a browser kept before its player signed in (`{"<lesson>":
/// steps}`): lessons that exist, counts within their steps; the rest is
/// ignored. Answers the account's progress after it.
pub async fn merge(hub: &Hub, account: &str, kept: &Map<String, Value>) -> Result<Value, ApiError> {
    if kept.len() > all()?.len() {
        return Err(ApiError::bad_request(format!("at most {} lessons", all()?.len())));
    }
    let mut valid = Vec::new();
    for (id, steps) in kept {
        let (Ok(lesson), Some(steps)) = (find(id), steps.as_u64()) else { continue };
        let steps = steps.min(lesson.steps.len() as u64) as i64;
        if steps > 0 {
            valid.push((lesson.id.clone(), steps));
        }
    }
    let owner = account.to_owned();
    hub.store()
        .transact(move |sql| {
            let now = now_ms();
            for (lesson, steps) in &valid {
                stored::record(sql, &owner, lesson, *steps, now)?;
            }
            Ok(())
        })
        .await?;
    progress(hub, account).await
}

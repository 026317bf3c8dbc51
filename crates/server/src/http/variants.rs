//! `GET /api/variants`: what games, options and computer levels this server
//! offers.

use crate::assets;
use crate::catalog::Catalog;
use crate::clock::now_ms;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::store::ratings;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use menagerie_core::{OptionInfo, Player};
use serde_json::{json, Map, Value};
use std::sync::Arc;

/// Every page asks for it, so it is made to be kept: tagged by its content
/// (304 while unchanged) and compressed.
pub async fn variants(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> Result<Response, ApiError> {
    let source = hub.source();
    let list: Vec<Value> = source
        .variants()
        .into_iter()
        .map(|info| {
            let start = source.new_game(info.id, None, 1, hub.catalog()).ok();
            json!({
                "id": info.id,
                "name": info.name,
                "summary": info.summary,
                "options": info.options.iter().map(|o| option_json(hub.catalog(), o)).collect::<Vec<_>>(),
                "rules": assets::rules(info.id).map(|_| format!("/rules/{}", info.id)),
                "insights": assets::insights_page(info.game()),
                "players": start.as_ref().map(|g| json!([g.player_name(Player::First), g.player_name(Player::Second)])),
                "hidden_information": start.as_ref().map(|g| g.has_hidden_information()),
                // A small picture of the start; games with hidden
                // information show the first player's view of a sample deal
                // (seed 1: no game in play is dealt from a known seed).
                "start": start.as_ref().map(|g| g.view(g.has_hidden_information().then_some(Player::First))),
            })
        })
        .collect();
    let rated = hub.store().read(ratings::computer_perfs).await?;
    let now = now_ms();
    let levels: Vec<Value> = hub
        .opponents()
        .levels()
        .into_iter()
        .map(|level| {
            let mut json = json!(level);
            let mut perfs = Map::new();
            let mut shown = Map::new();
            for (variant, measured) in &level.ratings {
                shown.insert(variant.clone(), json!({ "rating": measured.elo, "from": "ladder" }));
            }
            for (_, perf) in rated.iter().filter(|(id, _)| *id == level.id) {
                let rating = perf.now(now);
                perfs.insert(
                    perf.perf.clone(),
                    json!({
                        "games": perf.games,
                        "rating": rating.rating.round() as i64,
                        "rd": rating.deviation.round() as i64,
                        "prov": rating.provisional(),
                    }),
                );
                // Its rating among people once settled; the ladder's until then.
                if !rating.provisional() {
                    shown
                        .insert(perf.perf.clone(), json!({ "rating": rating.rating.round() as i64, "from": "glicko" }));
                }
            }
            json["perfs"] = Value::Object(perfs);
            json["shown"] = Value::Object(shown);
            json
        })
        .collect();
    let body = json!({ "variants": list, "levels": levels }).to_string().into_bytes();
    Ok(super::pages::made_file(&headers, "application/json", body))
}

/// An option of `/api/variants`; one that names data (`deck`) lists the
/// names this server offers as `choices`.
fn option_json(catalog: &Catalog, option: &OptionInfo) -> Value {
    let mut json = json!({ "name": option.name, "summary": option.summary, "value": option.value });
    let choices = catalog.names(option.name);
    if !choices.is_empty() {
        json["choices"] = json!(choices);
    }
    json
}

//! `GET /api/variants`: what games, options and computer levels this server
//! offers.

use crate::assets;
use crate::catalog::Catalog;
use crate::hub::Hub;
use axum::extract::State;
use axum::Json;
use menagerie_core::{OptionInfo, Player};
use serde_json::{json, Value};
use std::sync::Arc;

pub async fn variants(State(hub): State<Arc<Hub>>) -> Json<Value> {
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
    Json(json!({ "variants": list, "levels": hub.opponents().levels() }))
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

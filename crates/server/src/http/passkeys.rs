//! Passkeys (WebAuthn, `webauthn-rs`): a logged-in account registers one,
//! then logs in with it and no username or password (a discoverable
//! credential: the authenticator names the account). Each ceremony is two
//! requests; its state is kept in the store between them, so any node may
//! answer the second, and it is taken once.
//!
//! The relying party is the server's `--public-url`, or else the origin the
//! request's `Host` names (`http://localhost:8080`: an IP address is not a
//! valid relying-party id, so passkeys need a name).

use super::accounts::{logged_in, BAD_CREDENTIALS};
use super::asker::signed_in;
use super::body::Body;
use crate::accounts::Accounts;
use crate::error::ApiError;
use crate::http::Origin;
use crate::hub::Hub;
use crate::store::accounts::{self as stored, StoredPasskey};
use axum::extract::{Extension, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::Response;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::sync::Arc;
use webauthn_rs::prelude::{
    DiscoverableAuthentication, DiscoverableKey, Passkey, PasskeyRegistration, PublicKeyCredential,
    RegisterPublicKeyCredential, Url, Uuid, Webauthn, WebauthnBuilder,
};

type Shared = State<Arc<Hub>>;
type TheAccounts = Extension<Arc<Accounts>>;

/// How long a ceremony may take between its two requests.
const CEREMONY_MS: i64 = 5 * 60 * 1000;

/// The relying party of this request.
fn relying_party(accounts: &Accounts, headers: &HeaderMap) -> Result<Webauthn, ApiError> {
    let origin = match &accounts.public_url {
        Some(origin) => origin.clone(),
        None => {
            let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or_default();
            Origin::parse(&format!("http://{host}"))
                .map_err(|_| ApiError::bad_request("passkeys need the server's name (the Host header)"))?
        }
    };
    let url = Url::parse(&origin.to_string()).map_err(|_| ApiError::bad_request("no passkeys at this address"))?;
    WebauthnBuilder::new(origin.host(), &url)
        .and_then(|builder| builder.rp_name("Menagerie").build())
        .map_err(|_| ApiError::bad_request(format!("no passkeys at {origin}: a relying party needs a host name")))
}

/// The WebAuthn user id of an account: derived from its id, never its name.
fn user_handle(account: &str) -> Uuid {
    let digest = Sha256::digest(format!("webauthn:{account}").as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    Uuid::from_bytes(bytes)
}

fn unauthorized() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "not logged in")
}

fn state_text<T: serde::Serialize>(state: &T) -> Result<String, ApiError> {
    serde_json::to_string(state).map_err(|_| ApiError::internal("the passkey ceremony could not be kept"))
}

/// `POST /api/account/passkeys/start` `{}`: the options for
/// `navigator.credentials.create` and the ceremony's id.
pub async fn register_start(
    State(hub): Shared,
    Extension(accounts): TheAccounts,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let account = signed_in(&hub, &headers).await?.ok_or_else(unauthorized)?;
    let webauthn = relying_party(&accounts, &headers)?;
    let id = account.id.clone();
    let existing = hub.store().read(move |sql| stored::passkeys(sql, &id)).await?;
    let exclude = existing
        .iter()
        .filter_map(|key| serde_json::from_str::<Passkey>(&key.credential).ok())
        .map(|key| key.cred_id().clone())
        .collect();
    let (options, state) = webauthn
        .start_passkey_registration(user_handle(&account.id), &account.username, &account.username, Some(exclude))
        .map_err(|e| ApiError::bad_request(format!("cannot register a passkey: {e}")))?;
    let ceremony = crate::secret::seat_secret();
    let (kept, state) = (ceremony.clone(), state_text(&state)?);
    let now = crate::clock::now_ms();
    hub.store()
        .transact(move |sql| stored::begin_ceremony(sql, &kept, Some(&account.id), &state, now, now - CEREMONY_MS))
        .await?;
    Ok(Json(json!({ "ceremony": ceremony, "options": options })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegisterFinish {
    ceremony: String,
    credential: RegisterPublicKeyCredential,
}

/// `POST /api/account/passkeys/finish` `{"ceremony", "credential"}`: stores
/// the passkey the authenticator made.
pub async fn register_finish(
    State(hub): Shared,
    Extension(accounts): TheAccounts,
    headers: HeaderMap,
    Body(body): Body<RegisterFinish>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let account = signed_in(&hub, &headers).await?.ok_or_else(unauthorized)?;
    let webauthn = relying_party(&accounts, &headers)?;
    let (ceremony, id) = (body.ceremony, account.id.clone());
    let now = crate::clock::now_ms();
    let state = hub
        .store()
        .transact(move |sql| stored::take_ceremony(sql, &ceremony, Some(&id), now - CEREMONY_MS))
        .await?
        .and_then(|text| serde_json::from_str::<PasskeyRegistration>(&text).ok())
        .ok_or_else(|| ApiError::bad_request("no such passkey registration (it may have expired): start again"))?;
    let key = webauthn
        .finish_passkey_registration(&body.credential, &state)
        .map_err(|e| ApiError::bad_request(format!("the passkey was not accepted: {e}")))?;
    let stored_key = StoredPasskey {
        id: crate::secret::hex(key.cred_id()),
        account: account.id.clone(),
        user_handle: user_handle(&account.id).to_string(),
        credential: state_text(&key)?,
        created: now,
    };
    let added = hub.store().transact(move |sql| stored::add_passkey(sql, &stored_key)).await?;
    if !added {
        return Err(ApiError::conflict("this passkey is registered already"));
    }
    let id = account.id.clone();
    let count = hub.store().read(move |sql| stored::passkeys(sql, &id)).await?.len();
    Ok((StatusCode::CREATED, Json(json!({ "passkeys": count }))))
}

/// `POST /api/login/passkey/start` `{}`: the options for
/// `navigator.credentials.get` and the ceremony's id.
pub async fn login_start(
    State(hub): Shared,
    Extension(accounts): TheAccounts,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let webauthn = relying_party(&accounts, &headers)?;
    let (options, state) = webauthn
        .start_discoverable_authentication()
        .map_err(|e| ApiError::bad_request(format!("cannot log in with a passkey: {e}")))?;
    let ceremony = crate::secret::seat_secret();
    let (kept, state) = (ceremony.clone(), state_text(&state)?);
    let now = crate::clock::now_ms();
    hub.store().transact(move |sql| stored::begin_ceremony(sql, &kept, None, &state, now, now - CEREMONY_MS)).await?;
    Ok(Json(json!({ "ceremony": ceremony, "options": options })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoginFinish {
    ceremony: String,
    credential: PublicKeyCredential,
}

/// `POST /api/login/passkey/finish` `{"ceremony", "credential"}`: opens a
/// session for the account whose passkey signed.
pub async fn login_finish(
    State(hub): Shared,
    Extension(accounts): TheAccounts,
    headers: HeaderMap,
    Body(body): Body<LoginFinish>,
) -> Result<Response, ApiError> {
    let refused = || ApiError::new(StatusCode::UNAUTHORIZED, BAD_CREDENTIALS);
    let webauthn = relying_party(&accounts, &headers)?;
    let ceremony = body.ceremony;
    let now = crate::clock::now_ms();
    let state = hub
        .store()
        .transact(move |sql| stored::take_ceremony(sql, &ceremony, None, now - CEREMONY_MS))
        .await?
        .and_then(|text| serde_json::from_str::<DiscoverableAuthentication>(&text).ok())
        .ok_or_else(|| ApiError::bad_request("no such passkey login (it may have expired): start again"))?;
    let (handle, _) = webauthn.identify_discoverable_authentication(&body.credential).map_err(|_| refused())?;
    let (id, handle) = (crate::secret::hex(&body.credential.raw_id), handle.to_string());
    let found = hub.store().read(move |sql| stored::passkey_for_login(sql, &id, &handle)).await?.ok_or_else(refused)?;
    let mut key: Passkey = serde_json::from_str(&found.credential).map_err(|_| refused())?;
    let result = webauthn
        .finish_discoverable_authentication(&body.credential, state, &[DiscoverableKey::from(&key)])
        .map_err(|_| refused())?;
    if key.update_credential(&result) == Some(true) {
        let (id, credential) = (found.id.clone(), state_text(&key)?);
        hub.store().transact(move |sql| stored::update_passkey(sql, &id, &credential)).await?;
    }
    let account = found.account.clone();
    let username = hub
        .store()
        .read(move |sql| stored::account_by_id(sql, &account))
        .await?
        .map(|a| a.username)
        .ok_or_else(refused)?;
    // A passkey is never locked out (nothing to guess); its browser is
    // trusted by the account from now on, as after a password login.
    logged_in(&hub, &accounts, &headers, &found.account, StatusCode::OK, json!({ "username": username })).await
}

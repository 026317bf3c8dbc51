//! Players' accounts, optional beside anonymous play: the rules of names
//! and passwords, password hashes (Argon2id), session tokens and the
//! device cookies that tell an owner's browser from a stranger's at login
//! (OWASP's; the login limits are [`crate::limits`]'). What is stored is
//! in [`crate::store::accounts`]; the routes are in `http/accounts.rs`.

use crate::error::ApiError;
use crate::secret;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use cookie::{Cookie, SameSite};
use http::{header, HeaderMap, HeaderValue};
use sha2::{Digest, Sha256};
use std::sync::LazyLock;

/// The cookie holding a session's token.
pub const SESSION_COOKIE: &str = "menagerie_session";
/// The cookie naming a browser that logged in to accounts before (OWASP's
/// device cookie): an account it logged in to trusts it, and its failed
/// logins there count against it alone, never against strangers' limit
/// (which would lock the owner out).
pub const DEVICE_COOKIE: &str = "menagerie_device";
/// A username's length in characters, at least and at most.
pub const USERNAME_CHARS: std::ops::RangeInclusive<usize> = 2..=20;
/// A password's length in characters, at least.
pub const MIN_PASSWORD_CHARS: usize = 8;
/// A password's length in bytes, at most (bounds the work of hashing it).
pub const MAX_PASSWORD_BYTES: usize = 1024;
/// How long a session cookie is kept without coming back.
const SESSION_DAYS: i64 = 365;
/// A session token's length: as long as a seat secret (about 128 bits).
const TOKEN_LEN: usize = 22;

/// What the account routes need besides the store: whether cookies are
/// for HTTPS only, and where players reach the server.
#[derive(Default)]
pub struct Accounts {
    /// `Secure` cookies: the server is reached over HTTPS (`--public-url https://…`).
    pub secure: bool,
    /// Where players reach the server (`--public-url`): the passkeys'
    /// relying party. Without it, the origin a request's `Host` names.
    pub public_url: Option<crate::origin::Origin>,
}

impl Accounts {
    pub fn new(public_url: Option<crate::origin::Origin>) -> Accounts {
        let secure = public_url.as_ref().is_some_and(crate::origin::Origin::is_secure);
        Accounts { secure, public_url }
    }

    /// The `Set-Cookie` value opening a session of `token`.
    pub fn session_cookie(&self, token: &str) -> HeaderValue {
        self.kept_cookie(SESSION_COOKIE, token)
    }

    /// The `Set-Cookie` value of the browser's device cookie (`token`).
    pub fn device_cookie(&self, token: &str) -> HeaderValue {
        self.kept_cookie(DEVICE_COOKIE, token)
    }

    /// A cookie of the site's own, out of the page's reach, kept a year.
    fn kept_cookie(&self, name: &'static str, token: &str) -> HeaderValue {
        let cookie = Cookie::build((name, token))
            .path("/")
            .http_only(true)
            .secure(self.secure)
            .same_site(SameSite::Lax)
            .max_age(cookie::time::Duration::days(SESSION_DAYS))
            .build();
        HeaderValue::from_str(&cookie.to_string()).unwrap_or_else(|_| HeaderValue::from_static(""))
    }

    /// The `Set-Cookie` value that removes the session cookie.
    pub fn ended_cookie(&self) -> HeaderValue {
        let cookie = Cookie::build((SESSION_COOKIE, ""))
            .path("/")
            .http_only(true)
            .secure(self.secure)
            .same_site(SameSite::Lax)
            .max_age(cookie::time::Duration::ZERO)
            .build();
        HeaderValue::from_str(&cookie.to_string()).unwrap_or_else(|_| HeaderValue::from_static(""))
    }
}

/// A username as a player may choose it: 2 to 20 letters, digits, `-` or `_`.
pub fn checked_username(text: &str) -> Result<String, ApiError> {
    let chars = text.chars().count();
    if !USERNAME_CHARS.contains(&chars) {
        return Err(ApiError::bad_request(format!(
            "a username has {} to {} characters",
            USERNAME_CHARS.start(),
            USERNAME_CHARS.end()
        )));
    }
    if !text.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(ApiError::bad_request("a username has only letters, digits, - and _"));
    }
    Ok(text.to_owned())
}

/// A password as a player may choose it (never echoed in the error).
pub fn checked_password(text: &str) -> Result<(), ApiError> {
    if text.chars().count() < MIN_PASSWORD_CHARS {
        return Err(ApiError::bad_request(format!("a password has at least {MIN_PASSWORD_CHARS} characters")));
    }
    if text.len() > MAX_PASSWORD_BYTES {
        return Err(ApiError::bad_request(format!("a password has at most {MAX_PASSWORD_BYTES} bytes")));
    }
    Ok(())
}

/// The Argon2id hash of a password (a PHC string with its salt and
/// parameters: RustCrypto's defaults, OWASP's minimum).
pub fn hash_password(password: &str) -> Result<String, ApiError> {
    let salt = SaltString::encode_b64(secret::seat_secret().as_bytes())
        .map_err(|_| ApiError::internal("the password could not be hashed"))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|_| ApiError::internal("the password could not be hashed"))
}

/// Whether `password` is the one `hash` was made from. With no hash (no
/// such player) a hash is checked all the same, so that the answer takes
/// as long for an unknown player as for a wrong password.
pub fn password_matches(password: &str, hash: Option<&str>) -> bool {
    static DECOY: LazyLock<String> = LazyLock::new(|| hash_password("not anybody's password").unwrap_or_default());
    let (hash, real) = match hash {
        Some(hash) => (hash, true),
        None => (DECOY.as_str(), false),
    };
    let Ok(parsed) = PasswordHash::new(hash) else { return false };
    Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok() && real
}

/// A new session token (for the cookie) and its id in the store (its hash).
pub fn new_session() -> (String, String) {
    let token = secret::seat_secret();
    let id = session_id(&token);
    (token, id)
}

/// The id a session token is stored under.
pub fn session_id(token: &str) -> String {
    secret::stored_id(token)
}

/// What the store keeps of a browser's anonymous id (its hash: the id is
/// the browser's key).
pub fn player_key(player: &str) -> String {
    secret::hex(&Sha256::digest(format!("player:{player}").as_bytes()))
}

/// The session token the request's cookies present, if well formed.
pub fn presented_session(headers: &HeaderMap) -> Option<String> {
    presented_token(headers, SESSION_COOKIE)
}

/// The device token the request's cookies present, if well formed.
pub fn presented_device(headers: &HeaderMap) -> Option<String> {
    presented_token(headers, DEVICE_COOKIE)
}

fn presented_token(headers: &HeaderMap, name: &str) -> Option<String> {
    for value in headers.get_all(header::COOKIE) {
        let Ok(text) = value.to_str() else { continue };
        for cookie in Cookie::split_parse(text).flatten() {
            if cookie.name() == name && secret::well_formed(cookie.value(), TOKEN_LEN) {
                return Some(cookie.value().to_owned());
            }
        }
    }
    None
}

/// A new device token (for the cookie) and its id in the store (its hash).
pub fn new_device() -> (String, String) {
    let token = secret::seat_secret();
    let id = device_id(&token);
    (token, id)
}

/// The id a device token is stored under (its hash, apart from sessions').
pub fn device_id(token: &str) -> String {
    secret::hex(&Sha256::digest(format!("device:{token}").as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_two_to_twenty_letters_digits_dashes_and_underscores() {
        for good in ["ab", "Ada_Lovelace-1815", &"x".repeat(20)] {
            assert_eq!(checked_username(good).unwrap(), good);
        }
        for bad in ["a", "", &"x".repeat(21), "ada lovelace", "zoë", "a.b", "<b>"] {
            assert_eq!(checked_username(bad).unwrap_err().status.as_u16(), 400, "{bad:?}");
        }
    }

    #[test]
    fn passwords_are_hashed_with_argon2id_and_never_echoed() {
        let error = checked_password("hunter2").unwrap_err();
        assert!(!error.reason.contains("hunter2"), "{error}");
        checked_password("correct horse").unwrap();
        let hash = hash_password("correct horse").unwrap();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(!hash.contains("correct horse"));
        assert_ne!(hash, hash_password("correct horse").unwrap(), "salted");
        assert!(password_matches("correct horse", Some(&hash)));
        assert!(!password_matches("correct horsE", Some(&hash)));
        assert!(!password_matches("not anybody's password", None), "the decoy opens nothing");
        assert!(!password_matches("x", Some("garbage")));
    }

    #[test]
    fn session_cookies_are_http_only_lax_and_secure_over_https() {
        let (token, id) = new_session();
        assert_eq!(session_id(&token), id);
        assert_ne!(token, id);
        let plain = Accounts::new(None).session_cookie(&token);
        let plain = plain.to_str().unwrap();
        assert!(plain.contains("HttpOnly") && plain.contains("SameSite=Lax") && !plain.contains("Secure"), "{plain}");
        let public = crate::origin::Origin::parse("https://chess.example.org").ok();
        let secure = Accounts::new(public).session_cookie(&token);
        assert!(secure.to_str().unwrap().contains("Secure"));
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, HeaderValue::from_str(&format!("a=b; {SESSION_COOKIE}={token}")).unwrap());
        assert_eq!(presented_session(&headers), Some(token));
        headers.insert(header::COOKIE, HeaderValue::from_static("menagerie_session=../x"));
        assert_eq!(presented_session(&headers), None);
    }
}

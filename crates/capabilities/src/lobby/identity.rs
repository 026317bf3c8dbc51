//! Anonymous players: a browser is known by a random id kept in a cookie,
//! and shows the display name it chose (kept in a second cookie): whoever
//! holds the cookie is the player. A browser may also log in to an account
//! ([`crate::accounts`]), whose username is then its name.

use crate::error::ApiError;
use crate::secret;
use cookie::{Cookie, SameSite};
use http::{header, HeaderMap, HeaderValue};

/// The cookie holding a browser's player id.
pub const ID_COOKIE: &str = "menagerie_player";
/// The cookie holding a player's display name.
pub const NAME_COOKIE: &str = "menagerie_name";
/// A display name has at most this many characters.
pub const MAX_NAME_CHARS: usize = 24;
/// The name of a player who chose none.
pub const DEFAULT_NAME: &str = "Anonymous";
/// A player id's length: as long as a seat secret (about 128 bits), since
/// whoever presents it acts as the player.
const ID_LEN: usize = 22;
/// How long a browser keeps its identity without coming back.
const COOKIE_DAYS: i64 = 365;

/// A player's id: never shown to anyone else (it is the player's key).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayerId(String);

impl PlayerId {
    /// What the store keeps of this id (its hash: seats this browser took
    /// while anonymous, which become its account's when it signs up).
    pub fn key(&self) -> String {
        crate::accounts::player_key(&self.0)
    }

    /// A new id, drawn from the operating system's seeded generator.
    fn new() -> PlayerId {
        PlayerId(secret::seat_secret())
    }

    /// The id a cookie presents, if it is one we could have made.
    fn presented(text: &str) -> Option<PlayerId> {
        (text.len() == ID_LEN && secret::well_formed(text, ID_LEN)).then(|| PlayerId(text.to_owned()))
    }
}

/// Who is asking: the player of the request's cookies, or a new player
/// (`fresh`) whose cookie the answer sets.
#[derive(Clone, Debug)]
pub struct Identity {
    pub id: PlayerId,
    pub name: String,
    pub fresh: bool,
}

impl Identity {
    /// The player the request's cookies name, if they name one.
    pub fn existing(headers: &HeaderMap) -> Option<Identity> {
        let mut id = None;
        let mut name = None;
        for value in headers.get_all(header::COOKIE) {
            let Ok(text) = value.to_str() else { continue };
            for cookie in Cookie::split_parse_encoded(text).flatten() {
                match cookie.name() {
                    ID_COOKIE => id = PlayerId::presented(cookie.value()),
                    NAME_COOKIE => name = checked_name(cookie.value()).ok(),
                    _ => {}
                }
            }
        }
        Some(Identity { id: id?, name: name.unwrap_or_else(|| DEFAULT_NAME.to_owned()), fresh: false })
    }

    /// A new player, whose cookie the answer sets. (As an extractor,
    /// `Identity` is the request's player, or a new one within the lobby's
    /// limit of new players per address: `http::lobby`.)
    pub fn new_player() -> Identity {
        Identity { id: PlayerId::new(), name: DEFAULT_NAME.to_owned(), fresh: true }
    }

    /// The `Set-Cookie` values an answer carries: the id for a new player.
    pub fn cookies(&self) -> Vec<HeaderValue> {
        if self.fresh {
            vec![set_cookie(ID_COOKIE, &self.id.0)]
        } else {
            Vec::new()
        }
    }

    /// [`Identity::cookies`] and the name's cookie.
    pub fn cookies_with_name(&self) -> Vec<HeaderValue> {
        let mut cookies = self.cookies();
        cookies.push(set_cookie(NAME_COOKIE, &self.name));
        cookies
    }
}

fn set_cookie(name: &str, value: &str) -> HeaderValue {
    let cookie = Cookie::build((name, value))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .max_age(cookie::time::Duration::days(COOKIE_DAYS))
        .build();
    // Percent-encoded: every byte is visible ASCII.
    HeaderValue::from_str(&cookie.encoded().to_string()).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// A display name as the player may set it: trimmed, 1 to
/// [`MAX_NAME_CHARS`] characters, no control characters.
pub fn checked_name(text: &str) -> Result<String, ApiError> {
    let name = text.trim();
    if name.is_empty() {
        return Err(ApiError::bad_request("a name needs at least one visible character"));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(ApiError::bad_request(format!("a name has at most {MAX_NAME_CHARS} characters")));
    }
    if name.chars().any(char::is_control) {
        return Err(ApiError::bad_request("a name may not contain control characters"));
    }
    Ok(name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(cookie: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, HeaderValue::from_str(cookie).unwrap());
        headers
    }

    #[test]
    fn names_are_trimmed_bounded_and_visible() {
        assert_eq!(checked_name("  Ada Lovelace ").unwrap(), "Ada Lovelace");
        assert_eq!(checked_name("Zoë 🦎").unwrap(), "Zoë 🦎");
        assert_eq!(checked_name(&"é".repeat(MAX_NAME_CHARS)).unwrap().chars().count(), MAX_NAME_CHARS);
        for bad in ["", "   ", "a\u{7}b", "tab\there", &"x".repeat(MAX_NAME_CHARS + 1)] {
            assert_eq!(checked_name(bad).unwrap_err().status.as_u16(), 400, "{bad:?}");
        }
    }

    #[test]
    fn a_cookie_round_trips_and_junk_makes_a_new_player() {
        let player = Identity::new_player();
        assert!(player.fresh);
        let named = Identity { name: "Zoë; x=1".into(), ..player.clone() };
        let sent: Vec<String> = named
            .cookies_with_name()
            .iter()
            .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_owned())
            .collect();
        let back = Identity::existing(&headers(&sent.join("; "))).unwrap();
        assert_eq!((&back.id, back.name.as_str(), back.fresh), (&player.id, "Zoë; x=1", false));
        let set = player.cookies()[0].to_str().unwrap().to_owned();
        assert!(set.contains("HttpOnly") && set.contains("SameSite=Lax") && set.contains("Path=/"), "{set}");
        assert!(Identity::existing(&headers("menagerie_player=../../etc")).is_none());
        assert!(Identity::existing(&headers("menagerie_player=abc")).is_none());
        let unnamed = Identity::existing(&headers(&format!("{}; menagerie_name=%07", sent[0]))).unwrap();
        assert_eq!(unnamed.name, DEFAULT_NAME);
    }
}

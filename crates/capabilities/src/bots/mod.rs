//! lichess's Bot and Board API (docs/bots.md): personal API tokens, their
//! scopes, and the accounts upgraded to bots. The routes are in
//! `http/lichess.rs`; what is stored is in [`crate::store::tokens`].

pub mod game;

use crate::error::ApiError;
use crate::secret;
use http::{header, HeaderMap, StatusCode};

/// What a token may do, as lichess names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    BotPlay,
    BoardPlay,
    ChallengeRead,
    ChallengeWrite,
    /// Joining and leaving tournaments (lichess's `tournament:write`).
    TournamentWrite,
    /// Blocking players (lichess's `follow:write`, which covers follows
    /// and blocks).
    FollowWrite,
    /// Playing puzzles rated (lichess's `puzzle:write`).
    PuzzleWrite,
}

impl Scope {
    pub const ALL: [Scope; 7] = [
        Scope::BotPlay,
        Scope::BoardPlay,
        Scope::ChallengeRead,
        Scope::ChallengeWrite,
        Scope::TournamentWrite,
        Scope::FollowWrite,
        Scope::PuzzleWrite,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::BotPlay => "bot:play",
            Scope::BoardPlay => "board:play",
            Scope::ChallengeRead => "challenge:read",
            Scope::ChallengeWrite => "challenge:write",
            Scope::TournamentWrite => "tournament:write",
            Scope::FollowWrite => "follow:write",
            Scope::PuzzleWrite => "puzzle:write",
        }
    }

    pub fn parse(text: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|scope| scope.as_str() == text)
    }
}

/// The scopes a request names, checked: each known, none twice, in the
/// order of [`Scope::ALL`] (as stored, space-separated).
pub fn checked_scopes(named: &[String]) -> Result<Vec<Scope>, ApiError> {
    let mut scopes = Vec::new();
    for name in named {
        let scope = Scope::parse(name).ok_or_else(|| {
            let valid = Scope::ALL.map(Scope::as_str).join(", ");
            ApiError::bad_request(format!("unknown scope {name:?}: the scopes are {valid}"))
        })?;
        scopes.push(scope);
    }
    Ok(Scope::ALL.into_iter().filter(|scope| scopes.contains(scope)).collect())
}

/// Scopes as stored: space-separated.
pub fn scopes_text(scopes: &[Scope]) -> String {
    scopes.iter().map(|scope| scope.as_str()).collect::<Vec<_>>().join(" ")
}

/// Scopes as stored, read back (an unknown one, from a later version, is
/// left out).
pub fn stored_scopes(text: &str) -> Vec<Scope> {
    text.split_whitespace().filter_map(Scope::parse).collect()
}

/// A token's description, at most this many characters.
pub const MAX_DESCRIPTION_CHARS: usize = 100;

/// A description as a player may give it: 1 to 100 characters, one line.
pub fn checked_description(text: &str) -> Result<String, ApiError> {
    let text = text.trim();
    let chars = text.chars().count();
    if chars == 0 || chars > MAX_DESCRIPTION_CHARS || text.chars().any(char::is_control) {
        return Err(ApiError::bad_request(format!(
            "a token's description has 1 to {MAX_DESCRIPTION_CHARS} characters on one line"
        )));
    }
    Ok(text.to_owned())
}

/// What starts every token (lichess's start with `lip_`): says what it is
/// when found in a file or a log.
pub const TOKEN_PREFIX: &str = "mnp_";
/// The random part's length: as long as a seat secret (about 128 bits).
const TOKEN_SECRET_LEN: usize = 22;

/// A new token (shown once), its id in the store (its hash) and its public
/// handle.
pub fn new_token() -> (String, String, String) {
    let token = format!("{TOKEN_PREFIX}{}", secret::seat_secret());
    let id = token_id(&token);
    (token, id, secret::game_id())
}

/// The id a token is stored under (as a session's: its SHA-256).
pub fn token_id(token: &str) -> String {
    secret::stored_id(token)
}

/// What `Authorization` presents: nothing, or a bearer token (which may be
/// malformed: then no token of ours).
pub enum Presented {
    Nothing,
    Token(String),
    Malformed,
}

/// The bearer token of a request's `Authorization` header.
pub fn presented_token(headers: &HeaderMap) -> Presented {
    let Some(value) = headers.get(header::AUTHORIZATION) else { return Presented::Nothing };
    let Some((scheme, token)) = value.to_str().ok().and_then(|v| v.trim().split_once(' ')) else {
        return Presented::Malformed;
    };
    let token = token.trim();
    let ours = token.strip_prefix(TOKEN_PREFIX).is_some_and(|rest| secret::well_formed(rest, TOKEN_SECRET_LEN));
    match (scheme.eq_ignore_ascii_case("bearer"), ours) {
        (true, true) => Presented::Token(token.to_owned()),
        _ => Presented::Malformed,
    }
}

/// lichess's answer to a token it does not know.
pub fn no_such_token() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "No such token")
}

/// lichess's answer to a token without the scope a route needs.
pub fn missing_scope(scope: Scope) -> ApiError {
    ApiError::forbidden(format!("Missing scope: {}", scope.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    #[test]
    fn scopes_are_lichess_names_checked_and_stored_in_one_order() {
        let named = ["challenge:read", "bot:play", "bot:play"].map(String::from);
        let scopes = checked_scopes(&named).unwrap();
        assert_eq!(scopes, [Scope::BotPlay, Scope::ChallengeRead]);
        assert_eq!(scopes_text(&scopes), "bot:play challenge:read");
        assert_eq!(stored_scopes("bot:play challenge:read email:read"), scopes);
        let error = checked_scopes(&["preference:write".into()]).unwrap_err();
        assert_eq!(error.status.as_u16(), 400);
        assert!(error.reason.contains("board:play"), "{}", error.reason);
    }

    #[test]
    fn tokens_are_random_stored_as_hashes_and_read_from_bearer_headers() {
        let (token, id, handle) = new_token();
        assert!(token.starts_with(TOKEN_PREFIX));
        assert_eq!(token_id(&token), id);
        assert!(!id.contains(&token[TOKEN_PREFIX.len()..]) && !handle.is_empty());
        assert_ne!(new_token().0, token);
        let presented = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::AUTHORIZATION, HeaderValue::from_str(value).unwrap());
            presented_token(&headers)
        };
        assert!(matches!(presented(&format!("Bearer {token}")), Presented::Token(t) if t == token));
        assert!(matches!(presented(&format!("bearer  {token} ")), Presented::Token(_)));
        assert!(matches!(presented("Bearer lip_abc"), Presented::Malformed));
        assert!(matches!(presented(&format!("Basic {token}")), Presented::Malformed));
        assert!(matches!(presented_token(&HeaderMap::new()), Presented::Nothing));
    }

    #[test]
    fn descriptions_are_one_short_line() {
        assert_eq!(checked_description("  my bot ").unwrap(), "my bot");
        for bad in ["", "   ", "a\nb", &"x".repeat(101)] {
            assert_eq!(checked_description(bad).unwrap_err().status.as_u16(), 400, "{bad:?}");
        }
    }
}

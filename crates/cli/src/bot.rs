//! `menagerie bot`: Menagerie's engine plays as a bot account on a server
//! through lichess's Bot API (docs/bots.md), as lichess-bot does with an
//! engine: it listens to the account's event stream, accepts the
//! challenges it can play, streams each game and, when the stream says it
//! is its turn, plays the move the server's computer level would choose.
//! It plays games of perfect information only: a bot sees the moves its
//! stream shows, and a game with hidden cards (Lunch Chess) shows too
//! little to play it again, so it declines those (lichess's `variant`).

use crate::error::CliError;
use crate::output::{say, say_err};
use menagerie_core::DynGame;
use menagerie_server::catalog::Catalog;
use menagerie_server::computer::{ComputerPlayer, Opponents, SearchLevels};
use menagerie_server::source::{GameSource, Registry};
use serde_json::Value;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct BotArgs {
    /// The server, such as http://127.0.0.1:8080
    #[arg(long)]
    server: String,
    /// A personal API token of a bot account with the bot:play scope (docs/bots.md)
    #[arg(long, env = "MENAGERIE_BOT_TOKEN")]
    token: String,
    /// The computer level that chooses the moves (`menagerie serve`'s levels)
    #[arg(long, default_value = "medium")]
    level: String,
    /// Accept rated challenges too (casual only without it)
    #[arg(long)]
    accept_rated: bool,
    /// Variant ids to accept challenges in (repeat, or separate with commas) [default: every one it can play]
    #[arg(long, value_delimiter = ',')]
    variants: Vec<String>,
}

/// What a running bot knows.
struct Bot {
    http: reqwest::Client,
    server: String,
    token: String,
    /// The account's id (its username in lower case) and name.
    name: String,
    player: Arc<dyn ComputerPlayer>,
    accept_rated: bool,
    variants: Vec<String>,
    /// Games being played now.
    playing: Mutex<HashSet<String>>,
}

pub fn bot(args: BotArgs) -> Result<(), CliError> {
    let player = SearchLevels.player(&args.level).ok_or_else(|| {
        let levels: Vec<String> = SearchLevels.levels().into_iter().map(|l| l.id).collect();
        CliError::BadInput(format!("unknown level {:?}: the levels are {}", args.level, levels.join(", ")))
    })?;
    for variant in &args.variants {
        if !menagerie_games::variants().iter().any(|v| v.id == variant) {
            return Err(CliError::BadInput(format!("unknown variant {variant:?} in --variants")));
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Failed(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(async move {
        let server = args.server.trim_end_matches('/').to_owned();
        let http = reqwest::Client::new();
        let account = account(&http, &server, &args.token).await?;
        let name = account["username"].as_str().unwrap_or_default().to_owned();
        if account["title"] != "BOT" {
            return Err(CliError::Failed(format!(
                "{name} is not a bot account: upgrade it first (POST /api/bot/account/upgrade, docs/bots.md)"
            )));
        }
        let bot = Arc::new(Bot {
            http,
            server,
            token: args.token,
            name,
            player,
            accept_rated: args.accept_rated,
            variants: args.variants,
            playing: Mutex::new(HashSet::new()),
        });
        say(format_args!("{} plays at level {} on {} (Ctrl-C stops)", bot.name, args.level, bot.server));
        tokio::select! {
            listened = listen(Arc::clone(&bot)) => listened,
            _ = tokio::signal::ctrl_c() => {
                say("stopped");
                Ok(())
            }
        }
    })
}

async fn account(http: &reqwest::Client, server: &str, token: &str) -> Result<Value, CliError> {
    let response = http
        .get(format!("{server}/api/account"))
        .bearer_auth(token)
        .send()
        .await
        .map_err(|e| CliError::Failed(format!("cannot reach {server}: {e}")))?;
    let status = response.status();
    let body: Value = response.json().await.unwrap_or(Value::Null);
    if !status.is_success() {
        let reason = body["error"].as_str().unwrap_or("refused");
        return Err(CliError::Failed(format!("{server} refused the token: {reason}")));
    }
    Ok(body)
}

/// Reads a streamed NDJSON response line by line (keep-alive newlines
/// skipped); `None` once it ends.
struct Lines {
    response: reqwest::Response,
    pending: Vec<u8>,
}

impl Lines {
    async fn next(&mut self) -> Result<Option<Value>, reqwest::Error> {
        loop {
            if let Some(end) = self.pending.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=end).collect();
                let text = String::from_utf8_lossy(&line);
                if text.trim().is_empty() {
                    continue;
                }
                // A line that is no JSON is no event of ours: skipped.
                match serde_json::from_str(text.trim()) {
                    Ok(value) => return Ok(Some(value)),
                    Err(_) => continue,
                }
            }
            match self.response.chunk().await? {
                Some(chunk) => self.pending.extend_from_slice(&chunk),
                None => return Ok(None),
            }
        }
    }
}

impl Bot {
    /// Opens a stream. A server out of reach or failing (5xx) may come back:
    /// `Ok(Err(why))`; one that refuses the request (a revoked token) will not.
    async fn stream(&self, path: &str) -> Result<Result<Lines, String>, CliError> {
        let response = match self.http.get(format!("{}{path}", self.server)).bearer_auth(&self.token).send().await {
            Ok(response) => response,
            Err(error) => return Ok(Err(format!("cannot reach {}: {error}", self.server))),
        };
        let status = response.status();
        if status.is_success() {
            return Ok(Ok(Lines { response, pending: Vec::new() }));
        }
        let body: Value = response.json().await.unwrap_or(Value::Null);
        let why = format!("GET {path}: {status}: {}", body["error"].as_str().unwrap_or("refused"));
        if status.is_server_error() {
            Ok(Err(why))
        } else {
            Err(CliError::Failed(why))
        }
    }

    /// A POST with no body, or a JSON one; answers the error's words if refused.
    async fn post(&self, path: &str, body: Option<Value>) -> Result<(), String> {
        let mut request = self.http.post(format!("{}{path}", self.server)).bearer_auth(&self.token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.map_err(|e| e.to_string())?;
        if response.status().is_success() {
            return Ok(());
        }
        let status = response.status();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        Err(format!("{status}: {}", body["error"].as_str().unwrap_or("refused")))
    }

    /// Why the bot declines a challenge (lichess's reason key), if it does.
    fn refusal(&self, challenge: &Value) -> Option<&'static str> {
        let variant = challenge["variant"]["key"].as_str().unwrap_or_default();
        let id = variant.split(':').next().unwrap_or_default();
        if !self.variants.is_empty() && !self.variants.iter().any(|v| v == id) {
            return Some("variant");
        }
        match Registry.new_game(variant, None, 0, &Catalog::builtin()) {
            Ok(game) if !game.has_hidden_information() => {}
            _ => return Some("variant"),
        }
        if challenge["rated"] == true && !self.accept_rated {
            return Some("casual");
        }
        None
    }
}

/// The longest wait between two attempts to reach the server again.
const MOST_PATIENCE: Duration = Duration::from_secs(30);

/// Follows the event stream for as long as the bot runs: answers challenges,
/// starts playing games. A server that goes away (a restart, a network
/// fault) is waited for, as lichess's bots wait: the stream is opened again
/// after 1 s, then 2, 4... up to 30 s; once it is back, its first events
/// announce the games in progress again, and they are played on.
async fn listen(bot: Arc<Bot>) -> Result<(), CliError> {
    let mut patience = Duration::from_secs(1);
    let mut lost = false;
    loop {
        let why = match bot.stream("/api/stream/event").await? {
            Ok(mut events) => {
                if lost {
                    say(format_args!("{} is back: listening again", bot.server));
                }
                patience = Duration::from_secs(1);
                follow(&bot, &mut events).await
            }
            Err(error) => error.to_string(),
        };
        say_err(format_args!("{why}; trying again in {} s", patience.as_secs()));
        lost = true;
        tokio::time::sleep(patience).await;
        patience = (patience * 2).min(MOST_PATIENCE);
    }
}

/// Obeys one event stream until it ends; answers why it ended.
async fn follow(bot: &Arc<Bot>, events: &mut Lines) -> String {
    loop {
        let event = match events.next().await {
            Ok(Some(event)) => event,
            Ok(None) => return format!("{} ended the event stream", bot.server),
            Err(error) => return format!("the event stream failed: {error}"),
        };
        match event["type"].as_str() {
            Some("challenge") => answer_challenge(bot, &event["challenge"]).await,
            Some("gameStart") => {
                let Some(game) = event["game"]["gameId"].as_str().map(str::to_owned) else { continue };
                if bot.playing.lock().unwrap().insert(game.clone()) {
                    let bot = Arc::clone(bot);
                    tokio::spawn(async move {
                        if let Err(error) = play(&bot, &game).await {
                            say_err(format_args!("game {game}: {error}"));
                        }
                        bot.playing.lock().unwrap().remove(&game);
                    });
                }
            }
            _ => {}
        }
    }
}

async fn answer_challenge(bot: &Bot, challenge: &Value) {
    if challenge["direction"] != "in" {
        return;
    }
    let (Some(id), Some(from)) = (challenge["id"].as_str(), challenge["challenger"]["name"].as_str()) else { return };
    let variant = challenge["variant"]["key"].as_str().unwrap_or_default();
    let answered = match bot.refusal(challenge) {
        None => bot.post(&format!("/api/challenge/{id}/accept"), None).await.map(|()| "accepted"),
        Some(reason) => bot
            .post(&format!("/api/challenge/{id}/decline"), Some(serde_json::json!({ "reason": reason })))
            .await
            .map(|()| "declined"),
    };
    match answered {
        Ok(what) => {
            say(format_args!("{what} the {variant} challenge of {from}"));
        }
        Err(error) => say_err(format_args!("challenge {id}: {error}")),
    }
}

/// Plays one game from its stream until it ends.
async fn play(bot: &Bot, game: &str) -> Result<(), String> {
    let mut lines = bot.stream(&format!("/api/bot/game/stream/{game}")).await.map_err(|e| e.to_string())??;
    let mut setup: Option<(String, Option<String>, &'static str)> = None;
    let mut tried = None;
    while let Some(line) = lines.next().await.map_err(|e| e.to_string())? {
        let state = match line["type"].as_str() {
            Some("gameFull") => {
                let variant = line["variant"]["key"].as_str().unwrap_or_default().to_owned();
                let initial = line["initialFen"].as_str().filter(|f| *f != "startpos").map(str::to_owned);
                let colour = if line["white"]["name"] == bot.name.as_str() { "white" } else { "black" };
                setup = Some((variant, initial, colour));
                line["state"].clone()
            }
            Some("gameState") => line,
            _ => continue,
        };
        let Some((variant, initial, colour)) = &setup else { continue };
        if state["status"] != "started" {
            let winner = state["winner"].as_str().unwrap_or("nobody");
            say(format_args!("game {game} over: {} ({winner} won)", state["status"].as_str().unwrap_or_default()));
            return Ok(());
        }
        let moves = state["moves"].as_str().unwrap_or_default().to_owned();
        if state["toMove"] != *colour || tried.as_ref() == Some(&moves) {
            continue;
        }
        tried = Some(moves.clone());
        let (variant, initial, player) = (variant.clone(), initial.clone(), Arc::clone(&bot.player));
        let chosen = tokio::task::spawn_blocking(move || choose(&variant, initial.as_deref(), &moves, &*player))
            .await
            .map_err(|e| e.to_string())??;
        if let Err(error) = bot.post(&format!("/api/bot/game/{game}/move/{}", encoded(&chosen)), None).await {
            say_err(format_args!("game {game}: the move {chosen} was refused: {error}"));
        }
    }
    Err("the game's stream ended before the game".into())
}

/// The move `player` chooses after `moves` from the start (or `initial`).
fn choose(variant: &str, initial: Option<&str>, moves: &str, player: &dyn ComputerPlayer) -> Result<String, String> {
    let mut game: Box<dyn DynGame> = Registry.new_game(variant, initial, 0, &Catalog::builtin())?;
    for text in moves.split(' ').filter(|m| !m.is_empty()) {
        game.play(text).map_err(|e| format!("the stream's move {text}: {e}"))?;
    }
    player.choose(&*game).ok_or_else(|| "no move to play".to_owned())
}

/// A move text as a path segment (percent-encoded but for unreserved bytes).
fn encoded(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_chosen_from_the_moves_the_stream_gives() {
        let player = SearchLevels.player("random").unwrap();
        let chosen = choose("lma", None, "2a2a3", &*player).unwrap();
        let mut game = Registry.new_game("lma", None, 0, &Catalog::builtin()).unwrap();
        game.play("2a2a3").unwrap();
        assert!(game.legal_moves().contains(&chosen), "{chosen}");
        assert!(choose("lma", None, "nonsense", &*player).unwrap_err().contains("nonsense"));
        assert_eq!(encoded("B1-C1"), "B1-C1");
        assert_eq!(encoded("a b/c"), "a%20b%2Fc");
    }
}

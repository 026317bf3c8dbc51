//! The HTTP layer: the route table, the handlers (each parses its request
//! once, into a command or a read, and hands it to the hub), and the
//! connection loop with its limits.
//!
//! A new route is a handler in the file of its concern (or a new file here,
//! `lobby.rs` say) and one line in the route table ([`routes`] lists it).
//! Every route is behind [`origin`]'s rule: a change is JSON and comes from
//! no other origin.

mod accounts;
pub mod admission;
mod analysis;
mod asker;
mod board;
mod body;
mod challenges;
mod client;
mod forecasts;
mod games;
mod keepalive;
mod learn;
mod lichess;
pub mod listen;
mod lobby;
mod notifications;
pub mod ops;
mod origin;
mod pages;
mod passkeys;
mod positions;
mod protections;
mod ratings;
pub mod records;
mod relations;
mod review;
mod seats;
mod socket;
mod time;
mod tournaments;
mod variants;

use crate::accounts::Accounts;
use crate::analysis::Analyst;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::lobby::Lobby;
use crate::ops::Operations;
use crate::review::Reviews;
pub use asker::SignedIn;
use axum::extract::{DefaultBodyLimit, Extension};
use axum::handler::Handler;
use axum::http::Method;
use axum::routing::{on, MethodFilter};
use axum::{middleware, Router};
pub use origin::{AllowedOrigins, Origin};
use std::sync::Arc;

/// One route: a method and a path pattern (axum's, `/api/games/{id}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub method: Method,
    pub path: &'static str,
}

/// The route table, built with the router so that the two cannot part:
/// [`routes`] lists exactly what [`router`] serves (tests walk it).
struct Table {
    router: Router<Arc<Hub>>,
    routes: Vec<Route>,
}

impl Table {
    fn on<H: Handler<T, Arc<Hub>>, T: 'static>(mut self, method: Method, path: &'static str, handler: H) -> Self {
        let filter = MethodFilter::try_from(method.clone()).expect("a method axum routes");
        self.router = self.router.route(path, on(filter, handler));
        self.routes.push(Route { method, path });
        self
    }
    fn get<H: Handler<T, Arc<Hub>>, T: 'static>(self, path: &'static str, handler: H) -> Self {
        self.on(Method::GET, path, handler)
    }
    fn post<H: Handler<T, Arc<Hub>>, T: 'static>(self, path: &'static str, handler: H) -> Self {
        self.on(Method::POST, path, handler)
    }
    fn delete<H: Handler<T, Arc<Hub>>, T: 'static>(self, path: &'static str, handler: H) -> Self {
        self.on(Method::DELETE, path, handler)
    }
}

fn table() -> Table {
    Table { router: Router::new(), routes: Vec::new() }
        .get("/healthz", ops::healthz)
        .get("/readyz", ops::readyz)
        .get("/", pages::page)
        .get("/g/{id}", pages::page)
        .get("/analysis", pages::page)
        .get("/learn", pages::page)
        .get("/learn/{id}", pages::page)
        .get("/puzzle", pages::page)
        .get("/puzzle/{which}", pages::page)
        .get("/account", pages::page)
        .get("/@/{username}", pages::profile)
        .get("/leaderboard", pages::leaderboards)
        .get("/leaderboard/{variant}", pages::leaderboard)
        .get("/assets/{*path}", pages::asset)
        .get("/favicon.ico", pages::favicon)
        .get("/rules/{variant}", pages::rules)
        .get("/docs/{name}", pages::doc)
        .get("/insights", || async { axum::response::Redirect::permanent("/insights/") })
        .get("/insights/", pages::insights_index)
        .get("/insights/{*path}", pages::insights)
        .get("/api/variants", variants::variants)
        .post("/api/games", games::create)
        .post(records::IMPORT_PATH, records::import.layer(DefaultBodyLimit::max(records::MAX_RECORD_BODY)))
        .get("/api/games/{id}", games::read)
        .get("/api/games/{id}/record", records::record)
        .get("/api/games/{id}/moves", games::legal_moves)
        .get("/api/games/{id}/players", accounts::players)
        .get("/api/games/{id}/position/{ply}", games::position)
        .post("/api/games/{id}/move", games::play)
        .post("/api/games/{id}/resign", games::resign)
        .post("/api/games/{id}/draw", games::draw)
        .post("/api/games/{id}/takeback", games::takeback)
        .get("/api/time", time::now)
        .post("/api/games/{id}/rematch", games::rematch)
        .get("/api/games/{id}/claim", games::claimable)
        .post("/api/games/{id}/claim", games::claim)
        .get("/api/games/{id}/forecasts", forecasts::read)
        .post("/api/games/{id}/forecasts", forecasts::replace)
        .post("/api/games/{id}/analysis", review::request)
        .get("/api/games/{id}/analysis", review::read)
        .get("/api/games/{id}/ws", socket::upgrade)
        .get("/api/analysis", analysis::load)
        .get("/api/analysis/ws", analysis::upgrade)
        .post("/api/analysis/position", positions::position)
        .get("/api/me", lobby::me)
        .post("/api/me", lobby::rename)
        .get("/api/seeks", lobby::seeks)
        .post("/api/seeks", lobby::create)
        .delete("/api/seeks/{id}", lobby::cancel)
        .post("/api/seeks/{id}/accept", lobby::accept)
        .get("/api/lobby/ws", lobby::upgrade)
        .post("/api/register", accounts::register)
        .post("/api/login", accounts::login)
        .post("/api/logout", accounts::logout)
        .get("/api/account", accounts::account)
        .get("/api/session", accounts::session)
        .get("/api/account/playing", accounts::playing)
        .get("/api/account/export", accounts::export)
        .post("/api/account/close", accounts::close)
        .post("/api/account/passkeys/start", passkeys::register_start)
        .post("/api/account/passkeys/finish", passkeys::register_finish)
        .post("/api/login/passkey/start", passkeys::login_start)
        .post("/api/login/passkey/finish", passkeys::login_finish)
        .get("/api/user/{username}", ratings::user)
        .get("/api/user/{username}/rating-history", ratings::rating_history)
        .get("/api/games/user/{username}", ratings::user_games)
        .post("/api/rel/block/{username}", relations::block)
        .post("/api/rel/unblock/{username}", relations::unblock)
        .get("/api/learn", learn::lessons)
        .get("/api/learn/progress", learn::progress)
        .post("/api/learn/progress", learn::keep_progress)
        .get("/api/learn/{id}", learn::lesson)
        .post("/api/learn/{id}/{step}", learn::try_step)
        .get("/api/puzzle/next", learn::next)
        .get("/api/puzzle/{id}", learn::puzzle)
        .post("/api/puzzle/batch/{variant}", learn::batch)
        .get("/api/player/top/{nb}/{variant}", ratings::leaderboard)
        .get("/api/notifications", notifications::list)
        .post("/api/notifications/read", notifications::read)
        .get("/api/notifications/ws", notifications::upgrade)
        .get("/api/account/email", notifications::email)
        .post("/api/account/email", notifications::set_email)
        .post("/api/password-reset", notifications::reset)
        .post("/api/password-reset/finish", notifications::finish_reset)
        .get("/api/tokens", lichess::list_tokens)
        .post("/api/tokens", lichess::create_token)
        .delete("/api/tokens/{id}", lichess::revoke_token)
        .delete("/api/token", lichess::revoke_own_token)
        .post("/api/bot/account/upgrade", lichess::upgrade)
        .get("/tournaments", pages::page)
        .get("/tournament/{id}", pages::page)
        .get("/api/tournament", tournaments::list)
        .post("/api/tournament", tournaments::create)
        .get("/api/tournament/{id}", tournaments::read)
        .post("/api/tournament/{id}/join", tournaments::join)
        .post("/api/tournament/{id}/withdraw", tournaments::withdraw)
        .post("/api/tournament/{id}/berserk", tournaments::berserk)
        .get("/api/tournament/{id}/stream", tournaments::stream)
        .get("/api/challenge", challenges::list)
        .post("/api/challenge/ai", challenges::computer)
        .post("/api/challenge/{username}", challenges::create)
        .post("/api/challenge/{id}/accept", challenges::accept)
        .post("/api/challenge/{id}/decline", challenges::decline)
        .post("/api/challenge/{id}/cancel", challenges::cancel)
        .get("/api/challenge/{id}/show", challenges::show)
        .get("/api/stream/event", board::event_stream)
        .get("/api/bot/game/stream/{id}", board::bot_game_stream)
        .post("/api/bot/game/{id}/move/{move}", board::bot_move)
        .post("/api/bot/game/{id}/resign", board::bot_resign)
        .post("/api/bot/game/{id}/abort", board::bot_abort)
        .post("/api/bot/game/{id}/draw/{accept}", board::bot_draw)
        .post("/api/bot/game/{id}/takeback/{accept}", board::bot_takeback)
        .get("/api/board/game/stream/{id}", board::board_game_stream)
        .post("/api/board/game/{id}/move/{move}", board::board_move)
        .post("/api/board/game/{id}/resign", board::board_resign)
        .post("/api/board/game/{id}/abort", board::board_abort)
        .post("/api/board/game/{id}/draw/{accept}", board::board_draw)
        .post("/api/board/game/{id}/takeback/{accept}", board::board_takeback)
}

/// Every route the server answers (a GET route answers HEAD too).
pub fn routes() -> Vec<Route> {
    table().routes
}

/// All routes of the server over `hub`, for pages of its own origin.
pub fn router(hub: Arc<Hub>) -> Router {
    router_allowing(hub, AllowedOrigins::default())
}

/// [`router`], also taking changes from pages of the `allowed` origins.
pub fn router_allowing(hub: Arc<Hub>, allowed: AllowedOrigins) -> Router {
    router_with(hub, Operations::new(Vec::new()), allowed, Accounts::default())
}

/// [`router_allowing`] with a node's operations state (`menagerie serve`:
/// draining, restarting, trusted proxies) and the account routes' settings
/// (`Secure` cookies).
pub fn router_with(hub: Arc<Hub>, operations: Arc<Operations>, allowed: AllowedOrigins, accounts: Accounts) -> Router {
    router_reviewing(hub, operations, allowed, accounts, Arc::new(Reviews::default()))
}

/// [`router_with`] whose game reviews are `reviews`' (tests: a small
/// search budget).
pub fn router_reviewing(
    hub: Arc<Hub>,
    operations: Arc<Operations>,
    allowed: AllowedOrigins,
    accounts: Accounts,
    reviews: Arc<Reviews>,
) -> Router {
    let lobby = Lobby::new(
        Arc::clone(&hub),
        Some(Arc::clone(&operations) as _),
        crate::lobby::GRACE,
        crate::lobby::LISTED_IDLE,
    );
    let protections = Arc::new(protections::Protections::new(&allowed));
    table()
        .router
        // Every route, before its handler: no change from another origin.
        .route_layer(middleware::from_fn_with_state(Arc::new(allowed), origin::guard))
        .fallback(|| async { ApiError::not_found("no such page") })
        // Every answer, the fallback's and the refusals' too.
        .layer(middleware::from_fn_with_state(protections, protections::apply))
        .layer(DefaultBodyLimit::max(listen::MAX_BODY))
        .layer(Extension(Arc::new(Analyst::default())))
        .layer(Extension(lobby))
        .layer(Extension(Arc::new(crate::puzzles::Puzzles::default())))
        .layer(Extension(reviews))
        .layer(Extension(Arc::new(accounts)))
        .layer(middleware::from_fn(ops::observe))
        .layer(middleware::from_fn(ops::forwarded_client))
        .layer(Extension(operations))
        .with_state(hub)
}

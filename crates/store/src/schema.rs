//! The schema's migrations written once for both databases (the rules of
//! [`super::sql`]). They follow each backend's own first migrations (the
//! games, written per dialect before this layer existed): migration
//! `backend's count + 1 + i` is `MIGRATIONS[i]` on both. Never edit one
//! that has shipped; add the next.

pub const MIGRATIONS: &[&str] = &[
    // Accounts, their sessions, and who holds each seat.
    // - accounts: `id` is random and never changes (what other tables refer
    //   to: sessions, seats, ratings); `username_key` is the name in lower
    //   case, unique, kept after the account is closed (a name is never
    //   taken again, as on lichess); `password` is an Argon2id hash (PHC
    //   string), NULL once closed; times are ms since the epoch.
    // - sessions: `id` is the SHA-256 (hex) of the cookie's token, so a copy
    //   of the database opens no session.
    // - seat_holders: who took each seat of a game: the browser (SHA-256 of
    //   its anonymous id), and the account if it was logged in or signed up
    //   since.
    "
CREATE TABLE accounts (
    id           TEXT PRIMARY KEY,
    username     TEXT NOT NULL,
    username_key TEXT NOT NULL UNIQUE,
    password     TEXT,
    created      BIGINT NOT NULL,
    closed       BIGINT
);
CREATE TABLE sessions (
    id       TEXT PRIMARY KEY,
    account  TEXT NOT NULL REFERENCES accounts(id),
    created  BIGINT NOT NULL,
    seen     BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions(account);
CREATE TABLE seat_holders (
    game     TEXT NOT NULL REFERENCES games(id),
    seat     BIGINT NOT NULL,
    player   TEXT,
    account  TEXT REFERENCES accounts(id),
    PRIMARY KEY (game, seat)
);
CREATE INDEX seat_holders_player ON seat_holders(player);
CREATE INDEX seat_holders_account ON seat_holders(account);
",
    // Passkeys (WebAuthn) and the ceremonies between their two requests.
    // - passkeys: `id` is the credential id (hex); `user_handle` the
    //   WebAuthn user id of the account (a UUID), which a passkey login
    //   presents; `credential` the passkey as webauthn-rs serialises it.
    // - ceremonies: a registration or login begun and not yet finished (any
    //   node may take the second request); `account` is NULL for a login.
    "
CREATE TABLE passkeys (
    id           TEXT PRIMARY KEY,
    account      TEXT NOT NULL REFERENCES accounts(id),
    user_handle  TEXT NOT NULL,
    credential   TEXT NOT NULL,
    created      BIGINT NOT NULL
);
CREATE INDEX passkeys_account ON passkeys(account);
CREATE TABLE ceremonies (
    id       TEXT PRIMARY KEY,
    account  TEXT REFERENCES accounts(id),
    state    TEXT NOT NULL,
    created  BIGINT NOT NULL
);
",
    // Ratings (Glicko-2 per variant id, store/ratings.rs) and results.
    // - results: how each game ended, written in the transaction that ends
    //   it: `outcome` is `first`, `second` or `draw`; `ended` ms.
    // - rated_games: the games asked to be rated, and under which variant id
    //   (`perf`); once ended `status` is `rated`, or `aborted` (too few
    //   moves, or a seat not an account's: no rating changes), with each
    //   seat's player, rating before and change.
    // - ratings: each player's rating per variant id: `player` is an
    //   account's id or `computer:<level>`; `last_game` ms of the last rated
    //   game (the deviation grows from it); counts of rated games.
    // - rating_history: each player's rating after each rated game.
    "
CREATE TABLE results (
    game     TEXT PRIMARY KEY REFERENCES games(id),
    outcome  TEXT NOT NULL,
    ended    BIGINT NOT NULL
);
CREATE TABLE rated_games (
    game     TEXT PRIMARY KEY REFERENCES games(id),
    perf     TEXT NOT NULL,
    status   TEXT,
    player0  TEXT,
    player1  TEXT,
    before0  DOUBLE PRECISION,
    before1  DOUBLE PRECISION,
    rd0      DOUBLE PRECISION,
    rd1      DOUBLE PRECISION,
    diff0    BIGINT,
    diff1    BIGINT
);
CREATE TABLE ratings (
    player      TEXT NOT NULL,
    perf        TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    rd          DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    games       BIGINT NOT NULL,
    wins        BIGINT NOT NULL,
    losses      BIGINT NOT NULL,
    draws       BIGINT NOT NULL,
    last_game   BIGINT NOT NULL,
    PRIMARY KEY (player, perf)
);
CREATE INDEX ratings_perf ON ratings(perf, rating);
CREATE TABLE rating_history (
    player      TEXT NOT NULL,
    perf        TEXT NOT NULL,
    game        TEXT NOT NULL REFERENCES games(id),
    rating      DOUBLE PRECISION NOT NULL,
    rd          DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    at          BIGINT NOT NULL,
    PRIMARY KEY (player, game)
);
CREATE INDEX rating_history_player ON rating_history(player, perf, at);
",
    // Notifications, e-mail addresses and password resets.
    // - accounts.email: where the account's notifications and password
    //   reset links go (NULL: none; never shown to anyone else).
    // - notifications: what an account is told (`kind`: your-move,
    //   time-low, ...), newest first; `topic` makes telling twice the same
    //   thing (a move's notice, from whichever node) a no-op; `seen` is
    //   when the account read it.
    // - password_resets: `id` is the SHA-256 (hex) of the link's token; a
    //   reset is used once (`used`) and expires.
    "
ALTER TABLE accounts ADD COLUMN email TEXT;
CREATE TABLE notifications (
    id       TEXT PRIMARY KEY,
    account  TEXT NOT NULL REFERENCES accounts(id),
    topic    TEXT NOT NULL,
    kind     TEXT NOT NULL,
    game     TEXT,
    body     TEXT NOT NULL,
    created  BIGINT NOT NULL,
    seen     BIGINT,
    UNIQUE (account, topic)
);
CREATE INDEX notifications_account ON notifications(account, created);
CREATE TABLE password_resets (
    id       TEXT PRIMARY KEY,
    account  TEXT NOT NULL REFERENCES accounts(id),
    created  BIGINT NOT NULL,
    expires  BIGINT NOT NULL,
    used     BIGINT
);
",
    // Conditional moves of correspondence games: `lines` is a JSON list of
    // lines (lists of move texts) a seat queued while its opponent is to
    // move.
    "
CREATE TABLE forecasts (
    game     TEXT NOT NULL REFERENCES games(id),
    seat     BIGINT NOT NULL,
    lines    TEXT NOT NULL,
    updated  BIGINT NOT NULL,
    PRIMARY KEY (game, seat)
);
",
    // Personal API tokens (the bot and board API) and bot accounts.
    // - api_tokens: `id` is the SHA-256 (hex) of the token, as for
    //   sessions; `handle` the public id it is listed and revoked by;
    //   `scopes` space-separated (`bot:play board:play`); times in ms.
    // - bots: the accounts upgraded to bots (lichess's `BOT` title), kept
    //   apart from `accounts` so that an upgrade is one row.
    "
CREATE TABLE api_tokens (
    id           TEXT PRIMARY KEY,
    handle       TEXT NOT NULL UNIQUE,
    account      TEXT NOT NULL REFERENCES accounts(id),
    description  TEXT NOT NULL,
    scopes       TEXT NOT NULL,
    created      BIGINT NOT NULL
);
CREATE INDEX api_tokens_account ON api_tokens(account);
CREATE TABLE bots (
    account   TEXT PRIMARY KEY REFERENCES accounts(id),
    upgraded  BIGINT NOT NULL
);
",
    // The lobby, shared by every node: open seeks, the games started from
    // them while they are played, and the messages waiting for a seek's
    // creator (its started game) on whichever node its lobby socket is.
    // - seeks: `creator` is the SHA-256 (hex) of the creator's browser id;
    //   `body` the seek's request (JSON); `alive_until` (ms) is renewed
    //   while a lobby socket of the creator is open on some node.
    // - lobby_games: `seats` as JSON; `listed` when it started (ms).
    // - lobby_messages: `player` as `seeks.creator`.
    "
CREATE TABLE seeks (
    id           TEXT PRIMARY KEY,
    creator      TEXT NOT NULL,
    account      TEXT,
    name         TEXT NOT NULL,
    address      TEXT,
    body         TEXT NOT NULL,
    rated        BIGINT NOT NULL,
    rating_range TEXT,
    rating       BIGINT,
    provisional  BIGINT,
    created      BIGINT NOT NULL,
    alive_until  BIGINT NOT NULL
);
CREATE INDEX seeks_creator ON seeks(creator);
CREATE TABLE lobby_games (
    id       TEXT PRIMARY KEY REFERENCES games(id),
    variant  TEXT NOT NULL,
    seats    TEXT NOT NULL,
    rated    BIGINT NOT NULL,
    listed   BIGINT NOT NULL
);
CREATE TABLE lobby_messages (
    id       TEXT PRIMARY KEY,
    player   TEXT NOT NULL,
    message  TEXT NOT NULL,
    created  BIGINT NOT NULL
);
CREATE INDEX lobby_messages_player ON lobby_messages(player);
",
    // When each seat of a game was last seen by any node (ms), for
    // abandonment claims.
    "
CREATE TABLE seat_presence (
    game  TEXT NOT NULL REFERENCES games(id),
    seat  BIGINT NOT NULL,
    seen  BIGINT NOT NULL,
    PRIMARY KEY (game, seat)
);
",
    // Challenges (lichess's): one account asks another for a game.
    // - `challenger`, `dest`: account ids; `colour` the challenger's
    //   choice (`white`, `black`, `random`); `clock` a time control's
    //   stored form (`fischer:300000+2000`, `days:3`), NULL for unlimited;
    //   `status` `created`, `accepted`, `declined` or `canceled`;
    //   `reason` a decline's key; `game` the game an acceptance started;
    //   times in ms (`expires`: an unanswered challenge ends then).
    "
CREATE TABLE challenges (
    id          TEXT PRIMARY KEY,
    challenger  TEXT NOT NULL REFERENCES accounts(id),
    dest        TEXT NOT NULL REFERENCES accounts(id),
    variant     TEXT NOT NULL,
    rated       BIGINT NOT NULL,
    clock       TEXT,
    colour      TEXT NOT NULL,
    status      TEXT NOT NULL,
    reason      TEXT,
    game        TEXT,
    created     BIGINT NOT NULL,
    expires     BIGINT NOT NULL
);
CREATE INDEX challenges_challenger ON challenges(challenger);
CREATE INDEX challenges_dest ON challenges(dest);
",
    // Tournaments (arena and round robin; crate::tournament runs them).
    // - tournaments: `kind` arena | round_robin; `clock` a time control's
    //   stored form; `minutes` an arena's length, `rounds` a round robin's
    //   (NULL: everyone meets everyone); `password` an Argon2id hash or
    //   NULL; `status` created | started | finished; times in ms.
    // - tournament_entrants: who joined, in order (`seed`); `withdrawn` is
    //   when they left (NULL: playing).
    // - tournament_games: every pairing, stored before its game is
    //   created (the game's id is chosen here, so a node taking over
    //   creates a game its predecessor reserved and did not start);
    //   `outcome` first | second | draw once scored, with the moves each
    //   side made; `berserk0/1` the sides that halved their clock.
    // - tournament_slots: each player's n-th game of a tournament, once:
    //   two nodes can never pair one player twice from the same standings.
    "
CREATE TABLE tournaments (
    id          TEXT PRIMARY KEY,
    kind        TEXT NOT NULL,
    name        TEXT NOT NULL,
    variant     TEXT NOT NULL,
    clock       TEXT NOT NULL,
    minutes     BIGINT,
    rounds      BIGINT,
    starts_at   BIGINT NOT NULL,
    password    TEXT,
    creator     TEXT NOT NULL REFERENCES accounts(id),
    status      TEXT NOT NULL,
    berserk     BIGINT NOT NULL,
    created     BIGINT NOT NULL,
    started     BIGINT,
    finished    BIGINT
);
CREATE INDEX tournaments_status ON tournaments(status, starts_at);
CREATE TABLE tournament_entrants (
    tournament  TEXT NOT NULL REFERENCES tournaments(id),
    account     TEXT NOT NULL REFERENCES accounts(id),
    seed        BIGINT NOT NULL,
    joined      BIGINT NOT NULL,
    withdrawn   BIGINT,
    PRIMARY KEY (tournament, account)
);
CREATE TABLE tournament_games (
    game        TEXT PRIMARY KEY,
    tournament  TEXT NOT NULL REFERENCES tournaments(id),
    round       BIGINT NOT NULL,
    first       TEXT NOT NULL REFERENCES accounts(id),
    second      TEXT NOT NULL REFERENCES accounts(id),
    paired      BIGINT NOT NULL,
    berserk0    BIGINT NOT NULL,
    berserk1    BIGINT NOT NULL,
    outcome     TEXT,
    moves0      BIGINT,
    moves1      BIGINT
);
CREATE INDEX tournament_games_tournament ON tournament_games(tournament, paired);
CREATE TABLE tournament_slots (
    tournament  TEXT NOT NULL REFERENCES tournaments(id),
    account     TEXT NOT NULL REFERENCES accounts(id),
    nth         BIGINT NOT NULL,
    game        TEXT NOT NULL,
    PRIMARY KEY (tournament, account, nth)
);
",
    // Limits against floods, blocks between accounts, and the browsers an
    // account logged in from.
    // - limit_hits: one row per request a limit counts (crate::limits):
    //   `name` the limit's, `actor` the SHA-256 (hex) of whom it counts (an
    //   account, an address, a name, a device), `at` ms. Rows older than
    //   the longest window are deleted as new ones come.
    // - limit_keys: one row per limit and actor, locked by the transaction
    //   that counts a request: two nodes counting one actor at once count
    //   one after the other.
    // - blocks: `blocker` blocked `blocked` (account ids) at `created` ms.
    // - devices: OWASP's device cookies: `id` is the SHA-256 (hex) of a
    //   browser's device token, `account` an account that logged in with
    //   it (its failed logins are counted apart from strangers').
    "
CREATE TABLE limit_hits (
    id     TEXT PRIMARY KEY,
    name   TEXT NOT NULL,
    actor  TEXT NOT NULL,
    at     BIGINT NOT NULL
);
CREATE INDEX limit_hits_key ON limit_hits(name, actor, at);
CREATE INDEX limit_hits_at ON limit_hits(at);
CREATE TABLE limit_keys (
    name     TEXT NOT NULL,
    actor    TEXT NOT NULL,
    touched  BIGINT NOT NULL,
    PRIMARY KEY (name, actor)
);
CREATE INDEX limit_keys_touched ON limit_keys(touched);
CREATE TABLE blocks (
    blocker  TEXT NOT NULL REFERENCES accounts(id),
    blocked  TEXT NOT NULL REFERENCES accounts(id),
    created  BIGINT NOT NULL,
    PRIMARY KEY (blocker, blocked)
);
CREATE INDEX blocks_blocked ON blocks(blocked);
CREATE TABLE devices (
    id       TEXT NOT NULL,
    account  TEXT NOT NULL REFERENCES accounts(id),
    created  BIGINT NOT NULL,
    seen     BIGINT NOT NULL,
    PRIMARY KEY (id, account)
);
CREATE INDEX devices_account ON devices(account);
",
    // Puzzles, mined from played games (`menagerie puzzles`), and how they
    // are played.
    // - puzzles: `position` is the position text before the solver's first
    //   move; `solution` and `themes` JSON arrays of texts; `source` the
    //   JSON of where it was mined; its Glicko-2 rating (`rating`,
    //   `deviation`, `volatility`) and how many rated rounds it had.
    // - puzzle_ratings: an account's puzzle rating in a variant.
    // - puzzle_rounds: an account's try of a puzzle (the first only: it is
    //   the rated one), `win` 1 if solved, the rating change it made, `at` ms.
    "
CREATE TABLE puzzles (
    id          TEXT PRIMARY KEY,
    variant     TEXT NOT NULL,
    position    TEXT NOT NULL,
    solution    TEXT NOT NULL,
    themes      TEXT NOT NULL,
    source      TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    plays       BIGINT NOT NULL
);
CREATE INDEX puzzles_rating ON puzzles(variant, rating);
CREATE TABLE puzzle_ratings (
    account     TEXT NOT NULL REFERENCES accounts(id),
    variant     TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    plays       BIGINT NOT NULL,
    PRIMARY KEY (account, variant)
);
CREATE TABLE puzzle_rounds (
    account     TEXT NOT NULL REFERENCES accounts(id),
    puzzle      TEXT NOT NULL REFERENCES puzzles(id),
    win         BIGINT NOT NULL,
    rating_diff BIGINT NOT NULL,
    at          BIGINT NOT NULL,
    PRIMARY KEY (account, puzzle)
);
",
    // Lessons (data/lessons/): how far an account has come in each, the
    // number of its steps done (it only grows), and when (`at`, ms).
    "
CREATE TABLE lesson_progress (
    account     TEXT NOT NULL REFERENCES accounts(id),
    lesson      TEXT NOT NULL,
    steps       BIGINT NOT NULL,
    at          BIGINT NOT NULL,
    PRIMARY KEY (account, lesson)
);
",
    // Computer reviews of finished games (`POST /api/games/<id>/analysis`).
    // - game_reviews: `review` is the JSON the API answers, written once
    //   when the review ends (a review is deterministic, a node budget per
    //   position, so a second would not differ); `created` ms. A game is
    //   never deleted, so neither is its review.
    "
CREATE TABLE game_reviews (
    game     TEXT PRIMARY KEY REFERENCES games(id),
    review   TEXT NOT NULL,
    created  BIGINT NOT NULL
);
",
];

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
];

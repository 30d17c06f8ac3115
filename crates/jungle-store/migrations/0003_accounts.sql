-- Accounts: a name as typed, its lowercase key (unique, so names differ by more than case) and an argon2id
-- hash in PHC form.
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

-- Signed-in browsers. Only a SHA-256 of each session token is kept, so a copy of the database signs nobody in.
-- A session is revoked by deleting its row (log out; every session of the account on a password change).
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_by_user ON sessions(user_id);
CREATE INDEX sessions_by_expiry ON sessions(expires_at);

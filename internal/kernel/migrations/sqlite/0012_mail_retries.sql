-- Owner notifications waiting for another attempt (see the PostgreSQL
-- migration of the same number).
CREATE TABLE mail_retries (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    message_sealed  BLOB NOT NULL,
    attempts        INTEGER NOT NULL,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT NOT NULL,
    created_at      INTEGER NOT NULL
);
CREATE INDEX mail_retries_due ON mail_retries(next_attempt_at, id);

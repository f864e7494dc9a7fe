-- The outbox row of an event staged at emit carries no payload: the
-- pending message written in the same transaction holds it, and the
-- dispatcher reads the data only of rows it claims, never of a staged one
-- (which is written done). The check keeps every other row's payload, so
-- a row that can still be claimed always has one.
-- SQLite cannot drop a NOT NULL, so outbox is rebuilt with its rows, ids
-- and indexes; no table references it. Its AUTOINCREMENT counter is
-- carried over, so an id is never handed out twice even when the newest
-- rows were purged.
CREATE TABLE outbox_rebuilt (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id        TEXT NOT NULL UNIQUE,
    bot_id          TEXT NOT NULL REFERENCES bots(id),
    event_type      TEXT NOT NULL,
    data            TEXT, -- NULL: staged at emit, the payload is in the pending message
    created_at      INTEGER NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL DEFAULT 0,
    lease_owner     TEXT,
    done_at         INTEGER,
    outcome         TEXT,
    CONSTRAINT outbox_payload CHECK (data IS NOT NULL OR (outcome IS NOT NULL AND outcome = 'staged'))
);
INSERT INTO outbox_rebuilt (id, event_id, bot_id, event_type, data, created_at, attempts, next_attempt_at, lease_owner, done_at, outcome)
SELECT id, event_id, bot_id, event_type, data, created_at, attempts, next_attempt_at, lease_owner, done_at, outcome FROM outbox ORDER BY id;
CREATE TABLE outbox_sequence_kept AS SELECT seq FROM sqlite_sequence WHERE name = 'outbox';
DROP TABLE outbox;
ALTER TABLE outbox_rebuilt RENAME TO outbox;
DELETE FROM sqlite_sequence WHERE name = 'outbox';
INSERT INTO sqlite_sequence (name, seq) SELECT 'outbox', seq FROM outbox_sequence_kept;
DROP TABLE outbox_sequence_kept;
CREATE INDEX outbox_bot ON outbox(bot_id, id);
CREATE INDEX outbox_due ON outbox(next_attempt_at, id) WHERE done_at IS NULL;
CREATE INDEX outbox_done ON outbox(done_at) WHERE done_at IS NOT NULL;

-- Event delivery (issue 4). An outbox row is due while done_at IS NULL and
-- next_attempt_at <= now; claiming it moves next_attempt_at to the end of a
-- lease and names the claimant, so a crashed dispatcher's rows come back
-- when the lease runs out.
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN next_attempt_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN lease_owner TEXT;
ALTER TABLE outbox ADD COLUMN done_at INTEGER;
ALTER TABLE outbox ADD COLUMN outcome TEXT;
CREATE INDEX outbox_due ON outbox(next_attempt_at, id) WHERE done_at IS NULL;
CREATE INDEX outbox_done ON outbox(done_at) WHERE done_at IS NOT NULL;

CREATE INDEX pending_messages_expiry ON pending_messages(expires_at);
CREATE INDEX pending_messages_acked ON pending_messages(acked_at) WHERE acked_at IS NOT NULL;

-- A live managed-tunnel client: the replica serving it refreshes seen_at.
CREATE TABLE tunnel_sessions (
    bot_id       TEXT PRIMARY KEY REFERENCES bots(id),
    session_id   TEXT NOT NULL,
    connected_at INTEGER NOT NULL,
    seen_at      INTEGER NOT NULL
);

-- Deliveries handed to a tunnel client: queued by any replica's dispatcher,
-- claimed by the replica holding the client's long poll, answered by the
-- client.
CREATE TABLE tunnel_requests (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    bot_id      TEXT NOT NULL REFERENCES bots(id),
    path        TEXT NOT NULL,
    headers     TEXT NOT NULL,
    body        TEXT NOT NULL,
    state       TEXT NOT NULL,
    status_code INTEGER,
    error       TEXT,
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    answered_at INTEGER
);
CREATE INDEX tunnel_requests_queue ON tunnel_requests(bot_id, state, id);

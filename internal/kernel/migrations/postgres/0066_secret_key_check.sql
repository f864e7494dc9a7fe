-- Replicas agree on their secret key: the first service to start records a
-- digest derived from its key (never the key), and a service whose key
-- derives another digest refuses to start instead of failing to open what
-- the others sealed.
CREATE TABLE secret_key_check (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    digest     TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- Owner notifications held back by the per-bot and per-address daily
-- limits: one row per recipient address, with how many were held, sent as
-- one summary (counts only, no bot's text) when due_at passes.
CREATE TABLE owner_mail_digests (
    recipient  TEXT PRIMARY KEY,
    held       BIGINT NOT NULL,
    first_held_at BIGINT NOT NULL,
    due_at     BIGINT NOT NULL
);
CREATE INDEX owner_mail_digests_due ON owner_mail_digests(due_at);

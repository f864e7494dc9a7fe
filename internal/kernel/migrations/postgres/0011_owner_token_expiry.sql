-- Dashboard sessions end on the server, not only in the browser: a token
-- issued for a session carries the time it stops authenticating (30 days,
-- the cookie's lifetime). Owner API tokens keep none (NULL) and live until
-- revoked, as before.
ALTER TABLE owner_tokens ADD COLUMN expires_at BIGINT;

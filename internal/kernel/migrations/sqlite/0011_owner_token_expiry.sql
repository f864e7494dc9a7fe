-- Dashboard session tokens expire on the server (see the PostgreSQL
-- migration of the same number).
ALTER TABLE owner_tokens ADD COLUMN expires_at INTEGER;

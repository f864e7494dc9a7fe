-- Procurement controls bind the recipient of a signature: the owner's
-- allow-list of 0x addresses a bot may sign payments to (JSON array of
-- EIP-55 addresses; empty allows every recipient the other lists allow).
ALTER TABLE procurement ADD COLUMN allowed_recipients TEXT NOT NULL DEFAULT '[]';

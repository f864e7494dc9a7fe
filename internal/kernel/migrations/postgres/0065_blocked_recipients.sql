-- Procurement block-lists bind the recipient too: the owner's list of 0x
-- addresses a bot may never sign payments to, whatever resource it names
-- (JSON array of EIP-55 addresses; empty blocks none).
ALTER TABLE procurement ADD COLUMN blocked_recipients TEXT NOT NULL DEFAULT '[]';

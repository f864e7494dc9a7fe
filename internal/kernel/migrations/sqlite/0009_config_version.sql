-- A bot's spending configuration (its guardrails, its owner's master
-- guardrails, its procurement controls, its cards and their payment
-- profiles) is versioned on its wallet: every change to one of those rows
-- bumps wallets.config_version in the same transaction, by trigger, so no
-- write path can forget it. A checkout keeps the configuration it read in
-- memory under (wallet, version) and reads it again only when the version
-- it finds under the wallet lock differs (store/checkout_config.go). The
-- bump takes the wallet's row lock, so a configuration change commits
-- between two checkouts of the bot, never during one.
-- SQLite has no trigger functions: one trigger per table and operation.
ALTER TABLE wallets ADD COLUMN config_version BIGINT NOT NULL DEFAULT 0;

CREATE TRIGGER guardrails_config_insert AFTER INSERT ON guardrails BEGIN
	UPDATE wallets SET config_version = config_version + 1 WHERE bot_id = NEW.bot_id;
END;

CREATE TRIGGER guardrails_config_update AFTER UPDATE ON guardrails BEGIN
	UPDATE wallets SET config_version = config_version + 1 WHERE bot_id = NEW.bot_id;
END;

CREATE TRIGGER guardrails_config_delete AFTER DELETE ON guardrails BEGIN
	UPDATE wallets SET config_version = config_version + 1 WHERE bot_id = OLD.bot_id;
END;

CREATE TRIGGER procurement_config_insert AFTER INSERT ON procurement BEGIN
	UPDATE wallets SET config_version = config_version + 1 WHERE bot_id = NEW.bot_id;
END;

CREATE TRIGGER procurement_config_update AFTER UPDATE ON procurement BEGIN
	UPDATE wallets SET config_version = config_version + 1 WHERE bot_id = NEW.bot_id;
END;

CREATE TRIGGER procurement_config_delete AFTER DELETE ON procurement BEGIN
	UPDATE wallets SET config_version = config_version + 1 WHERE bot_id = OLD.bot_id;
END;

CREATE TRIGGER cards_config_insert AFTER INSERT ON cards BEGIN
	UPDATE wallets SET config_version = config_version + 1 WHERE bot_id = NEW.bot_id;
END;

CREATE TRIGGER cards_config_update AFTER UPDATE ON cards BEGIN
	UPDATE wallets SET config_version = config_version + 1 WHERE bot_id = NEW.bot_id;
END;

CREATE TRIGGER cards_config_delete AFTER DELETE ON cards BEGIN
	UPDATE wallets SET config_version = config_version + 1 WHERE bot_id = OLD.bot_id;
END;

CREATE TRIGGER master_guardrails_config_insert AFTER INSERT ON master_guardrails BEGIN
	UPDATE wallets SET config_version = config_version + 1 WHERE bot_id IN (SELECT id FROM bots WHERE owner_id = NEW.owner_id);
END;

CREATE TRIGGER master_guardrails_config_update AFTER UPDATE ON master_guardrails BEGIN
	UPDATE wallets SET config_version = config_version + 1 WHERE bot_id IN (SELECT id FROM bots WHERE owner_id = NEW.owner_id);
END;

CREATE TRIGGER master_guardrails_config_delete AFTER DELETE ON master_guardrails BEGIN
	UPDATE wallets SET config_version = config_version + 1 WHERE bot_id IN (SELECT id FROM bots WHERE owner_id = OLD.owner_id);
END;

CREATE TRIGGER card_profiles_config_insert AFTER INSERT ON card_profiles BEGIN
	UPDATE wallets SET config_version = config_version + 1 WHERE bot_id = (SELECT bot_id FROM cards WHERE id = NEW.card_id);
END;

CREATE TRIGGER card_profiles_config_update AFTER UPDATE ON card_profiles BEGIN
	UPDATE wallets SET config_version = config_version + 1 WHERE bot_id = (SELECT bot_id FROM cards WHERE id = NEW.card_id);
END;

CREATE TRIGGER card_profiles_config_delete AFTER DELETE ON card_profiles BEGIN
	UPDATE wallets SET config_version = config_version + 1 WHERE bot_id = (SELECT bot_id FROM cards WHERE id = OLD.card_id);
END;

CREATE TRIGGER bots_owner_config AFTER UPDATE OF owner_id ON bots BEGIN
	UPDATE wallets SET config_version = config_version + 1 WHERE bot_id = NEW.id;
END;

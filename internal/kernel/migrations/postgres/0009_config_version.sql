-- A bot's spending configuration (its guardrails, its owner's master
-- guardrails, its procurement controls, its cards and their payment
-- profiles) is versioned on its wallet: every change to one of those rows
-- bumps wallets.config_version in the same transaction, by trigger, so no
-- write path can forget it. A checkout keeps the configuration it read in
-- memory under (wallet, version) and reads it again only when the version
-- it finds under the wallet lock differs (store/checkout_config.go). The
-- bump takes the wallet's row lock, so a configuration change commits
-- between two checkouts of the bot, never during one.
ALTER TABLE wallets ADD COLUMN config_version BIGINT NOT NULL DEFAULT 0;

CREATE FUNCTION bump_config_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	r RECORD;
BEGIN
	IF TG_OP = 'DELETE' THEN
		r := OLD;
	ELSE
		r := NEW;
	END IF;
	IF TG_TABLE_NAME = 'master_guardrails' THEN
		UPDATE wallets SET config_version = config_version + 1
			WHERE bot_id IN (SELECT id FROM bots WHERE owner_id = r.owner_id);
	ELSIF TG_TABLE_NAME = 'card_profiles' THEN
		UPDATE wallets SET config_version = config_version + 1
			WHERE bot_id = (SELECT bot_id FROM cards WHERE id = r.card_id);
	ELSIF TG_TABLE_NAME = 'bots' THEN
		UPDATE wallets SET config_version = config_version + 1 WHERE bot_id = r.id;
	ELSE
		UPDATE wallets SET config_version = config_version + 1 WHERE bot_id = r.bot_id;
	END IF;
	RETURN NULL;
END
$$;

CREATE TRIGGER guardrails_config AFTER INSERT OR UPDATE OR DELETE ON guardrails
	FOR EACH ROW EXECUTE FUNCTION bump_config_version();
CREATE TRIGGER master_guardrails_config AFTER INSERT OR UPDATE OR DELETE ON master_guardrails
	FOR EACH ROW EXECUTE FUNCTION bump_config_version();
CREATE TRIGGER procurement_config AFTER INSERT OR UPDATE OR DELETE ON procurement
	FOR EACH ROW EXECUTE FUNCTION bump_config_version();
CREATE TRIGGER cards_config AFTER INSERT OR UPDATE OR DELETE ON cards
	FOR EACH ROW EXECUTE FUNCTION bump_config_version();
CREATE TRIGGER card_profiles_config AFTER INSERT OR UPDATE OR DELETE ON card_profiles
	FOR EACH ROW EXECUTE FUNCTION bump_config_version();
CREATE TRIGGER bots_owner_config AFTER UPDATE OF owner_id ON bots
	FOR EACH ROW EXECUTE FUNCTION bump_config_version();

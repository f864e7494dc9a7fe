package payments

import (
	"database/sql"
	"encoding/json"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// signer is what a signing request is judged and signed with, read in one
// statement: the wallet's address and sealed key, the bot's freeze, its
// limits and approval settings, the owner's master guardrails (nil when
// unset) and its procurement controls. Categories are not read: a signing
// request names none.
type signer struct {
	frozen      bool
	wallet      botpay.ProcessorWallet
	guardrails  botpay.Guardrails
	master      *botpay.MasterGuardrails
	procurement botpay.Procurement
}

// procurementLists are the lists of a LEFT JOIN procurement p, in the
// order of listsOf, parsed by parseProcurement (NULL: no controls).
const procurementLists = `p.allowed_domains, p.blocked_domains, p.allowed_merchants, p.blocked_merchants, p.allowed_recipients,
	p.blocked_recipients`

const procurementListCount = 6

func listsOf(p *botpay.Procurement) [procurementListCount]*[]string {
	return [...]*[]string{&p.AllowedDomains, &p.BlockedDomains, &p.AllowedMerchants, &p.BlockedMerchants, &p.AllowedRecipients,
		&p.BlockedRecipients}
}

func parseProcurement(lists [procurementListCount]sql.NullString, p *botpay.Procurement) error {
	for i, dst := range listsOf(p) {
		if lists[i].Valid {
			if err := json.Unmarshal([]byte(lists[i].String), dst); err != nil {
				return err
			}
		}
	}
	return nil
}

// signerRow is what signerStep (or slimSignerStep) reads.
type signerRow struct {
	sg                        signer
	above, mPer, mDay, mMonth *int64
	hasMaster, found          bool
	lists                     [procurementListCount]sql.NullString
	walletID                  string // the bot's card wallet, which versions its configuration
	version                   int64
}

// signerStep reads a claimed bot's signer in one statement; found is
// false without a processor wallet.
func signerStep(botID, ownerID string, row *signerRow) kernel.Step {
	g := &row.sg.guardrails
	return kernel.Step{Query: `SELECT w.bot_id, b.frozen, w.address, w.sealed_key, g.approval_mode, g.per_transaction_cents, g.daily_cents,
			g.monthly_cents, g.ask_approval_above_cents, m.per_transaction_cents, m.daily_budget_cents, m.monthly_budget_cents,
			m.owner_id IS NOT NULL, ` + procurementLists + `, cw.id, cw.config_version
		FROM processor_wallets w JOIN guardrails g ON g.bot_id = w.bot_id JOIN bots b ON b.id = w.bot_id
		JOIN wallets cw ON cw.bot_id = w.bot_id
		LEFT JOIN master_guardrails m ON m.owner_id = $2
		LEFT JOIN procurement p ON p.bot_id = w.bot_id
		WHERE w.bot_id = $1`, Args: []any{botID, ownerID},
		Dest: []any{&row.sg.wallet.BotID, &row.sg.frozen, &row.sg.wallet.Address, &row.sg.wallet.SealedKey, &g.ApprovalMode, &g.PerTransaction,
			&g.Daily, &g.Monthly, &row.above, &row.mPer, &row.mDay, &row.mMonth, &row.hasMaster,
			&row.lists[0], &row.lists[1], &row.lists[2], &row.lists[3], &row.lists[4], &row.lists[5], &row.walletID, &row.version},
		Found: &row.found}
}

// slimSignerStep is signerStep without the rules, for a bot whose rules are
// in memory (signerConfig): the key, the freeze and the version of the
// configuration, which says whether those rules are still the bot's.
func slimSignerStep(botID string, row *signerRow) kernel.Step {
	return kernel.Step{Query: `SELECT w.bot_id, b.frozen, w.address, w.sealed_key, cw.id, cw.config_version
		FROM processor_wallets w JOIN bots b ON b.id = w.bot_id JOIN wallets cw ON cw.bot_id = w.bot_id
		WHERE w.bot_id = $1`, Args: []any{botID},
		Dest:  []any{&row.sg.wallet.BotID, &row.sg.frozen, &row.sg.wallet.Address, &row.sg.wallet.SealedKey, &row.walletID, &row.version},
		Found: &row.found}
}

// signerConfig is the part of a signer that changes only when the owner
// changes the bot's configuration, kept in memory under the card wallet's
// configuration version (a trigger bumps it with every change to those
// rows, under the card wallet's lock), as checkout keeps its own.
type signerConfig struct {
	walletID    string
	version     int64
	guardrails  botpay.Guardrails
	master      *botpay.MasterGuardrails
	procurement botpay.Procurement
}

// with completes a signer read by slimSignerStep with the rules in memory.
func (c *signerConfig) with(row *signerRow) signer {
	sg := row.sg
	sg.guardrails, sg.master, sg.procurement = c.guardrails, c.master, c.procurement
	return sg
}

// signer finishes what signerStep read.
func (row *signerRow) signer() (signer, error) {
	sg := row.sg
	sg.guardrails.AskApprovalAbove = moneyPtr(row.above)
	if row.hasMaster {
		sg.master = &botpay.MasterGuardrails{PerTransaction: moneyPtr(row.mPer), DailyBudget: moneyPtr(row.mDay), MonthlyBudget: moneyPtr(row.mMonth)}
	}
	return sg, parseProcurement(row.lists, &sg.procurement)
}

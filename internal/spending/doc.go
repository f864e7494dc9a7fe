// Package spending is how a bot spends from its card wallet and its
// owner's card, and what its owner decides about it: the card checkout, a
// purchase's status, the owner's approvals list, the owner's approval or
// denial of a held purchase, and the expiry of holds nobody decided; the
// cards and their decoy profiles, the purchase tasks an owner queues, the
// procurement controls, the owner's changes of a bot's guardrails and of
// the master guardrails, rail5 cards and their checkouts, and the recent
// purchases, tasks and rail5 cards the owner's dashboard lists.
//
// Every decision is one unit of work inside one kernel transaction:
// lock the bot's wallet and read the facts, decide with a pure function
// of the domain (botpay.DecideCheckout, botpay.DecidePurchase), write the
// outcome with its ledger row and running totals, and emit its typed event
// through the ledger's outbox. The decision never runs SQL and the SQL
// never decides, so each is tested alone: the domain's functions by
// table, the writes by comparing the rows both engines' paths write.
//
// The shape keeps the checkout's PostgreSQL round trips: the wallet lock
// and the usage travel in one pipeline (the card is picked beforehand from
// the configuration kept in memory under the wallet's version), and an
// approved checkout is written in one statement sent with COMMIT
// (recordApprovedInOne). The facts a decision needs only sometimes (the
// task, the owner's usage under master budgets) are read only when
// botpay.CheckoutNeeds asks for them.
//
// A rail5 checkout takes the same shape: lock the wallet, read the facts,
// decide (decideRail5, over botpay.EvaluateCheckout), record with its
// count and event.
//
// Its own SQL reads the guardrails, master guardrails, procurement
// controls and cards a checkout decides on (checkout_config_sql.go, in the
// checkout's transaction, in the statements it always used). What it needs
// of others comes through the interfaces of service.go: the held signing
// requests that share the approvals list (HeldSigning, internal/payments'),
// the sealer of card details and rail5 keys (Sealer) and the owner's mail
// (Notices), all wired by app.
package spending

package mcp

// JSON shapes of the bot API's answers, used only to describe each tool's
// output schema; the answers themselves pass through unchanged. A field is
// required unless tagged omitempty.

type spendingLimitsOut struct {
	PerTransactionUSD   float64 `json:"per_transaction_usd"`
	MonthlyUSD          float64 `json:"monthly_usd"`
	MonthlySpentUSD     float64 `json:"monthly_spent_usd"`
	MonthlyRemainingUSD float64 `json:"monthly_remaining_usd"`
}

type railOut struct {
	Status         string             `json:"status"`
	BalanceUSD     float64            `json:"balance_usd" jsonschema:"available balance: held amounts are already subtracted"`
	HeldUSD        float64            `json:"held_usd,omitempty" jsonschema:"amounts held for purchases awaiting the owner's decision"`
	SpendingLimits *spendingLimitsOut `json:"spending_limits,omitempty"`
	Address        string             `json:"address,omitempty" jsonschema:"processor wallet: its 0x chain address"`
}

type masterGuardrailsOut struct {
	PerTransactionUSD *float64 `json:"per_transaction_usd"`
	DailyBudgetUSD    *float64 `json:"daily_budget_usd"`
	MonthlyBudgetUSD  *float64 `json:"monthly_budget_usd"`
}

type statusOut struct {
	BotID            string               `json:"bot_id"`
	BotName          string               `json:"bot_name"`
	Status           string               `json:"status" jsonschema:"active, pending (not yet claimed by an owner), frozen (the owner froze the wallet) or inactive"`
	DefaultRail      *string              `json:"default_rail"`
	ActiveRails      []string             `json:"active_rails"`
	Rails            map[string]railOut   `json:"rails" jsonschema:"by rail name: card_wallet (USD) and processor_wallet (USDC for x402)"`
	MasterGuardrails *masterGuardrailsOut `json:"master_guardrails"`
	PendingMessages  int                  `json:"pending_messages" jsonschema:"events waiting for list_messages"`
	WebhookStatus    string               `json:"webhook_status"`
	WebhookFailCount int                  `json:"webhook_fail_count"`
	CallbackURL      *string              `json:"callback_url,omitempty"`
	WalletStatus     string               `json:"wallet_status,omitempty"`
	Message          string               `json:"message,omitempty"`
}

type walletCheckOut struct {
	WalletStatus   string             `json:"wallet_status" jsonschema:"active, empty (active with a zero balance), pending (not claimed) or inactive"`
	BalanceUSD     float64            `json:"balance_usd" jsonschema:"available balance in USD (holds subtracted)"`
	HeldUSD        float64            `json:"held_usd,omitempty"`
	CardStatus     string             `json:"card_status"`
	SpendingLimits *spendingLimitsOut `json:"spending_limits,omitempty"`
	PendingTopups  int                `json:"pending_topups" jsonschema:"top-up requests the owner has not fulfilled yet"`
	Frozen         bool               `json:"frozen,omitempty"`
	Message        string             `json:"message,omitempty"`
}

type transactionOut struct {
	ID              int64    `json:"id"`
	Type            string   `json:"type" jsonschema:"fund, spend, sale, refund, ..."`
	AmountUSD       float64  `json:"amount_usd" jsonschema:"negative for debits"`
	BalanceAfterUSD *float64 `json:"balance_after_usd"`
	Description     string   `json:"description"`
	CreatedAt       string   `json:"created_at"`
}

type transactionsOut struct {
	Transactions []transactionOut `json:"transactions" jsonschema:"newest first"`
	HasMore      bool             `json:"has_more,omitempty"`
	NextCursor   *string          `json:"next_cursor,omitempty" jsonschema:"pass as cursor for the next page; null on the last page"`
}

type guardrailLimitsOut struct {
	PerTransactionUSD   float64  `json:"per_transaction_usd"`
	DailyUSD            float64  `json:"daily_usd"`
	MonthlyUSD          float64  `json:"monthly_usd"`
	AskApprovalAboveUSD *float64 `json:"ask_approval_above_usd" jsonschema:"purchases above this need the owner's approval (auto_approve_under_threshold)"`
}

type guardrailsOut struct {
	ApprovalMode       string             `json:"approval_mode" jsonschema:"ask_for_everything, auto_approve_under_threshold or auto_approve_by_category"`
	Limits             guardrailLimitsOut `json:"limits"`
	RecurringAllowed   bool               `json:"recurring_allowed"`
	Notes              *string            `json:"notes" jsonschema:"the owner's notes to the bot"`
	UpdatedAt          string             `json:"updated_at"`
	ApprovedCategories []string           `json:"approved_categories"`
	BlockedCategories  []string           `json:"blocked_categories"`
}

type topupOut struct {
	TopupRequestID int64   `json:"topup_request_id"`
	Status         string  `json:"status"`
	AmountUSD      float64 `json:"amount_usd"`
	OwnerNotified  bool    `json:"owner_notified" jsonschema:"whether the e-mail to the owner went out"`
	Message        string  `json:"message"`
}

type messageOut struct {
	MessageID int64          `json:"message_id" jsonschema:"pass to ack_messages once handled"`
	EventID   string         `json:"event_id,omitempty"`
	Event     string         `json:"event" jsonschema:"wallet.funded, purchase.approved, wallet.sale.completed, ..."`
	Data      map[string]any `json:"data"`
	Timestamp string         `json:"timestamp"`
	StagedAt  string         `json:"staged_at"`
	ExpiresAt string         `json:"expires_at"`
}

type messagesOut struct {
	Messages   []messageOut `json:"messages" jsonschema:"oldest first"`
	Count      int          `json:"count"`
	HasMore    bool         `json:"has_more,omitempty"`
	NextCursor *string      `json:"next_cursor,omitempty"`
}

type ackOut struct {
	Acknowledged []int64 `json:"acknowledged"`
	NotFound     []int64 `json:"not_found"`
}

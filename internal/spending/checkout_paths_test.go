package spending_test

import (
	"database/sql"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/spending"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// pathCheckout is one checkout request of a scenario; wait advances the
// clock before it.
type pathCheckout struct {
	amount   botpay.Money
	merchant string
	category string
	profile  int
	taskID   string
	limit    int
	wait     time.Duration
}

// pathScenario is a bot set up by setup (funded with fund), then the
// checkouts, in order.
type pathScenario struct {
	name      string
	fund      botpay.Money
	setup     func(t *testing.T, st *store.Store, owner botpay.Owner, b botpay.Bot, g *botpay.Guardrails, c *botpay.Card)
	checkouts []pathCheckout
}

func pathBuy(amount botpay.Money) pathCheckout { return pathCheckout{amount: amount} }

func pathScenarios() []pathScenario {
	none := func(*testing.T, *store.Store, botpay.Owner, botpay.Bot, *botpay.Guardrails, *botpay.Card) {}
	money := func(m botpay.Money) *botpay.Money { return &m }
	master := func(m botpay.MasterGuardrails) func(*testing.T, *store.Store, botpay.Owner, botpay.Bot, *botpay.Guardrails, *botpay.Card) {
		return func(t *testing.T, st *store.Store, o botpay.Owner, _ botpay.Bot, _ *botpay.Guardrails, _ *botpay.Card) {
			if err := spendingOf(st).ReplaceMasterGuardrails(ctx, o.ID, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	return []pathScenario{
		{"approved at once", 100000, none, []pathCheckout{pathBuy(1000), pathBuy(1500), pathBuy(2500)}},
		{"held for the owner", 100000, none, []pathCheckout{pathBuy(5000), pathBuy(1000)}},
		{"approved below the low-balance line", 1500, none, []pathCheckout{pathBuy(1200), pathBuy(100)}},
		{"declined over the bot's per-transaction limit", 100000, none, []pathCheckout{pathBuy(15000), pathBuy(1000)}},
		{"declined over the daily budget", 100000, func(_ *testing.T, _ *store.Store, _ botpay.Owner, _ botpay.Bot, g *botpay.Guardrails, _ *botpay.Card) {
			g.Daily = 3000
		}, []pathCheckout{pathBuy(2000), pathBuy(2000)}},
		{"declined over the monthly budget", 100000, func(_ *testing.T, _ *store.Store, _ botpay.Owner, _ botpay.Bot, g *botpay.Guardrails, _ *botpay.Card) {
			g.Monthly = 3000
		}, []pathCheckout{pathBuy(2000), {amount: 2000, wait: 25 * time.Hour}}},
		{"declined over the card's limit", 100000, func(_ *testing.T, _ *store.Store, _ botpay.Owner, _ botpay.Bot, _ *botpay.Guardrails, c *botpay.Card) {
			c.Limits.PerTransaction = money(500)
		}, []pathCheckout{pathBuy(400), pathBuy(1000)}},
		{"declined over the profile's allowance", 100000, func(_ *testing.T, _ *store.Store, _ botpay.Owner, _ botpay.Bot, _ *botpay.Guardrails, c *botpay.Card) {
			c.Profiles[0].Allowance = 1500
		}, []pathCheckout{pathBuy(1000), pathBuy(1000)}},
		{"declined over the master budget", 100000, master(botpay.MasterGuardrails{DailyBudget: money(1500)}), []pathCheckout{pathBuy(1000), pathBuy(1000)}},
		{"approved under the master budget", 100000, master(botpay.MasterGuardrails{MonthlyBudget: money(100000)}), []pathCheckout{pathBuy(1000), pathBuy(6000)}},
		{"declined in a blocked category", 100000, func(_ *testing.T, _ *store.Store, _ botpay.Owner, _ botpay.Bot, g *botpay.Guardrails, _ *botpay.Card) {
			g.BlockedCategories = []string{"gambling"}
		}, []pathCheckout{{amount: 1000, category: "gambling"}, pathBuy(1000)}},
		{"declined at a blocked merchant", 100000, func(t *testing.T, st *store.Store, o botpay.Owner, b botpay.Bot, _ *botpay.Guardrails, _ *botpay.Card) {
			if err := spendingOf(st).WriteProcurement(ctx, o.ID, b.ID, botpay.Procurement{BlockedMerchants: []string{"Evil Corp"}}); err != nil {
				t.Fatal(err)
			}
		}, []pathCheckout{{amount: 1000, merchant: "Evil Corp"}, pathBuy(1000)}},
		{"declined for want of balance", 800, none, []pathCheckout{pathBuy(1000), pathBuy(700)}},
		{"rate limited", 100000, none, []pathCheckout{{amount: 100, limit: 2}, {amount: 100, limit: 2}, {amount: 100, limit: 2},
			{amount: 100, limit: 2, wait: time.Hour}}},
		{"completing a task, then refused its second time", 100000, pathTask("task_done"), []pathCheckout{{amount: 1000, taskID: "task_done"},
			{amount: 1000, taskID: "task_done"}}},
		{"held with a task", 100000, pathTask("task_held"), []pathCheckout{{amount: 5000, taskID: "task_held"}}},
		{"decoy profile", 100000, func(_ *testing.T, _ *store.Store, _ botpay.Owner, _ botpay.Bot, _ *botpay.Guardrails, c *botpay.Card) {
			c.Profiles = append(c.Profiles, botpay.PaymentProfile{Index: 2, AllowanceDuration: botpay.AllowanceMonth, Allowance: 2000})
		}, []pathCheckout{{amount: 1000, profile: 2}, {amount: 1500, profile: 2}, pathBuy(1000)}},
		{"approved for a bot without a webhook (events staged at once)", 100000, func(t *testing.T, st *store.Store, _ botpay.Owner, b botpay.Bot, _ *botpay.Guardrails, _ *botpay.Card) {
			storetest.SetCallbackURL(t, st, b.ID, "")
		}, []pathCheckout{pathBuy(1000), pathBuy(5000)}},
		{"the same request again", 100000, none, []pathCheckout{pathBuy(1000), pathBuy(1000)}},
		{"an overdue hold expired by the next checkout", 100000, none, []pathCheckout{pathBuy(5000), {amount: 1000, wait: botpay.HoldWindow + time.Minute}}},
	}
}

func pathTask(id string) func(*testing.T, *store.Store, botpay.Owner, botpay.Bot, *botpay.Guardrails, *botpay.Card) {
	return func(t *testing.T, st *store.Store, o botpay.Owner, b botpay.Bot, _ *botpay.Guardrails, _ *botpay.Card) {
		err := spendingOf(st).QueueTask(ctx, o.ID, botpay.Task{ID: id, BotID: b.ID, MerchantName: "Acme", MerchantURL: "acme.com",
			ItemName: "thing", Amount: 1000, CreatedAt: st.Clock().Now()})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// On PostgreSQL an approved real checkout is one statement
// (recordApprovedInOne); every other outcome goes statement by statement.
// Both paths run the same scenarios, one after another, each on its own
// PostgreSQL database, and every row either writes (each column of every
// table) must be the same, once generated ids are replaced by their order
// of appearance.
func TestCheckoutFastPathWritesWhatTheGeneralPathWrites(t *testing.T) {
	fast, general := openPathStore(t, false), openPathStore(t, true)
	for _, sc := range pathScenarios() {
		t.Run(sc.name, func(t *testing.T) {
			fastRows, fastOutcomes := fast.run(t, sc)
			generalRows, generalOutcomes := general.run(t, sc)
			if !slices.Equal(fastOutcomes, generalOutcomes) {
				t.Errorf("outcomes differ:\nfast:    %v\ngeneral: %v", fastOutcomes, generalOutcomes)
			}
			if fastRows != generalRows {
				t.Errorf("rows written differ:\n--- fast path\n%s\n--- general path\n%s", fastRows, generalRows)
			}
			if !strings.Contains(fastRows, "purchases:") {
				t.Errorf("no purchase written:\n%s", fastRows)
			}
		})
	}
}

// pathStore is a PostgreSQL database with one of the two paths, its clock
// and a plain connection to read every table.
type pathStore struct {
	st    *store.Store
	clock *botpay.ManualClock
	raw   *sql.DB
}

func openPathStore(t *testing.T, general bool) pathStore {
	clock := botpay.NewManualClock(time.Date(2026, 11, 2, 9, 30, 0, 0, time.UTC))
	db := storetest.Open(t, store.Postgres, clock)
	if general {
		statementByStatement(db.Store)
	}
	raw, err := sql.Open("pgx", db.Options.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	return pathStore{st: db.Store, clock: clock, raw: raw}
}

// run sets sc's bot up and runs its checkouts; it returns the rows they
// wrote or changed, normalised, and each checkout's outcome.
func (p pathStore) run(t *testing.T, sc pathScenario) (string, []string) {
	st, clock := p.st, p.clock
	owner := storetest.NewOwner(t, st)
	b := storetest.ClaimedBot(t, st, owner)
	if _, err := storetest.Wallets(st).Fund(ctx, owner, b.ID, sc.fund, ""); err != nil {
		t.Fatal(err)
	}
	g := botpay.DefaultGuardrails(clock.Now())
	c := botpay.Card{ID: botpay.NewID("card_"), BotID: b.ID, Name: "card", Status: botpay.CardActive, RealProfileIndex: 1,
		Profiles:  []botpay.PaymentProfile{{Index: 1, AllowanceDuration: botpay.AllowanceMonth, Allowance: 100000}},
		CreatedAt: clock.Now()}
	sc.setup(t, st, owner, b, &g, &c)
	if err := spendingOf(st).ReplaceGuardrails(ctx, owner.ID, b.ID, g); err != nil {
		t.Fatal(err)
	}
	details := map[int][]byte{}
	for _, pr := range c.Profiles {
		details[pr.Index] = []byte(fmt.Sprintf("sealed %d", pr.Index))
	}
	if err := spendingOf(st).AddCard(ctx, owner.ID, c, details); err != nil {
		t.Fatal(err)
	}
	before := dumpTables(t, p.raw)
	var outcomes []string
	for _, co := range sc.checkouts {
		clock.Advance(co.wait)
		outcomes = append(outcomes, pathOutcome(spendingOf(st).DecideCheckout(ctx, pathInput(b, co))))
	}
	return normaliseIDs(changedRows(before, dumpTables(t, p.raw))), outcomes
}

func pathInput(b botpay.Bot, co pathCheckout) botpay.CheckoutAsk {
	merchant := co.merchant
	if merchant == "" {
		merchant = "Acme"
	}
	return botpay.CheckoutAsk{BotID: b.ID, ProfileIndex: max(co.profile, 1), ItemName: "thing", TaskID: co.taskID,
		PerWindow: co.limit, Window: time.Hour,
		Request: botpay.CheckoutRequest{Amount: co.amount, MerchantName: merchant, MerchantURL: "acme.com", Category: co.category}}
}

func pathOutcome(res spending.CheckoutResult, err error) string {
	if err != nil {
		if e := botpay.AsError(err); e != nil {
			return "refused " + e.Code
		}
		return "failed " + err.Error()
	}
	return fmt.Sprintf("%s details=%q low=%v", res.Purchase.Status, res.SealedDetails, res.LowBalance)
}

// dumpTables reads every row of every table of the schema, each as
// "table: column=value ..." with the columns in name order.
func dumpTables(t *testing.T, db *sql.DB) map[string]bool {
	t.Helper()
	tables := storetest.TableNames(t, db, store.Postgres)
	out := map[string]bool{}
	for _, table := range tables {
		for _, row := range dumpTable(t, db, table) {
			out[row] = true
		}
	}
	return out
}

func dumpTable(t *testing.T, db *sql.DB, table string) []string {
	t.Helper()
	rows, err := db.Query(`SELECT * FROM ` + table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		values := make([]any, len(cols))
		dest := make([]any, len(cols))
		for i := range values {
			dest[i] = &values[i]
		}
		if err := rows.Scan(dest...); err != nil {
			t.Fatal(err)
		}
		fields := make([]string, len(cols))
		for i, col := range cols {
			v := values[i]
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			fields[i] = fmt.Sprintf("%s=%v", col, v)
		}
		slices.Sort(fields)
		out = append(out, table+": "+strings.Join(fields, " "))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// changedRows lists the rows in after that were not in before (written or
// changed) and those gone from before, each marked, in a stable order:
// sorted with generated ids blanked, so that the order does not depend on
// them.
func changedRows(before, after map[string]bool) []string {
	var out []string
	for row := range after {
		if !before[row] {
			out = append(out, "+ "+row)
		}
	}
	for row := range before {
		if !after[row] {
			out = append(out, "- "+row)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		return strings.Compare(generatedID.ReplaceAllString(a, "ID"), generatedID.ReplaceAllString(b, "ID"))
	})
	return out
}

// generatedID matches an id of botpay.NewID (prefix and 16 hex digits).
var generatedID = regexp.MustCompile(`[a-z]+_[0-9a-f]{16}\b`)

// normaliseIDs replaces each generated id by its number of appearance.
func normaliseIDs(rows []string) string {
	seen := map[string]string{}
	return generatedID.ReplaceAllStringFunc(strings.Join(rows, "\n"), func(id string) string {
		if n, ok := seen[id]; ok {
			return n
		}
		seen[id] = fmt.Sprintf("<id%d>", len(seen)+1)
		return seen[id]
	})
}

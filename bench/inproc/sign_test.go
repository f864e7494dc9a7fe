package inproc

import (
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/seal"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// signers is how many bots BenchmarkSign spreads its calls over, one per
// goroutine as loadgen's sign scenario does, so that the calls do not all
// queue on one processor wallet's row.
const signers = 32

// BenchmarkSign is POST /api/v1/processor-wallet/bot/sign of 1 micro-USDC
// through the full handler chain, signed at once: the signing hot path
// (the facts read under the wallet's lock, the decision, the signature,
// the write) without the network.
func BenchmarkSign(b *testing.B) {
	body := `{"resource_url":"https://vendor.example/data","amount_usdc":1,"recipient_address":"0x209693Bc6afc0C5328bA36FaF03C514EF312287C"}`
	benchBots(b, "/api/v1/processor-wallet/bot/sign", body, signers, signingBot)
}

// benchBots runs benchPost on each engine over n bots that setUp makes
// (setUp answers a bot's API key).
func benchBots(b *testing.B, path, body string, n int, setUp func(b *testing.B, h http.Handler, name string) string) {
	for _, d := range storetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			s := newSigningService(b, d)
			h := s.handler(b, "discard")
			keys := make([]string, n)
			for i := range keys {
				keys[i] = setUp(b, h, strconv.Itoa(i))
			}
			benchPost(b, h, path, body, keys)
		})
	}
}

// newSigningService is newService with limits that let one client sign
// up the owners of all the signing or buying bots, and let them buy
// without the checkout rate limit.
func newSigningService(b *testing.B, d store.Dialect) *service {
	b.Helper()
	db := storetest.Open(b, d, nil)
	key := make([]byte, 32)
	rand.Read(key)
	sealer, err := seal.New(key)
	if err != nil {
		b.Fatal(err)
	}
	unlimited := 1 << 30
	svc := app.New(app.Config{Store: db.Store, Sealer: sealer, Mail: &mail.Memory{}, BaseURL: "http://127.0.0.1:8080",
		Limits: app.Limits{RegisterPerHour: unlimited, SignupPerHour: unlimited, ClaimPerHour: unlimited, CheckoutPerHour: unlimited}})
	return &service{db: db, app: svc, sealer: sealer}
}

// signingBot registers a bot for a new owner, claims it, gives it a
// processor wallet funded with $1,000,000 and limits that never refuse,
// and answers its API key.
func signingBot(b *testing.B, h http.Handler, name string) string {
	b.Helper()
	apiKey, botID, ownerToken := claimedBot(b, h, "signer-"+name, "bench-signer-"+name+"@example.com")
	bot := "/api/v1/owner/bots/" + botID
	call(b, h, "POST", bot+"/processor-wallet", ownerToken, `{}`, 201, nil)
	call(b, h, "POST", bot+"/fund", ownerToken, `{"amount_usd":1000000,"rail":"processor_wallet"}`, 200, nil)
	call(b, h, "PUT", bot+"/guardrails", ownerToken, `{"approval_mode":"auto_approve_under_threshold",`+
		`"limits":{"per_transaction_usd":1000,"daily_usd":10000000,"monthly_usd":10000000,"ask_approval_above_usd":null}}`, 200, nil)
	return apiKey
}

// benchPost POSTs body to path through h in parallel, each goroutine as
// one of the bots whose keys are given (in turn, so that goroutines do not
// all queue on one bot's wallet), and fails on any answer but 200.
func benchPost(b *testing.B, h http.Handler, path, body string, keys []string) {
	var next atomic.Int64
	b.SetParallelism(parallelism)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		key := keys[int(next.Add(1)-1)%len(keys)]
		for pb.Next() {
			r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
			r.Header.Set("Authorization", "Bearer "+key)
			r.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != http.StatusOK {
				b.Errorf("POST %s: %d %s", path, w.Code, w.Body)
				return
			}
		}
	})
}

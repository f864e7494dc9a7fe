package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/chaintest"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/internal/x402"
)

// A live settlement whose process is SIGKILLed between submit and receipt
// (the node holds the transaction: automine off) and whose transaction
// the node then forgets: after a restart the resume worker sends the
// stored transaction again and records the sale exactly once.
func TestSIGKILLBetweenSubmitAndReceiptCompletesTheSaleOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills the binary; skipped with -short")
	}
	chaintest.Require(t)
	t.Parallel()
	bin, err := buildBinary()
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	storetest.EachEngine(t, func(t *testing.T, dialect store.Dialect) {
		crashBetweenSubmitAndReceipt(t, bin, dialect)
	})
}

func crashBetweenSubmitAndReceipt(t *testing.T, bin string, dialect store.Dialect) {
	node := chaintest.Start(t)
	relayer, _ := x402.GenerateKey()
	node.FundGas(t, relayer.Address())
	db := storetest.Open(t, dialect, nil)
	env := []string{"BOTPAY_ADDR=127.0.0.1:0", "BOTPAY_RATE_REGISTER_PER_HOUR=100", "BOTPAY_MODE=live",
		"BOTPAY_SECRET_KEY=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff", "DATABASE_URL=",
		"BOTPAY_X402_RPC_URL=" + node.URL, "BOTPAY_X402_CHAIN_ID=84532", "BOTPAY_X402_TOKEN=" + node.Token.Hex(),
		"BOTPAY_X402_RELAYER_KEY=" + hex.EncodeToString(relayer.Bytes())}
	if dialect == store.Postgres {
		env = append(env, "DATABASE_URL="+db.Options.DatabaseURL, "BOTPAY_DATA_DIR="+t.TempDir())
	} else {
		env = append(env, "BOTPAY_DATA_DIR="+db.Options.DataDir)
	}
	first := startBinary(t, bin, env)
	seller, pageURL := liveSeller(t, first.url)
	payer, _ := x402.GenerateKey()
	node.Mint(t, payer.Address(), 2_000_000)
	header := signedPayment(t, node, payer, seller, 1_500_000)

	node.Automine(t, false)
	done := make(chan struct{})
	go func() {
		defer close(done)
		req, _ := http.NewRequest("GET", first.url+pageURL, nil)
		req.Header.Set("X-PAYMENT", header)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	hash := awaitPendingTransaction(t, node, relayer.Address())
	first.cmd.Process.Signal(syscall.SIGKILL)
	first.cmd.Wait()
	<-done
	node.Drop(t, hash) // the node forgets it: only the stored raw transaction can finish the sale
	node.Automine(t, true)

	second := startBinary(t, bin, env)
	deadline := time.Now().Add(60 * time.Second)
	for {
		node.Mine(t)
		status, sales := getJSON(t, second.url+"/api/v1/bot/sales", seller.key)
		if list, _ := sales["sales"].([]any); status == 200 && len(list) == 1 {
			if list[0].(map[string]any)["tx_hash"] != hash {
				t.Fatalf("sale hash %v, want %s", list[0], hash)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no sale after restart: %d %v", status, sales)
		}
		time.Sleep(500 * time.Millisecond)
	}
	if got := node.Balance(t, seller.address); got != 1_500_000 {
		t.Fatalf("seller balance %d", got)
	}
	if n := node.Nonce(t, relayer.Address()); n != 1 {
		t.Fatalf("relayer sent %d transactions", n)
	}
	req, _ := http.NewRequest("GET", second.url+pageURL, nil)
	req.Header.Set("X-PAYMENT", header)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if resp.StatusCode != 200 || body["tx_hash"] != hash {
		t.Fatalf("replay after restart = %d %v", resp.StatusCode, body)
	}
	if _, sales := getJSON(t, second.url+"/api/v1/bot/sales", seller.key); len(sales["sales"].([]any)) != 1 {
		t.Fatalf("sales = %v", sales)
	}
}

type liveBot struct {
	key     string
	address x402.Address
}

// liveSeller registers and claims a bot with a processor wallet and gives
// it a $1.50 page; it returns the page's x402 path.
func liveSeller(t *testing.T, base string) (liveBot, string) {
	t.Helper()
	reg := postJSON(t, base+"/api/v1/bots/register", "", map[string]any{"bot_name": "seller", "owner_email": "s@example.com"})
	owner := postJSON(t, base+"/api/v1/owner/signup", "", map[string]any{"email": "o@example.com", "password": "correct horse battery staple"})
	tok := owner["token"].(string)
	postJSON(t, base+"/api/v1/owner/bots/claim", tok, map[string]any{"claim_token": reg["claim_token"]})
	w := postJSON(t, base+"/api/v1/owner/bots/"+reg["bot_id"].(string)+"/processor-wallet", tok, nil)
	b := liveBot{key: reg["api_key"].(string)}
	b.address, _ = x402.ParseAddress(w["address"].(string))
	p := postJSON(t, base+"/api/v1/bot/checkout-pages/create", b.key, map[string]any{"title": "Report", "amount_usd": 1.5})
	return b, "/api/v1/checkout/" + p["checkout_page_id"].(string) + "/x402"
}

func signedPayment(t *testing.T, node *chaintest.Node, payer x402.Key, seller liveBot, micro uint64) string {
	var nonce x402.Nonce
	rand.Read(nonce[:])
	a := x402.Authorization{From: payer.Address(), To: seller.address, Value: micro,
		ValidBefore: uint64(time.Now().Add(10 * time.Minute).Unix()), Nonce: nonce}
	return x402.Encode(x402.Payment{Authorization: a, Signature: payer.Sign(node.Domain().Digest(a))}, node.Domain())
}

// awaitPendingTransaction waits until the relayer's transaction is in the
// node's pool and returns its hash.
func awaitPendingTransaction(t *testing.T, node *chaintest.Node, relayer x402.Address) string {
	t.Helper()
	for i := 0; i < 400; i++ {
		var pool map[string]map[string]map[string]struct {
			Hash string `json:"hash"`
		}
		if err := node.RPC.Call(context.Background(), "txpool_content", &pool); err != nil {
			t.Fatal(err)
		}
		for from, txs := range pool["pending"] {
			if p, _ := x402.ParseAddress(from); p == relayer {
				for _, tx := range txs {
					return tx.Hash
				}
			}
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatal("the relayer's transaction never reached the node")
	return ""
}

func postJSON(t *testing.T, url, token string, body any) map[string]any {
	t.Helper()
	a := testserver.CallJSON(t, "POST", url, token, body)
	if a.Status >= 300 || a.Body["_raw"] != nil {
		t.Fatalf("POST %s = %d %s", url, a.Status, a.Raw)
	}
	return a.Body
}

func getJSON(t *testing.T, url, token string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m
}

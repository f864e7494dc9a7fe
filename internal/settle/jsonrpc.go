package settle

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/x402"
)

// JSONRPC submits transferWithAuthorization to the USDC contract through
// an EVM node's JSON-RPC API (eth_sendTransaction from a relayer account
// the node, or a signer in front of it such as Clef or Web3Signer, holds),
// then waits for the receipt. The relayer pays gas; the payer only signed.
type JSONRPC struct {
	URL      string
	Relayer  x402.Address
	Contract x402.Address // zero: USDC on Base
	Client   *http.Client // nil: a client with a 30 s timeout
	// Poll is the interval between receipt checks (default 1 s); Timeout
	// bounds the whole wait (default 2 min).
	Poll, Timeout time.Duration
}

// TransferWithAuthorizationSelector is the first four bytes of
// keccak256("transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)").
var TransferWithAuthorizationSelector = func() []byte {
	h := x402.Keccak256([]byte("transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)"))
	return h[:4]
}()

// CallData ABI-encodes the contract call for a signed authorization.
func CallData(p x402.Payment) []byte {
	a, sig := p.Authorization, p.Signature
	out := append([]byte{}, TransferWithAuthorizationSelector...)
	word := func(b []byte) { out = append(out, make([]byte, 32-len(b))...); out = append(out, b...) }
	uint := func(v uint64) {
		var b [8]byte
		for i := 0; i < 8; i++ {
			b[7-i] = byte(v >> (8 * i))
		}
		word(b[:])
	}
	word(a.From[:])
	word(a.To[:])
	uint(a.Value)
	uint(a.ValidAfter)
	uint(a.ValidBefore)
	word(a.Nonce[:])
	word([]byte{sig[64]})
	word(sig[:32])
	word(sig[32:64])
	return out
}

// ErrReverted is a transaction the chain mined but rejected (a used nonce,
// an expired authorization, too little balance).
var ErrReverted = errors.New("settle: transferWithAuthorization reverted")

// Settle implements Settler.
func (j JSONRPC) Settle(ctx context.Context, p x402.Payment) (Result, error) {
	contract := j.Contract
	if contract.IsZero() {
		contract = x402.BaseUSDC.Contract
	}
	var hash string
	err := j.call(ctx, "eth_sendTransaction", []any{map[string]string{
		"from": j.Relayer.Hex(), "to": contract.Hex(), "data": "0x" + hex.EncodeToString(CallData(p)),
	}}, &hash)
	if err != nil {
		return Result{}, err
	}
	if len(hash) != 66 || !strings.HasPrefix(hash, "0x") {
		return Result{}, fmt.Errorf("settle: node answered a malformed transaction hash %q", hash)
	}
	poll, timeout := j.Poll, j.Timeout
	if poll <= 0 {
		poll = time.Second
	}
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		var receipt *struct {
			Status string `json:"status"`
		}
		if err := j.call(ctx, "eth_getTransactionReceipt", []any{hash}, &receipt); err != nil {
			return Result{}, err
		}
		if receipt != nil {
			if receipt.Status != "0x1" {
				return Result{}, ErrReverted
			}
			return Result{TxHash: strings.ToLower(hash)}, nil
		}
		select {
		case <-ctx.Done():
			return Result{}, fmt.Errorf("settle: no receipt for %s: %w", hash, ctx.Err())
		case <-time.After(poll):
		}
	}
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (j JSONRPC) call(ctx context.Context, method string, params []any, result any) error {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, j.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	client := j.Client
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("settle: %s: %w", method, err)
	}
	defer resp.Body.Close()
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  *rpcError       `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return fmt.Errorf("settle: %s: HTTP %d, undecodable answer: %w", method, resp.StatusCode, err)
	}
	if out.Error != nil {
		return fmt.Errorf("settle: %s: node error %d: %s", method, out.Error.Code, out.Error.Message)
	}
	return json.Unmarshal(out.Result, result)
}

package evm

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/botpay/botpay/internal/eth"
)

// Client talks to an EVM node over JSON-RPC (HTTP). The URL is the
// operator's own configuration, so it is not subject to the outbound guard
// of webhooks.
type Client struct {
	URL  string
	HTTP *http.Client // nil: a client with a 30 s timeout
	id   atomic.Int64
}

// NewClient returns a client of url.
func NewClient(url string) *Client {
	return &Client{URL: url, HTTP: &http.Client{Timeout: 30 * time.Second}}
}

// RPCError is an error the node answered.
type RPCError struct {
	Method  string
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

func (e *RPCError) Error() string {
	return fmt.Sprintf("evm: %s: node error %d: %s", e.Method, e.Code, e.Message)
}

// IsRPCError reports whether err is an answer of the node (not a transport
// failure) whose message contains text, case-insensitively.
func IsRPCError(err error, text string) bool {
	var e *RPCError
	return errors.As(err, &e) && strings.Contains(strings.ToLower(e.Message), strings.ToLower(text))
}

// Call invokes method and decodes its result into result (nil: ignored).
func (c *Client) Call(ctx context.Context, method string, result any, params ...any) error {
	if params == nil {
		params = []any{}
	}
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id.Add(1), "method": method, "params": params})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("evm: %s: %w", method, err)
	}
	req.Header.Set("Content-Type", "application/json")
	httpClient := c.HTTP
	if httpClient == nil {
		httpClient = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return fmt.Errorf("evm: %s: %w", method, err)
	}
	defer resp.Body.Close()
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  *RPCError       `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return fmt.Errorf("evm: %s: HTTP %d, undecodable answer: %w", method, resp.StatusCode, err)
	}
	if out.Error != nil {
		out.Error.Method = method
		return out.Error
	}
	if result == nil {
		return nil
	}
	if err := json.Unmarshal(out.Result, result); err != nil {
		return fmt.Errorf("evm: %s: %w", method, err)
	}
	return nil
}

// Quantity is a JSON-RPC quantity ("0x…" hex, no leading zeros).
type Quantity struct{ big.Int }

// UnmarshalJSON reads a hex quantity.
func (q *Quantity) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if !strings.HasPrefix(s, "0x") {
		return fmt.Errorf("evm: quantity %q has no 0x", s)
	}
	if _, ok := q.SetString(s[2:], 16); !ok && s != "0x" {
		return fmt.Errorf("evm: quantity %q is not hex", s)
	}
	return nil
}

// Uint64 is the quantity, which callers use only for values that fit.
func (q *Quantity) Uint64() uint64 { return q.Int.Uint64() }

// Hex writes a quantity.
func Hex(v uint64) string { return "0x" + strconv.FormatUint(v, 16) }

// HexBytes is 0x + hex.
func HexBytes(b []byte) string { return "0x" + hex.EncodeToString(b) }

// ParseHexBytes reads 0x + hex.
func ParseHexBytes(s string) ([]byte, error) {
	return hex.DecodeString(strings.TrimPrefix(s, "0x"))
}

func (c *Client) quantity(ctx context.Context, method string, params ...any) (*big.Int, error) {
	var q Quantity
	if err := c.Call(ctx, method, &q, params...); err != nil {
		return nil, err
	}
	return &q.Int, nil
}

// ChainID is eth_chainId.
func (c *Client) ChainID(ctx context.Context) (uint64, error) {
	v, err := c.quantity(ctx, "eth_chainId")
	if err != nil {
		return 0, err
	}
	return v.Uint64(), nil
}

// BlockNumber is eth_blockNumber.
func (c *Client) BlockNumber(ctx context.Context) (uint64, error) {
	v, err := c.quantity(ctx, "eth_blockNumber")
	if err != nil {
		return 0, err
	}
	return v.Uint64(), nil
}

// PendingNonce is eth_getTransactionCount(address, "pending").
func (c *Client) PendingNonce(ctx context.Context, a eth.Address) (uint64, error) {
	v, err := c.quantity(ctx, "eth_getTransactionCount", a.Hex(), "pending")
	if err != nil {
		return 0, err
	}
	return v.Uint64(), nil
}

// BalanceWei is eth_getBalance(address, "latest").
func (c *Client) BalanceWei(ctx context.Context, a eth.Address) (*big.Int, error) {
	return c.quantity(ctx, "eth_getBalance", a.Hex(), "latest")
}

// MaxPriorityFee is eth_maxPriorityFeePerGas.
func (c *Client) MaxPriorityFee(ctx context.Context) (*big.Int, error) {
	return c.quantity(ctx, "eth_maxPriorityFeePerGas")
}

// BaseFee is the baseFeePerGas of the latest block.
func (c *Client) BaseFee(ctx context.Context) (*big.Int, error) {
	var block struct {
		BaseFee *Quantity `json:"baseFeePerGas"`
	}
	if err := c.Call(ctx, "eth_getBlockByNumber", &block, "latest", false); err != nil {
		return nil, err
	}
	if block.BaseFee == nil {
		return nil, errors.New("evm: the latest block has no baseFeePerGas (not an EIP-1559 chain)")
	}
	return &block.BaseFee.Int, nil
}

// CallMsg is the call object of eth_call and eth_estimateGas.
type CallMsg struct {
	From eth.Address
	To   eth.Address
	Data []byte
}

// Object is the call object of eth_call and eth_estimateGas.
func (m CallMsg) Object() map[string]string {
	o := map[string]string{"to": m.To.Hex(), "data": HexBytes(m.Data)}
	if !m.From.IsZero() {
		o["from"] = m.From.Hex()
	}
	return o
}

// EthCall is eth_call at the latest block (a revert is an *RPCError).
func (c *Client) EthCall(ctx context.Context, m CallMsg) ([]byte, error) {
	var out string
	if err := c.Call(ctx, "eth_call", &out, m.Object(), "latest"); err != nil {
		return nil, err
	}
	return ParseHexBytes(out)
}

// EstimateGas is eth_estimateGas.
func (c *Client) EstimateGas(ctx context.Context, m CallMsg) (uint64, error) {
	v, err := c.quantity(ctx, "eth_estimateGas", m.Object())
	if err != nil {
		return 0, err
	}
	return v.Uint64(), nil
}

// SendRawTransaction is eth_sendRawTransaction; it returns the hash the
// node reports.
func (c *Client) SendRawTransaction(ctx context.Context, raw []byte) (string, error) {
	var hash string
	err := c.Call(ctx, "eth_sendRawTransaction", &hash, HexBytes(raw))
	return strings.ToLower(hash), err
}

// Receipt is the part of a transaction receipt the relayer reads.
type Receipt struct {
	Status          Quantity `json:"status"`
	BlockNumber     Quantity `json:"blockNumber"`
	TransactionHash string   `json:"transactionHash"`
	ContractAddress string   `json:"contractAddress"`
	GasUsed         Quantity `json:"gasUsed"`
}

// Succeeded reports status 1.
func (r Receipt) Succeeded() bool { return r.Status.Uint64() == 1 }

// TransactionReceipt is eth_getTransactionReceipt; nil while not mined.
func (c *Client) TransactionReceipt(ctx context.Context, hash string) (*Receipt, error) {
	var r *Receipt
	err := c.Call(ctx, "eth_getTransactionReceipt", &r, hash)
	return r, err
}

// KnowsTransaction reports whether the node has the transaction, mined or
// waiting in its pool (eth_getTransactionByHash is not null).
func (c *Client) KnowsTransaction(ctx context.Context, hash string) (bool, error) {
	var tx json.RawMessage
	if err := c.Call(ctx, "eth_getTransactionByHash", &tx, hash); err != nil {
		return false, err
	}
	return len(tx) > 0 && string(tx) != "null", nil
}

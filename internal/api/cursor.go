package api

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/seal"
)

// A cursor names the position after which the next page of a list starts
// (docs/decisions.md, "Lists page with keyset cursors"). It is opaque to
// clients: base64url (no padding) of
//
//	version (1 byte, 2) | AES-256-GCM nonce, sealed position and tag
//
// sealed under a key derived from the service's secret key, with the
// version, the list, the caller it was issued to and the list's filters as
// associated data. A cursor is therefore only good for the list, caller
// and filters it came from, and any change to it, a forged one, or one
// issued under another secret key is 400 invalid_cursor rather than some
// other page. The position is sealed, not only authenticated: it is a
// service-wide insertion number, so read in the clear two cursors would
// tell a caller how many sales, bots or payments the whole service made
// between them.
const (
	cursorVersion = 2
	// maxCursorText bounds what is decoded at all; real cursors are far
	// shorter (50 characters for the integer positions of stored lists).
	maxCursorText = 256
)

var errInvalidCursor = &botpay.Error{Kind: botpay.KindInvalid, Code: botpay.CodeInvalidCursor,
	Message: "cursor is not one this list handed out: pass the next_cursor of the previous page of the same list, " +
		"with the same filters, or leave cursor out to start again"}

// listScope is what a cursor is bound to.
type listScope struct {
	list   string // the list's name, e.g. "transactions"
	caller string // the bot or owner the list belongs to, with any path id
	filter string // the list's filter parameters, url-encoded
}

// cursorCodec issues and checks cursors.
type cursorCodec struct{ sealer *seal.Sealer }

// newCursorCodec derives its key from the sealer; without one (tests of
// single handlers) it uses a random key, good for this process only.
func newCursorCodec(sealer *seal.Sealer) cursorCodec {
	key := make([]byte, 32)
	if sealer != nil {
		key = sealer.DeriveKey("list cursors v2")
	} else if _, err := rand.Read(key); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	own, err := seal.New(key)
	if err != nil {
		panic("cursor key: " + err.Error()) // a derived key is always 32 bytes
	}
	return cursorCodec{sealer: own}
}

// associated is the data a cursor is bound to: its version and scope,
// each part length-prefixed so no two scopes share a byte string.
func (scope listScope) associated() []byte {
	out := []byte{cursorVersion}
	for _, part := range []string{scope.list, scope.caller, scope.filter} {
		out = binary.BigEndian.AppendUint32(out, uint32(len(part)))
		out = append(out, part...)
	}
	return out
}

// encode issues the cursor of position in scope.
func (c cursorCodec) encode(scope listScope, position []byte) string {
	raw := append([]byte{cursorVersion}, c.sealer.Seal(position, scope.associated())...)
	return base64.RawURLEncoding.EncodeToString(raw)
}

// decode checks a cursor of scope and returns its position.
func (c cursorCodec) decode(scope listScope, text string) ([]byte, error) {
	if len(text) > maxCursorText {
		return nil, errInvalidCursor
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(text)
	if err != nil || len(raw) < 2 || raw[0] != cursorVersion {
		return nil, errInvalidCursor
	}
	position, err := c.sealer.Open(raw[1:], scope.associated())
	if err != nil || len(position) == 0 {
		return nil, errInvalidCursor
	}
	return position, nil
}

// encodePosition and decodePosition carry the integer positions of stored
// lists (insertion numbers, always positive) as 8 bytes.
func encodePosition(position int64) []byte {
	return binary.BigEndian.AppendUint64(nil, uint64(position))
}

func decodePosition(raw []byte) (int64, error) {
	if len(raw) != 8 {
		return 0, errInvalidCursor
	}
	p := int64(binary.BigEndian.Uint64(raw))
	if p <= 0 {
		return 0, errInvalidCursor
	}
	return p, nil
}

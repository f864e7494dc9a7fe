package api

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/seal"
)

// A cursor names the position after which the next page of a list starts
// (docs/decisions.md, "Lists page with keyset cursors"). It is opaque to
// clients: base64url (no padding) of
//
//	version (1 byte, 1) | position | tag (16 bytes)
//
// where tag is HMAC-SHA256 under a key derived from the service's secret
// key, over the version, the list, the caller it was issued to, the
// list's filters and the position. A cursor is therefore only good for the
// list, caller and filters it came from, and any change to it, a forged
// one, or one issued under another secret key is 400 invalid_cursor
// rather than some other page.
const (
	cursorVersion  = 1
	cursorTagBytes = 16
	// maxCursorText bounds what is decoded at all; real cursors are far
	// shorter (34 characters for the integer positions of stored lists).
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
type cursorCodec struct{ key []byte }

// newCursorCodec derives its key from the sealer; without one (tests of
// single handlers) it uses a random key, good for this process only.
func newCursorCodec(sealer *seal.Sealer) cursorCodec {
	if sealer != nil {
		return cursorCodec{key: sealer.DeriveKey("list cursors v1")}
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return cursorCodec{key: key}
}

func (c cursorCodec) tag(scope listScope, position []byte) []byte {
	mac := hmac.New(sha256.New, c.key)
	for _, part := range []string{scope.list, scope.caller, scope.filter} {
		var size [4]byte
		binary.BigEndian.PutUint32(size[:], uint32(len(part)))
		mac.Write(size[:])
		mac.Write([]byte(part))
	}
	mac.Write([]byte{cursorVersion})
	mac.Write(position)
	return mac.Sum(nil)[:cursorTagBytes]
}

// encode issues the cursor of position in scope.
func (c cursorCodec) encode(scope listScope, position []byte) string {
	raw := make([]byte, 0, 1+len(position)+cursorTagBytes)
	raw = append(raw, cursorVersion)
	raw = append(raw, position...)
	raw = append(raw, c.tag(scope, position)...)
	return base64.RawURLEncoding.EncodeToString(raw)
}

// decode checks a cursor of scope and returns its position.
func (c cursorCodec) decode(scope listScope, text string) ([]byte, error) {
	if len(text) > maxCursorText {
		return nil, errInvalidCursor
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(text)
	if err != nil || len(raw) < 1+1+cursorTagBytes || raw[0] != cursorVersion {
		return nil, errInvalidCursor
	}
	position, tag := raw[1:len(raw)-cursorTagBytes], raw[len(raw)-cursorTagBytes:]
	if !hmac.Equal(tag, c.tag(scope, position)) {
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

package eth

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

func TestKeccak256UsesTheOriginalPadding(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"", "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"},
		{"transfer(address,uint256)", "a9059cbb2ab09eb219583f4a59a5d0623ade346d962bcd4e46b11da047c9049b"},
	} {
		if got := Keccak256([]byte(tc.in)); hex.EncodeToString(got[:]) != tc.want {
			t.Errorf("keccak(%q) = %x, want %s", tc.in, got, tc.want)
		}
	}
	if a, b := Keccak256([]byte("ab")), Keccak256([]byte("a"), []byte("b")); a != b {
		t.Error("hashing parts differs from hashing their concatenation")
	}
}

func TestParseAddressAcceptsEIP55AndRefusesABadChecksum(t *testing.T) {
	t.Parallel()
	// Vectors from the EIP-55 specification: each is its own checksum.
	for _, s := range []string{
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
		"0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
		"0x52908400098527886E0F7030069857D2E4169EE7", "0xde709f2102306220921060314715629080e2fb77",
	} {
		a, err := ParseAddress(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if _, err := ParseAddress(strings.ToLower(s)); err != nil {
			t.Fatalf("lower case %s: %v", s, err)
		}
		if a.Hex() != s || a.String() != s {
			t.Fatalf("checksum of %s = %s", s, a.Hex())
		}
	}
	for name, bad := range map[string]string{
		"empty": "", "prefix only": "0x", "no prefix": "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		"wrong checksum": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD",
		"short":          "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe", "not hex": "0xZaAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
	} {
		if _, err := ParseAddress(bad); !errors.Is(err, ErrBadAddress) {
			t.Errorf("%s %q: err = %v", name, bad, err)
		}
	}
}

func TestKeySignsDeterministicallyAndRecoversItsAddress(t *testing.T) {
	t.Parallel()
	key, err := KeyFromHex("0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	if err != nil {
		t.Fatal(err)
	}
	if got := key.Address().Hex(); got != "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23" {
		t.Fatalf("address = %s", got)
	}
	digest := Keccak256([]byte("a message"))
	sig := key.Sign(digest)
	if again := key.Sign(digest); again != sig {
		t.Fatal("signing the same digest twice gave two signatures")
	}
	parsed, err := ParseSignature(sig.Hex())
	if err != nil || parsed != sig {
		t.Fatalf("signature round trip: %v", err)
	}
	if from, err := Recover(digest, sig); err != nil || from != key.Address() {
		t.Fatalf("recover = %s, %v", from, err)
	}
	same, err := KeyFromBytes(key.Bytes())
	if err != nil || same.Address() != key.Address() {
		t.Fatalf("key bytes round trip: %v", err)
	}
}

func TestRecoverRefusesEveryNonCanonicalSignature(t *testing.T) {
	t.Parallel()
	key, _ := GenerateKey()
	digest := Keccak256([]byte("a message"))
	sig := key.Sign(digest)
	withV := func(v byte) Signature { s := sig; s[64] = v; return s }
	var zero Signature
	zero[64] = 27
	for name, tc := range map[string]struct {
		sig  Signature
		want error
	}{
		"high s":       {Malleate(sig), ErrHighS},
		"v = 0":        {withV(0), ErrBadV},
		"v = 29":       {withV(29), ErrBadV},
		"v = 255":      {withV(255), ErrBadV},
		"zero r and s": {zero, ErrSignature},
	} {
		if _, err := Recover(digest, tc.sig); !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", name, err, tc.want)
		}
	}
}

func TestKeyFromBytesRefusesOutOfRangeKeys(t *testing.T) {
	t.Parallel()
	order, _ := hex.DecodeString("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141")
	for name, b := range map[string][]byte{
		"zero": make([]byte, 32), "the curve order": order, "short": make([]byte, 31), "long": make([]byte, 33),
	} {
		if _, err := KeyFromBytes(b); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	if _, err := KeyFromHex("0xnothex"); err == nil {
		t.Error("non-hex key accepted")
	}
}

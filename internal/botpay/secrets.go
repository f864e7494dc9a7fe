package botpay

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"math"
	"math/big"
	"strings"
	"time"
)

// Prefixes of the secrets the service hands out (docs/decisions.md).
const (
	APIKeyPrefix        = "bp_live_"
	OwnerTokenPrefix    = "bpo_live_"
	WebhookSecretPrefix = "whsec_"
	TunnelTokenPrefix   = "bpt_"
	secretHexLen        = 48
)

// NewID returns prefix + 16 random hex characters.
func NewID(prefix string) string { return prefix + randomHex(8) }

// NewSecret returns prefix + 48 random hex characters (24 bytes).
func NewSecret(prefix string) string { return prefix + randomHex(secretHexLen/2) }

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error()) // never happens on supported platforms
	}
	return hex.EncodeToString(b)
}

// Digest is the stored form of a bearer secret: hex SHA-256. Secrets carry
// 192 random bits, so a fast hash is enough and allows lookup by digest.
func Digest(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// DigestsEqual compares two digests in constant time.
func DigestsEqual(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// WellFormedSecret reports whether s has the given prefix followed by exactly
// 48 lowercase hex characters; malformed keys are rejected before any lookup.
func WellFormedSecret(s, prefix string) bool {
	if !strings.HasPrefix(s, prefix) || len(s) != len(prefix)+secretHexLen {
		return false
	}
	for _, c := range s[len(prefix):] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// claimWords are short, unambiguous English words for claim tokens.
var claimWords = strings.Fields(`acorn amber anchor apple arrow aspen atlas badge bamboo basil beacon
berry birch blaze bloom brook cabin cactus canyon cedar chalk cherry cider cliff clover cobalt comet
coral cotton crane creek crystal daisy delta dune eagle echo ember falcon fern fjord flint forest
fossil frost garnet glacier granite grove harbor hazel heron honey indigo iris island ivory jade
jasper juniper kayak kelp lagoon lantern lark laurel lemon lilac linen lotus maple marble meadow
mesa mint moss nectar nova oak oasis olive onyx orbit orchid otter pebble pepper pine plum polar
quartz quill raven reef ridge river robin saffron sage sierra silver slate sparrow spruce stone
summit swift tango thistle thunder tide timber topaz tulip tundra velvet violet walnut willow
winter zephyr`)

// claimAlphabet omits look-alike characters (0/O, 1/I/L).
const claimAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// Claim tokens read like "reef-7K3M-Q9XH-2BWP": a word and ClaimTokenGroups
// groups of four characters, log2(121) + 12·log2(31) ≈ 66 bits, so that
// guessing one within its lifetime is hopeless whatever the rate limits
// (docs/security.md).
const (
	ClaimTokenGroups    = 3
	claimTokenGroupSize = 4
	// ClaimTokenLifetime is how long after registration a claim token
	// works; an expired one answers like an unknown one.
	ClaimTokenLifetime = 7 * 24 * time.Hour
)

// NewClaimToken returns a token like "reef-7K3M-Q9XH-2BWP" (docs/decisions.md).
func NewClaimToken() string {
	var b strings.Builder
	b.WriteString(claimWords[randomInt(len(claimWords))])
	for range ClaimTokenGroups {
		b.WriteByte('-')
		for range claimTokenGroupSize {
			b.WriteByte(claimAlphabet[randomInt(len(claimAlphabet))])
		}
	}
	return b.String()
}

// ClaimTokenBits is the entropy of a claim token: the bits of its word and
// of each random character.
func ClaimTokenBits() float64 {
	return math.Log2(float64(len(claimWords))) +
		float64(ClaimTokenGroups*claimTokenGroupSize)*math.Log2(float64(len(claimAlphabet)))
}

// NormalizeClaimToken makes pasted tokens forgiving of case and spaces.
func NormalizeClaimToken(s string) string {
	s = strings.TrimSpace(s)
	word, code, ok := strings.Cut(s, "-")
	if !ok {
		return strings.ToLower(s)
	}
	return strings.ToLower(word) + "-" + strings.ToUpper(code)
}

// NewPairingCode returns six random decimal digits.
func NewPairingCode() string {
	const digits = "0123456789"
	b := make([]byte, 6)
	for i := range b {
		b[i] = digits[randomInt(10)]
	}
	return string(b)
}

func randomInt(n int) int {
	v, err := rand.Int(rand.Reader, big.NewInt(int64(n)))
	if err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return int(v.Int64())
}

package evm

import (
	"encoding/hex"
	"math/big"
	"strings"
	"testing"
)

// The examples of the RLP specification (ethereum.org, "Recursive-length
// prefix serialization").
func TestRLPEncodesTheSpecificationExamples(t *testing.T) {
	t.Parallel()
	lorem := "Lorem ipsum dolor sit amet, consectetur adipisicing elit"
	for _, tc := range []struct {
		name string
		item RLPItem
		want string
	}{
		{"the string dog", RLPString("dog"), "83646f67"},
		{"the list cat dog", RLPList{RLPString("cat"), RLPString("dog")}, "c88363617483646f67"},
		{"the empty string", RLPString{}, "80"},
		{"the empty list", RLPList{}, "c0"},
		{"the integer 0", RLPUint(0), "80"},
		{"the byte 0x00", RLPString{0x00}, "00"},
		{"the byte 0x0f", RLPString{0x0f}, "0f"},
		{"the bytes 0x0400", RLPString{0x04, 0x00}, "820400"},
		{"the integer 15", RLPUint(15), "0f"},
		{"the integer 1024", RLPUint(1024), "820400"},
		{"the integer 128", RLPUint(128), "8180"},
		{"a big integer", RLPBig(new(big.Int).Lsh(big.NewInt(1), 64)), "89010000000000000000"},
		{"the set-theoretical three", RLPList{RLPList{}, RLPList{RLPList{}}, RLPList{RLPList{}, RLPList{RLPList{}}}}, "c7c0c1c0c3c0c1c0"},
		{"a 56-byte string", RLPString(lorem), "b838" + hex.EncodeToString([]byte(lorem))},
		{"a list longer than 55 bytes", RLPList{RLPString(lorem)}, "f83ab838" + hex.EncodeToString([]byte(lorem))},
		{"a 1024-byte string", RLPString(strings.Repeat("a", 1024)), "b90400" + strings.Repeat("61", 1024)},
	} {
		if got := hex.EncodeToString(EncodeRLP(tc.item)); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
	}
}

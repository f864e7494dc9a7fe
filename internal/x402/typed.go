package x402

import (
	"encoding/binary"
	"strconv"
	"strings"
)

// Domain is the EIP-712 domain of a token contract.
type Domain struct {
	Name     string
	Version  string
	ChainID  uint64
	Contract Address
}

// USDC on Base mainnet: the domain the sign endpoint signs for.
var (
	BaseUSDCContract = mustAddress("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913")
	BaseUSDC         = Domain{Name: "USD Coin", Version: "2", ChainID: 8453, Contract: BaseUSDCContract}
)

// Network is the x402 v1 name of chain 8453.
const Network = "base"

// networks are the x402 v1 names of the EVM chains stock clients know.
var networks = map[uint64]string{8453: "base", 84532: "base-sepolia", 43114: "avalanche", 43113: "avalanche-fuji",
	137: "polygon", 80002: "polygon-amoy", 1329: "sei", 1328: "sei-testnet", 4689: "iotex"}

// NetworkOf is the x402 v1 network name of a chain ("base" for 8453,
// "base-sepolia" for 84532); chains x402 v1 has no name for are
// "eip155:<id>".
func NetworkOf(chainID uint64) string {
	if n, ok := networks[chainID]; ok {
		return n
	}
	return "eip155:" + u(chainID)
}

// ChainOfNetwork is the chain id of an x402 v1 network name.
func ChainOfNetwork(network string) (uint64, bool) {
	for id, n := range networks {
		if n == network {
			return id, true
		}
	}
	if rest, ok := strings.CutPrefix(network, "eip155:"); ok {
		id, err := strconv.ParseUint(rest, 10, 64)
		return id, err == nil && id > 0
	}
	return 0, false
}

// Network is the x402 v1 network name of the domain's chain.
func (d Domain) Network() string { return NetworkOf(d.ChainID) }

func mustAddress(s string) Address {
	a, err := ParseAddress(s)
	if err != nil {
		panic(err)
	}
	return a
}

var (
	domainTypeHash   = Keccak256([]byte("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"))
	transferTypeHash = Keccak256([]byte("TransferWithAuthorization(address from,address to,uint256 value," +
		"uint256 validAfter,uint256 validBefore,bytes32 nonce)"))
)

// Separator is the EIP-712 domain separator.
func (d Domain) Separator() [32]byte {
	name, version := Keccak256([]byte(d.Name)), Keccak256([]byte(d.Version))
	return Keccak256(domainTypeHash[:], name[:], version[:], word(d.ChainID), addressWord(d.Contract))
}

// Authorization is an EIP-3009 TransferWithAuthorization. Amounts are
// micro-USDC; times are Unix seconds.
type Authorization struct {
	From        Address
	To          Address
	Value       uint64
	ValidAfter  uint64
	ValidBefore uint64
	Nonce       Nonce
}

// StructHash is hashStruct(TransferWithAuthorization).
func (a Authorization) StructHash() [32]byte {
	return Keccak256(transferTypeHash[:], addressWord(a.From), addressWord(a.To), word(a.Value),
		word(a.ValidAfter), word(a.ValidBefore), a.Nonce[:])
}

// Digest is the EIP-712 digest the payer signs: keccak256(0x1901 ‖
// domainSeparator ‖ structHash).
func (d Domain) Digest(a Authorization) [32]byte {
	sep, h := d.Separator(), a.StructHash()
	return Keccak256([]byte{0x19, 0x01}, sep[:], h[:])
}

func word(v uint64) []byte {
	var w [32]byte
	binary.BigEndian.PutUint64(w[24:], v)
	return w[:]
}

func addressWord(a Address) []byte {
	var w [32]byte
	copy(w[12:], a[:])
	return w[:]
}

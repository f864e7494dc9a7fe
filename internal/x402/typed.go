package x402

import (
	"encoding/binary"
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

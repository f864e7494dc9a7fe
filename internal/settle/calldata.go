package settle

import (
	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/x402"
)

// The token functions the relayer calls (EIP-3009 and ERC-20).
const (
	transferWithAuthorization = "transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)"
	authorizationState        = "authorizationState(address,bytes32)"
	balanceOf                 = "balanceOf(address)"
)

// TransferWithAuthorizationSelector is the first four bytes of
// keccak256 of transferWithAuthorization's signature.
var TransferWithAuthorizationSelector = evm.Selector(transferWithAuthorization)

// CallData ABI-encodes the contract call for a signed authorization.
func CallData(p x402.Payment) []byte {
	a, sig := p.Authorization, p.Signature
	return evm.Call(transferWithAuthorization, evm.WordAddress(a.From), evm.WordAddress(a.To), evm.WordUint(a.Value),
		evm.WordUint(a.ValidAfter), evm.WordUint(a.ValidBefore), a.Nonce[:], evm.WordUint(uint64(sig[64])), sig[:32], sig[32:64])
}

// AuthorizationStateCall asks whether (from, nonce) was used or canceled.
func AuthorizationStateCall(from x402.Address, nonce x402.Nonce) []byte {
	return evm.Call(authorizationState, evm.WordAddress(from), nonce[:])
}

// BalanceOfCall asks an address's token balance.
func BalanceOfCall(a x402.Address) []byte { return evm.Call(balanceOf, evm.WordAddress(a)) }

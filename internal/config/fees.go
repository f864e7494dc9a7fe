package config

import (
	"fmt"
	"math/big"
)

// feeCap reads BOTPAY_X402_MAX_FEE_GWEI (decimals allowed) as wei.
func feeCap(gwei string) (*big.Int, error) {
	r, ok := new(big.Rat).SetString(gwei)
	if !ok || r.Sign() <= 0 {
		return nil, fmt.Errorf("BOTPAY_X402_MAX_FEE_GWEI must be a positive number of gwei")
	}
	wei := new(big.Rat).Mul(r, new(big.Rat).SetInt64(1_000_000_000))
	return new(big.Int).Quo(wei.Num(), wei.Denom()), nil
}

// minRelayerGas reads BOTPAY_X402_MIN_RELAYER_GAS_WEI, a whole number of
// wei (0 turns the check off).
func minRelayerGas(wei string) (*big.Int, error) {
	v, ok := new(big.Int).SetString(wei, 10)
	if !ok || v.Sign() < 0 {
		return nil, fmt.Errorf("BOTPAY_X402_MIN_RELAYER_GAS_WEI must be a non-negative whole number of wei")
	}
	return v, nil
}

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

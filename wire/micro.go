package wire

// MicroUSDC is a token amount in micro-units: 1 USDC = 1,000,000. On the
// wire it is a JSON integer.
type MicroUSDC int64

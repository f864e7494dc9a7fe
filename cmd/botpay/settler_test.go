package main

import (
	"testing"

	"github.com/botpay/botpay/internal/config"
	"github.com/botpay/botpay/internal/settle"
)

func TestX402SettlerIsSandboxUnlessANodeIsNamed(t *testing.T) {
	if s, err := x402Settler(config.Config{}); s != nil || err != nil {
		t.Fatalf("default = %v, %v", s, err)
	}
	for name, x := range map[string]config.X402{
		"no relayer":  {RPCURL: "http://127.0.0.1:8545"},
		"bad url":     {RPCURL: "127.0.0.1:8545", Relayer: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C"},
		"bad address": {RPCURL: "http://127.0.0.1:8545", Relayer: "0x123"},
	} {
		if _, err := x402Settler(config.Config{X402: x}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	s, err := x402Settler(config.Config{X402: config.X402{RPCURL: "http://127.0.0.1:8545", Relayer: "0x209693bc6afc0c5328ba36faf03c514ef312287c"}})
	if j, ok := s.(settle.JSONRPC); err != nil || !ok || j.Relayer.Hex() != "0x209693Bc6afc0C5328bA36FaF03C514EF312287C" {
		t.Fatalf("node settler = %#v, %v", s, err)
	}
}

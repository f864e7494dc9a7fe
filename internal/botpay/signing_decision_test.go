package botpay

import (
	"errors"
	"testing"
	"time"
)

func TestDecideSigning(t *testing.T) {
	now := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)
	rules := func(adjust func(*SigningFacts)) SigningFacts {
		g := DefaultGuardrails(now)
		g.ApprovalMode, g.PerTransaction, g.Daily, g.Monthly, g.AskApprovalAbove = ApprovalUnderThreshold, 1000, 2000, 5000, nil
		f := SigningFacts{Guardrails: g, Available: 100_000_000}
		if adjust != nil {
			adjust(&f)
		}
		return f
	}
	above := Money(499)
	masterDay := Money(3000)
	const to = "0x209693bc6afc0c5328ba36faf03c514ef312287c"
	ask := SigningAsk{Amount: 5_000_000, Host: "vendor.example", Recipient: to} // $5
	cases := []struct {
		name    string
		facts   SigningFacts
		ask     SigningAsk
		want    SigningVerdict
		wantErr error
	}{
		{"signed at once", rules(nil), ask, SigningVerdict{}, nil},
		{"frozen first, whatever else", rules(func(f *SigningFacts) { f.Frozen, f.Available = true, 0 }), ask,
			SigningVerdict{Blocked: true, Reason: "the owner has frozen this bot's wallet"}, nil},
		{"wallet short of tokens", rules(func(f *SigningFacts) { f.Available = 4_999_999 }), ask, SigningVerdict{}, ErrInsufficientTokens},
		{"exactly what is available", rules(func(f *SigningFacts) { f.Available = 5_000_000 }), ask, SigningVerdict{}, nil},
		{"over the threshold: held", rules(func(f *SigningFacts) { f.Guardrails.AskApprovalAbove = &above }), ask,
			SigningVerdict{NeedsApproval: true}, nil},
		{"ask for everything: held", rules(func(f *SigningFacts) { f.Guardrails.ApprovalMode = ApprovalAskForEverything }), ask,
			SigningVerdict{NeedsApproval: true}, nil},
		{"per-transaction limit", rules(func(f *SigningFacts) { f.Guardrails.PerTransaction = 499 }), ask,
			SigningVerdict{Blocked: true, Reason: "amount exceeds the per-transaction limit of $4.99"}, nil},
		{"daily limit with what is spent", rules(func(f *SigningFacts) { f.Spent.BotDay = 1501 }), ask,
			SigningVerdict{Blocked: true, Reason: "amount exceeds the daily limit of $20.00"}, nil},
		{"master daily budget across bots", rules(func(f *SigningFacts) {
			f.Master, f.Spent.OwnerDay = &MasterGuardrails{DailyBudget: &masterDay}, 2501
		}), ask, SigningVerdict{Blocked: true, Reason: "amount exceeds the owner's master daily budget of $30.00"}, nil},
		{"blocked domain", rules(func(f *SigningFacts) { f.Procurement.BlockedDomains = []string{"vendor.example"} }), ask,
			SigningVerdict{Blocked: true, Reason: "domain vendor.example is blocked by procurement controls"}, nil},
		{"lists, not yet bound", rules(func(f *SigningFacts) { f.Procurement.AllowedDomains = []string{"vendor.example"} }), ask,
			SigningVerdict{}, ErrBindRecipientFirst},
		{"lists, bound", rules(func(f *SigningFacts) { f.Procurement.AllowedDomains = []string{"vendor.example"} }),
			SigningAsk{Amount: ask.Amount, Host: ask.Host, Recipient: to, Bound: true}, SigningVerdict{}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := DecideSigning(c.facts, c.ask)
			if !errors.Is(err, c.wantErr) || got != c.want {
				t.Fatalf("DecideSigning = %+v, %v; want %+v, %v", got, err, c.want, c.wantErr)
			}
		})
	}
}

func TestDecideHeldSigning(t *testing.T) {
	now := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)
	open, closed := now.Add(time.Second), now
	cases := []struct {
		name string
		r    SigningRequest
		want error
	}{
		{"pending, window open", SigningRequest{Status: SigningPending, ExpiresAt: &open}, nil},
		{"pending, window closed", SigningRequest{Status: SigningPending, ExpiresAt: &closed}, ErrSigningExpired},
		{"expired by the sweep", SigningRequest{Status: SigningExpired}, ErrSigningExpired},
		{"already signed", SigningRequest{Status: SigningSigned}, ErrSigningAlreadyDecided},
		{"already denied", SigningRequest{Status: SigningDenied}, ErrSigningAlreadyDecided},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := DecideHeldSigning(c.r, now); !errors.Is(err, c.want) {
				t.Fatalf("DecideHeldSigning = %v, want %v", err, c.want)
			}
		})
	}
}

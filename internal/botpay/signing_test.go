package botpay

import "testing"

func TestProcurementAllows(t *testing.T) {
	const host, to = "api.vendor.example", "0x209693Bc6afc0C5328bA36FaF03C514EF312287C"
	cases := map[string]struct {
		p      Procurement
		ok     bool
		reason string
	}{
		"no controls":                     {Procurement{}, true, ""},
		"blocked parent domain":           {Procurement{BlockedDomains: []string{"vendor.example"}}, false, "domain api.vendor.example is blocked by procurement controls"},
		"blocked wildcard, any case":      {Procurement{BlockedDomains: []string{"*.VENDOR.example"}}, false, "domain api.vendor.example is blocked by procurement controls"},
		"look-alike not matched":          {Procurement{BlockedDomains: []string{"dor.example"}}, true, ""},
		"allowed domain":                  {Procurement{AllowedDomains: []string{"vendor.example"}}, true, ""},
		"not in allowed":                  {Procurement{AllowedDomains: []string{"other.example"}}, false, "domain api.vendor.example is not in the allowed domains of procurement controls"},
		"block wins over allow":           {Procurement{AllowedDomains: []string{"vendor.example"}, BlockedDomains: []string{"api.vendor.example"}}, false, "domain api.vendor.example is blocked by procurement controls"},
		"blocked recipient":               {Procurement{BlockedMerchants: []string{"0x209693bc6afc0c5328ba36faf03c514ef312287c"}}, false, "merchant is blocked by procurement controls"},
		"blocked merchant host":           {Procurement{BlockedMerchants: []string{"vendor.example"}}, false, "merchant is blocked by procurement controls"},
		"allowed recipient":               {Procurement{AllowedMerchants: []string{to}}, true, ""},
		"merchant not allowed":            {Procurement{AllowedMerchants: []string{"0x0000000000000000000000000000000000000001"}}, false, "merchant is not in the allowed merchants of procurement controls"},
		"blank entries ignored":           {Procurement{BlockedDomains: []string{"", " "}, BlockedMerchants: []string{""}}, true, ""},
		"in allowed recipients, any case": {Procurement{AllowedRecipients: []string{"0x209693BC6AFC0C5328BA36FAF03C514EF312287C"}}, true, ""},
		"not in allowed recipients": {Procurement{AllowedRecipients: []string{"0x5FbDB2315678afecb367f032d93F642f64180aa3"}}, false,
			"recipient 0x209693bc6afc0c5328ba36faf03c514ef312287c is not in the allowed recipients of procurement controls"},
	}
	for name, c := range cases {
		ok, reason := ProcurementAllows(host, to, c.p)
		if ok != c.ok || reason != c.reason {
			t.Errorf("%s: got %v %q, want %v %q", name, ok, reason, c.ok, c.reason)
		}
	}
}

func TestAnyListBindsTheRecipient(t *testing.T) {
	for name, c := range map[string]struct {
		p    Procurement
		want bool
	}{
		"none":               {Procurement{}, false},
		"blocked domains":    {Procurement{BlockedDomains: []string{"a.example"}}, true},
		"blocked merchants":  {Procurement{BlockedMerchants: []string{"b"}}, true},
		"blocked recipients": {Procurement{BlockedRecipients: []string{"0x209693Bc6afc0C5328bA36FaF03C514EF312287C"}}, true},
		"allowed domains":    {Procurement{AllowedDomains: []string{"a.example"}}, true},
		"allowed merchants":  {Procurement{AllowedMerchants: []string{"a"}}, true},
		"allowed recipients": {Procurement{AllowedRecipients: []string{"0x209693Bc6afc0C5328bA36FaF03C514EF312287C"}}, true},
	} {
		if got := c.p.BindsRecipient(); got != c.want {
			t.Errorf("%s: %v, want %v", name, got, c.want)
		}
	}
}

func TestEvaluateSigningOrder(t *testing.T) {
	m := func(v Money) *Money { return &v }
	base := SigningCheck{Amount: 1_000_000, Host: "a.example", Recipient: "0x1",
		Guardrails: Guardrails{ApprovalMode: ApprovalUnderThreshold, PerTransaction: 10000, Daily: 10000, Monthly: 10000, AskApprovalAbove: m(50)}}
	cases := map[string]struct {
		change func(*SigningCheck)
		want   SigningVerdict
	}{
		"above threshold is held":      {func(c *SigningCheck) {}, SigningVerdict{NeedsApproval: true}},
		"at threshold signs":           {func(c *SigningCheck) { c.Guardrails.AskApprovalAbove = m(100) }, SigningVerdict{}},
		"fraction of a cent rounds up": {func(c *SigningCheck) { c.Amount = 1_000_001; c.Guardrails.AskApprovalAbove = m(100) }, SigningVerdict{NeedsApproval: true}},
		"no threshold signs":           {func(c *SigningCheck) { c.Guardrails.AskApprovalAbove = nil }, SigningVerdict{}},
		"ask for everything": {func(c *SigningCheck) {
			c.Guardrails.ApprovalMode = ApprovalAskForEverything
			c.Guardrails.AskApprovalAbove = nil
		}, SigningVerdict{NeedsApproval: true}},
		"by category holds": {func(c *SigningCheck) { c.Guardrails.ApprovalMode = ApprovalByCategory }, SigningVerdict{NeedsApproval: true}},
		"master before limits": {func(c *SigningCheck) {
			c.Master = &MasterGuardrails{PerTransaction: m(50)}
			c.Guardrails.PerTransaction = 10
		}, SigningVerdict{Blocked: true, Reason: "amount exceeds the owner's master per-transaction limit of $0.50"}},
		"master daily counts the owner": {func(c *SigningCheck) { c.Master = &MasterGuardrails{DailyBudget: m(150)}; c.OwnerSpentDay = 60 },
			SigningVerdict{Blocked: true, Reason: "amount exceeds the owner's master daily budget of $1.50"}},
		"limit refuses what approval would hold": {func(c *SigningCheck) { c.Guardrails.PerTransaction = 99 },
			SigningVerdict{Blocked: true, Reason: "amount exceeds the per-transaction limit of $0.99"}},
		"daily counts the bot": {func(c *SigningCheck) { c.BotSpentDay = 9901 },
			SigningVerdict{Blocked: true, Reason: "amount exceeds the daily limit of $100.00"}},
		"monthly": {func(c *SigningCheck) { c.Guardrails.Daily = 1 << 40; c.BotSpentMonth = 9950 },
			SigningVerdict{Blocked: true, Reason: "amount exceeds the monthly limit of $100.00"}},
		"procurement last": {func(c *SigningCheck) { c.Procurement.BlockedDomains = []string{"a.example"} },
			SigningVerdict{Blocked: true, Reason: "domain a.example is blocked by procurement controls"}},
	}
	for name, c := range cases {
		in := base
		c.change(&in)
		if got := EvaluateSigning(in); got != c.want {
			t.Errorf("%s: got %+v, want %+v", name, got, c.want)
		}
	}
}

func TestMicro(t *testing.T) {
	for v, want := range map[Micro]string{0: "0", 1: "0.000001", 1_500_000: "1.5", 12_340_000: "12.34", -250_000: "-0.25", 1_000_000_000_000: "1000000"} {
		if got := v.USD(); got != want {
			t.Errorf("%d: %s, want %s", v, got, want)
		}
	}
	if MicroOf(1234) != 12_340_000 || Micro(10_001).CentsCeil() != 2 || Micro(10_000).CentsCeil() != 1 || !Micro(20_000).WholeCents() || Micro(20_001).WholeCents() {
		t.Fatal("conversions")
	}
}

package web

import (
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
)

func TestApprovalRowsOfBothKindsNameTheirBotAndExpiry(t *testing.T) {
	exp := time.Date(2026, 11, 22, 1, 0, 0, 0, time.UTC)
	purchase := app.Approval{Kind: "purchase", Purchase: botpay.Purchase{BotID: "bot_p", ExpiresAt: exp}}
	signing := app.Approval{Kind: "signing", Signing: app.SigningApproval{BotID: "bot_s", ExpiresAt: botpay.Timestamp(exp.Add(time.Minute))}}
	if approvalBotID(purchase) != "bot_p" || approvalBotID(signing) != "bot_s" {
		t.Errorf("bots: %q %q", approvalBotID(purchase), approvalBotID(signing))
	}
	if !approvalExpiry(purchase).Equal(exp) || !approvalExpiry(signing).Equal(exp.Add(time.Minute)) {
		t.Errorf("expiries: %v %v", approvalExpiry(purchase), approvalExpiry(signing))
	}
}

func TestApprovalsQueueRendersSigningRowsEscapedWithLabelledForms(t *testing.T) {
	exp := time.Date(2026, 11, 22, 1, 0, 0, 0, time.UTC)
	rows := []approvalRow{
		{Approval: app.Approval{Kind: "purchase", Purchase: botpay.Purchase{ID: "chk_1", ItemName: "Widget", MerchantName: "Shop", Amount: 2500, ExpiresAt: exp}},
			BotName: "buyer", TimeLeft: "5 min 0 s", Expires: exp},
		{Approval: app.Approval{Kind: "signing", Signing: app.SigningApproval{Kind: "signing", ID: 42, AmountUSD: 1_234,
			MerchantName: `h"ost<i>`, ItemName: `https://h.example/"><script>alert(1)</script>`}},
			BotName: `<b>bot</b>`, TimeLeft: "14 min 0 s", Expires: exp.Add(9 * time.Minute)},
	}
	var out strings.Builder
	if err := dashSets[false]["approvals"].ExecuteTemplate(&out, "layout.html", page{Title: "Approvals", Data: approvalsPage{Rows: rows}}); err != nil {
		t.Fatal(err)
	}
	html := out.String()
	for _, want := range []string{`data-kind="signing" data-id="42"`, "0.001234 USDC", "&lt;b&gt;bot&lt;/b&gt;", "h&#34;ost&lt;i&gt;",
		"&lt;script&gt;alert(1)&lt;/script&gt;", "2026-11-22 01:09 UTC", "14 min 0 s",
		`<form method="post" action="/dashboard/approvals/signing/42/approve"><button type="submit" aria-label="Approve signing request 42">`,
		`<form method="post" action="/dashboard/approvals/signing/42/deny"><button type="submit" class="danger" aria-label="Deny signing request 42">`,
		`data-id="chk_1"`} {
		if !strings.Contains(html, want) {
			t.Errorf("queue lacks %q", want)
		}
	}
	for _, raw := range []string{"<script>", "<b>bot", "<i>"} {
		if strings.Contains(html, raw) {
			t.Errorf("queue shows %q unescaped", raw)
		}
	}
}

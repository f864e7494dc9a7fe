package invoicepdf_test

import (
	"bytes"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ledongthuc/pdf"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/invoicepdf"
	"github.com/botpay/botpay/internal/suite"
)

func text(t *testing.T, doc []byte) (string, int) {
	t.Helper()
	r, err := pdf.NewReader(bytes.NewReader(doc), int64(len(doc)))
	if err != nil {
		t.Fatal(err)
	}
	rd, err := r.GetPlainText()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(rd)
	return string(b), r.NumPage()
}

func TestRenderShowsEveryLineAndTheTotals(t *testing.T) {
	t.Parallel()
	inv := botpay.Invoice{ReferenceNumber: "INV-2026-000042", SenderName: "Bot", RecipientName: "Café Zoë", Notes: "Thanks — 谢谢",
		CreatedAt: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), DueDate: time.Date(2026, 12, 21, 0, 0, 0, 0, time.UTC),
		LineItems: []botpay.LineItem{{Description: "Espresso", Quantity: "3", UnitPrice: 250, Amount: 750}},
		Subtotal:  750, Tax: 60, Total: 810}
	doc, err := invoicepdf.Render(inv, "https://pay.example.com/pay/cp_1?ref=INV-2026-000042")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := text(t, doc)
	for _, want := range []string{"INV-2026-000042", "Espresso", "$2.50", "$7.50", "$0.60", "$8.10", "21 December 2026", "Café Zoë", "Thanks"} {
		if !strings.Contains(got, want) {
			t.Errorf("PDF text lacks %q:\n%s", want, got)
		}
	}
}

func TestRenderFlowsManyLinesOntoMorePages(t *testing.T) {
	t.Parallel()
	inv := botpay.Invoice{ReferenceNumber: "INV-2026-000043", CreatedAt: time.Now(), DueDate: time.Now()}
	for i := range 100 {
		inv.LineItems = append(inv.LineItems, botpay.LineItem{Description: strings.Repeat("word ", 30) + string(rune('A'+i%26)),
			Quantity: "1", UnitPrice: 100, Amount: 100})
	}
	inv.Subtotal, inv.Total = 10000, 10000
	doc, err := invoicepdf.Render(inv, "")
	if err != nil {
		t.Fatal(err)
	}
	got, pages := text(t, doc)
	if pages < 3 || !strings.Contains(got, "$100.00") {
		t.Errorf("%d pages; total present: %v", pages, strings.Contains(got, "$100.00"))
	}
}

// Names and notes in Latin, Greek and Cyrillic scripts print as written
// (the embedded Go fonts); what no embedded glyph can draw prints as ".".
// Read back with poppler's pdftotext, which decodes the embedded fonts'
// Unicode maps (the Go reader above reads one byte per character).
func TestRenderPrintsLatinGreekAndCyrillicAsWritten(t *testing.T) {
	t.Parallel()
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		suite.PDF.Need(t, "pdftotext is not installed")
	}
	suite.PDF.Need(t)
	inv := botpay.Invoice{ReferenceNumber: "INV-2026-000044", RecipientName: "Łódź Привет Ελλάδα", Notes: "Thanks — 谢谢 €5",
		CreatedAt: time.Now(), DueDate: time.Now(),
		LineItems: []botpay.LineItem{{Description: "Kaffee für Jürgen, чай", Quantity: "1", UnitPrice: 100, Amount: 100}},
		Subtotal:  100, Total: 100}
	doc, err := invoicepdf.Render(inv, "")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(pdftotext, "-", "-")
	cmd.Stdin = bytes.NewReader(doc)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	got := strings.Join(strings.Fields(string(out)), " ")
	for _, want := range []string{"Łódź Привет Ελλάδα", "Kaffee für Jürgen, чай", "Thanks — .. €5"} {
		if !strings.Contains(got, want) {
			t.Errorf("PDF text lacks %q:\n%s", want, got)
		}
	}
}

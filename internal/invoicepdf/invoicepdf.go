// Package invoicepdf renders an invoice as a PDF document with go-pdf/fpdf.
// It owns layout only: it reads a finished botpay.Invoice and writes bytes;
// it knows nothing of storage, mail or HTTP.
package invoicepdf

import (
	"bytes"
	"fmt"
	"strings"
	"sync"

	"github.com/go-pdf/fpdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"

	"github.com/botpay/botpay/internal/botpay"
)

// font is the embedded family: the Go fonts (BSD licence) cover Latin,
// Greek and Cyrillic, so names such as Łódź or Привет print as written,
// which the PDF core fonts (cp1252 only) could not.
const font = "Go"

// Render lays out inv on one or more A4 pages. payURL is the absolute
// address where the invoice can be paid. A character the font has no glyph
// for (CJK, emoji) is shown as ".", so a line never breaks the layout.
func Render(inv botpay.Invoice, payURL string) ([]byte, error) {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetTitle(inv.ReferenceNumber, true)
	pdf.SetCreator("botpay", true)
	pdf.SetAutoPageBreak(true, 15)
	pdf.AddUTF8FontFromBytes(font, "", goregular.TTF)
	pdf.AddUTF8FontFromBytes(font, "B", gobold.TTF)
	pdf.AddPage()
	header(pdf, inv)
	lineItems(pdf, inv.LineItems)
	totals(pdf, inv)
	footer(pdf, inv.Notes, payURL)
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		return nil, fmt.Errorf("render invoice %s: %w", inv.ReferenceNumber, err)
	}
	return buf.Bytes(), nil
}

// columns are the widths of description, quantity, unit price and amount.
var columns = []float64{100, 20, 30, 30}

// header writes the title and who issued the invoice to whom, and when.
func header(pdf *fpdf.Fpdf, inv botpay.Invoice) {
	pdf.SetFont(font, "B", 20)
	pdf.CellFormat(0, 10, "Invoice "+inv.ReferenceNumber, "", 1, "L", false, 0, "")
	pdf.SetFont(font, "", 10)
	meta := [][2]string{
		{"Issued", inv.CreatedAt.UTC().Format("2 January 2006")},
		{"Due", inv.DueDate.UTC().Format("2 January 2006")},
		{"From", strings.TrimSpace(inv.SenderName + " " + bracket(inv.SenderEmail))},
		{"To", strings.TrimSpace(inv.RecipientName + " " + bracket(inv.RecipientEmail))},
	}
	for _, m := range meta {
		pdf.SetFont(font, "B", 10)
		pdf.CellFormat(25, 6, m[0], "", 0, "L", false, 0, "")
		pdf.SetFont(font, "", 10)
		pdf.MultiCell(0, 6, printable(m[1]), "", "L", false)
	}
	pdf.Ln(4)
}

// lineItems writes the table of lines; a long description wraps within its
// column and may run onto the next page.
func lineItems(pdf *fpdf.Fpdf, lines []botpay.LineItem) {
	pdf.SetFont(font, "B", 10)
	pdf.SetFillColor(235, 238, 245)
	for k, h := range []string{"Description", "Qty", "Unit price", "Amount"} {
		align := "R"
		if k == 0 {
			align = "L"
		}
		pdf.CellFormat(columns[k], 8, h, "B", 0, align, true, 0, "")
	}
	pdf.Ln(-1)
	pdf.SetFont(font, "", 10)
	for _, l := range lines {
		x, y := pdf.GetXY()
		pdf.MultiCell(columns[0], 6, printable(l.Description), "", "L", false)
		bottom := pdf.GetY()
		if bottom < y { // the description moved to a new page
			_, y, _, _ = pdf.GetMargins()
		}
		pdf.SetXY(x+columns[0], y)
		pdf.CellFormat(columns[1], 6, l.Quantity, "", 0, "R", false, 0, "")
		pdf.CellFormat(columns[2], 6, usd(l.UnitPrice), "", 0, "R", false, 0, "")
		pdf.CellFormat(columns[3], 6, usd(l.Amount), "", 0, "R", false, 0, "")
		pdf.SetXY(x, max(bottom, y+6))
	}
	pdf.Ln(2)
}

// totals writes subtotal, tax and the total (bold) under the amounts.
func totals(pdf *fpdf.Fpdf, inv botpay.Invoice) {
	for _, t := range []struct {
		label string
		m     botpay.Money
		style string
	}{{"Subtotal", inv.Subtotal, ""}, {"Tax", inv.Tax, ""}, {"Total", inv.Total, "B"}} {
		pdf.SetFont(font, t.style, 11)
		pdf.CellFormat(columns[0]+columns[1]+columns[2], 7, t.label, "", 0, "R", false, 0, "")
		pdf.CellFormat(columns[3], 7, usd(t.m), "", 1, "R", false, 0, "")
	}
	pdf.Ln(4)
}

// footer writes the notes, if any, and where to pay online.
func footer(pdf *fpdf.Fpdf, notes, payURL string) {
	pdf.SetFont(font, "", 10)
	if notes != "" {
		pdf.SetFont(font, "B", 10)
		pdf.CellFormat(0, 6, "Notes", "", 1, "L", false, 0, "")
		pdf.SetFont(font, "", 10)
		pdf.MultiCell(0, 5, printable(notes), "", "L", false)
		pdf.Ln(2)
	}
	if payURL != "" {
		pdf.MultiCell(0, 5, printable("Pay online: "+payURL), "", "L", false)
	}
}

func usd(m botpay.Money) string { return "$" + m.USD() }

func bracket(email string) string {
	if email == "" {
		return ""
	}
	return "<" + email + ">"
}

// glyphs is the set of characters both embedded faces can draw.
var glyphs = sync.OnceValue(func() func(rune) bool {
	var faces []*sfnt.Font
	for _, ttf := range [][]byte{goregular.TTF, gobold.TTF} {
		f, err := sfnt.Parse(ttf)
		if err != nil {
			panic("invoicepdf: embedded Go font: " + err.Error()) // fixed bytes of a pinned module
		}
		faces = append(faces, f)
	}
	return func(r rune) bool {
		var b sfnt.Buffer
		for _, f := range faces {
			if i, err := f.GlyphIndex(&b, r); err != nil || i == 0 {
				return false
			}
		}
		return true
	}
})

// printable replaces what the fonts cannot draw: invalid UTF-8 with "?",
// characters without a glyph with ".", control characters with spaces.
func printable(s string) string {
	has := glyphs()
	return strings.Map(func(r rune) rune {
		switch {
		case r < 0x20 || r == 0x7f:
			return ' '
		case !has(r):
			return '.'
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
}

package e2e

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	netmail "net/mail"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	smtp "github.com/emersion/go-smtp"
	"github.com/ledongthuc/pdf"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/wire"
)

// smtpInbox is a real SMTP server on a loopback port that keeps every
// message it accepts.
type smtpInbox struct {
	mu   sync.Mutex
	msgs []receivedMail
	Addr string
}

type receivedMail struct {
	From string
	To   []string
	Data []byte
}

func startSMTP(t *testing.T) *smtpInbox {
	t.Helper()
	inbox := &smtpInbox{}
	srv := smtp.NewServer(inbox)
	srv.Domain = "localhost"
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.AllowInsecureAuth = true
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	inbox.Addr = ln.Addr().String()
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return inbox
}

func (b *smtpInbox) NewSession(*smtp.Conn) (smtp.Session, error) { return &smtpSession{inbox: b}, nil }

// sender is an SMTP sender that delivers to the inbox from from.
func (b *smtpInbox) sender(from string) mail.SMTP {
	host, port, _ := net.SplitHostPort(b.Addr)
	portN, _ := strconv.Atoi(port)
	return mail.SMTP{Host: host, Port: portN, From: from}
}

func (b *smtpInbox) received() []receivedMail {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]receivedMail(nil), b.msgs...)
}

type smtpSession struct {
	inbox *smtpInbox
	cur   receivedMail
}

func (s *smtpSession) Reset()        { s.cur = receivedMail{} }
func (s *smtpSession) Logout() error { return nil }
func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	s.cur.From = from
	return nil
}
func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.cur.To = append(s.cur.To, to)
	return nil
}
func (s *smtpSession) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.cur.Data = data
	s.inbox.mu.Lock()
	s.inbox.msgs = append(s.inbox.msgs, s.cur)
	s.inbox.mu.Unlock()
	return nil
}

// mimePart is one leaf of a MIME message.
type mimePart struct {
	ContentType string
	Filename    string
	Body        []byte
}

// leafParts walks a MIME entity and returns its decoded leaves.
func leafParts(t *testing.T, header map[string][]string, body io.Reader) []mimePart {
	t.Helper()
	get := func(k string) string {
		if v := header[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	mediaType, params, err := mime.ParseMediaType(get("Content-Type"))
	if err != nil {
		t.Fatalf("content type %q: %v", get("Content-Type"), err)
	}
	if strings.HasPrefix(mediaType, "multipart/") {
		var out []mimePart
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextRawPart()
			if errors.Is(err, io.EOF) {
				return out
			}
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, leafParts(t, p.Header, p)...)
		}
	}
	data, _ := io.ReadAll(body)
	switch strings.ToLower(get("Content-Transfer-Encoding")) {
	case "base64":
		data, err = base64.StdEncoding.DecodeString(strings.Join(strings.Fields(string(data)), ""))
		if err != nil {
			t.Fatal(err)
		}
	case "quoted-printable":
		data, _ = io.ReadAll(newQP(data))
	}
	_, dparams, _ := mime.ParseMediaType(get("Content-Disposition"))
	return []mimePart{{ContentType: mediaType, Filename: dparams["filename"], Body: data}}
}

// pdfText extracts the text of a PDF document.
func pdfText(t *testing.T, doc []byte) string {
	t.Helper()
	r, err := pdf.NewReader(bytes.NewReader(doc), int64(len(doc)))
	if err != nil {
		t.Fatalf("not a readable PDF: %v", err)
	}
	txt, err := r.GetPlainText()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(txt)
	return string(b)
}

func TestInvoiceSendDeliversPDFOverSMTP(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, dialect store.Dialect) {
		inbox := startSMTP(t)
		h := start(t, dialect, testserver.Options{Mail: inbox.sender("botpay <billing@botpay.test>")})
		c := h.claimedBot("smtp-biller")
		page, err := c.bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Services"})
		if err != nil {
			t.Fatal(err)
		}
		lines := []client.LineItemRequest{
			{Description: "Website redesign", Quantity: "1", UnitPriceUSD: 120000},
			{Description: "Hosting (months)", Quantity: "3", UnitPriceUSD: 2500},
			{Description: "Support hours", Quantity: "2.5", UnitPriceUSD: 4000},
		}
		inv, err := c.bot.CreateInvoice(h.ctx, client.InvoiceRequest{CheckoutPageID: page.CheckoutPageID,
			RecipientName: wire.Ptr("Globex"), RecipientEmail: wire.Ptr("ap@globex.example"), LineItems: lines, TaxUSD: usd(999)})
		if err != nil {
			t.Fatal(err)
		}
		sent, err := c.bot.SendInvoice(h.ctx, inv.InvoiceID)
		if err != nil {
			t.Fatal(err)
		}
		if !sent.EmailSent || sent.EmailReason != nil {
			t.Fatalf("send = %+v, want e-mail sent", sent)
		}
		var got []receivedMail
		for _, m := range inbox.received() {
			if len(m.To) == 1 && m.To[0] == "ap@globex.example" {
				got = append(got, m)
			}
		}
		if len(got) != 1 || got[0].From != "billing@botpay.test" {
			t.Fatalf("%d messages to the recipient, want one from billing@botpay.test", len(got))
		}
		msg, err := netmail.ReadMessage(bytes.NewReader(got[0].Data))
		if err != nil {
			t.Fatal(err)
		}
		if subj, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject")); !strings.Contains(subj, inv.ReferenceNumber) {
			t.Errorf("subject %q lacks %s", subj, inv.ReferenceNumber)
		}
		parts := leafParts(t, msg.Header, msg.Body)
		var text, html, doc []byte
		for _, p := range parts {
			switch p.ContentType {
			case "text/plain":
				text = p.Body
			case "text/html":
				html = p.Body
			case "application/pdf":
				doc = p.Body
				if p.Filename != inv.ReferenceNumber+".pdf" {
					t.Errorf("attachment name %q", p.Filename)
				}
			}
		}
		if text == nil || html == nil || doc == nil {
			t.Fatalf("parts %+v: want text, HTML and a PDF", parts)
		}
		want := []string{inv.ReferenceNumber, "Website redesign", "Hosting (months)", "Support hours", "$1200.00", "$75.00",
			"$100.00", "$1384.99"}
		content := pdfText(t, doc)
		for _, w := range want {
			if !strings.Contains(content, w) {
				t.Errorf("PDF text lacks %q:\n%s", w, content)
			}
			if !strings.Contains(string(text), w) || !strings.Contains(string(html), w) {
				t.Errorf("e-mail text or HTML lacks %q", w)
			}
		}
	})
}

func newQP(data []byte) io.Reader { return quotedprintable.NewReader(bytes.NewReader(data)) }

package mail

import (
	"bytes"
	"context"
	"fmt"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// SMTP sends messages through an SMTP server with wneessen/go-mail. It
// upgrades to TLS with STARTTLS when the server offers it (port 465 speaks
// TLS from the start) and authenticates only when a username is set.
type SMTP struct {
	Host     string
	Port     int
	Username string
	Password string
	From     string
	Timeout  time.Duration // default 15 s
}

// Send delivers m over a new connection.
func (s SMTP) Send(ctx context.Context, m Message) error {
	msg, err := newMsg(s.From, m)
	if err != nil {
		return err
	}
	port := s.Port
	if port == 0 {
		port = 587
	}
	timeout := s.Timeout
	if timeout == 0 {
		timeout = 15 * time.Second
	}
	opts := []gomail.Option{gomail.WithPort(port), gomail.WithTimeout(timeout), gomail.WithTLSPolicy(gomail.TLSOpportunistic)}
	if port == 465 {
		opts = append(opts, gomail.WithSSL())
	}
	if s.Username != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(s.Username), gomail.WithPassword(s.Password))
	}
	c, err := gomail.NewClient(s.Host, opts...)
	if err != nil {
		return fmt.Errorf("smtp client: %w", err)
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("smtp send to %s:%d: %w", s.Host, port, err)
	}
	return nil
}

// newMsg builds the MIME message: text, an HTML alternative when given,
// and the attachments. go-mail encodes headers, so caller text cannot add
// header lines.
func newMsg(from string, m Message) (*gomail.Msg, error) {
	msg := gomail.NewMsg()
	if err := msg.From(from); err != nil {
		return nil, fmt.Errorf("from address %q: %w", from, err)
	}
	if err := msg.To(m.To); err != nil {
		return nil, fmt.Errorf("recipient %q: %w", m.To, err)
	}
	msg.Subject(headerSafe(m.Subject))
	msg.SetDate()
	msg.SetMessageID()
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	for _, a := range m.Attachments {
		ct := gomail.ContentType(a.ContentType)
		if ct == "" {
			ct = gomail.TypeAppOctetStream
		}
		msg.AttachReadSeeker(a.Name, bytes.NewReader(a.Data), gomail.WithFileContentType(ct))
	}
	return msg, nil
}

// compose renders m as the full MIME text, for the file sender.
func compose(from string, m Message) (string, error) {
	msg, err := newMsg(from, m)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if _, err := msg.WriteTo(&b); err != nil {
		return "", err
	}
	return b.String(), nil
}

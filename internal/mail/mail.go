// Package mail sends e-mail to owners and invoice recipients through a
// Sender. It owns message composition on the wire and the transports; it
// knows nothing of bots or wallets: callers hand it finished messages.
package mail

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Message is one e-mail. Text is required; HTML and attachments are
// optional.
type Message struct {
	To          string
	Subject     string
	Text        string
	HTML        string
	Attachments []Attachment
}

// Attachment is a file sent with a message.
type Attachment struct {
	Name        string
	ContentType string
	Data        []byte
}

// Sender delivers messages.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// FileSender writes each message as an .eml file into Dir: the embedded
// default, so a newcomer can read what the service would have sent.
type FileSender struct {
	Dir  string
	From string
}

// Send writes m to a new file named after the time and a random suffix.
func (f FileSender) Send(_ context.Context, m Message) error {
	if err := os.MkdirAll(f.Dir, 0o700); err != nil {
		return err
	}
	suffix := make([]byte, 4)
	_, _ = rand.Read(suffix)
	name := fmt.Sprintf("%s-%s.eml", time.Now().UTC().Format("20060102T150405.000Z"), hex.EncodeToString(suffix))
	return os.WriteFile(filepath.Join(f.Dir, name), []byte(render(f.From, m)), 0o600)
}

func render(from string, m Message) string {
	if m.HTML != "" || len(m.Attachments) > 0 {
		if mime, err := compose(from, m); err == nil {
			return mime
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n",
		headerSafe(from), headerSafe(m.To), headerSafe(m.Subject))
	b.WriteString(m.Text)
	return b.String()
}

// headerSafe strips line breaks so no caller-supplied text can add headers.
func headerSafe(s string) string {
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}

// Memory keeps messages in memory, for tests.
type Memory struct {
	mu   sync.Mutex
	sent []Message
	Fail error // when set, Send returns it
}

func (m *Memory) Send(_ context.Context, msg Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Fail != nil {
		return m.Fail
	}
	m.sent = append(m.sent, msg)
	return nil
}

// Sent returns a copy of the messages sent so far.
func (m *Memory) Sent() []Message {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Message(nil), m.sent...)
}

// SetFail makes later sends fail with err (nil: succeed again).
func (m *Memory) SetFail(err error) {
	m.mu.Lock()
	m.Fail = err
	m.mu.Unlock()
}

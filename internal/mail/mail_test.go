package mail_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/mail"
)

func TestFileSenderWritesAttachmentsAndHTMLAsMIME(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := mail.FileSender{Dir: dir, From: "botpay <noreply@botpay.local>"}
	err := s.Send(context.Background(), mail.Message{To: "a@example.com", Subject: "Invoice\r\nBcc: evil@example.com", Text: "plain",
		HTML: "<p>html</p>", Attachments: []mail.Attachment{{Name: "INV-2026-000001.pdf", ContentType: "application/pdf", Data: []byte("%PDF-1.3")}}})
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	if len(files) != 1 {
		t.Fatalf("files = %v", files)
	}
	data, _ := os.ReadFile(files[0])
	eml := string(data)
	for _, want := range []string{"multipart/mixed", "multipart/alternative", "text/html", `filename="INV-2026-000001.pdf"`, "application/pdf"} {
		if !strings.Contains(eml, want) {
			t.Errorf(".eml lacks %q", want)
		}
	}
	if strings.Contains(eml, "\r\nBcc:") {
		t.Error("a subject line break added a header")
	}
}

func TestFileSenderKeepsPlainMessagesPlain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := (mail.FileSender{Dir: dir, From: "x@example.com"}).Send(context.Background(), mail.Message{To: "a@example.com", Subject: "Hi", Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	data, _ := os.ReadFile(files[0])
	if !strings.Contains(string(data), "Content-Type: text/plain; charset=utf-8\r\n\r\nhello") {
		t.Errorf("plain message = %q", data)
	}
}

package main

import (
	"testing"

	"github.com/botpay/botpay/internal/config"
	"github.com/botpay/botpay/internal/mail"
)

func TestMailerIsSMTPWhenAHostIsSet(t *testing.T) {
	t.Parallel()
	cfg := config.Config{DataDir: t.TempDir(), SMTP: config.SMTP{Host: "smtp.example.com", Port: 2525, Username: "u",
		Password: "p", From: "botpay <noreply@example.com>"}}
	s, ok := mailer(cfg).(mail.SMTP)
	if !ok || s.Host != "smtp.example.com" || s.Port != 2525 || s.Username != "u" || s.Password != "p" || s.From != cfg.SMTP.From {
		t.Errorf("mailer = %#v, want the SMTP sender with the settings", mailer(cfg))
	}
	cfg.SMTP.Host = ""
	if _, ok := mailer(cfg).(mail.FileSender); !ok {
		t.Errorf("mailer without host = %#v, want the file sender", mailer(cfg))
	}
}

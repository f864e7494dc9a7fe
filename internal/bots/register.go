package bots

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/egress"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/validate"
)

// RegisterInput is the body of POST /api/v1/bots/register.
type RegisterInput struct {
	BotName     string
	OwnerEmail  string
	Description string
	CallbackURL string
	PairingCode string
	BotType     string
	LocalPort   *int
	WebhookPath *string
	ClientIP    string
}

// Registration carries the secrets of a new bot, shown once.
type Registration struct {
	Bot           botpay.Bot
	APIKey        string
	ClaimToken    string // empty when paired
	OwnerID       string // set when paired
	WebhookSecret string
	// Managed tunnel, only without a callback URL.
	Tunnel *Tunnel
}

// Tunnel holds the managed-tunnel provisioning of docs/decisions.md.
type Tunnel struct {
	WebhookURL  string
	TunnelToken string
	HooksToken  string
	LocalPort   int
	WebhookPath string
	Command     string
}

// VerificationURL is where the owner claims an unpaired bot.
func (s *Service) VerificationURL(claimToken string) string {
	return s.baseURL + "/claim?token=" + claimToken
}

var (
	botTypePattern     = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,49}$`)
	pairingCodePattern = regexp.MustCompile(`^[0-9]{6}$`)
)

func (in *RegisterInput) validate() error {
	p := validate.Problems{}
	in.BotName = p.Text("bot_name", in.BotName, 1, 100, false)
	in.OwnerEmail = p.Email("owner_email", in.OwnerEmail)
	in.Description = p.Text("description", in.Description, 0, 1000, true)
	if in.CallbackURL != "" {
		in.CallbackURL = p.WebhookURL("callback_url", in.CallbackURL)
	}
	in.BotType = strings.ToLower(strings.TrimSpace(in.BotType))
	if in.BotType == "" {
		in.BotType = botpay.DefaultBotType
	} else if !botTypePattern.MatchString(in.BotType) {
		p.Add("bot_type", "must be 1-50 lower-case letters, digits, '.', '_' or '-'")
	}
	if in.LocalPort != nil && (*in.LocalPort < 1 || *in.LocalPort > 65535) {
		p.Add("local_port", "must be an integer from 1 to 65535")
	}
	if in.WebhookPath != nil {
		wp := *in.WebhookPath
		switch {
		case !strings.HasPrefix(wp, "/"):
			p.Add("webhook_path", "must start with /")
		case len(wp) > 200:
			p.Add("webhook_path", "must be at most 200 characters")
		case strings.ContainsFunc(wp, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '?' || r == '#' }):
			p.Add("webhook_path", "must be a plain path without spaces, query or fragment")
		}
	}
	return p.Err()
}

// Register creates a bot (docs/api.md).
func (s *Service) Register(ctx context.Context, in RegisterInput) (Registration, error) {
	if err := in.validate(); err != nil {
		return Registration{}, err
	}
	if err := s.refuseInternal("callback_url", in.CallbackURL); err != nil {
		return Registration{}, err
	}
	in.PairingCode = strings.TrimSpace(in.PairingCode)
	if in.PairingCode != "" && !pairingCodePattern.MatchString(in.PairingCode) {
		return Registration{}, botpay.Errorf(botpay.KindInvalid, botpay.CodeInvalidPairingCode, "the pairing code is invalid, expired or already used")
	}
	now := s.clock.Now()
	reg := Registration{
		APIKey:        botpay.NewSecret(botpay.APIKeyPrefix),
		WebhookSecret: botpay.NewSecret(botpay.WebhookSecretPrefix),
	}
	b := botpay.Bot{ID: botpay.NewID("bot_"), Name: in.BotName, OwnerEmail: in.OwnerEmail, Description: in.Description,
		BotType: in.BotType, CallbackURL: in.CallbackURL, WebhookStatus: botpay.WebhookActive, CreatedAt: now}
	nb := NewBot{
		APIKeyHash:          botpay.Digest(reg.APIKey),
		WebhookSecretSealed: s.sealer.Seal([]byte(reg.WebhookSecret), []byte("webhook_secret:"+b.ID)),
		Limit: Limit{Bucket: addressBucket("register", in.ClientIP), Max: s.limits.RegisterPerHour,
			Window: time.Hour, FixedRetryAfter: time.Hour},
	}
	if in.CallbackURL == "" {
		reg.Tunnel = s.provisionTunnel(&b, in)
		nb.TunnelTokenHash = botpay.Digest(reg.Tunnel.TunnelToken)
		nb.HooksTokenSealed = s.sealer.Seal([]byte(reg.Tunnel.HooksToken), []byte("hooks_token:"+b.ID))
	}
	if in.PairingCode != "" {
		nb.PairingCodeHash = botpay.Digest(in.PairingCode)
	}
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if in.PairingCode == "" {
			reg.ClaimToken = botpay.NewClaimToken()
			nb.ClaimTokenHash = botpay.Digest(reg.ClaimToken)
		}
		nb.Bot = b
		reg.OwnerID, err = s.RegisterBot(ctx, nb)
		if !errors.Is(err, errClaimTokenTaken) {
			break
		}
	}
	if err != nil {
		return Registration{}, err
	}
	if reg.OwnerID != "" {
		b.OwnerID, b.ClaimedAt = reg.OwnerID, now
	}
	reg.Bot = b
	if reg.ClaimToken != "" {
		s.ownerMail.NotifyAboutBot(ctx, b, s.verificationMail(b, reg.ClaimToken))
	}
	return reg, nil
}

func (s *Service) provisionTunnel(b *botpay.Bot, in RegisterInput) *Tunnel {
	port, path := 8080, "/webhook"
	if in.BotType == botpay.DefaultBotType {
		port, path = 18789, "/hooks/service"
	}
	if in.LocalPort != nil {
		port = *in.LocalPort
	}
	if in.WebhookPath != nil {
		path = *in.WebhookPath
	}
	t := &Tunnel{
		TunnelToken: botpay.NewSecret(botpay.TunnelTokenPrefix),
		HooksToken:  botpay.NewSecret(botpay.WebhookSecretPrefix),
		LocalPort:   port,
		WebhookPath: path,
		WebhookURL:  s.baseURL + "/tunnel/" + b.ID + path,
	}
	t.Command = fmt.Sprintf("botpay tunnel --server %s --token %s --to http://127.0.0.1:%d", s.baseURL, t.TunnelToken, port)
	// A tunnel bot has no reachable webhook until its tunnel client connects.
	b.WebhookStatus, b.LocalPort, b.WebhookPath = botpay.WebhookNone, port, path
	return t
}

func (s *Service) verificationMail(b botpay.Bot, claimToken string) mail.Message {
	link := s.VerificationURL(claimToken)
	return mail.Message{
		To:      b.OwnerEmail,
		Subject: "Claim your bot on botpay",
		Text: fmt.Sprintf("A bot named %q registered with botpay and named you as its owner.\n\n"+
			"To claim it, open this link, sign up or log in, and confirm:\n\n  %s\n\n"+
			"Claim token: %s\n\nIf you do not recognise this bot, ignore this message; nothing happens until you claim it.\n",
			b.Name, link, claimToken),
	}
}

// refuseInternal rejects, up front, a callback URL whose host is a loopback,
// private, link-local or metadata address (or such a well-known name) while
// the egress guard is on. Host names are checked again after DNS at every
// delivery, so this only gives the bot an early, clear answer.
func (s *Service) refuseInternal(field, url string) error {
	if s.allowPrivate || url == "" {
		return nil
	}
	if err := egress.CheckURL(url); err != nil {
		return botpay.ValidationError(map[string]string{field: "must not point at a loopback, private, link-local or metadata address"})
	}
	return nil
}

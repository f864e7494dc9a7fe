package spending

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"math/big"
	"strconv"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/validate"
)

// NewCardInput is the body of POST /api/v1/owner/bots/{bot_id}/cards
// (docs/decisions.md), decoded.
type NewCardInput struct {
	BotID            string
	CardName         string
	MissingDigits    string
	ExpiryMonth      string
	ExpiryYear       string
	RealProfileIndex int
	Profiles         []botpay.PaymentProfile
	Limits           botpay.CardLimits
}

// MaxProfiles bounds the payment profiles of one card.
const MaxProfiles = 10

// CreateCard registers a card on an owned, claimed bot. Only the missing
// digits and the expiry of the real card are kept, sealed; each decoy
// profile gets its own decoy digits and expiry, sealed the same way, so the
// stored rows do not tell real from decoy by their shape.
func (s *Service) CreateCard(ctx context.Context, owner botpay.Owner, in NewCardInput) (botpay.Card, error) {
	p := validate.Problems{}
	name := p.Text("card_name", in.CardName, 1, 100, false)
	digits := strings.TrimSpace(in.MissingDigits)
	if !allDigits(digits) || len(digits) < 1 || len(digits) > 8 {
		// Never more than 8: the service must not hold a full card number.
		p.Add("missing_digits", "must be 1 to 8 digits")
	}
	month, year := cardExpiry(p, in.ExpiryMonth, in.ExpiryYear, s.clock.Now().Year())
	validProfiles(p, in.Profiles, in.RealProfileIndex)
	for field, v := range map[string]*botpay.Money{"limits.per_transaction_usd": in.Limits.PerTransaction,
		"limits.daily_usd": in.Limits.Daily, "limits.monthly_usd": in.Limits.Monthly} {
		if v != nil && (*v < 0 || *v > botpay.MaxMoney) {
			p.Add(field, "must be between 0 and "+botpay.MaxMoney.USD())
		}
	}
	if err := p.Err(); err != nil {
		return botpay.Card{}, err
	}
	c := botpay.Card{ID: botpay.NewID("card_"), BotID: in.BotID, Name: name, Status: botpay.CardActive,
		RealProfileIndex: in.RealProfileIndex, Profiles: in.Profiles, Limits: in.Limits, CreatedAt: s.clock.Now()}
	sealed := map[int][]byte{}
	for _, pr := range c.Profiles {
		d := botpay.CardDetails{MissingDigits: digits, ExpiryMonth: month, ExpiryYear: year}
		if pr.Index != c.RealProfileIndex {
			d = decoyDetails(len(digits), s.clock.Now().Year())
		}
		plain, _ := json.Marshal(d)
		sealed[pr.Index] = s.sealer.Seal(plain, profileAAD(c.ID, pr.Index))
	}
	if err := s.AddCard(ctx, owner.ID, c, sealed); err != nil {
		return botpay.Card{}, err
	}
	return c, nil
}

// validProfiles checks a card's payment profiles and that the real one is
// among them.
func validProfiles(p validate.Problems, profiles []botpay.PaymentProfile, real int) {
	seen := map[int]bool{}
	if len(profiles) == 0 || len(profiles) > MaxProfiles {
		p.Add("profiles", "must list 1 to "+strconv.Itoa(MaxProfiles)+" payment profiles")
	}
	for i, pr := range profiles {
		field := "profiles[" + strconv.Itoa(i) + "]"
		switch {
		case pr.Index < 1 || pr.Index > MaxProfiles:
			p.Add(field+".profile_index", "must be from 1 to "+strconv.Itoa(MaxProfiles))
		case seen[pr.Index]:
			p.Add(field+".profile_index", "is listed twice")
		}
		seen[pr.Index] = true
		if !botpay.ValidAllowanceDuration(pr.AllowanceDuration) {
			p.Add(field+".allowance_duration", "must be day, week or month")
		}
		if pr.Allowance < 0 || pr.Allowance > botpay.MaxMoney {
			p.Add(field+".allowance_usd", "must be between 0 and "+botpay.MaxMoney.USD())
		}
	}
	if !seen[real] {
		p.Add("real_profile_index", "must be the profile_index of one of the profiles")
	}
}

// profileAAD binds sealed details to their card and profile, so rows cannot
// be swapped in the database to hand out another profile's digits.
func profileAAD(cardID string, index int) []byte {
	return []byte("card-profile:" + cardID + ":" + strconv.Itoa(index))
}

// openDetails unseals a profile's details.
func (s *Service) openDetails(cardID string, index int, sealed []byte) (botpay.CardDetails, error) {
	var d botpay.CardDetails
	plain, err := s.sealer.Open(sealed, profileAAD(cardID, index))
	if err != nil {
		return d, err
	}
	err = json.Unmarshal(plain, &d)
	return d, err
}

// allDigits reports whether s holds decimal digits only.
func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// cardExpiry normalises an expiry to "MM" and "YYYY" (two-digit years are
// taken as 20YY).
func cardExpiry(p validate.Problems, month, year string, thisYear int) (string, string) {
	m, err := strconv.Atoi(strings.TrimSpace(month))
	if err != nil || m < 1 || m > 12 {
		p.Add("expiry_month", "must be a month from 01 to 12")
	}
	y, err := strconv.Atoi(strings.TrimSpace(year))
	if err == nil && y < 100 {
		y += 2000
	}
	if err != nil || y < thisYear-1 || y > thisYear+20 {
		p.Add("expiry_year", "must be a year such as "+strconv.Itoa(thisYear+3))
	}
	return pad2(m), strconv.Itoa(y)
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// decoyDetails draws plausible digits and expiry for a decoy profile.
func decoyDetails(n, thisYear int) botpay.CardDetails {
	var b strings.Builder
	for range n {
		b.WriteByte(byte('0' + randInt(10)))
	}
	return botpay.CardDetails{MissingDigits: b.String(), ExpiryMonth: pad2(1 + randInt(12)),
		ExpiryYear: strconv.Itoa(thisYear + 1 + randInt(5))}
}

func randInt(n int) int {
	v, err := rand.Int(rand.Reader, big.NewInt(int64(n)))
	if err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return int(v.Int64())
}

// SetCardStatus activates or deactivates an owned bot's card.
func (s *Service) SetCardStatus(ctx context.Context, owner botpay.Owner, botID, cardID, status string) (botpay.Card, error) {
	if status != botpay.CardActive && status != botpay.CardInactive {
		return botpay.Card{}, botpay.ValidationError(map[string]string{"status": "must be active or inactive"})
	}
	return s.setCardStatus(ctx, owner.ID, botID, cardID, status)
}

// Cards pages through an owned bot's cards, oldest first.
func (s *Service) Cards(ctx context.Context, owner botpay.Owner, botID string, page botpay.PageRequest) (botpay.Page[botpay.Card], error) {
	return s.cardsPage(ctx, owner.ID, botID, page)
}

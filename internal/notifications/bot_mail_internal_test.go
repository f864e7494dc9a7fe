package notifications

import "testing"

// The callback mail names both addresses without the secrets a receiver
// may keep in their query or user information.
func TestCallbackMailShowsURLsWithoutTheirSecrets(t *testing.T) {
	for raw, want := range map[string]string{
		"":                                     "(none)",
		"https://bot.example.com/hook":         "https://bot.example.com/hook",
		"https://u:pw@bot.example.com/h?t=s#f": "https://bot.example.com/h",
		"://bad":                               "(unreadable)",
	} {
		if got := displayURL(raw); got != want {
			t.Errorf("displayURL(%q) = %q, want %q", raw, got, want)
		}
	}
}

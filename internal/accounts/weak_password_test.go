package accounts

import "testing"

func TestWeakPasswordsAreRecognised(t *testing.T) {
	t.Parallel()
	weak := []string{"password1234", "aaaaaaaaaaaa", "Password1234!", "P@ssw0rd2024", "iloveyou2024!", "123456789012",
		"abcdefghijkl", "qwertyuiop12", "1qaz2wsx3edc", "abcabcabcabc", "passwordpassword", "zxcvbnm,./12",
		"!!!!dragon!!!!", "monkey123456", "2024letmein!", "aaaaaaaaaaab", "alice.smith2024", "qwerty123456",
		"987654321000", "welcome12345", "trustno1trustno1", "alice.smith@example.com", "Alice.Smith@Example.com",
		"alice.smith@example.com!", "ALICE.SMITH", "alice.smith!"}
	for _, p := range weak {
		if !weakPassword(p, "alice.smith@example.com") {
			t.Errorf("%q passes, want weak", p)
		}
	}
	strong := []string{"correct horse battery staple", "correct horse battery", "bench-password-1", "velvet tractor piano 42",
		"Xq7#mP2!vL9$wR4@", "my cat eats 3 lemons", "botpay-dummy-password-for-timing", "purple-elephant-dances"}
	for _, p := range strong {
		if weakPassword(p, "alice.smith@example.com") {
			t.Errorf("%q is refused, want accepted", p)
		}
	}
}

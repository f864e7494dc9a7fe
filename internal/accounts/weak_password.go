package accounts

import (
	_ "embed"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Passwords must be hard to guess, not only long (docs/api.md). A list
// alone stops only the exact strings on it, and a 12-character minimum
// turns most listed passwords into "password1234" or "iloveyou2024!". So a
// password is weak when, after taking away what guessers add first, what
// is left is on the list or too little:
//   - the whole, lower-cased, with its leading and trailing digits,
//     punctuation and spaces trimmed, and with common letter-for-digit
//     swaps undone (p@ssw0rd), is a common password or the e-mail's name;
//   - it is one short unit repeated (aaaaaaaaaaaa, abcabcabcabc);
//   - it has fewer than 5 different characters;
//   - without its runs of 3 or more characters taken from the alphabet,
//     the digits or a keyboard row or column (abcdef, 123456, qwerty,
//     1qaz2wsx, both ways), fewer than 4 letters or digits are left.

//go:embed common_passwords.txt
var commonPasswordFile string

var commonPasswords = func() map[string]bool {
	m := map[string]bool{}
	for _, line := range strings.Split(commonPasswordFile, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			m[line] = true
		}
	}
	return m
}()

// walks are sequences people type as passwords; their reverses count too.
var walks = func() []string {
	base := []string{"abcdefghijklmnopqrstuvwxyz", "01234567890123456789", "qwertyuiop", "asdfghjkl", "zxcvbnm",
		"qwertzuiop", "yxcvbnm", "azertyuiop", "qsdfghjklm", "wxcvbn", "1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p",
		"qazwsxedcrfvtgbyhnujmikolp", "zaq1xsw2cde3vfr4bgt5nhy6mju7ki8lo9p0", "1q2w3e4r5t6y7u8i9o0p",
		"q1w2e3r4t5y6u7i8o9p0", "!@#$%^&*()_+", "1234567890-=", "qwertyuiopasdfghjklzxcvbnm"}
	out := make([]string, 0, 2*len(base))
	for _, w := range base {
		r := []rune(w)
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		out = append(out, w, string(r))
	}
	return out
}()

var unleet = strings.NewReplacer("@", "a", "4", "a", "0", "o", "1", "i", "!", "i", "3", "e", "$", "s", "5", "s", "7", "t", "+", "t")

// weakPassword reports whether password is easy to guess for the owner of
// email (see the rules above).
func weakPassword(password, email string) bool {
	l := strings.ToLower(password)
	if distinctRunes(l) < 5 || repeatedUnit(l) {
		return true
	}
	address := strings.ToLower(strings.TrimSpace(email))
	if address != "" && strings.Contains(l, address) {
		return true // the e-mail is the first thing a guesser of the account tries
	}
	name, _, _ := strings.Cut(address, "@")
	residue := withoutWalks(l)
	for _, c := range []string{l, trimPadding(l), trimPadding(residue)} {
		if commonPasswords[c] || commonPasswords[unleet.Replace(c)] || commonPasswords[trimPadding(unleet.Replace(c))] ||
			(len(name) >= 3 && (c == name || unleet.Replace(c) == name)) {
			return true
		}
	}
	return alphanumerics(residue) < 4
}

func distinctRunes(s string) int {
	seen := map[rune]bool{}
	for _, r := range s {
		seen[r] = true
	}
	return len(seen)
}

// repeatedUnit reports whether s is one shorter string said twice or more.
func repeatedUnit(s string) bool {
	n := len(s)
	for unit := 1; unit <= n/2; unit++ {
		if n%unit == 0 && strings.Repeat(s[:unit], n/unit) == s {
			return true
		}
	}
	return false
}

// trimPadding drops the digits, punctuation and spaces around a password:
// what people append to a word to pass a length or character rule.
func trimPadding(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
}

// withoutWalks removes every run of 3 or more characters that appears in
// a walk, longest first from left to right.
func withoutWalks(s string) string {
	var kept strings.Builder
	for i := 0; i < len(s); {
		n := longestWalkAt(s[i:])
		if n >= 3 {
			i += n
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		kept.WriteString(s[i : i+size])
		i += size
	}
	return kept.String()
}

func longestWalkAt(s string) int {
	for n := len(s); n >= 3; n-- {
		for _, w := range walks {
			if strings.Contains(w, s[:n]) {
				return n
			}
		}
	}
	return 0
}

func alphanumerics(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

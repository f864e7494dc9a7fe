package archtest

import (
	"regexp"
	"strings"
	"testing"
)

// A comment must say its why in place. A pointer to an issue tracker or to
// a numbered section of a document that is not in the repository rots the
// day that document moves, and a reader of the code cannot follow it.
var (
	// citedIssue is the word issue or issues followed by a number, with or
	// without a hash sign: a pointer into an issue tracker.
	citedIssue = regexp.MustCompile(`(?i)\bissues? #?\d+`)
	// citedDocument names the specification files kept outside the repository.
	citedDocument = regexp.MustCompile(`(?i)\b(design|interface)\.md\b`)
	// citedSection is the word section or decision followed by a number; a
	// section of an RFC points into a published standard and is fine (see
	// outsideCitation).
	citedSection = regexp.MustCompile(`(?i)\b(sections?|decisions?) \d+`)
	// sectionNumber is a candidate dotted section number: judged by its
	// neighbours in sectionCitation, since amounts and ratios look the same.
	sectionNumber = regexp.MustCompile(`[1-9]\d?\.\d{1,2}`)
	// rfcBefore ends in an RFC's name and number: the section that follows
	// is a standard's.
	rfcBefore = regexp.MustCompile(`RFC \d+ $`)
)

// sectionNumberLeads and sectionNumberTrails are the words and marks around
// a dotted number that make it a section reference rather than an amount.
var (
	sectionNumberLeads  = []string{"of ", "flat ", "the ", "whole ", "as ", "and "}
	sectionNumberTrails = []string{"'s", ":", ")", ",", " says", " shape", " fields"}
)

// outsideCitation returns the first citation of an outside document in a
// comment's text, or "".
func outsideCitation(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	for _, re := range []*regexp.Regexp{citedIssue, citedDocument} {
		if m := re.FindString(text); m != "" {
			return m
		}
	}
	for _, loc := range citedSection.FindAllStringIndex(text, -1) {
		before := text[:loc[0]]
		if !rfcBefore.MatchString(before) {
			return text[loc[0]:loc[1]]
		}
	}
	return sectionCitation(text)
}

// sectionCitation finds a bare section number such as "4.20" used as a
// reference, and not an amount, a version or an address.
func sectionCitation(text string) string {
	for _, loc := range sectionNumber.FindAllStringIndex(text, -1) {
		before, number, after := text[:loc[0]], text[loc[0]:loc[1]], text[loc[1]:]
		if before != "" && strings.ContainsAny(before[len(before)-1:], "0123456789.$/-_vVabcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			continue // part of a longer number, a price, a path or a name
		}
		if after != "" && strings.ContainsAny(after[:1], "0123456789.") {
			continue // 127.0.0.1, 2.0.0, 13.1.2
		}
		for _, lead := range sectionNumberLeads {
			if strings.HasSuffix(strings.ToLower(before), lead) {
				return lead + number
			}
		}
		for _, trail := range sectionNumberTrails {
			if strings.HasPrefix(after, trail) {
				return number + trail
			}
		}
	}
	return ""
}

func TestCommentsCiteNothingOutsideTheRepository(t *testing.T) {
	for _, f := range parseRepo(t) {
		for _, group := range f.ast.Comments {
			if c := outsideCitation(group.Text()); c != "" {
				t.Errorf("%s:%d: comment cites %q outside the repository; say the why in place",
					f.path, f.fset.Position(group.Pos()).Line, c)
			}
		}
	}
}

func TestCitationCheckCatchesOutsideReferences(t *testing.T) {
	t.Parallel()
	cited := []string{
		"The owner dashboard (issue 8): pages.", "after commit (issue 8)", "see issues 6 and 8",
		"fixed in issue #23", "as DESIGN.md says", "the shape of INTERFACE.md",
		"the error shape of section 7 on failures", "(docs/decisions.md, decision 16)",
		"the guardrail chain of 4.20 and the reservation", "x402 v1, flat 4.20, or both",
		"into 4.20's 400 body", "a status answer\n// (4.4): card details", "checkFailingReceiver: 3.4: active",
		"the 2.9 shape", "as 3.4 says", "the API reference and\n4.19, an ETag",
	}
	for _, text := range cited {
		if outsideCitation(text) == "" {
			t.Errorf("not caught: %q", text)
		}
	}
	clean := []string{
		"the JSON number grammar (RFC 8259 section 6)", "etagMatches applies If-None-Match (RFC 9110 13.1.2)",
		"Output: active 50.00", "answers 402 asking 0.05 USDC", "10 signatures of 0.1 USDC",
		"within 1.5× of the empty one", "about 2.5 hours", "an OpenAPI 3.1 document", "SemVer 2.0.0: MAJOR.MINOR.PATCH",
		"http://127.0.0.1:8080", "$12.50 and -0.05", "the sections of a bot's page", "in cores (1.0 = one core busy)",
		"about 2.7 times its median", "v1.2 of the client", "see docs/decisions.md, \"Registration\"",
	}
	for _, text := range clean {
		if c := outsideCitation(text); c != "" {
			t.Errorf("%q flagged as citing %q", text, c)
		}
	}
}

package skills

import (
	"bufio"
	"bytes"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

var (
	slugPattern = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$`)
	// semverPattern is SemVer 2.0.0: MAJOR.MINOR.PATCH, optional
	// pre-release and build metadata, no leading zeros.
	semverPattern = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
		`(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?` +
		`(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)
)

// maxMarkdownBytes bounds a skill file; bots read it into their context.
const maxMarkdownBytes = 256 << 10

// validateVendor checks ranges, vocabularies and the rules that tie fields
// together.
func validateVendor(v Vendor) *problem {
	switch {
	case !slugPattern.MatchString(v.Slug):
		return fieldProblem("slug", "must be 1-64 lowercase letters, digits and inner hyphens, got %q", v.Slug)
	case strings.TrimSpace(v.Name) == "" || utf8.RuneCountInString(v.Name) > 100:
		return fieldProblem("name", "must be 1-100 characters")
	case !slices.Contains(Categories, v.Category):
		return fieldProblem("category", "must be one of %s, got %q", strings.Join(Categories, ", "), v.Category)
	}
	if p := checkURL("url", v.URL); p != nil {
		return p
	}
	if len(v.CheckoutMethods) == 0 {
		return fieldProblem("checkout_methods", "must list at least one checkout method")
	}
	if p := checkVocabulary("checkout_methods", v.CheckoutMethods, CheckoutMethods); p != nil {
		return p
	}
	if p := checkVocabulary("capabilities", v.Capabilities, Capabilities); p != nil {
		return p
	}
	if p := checkConsistency(v); p != nil {
		return p
	}
	switch {
	case !slices.Contains(Maturities, v.Maturity):
		return fieldProblem("maturity", "must be one of %s, got %q", strings.Join(Maturities, ", "), v.Maturity)
	case v.AgentFriendliness < 0 || v.AgentFriendliness > 100:
		return fieldProblem("agent_friendliness", "must be an integer from 0 to 100, got %d", v.AgentFriendliness)
	case v.SuccessRate != nil && !(*v.SuccessRate >= 0 && *v.SuccessRate <= 1):
		return fieldProblem("success_rate", "must be a number from 0 to 1 or null, got %v", *v.SuccessRate)
	case !semverPattern.MatchString(v.Version):
		return fieldProblem("version", "must be a semantic version such as 1.2.0, got %q", v.Version)
	}
	if p := checkURL("catalog_url", v.CatalogURL); p != nil {
		return p
	}
	if _, err := time.Parse(time.DateOnly, v.LastVerified); err != nil {
		return fieldProblem("last_verified", "must be a date YYYY-MM-DD, got %q", v.LastVerified)
	}
	return nil
}

func checkURL(field, raw string) *problem {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fieldProblem(field, "must be an absolute http(s) URL, got %q", raw)
	}
	return nil
}

func checkVocabulary(field string, values, known []string) *problem {
	for i, v := range values {
		if !slices.Contains(known, v) {
			return fieldProblem(field, "%q is not one of %s", v, strings.Join(known, ", "))
		}
		if slices.Contains(values[:i], v) {
			return fieldProblem(field, "lists %q twice", v)
		}
	}
	return nil
}

// checkConsistency keeps the boolean fields and the lists telling the same
// story, so that filtering by either gives the same vendors.
func checkConsistency(v Vendor) *problem {
	listed := slices.Contains(v.Capabilities, "bulk_pricing")
	if v.BulkPricing && !listed {
		return fieldProblem("bulk_pricing", "is true but capabilities does not list bulk_pricing; they must agree")
	}
	if !v.BulkPricing && listed {
		return fieldProblem("bulk_pricing", "is false but capabilities lists bulk_pricing; they must agree")
	}
	if slices.Contains(v.Capabilities, "programmatic_checkout") && !v.hasAnyCheckout(programmaticMethods) {
		return fieldProblem("capabilities", "programmatic_checkout needs a checkout method among %s",
			strings.Join(programmaticMethods, ", "))
	}
	return nil
}

// validateMarkdown checks that the skill file is UTF-8 text of bounded size
// with every section of Sections as a level-2 heading followed by some text.
func validateMarkdown(md []byte) *problem {
	if len(bytes.TrimSpace(md)) == 0 {
		return &problem{text: "is empty"}
	}
	if len(md) > maxMarkdownBytes {
		return &problem{text: "is larger than " + strconv.Itoa(maxMarkdownBytes>>10) + " KiB"}
	}
	if !utf8.Valid(md) {
		return &problem{text: "is not valid UTF-8"}
	}
	bodies := sectionBodies(md)
	for _, name := range Sections {
		body, ok := bodies[strings.ToLower(name)]
		where := "section " + strconv.Quote(name)
		if !ok {
			return &problem{where: where, text: "is missing (every skill file has the level-2 headings ## " +
				strings.Join(Sections, ", ## ") + ")"}
		}
		if strings.TrimSpace(body) == "" {
			return &problem{where: where, text: "is empty"}
		}
	}
	return nil
}

// sectionBodies maps each level-2 heading (lower case) to the text under it.
// Headings inside fenced code blocks do not count.
func sectionBodies(md []byte) map[string]string {
	bodies := map[string]string{}
	var current string
	var inSection, inFence bool
	sc := bufio.NewScanner(bytes.NewReader(md))
	sc.Buffer(make([]byte, 0, 64<<10), maxMarkdownBytes)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
		}
		if !inFence && strings.HasPrefix(line, "## ") {
			current, inSection = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(line, "## "))), true
			if _, seen := bodies[current]; !seen {
				bodies[current] = ""
			}
			continue
		}
		if !inFence && strings.HasPrefix(line, "# ") {
			inSection = false
			continue
		}
		if inSection {
			bodies[current] += line + "\n"
		}
	}
	return bodies
}

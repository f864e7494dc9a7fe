package botpay

import "net/url"

// RedactURL is raw fit for a log line: the user information and the query
// are replaced, the fragment dropped. Callback URLs often carry a token in
// their query (?token=…) or their user information, and logs are read by
// more people than the owners of those tokens.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparseable URL)"
	}
	if u.User != nil {
		u.User = url.User("REDACTED")
	}
	if u.RawQuery != "" || u.ForceQuery {
		u.RawQuery, u.ForceQuery = "REDACTED", false
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

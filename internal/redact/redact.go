// Package redact shows settings a person typed in messages, without the
// secrets they may hold.
package redact

import "strings"

// URL returns raw with its user name and password, if any, replaced by "…",
// whether raw parses as a URL or not: everything after the scheme's "//" up
// to the last "@" before a query or fragment. A message may then quote the
// URL a person typed, such as http://user:pass@host, as http://…@host.
func URL(raw string) string {
	scheme, rest := "", raw
	if i := strings.Index(raw, "//"); i >= 0 {
		scheme, rest = raw[:i+2], raw[i+2:]
	}
	end := strings.IndexAny(rest, "?#")
	if end < 0 {
		end = len(rest)
	}
	at := strings.LastIndex(rest[:end], "@")
	if at < 0 {
		return raw
	}
	return scheme + "…" + rest[at:]
}

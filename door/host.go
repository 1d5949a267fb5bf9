package door

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"maison/voice"
	"maison/words"
)

// The Host and Origin check against DNS rebinding. A web page can point a
// name it owns at maison's address; the browser then sends that name as
// Host (and its page's origin as Origin), so maison answers only to names
// it was told are its own:
//
//   - loopback names (localhost, 127.0.0.1, [::1]), any port;
//   - any IP address: no page can rebind an IP address, so a person on the
//     LAN may call maison by the address it listens on;
//   - Config.Hosts: MAISON_PUBLIC_URL's host, this machine's name (and
//     name.local), and MAISON_ALLOWED_HOSTS.
//
// An Origin is accepted when its host is a loopback name or one of
// Config.Hosts, or when it is the request's own Host (a page maison served
// itself, such as the sign-in page reached by a LAN address).

// ParseHosts reads MAISON_ALLOWED_HOSTS: host names separated by commas,
// each optionally with a port (ignored), such as maison.lan,nas.local:8765.
func ParseHosts(list string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		h := hostname(f)
		if h == "" || strings.ContainsAny(f, "/@?#* ") {
			return nil, fmt.Errorf("%q is not a host name: give names such as maison.lan or nas.local, separated by commas, without http:// or a path", f)
		}
		out = append(out, h)
	}
	return out, nil
}

// hostname is host[:port]'s host, lower case, without brackets or a
// trailing dot.
func hostname(hostport string) string {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	return strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
}

// isIP reports whether host[:port] is an IP address.
func isIP(hostport string) bool {
	_, err := netip.ParseAddr(hostname(hostport))
	return err == nil
}

// named reports whether host[:port] is a loopback name or one of the
// configured hosts.
func (d *Door) named(hostport string) bool {
	if loopbackName(hostport) {
		return true
	}
	h := hostname(hostport)
	for _, a := range d.cfg.Hosts {
		if h == a {
			return true
		}
	}
	return false
}

// rebound refuses a request whose Host or Origin is not maison's own, in
// words saying what to do; nil means it may go on.
func (d *Door) rebound(r *http.Request) *refusal {
	lang := d.cfg.Lang
	switch {
	case r.Host == "":
		// Go's server lets an empty Host through, and HTTP/1.0 without
		// one, and answers a missing one itself (early.go).
		return &refusal{status: http.StatusBadRequest, code: codeInvalidRequest, reason: "no Host", msg: words.DoorNoHost(lang)}
	case !validPort(r.Host):
		return &refusal{status: http.StatusBadRequest, code: codeInvalidRequest, reason: "malformed Host",
			msg: words.DoorBadHostPort(lang, voice.Visible(r.Host, nameRunes))}
	}
	if !d.named(r.Host) && !isIP(r.Host) {
		return &refusal{status: http.StatusForbidden, code: codeForbidden, reason: "host not allowed",
			msg: words.DoorHostNotAllowed(lang, voice.Visible(r.Host, nameRunes))}
	}
	// MCP clients outside a browser send no Origin; a browser sends one.
	// Every Origin header is checked, so a second one cannot hide behind
	// the first.
	for _, origin := range r.Header.Values("Origin") {
		if origin != "" && !d.ownOrigin(origin, r.Host) {
			return d.foreignOrigin(origin)
		}
	}
	return nil
}

// ownOrigin reports whether a browser's Origin is maison's own: loopback,
// or, with a token, one of Config.Hosts or the request's own Host.
func (d *Door) ownOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && validPort(u.Host) &&
		(loopbackName(u.Host) || !d.cfg.NoAuth && (d.named(u.Host) || strings.EqualFold(u.Host, host)))
}

// foreignOrigin refuses a request from a web page maison does not serve.
func (d *Door) foreignOrigin(origin string) *refusal {
	return &refusal{status: http.StatusForbidden, code: codeForbidden, reason: "origin not allowed",
		msg: words.DoorForeignOrigin(d.cfg.Lang, voice.Visible(origin, nameRunes))}
}

// validPort reports whether host[:port] has no port, an empty one, or a
// number from 1 to 65535; Go's server lets any port text through.
func validPort(hostport string) bool {
	_, port, err := net.SplitHostPort(hostport)
	if err != nil || port == "" {
		return true // no port (a bare name or IPv6 address): hostname judges the rest
	}
	n, err := strconv.Atoi(port)
	return err == nil && n >= 1 && n <= 65535 && strings.Trim(port, "0123456789") == ""
}

// pageRefused answers a refusal of the sign-in pages and the other paths
// besides /mcp: a page in words, as a browser shows it.
func (d *Door) pageRefused(w http.ResponseWriter, r *http.Request, ref *refusal) {
	if d.refused.Note(ref.reason, d.cfg.ClientAddr(r)) {
		d.log.Info("request refused", "reason", ref.reason, "remote", d.cfg.ClientAddr(r), "path", voice.Visible(r.URL.Path, nameRunes), "host", voice.Visible(r.Host, nameRunes))
	}
	plain(w, ref.status, ref.msg)
}

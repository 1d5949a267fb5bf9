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
		return &refusal{status: http.StatusBadRequest, code: codeInvalidRequest, reason: "no Host", msg: noHostWords(lang)}
	case !validPort(r.Host):
		name := clip(r.Host)
		return &refusal{status: http.StatusBadRequest, code: codeInvalidRequest, reason: "malformed Host",
			msg: lang.Pick(
				"The request's Host "+quote(name)+" is not well-formed: its port is not a number from 1 to 65535. Nothing was done. Send Host as the name or address you call maison by, with the port it listens on.",
				"L'en-tête Host « "+name+" » de la requête n'est pas bien formé : son port n'est pas un nombre de 1 à 65535. Rien n'a été fait. Envoyez comme Host le nom ou l'adresse par lesquels vous appelez maison, avec le port où elle écoute.")}
	}
	if !d.named(r.Host) && !isIP(r.Host) {
		name := clip(r.Host)
		return &refusal{status: http.StatusForbidden, code: codeForbidden, reason: "host not allowed",
			msg: lang.Pick(
				"maison does not answer to the name "+quote(name)+": a web page can point a name it owns at maison's address (DNS rebinding), so maison answers only to localhost, its IP addresses, its public URL's name, this machine's name and the names in MAISON_ALLOWED_HOSTS. Nothing was done. If this name is yours, add it to MAISON_ALLOWED_HOSTS (names separated by commas) and restart maison; otherwise call maison by one of those names.",
				"maison ne répond pas au nom « "+name+" » : une page web peut diriger un nom qui lui appartient vers l'adresse de maison (rattachement DNS), alors maison ne répond qu'à localhost, à ses adresses IP, au nom de son adresse publique, au nom de cette machine et aux noms de MAISON_ALLOWED_HOSTS. Rien n'a été fait. Si ce nom est le vôtre, ajoutez-le à MAISON_ALLOWED_HOSTS (noms séparés par des virgules) et redémarrez maison; sinon, appelez maison par un de ces noms.")}
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
	lang := d.cfg.Lang
	page := clip(origin)
	return &refusal{status: http.StatusForbidden, code: codeForbidden, reason: "origin not allowed",
		msg: lang.Pick(
			"A web page from "+quote(page)+" may not call maison: only pages from maison's own address, localhost or the names in MAISON_ALLOWED_HOSTS may. Nothing was done. MCP clients outside a browser send no Origin and are not concerned; if this page is yours, add its host name to MAISON_ALLOWED_HOSTS and restart maison.",
			"Une page web de « "+page+" » ne peut pas appeler maison : seules les pages de l'adresse de maison, de localhost ou des noms de MAISON_ALLOWED_HOSTS le peuvent. Rien n'a été fait. Les clients MCP hors d'un navigateur n'envoient pas d'Origin et ne sont pas touchés; si cette page est la vôtre, ajoutez son nom à MAISON_ALLOWED_HOSTS et redémarrez maison.")}
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

// noHostWords says a request named no host: Go's server lets an empty
// Host through, and HTTP/1.0 without one, and answers a missing one itself
// (early.go).
func noHostWords(lang voice.Lang) string {
	return lang.Pick(
		"The request names no host (its Host header is missing or empty), so maison cannot tell it was meant for it and read nothing of it. Nothing was done. Send Host with the name or address you call maison by, as every HTTP/1.1 client does.",
		"La requête ne nomme aucun hôte (son en-tête Host manque ou est vide), alors maison ne peut pas savoir qu'elle lui était destinée et n'en a rien lu. Rien n'a été fait. Envoyez Host avec le nom ou l'adresse par lesquels vous appelez maison, comme le fait tout client HTTP/1.1.")
}

// quote puts a name from outside in quotation marks for a message.
func quote(s string) string { return "“" + s + "”" }

// pageRefused answers a refusal of the sign-in pages and the other paths
// besides /mcp: a page in words, as a browser shows it.
func (d *Door) pageRefused(w http.ResponseWriter, r *http.Request, ref *refusal) {
	if d.refused.Note(ref.reason, d.cfg.ClientAddr(r)) {
		d.log.Info("request refused", "reason", ref.reason, "remote", d.cfg.ClientAddr(r), "path", clip(r.URL.Path), "host", clip(r.Host))
	}
	plain(w, ref.status, ref.msg)
}

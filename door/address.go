package door

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// TrustedHeader is the one client-address header maison can be told to
// trust: Cloudflare sets it to the address its edge saw, replacing any
// value the client sent. X-Forwarded-For is never trusted: its first hop
// is whatever the client wrote.
const TrustedHeader = "CF-Connecting-IP"

// DefaultTrustedProxies are the socket addresses a trusted header is
// believed from when none are configured: this machine (cloudflared in the
// same pod or host) and private networks (cloudflared elsewhere in the
// cluster).
var DefaultTrustedProxies = []netip.Prefix{
	netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128"),
	netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.168.0.0/16"), netip.MustParsePrefix("fc00::/7"),
}

// ClientAddress returns the function that names the address a request
// comes from, for limits and logs: the socket's address, or, when header is
// CF-Connecting-IP, that header's address on requests whose socket address
// is within trusted (nil means DefaultTrustedProxies). A missing, repeated
// or malformed header falls back to the socket's address. An IPv6 address
// stands for its /64, which one client usually holds whole.
func ClientAddress(header string, trusted []netip.Prefix) (func(*http.Request) string, error) {
	switch {
	case header == "":
		return func(r *http.Request) string { return keyOf(socketAddr(r)) }, nil
	case !strings.EqualFold(header, TrustedHeader):
		return nil, fmt.Errorf("door: client address header %q is not supported: only %s, which Cloudflare sets itself, can be trusted (X-Forwarded-For's first hop is whatever the client wrote); leave it empty to use the connection's address", header, TrustedHeader)
	}
	if trusted == nil {
		trusted = DefaultTrustedProxies
	}
	return func(r *http.Request) string {
		sock := socketAddr(r)
		if !within(sock, trusted) {
			return keyOf(sock)
		}
		vals := r.Header.Values(TrustedHeader)
		if len(vals) != 1 {
			return keyOf(sock)
		}
		ip, err := netip.ParseAddr(strings.TrimSpace(vals[0]))
		if err != nil {
			return keyOf(sock)
		}
		return keyOf(ip)
	}, nil
}

// socketAddr is the connection's peer address, or the zero address when
// it cannot be read.
func socketAddr(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, _ := netip.ParseAddr(host)
	return ip
}

func within(ip netip.Addr, nets []netip.Prefix) bool {
	ip = ip.Unmap()
	for _, p := range nets {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// keyOf is the text an address is counted and logged under.
func keyOf(ip netip.Addr) string {
	ip = ip.Unmap().WithZone("") // a zone names an interface, not a client
	switch {
	case !ip.IsValid():
		return "unknown"
	case ip.Is6() && !ip.IsLoopback():
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

// ParsePrefixes reads a comma-separated list of addresses and networks,
// such as 10.0.0.0/8,192.0.2.7.
func ParsePrefixes(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		if !strings.Contains(f, "/") {
			ip, err := netip.ParseAddr(f)
			if err != nil {
				return nil, fmt.Errorf("%q is neither an address nor a network such as 10.0.0.0/8", f)
			}
			out = append(out, netip.PrefixFrom(ip, ip.BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(f)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a network such as 10.0.0.0/8", f)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

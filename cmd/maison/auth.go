package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"maison/approve"
	"maison/bridge"
	"maison/door"
	"maison/oauth"
	"maison/state"
	"maison/tools"
)

// signInConfigured reports whether a human-page method is set.
func (c config) signInConfigured() bool { return c.OperatorPassword != "" || c.AccessTeam != "" }

// approvalOrigin is the public origin the approval page is served at, or
// "" when sensitive actions get their yes by code alone (MAISON_CONFIRM):
// by default the page is on with a public URL and a sign-in method. serving
// says maison serves HTTP (serve, demo): stdio serves no page.
func (c config) approvalOrigin(serving bool) (string, error) {
	on := serving && c.PublicURL != "" && c.signInConfigured()
	switch {
	case c.Confirming == tools.ByCode || c.Confirming == "" && !on:
		return "", nil
	case !on:
		return "", fmt.Errorf("MAISON_CONFIRM=%s needs maison's approval page, where a person approves unlocking and opening: maison serve or maison demo, with MAISON_PUBLIC_URL and a way to prove who approves (MAISON_OPERATOR_PASSWORD or Cloudflare Access); or set MAISON_CONFIRM=code", c.Confirming)
	}
	return oauth.CheckIssuer(c.PublicURL)
}

// noSignIn is said when a public address is set but nothing can approve a
// sign-in, so the Claude app cannot connect.
const noSignIn = "MAISON_PUBLIC_URL is set but no sign-in method: set MAISON_OPERATOR_PASSWORD (or Cloudflare Access) to let the Claude app connect; until then only clients with the bearer token get in."

// newAuthority builds maison's authorization server and token verifier
// from the settings, counting sign-in attempts and registrations in st, or returns nil when neither MAISON_SECRET nor a
// sign-in method is set. clientAddr names where a request comes from, as
// the door counts it. For `maison demo` a missing secret is made up (its
// tokens then die with the process); `maison serve` needs one.
func newAuthority(cfg config, st state.Store, clientAddr func(*http.Request) string, stdout io.Writer, logger *slog.Logger) (*oauth.Server, error) {
	if cfg.Secret == "" && !cfg.signInConfigured() {
		if cfg.PublicURL != "" {
			fmt.Fprintln(stdout, noSignIn)
		}
		return nil, nil
	}
	secret := cfg.Secret
	if secret == "" {
		if !cfg.Demo {
			return nil, errors.New("MAISON_SECRET is not set: the sign-in page signs client ids and tokens with it. Make one with openssl rand -base64 32 and keep it the same on every replica; changing it revokes every token")
		}
		secret = randomToken()
		fmt.Fprintln(stdout, "No MAISON_SECRET: tokens are signed with a random key and stop working when the demo stops.")
	}
	oc := oauth.Config{
		Issuer: cfg.PublicURL, Secret: []byte(secret), Previous: []byte(cfg.SecretPrevious),
		Password: cfg.OperatorPassword, RedirectURIs: cfg.RedirectURIs, Lang: cfg.Lang,
		MetadataFetch: oauth.FetchConfig{AllowPrivate: cfg.ClientMetadataPrivate},
		Logger:        logger.With("component", "oauth"), Store: st,
	}
	oc.ClientAddr = clientAddr
	if cfg.AccessTeam != "" {
		oc.Access = &oauth.AccessConfig{Team: cfg.AccessTeam, AUD: cfg.AccessAUD, Emails: cfg.AccessEmails}
	}
	as, err := oauth.New(oc)
	if err != nil {
		return nil, fmt.Errorf("%w", err)
	}
	if cfg.PublicURL != "" && !as.Enabled() {
		fmt.Fprintln(stdout, noSignIn)
	}
	return as, nil
}

// doorConfig wires the door to the authorization server and the tools' scopes.
func doorConfig(ctx context.Context, cfg config, b *bridge.Bridge, as *oauth.Server, clientAddr func(*http.Request) string, token string, logger *slog.Logger) (door.Config, error) {
	dc := door.Config{
		Token: token, NoAuth: cfg.NoAuth, Scopes: oauth.AllScopes, Logger: logger.With("component", "door"),
		ClientAddr: clientAddr, RateLimit: cfg.RateLimit, RatePeriod: cfg.RatePeriod,
		MaxBatch: cfg.MaxBatch, MaxInFlight: cfg.MaxInFlight,
		Hosts: ownHosts(cfg), Lang: cfg.Lang,
	}
	if as == nil {
		return dc, nil
	}
	dc.Verify = func(tok string) (*auth.TokenInfo, error) {
		g, err := as.Verify(tok)
		if err != nil {
			return nil, err
		}
		return &auth.TokenInfo{
			Scopes: g.Scopes, Expiration: g.Expiry, UserID: g.Subject + "|" + g.Client,
			Extra: map[string]any{"client_id": g.Client, "client_name": g.ClientName, "sub": g.Subject},
		}, nil
	}
	dc.ToolScope = b.ToolScope
	if as.Enabled() {
		dc.OAuth, dc.OAuthPaths, dc.ResourceMetadataURL = as.Handler(), oauth.Paths, as.ResourceMetadataURL()
		if b.Approvals != nil {
			// The approval page asks for the sign-in page's proof.
			pages := http.NewServeMux()
			for _, p := range oauth.Paths {
				pages.Handle(p, dc.OAuth)
			}
			pages.Handle(approve.Path, b.Approvals.Handler(as, b.CarryOut, clientAddr))
			dc.OAuth, dc.OAuthPaths = pages, append(slices.Clone(oauth.Paths), approve.Path)
		}
	}
	return dc, nil
}

// ownHosts are the host names maison answers to besides loopback names
// and IP addresses (see door.Config.Hosts): MAISON_PUBLIC_URL's, the ones
// in MAISON_ALLOWED_HOSTS and, when maison listens beyond loopback, this
// machine's name as a person on the LAN types it (nas, nas.local) and the
// listen address's name.
func ownHosts(cfg config) []string {
	hosts := slices.Clone(cfg.AllowedHosts)
	if u, err := url.Parse(cfg.PublicURL); err == nil && u.Hostname() != "" {
		hosts = append(hosts, strings.ToLower(u.Hostname()))
	}
	host, _, err := net.SplitHostPort(cfg.Listen)
	if err != nil {
		return hosts
	}
	if ip, err := netip.ParseAddr(host); err == nil && ip.IsLoopback() || host == "localhost" {
		return hosts
	}
	if _, err := netip.ParseAddr(host); err != nil && host != "" {
		hosts = append(hosts, strings.ToLower(host))
	}
	if name, err := os.Hostname(); err == nil && name != "" {
		name = strings.ToLower(name)
		hosts = append(hosts, name)
		if !strings.Contains(name, ".") {
			hosts = append(hosts, name+".local")
		}
	}
	return hosts
}

// clientAddress names the address a request comes from (door.ClientAddress)
// and, when no header is trusted but requests arrive through Cloudflare,
// says once how to count each client apart: otherwise every client shares
// cloudflared's address, and one stranger's wrong passwords lock the sign-in
// page for everyone.
func clientAddress(cfg config, logger *slog.Logger) (func(*http.Request) string, error) {
	addr, err := door.ClientAddress(cfg.ClientIPHeader, cfg.TrustedProxies)
	if err != nil || cfg.ClientIPHeader != "" {
		return addr, err
	}
	var once sync.Once
	return func(r *http.Request) string {
		if r.Header.Get(door.TrustedHeader) != "" {
			once.Do(func() {
				logger.Warn("requests arrive through Cloudflare, but every client is counted under the tunnel's address: set MAISON_CLIENT_IP_HEADER=CF-Connecting-IP so wrong tokens and sign-in failures are counted per client")
			})
		}
		return addr(r)
	}, nil
}

// oauthSettings are the authorization server's: maison's public address,
// which the sign-in page and signed tokens name, and its secrets (serve,
// demo, token).
var oauthSettings = []setting{
	{name: "public-url", env: "MAISON_PUBLIC_URL",
		doc:   "the public https origin maison is reached at, e.g. https://maison.example.com",
		usage: "public https origin of maison, for OAuth (MAISON_PUBLIC_URL)",
		text:  func(c *config) *string { return &c.PublicURL }},
	{env: "MAISON_SECRET", doc: "key signing client ids and tokens; changing it revokes them all"},
	{env: "MAISON_SECRET_PREVIOUS", doc: "the key before a rotation, still accepted meanwhile"},
	{env: "MAISON_OPERATOR_PASSWORD", doc: "the password the sign-in page asks for"},
	{env: "MAISON_CF_ACCESS_TEAM", doc: "or trust Cloudflare Access in front of the sign-in page"},
	{env: "MAISON_CF_ACCESS_AUD"},
	{env: "MAISON_CF_ACCESS_EMAILS"},
	{env: "MAISON_REDIRECT_URIS", doc: "extra allowed redirect URIs, e.g. https://my.home-assistant.io/redirect/oauth"},
	{env: "MAISON_CLIENT_METADATA_PRIVATE", doc: "1 lets client metadata documents live on private addresses (default off)"},
}

package homeassistant

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"maison/internal/redact"
)

// Config configures a Client. Only URL and Token are required; every other field documents its zero-value default.
type Config struct {
	// URL is Home Assistant's base URL, e.g. http://homeassistant.local:8123. Required (MAISON_HA_URL).
	URL string
	// Token is a long-lived access token of a non-admin, local-only user. Required (MAISON_HA_TOKEN).
	Token string
	// HTTPClient carries camera and Assist requests and the websocket handshake. Nil means a client with
	// 10 s dial and TLS timeouts and a 90 s overall limit.
	HTTPClient *http.Client
	// Logger receives connection events. Nil means discard. Tokens are never logged.
	Logger *slog.Logger

	// ConnectTimeout bounds one websocket connection attempt: dial, auth, registries and the first full state.
	// Zero means 60s.
	ConnectTimeout time.Duration
	// ReloadTimeout bounds one reload of the registries after Home Assistant says they changed. Zero means
	// ConnectTimeout.
	ReloadTimeout time.Duration
	// HandshakeTimeout bounds the start of each connection attempt, until Home Assistant has said its first word
	// on the websocket: the upgrade and auth_required. Something that accepts the connection and stays silent
	// this long is not answering as Home Assistant does, and the attempt fails as unreachable, saying so.
	// Zero means ConnectTimeout, and a silence that outlasts ConnectTimeout is a timeout.
	HandshakeTimeout time.Duration
	// PingInterval is how often the websocket is pinged to notice a dead connection. Zero means 30s.
	PingInterval time.Duration
	// PrivilegeInterval is how often maison asks Home Assistant who its user is (auth/current_user), besides
	// at every connection: a user made an administrator meanwhile is found within it, and from then on every
	// call is refused until the user is not one again. Zero means 1m.
	PrivilegeInterval time.Duration
	// PongTimeout is how long to wait for the answer to a ping before dropping the connection.
	// Zero means 10s.
	PongTimeout time.Duration
	// ReconnectMin is the first delay before reconnecting; it doubles after each failed attempt. Zero means 1s.
	ReconnectMin time.Duration
	// ReconnectMax caps the reconnect delay. Zero means 1m. Each delay is jittered between half and all of it.
	ReconnectMax time.Duration
	// ReconnectWait is how long what needs the websocket waits for a session lost to a blip to come back
	// before saying why it cannot go on: it usually takes a second or two. Zero means 3s.
	ReconnectWait time.Duration
	// ReadLimit caps one websocket message; the first state of a big house can be several MB. Zero means 64 MiB.
	ReadLimit int64
	// RequestTimeout bounds each camera or Assist HTTP request when the caller's context has no earlier
	// deadline. Zero means 30s.
	RequestTimeout time.Duration
	// ToolsTTL is how long the Assist tool list is reused before listing again. Zero means 1m.
	ToolsTTL time.Duration
	// BareName says what an Assist tool was called before Home Assistant
	// 2026.9 prefixed each tool with the integration that offers it
	// (intent__HassTurnOn was HassTurnOn): a call whose name is not listed
	// is carried out under that name, when it is. ok is false for a tool
	// that had no such name of its own (a script's, another integration's
	// with the same canonical part). Nil: a tool is called only by its own
	// name.
	BareName func(name string) (bare string, ok bool)
	// AssistGrace is how long the Assist endpoint may answer 404 before maison says the integration is
	// missing: after a restart Home Assistant serves 404 there until its MCP server integration has loaded.
	// Zero means 3m.
	AssistGrace time.Duration
}

// maxTokenLength bounds MAISON_HA_TOKEN: Home Assistant's long-lived tokens
// are JSON Web Tokens of about 200 characters; anything far longer is
// something else pasted by mistake.
const maxTokenLength = 4096

// Validate reports the first missing or malformed field, naming the environment variable to fix.
func (c Config) Validate() error {
	if strings.TrimSpace(c.URL) == "" {
		return errors.New("homeassistant: no Home Assistant URL: set MAISON_HA_URL, e.g. http://homeassistant.local:8123")
	}
	shown := redact.URL(c.URL) // a password typed into the URL is never quoted
	u, err := url.Parse(c.URL)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL it quotes
		}
		return fmt.Errorf("homeassistant: MAISON_HA_URL %q is not a URL (%v); use e.g. http://homeassistant.local:8123", shown, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("homeassistant: MAISON_HA_URL %q must start with http:// or https://", shown)
	}
	if u.Host == "" {
		return fmt.Errorf("homeassistant: MAISON_HA_URL %q has no host; use e.g. http://homeassistant.local:8123", shown)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return errors.New("homeassistant: MAISON_HA_URL must be a plain base URL without credentials, query or fragment")
	}
	if strings.EqualFold(u.Hostname(), "supervisor") {
		return fmt.Errorf("homeassistant: MAISON_HA_URL %q is the Supervisor's way into Home Assistant, which takes only the Supervisor's own token, never a user's; maison signs in as its own non-admin user: use http://homeassistant:8123 from a Home Assistant app, or Home Assistant's address on your network", shown)
	}
	if strings.TrimSpace(c.Token) == "" {
		return errors.New("homeassistant: no access token: set MAISON_HA_TOKEN to a long-lived token of a non-admin, local-only Home Assistant user")
	}
	if strings.ContainsAny(c.Token, " \t\r\n") {
		return errors.New("homeassistant: MAISON_HA_TOKEN contains whitespace; paste the token alone")
	}
	if strings.ContainsAny(c.Token, "\"'`\u201c\u201d\u2018\u2019\u00ab\u00bb") {
		return errors.New("homeassistant: MAISON_HA_TOKEN holds quotes; paste the token alone, without the quotes around it")
	}
	for _, r := range c.Token {
		if r < 0x21 || r > 0x7e {
			return errors.New("homeassistant: MAISON_HA_TOKEN holds a character no access token has (a control character, or one beyond ASCII); copy the token again from the user's profile, Security, Long-lived access tokens")
		}
	}
	if len(c.Token) > maxTokenLength {
		return fmt.Errorf("homeassistant: MAISON_HA_TOKEN is %d characters long, and a Home Assistant access token is about 200: paste only the token, from the user's profile, Security, Long-lived access tokens", len(c.Token))
	}
	for name, d := range map[string]time.Duration{
		"ConnectTimeout": c.ConnectTimeout, "ReloadTimeout": c.ReloadTimeout, "HandshakeTimeout": c.HandshakeTimeout, "PingInterval": c.PingInterval, "PongTimeout": c.PongTimeout, "PrivilegeInterval": c.PrivilegeInterval,
		"ReconnectMin": c.ReconnectMin, "ReconnectMax": c.ReconnectMax, "ReconnectWait": c.ReconnectWait, "RequestTimeout": c.RequestTimeout,
		"ToolsTTL": c.ToolsTTL, "AssistGrace": c.AssistGrace,
	} {
		if d < 0 {
			return fmt.Errorf("homeassistant: %s is negative", name)
		}
	}
	if c.ReadLimit < 0 {
		return errors.New("homeassistant: ReadLimit is negative")
	}
	if c.ReconnectMax != 0 && c.ReconnectMin > c.ReconnectMax {
		return errors.New("homeassistant: ReconnectMin exceeds ReconnectMax")
	}
	return nil
}

// withDefaults returns c with every zero field replaced by its documented default.
func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&c.ConnectTimeout, 60*time.Second)
	def(&c.HandshakeTimeout, c.ConnectTimeout)
	def(&c.ReloadTimeout, c.ConnectTimeout)
	def(&c.PingInterval, 30*time.Second)
	def(&c.PongTimeout, 10*time.Second)
	def(&c.PrivilegeInterval, time.Minute)
	def(&c.ReconnectMin, time.Second)
	def(&c.ReconnectMax, time.Minute)
	def(&c.ReconnectWait, 3*time.Second)
	def(&c.RequestTimeout, 30*time.Second)
	def(&c.ToolsTTL, time.Minute)
	def(&c.AssistGrace, 3*time.Minute)
	if c.ReconnectMin > c.ReconnectMax {
		c.ReconnectMin = c.ReconnectMax
	}
	if c.ReadLimit == 0 {
		c.ReadLimit = 64 << 20
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{
			Timeout: 90 * time.Second,
			Transport: &http.Transport{
				Proxy:                 http.ProxyFromEnvironment,
				DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
				TLSHandshakeTimeout:   10 * time.Second,
				ResponseHeaderTimeout: 70 * time.Second,
				IdleConnTimeout:       90 * time.Second,
				MaxIdleConnsPerHost:   4,
			},
		}
	}
	return c
}

package oauth

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"maison/voice"
)

// FetchConfig bounds fetching client ID metadata documents: a client id
// that is an https URL names a JSON document the client publishes.
type FetchConfig struct {
	// AllowPrivate lets documents live on private, loopback and link-local
	// addresses (MAISON_CLIENT_METADATA_PRIVATE=1). Off, such addresses are
	// refused when connecting, whatever the name resolves to.
	AllowPrivate bool
	// TLS, when set, replaces the system's TLS settings (tests).
	TLS *tls.Config
}

// Limits of one fetch.
const (
	maxDocument = 5 << 10
	fetchBudget = 5 * time.Second
	docTTL      = 5 * time.Minute
	failTTL     = 30 * time.Second
	maxDocs     = 256
	maxURLLen   = 512
)

// document is what maison uses of a client ID metadata document.
type document struct {
	Name      string
	Redirects []string
}

type docEntry struct {
	doc document
	err error
	exp time.Time
}

// fetcher fetches and briefly caches metadata documents.
type fetcher struct {
	client *http.Client
	now    func() time.Time

	mu    sync.Mutex
	cache map[string]docEntry
}

func newFetcher(cfg FetchConfig, now func() time.Time) *fetcher {
	dialer := &net.Dialer{Timeout: fetchBudget, Control: func(_, address string, _ syscall.RawConn) error {
		// Checked on the address actually dialled, so a name that resolves
		// to a private address (or rebinds to one) is refused too.
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("oauth: unexpected address %q", address)
		}
		if !cfg.AllowPrivate && !publicAddr(ap.Addr()) {
			return fmt.Errorf("oauth: %s is not a public address", ap.Addr())
		}
		return nil
	}}
	tr := &http.Transport{
		DialContext:            dialer.DialContext,
		TLSClientConfig:        cfg.TLS,
		TLSHandshakeTimeout:    fetchBudget,
		ResponseHeaderTimeout:  fetchBudget,
		MaxResponseHeaderBytes: 16 << 10,
		DisableCompression:     true,
		Proxy:                  nil,
		MaxIdleConns:           4,
		IdleConnTimeout:        30 * time.Second,
	}
	return &fetcher{
		client: &http.Client{
			Transport: tr,
			Timeout:   fetchBudget,
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return errors.New("oauth: a client metadata document must not redirect")
			},
		},
		now:   now,
		cache: map[string]docEntry{},
	}
}

// publicAddr reports whether an address is on the public internet.
func publicAddr(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsValid() && a.IsGlobalUnicast() && !a.IsPrivate() && !a.IsLoopback() && !a.IsLinkLocalUnicast() &&
		!netip.MustParsePrefix("100.64.0.0/10").Contains(a) && // carrier-grade NAT
		!netip.MustParsePrefix("fc00::/7").Contains(a)
}

// checkDocumentURL vets a client id that is a URL before anything is fetched.
func checkDocumentURL(id string) error {
	if len(id) > maxURLLen {
		return errors.New("the client id URL is too long")
	}
	u, err := url.Parse(id)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || u.Fragment != "" || strings.Contains(id, "#") {
		return errors.New("a client id URL must be https, with a host and no fragment or user name")
	}
	if u.Path == "" || u.Path == "/" || strings.Contains(u.Path, "/.") {
		return errors.New("a client id URL must have a path without dot segments")
	}
	return nil
}

// get returns the document at id, from the cache when fresh.
func (f *fetcher) get(ctx context.Context, id string) (document, error) {
	if err := checkDocumentURL(id); err != nil {
		return document{}, fmt.Errorf("%w: %v", errUnknownClient, err)
	}
	now := f.now()
	f.mu.Lock()
	if e, ok := f.cache[id]; ok && now.Before(e.exp) {
		f.mu.Unlock()
		return e.doc, e.err
	}
	f.mu.Unlock()
	doc, err := f.fetch(ctx, id)
	exp := now.Add(docTTL)
	if err != nil {
		err = fmt.Errorf("%w: %w", errUnknownClient, err)
		exp = now.Add(failTTL)
	}
	f.mu.Lock()
	if len(f.cache) >= maxDocs {
		for k, e := range f.cache {
			if !now.Before(e.exp) || len(f.cache) >= maxDocs {
				delete(f.cache, k)
			}
		}
	}
	f.cache[id] = docEntry{doc: doc, err: err, exp: exp}
	f.mu.Unlock()
	return doc, err
}

func (f *fetcher) fetch(ctx context.Context, id string) (document, error) {
	ctx, cancel := context.WithTimeout(ctx, fetchBudget)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, id, nil)
	if err != nil {
		return document{}, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := f.client.Do(req)
	if err != nil {
		return document{}, fmt.Errorf("fetching the client metadata document: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return document{}, fmt.Errorf("the client metadata document answered %d", resp.StatusCode)
	}
	if mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type")); err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
		return document{}, errors.New("the client metadata document is not JSON")
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument+1))
	if err != nil {
		return document{}, fmt.Errorf("reading the client metadata document: %w", err)
	}
	if len(body) > maxDocument {
		return document{}, fmt.Errorf("the client metadata document is larger than %d bytes", maxDocument)
	}
	var d struct {
		ClientID     string   `json:"client_id"`
		ClientName   string   `json:"client_name"`
		RedirectURIs []string `json:"redirect_uris"`
		AuthMethod   string   `json:"token_endpoint_auth_method"`
	}
	if err := json.Unmarshal(body, &d); err != nil {
		return document{}, errors.New("the client metadata document is not a JSON object")
	}
	if d.ClientID != id {
		return document{}, errors.New("the document's client_id is not its own URL")
	}
	if len(d.RedirectURIs) == 0 || len(d.RedirectURIs) > maxRedirects {
		return document{}, errors.New("the document lists no redirect URIs, or too many")
	}
	if d.AuthMethod != "" && d.AuthMethod != "none" {
		return document{}, errors.New("the document asks for a client authentication maison does not offer to URL clients (only none)")
	}
	return document{Name: voice.Visible(d.ClientName, maxNameRunes), Redirects: d.RedirectURIs}, nil
}

// Package webpage is the one design of maison's pages a person sees (the
// sign-in page and the approval page): one layout, one style sheet, light
// and dark, readable at phone width, and the strict headers every such page
// is sent with. The pages run no script and cannot be framed. It also holds
// the check that a form was sent by a page of this site.
package webpage

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"html/template"
	"net/http"
	"time"

	"maison/internal/visible"
)

// css is the pages' only style; the CSP admits it by its nonce. Text
// wraps between words; an address is set in the text face, so the usual
// ones fit a phone's width whole, and only one longer than the line breaks
// (overflow-wrap).
const css = `:root{color-scheme:light dark;--fg:#1d1d1f;--muted:#5b5b60;--bg:#fff;--card:#f4f4f6;--line:#d6d6db;--accent:#0b57d0;--on-accent:#fff;--bad-bg:#fde8e8;--bad:#a50e0e;--ok-bg:#e6f4ea;--ok:#137333}
@media (prefers-color-scheme:dark){:root{--fg:#ececf1;--muted:#a8a8b3;--bg:#16161a;--card:#24242a;--line:#3a3a42;--accent:#8ab4f8;--on-accent:#0b1a33;--bad-bg:#3b1a1a;--bad:#f6aea9;--ok-bg:#17301f;--ok:#81c995}}
*{box-sizing:border-box}html{background:var(--bg);color:var(--fg)}
body{font:17px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;padding:1.5em 1em 3em;overflow-wrap:break-word;hyphens:none}
main{max-width:34em;margin:0 auto}.brand{margin:0 0 .2em;color:var(--muted);font-size:.9em;letter-spacing:.04em}
h1{font-size:1.45em;line-height:1.25;margin:.1em 0 .7em}
.who{font-size:1.2em;font-weight:600;margin:.3em 0}
.url{font-size:.85em;line-height:1.4;overflow-wrap:anywhere;border-left:3px solid var(--accent);padding:.1em 0 .1em .6em;display:block;margin:.3em 0}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.8em 1em;margin:1em 0}
.card p{margin:.35em 0}.what{font-size:1.15em;font-weight:600}
dl{margin:.4em 0;display:grid;grid-template-columns:max-content 1fr;gap:.25em .8em}dt{color:var(--muted)}dd{margin:0}
.problem{background:var(--bad-bg);color:var(--bad);border-left:4px solid var(--bad);padding:.6em 1em;border-radius:4px}
.done{background:var(--ok-bg);color:var(--ok);border-left:4px solid var(--ok);padding:.6em 1em;border-radius:4px}
.note{background:var(--card);border-left:4px solid var(--line);padding:.6em 1em;border-radius:4px}
fieldset{border:0;margin:1em 0;padding:0}legend{font-weight:600;padding:0;margin-bottom:.2em}label{display:block;margin:.45em 0}
input[type=password]{font:inherit;padding:.55em .6em;width:100%;border:1px solid var(--line);border-radius:8px;background:var(--bg);color:var(--fg)}
.actions{display:flex;flex-wrap:wrap;gap:.7em;margin:1.1em 0 .4em}
button{font:inherit;font-weight:600;padding:.65em 1.4em;border-radius:8px;border:1px solid var(--line);background:var(--bg);color:var(--fg);min-height:2.8em;cursor:pointer}
button.primary{background:var(--accent);border-color:var(--accent);color:var(--on-accent)}
small,.muted{color:var(--muted)}`

// layout is every page's frame; each page adds its own "main".
const layout = `<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark"><meta name="referrer" content="same-origin"><title>maison · {{.Title}}</title><style nonce="{{.Nonce}}">{{.CSS}}</style></head>
<body><main><p class="brand">maison</p><h1>{{.Title}}</h1>
{{with .Problem}}<p class="problem" role="alert">{{.}}</p>{{end}}
{{template "main" .Body}}
</main></body></html>
`

// New returns a page: the shared layout around main, a template that
// defines what the page shows inside it from Frame.Body.
func New(name, main string) *template.Template {
	return template.Must(template.Must(template.New(name).Parse(layout)).New("main").Parse(main)).Lookup(name)
}

// Frame is what a page shows around its own part.
type Frame struct {
	Lang    string // the page's language, "en" or "fr"
	Title   string
	Problem string // why something was refused, shown first; empty for none
	Body    any    // what the page's own template reads
}

// Write sends page t with frame f and the strict headers: no script at
// all, the style only by nonce, no framing, no referrer to other sites,
// nothing cached. Its forms may be sent only to this site and to formTo
// (an origin such as https://claude.ai, or a scheme such as myapp:), when
// set; https adds HSTS.
func Write(w http.ResponseWriter, status int, t *template.Template, f Frame, formTo string, https bool) {
	nonce := Random(12)
	formAction := "'self'"
	if formTo != "" {
		formAction += " " + formTo
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'nonce-"+nonce+"'; form-action "+formAction+"; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin") // no-referrer would make Chromium send Origin: null with the form
	h.Set("Cache-Control", "no-store")
	h.Add("Vary", "Accept-Language") // a page speaks the browser's language
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
	if https {
		h.Set("Strict-Transport-Security", "max-age=31536000")
	}
	var buf bytes.Buffer
	err := t.Execute(&buf, struct {
		Frame
		Nonce string
		CSS   template.CSS
	}{f, nonce, template.CSS(css)})
	if err != nil {
		http.Error(w, "maison could not draw its page", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// FromThisSite reports whether a form post was sent by a page of origin
// (such as https://maison.example.com): a browser that says where the
// request comes from (Sec-Fetch-Site, Origin) must name this site. It
// returns what gave a post away, for the log.
func FromThisSite(r *http.Request, origin string) (ok bool, why string) {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" {
		return false, "sec-fetch-site " + clip(site)
	}
	if o := r.Header.Get("Origin"); o != "" && o != origin {
		return false, "origin " + clip(o)
	}
	return true, ""
}

// clip is what a log line may repeat of a header.
func clip(s string) string { return visible.Text(s, 121) }

// Random is n random bytes, URL-safe: a nonce, a cookie's value.
func Random(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Proof is what a person's proof of being the operator came to, on a
// page's post: the operator password, or Cloudflare Access, counted
// against the sign-in page's lockouts (oauth.Server.ProveOperator).
type Proof struct {
	// By names who proved it: "operator" (the password alone) or the email
	// Cloudflare Access vouched for. Empty when not proven.
	By string
	// Wait, when set, is how long this address must wait before its next
	// password is checked (set with WrongPassword by the last wrong one it
	// may try); Paused says it waits because passwords flood in from many
	// places, not because of its own.
	Wait   time.Duration
	Paused bool
	// AccessRefused: Cloudflare Access did not vouch for the sender.
	AccessRefused bool
	// WrongPassword: the password was wrong; Left is how many more this
	// address may try before it waits.
	WrongPassword bool
	Left          int
	// Unchecked: the attempt could not be counted (the state store did not
	// answer, or is full), so nothing was checked; it wraps the store's
	// error.
	Unchecked error
}

// Cookie is the cookie that binds a page to the browser it was shown in:
// named name (over https, host-only and secure by its __Host- prefix),
// sent back only same-site, never read by a script, kept maxAge seconds
// (negative: deleted).
func Cookie(name, value string, maxAge int, https bool) *http.Cookie {
	if https {
		name = "__Host-" + name
	}
	return &http.Cookie{Name: name, Value: value, Path: "/", MaxAge: maxAge, HttpOnly: true, Secure: https, SameSite: http.SameSiteStrictMode}
}

package oauth

import (
	"bytes"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"time"

	"maison/words"
)

// pageData is what the one human page shows.
type pageData struct {
	Client   client
	Redirect string
	Ask      bool // show the form
	Password bool // ask for the operator password
	Email    string
	Tx       string
	Scopes   []scopeChoice
	Problem  string
	Connect  string // set when no app opened the page: the connector URL to add
}

type scopeChoice struct {
	Name, Label string
	Checked     bool
}

// scopeLabels are the words beside each scope's box.
var scopeLabels = map[string]words.Pair{ScopeRead: words.SignInSee, ScopeControl: words.SignInAct}

func (s *Server) scopeChoices(offered, checked []string) []scopeChoice {
	out := make([]scopeChoice, 0, len(offered))
	for _, sc := range offered {
		out = append(out, scopeChoice{Name: sc, Label: scopeLabels[sc].In(s.lang), Checked: slices.Contains(checked, sc)})
	}
	return out
}

// pageCSS is the page's only style; the CSP admits it by its nonce.
const pageCSS = `body{font:16px/1.5 system-ui,sans-serif;max-width:34em;margin:2em auto;padding:0 1em;color:#222}
h1{font-size:1.4em}.who{font-size:1.2em;font-weight:600}.url{font-family:monospace;word-break:break-all;background:#f3f3f3;padding:.3em .5em;display:block}
.problem{background:#fde8e8;border-left:4px solid #c00;padding:.5em 1em}label{display:block;margin:.4em 0}
input[type=password]{font-size:1em;padding:.3em;width:100%;box-sizing:border-box}button{font-size:1em;padding:.5em 1.2em;margin:.8em .5em 0 0}
small{color:#555}`

var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="{{.W.Lang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="same-origin"><title>maison · {{.W.Title}}</title><style nonce="{{.Nonce}}">{{.CSS}}</style></head>
<body><h1>{{.W.Title}}</h1>
{{with .D.Problem}}<p class="problem" role="alert">{{.}}</p>{{end}}
{{with .D.Connect}}<p>{{$.W.Opened}}</p>
<p>{{$.W.HowConnect}} <span class="url">{{.}}</span></p>
<p>{{$.W.ThenConnect}}</p>{{end}}
{{if .D.Ask}}
<p>{{.W.Intro}}</p>
<p class="who">{{if .D.Client.Name}}{{.D.Client.Name}}{{else}}{{.D.Client.Label}}{{end}}</p>
<p><small>{{if .D.Client.Document}}{{.W.ByURL}} <span class="url">{{.D.Client.Label}}</span>{{else}}{{.W.Unverified}}{{end}}</small></p>
<p>{{.W.Sends}} <span class="url" id="redirect">{{.D.Redirect}}</span></p>
<form method="post" action="/authorize">
<input type="hidden" name="tx" value="{{.D.Tx}}">
<fieldset><legend>{{.W.Grant}}</legend>
{{range .D.Scopes}}<label><input type="checkbox" name="scope" value="{{.Name}}"{{if .Checked}} checked{{end}}> {{.Label}} <small>({{.Name}})</small></label>
{{end}}</fieldset>
{{if .D.Email}}<p>{{.W.EmailIs}} <strong>{{.D.Email}}</strong></p>{{end}}
{{if .D.Password}}<label for="password">{{.W.PasswordLabel}}</label><input type="password" id="password" name="password" autocomplete="current-password" required autofocus>{{end}}
<button type="submit" name="action" value="approve">{{.W.Approve}}</button><button type="submit" name="action" value="deny" formnovalidate>{{.W.Deny}}</button>
</form>
<p><small>{{.W.Footer}}</small></p>
{{end}}
</body></html>
`))

// page writes the human page with strict headers: no script at all, styles
// only by nonce, no framing, no referrer to other sites, not cached. The form may be sent
// only to maison, and its answer may lead only to the redirect's origin.
func (s *Server) page(w http.ResponseWriter, status int, d pageData, redirect string, wait time.Duration) {
	nonce := randomID(12)
	formAction := "'self'"
	if u, err := url.Parse(redirect); err == nil && redirect != "" {
		switch u.Scheme {
		case "http", "https":
			formAction += " " + u.Scheme + "://" + u.Host
		default:
			formAction += " " + u.Scheme + ":"
		}
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'nonce-"+nonce+"'; form-action "+formAction+"; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin") // no-referrer would make Chromium send Origin: null with the form
	h.Set("Cache-Control", "no-store")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
	if s.https() {
		h.Set("Strict-Transport-Security", "max-age=31536000")
	}
	retryAfter(w, wait)
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, map[string]any{"W": words.SignIn(s.lang), "D": d, "Nonce": nonce, "CSS": template.CSS(pageCSS)}); err != nil {
		http.Error(w, "maison could not draw its page", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

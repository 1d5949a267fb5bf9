package oauth

import (
	"net/http"
	"net/url"
	"slices"
	"time"

	"maison/internal/webpage"
	"maison/voice"
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
var scopeLabels = map[string]words.Key{ScopeRead: words.SignInSee, ScopeControl: words.SignInAct}

func (s *Server) scopeChoices(lang voice.Lang, offered, checked []string) []scopeChoice {
	out := make([]scopeChoice, 0, len(offered))
	for _, sc := range offered {
		out = append(out, scopeChoice{Name: sc, Label: scopeLabels[sc].In(lang), Checked: slices.Contains(checked, sc)})
	}
	return out
}

// signInPage is the sign-in page's own part, inside maison's one layout.
var signInPage = webpage.New("signin", `{{$W := .W}}{{with .D.Connect}}<p>{{$W.Opened}}</p>
<p>{{$W.HowConnect}} <span class="url">{{.}}</span></p>
<p>{{$W.ThenConnect}}</p>{{end}}
{{if .D.Ask}}
<p>{{.W.Intro}}</p>
<div class="card"><p class="who">{{if .D.Client.Name}}{{.D.Client.Name}}{{else}}{{.D.Client.Label}}{{end}}</p>
<p><small>{{if .D.Client.Document}}{{.W.ByURL}} <span class="url">{{.D.Client.Label}}</span>{{else}}{{.W.Unverified}}{{end}}</small></p>
<p>{{.W.Sends}} <span class="url" id="redirect">{{.D.Redirect}}</span></p></div>
<form method="post" action="/authorize">
<input type="hidden" name="tx" value="{{.D.Tx}}">
<fieldset><legend>{{.W.Grant}}</legend>
{{range .D.Scopes}}<label><input type="checkbox" name="scope" value="{{.Name}}"{{if .Checked}} checked{{end}}> {{.Label}} <small>({{.Name}})</small></label>
{{end}}</fieldset>
{{if .D.Email}}<p>{{.W.EmailIs}} <strong>{{.D.Email}}</strong></p>{{end}}
{{if .D.Password}}<label for="password">{{.W.PasswordLabel}}</label><input type="password" id="password" name="password" autocomplete="current-password" required autofocus>{{end}}
<div class="actions"><button class="primary" type="submit" name="action" value="approve">{{.W.Approve}}</button><button type="submit" name="action" value="deny" formnovalidate>{{.W.Deny}}</button></div>
</form>
<p><small>{{.W.Footer}}</small></p>
{{end}}`)

// langOf is the language of the page r asks for: the first of the
// browser's (Accept-Language) that maison speaks, else the house's.
func (s *Server) langOf(r *http.Request) voice.Lang {
	return voice.Preferred(r.Header.Get("Accept-Language"), s.lang)
}

// page writes the human page in lang with maison's strict page headers
// (webpage.Write). The form may be sent only to maison, and its answer
// may lead only to the redirect's origin.
func (s *Server) page(w http.ResponseWriter, lang voice.Lang, status int, d pageData, redirect string, wait time.Duration) {
	formTo := ""
	if u, err := url.Parse(redirect); err == nil && redirect != "" {
		switch u.Scheme {
		case "http", "https":
			formTo = u.Scheme + "://" + u.Host
		default:
			formTo = u.Scheme + ":"
		}
	}
	retryAfter(w, wait)
	wd := words.SignIn(lang)
	webpage.Write(w, status, signInPage, webpage.Frame{Lang: wd.Lang, Title: wd.Title, Problem: d.Problem,
		Body: map[string]any{"W": wd, "D": d}}, formTo, s.https())
}

package oauth

import (
	"bytes"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"time"
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

// words are the page's texts in one language.
type words struct {
	Lang, Title, Intro, Unverified, ByURL, Sends, Grant, PasswordLabel, EmailIs, Approve, Deny, Footer string
	Opened, HowConnect, ThenConnect                                                                    string
	Scope                                                                                              map[string]string
	tooManyRequests, badRequest, unknownClient, unreadDocument, badRedirect, accessRefused, staleForm  string
	wrongPassword, noScope                                                                             string
	lockedOut                                                                                          func(d time.Duration, paused bool) string
	registrationFlood                                                                                  func(d time.Duration) string
}

func pageWords(lang string) *words {
	if lang == "fr" {
		return &words{
			Lang: "fr", Title: "Connecter une application à la maison",
			Intro:         "Une application demande l'accès à votre maison par maison :",
			Unverified:    "(nom donné par l'application elle-même, non vérifié)",
			ByURL:         "identifiée par",
			Sends:         "Si vous acceptez, maison vous renvoie exactement à cette adresse :",
			Grant:         "Accès accordé (décochez ce que vous refusez) :",
			PasswordLabel: "Mot de passe de maison",
			EmailIs:       "Connecté par Cloudflare Access en tant que",
			Approve:       "Autoriser", Deny: "Refuser",
			Footer:      "N'autorisez que si vous venez vous-même de connecter cette application. Pour tout révoquer, changez MAISON_SECRET.",
			Opened:      "Cette adresse est ouverte par une application pendant qu'elle se connecte à la maison par maison; ouverte seule, elle n'a rien à autoriser. Rien n'a été accordé.",
			HowConnect:  "Pour connecter une application, ajoutez l'adresse de maison comme connecteur personnalisé dans l'application (dans l'application Claude : Paramètres › Connecteurs › Ajouter un connecteur personnalisé) :",
			ThenConnect: "Puis choisissez Connecter : l'application vous ramène à cette page, où elle se nomme, pour que vous autorisiez.",
			Scope: map[string]string{
				ScopeRead:    "Voir la maison : caméras, états et descriptions",
				ScopeControl: "Agir dans la maison : allumer, éteindre, régler; déverrouiller et ouvrir demandent toujours d'abord",
			},
			tooManyRequests: "Trop de demandes depuis cette adresse. Attendez une minute, puis reconnectez l'application.",
			badRequest:      "Cette demande de connexion est incomplète ou mal formée. Reconnectez l'application depuis ses réglages.",
			unknownClient:   "maison ne reconnaît pas cette application. Reconnectez-la depuis ses réglages : elle s'enregistrera de nouveau.",
			unreadDocument:  "maison n'a pas pu lire la description de cette application à l'adresse qu'elle donne pour se présenter : l'adresse n'a pas répondu à temps, ou sa réponse n'est pas de celles que maison accepte. Rien n'a été accordé. Réessayez dans une minute ; si ça dure, la personne qui gère maison trouvera la raison dans son journal.",
			badRedirect:     "Cette application demande à être renvoyée vers une adresse que maison n'autorise pas. Rien n'a été accordé. L'opérateur peut ajouter une adresse sûre dans MAISON_REDIRECT_URIS.",
			accessRefused:   "Cloudflare Access ne se porte pas garant de vous pour cette page, ou votre adresse n'est pas dans la liste de maison. Rien n'a été accordé.",
			staleForm:       "Cette page a expiré ou a été ouverte dans un autre navigateur. Rien n'a été accordé. Reconnectez l'application depuis ses réglages.",
			wrongPassword:   "Mot de passe incorrect. Rien n'a été accordé.",
			noScope:         "Cochez au moins un accès, ou choisissez Refuser.",
			lockedOut: func(d time.Duration, paused bool) string {
				if paused {
					return "Des mots de passe arrivent en très grand nombre de plusieurs endroits (une attaque) : pour l'instant, cette adresse attend. Réessayez dans " + minutes(d, "fr") + ", avec soin, ou depuis une autre connexion (le réseau cellulaire, par exemple). Rien n'a été accordé, et votre mot de passe n'a pas changé."
				}
				return "Trop de mots de passe essayés depuis cette adresse. Réessayez dans " + minutes(d, "fr") + ". Rien n'a été accordé; votre mot de passe n'a pas changé, et les autres adresses peuvent toujours se connecter."
			},
			registrationFlood: func(d time.Duration) string {
				return "maison est inondée d'enregistrements venus de nombreux réseaux, bien au-delà de tout usage réel; cette application et son réseau n'y sont pour rien. Rien n'a été enregistré. Réessayez dans " + minutes(d, "fr") + "."
			},
		}
	}
	return &words{
		Lang: "en", Title: "Connect an app to the house",
		Intro:         "An app asks to reach your house through maison:",
		Unverified:    "(the name the app gives itself, not verified)",
		ByURL:         "identified by",
		Sends:         "If you approve, maison sends you back to exactly this address:",
		Grant:         "Access granted (untick what you refuse):",
		PasswordLabel: "maison's password",
		EmailIs:       "Signed in through Cloudflare Access as",
		Approve:       "Approve", Deny: "Deny",
		Footer:      "Approve only if you have just connected this app yourself. To revoke everything, change MAISON_SECRET.",
		Opened:      "This address is opened by an app while it connects to the house through maison; opened on its own, it has nothing to approve. Nothing was granted.",
		HowConnect:  "To connect an app, add maison's address as a custom connector in the app (in the Claude app: Settings › Connectors › Add custom connector):",
		ThenConnect: "Then choose Connect: the app brings you back to this page, where it names itself, for you to approve.",
		Scope: map[string]string{
			ScopeRead:    "See the house: cameras, states and descriptions",
			ScopeControl: "Act in the house: turn on and off, set lights; unlocking and opening still ask first",
		},
		tooManyRequests: "Too many requests from this address. Wait a minute, then connect the app again.",
		badRequest:      "This connection request is incomplete or malformed. Connect the app again from its settings.",
		unknownClient:   "maison does not recognise this app. Connect it again from its settings: it will register anew.",
		unreadDocument:  "maison could not read this app's description at the address it gives as its name: the address did not answer in time, or its answer is not one maison accepts. Nothing was granted. Try again in a minute; if it lasts, whoever runs maison will find the reason in its log.",
		badRedirect:     "This app asks to be sent back to an address maison does not allow. Nothing was granted. The operator can add a safe address in MAISON_REDIRECT_URIS.",
		accessRefused:   "Cloudflare Access does not vouch for you on this page, or your address is not on maison's list. Nothing was granted.",
		staleForm:       "This page has expired or was opened in another browser. Nothing was granted. Connect the app again from its settings.",
		wrongPassword:   "Wrong password. Nothing was granted.",
		noScope:         "Tick at least one kind of access, or choose Deny.",
		lockedOut: func(d time.Duration, paused bool) string {
			if paused {
				return "Passwords are arriving in great numbers from many places (an attack), so for now this address waits. Try again in " + minutes(d, "en") + ", with care, or from another connection (mobile data, say). Nothing was granted, and your password has not changed."
			}
			return "Too many passwords tried from this address. Try again in " + minutes(d, "en") + ". Nothing was granted; your password has not changed, and other addresses can still sign in."
		},
		registrationFlood: func(d time.Duration) string {
			return "maison is flooded with registrations from many networks, far beyond any real use; this app and its network did nothing wrong. Nothing was registered. Try again in " + minutes(d, "en") + "."
		},
	}
}

func minutes(d time.Duration, lang string) string {
	m := int((d + time.Minute - 1) / time.Minute)
	if lang == "fr" {
		if m <= 1 {
			return "une minute"
		}
		return itoa(m) + " minutes"
	}
	if m <= 1 {
		return "a minute"
	}
	return itoa(m) + " minutes"
}

func (s *Server) scopeChoices(offered, checked []string) []scopeChoice {
	out := make([]scopeChoice, 0, len(offered))
	for _, sc := range offered {
		out = append(out, scopeChoice{Name: sc, Label: s.text.Scope[sc], Checked: slices.Contains(checked, sc)})
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
	if err := pageTemplate.Execute(&buf, map[string]any{"W": s.text, "D": d, "Nonce": nonce, "CSS": template.CSS(pageCSS)}); err != nil {
		http.Error(w, "maison could not draw its page", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

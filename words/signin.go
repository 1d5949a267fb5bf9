package words

import (
	"strconv"
	"time"

	"maison/voice"
)

// The sign-in page's words: what the person connecting an app reads on
// maison's one page, and why the page refused.

// SignInPage is the fixed text of the sign-in page in one language, a field
// for each place the page shows one.
type SignInPage struct {
	Lang, Title, Intro, Unverified, ByURL, Sends, Grant, PasswordLabel, EmailIs, Approve, Deny, Footer string
	Opened, HowConnect, ThenConnect                                                                    string
}

// SignIn is the sign-in page's text in l.
func SignIn(l voice.Lang) SignInPage {
	return SignInPage{
		Lang:          l.Pick("en", "fr"),
		Title:         l.Pick("Connect an app to the house", "Connecter une application à la maison"),
		Intro:         l.Pick("An app asks to reach your house through maison:", "Une application demande l'accès à votre maison par maison :"),
		Unverified:    l.Pick("(the name the app gives itself, not verified)", "(nom donné par l'application elle-même, non vérifié)"),
		ByURL:         l.Pick("identified by", "identifiée par"),
		Sends:         l.Pick("If you approve, maison sends you back to exactly this address:", "Si vous acceptez, maison vous renvoie exactement à cette adresse :"),
		Grant:         l.Pick("Access granted (untick what you refuse):", "Accès accordé (décochez ce que vous refusez) :"),
		PasswordLabel: l.Pick("The password of this maison", "Le mot de passe de cette maison"),
		EmailIs:       l.Pick("Signed in through Cloudflare Access as", "Connecté par Cloudflare Access en tant que"),
		Approve:       l.Pick("Approve", "Autoriser"),
		Deny:          l.Pick("Deny", "Refuser"),
		Footer: l.Pick("Approve only if you have just connected this app yourself. To disconnect it later, remove maison from the app's connectors; whoever runs maison can also disconnect every app at once.",
			"N'autorisez que si vous venez vous-même de connecter cette application. Pour la déconnecter plus tard, retirez maison des connecteurs de l'application; la personne qui gère maison peut aussi déconnecter toutes les applications d'un coup."),
		Opened: l.Pick("This address is opened by an app while it connects to the house through maison; opened on its own, it has nothing to approve. Nothing was granted.",
			"Cette adresse est ouverte par une application pendant qu'elle se connecte à la maison par maison; ouverte seule, elle n'a rien à autoriser. Rien n'a été accordé."),
		HowConnect: l.Pick("To connect an app, add maison's address as a custom connector in the app (in the Claude app: Settings › Connectors › Add custom connector):",
			"Pour connecter une application, ajoutez l'adresse de maison comme connecteur personnalisé dans l'application (dans l'application Claude : Paramètres › Connecteurs › Ajouter un connecteur personnalisé) :"),
		ThenConnect: l.Pick("Then choose Connect: the app brings you back to this page, where it names itself, for you to approve.",
			"Puis choisissez Connecter : l'application vous ramène à cette page, où elle se nomme, pour que vous autorisiez."),
	}
}

// The kinds of access the page offers, each beside its box.
var (
	SignInSee = Pair{"See the house: cameras, states and descriptions",
		"Voir la maison : caméras, états et descriptions"}
	SignInAct = Pair{"Act in the house: turn on and off, set lights; unlocking and opening still ask first",
		"Agir dans la maison : allumer, éteindre, régler; déverrouiller et ouvrir demandent toujours d'abord"}
)

// Why the page refused, shown above it.
var (
	SignInTooManyRequests = Pair{"Too many requests from this address. Wait a minute, then connect the app again.",
		"Trop de demandes depuis cette adresse. Attendez une minute, puis reconnectez l'application."}
	SignInBadRequest = Pair{"This connection request is incomplete or malformed. Connect the app again from its settings.",
		"Cette demande de connexion est incomplète ou mal formée. Reconnectez l'application depuis ses réglages."}
	SignInUnknownClient = Pair{"maison does not recognise this app. Connect it again from its settings: it will register anew.",
		"maison ne reconnaît pas cette application. Reconnectez-la depuis ses réglages : elle s'enregistrera de nouveau."}
	SignInUnreadDocument = Pair{"maison could not read this app's description at the address it gives as its name: the address did not answer in time, or its answer is not one maison accepts. Nothing was granted. Try again in a minute; if it lasts, whoever runs maison will find the reason in its log.",
		"maison n'a pas pu lire la description de cette application à l'adresse qu'elle donne pour se présenter : l'adresse n'a pas répondu à temps, ou sa réponse n'est pas de celles que maison accepte. Rien n'a été accordé. Réessayez dans une minute ; si ça dure, la personne qui gère maison trouvera la raison dans son journal."}
	SignInBadRedirect = Pair{"This app asks to be sent back to an address maison does not allow. Nothing was granted. If you trust the app, whoever runs maison can allow its address; then connect it again.",
		"Cette application demande à être renvoyée vers une adresse que maison n'autorise pas. Rien n'a été accordé. Si vous faites confiance à l'application, la personne qui gère maison peut autoriser son adresse; reconnectez-la ensuite."}
	SignInAccessRefused = Pair{"Cloudflare Access does not vouch for you on this page, or your address is not on maison's list. Nothing was granted.",
		"Cloudflare Access ne se porte pas garant de vous pour cette page, ou votre adresse n'est pas dans la liste de maison. Rien n'a été accordé."}
	SignInStaleForm = Pair{"This page has expired or was opened in another browser. Nothing was granted. Connect the app again from its settings.",
		"Cette page a expiré ou a été ouverte dans un autre navigateur. Rien n'a été accordé. Reconnectez l'application depuis ses réglages."}
	SignInWrongPassword = Pair{"Wrong password. Nothing was granted.",
		"Mot de passe incorrect. Rien n'a été accordé."}
	SignInNoScope = Pair{"Tick at least one kind of access, or choose Deny.",
		"Cochez au moins un accès, ou choisissez Refuser."}
)

// WrongPasswordLast says the password was wrong, before the sentence
// saying how long the address now waits.
var WrongPasswordLast = Pair{"Wrong password.", "Mot de passe incorrect."}

// SignInLockedOut refuses a password from an address that must wait, wait
// long; paused says passwords flood in from many places (an attack) rather
// than from this address alone.
func SignInLockedOut(l voice.Lang, wait time.Duration, paused bool) string {
	if paused {
		return l.Pick(
			"Passwords are arriving in great numbers from many places (an attack), so for now this address waits. Try again in "+minutesUp(l, wait)+", with care, or from another connection (mobile data, say). Nothing was granted, and your password has not changed.",
			"Des mots de passe arrivent en très grand nombre de plusieurs endroits (une attaque) : pour l'instant, cette adresse attend. Réessayez dans "+minutesUp(l, wait)+", avec soin, ou depuis une autre connexion (le réseau cellulaire, par exemple). Rien n'a été accordé, et votre mot de passe n'a pas changé.")
	}
	return l.Pick(
		"Too many passwords tried from this address. Try again in "+minutesUp(l, wait)+". Nothing was granted; your password has not changed, and other addresses can still sign in.",
		"Trop de mots de passe essayés depuis cette adresse. Réessayez dans "+minutesUp(l, wait)+". Rien n'a été accordé; votre mot de passe n'a pas changé, et les autres adresses peuvent toujours se connecter.")
}

// SignInRegistrationFlood refuses a registration while registrations flood
// in from many networks, for wait.
func SignInRegistrationFlood(l voice.Lang, wait time.Duration) string {
	return l.Pick(
		"maison is flooded with registrations from many networks, far beyond any real use; this app and its network did nothing wrong. Nothing was registered. Try again in "+minutesUp(l, wait)+".",
		"maison est inondée d'enregistrements venus de nombreux réseaux, bien au-delà de tout usage réel; cette application et son réseau n'y sont pour rien. Rien n'a été enregistré. Réessayez dans "+minutesUp(l, wait)+".")
}

// minutesUp says d in whole minutes, rounded up, at least one: a person
// told to wait is never told a wait shorter than it is.
func minutesUp(l voice.Lang, d time.Duration) string {
	m := max(1, (d+time.Minute-1)/time.Minute)
	return l.DurationDigits(m * time.Minute)
}

// AttemptsLeft says how many more passwords this address may try before it
// must wait, said before it happens.
func AttemptsLeft(l voice.Lang, n int) string {
	switch n {
	case 0:
		return l.Pick("This address must now wait before trying again.", "Cette adresse doit maintenant attendre avant de réessayer.")
	case 1:
		return l.Pick("One more wrong password and this address waits 15 to 30 minutes.", "Encore un mauvais mot de passe et cette adresse attendra de 15 à 30 minutes.")
	}
	return l.Pick(strconv.Itoa(n)+" tries left before this address must wait 15 to 30 minutes.",
		"Il reste "+strconv.Itoa(n)+" essais avant que cette adresse doive attendre de 15 à 30 minutes.")
}

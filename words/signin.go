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
		Lang:          say(l, "signin.page.lang"),
		Title:         say(l, "signin.page.title"),
		Intro:         say(l, "signin.page.intro"),
		Unverified:    say(l, "signin.page.unverified"),
		ByURL:         say(l, "signin.page.by_url"),
		Sends:         say(l, "signin.page.sends"),
		Grant:         say(l, "signin.page.grant"),
		PasswordLabel: say(l, "signin.page.password_label"),
		EmailIs:       say(l, "signin.page.email_is"),
		Approve:       say(l, "signin.page.approve"),
		Deny:          say(l, "signin.page.deny"),
		Footer:        say(l, "signin.page.footer"),
		Opened:        say(l, "signin.page.opened"),
		HowConnect:    say(l, "signin.page.how_connect"),
		ThenConnect:   say(l, "signin.page.then_connect"),
	}
}

// The kinds of access the page offers, each beside its box.
const (
	SignInSee Key = "signin.see"
	SignInAct Key = "signin.act"
)

// Why the page refused, shown above it.
const (
	SignInTooManyRequests Key = "signin.too_many_requests"
	SignInBadRequest      Key = "signin.bad_request"
	SignInUnknownClient   Key = "signin.unknown_client"
	SignInUnreadDocument  Key = "signin.unread_document"
	SignInBadRedirect     Key = "signin.bad_redirect"
	SignInAccessRefused   Key = "signin.access_refused"
	SignInStaleForm       Key = "signin.stale_form"
	SignInWrongPassword   Key = "signin.wrong_password"
	SignInNoScope         Key = "signin.no_scope"
)

// WrongPasswordLast says the password was wrong, before the sentence
// saying how long the address now waits.
const WrongPasswordLast Key = "signin.wrong_password_last"

// SignInLockedOut refuses a password from an address that must wait, wait
// long; paused says passwords flood in from many places (an attack) rather
// than from this address alone.
func SignInLockedOut(l voice.Lang, wait time.Duration, paused bool) string {
	if paused {
		return say(l, "signin.locked_out.attack", "wait", minutesUp(l, wait))
	}
	return say(l, "signin.locked_out.address", "wait", minutesUp(l, wait))
}

// SignInRegistrationFlood refuses a registration while registrations flood
// in from many networks, for wait.
func SignInRegistrationFlood(l voice.Lang, wait time.Duration) string {
	return say(l, "signin.registration_flood", "wait", minutesUp(l, wait))
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
		return say(l, "signin.attempts_left.none")
	case 1:
		return say(l, "signin.attempts_left.one")
	}
	return say(l, "signin.attempts_left.many", "n", strconv.Itoa(n))
}

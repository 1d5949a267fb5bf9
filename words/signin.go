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
		Lang:          say(l, "signin.sign_in.lang"),
		Title:         say(l, "signin.sign_in.title"),
		Intro:         say(l, "signin.sign_in.intro"),
		Unverified:    say(l, "signin.sign_in.unverified"),
		ByURL:         say(l, "signin.sign_in.by_url"),
		Sends:         say(l, "signin.sign_in.sends"),
		Grant:         say(l, "signin.sign_in.grant"),
		PasswordLabel: say(l, "signin.sign_in.password_label"),
		EmailIs:       say(l, "signin.sign_in.email_is"),
		Approve:       say(l, "signin.sign_in.approve"),
		Deny:          say(l, "signin.sign_in.deny"),
		Footer:        say(l, "signin.sign_in.footer"),
		Opened:        say(l, "signin.sign_in.opened"),
		HowConnect:    say(l, "signin.sign_in.how_connect"),
		ThenConnect:   say(l, "signin.sign_in.then_connect"),
	}
}

// The kinds of access the page offers, each beside its box.
const (
	SignInSee Key = "signin.sign_in_see"
	SignInAct Key = "signin.sign_in_act"
)

// Why the page refused, shown above it.
const (
	SignInTooManyRequests Key = "signin.sign_in_too_many_requests"
	SignInBadRequest      Key = "signin.sign_in_bad_request"
	SignInUnknownClient   Key = "signin.sign_in_unknown_client"
	SignInUnreadDocument  Key = "signin.sign_in_unread_document"
	SignInBadRedirect     Key = "signin.sign_in_bad_redirect"
	SignInAccessRefused   Key = "signin.sign_in_access_refused"
	SignInStaleForm       Key = "signin.sign_in_stale_form"
	SignInWrongPassword   Key = "signin.sign_in_wrong_password"
	SignInNoScope         Key = "signin.sign_in_no_scope"
)

// WrongPasswordLast says the password was wrong, before the sentence
// saying how long the address now waits.
const WrongPasswordLast Key = "signin.wrong_password_last"

// SignInLockedOut refuses a password from an address that must wait, wait
// long; paused says passwords flood in from many places (an attack) rather
// than from this address alone.
func SignInLockedOut(l voice.Lang, wait time.Duration, paused bool) string {
	if paused {
		return say(l, "signin.sign_in_locked_out.passwords_are_arriving", "minutes_up_l_wait", minutesUp(l, wait))
	}
	return say(l, "signin.sign_in_locked_out.too_many_passwords", "minutes_up_l_wait", minutesUp(l, wait))
}

// SignInRegistrationFlood refuses a registration while registrations flood
// in from many networks, for wait.
func SignInRegistrationFlood(l voice.Lang, wait time.Duration) string {
	return say(l, "signin.sign_in_registration_flood", "minutes_up_l_wait", minutesUp(l, wait))
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
		return say(l, "signin.attempts_left.this_address_must")
	case 1:
		return say(l, "signin.attempts_left.one_more_wrong")
	}
	return say(l, "signin.attempts_left.n_tries_left", "n", strconv.Itoa(n))
}

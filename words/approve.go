package words

import (
	"strings"
	"time"

	"maison/homeassistant"
	"maison/voice"
)

// The approval page's words: what the person reads on maison's page before
// a sensitive action (unlocking, opening, disarming) is carried out, and
// what the model hears about it.

// ApprovePage is the fixed text of the approval page in one language.
type ApprovePage struct {
	Lang, Title, Intro, App, Where, Unverified, Unnamed, Asked, Expires, PasswordLabel, EmailIs, Approve, Decline, Footer string
	DoneTitle, DeclinedTitle, ProblemTitle, NotConfirmedTitle, ExpiredTitle, Declined, NothingElse                        string
}

// Approve is the approval page's text in l.
func Approve(l voice.Lang) ApprovePage {
	return ApprovePage{
		Lang:          say(l, "approve.page.lang"),
		Title:         say(l, "approve.page.title"),
		Intro:         say(l, "approve.page.intro"),
		App:           say(l, "approve.page.app"),
		Where:         say(l, "approve.page.where"),
		Unverified:    say(l, "approve.page.unverified"),
		Unnamed:       say(l, "approve.page.unnamed"),
		Asked:         say(l, "approve.page.asked"),
		Expires:       say(l, "approve.page.expires"),
		PasswordLabel: say(l, "approve.page.password_label"),
		EmailIs:       say(l, "approve.page.email_is"),
		Approve:       say(l, "approve.page.approve"),
		Decline:       say(l, "approve.page.decline"),
		Footer:        say(l, "approve.page.footer"),
		DoneTitle:     say(l, "approve.page.done_title"),
		DeclinedTitle: say(l, "approve.page.declined_title"),
		ExpiredTitle:  say(l, "approve.page.expired_title"),
		ProblemTitle:  say(l, "approve.page.problem_title"),
		// An approved action Home Assistant did not confirm may still have
		// happened: its title claims neither way.
		NotConfirmedTitle: say(l, "approve.page.not_confirmed_title"),
		Declined:          say(l, "approve.page.declined"),
		NothingElse:       say(l, "approve.page.nothing_else"),
	}
}

// Why the approval page refused, shown above it.
const (
	ApproveBadLink       Key = "approve.bad_link"
	ApproveExpired       Key = "approve.expired"
	ApproveUsed          Key = "approve.used"
	ApproveStaleForm     Key = "approve.stale_form"
	ApproveWrongPassword Key = "approve.wrong_password"
	ApproveAccessRefused Key = "approve.access_refused"
	ApproveBadRequest    Key = "approve.bad_request"
	ApproveNoProof       Key = "approve.no_proof"
)

// ApproveDone is the page's word after the action was carried out: what
// Home Assistant did, in the answer's words, which say what worked and
// what did not; nothing before them claims it all worked.
func ApproveDone(l voice.Lang, said string) string {
	return say(l, "approve.page.done", "said", said)
}

// ApproveFailed is the page's word when Home Assistant did not confirm the
// approved action, why in said (which says whether it may still have
// happened).
func ApproveFailed(l voice.Lang, said string) string {
	return say(l, "approve.page.failed", "said", said)
}

// What the page says when its link is opened again: the first answer,
// with its time (a clock time with its zone, as the page shows it).

// ApprovedBefore is a request approved at at, which maison carried out:
// said is what Home Assistant said then.
func ApprovedBefore(l voice.Lang, at, said string) string {
	return say(l, "approve.before.approved", "at", at, "said", said)
}

// ApprovedNotConfirmedBefore is a request approved at at that Home
// Assistant did not confirm, why in said.
func ApprovedNotConfirmedBefore(l voice.Lang, at, said string) string {
	return say(l, "approve.before.not_confirmed", "at", at, "said", said)
}

// ApprovedRunning is a request approved at at that maison is carrying out
// as the page is shown.
func ApprovedRunning(l voice.Lang, at string) string {
	return say(l, "approve.before.running", "at", at)
}

// DeclinedBefore is a request declined at at.
func DeclinedBefore(l voice.Lang, at string) string {
	return say(l, "approve.before.declined", "at", at)
}

// ExpiredBefore is a request nobody answered before it expired at at.
func ExpiredBefore(l voice.Lang, at string) string {
	return say(l, "approve.before.expired", "at", at)
}

// ExpiredUnrecorded is a request that expired at at with no answer this
// maison remembers: it keeps answers for keep, and since it last started.
func ExpiredUnrecorded(l voice.Lang, at string, keep time.Duration) string {
	k := l.Duration(keep)
	return say(l, "approve.before.unrecorded", "at", at, "keep", k)
}

// ApproveLockedOut refuses a password from an address that must wait.
func ApproveLockedOut(l voice.Lang, d time.Duration, paused bool) string {
	wait := minutesUp(l, d)
	if paused {
		return say(l, "approve.locked_out.attack", "wait", wait)
	}
	return say(l, "approve.locked_out.address", "wait", wait)
}

// What the model hears about an approval on maison's page.

// ApprovalAsked is the answer to a sensitive call that a person must
// approve on maison's page, until expires (a time as said); ref is what
// the model passes back to hear the outcome. The first sentence is short,
// for voice, and true of where the link went (sent); the link itself
// follows apart (ApprovalLink), since a link is not said aloud.
func ApprovalAsked(l voice.Lang, sent Sent, action, expires, ref string) string {
	return sentLead(l, sent) + " " + say(l, "approve.asked", "action", action, "expires", expires, "ref", ref)
}

// Sent is where an approval link was sent through Home Assistant
// (MAISON_APPROVAL_NOTIFY), for the words that say so.
type Sent struct {
	To     []Recipient // where it was sent
	Failed []Recipient // where sending it failed
}

// Recipient is one place an approval link is sent to.
type Recipient struct {
	// Phone is a phone (the companion app's notify action); false with a
	// Name is another notify action or entity, said by its name; false
	// without is Home Assistant's own notifications.
	Phone bool
	Name  string             // the phone's name, as Home Assistant has it
	Why   homeassistant.Kind // for a failure: what Home Assistant answered
}

// sentLead is the first sentence of an approval request: where the link
// went, said only when it went there, else where it is.
func sentLead(l voice.Lang, sent Sent) string {
	var out []string
	if len(sent.To) > 0 {
		out = append(out, say(l, "approve.sent.to", "places", places(l, sent.To)))
	}
	for i, r := range sent.Failed {
		to, why := places(l, []Recipient{r}), notSentWhy(l, r.Why)
		if i == 0 && len(sent.To) == 0 { // the first word of the link: named
			out = append(out, say(l, "approve.sent.failed_first", "to", to, "why", why))
			continue
		}
		out = append(out, say(l, "approve.sent.failed_more", "to", to, "why", why))
	}
	switch {
	case len(sent.To) > 0:
	case len(sent.Failed) > 0:
		out = append(out, say(l, "approve.sent.in_answer_failed"))
	default:
		out = append(out, say(l, "approve.sent.in_answer"))
	}
	return strings.Join(out, " ")
}

// places names where links go, after "to" (English) or as « à … » (French):
// your phone (“Pixel”), your phones (“A” and “B”), Home Assistant's
// notifications.
func places(l voice.Lang, rs []Recipient) string {
	var phones, others []string
	bell := false
	for _, r := range rs {
		switch {
		case r.Phone:
			phones = append(phones, Quote(l, r.Name))
		case r.Name != "":
			others = append(others, Quote(l, r.Name))
		default:
			bell = true
		}
	}
	var out []string
	switch len(phones) {
	case 0:
	case 1:
		out = append(out, say(l, "approve.places.phone", "phone", phones[0]))
	default:
		out = append(out, say(l, "approve.places.phones", "phones", l.List(phones)))
	}
	if len(others) > 0 {
		out = append(out, say(l, "approve.places.other", "names", l.List(others)))
	}
	if bell {
		out = append(out, say(l, "approve.places.notifications"))
	}
	for len(out) > 1 { // "a and to b", then "(a and to b) and to c"
		out = append([]string{say(l, "approve.places.and", "phones", out[0], "bell", out[1])}, out[2:]...)
	}
	return strings.Join(out, "")
}

// notSentWhy says why a link was not sent, how long that lasts and what
// it does not mean, from what Home Assistant answered.
func notSentWhy(l voice.Lang, why homeassistant.Kind) string {
	switch why {
	case homeassistant.KindNotFound:
		return say(l, "approve.not_sent.not_found")
	case homeassistant.KindNotAllowed:
		return say(l, "approve.not_sent.not_allowed")
	case homeassistant.KindTimeout:
		return say(l, "approve.not_sent.timeout")
	}
	return say(l, "approve.not_sent.other")
}

// ApprovalNotice is the notification that carries an approval link to the
// person: what is asked and where, when it expires, and the link. Nothing
// else: never a password nor a code.
func ApprovalNotice(l voice.Lang, action, where, expires, link string) (title, message string) {
	room := ""
	if where != "" {
		room = say(l, "approve.notice.room", "where", where)
	}
	return say(l, "approve.notice.title"),
		say(l, "approve.notice.message", "action", action, "room", room, "expires", expires, "link", link)
}

// ApprovalOpen labels the button of a notification that opens the page.
const ApprovalOpen Key = "approve.open"

// ApprovalBusy refuses an approval request because too many are waiting:
// the app's own (mine: as many as limit), or maison's from many apps; the
// first of them expires in wait.
func ApprovalBusy(l voice.Lang, mine bool, limit int, wait time.Duration) string {
	in := minutesUp(l, wait)
	if mine {
		n := l.Number(limit)
		return say(l, "approve.busy.mine", "n", n, "in", in)
	}
	return say(l, "approve.busy.all", "in", in)
}

// ApprovalLink is the link to maison's approval page, in a block of its
// own after the sentences.
func ApprovalLink(l voice.Lang, link string) string {
	return say(l, "approve.link", "link", link)
}

// ApprovalURLMessage is the message of a URL-mode elicitation: the client
// opens maison's page for the person.
func ApprovalURLMessage(l voice.Lang, action string) string {
	return say(l, "approve.url_message", "action", action)
}

// ApprovalWaiting is the answer while the person has not answered yet;
// the link follows apart (ApprovalLink).
func ApprovalWaiting(l voice.Lang, expires, ref string) string {
	return say(l, "approve.waiting", "expires", expires, "ref", ref)
}

// ApprovalDone is the answer once the person approved and maison acted.
func ApprovalDone(l voice.Lang, said string) string {
	return say(l, "approve.approved", "said", said)
}

// ApprovalNotDone is the answer once the person approved but Home
// Assistant did not confirm the action, why in said.
func ApprovalNotDone(l voice.Lang, said string) string {
	return say(l, "approve.not_confirmed", "said", said)
}

// Answers about an approval that ended without action.
const (
	ApprovalDeclined    Key = "approve.declined"
	ApprovalUnusable    Key = "approve.unusable"
	ApprovalCodeRefused Key = "approve.code_refused"
	ApprovalChanged     Key = "approve.changed"
)

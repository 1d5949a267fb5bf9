package approve

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"maison/accesslog"
	"maison/homeassistant"
	"maison/words"
)

// Sending the link to the person (MAISON_APPROVAL_NOTIFY) lives here,
// beside the link: what is sent is the desk's (the link, the action and
// its room in the house's words, the expiry in the house's time), and a
// voice assistant's person, who never sees the link in the answer, gets it
// on a phone. Home Assistant carries it, through maison's own user.

// Notifier sends a notification through Home Assistant and names its
// notify entities (homeassistant.Client).
type Notifier interface {
	Notify(ctx context.Context, target string, n homeassistant.Notification) error
	State(entityID string) (homeassistant.State, bool)
}

// sendBudget bounds sending a link everywhere at once: the person is
// waiting for the answer that says where it went, and a voice assistant
// gives up on a tool after five seconds (Home Assistant's MCP client):
// well within that, the words still leave in time.
const sendBudget = 2500 * time.Millisecond

// noticeID is the one entry approval requests keep in Home Assistant's own
// notifications: a new request replaces the last.
const noticeID = "maison_approval"

// Send sends a's link to every target Config.Notify names, all at once
// within a few seconds, and returns where it went and where it did not,
// for the answer's words. Each failure is logged, without the link.
func (d *Desk) Send(ctx context.Context, a Action, link string) words.Sent {
	if len(d.cfg.Notify) == 0 {
		return words.Sent{}
	}
	ctx, cancel := context.WithTimeout(ctx, sendBudget)
	defer cancel()
	l := d.cfg.Lang
	title, message := words.ApprovalNotice(l, a.What, a.Where, l.Clock(time.Unix(a.Exp, 0).In(zone(a))), link)
	n := homeassistant.Notification{Title: title, Message: message, URL: link, Open: words.ApprovalOpen.In(l), ID: noticeID}
	errs := make([]error, len(d.cfg.Notify))
	var wg sync.WaitGroup
	for i, target := range d.cfg.Notify {
		wg.Go(func() { errs[i] = d.cfg.Notifier.Notify(ctx, target, n) })
	}
	wg.Wait()
	var sent words.Sent
	for i, target := range d.cfg.Notify {
		r := words.Recipient{}
		switch {
		case target == homeassistant.PersistentNotification || target == "notify.persistent_notification":
		case strings.HasPrefix(target, "notify.mobile_app_"):
			r = words.Recipient{Phone: true, Name: d.phoneName(target)}
		default:
			r = words.Recipient{Name: d.phoneName(target)}
		}
		if errs[i] == nil {
			sent.To = append(sent.To, r)
			continue
		}
		r.Why = homeassistant.KindServerError
		var he *homeassistant.Error
		switch {
		case errors.As(errs[i], &he):
			r.Why = he.Kind
		case errors.Is(errs[i], context.DeadlineExceeded):
			r.Why = homeassistant.KindTimeout
		}
		sent.Failed = append(sent.Failed, r)
		if errors.Is(errs[i], context.DeadlineExceeded) || errors.Is(errs[i], homeassistant.KindTimeout) {
			d.log.Warn("approval link not confirmed in time: Home Assistant had not said it was delivered when the answer left (it may still arrive); the link is in the answer too",
				"client", a.Client, "tool", a.Tool, "action", accesslog.Text(a.What), "target", target, "err", errs[i])
			continue
		}
		d.log.Warn("approval link not sent: Home Assistant did not deliver the notification; the link is in the answer alone",
			"client", a.Client, "tool", a.Tool, "action", accesslog.Text(a.What), "target", target, "err", errs[i])
	}
	return sent
}

// phoneName is how a phone target is named aloud: a notify entity's name,
// else the action's name without "mobile_app_" and its underscores
// (notify.mobile_app_pixel_7 is "pixel 7").
func (d *Desk) phoneName(target string) string {
	if st, ok := d.cfg.Notifier.State(target); ok {
		if name := st.Name(); name != "" {
			return name
		}
	}
	name := strings.TrimPrefix(strings.TrimPrefix(target, "notify."), "mobile_app_")
	return strings.ReplaceAll(name, "_", " ")
}

// zone is the house's time zone an action was asked in, for the times a
// person reads.
func zone(a Action) *time.Location {
	if z, err := time.LoadLocation(a.Zone); err == nil && a.Zone != "" {
		return z
	}
	return time.Local
}

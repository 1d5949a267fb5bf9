package approve

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"maison/confirm"
	"maison/homeassistant"
	"maison/internal/testkit"
	"maison/voice"
	"maison/words"
)

// phones is Home Assistant as Send sees it: what each target answers, the
// notify entities it has, and what it was asked to send.
type phones struct {
	mu       sync.Mutex
	fail     map[string]error
	entities map[string]string // entity id → name
	sent     map[string]homeassistant.Notification
}

func (p *phones) Notify(_ context.Context, target string, n homeassistant.Notification) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.fail[target]; err != nil {
		return err
	}
	if p.sent == nil {
		p.sent = map[string]homeassistant.Notification{}
	}
	p.sent[target] = n
	return nil
}

func (p *phones) State(id string) (homeassistant.State, bool) {
	name, ok := p.entities[id]
	return homeassistant.State{EntityID: id, State: "unknown", Attributes: map[string]any{"friendly_name": name}}, ok
}

// sendRig is a desk that sends links to targets through p, in lang.
func sendRig(t *testing.T, lang voice.Lang, p *phones, logs *testkit.Buffer, targets ...string) (*Desk, Action, string) {
	t.Helper()
	now := time.Date(2026, 12, 6, 17, 35, 0, 0, time.UTC)
	d, err := New(Config{Signer: confirm.New([]byte("k")), Origin: "https://maison.example", Lang: lang,
		Now: func() time.Time { return now }, After: func(time.Duration, func()) {},
		Notify: targets, Notifier: p, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]string{"name": "Garage Door"})
	what := map[voice.Lang]string{voice.English: "open the “Garage Door”", voice.French: "ouvrir « Garage Door »"}[lang]
	a, link, err := d.Propose(Action{Caller: "alice", Client: "dcr-1", ClientName: "Home Assistant", Tool: "turn_on", Canonical: "HassTurnOn",
		Args: args, What: what, Where: "Garage", Zone: "America/Toronto", Code: "c-secretcode", Exp: now.Add(TTL).Unix()})
	if err != nil {
		t.Fatal(err)
	}
	return d, a, link
}

// The link goes to every target at once, with the action, its room and its
// expiry in the house's words and time, and nothing secret besides the
// link; the answer hears where it went and where it could not go, and the
// failure is logged without the link.
func TestSendReachesThePhonesAndSaysWhere(t *testing.T) {
	t.Parallel()
	p := &phones{
		entities: map[string]string{"notify.kitchen_tablet": "Kitchen Tablet"},
		fail: map[string]error{
			"notify.mobile_app_old_phone": &homeassistant.Error{Kind: homeassistant.KindNotFound, Err: errors.New("not_found: Service notify.mobile_app_old_phone not found.")},
			"notify.mobile_app_lost":      &homeassistant.Error{Kind: homeassistant.KindServerError, Err: errors.New("home_assistant_error: push failed")},
		},
	}
	logs := &testkit.Buffer{}
	d, a, link := sendRig(t, voice.English, p, logs,
		"notify.mobile_app_pixel_7", "notify.kitchen_tablet", "notify.mobile_app_old_phone", "notify.mobile_app_lost", homeassistant.PersistentNotification)
	sent := d.Send(t.Context(), a, link)

	want := words.Sent{
		To: []words.Recipient{{Phone: true, Name: "pixel 7"}, {Name: "Kitchen Tablet"}, {}},
		Failed: []words.Recipient{{Phone: true, Name: "old phone", Why: homeassistant.KindNotFound},
			{Phone: true, Name: "lost", Why: homeassistant.KindServerError}},
	}
	if got, _ := json.Marshal(sent); string(got) != mustJSON(want) {
		t.Errorf("sent %s, want %s", got, mustJSON(want))
	}
	for _, target := range []string{"notify.mobile_app_pixel_7", "notify.kitchen_tablet", homeassistant.PersistentNotification} {
		n, ok := p.sent[target]
		if !ok {
			t.Errorf("nothing was sent to %s", target)
			continue
		}
		if n.URL != link || n.Title != "maison asks for your approval" || n.Open != "Open maison's page" || n.ID != "maison_approval" {
			t.Errorf("%s: %+v", target, n)
		}
		if wantMsg := "An app asks maison to open the “Garage Door”. Room: Garage. Open this link to approve or decline, with the password of this maison; it works once, and expires at 12:40 PM: " + link; n.Message != wantMsg {
			t.Errorf("%s: the message is %q, want %q", target, n.Message, wantMsg)
		}
		if rest := strings.Replace(n.Message, link, "", 1); strings.Contains(rest, "c-secretcode") || strings.Contains(rest, a.ID) {
			t.Errorf("%s: the message holds a code or the reference: %q", target, rest)
		}
	}
	out := logs.String()
	for _, target := range []string{"notify.mobile_app_old_phone", "notify.mobile_app_lost"} {
		if !regexp.MustCompile(`level=WARN msg="approval link not sent[^"]*".*target=` + target).MatchString(out) {
			t.Errorf("no warning names %s:\n%s", target, out)
		}
	}
	if strings.Contains(out, link) || strings.Contains(out, "c-secretcode") {
		t.Errorf("the log holds the link or the code:\n%s", out)
	}
}

// In French, the notification is French; with no target, nothing is sent.
func TestSendInFrenchAndNowhere(t *testing.T) {
	t.Parallel()
	p := &phones{}
	d, a, link := sendRig(t, voice.French, p, &testkit.Buffer{}, "notify.mobile_app_pixel_7")
	if sent := d.Send(t.Context(), a, link); len(sent.To) != 1 || len(sent.Failed) != 0 {
		t.Fatalf("sent %+v", sent)
	}
	n := p.sent["notify.mobile_app_pixel_7"]
	if want := "Une application demande à maison d'ouvrir « Garage Door ». Pièce : Garage. Ouvrez ce lien pour approuver ou refuser, avec le mot de passe de cette maison; il ne sert qu'une fois, et expire à 12\u00a0h\u00a040 : " + link; n.Message != want || n.Title != "maison demande votre approbation" || n.Open != "Ouvrir la page de maison" {
		t.Errorf("the French notification: %+v", n)
	}

	none := &phones{}
	d, a, link = sendRig(t, voice.English, none, &testkit.Buffer{})
	if sent := d.Send(t.Context(), a, link); len(sent.To)+len(sent.Failed) != 0 || len(none.sent) != 0 {
		t.Errorf("with no target: sent %+v, asked %v", sent, none.sent)
	}
}

// A target that is neither notify.<name> nor persistent_notification, or
// targets with nothing to send them, are refused when the desk is made.
func TestSendTargetsAreChecked(t *testing.T) {
	t.Parallel()
	for _, cfg := range []Config{
		{Notify: []string{"mobile_app_phone"}, Notifier: &phones{}},
		{Notify: []string{"notify.Phone"}, Notifier: &phones{}},
		{Notify: []string{"notify.phone"}},
	} {
		cfg.Signer, cfg.Origin = confirm.New([]byte("k")), "https://maison.example"
		if _, err := New(cfg); err == nil {
			t.Errorf("%v with a notifier %v: accepted", cfg.Notify, cfg.Notifier != nil)
		}
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

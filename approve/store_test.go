package approve

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"maison/internal/testkit"
	"maison/state"
	"maison/voice"
)

// An approval answered before maison restarted on the same file stays
// answered: its page says so and approves nothing, and the client hears
// the outcome from the new process; one still waiting is approved once.
func TestAnswersOutliveARestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := testkit.NewClock(time.Now())
	f, err := state.OpenFile(dir, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	before := newRigOn(t, voice.English, f, c)
	answered, answeredLink := before.propose("alice")
	_, waitingLink := before.propose("alice")
	b := before.browser()
	_, _, form := b.open(answeredLink)
	if status, body := b.post(form, "approve", password, nil); status != 200 || before.carried.Load() != 1 {
		t.Fatalf("approval before the restart: %d, carried %d: %s", status, before.carried.Load(), body)
	}
	f.Close()

	f, err = state.OpenFile(dir, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	after := newRigOn(t, voice.English, f, c)
	// The same key, another origin: the links are read as the new process's.
	relink := func(link string) string { return after.srv.URL + link[len(before.srv.URL):] }
	b = after.browser()
	status, body, form := b.open(relink(answeredLink))
	if status != http.StatusOK || form.Get("b") != "" || !strings.Contains(body, "was approved at") {
		t.Errorf("the answered link after a restart does not tell its answer: %d, form %v: %s", status, form, body)
	}
	if o := after.desk.Outcome("alice", answered.ID); o.State != Done || !strings.Contains(o.Said, "unlocked") {
		t.Errorf("the outcome after a restart: %+v, want Done with what was said", o)
	}
	_, _, form = b.open(relink(waitingLink))
	if status, body := b.post(form, "approve", password, nil); status != 200 || after.carried.Load() != 1 {
		t.Errorf("the waiting link after a restart: %d, carried %d: %s", status, after.carried.Load(), body)
	}
	if status, _ := b.post(form, "approve", password, nil); status != http.StatusConflict || after.carried.Load() != 1 {
		t.Errorf("the waiting link approved twice: %d, carried %d", status, after.carried.Load())
	}
}

// Two desks sharing a store, as replicas do: a reference answered on one
// is answered on the other, and either tells the client the outcome.
func TestReplicasSharingAStoreAnswerOnce(t *testing.T) {
	t.Parallel()
	// A store that lasts, as Redis does: memory would end each desk's
	// links with its process (confirm.NewStored).
	shared, err := state.OpenFile(t.TempDir(), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer shared.Close()
	c := testkit.NewClock(time.Now())
	one, two := newRigOn(t, voice.English, shared, c), newRigOn(t, voice.English, shared, c)
	a, link := one.propose("alice")
	onTwo := two.srv.URL + link[len(one.srv.URL):]
	b1, b2 := one.browser(), two.browser()
	_, _, form1 := b1.open(link)
	_, _, form2 := b2.open(onTwo)
	if status, _ := b2.post(form2, "approve", password, nil); status != 200 {
		t.Fatalf("approval on the second replica: %d", status)
	}
	if status, _ := b1.post(form1, "approve", password, nil); status != http.StatusConflict {
		t.Errorf("the same reference approved on the first replica too: %d", status)
	}
	if n := one.carried.Load() + two.carried.Load(); n != 1 {
		t.Errorf("carried out %d times across two replicas", n)
	}
	if o := one.desk.Outcome("alice", a.ID); o.State != Done {
		t.Errorf("the replica that asked hears %v, want Done", o.State)
	}
}

// With the store out of reach, nothing is asked, approved or declined:
// the page and the client hear why in words, and nothing is carried out.
func TestAStoreOutOfReachApprovesNothing(t *testing.T) {
	t.Parallel()
	f, err := state.OpenFile(t.TempDir(), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := newRigOn(t, voice.English, f, nil)
	a, link := r.propose("alice")
	b := r.browser()
	_, _, form := b.open(link)
	f.Close()
	for _, action := range []string{"approve", "decline"} {
		status, body := b.post(form, action, password, nil)
		if status != http.StatusServiceUnavailable || !strings.Contains(body, "cannot reach its memory of answers") {
			t.Errorf("%s with the store out of reach: %d %s", action, status, body)
		}
	}
	if r.carried.Load() != 0 {
		t.Errorf("carried out %d times without the store", r.carried.Load())
	}
	if o := r.desk.Outcome("alice", a.ID); !errors.Is(o.Err, state.ErrUnavailable) {
		t.Errorf("the outcome without the store: %+v, want Err state.ErrUnavailable", o)
	}
	if _, _, err := r.desk.Propose(Action{Caller: "alice", Exp: r.clock.Now().Add(TTL).Unix()}); !errors.Is(err, state.ErrUnavailable) {
		t.Errorf("a request without the store: %v, want state.ErrUnavailable", err)
	}
}

package tools

import (
	"strings"
	"testing"
	"time"

	"maison/homeassistant"
	"maison/voice"
)

// outHA is a Home Assistant whose websocket has been out of reach since a
// given time; only its status is read.
type outHA struct {
	HomeAssistant
	since time.Time
}

func (h outHA) Status() homeassistant.Status {
	return homeassistant.Status{Since: h.since, Err: &homeassistant.Error{Kind: homeassistant.KindRestarting}}
}

// An outage that lasts longer than a restart takes stops promising that it
// passes soon, and says for how long, in both languages and for the ear;
// a short one keeps the usual words.
func TestLongOutageWords(t *testing.T) {
	t.Parallel()
	restarting := &homeassistant.Error{Kind: homeassistant.KindRestarting}
	for _, c := range []struct {
		ago  time.Duration
		lang voice.Lang
		want string
	}{
		{30 * time.Second, voice.English, "This usually takes under a minute"},
		{10 * time.Minute, voice.English, "Home Assistant has not answered me for ten minutes, longer than a restart takes"},
		{10 * time.Minute, voice.French, "Home Assistant ne me répond plus depuis dix minutes"},
		{5 * time.Hour, voice.English, "for five hours, far longer than a restart takes"},
	} {
		s := &server{deps: Deps{HA: outHA{since: time.Now().Add(-c.ago)}, Lang: c.lang}}
		said := s.haTrouble(restarting)
		if !strings.Contains(said, c.want) {
			t.Errorf("out for %v, in %s: %q, want %q", c.ago, c.lang, said, c.want)
		}
		if err := voice.Speakable(said); err != nil {
			t.Errorf("out for %v, in %s: %v", c.ago, c.lang, err)
		}
	}
}

package words

import (
	"strings"
	"testing"

	"maison/homeassistant"
	"maison/voice"
)

// The advice for whoever runs maison says, for every kind of Home
// Assistant's troubles and in every language, more than that something
// went wrong, and the settings and steps that fix it.
func TestAdviceNamesTheFix(t *testing.T) {
	t.Parallel()
	for _, l := range voice.Langs() {
		other := Advice(l, 0, homeassistant.CaseNone, false)
		for k := homeassistant.KindUnreachable; k <= homeassistant.KindNoHistory; k++ {
			if k == homeassistant.KindNoAITask || k == homeassistant.KindAITaskFailed {
				continue // their advice is the AI task's
			}
			if a := Advice(l, k, homeassistant.CaseNone, false); len(a) < 60 || a == other {
				t.Errorf("%s %v: thin advice %q", l, k, a)
			}
		}
	}
	for _, c := range []struct {
		kind homeassistant.Kind
		cas  homeassistant.Case
		want []string
	}{
		{homeassistant.KindAuth, homeassistant.CaseNone, []string{"revoked", "local network", "does not retry"}},
		{homeassistant.KindAdminToken, homeassistant.CaseNone, []string{"Settings › People", "Allow person to login", "Can only log in from the local network", "Administrator", "Security", "long-lived"}},
		{homeassistant.KindNoAssist, homeassistant.CaseNone, []string{"Settings › Devices & services › Add integration › Model Context Protocol Server"}},
		{homeassistant.KindLocalOnly, homeassistant.CaseNone, []string{"local network", "Tailscale", "trusted_proxies", "does not retry"}},
		{homeassistant.KindNotAllowed, homeassistant.CaseOldMCP, []string{"not an administrator"}},
		{homeassistant.KindNotFound, homeassistant.CaseNotHomeAssistant, []string{"MAISON_HA_URL", "address alone"}},
		{homeassistant.KindUnreachable, homeassistant.CaseCertificate, []string{"certificate", "does not change by waiting"}},
		{homeassistant.KindUnreachable, homeassistant.CaseSilent, []string{"accepted the connection but did not answer as Home Assistant does"}},
		{homeassistant.KindTimeout, homeassistant.CaseAITask, []string{"AI took too long"}},
		{homeassistant.KindNoAITask, homeassistant.CaseAITask, []string{"default"}},
		{homeassistant.KindNoAITask, homeassistant.CaseAITaskNoPictures, []string{"cannot look at pictures"}},
		{homeassistant.KindAITaskFailed, homeassistant.CaseAITaskInternal, []string{"unexpected error inside Home Assistant"}},
		{homeassistant.KindAssistLoading, homeassistant.CaseNone, []string{"after a restart"}},
	} {
		a := Advice(voice.English, c.kind, c.cas, false)
		for _, w := range c.want {
			if !strings.Contains(a, w) {
				t.Errorf("%v (case %v): advice lacks %q: %s", c.kind, c.cas, w, a)
			}
		}
	}
	if a := Advice(voice.English, homeassistant.KindUnreachable, homeassistant.CaseCertificate, false); strings.Contains(a, "minute or two") {
		t.Errorf("a certificate refused is said to pass: %q", a)
	}
	if a := Advice(voice.English, homeassistant.KindAssistLoading, homeassistant.CaseNone, false); strings.Contains(a, "Add integration") {
		t.Errorf("a loading integration is called missing: %q", a)
	}
	for _, k := range []homeassistant.Kind{homeassistant.KindNoAITask, homeassistant.KindAITaskFailed, homeassistant.KindTimeout, homeassistant.KindNotAllowed} {
		a, generic := Advice(voice.English, k, homeassistant.CaseAITask, false), Advice(voice.English, k, homeassistant.CaseNone, false)
		if !strings.Contains(a, "AI") || a == generic || strings.Count(a, ". ") < 2 {
			t.Errorf("%v of the AI task: advice %q", k, a)
		}
	}
}

// Advice speaks for a maison that keeps running and retries; for maison
// check, which runs once, it says to run the check again there, and is the
// same everywhere else.
func TestAdviceOnceSaysAgainWhereAdviceRetries(t *testing.T) {
	t.Parallel()
	for k, running := range map[homeassistant.Kind]string{
		homeassistant.KindUnreachable: "and that it is running; maison keeps retrying on its own.",
		homeassistant.KindRestarting:  "devices are offline. Wait a moment and ask again; maison reconnects by itself.",
	} {
		if a := Advice(voice.English, k, homeassistant.CaseNone, false); !strings.HasSuffix(a, running) {
			t.Errorf("%v: advice %q does not end %q", k, a, running)
		}
		once := Advice(voice.English, k, homeassistant.CaseNone, true)
		if !strings.HasSuffix(once, ". Run maison check again once it is up.") || strings.Contains(once, "maison keeps") || strings.Contains(once, "maison reconnects") {
			t.Errorf("%v: once %q", k, once)
		}
	}
	for k := homeassistant.KindAuth; k <= homeassistant.KindNoHistory; k++ {
		if Advice(voice.English, k, homeassistant.CaseNone, true) != Advice(voice.English, k, homeassistant.CaseNone, false) {
			t.Errorf("%v: once differs without a retry to replace", k)
		}
	}
}

package approve

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"maison/voice"
)

// The approval page speaks the browser's first language among maison's
// (Accept-Language), else the house's.
func TestThePageFollowsTheBrowsersLanguage(t *testing.T) {
	t.Parallel()
	r := newRig(t, voice.French)
	_, link := r.propose("caller-1")
	for accept, want := range map[string][]string{
		"de-AT, en;q=0.5": {`lang="de"`, "Genehmigen", "Ablehnen", "Läuft ab"},
		"en":              {`lang="en"`, "Approve", "Decline"},
		"es":              {`lang="fr"`, "Approuver", "Refuser"},
	} {
		req, _ := http.NewRequest("GET", link, nil)
		req.Header.Set("Accept-Language", accept)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, w := range want {
			if !strings.Contains(string(body), w) {
				t.Errorf("Accept-Language %q: the page lacks %q:\n%s", accept, w, body)
			}
		}
	}
}

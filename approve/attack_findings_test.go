package approve

// Attack 30, finding 3: the approval link is handed to the model (in the
// tool's answer, or as a URL-mode elicitation's url), and its reference is
// sealed, not encrypted: base64url JSON of the whole Action, "What"
// included, which names, with their rooms, every device a scene or a group
// sets "exposed or not". On the real house the model read “Trees Secret
// Wine Cellar Valve” in the “Vault”, a valve not exposed to Assist, out of
// the link to approve scene.movie_night. It also carries the caller's
// binding (a hash of the bearer header) and the approval's confirmation code.

import (
	"encoding/base64"
	"net/url"
	"strings"
	"testing"
	"time"

	"maison/confirm"
)

func TestTheLinkDoesNotCarryWhatThePageAloneMayShow(t *testing.T) {
	t.Parallel()
	d, err := New(Config{Signer: confirm.New(nil), Origin: "https://maison.example"})
	if err != nil {
		t.Fatal(err)
	}
	_, link, err := d.Propose(Action{Caller: "c", Client: "x", Tool: "turn_on", Canonical: "HassTurnOn",
		Args: []byte(`{"name":"Movie night"}`), What: "Run the scene “Movie night”. It sets “Secret Wine Cellar Valve” in the “Vault”.",
		Code: "c-x", Exp: time.Now().Add(time.Minute).Unix()})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(link)
	payload, _, _ := strings.Cut(u.Query().Get("r"), ".")
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "Secret Wine Cellar Valve") {
		t.Errorf("the link the model is given reads, decoded: %s", raw)
	}
}

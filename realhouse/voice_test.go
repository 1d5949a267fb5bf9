package realhouse_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"maison/internal/realha"
)

// Home Assistant's own voice assistant asks maison: a sentence goes into
// its Assist pipeline as text, through the conversation agent (the
// fixture's, standing in for an LLM: it calls maison's tools through the
// LLM API Home Assistant's MCP integration registers for maison, added over
// OAuth), and comes out as speech from the pipeline's voice. What is said
// must be maison's sentence, within Home Assistant's timeouts, for a
// camera, a camera turned off, a damaged frame, an AI that is too slow and
// the house; in English and, with MAISON_LANG=fr and a French pipeline, in
// French. "Unlock the front door" sends the approval link to the phones
// MAISON_APPROVAL_NOTIFY names, and says where it went and where it could
// not; the link opens maison's page, approving there unlocks the lock.
func TestVoiceAssistantAsksMaison(t *testing.T) {
	house := realha.Load(t)
	restoreAfter(t, house, "lock.front_door")
	expose(t, house, true, "lock.front_door")
	t.Cleanup(func() { expose(t, house, false, "lock.front_door") })
	t.Cleanup(func() { slowVision(t, house, 0) })

	t.Run("English", func(t *testing.T) {
		m, password, pipeline := voiceMaison(t, house, "maison voice",
			"MAISON_APPROVAL_NOTIFY=notify.mobile_app_fixture_phone,notify.mobile_app_lost_phone,persistent_notification")

		said := voiceSay(t, house, pipeline, "Is anyone on the patio?")
		wantSaid(t, said, "This is the “Patio Camera”", "Home Assistant's AI, asked what the picture shows, answered “")
		said = voiceSay(t, house, pipeline, "Is anyone at the porch?")
		wantSaid(t, said, "is turned off in Home Assistant")
		said = voiceSay(t, house, pipeline, "Is anyone at the driveway camera?")
		wantSaid(t, said, "This is the “Driveway Camera”", "Home Assistant's AI could not read this camera's picture")
		said = voiceSay(t, house, pipeline, "What's going on?")
		wantSaid(t, said, "“Garage Door” is")

		// An AI that would answer after Home Assistant's MCP client gave
		// up on the tool (30 seconds): maison says so well before.
		slowVision(t, house, 40)
		said = voiceSay(t, house, pipeline, "Is anyone on the patio?")
		slowVision(t, house, 0)
		wantSaid(t, said, "This is the “Patio Camera”", "Home Assistant's AI could not describe the picture this time, which is usually brief")

		service(t, house, "lock", "lock", map[string]any{"entity_id": "lock.front_door"})
		before := received(t, house)
		said = voiceSay(t, house, pipeline, "Unlock the front door.")
		wantSaid(t, said,
			"I've sent the approval link to your phone (“fixture phone”) and to Home Assistant's notifications: open it there, or say cancel.",
			"I could not send it to your phone (“lost phone”): Home Assistant could not deliver it",
			"Nothing was done yet: before I unlock the “Front Door”")
		if strings.Contains(said.Speech, "/approve?") {
			t.Errorf("the link is said aloud: %q", said.Speech)
		}
		got := received(t, house)[len(before):]
		if len(got) != 1 || got[0].Via != "notify.mobile_app_fixture_phone" {
			t.Fatalf("the fixture's phones received %+v, want one notification on notify.mobile_app_fixture_phone", got)
		}
		link := noticeLink(t, m, password, got[0].Title, got[0].Message, "unlock the “Front Door”")
		for k, v := range map[string]any{"url": got[0].Data["url"], "clickAction": got[0].Data["clickAction"]} {
			if v != link {
				t.Errorf("the notification's data %s is %v, not the link %s", k, v, link)
			}
		}
		if acts, _ := got[0].Data["actions"].([]any); len(acts) != 1 || fmt.Sprint(acts[0].(map[string]any)["uri"]) != link {
			t.Errorf("the notification's actions %v do not open the link", got[0].Data["actions"])
		}
		var bell []struct {
			ID      string `json:"notification_id"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(ownerWS(t, house, map[string]any{"type": "persistent_notification/get"}), &bell); err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(bell, func(n struct {
			ID      string `json:"notification_id"`
			Message string `json:"message"`
		}) bool {
			return n.ID == "maison_approval" && strings.Contains(n.Message, link)
		}) {
			t.Errorf("Home Assistant's notifications hold no maison_approval with the link: %+v", bell)
		}
		if st := readState(t, house, "lock.front_door"); st.State != "locked" {
			t.Fatalf("the Front Door is %q before anyone approved, want locked", st.State)
		}
		logs, err := os.ReadFile(m.log)
		if err != nil {
			t.Fatal(err)
		}
		if line := regexp.MustCompile(`.*approval link not sent.*`).Find(logs); !bytes.Contains(line, []byte("target=notify.mobile_app_lost_phone")) {
			t.Errorf("maison's log has no line for the phone it could not send the link to: %q", line)
		}
		if bytes.Contains(logs, []byte(link)) {
			t.Errorf("maison's log holds the approval link")
		}

		// The person opens the link from the phone and approves with the
		// password of this maison: maison unlocks, as the owner reads.
		approveAt(t, link, password)
		deadline := time.Now().Add(time.Minute)
		st := readState(t, house, "lock.front_door")
		for st.State != "unlocked" && time.Now().Before(deadline) { // the demo's lock is "unlocking" for two seconds
			time.Sleep(100 * time.Millisecond)
			st = readState(t, house, "lock.front_door")
		}
		if st.State != "unlocked" {
			t.Errorf("after the approval the Front Door is %q, want unlocked", st.State)
		}
	})

	t.Run("French", func(t *testing.T) {
		m, password, pipeline := voiceMaison(t, house, "maison voix", "MAISON_LANG=fr", "MAISON_APPROVAL_NOTIFY=notify.fixture_phone")

		said := voiceSay(t, house, pipeline, "Y a-t-il quelqu'un au patio ?")
		// The fixture's AI answers in English, and maison says so.
		wantSaid(t, said, "Voici la caméra « Patio Camera »", "L'IA de Home Assistant, à qui j'ai demandé ce que montre l'image, a répondu en anglais « ")
		said = voiceSay(t, house, pipeline, "Que se passe-t-il ?")
		wantSaid(t, said, "« Garage Door » est")

		service(t, house, "lock", "lock", map[string]any{"entity_id": "lock.front_door"})
		before := received(t, house)
		said = voiceSay(t, house, pipeline, "Déverrouille Front Door.")
		// A notify entity is said by its name: only a companion app's
		// notify action is surely a phone.
		wantSaid(t, said, "J'ai envoyé le lien d'approbation à « Fixture Phone » par Home Assistant : ouvrez-le là, ou dites annuler.",
			"Rien n'a encore été fait : avant de déverrouiller « Front Door »")
		got := received(t, house)[len(before):]
		if len(got) != 1 || got[0].Via != "notify.fixture_phone" {
			t.Fatalf("the fixture's phones received %+v, want one notification on notify.fixture_phone", got)
		}
		noticeLink(t, m, password, got[0].Title, got[0].Message, "Une application demande à maison de déverrouiller « Front Door »")
	})
}

// voiceMaison starts maison with settings, has Home Assistant add it over
// OAuth, allows the fixture's agent its tools, and returns it, its operator
// password and the id of the voice assistant named pipeline.
func voiceMaison(t *testing.T, house realha.House, pipeline string, settings ...string) (haclientMaison, string, string) {
	t.Helper()
	password := "a real house test " + haclientRandom(t, 12)
	m := haclientStartMaison(t, house, password, settings...)
	voiceAgentUses(t, house, "mcp-"+haclientAdd(t, house, m, password))
	return m, password, pipelineID(t, house, pipeline)
}

// voiceTurn is what a pipeline run from text said.
type voiceTurn struct {
	Speech   string        // the agent's answer (intent-end)
	TTSInput string        // what the voice was given to say (tts-start)
	Audio    []byte        // what it said, as Home Assistant serves it
	Took     time.Duration // from the sentence to the speech's URL
}

// voiceSay runs the Assist pipeline from text to speech over Home
// Assistant's websocket, as its frontend and satellites start it (as the
// owner), and fetches the speech. An error event fails the test.
func voiceSay(t *testing.T, h realha.House, pipeline, text string) voiceTurn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(t.Context()), 2*time.Minute)
	defer cancel()
	c := ownerSocket(ctx, t, h)
	defer c.CloseNow()
	start := time.Now()
	if err := wsjson.Write(ctx, c, map[string]any{"id": 1, "type": "assist_pipeline/run", "pipeline": pipeline,
		"start_stage": "intent", "end_stage": "tts", "input": map[string]any{"text": text}}); err != nil {
		t.Fatal(err)
	}
	var turn voiceTurn
	var audioURL string
	for {
		var msg struct {
			ID      int             `json:"id"`
			Type    string          `json:"type"`
			Success *bool           `json:"success"`
			Error   json.RawMessage `json:"error"`
			Event   struct {
				Type string          `json:"type"`
				Data json.RawMessage `json:"data"`
			} `json:"event"`
		}
		if err := wsjson.Read(ctx, c, &msg); err != nil {
			t.Fatalf("%q: reading the pipeline's events: %v", text, err)
		}
		if msg.Type == "result" && msg.Success != nil && !*msg.Success {
			t.Fatalf("%q: Home Assistant refused the run: %s", text, msg.Error)
		}
		if msg.Type != "event" {
			continue
		}
		var data struct {
			IntentOutput struct {
				Response struct {
					Speech struct {
						Plain struct {
							Speech string `json:"speech"`
						} `json:"plain"`
					} `json:"speech"`
				} `json:"response"`
			} `json:"intent_output"`
			TTSInput  string `json:"tts_input"`
			TTSOutput struct {
				URL string `json:"url"`
			} `json:"tts_output"`
			Code    string `json:"code"`
			Message string `json:"message"`
		}
		if len(msg.Event.Data) > 0 && string(msg.Event.Data) != "null" {
			if err := json.Unmarshal(msg.Event.Data, &data); err != nil {
				t.Fatalf("%q: %s event: %v", text, msg.Event.Type, err)
			}
		}
		switch msg.Event.Type {
		case "error":
			t.Fatalf("%q: the pipeline failed: %s: %s", text, data.Code, data.Message)
		case "intent-end":
			turn.Speech = data.IntentOutput.Response.Speech.Plain.Speech
		case "tts-start":
			turn.TTSInput = data.TTSInput
		case "tts-end":
			audioURL, turn.Took = data.TTSOutput.URL, time.Since(start)
		case "run-end":
			if audioURL == "" {
				t.Fatalf("%q: the run ended without speech", text)
			}
			status, body := haclientSend(t, http.DefaultClient, http.MethodGet, h.URL+audioURL, nil, nil)
			if status != http.StatusOK {
				t.Fatalf("%q: the speech at %s: %d %.200s", text, audioURL, status, body)
			}
			turn.Audio = []byte(body)
			t.Logf("%q → %q (%s)", text, turn.Speech, turn.Took.Round(time.Millisecond))
			return turn
		}
	}
}

// wantSaid checks that the voice said the agent's answer, that it holds
// each of want, and that the speech lasts as long as the words take.
func wantSaid(t *testing.T, turn voiceTurn, want ...string) {
	t.Helper()
	if turn.TTSInput != turn.Speech {
		t.Errorf("the voice was given %q, not the answer %q", turn.TTSInput, turn.Speech)
	}
	for _, w := range want {
		if !strings.Contains(turn.Speech, w) {
			t.Errorf("the answer lacks %q: %q", w, turn.Speech)
		}
	}
	for _, w := range []string{"failed", "Timeout", "Error", "only know a few sentences", "No tools"} {
		if strings.Contains(turn.Speech, w) {
			t.Errorf("the agent did not get maison's answer (%q): %q", w, turn.Speech)
		}
	}
	seconds, err := wavSeconds(turn.Audio)
	if err != nil {
		t.Fatalf("the speech of %q: %v", turn.Speech, err)
	}
	// pico2wave says about three words a second; a tenth of a second a
	// word is far below, and far above a voice that said something short.
	if words := len(strings.Fields(turn.Speech)); seconds < float64(words)/10 {
		t.Errorf("the speech lasts %.1f s for %d words: %q", seconds, words, turn.Speech)
	}
}

// wavSeconds is how long a WAV file of 16-bit PCM plays.
func wavSeconds(b []byte) (float64, error) {
	if len(b) < 44 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return 0, fmt.Errorf("not a WAV file: % x", b[:min(len(b), 16)])
	}
	var rate, bytesPerSecond uint32
	for pos := 12; pos+8 <= len(b); {
		id, size := string(b[pos:pos+4]), int(binary.LittleEndian.Uint32(b[pos+4:pos+8]))
		body := b[pos+8:]
		switch id {
		case "fmt ":
			if size < 16 || len(body) < 16 || binary.LittleEndian.Uint16(body[0:2]) != 1 {
				return 0, fmt.Errorf("not PCM audio")
			}
			rate, bytesPerSecond = binary.LittleEndian.Uint32(body[4:8]), binary.LittleEndian.Uint32(body[8:12])
		case "data":
			if bytesPerSecond == 0 || rate == 0 {
				return 0, fmt.Errorf("no format before the audio")
			}
			return float64(min(size, len(body))) / float64(bytesPerSecond), nil
		}
		pos += 8 + size + size%2
	}
	return 0, fmt.Errorf("no audio in the WAV file")
}

// ownerSocket is Home Assistant's websocket, authenticated as the owner.
func ownerSocket(ctx context.Context, t *testing.T, h realha.House) *websocket.Conn {
	t.Helper()
	c, _, err := websocket.Dial(ctx, strings.Replace(h.URL, "http", "ws", 1)+"/api/websocket", nil)
	if err != nil {
		t.Fatalf("owner websocket: %v", err)
	}
	c.SetReadLimit(16 << 20)
	var msg struct{ Type string }
	if err := wsjson.Read(ctx, c, &msg); err != nil {
		t.Fatal(err)
	}
	if err := wsjson.Write(ctx, c, map[string]any{"type": "auth", "access_token": h.OwnerToken}); err != nil {
		t.Fatal(err)
	}
	if err := wsjson.Read(ctx, c, &msg); err != nil || msg.Type != "auth_ok" {
		t.Fatalf("owner websocket auth: %v %s", err, msg.Type)
	}
	return c
}

// pipelineID is the id of the voice assistant scripts/realha named name.
func pipelineID(t *testing.T, h realha.House, name string) string {
	t.Helper()
	var list struct {
		Pipelines []struct{ ID, Name string } `json:"pipelines"`
	}
	if err := json.Unmarshal(ownerWS(t, h, map[string]any{"type": "assist_pipeline/pipeline/list"}), &list); err != nil {
		t.Fatal(err)
	}
	for _, p := range list.Pipelines {
		if p.Name == name {
			return p.ID
		}
	}
	t.Fatalf("no voice assistant %q among %+v: run scripts/realha up again", name, list.Pipelines)
	return ""
}

// voiceAgentUses allows the fixture's agent the tools of LLM API api, in
// its options, as a person does for an agent (Settings, Voice
// assistants); none again when the test ends.
func voiceAgentUses(t *testing.T, h realha.House, api string) {
	t.Helper()
	ha := haclientHA{base: h.URL, token: h.OwnerToken}
	var entries []haclientEntry
	ha.do(t, http.MethodGet, "/api/config/config_entries/entry?domain=maison_fixture", nil, &entries)
	if len(entries) != 1 {
		t.Fatalf("the fixture's entries: %+v", entries)
	}
	set := func(t *testing.T, options map[string]any) {
		var step haclientStep
		ha.do(t, http.MethodPost, "/api/config/config_entries/options/flow", map[string]any{"handler": entries[0].EntryID}, &step)
		step.want(t, "form", "init")
		ha.do(t, http.MethodPost, "/api/config/config_entries/options/flow/"+step.FlowID, options, &step)
		if step.Type != "create_entry" {
			t.Fatalf("the agent's options ended as %q (errors %v)", step.Type, step.Errors)
		}
	}
	set(t, map[string]any{"llm_hass_api": api})
	t.Cleanup(func() { set(t, map[string]any{}) })
}

// slowVision makes the fixture's AI task answer after seconds.
func slowVision(t *testing.T, h realha.House, seconds float64) {
	t.Helper()
	service(t, h, "maison_fixture", "set_vision", map[string]any{"delay": seconds})
}

// notice is one notification the fixture's phones received.
type notice struct {
	Via     string         `json:"via"`
	Title   string         `json:"title"`
	Message string         `json:"message"`
	Data    map[string]any `json:"data"`
}

// received is every notification the fixture's phones received.
func received(t *testing.T, h realha.House) []notice {
	t.Helper()
	var out []notice
	if err := json.Unmarshal(ownerWS(t, h, map[string]any{"type": "maison_fixture/received"}), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// noticeLink checks a notification of an approval request: it says what
// is asked, holds maison's approval link and nothing secret besides (not
// the password, no confirmation code); it returns the link.
func noticeLink(t *testing.T, m haclientMaison, password, title, message, what string) string {
	t.Helper()
	link := regexp.MustCompile(regexp.QuoteMeta(m.url) + `/approve\?r=\S+`).FindString(message)
	if link == "" || title == "" || !strings.Contains(message, what) {
		t.Fatalf("the notification (%q) does not say %q with maison's link: %q", title, what, message)
	}
	rest := strings.Replace(message, link, "", 1)
	if strings.Contains(title+message, password) || regexp.MustCompile(`\b[ca]-[a-z0-9]{6,}`).MatchString(title+rest) {
		t.Errorf("the notification holds a secret besides the link: %q %q", title, rest)
	}
	t.Logf("the notification: %q: %q", title, rest)
	return link
}

// approveAt is the person at a phone's browser: opens the link, types the
// password of this maison and approves.
func approveAt(t *testing.T, link, password string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, Timeout: 60 * time.Second}
	resp, err := browser.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	page := haclientRead(t, resp)
	u, _ := url.Parse(link)
	form := url.Values{"password": {password}, "action": {"approve"}}
	for _, m := range haclientHidden.FindAllStringSubmatch(page, -1) {
		form.Set(m[1], htmlUnescape(m[2]))
	}
	if resp.StatusCode != http.StatusOK || form.Get("r") == "" {
		t.Fatalf("the link did not open maison's approval page (%d): %.500s", resp.StatusCode, page)
	}
	if done := haclientPost(t, browser, u.Scheme+"://"+u.Host, u.Path, form); done.StatusCode != http.StatusOK || !strings.Contains(done.Body, "You approved") {
		t.Fatalf("approving on maison's page (%d): %.800s", done.StatusCode, done.Body)
	}
}

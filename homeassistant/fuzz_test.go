package homeassistant

import (
	"encoding/json"
	"log/slog"
	"testing"
)

// FuzzFrame feeds arbitrary websocket frames through dispatch and diff application: no input may panic, and
// a frame never creates an entity through a change ("c") alone.
func FuzzFrame(f *testing.F) {
	for _, seed := range []string{
		`{"id":1,"type":"event","event":{"a":{"light.a":{"s":"on","a":{"x":1},"c":"ctx","lc":1726300000.5}}}}`,
		`[{"id":1,"type":"event","event":{"c":{"light.a":{"+":{"s":"off","a":{"x":null},"lc":2},"-":{"a":["x"]}}},"r":["light.b"]}},{"id":2,"type":"result","success":true}]`,
		`{"id":1,"type":"event","event":{"c":{"light.a":{"+":{"lu":1e308,"c":{"id":"x"}}}}}}`,
		`[{"id":1,"type":"event","event":{"a":{"x.y":{"lc":-1}}}},{"id":2,"type":"pong"}]`,
		`{"id":1,"type":"event","event":{"a":null,"c":{"":{}},"r":[""]}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		states := map[string]State{"light.a": {EntityID: "light.a", Attributes: map[string]any{"x": 1.0}}}
		s := &session{
			log:     slog.New(slog.DiscardHandler),
			pending: map[int64]chan wsMessage{2: make(chan wsMessage, 1)},
			subs:    map[int64]func(json.RawMessage){},
			done:    make(chan struct{}),
		}
		s.subs[1] = func(raw json.RawMessage) {
			var ev entityEvent
			if json.Unmarshal(raw, &ev) != nil {
				return
			}
			before := len(states)
			applyEvent(states, ev)
			if len(ev.Add) == 0 && len(states) > before {
				t.Errorf("a change created an entity: %s", raw)
			}
			for id, st := range states {
				if st.Attributes == nil && id != "" {
					if _, added := ev.Add[id]; added {
						t.Errorf("%s added with nil attributes", id)
					}
				}
			}
		}
		s.dispatchFrame(frame)
	})
}

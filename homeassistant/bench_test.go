package homeassistant

import (
	"encoding/json"
	"fmt"
	"testing"
)

// bigHouse returns a first subscribe_entities event with n entities of a dozen attributes each, about the
// shape of a large installation.
func bigHouse(n int) []byte {
	add := map[string]any{}
	for i := range n {
		attrs := map[string]any{"friendly_name": fmt.Sprintf("Sensor %d", i), "unit_of_measurement": "W", "device_class": "power", "state_class": "measurement"}
		for j := range 8 {
			attrs[fmt.Sprintf("attr_%d", j)] = float64(i * j)
		}
		add[fmt.Sprintf("sensor.s%05d", i)] = map[string]any{"s": "42.5", "a": attrs, "c": "01J0000000000000000000000", "lc": 1726300000.123456}
	}
	b, _ := json.Marshal(map[string]any{"id": 5, "type": "event", "event": map[string]any{"a": add}})
	return b
}

func benchSession(states map[string]State) *session {
	s := &session{pending: map[int64]chan wsMessage{}, subs: map[int64]func(json.RawMessage){}, done: make(chan struct{})}
	s.subs[5] = func(raw json.RawMessage) {
		var ev entityEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			panic(err)
		}
		applyEvent(states, ev)
	}
	return s
}

// BenchmarkFirstState measures decoding and applying the first full state of a 5,000-entity house.
func BenchmarkFirstState(b *testing.B) {
	frame := bigHouse(5000)
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		states := map[string]State{}
		if err := benchSession(states).dispatchFrame(frame); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDiff measures one coalesced frame of ten attribute changes against a 5,000-entity cache.
func BenchmarkDiff(b *testing.B) {
	states := map[string]State{}
	if err := benchSession(states).dispatchFrame(bigHouse(5000)); err != nil {
		b.Fatal(err)
	}
	var msgs []string
	for i := range 10 {
		msgs = append(msgs, fmt.Sprintf(`{"id":5,"type":"event","event":{"c":{"sensor.s%05d":{"+":{"s":"%d","a":{"attr_1":%d},"c":"01J1","lc":1726300100.5}}}}}`, i*37, i, i))
	}
	frame := []byte("[" + fmt.Sprint(msgs[0]))
	for _, m := range msgs[1:] {
		frame = append(frame, ',')
		frame = append(frame, m...)
	}
	frame = append(frame, ']')
	s := benchSession(states)
	b.ReportAllocs()
	for b.Loop() {
		if err := s.dispatchFrame(frame); err != nil {
			b.Fatal(err)
		}
	}
}

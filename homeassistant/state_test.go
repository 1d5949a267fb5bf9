package homeassistant

import (
	"encoding/json"
	"log/slog"
	"testing"
	"time"
)

func mustEvent(t *testing.T, s string) entityEvent {
	t.Helper()
	var ev entityEvent
	if err := json.Unmarshal([]byte(s), &ev); err != nil {
		t.Fatalf("unmarshal %s: %v", s, err)
	}
	return ev
}

func TestApplyEventBatchedAddChangeRemove(t *testing.T) {
	t.Parallel()
	states := map[string]State{}
	first := mustEvent(t, `{"a":{
		"light.kitchen":{"s":"on","a":{"friendly_name":"Kitchen Light","brightness":180,"effect":"none"},"c":"01JABC","lc":1726300000.25},
		"sensor.gone":{"s":"1","a":{},"c":{"id":"01JX","parent_id":null,"user_id":null},"lc":1726300000,"lu":1726300050.5},
		"lock.front_door":{"s":"locked","a":{"friendly_name":"Front Door Lock"},"c":"01JDEF","lc":1726300001}}}`)
	if changed, err := applyEvent(states, first); err != nil || !changed {
		t.Fatalf("first event: changed=%v err=%v", changed, err)
	}
	kitchenBefore := states["light.kitchen"]
	if got, want := kitchenBefore.LastUpdated, kitchenBefore.LastChanged; !got.Equal(want) {
		t.Errorf("lu without lu field = %v, want lc %v", got, want)
	}
	if got := states["sensor.gone"].LastUpdated; !got.Equal(time.Unix(1726300050, 5e8)) {
		t.Errorf("sensor lu = %v", got)
	}

	// One event batching a change (with a null attribute and a removal), an add and a removal.
	batch := mustEvent(t, `{
		"c":{"light.kitchen":{"+":{"s":"off","lc":1726300100.5,"a":{"brightness":null,"color_mode":"onoff"},"c":{"id":"01JNEW","parent_id":null,"user_id":"u1"}},"-":{"a":["effect"]}},
		     "lock.front_door":{"+":{"lu":1726300200,"c":"01JLU"}}},
		"a":{"light.porch":{"s":"off","a":{"friendly_name":"Porch Light"},"c":"01JP","lc":1726300150}},
		"r":["sensor.gone","sensor.never_existed"]}`)
	changed, err := applyEvent(states, batch)
	if err != nil || !changed {
		t.Fatalf("batch: changed=%v err=%v", changed, err)
	}
	k := states["light.kitchen"]
	if k.State != "off" {
		t.Errorf("kitchen state = %q, want off", k.State)
	}
	if v, ok := k.Attributes["brightness"]; !ok || v != nil {
		t.Errorf("brightness = %v (present %v), want present and null as HA keeps it", v, ok)
	}
	if _, ok := k.Attributes["effect"]; ok {
		t.Error("effect should have been removed by \"-\"")
	}
	if k.Attributes["color_mode"] != "onoff" || k.Attributes["friendly_name"] != "Kitchen Light" {
		t.Errorf("attributes not merged: %v", k.Attributes)
	}
	if want := time.Unix(1726300100, 5e8).UTC(); !k.LastChanged.Equal(want) || !k.LastUpdated.Equal(want) {
		t.Errorf("kitchen lc/lu = %v/%v, want both %v", k.LastChanged, k.LastUpdated, want)
	}
	// Copy-on-write: the State handed out before the change still shows the old attributes.
	if kitchenBefore.Attributes["brightness"] != float64(180) || kitchenBefore.Attributes["effect"] != "none" {
		t.Errorf("earlier State was mutated: %v", kitchenBefore.Attributes)
	}
	l := states["lock.front_door"]
	if l.State != "locked" || !l.LastChanged.Equal(time.Unix(1726300001, 0)) || !l.LastUpdated.Equal(time.Unix(1726300200, 0)) {
		t.Errorf("lock after lu-only change = %+v", l)
	}
	if _, ok := states["sensor.gone"]; ok {
		t.Error("sensor.gone not removed")
	}
	if states["light.porch"].Name() != "Porch Light" {
		t.Errorf("porch not added: %+v", states["light.porch"])
	}
	if len(states) != 3 {
		t.Errorf("len(states) = %d, want 3", len(states))
	}

	// A change for an entity the cache does not hold is reported and skipped.
	if _, err := applyEvent(states, mustEvent(t, `{"c":{"light.nowhere":{"+":{"s":"on"}}}}`)); err == nil {
		t.Error("change for unknown entity: want error")
	}
	if _, ok := states["light.nowhere"]; ok {
		t.Error("unknown entity was created by a change")
	}
}

func TestDispatchCoalescedFrame(t *testing.T) {
	t.Parallel()
	s := &session{
		log:     slog.New(slog.DiscardHandler),
		pending: map[int64]chan wsMessage{},
		subs:    map[int64]func(json.RawMessage){},
		done:    make(chan struct{}),
	}
	res := make(chan wsMessage, 1)
	s.pending[3] = res
	var events []entityEvent
	s.subs[5] = func(raw json.RawMessage) {
		var ev entityEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			t.Errorf("event: %v", err)
		}
		events = append(events, ev)
	}
	frame := ` [{"id":3,"type":"result","success":true,"result":null},
	  {"id":5,"type":"event","event":{"a":{"light.kitchen":{"s":"on","a":{},"c":"x","lc":1}}}},
	  {"id":5,"type":"event","event":{"c":{"light.kitchen":{"+":{"s":"off","lc":2}}},"r":["sensor.x"]}},
	  {"id":9,"type":"event","event":{}}] `
	if err := s.dispatchFrame([]byte(frame)); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-res:
		if m.Success == nil || !*m.Success {
			t.Errorf("result = %+v", m)
		}
	default:
		t.Fatal("result for id 3 not delivered")
	}
	if len(events) != 2 {
		t.Fatalf("got %d events, want 2", len(events))
	}
	states := map[string]State{}
	for _, ev := range events {
		if _, err := applyEvent(states, ev); err != nil {
			t.Fatal(err)
		}
	}
	if states["light.kitchen"].State != "off" {
		t.Errorf("kitchen = %+v", states["light.kitchen"])
	}
	// A single (non-array) frame works as well.
	s.pending[4] = res
	if err := s.dispatchFrame([]byte(`{"id":4,"type":"pong"}`)); err != nil {
		t.Fatal(err)
	}
	if m := <-res; m.Type != "pong" {
		t.Errorf("pong frame = %+v", m)
	}
	if err := s.dispatchFrame([]byte(`[{"id":1,`)); err == nil {
		t.Error("broken frame: want error")
	}
}

func TestStateName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		st   State
		want string
	}{
		{State{EntityID: "light.living_room", Attributes: map[string]any{"friendly_name": "Living Room Lamp"}}, "Living Room Lamp"},
		{State{EntityID: "light.living_room"}, "living room"},
		{State{EntityID: "sensor.x", Attributes: map[string]any{"friendly_name": "  "}}, "x"},
		{State{EntityID: "noobject", Attributes: map[string]any{"friendly_name": 3}}, "noobject"},
	} {
		if got := tc.st.Name(); got != tc.want {
			t.Errorf("%s: Name() = %q, want %q", tc.st.EntityID, got, tc.want)
		}
	}
}

func TestRegistriesAreaViaDevice(t *testing.T) {
	t.Parallel()
	reg, err := parseRegistries(
		json.RawMessage(`[{"area_id":"garage","name":"Garage"},{"area_id":"kitchen","name":"Kitchen"}]`),
		json.RawMessage(`[{"id":"d1","area_id":"garage"},{"id":"d2","area_id":null}]`),
		json.RawMessage(`{"entity_categories":{},"entities":[
			{"ei":"camera.garage","di":"d1"},
			{"ei":"light.kitchen","ai":"kitchen","di":"d1"},
			{"ei":"sensor.loose","di":"d2"},
			{"ei":"sensor.ghost","ai":"nowhere"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{
		"camera.garage": "Garage", "light.kitchen": "Kitchen", "sensor.loose": "", "sensor.ghost": "", "light.unknown": "",
	} {
		if got := reg.areaOf(id); got != want {
			t.Errorf("areaOf(%s) = %q, want %q", id, got, want)
		}
	}
	// The bare-array form of list_for_display is accepted too.
	reg, err = parseRegistries(json.RawMessage(`[{"area_id":"a","name":"A"}]`), json.RawMessage(`[]`), json.RawMessage(`[{"ei":"x.y","ai":"a"}]`))
	if err != nil || reg.areaOf("x.y") != "A" {
		t.Errorf("bare array: %q, %v", reg.areaOf("x.y"), err)
	}
}

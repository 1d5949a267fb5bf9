package demo_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"maison/demo"
)

// generate sends ai_task.generate_data with return_response and the given
// service data, and returns the id.
func (w *wsClient) generate(data map[string]any) int {
	w.t.Helper()
	return w.send("call_service", map[string]any{
		"domain": "ai_task", "service": "generate_data", "return_response": true, "service_data": data,
	})
}

func cameraTask(camera string) map[string]any {
	return map[string]any{
		"task_name":    "camera description",
		"instructions": "Describe this picture in one sentence.",
		"attachments": []any{map[string]any{
			"media_content_id": "media-source://camera/" + camera, "media_content_type": "image/jpeg",
		}},
	}
}

// haError returns a failed result's error code and message.
func haError(t *testing.T, m map[string]any) (code, message string) {
	t.Helper()
	if m["success"] != false {
		t.Fatalf("expected a failure, got %v", m)
	}
	e, _ := m["error"].(map[string]any)
	code, _ = e["code"].(string)
	message, _ = e["message"].(string)
	return code, message
}

func TestAITaskEntityState(t *testing.T) {
	t.Parallel()
	h, srv := newHouse(t, demo.Options{})
	state, attrs, ok := h.State("ai_task.demo_vision")
	if !ok || state != "unknown" || attrs["friendly_name"] != "Demo Vision" {
		t.Fatalf("ai_task.demo_vision = %q %v %v", state, attrs, ok)
	}
	if f, _ := attrs["supported_features"].(int); f&1 == 0 || f&2 == 0 {
		t.Errorf("supported_features = %v, want generate_data (1) and attachments (2)", attrs["supported_features"])
	}

	// AI task entities are never exposed to Assist.
	text, _ := callTool(t, srv, h.UserToken(), "GetLiveContext", nil)
	if strings.Contains(text, "Demo Vision") || strings.Contains(text, "ai_task") {
		t.Errorf("GetLiveContext mentions the AI task entity: %s", text)
	}

	// It has a registry entry with a device in no area.
	w := dial(t, srv, h.UserToken(), false)
	disp := w.result(w.send("config/entity_registry/list_for_display", nil))["result"].(map[string]any)
	var device string
	for _, e := range disp["entities"].([]any) {
		if m := e.(map[string]any); m["ei"] == "ai_task.demo_vision" {
			device, _ = m["di"].(string)
		}
	}
	if device == "" {
		t.Fatal("ai_task.demo_vision has no registry entry with a device")
	}
	for _, d := range w.result(w.send("config/device_registry/list", nil))["result"].([]any) {
		if m := d.(map[string]any); m["id"] == device && m["area_id"] != nil {
			t.Errorf("the AI's device has area %v, want null", m["area_id"])
		}
	}
}

func TestAITaskGenerateData(t *testing.T) {
	t.Parallel()
	h, srv := newHouse(t, demo.Options{})
	w := dial(t, srv, h.UserToken(), true)
	sub := w.send("subscribe_entities", map[string]any{"entity_ids": []any{"ai_task.demo_vision"}})
	w.result(sub)
	w.event(sub) // the first state

	sentences := map[string]string{}
	for _, cam := range []string{"camera.front_door", "camera.garage", "camera.backyard", "camera.shed"} {
		data := cameraTask(cam)
		if cam == "camera.garage" {
			data["entity_id"] = "ai_task.demo_vision" // named rather than preferred
		}
		r := w.result(w.generate(data))
		if r["success"] != true {
			t.Fatalf("%s: %v", cam, r)
		}
		res := r["result"].(map[string]any)
		if c, _ := res["context"].(map[string]any); c["id"] == nil || c["user_id"] == nil {
			t.Errorf("%s: context = %v", cam, res["context"])
		}
		resp, _ := res["response"].(map[string]any)
		s, _ := resp["data"].(string)
		conv, _ := resp["conversation_id"].(string)
		if s == "" || len(conv) != 26 {
			t.Fatalf("%s: response = %v", cam, res["response"])
		}
		sentences[cam] = s
	}
	// Each sentence says what the frame draws: the front door's empty
	// doormat, the garage's closed door seen from the driveway.
	if s := sentences["camera.front_door"]; !strings.Contains(s, "doormat") || !strings.Contains(s, "Nobody") || strings.Contains(s, "parcel") {
		t.Errorf("front door: %q", s)
	}
	if s := sentences["camera.garage"]; !strings.Contains(s, "garage door is closed") || !strings.Contains(s, "driveway") {
		t.Errorf("garage: %q", s)
	}
	seen := map[string]bool{}
	for cam, s := range sentences {
		if seen[s] {
			t.Errorf("%s repeats another camera's sentence %q", cam, s)
		}
		seen[s] = true
	}

	// Deterministic: the same camera gives the same sentence.
	again := w.result(w.generate(cameraTask("camera.front_door")))
	if s := again["result"].(map[string]any)["response"].(map[string]any)["data"]; s != sentences["camera.front_door"] {
		t.Errorf("second answer %q differs from %q", s, sentences["camera.front_door"])
	}

	// The entity's state becomes the time of its last activity.
	ev := w.event(sub)
	if ch, _ := ev["c"].(map[string]any); ch["ai_task.demo_vision"] == nil {
		t.Errorf("no state change for the AI task entity: %v", ev)
	}
	state, _, _ := h.State("ai_task.demo_vision")
	if _, err := time.Parse("2006-01-02T15:04:05.999999-07:00", state); err != nil {
		t.Errorf("state after a task = %q, want an ISO timestamp", state)
	}

	if n := h.AITaskCalls(); n != 5 {
		t.Errorf("AITaskCalls = %d, want 5", n)
	}
	want := []string{"camera.front_door", "camera.garage", "camera.backyard", "camera.shed", "camera.front_door"}
	if got := h.AITaskCameras(); !slices.Equal(got, want) {
		t.Errorf("AITaskCameras = %v, want %v", got, want)
	}
}

func TestAITaskRequiresReturnResponse(t *testing.T) {
	t.Parallel()
	h, srv := newHouse(t, demo.Options{})
	w := dial(t, srv, h.UserToken(), false)
	for _, rr := range []any{nil, false} {
		fields := map[string]any{"domain": "ai_task", "service": "generate_data", "service_data": cameraTask("camera.front_door")}
		if rr != nil {
			fields["return_response"] = rr
		}
		r := w.result(w.send("call_service", fields))
		code, msg := haError(t, r)
		e := r["error"].(map[string]any)
		if code != "service_validation_error" || e["translation_key"] != "service_lacks_response_request" ||
			msg != "Validation error: The action requires responses and must be called with return_response=True" {
			t.Errorf("return_response %v: %v", rr, r)
		}
	}
	if n := h.AITaskCalls(); n != 2 {
		t.Errorf("AITaskCalls = %d, want 2 (refused calls count)", n)
	}
	if got := h.AITaskCameras(); len(got) != 0 {
		t.Errorf("refused calls reached the attachments: %v", got)
	}
}

func TestAITaskRefusals(t *testing.T) {
	t.Parallel()
	h, srv := newHouse(t, demo.Options{})
	h.SetState("ai_task.text_only", "unknown", map[string]any{"friendly_name": "Text Only", "supported_features": 1})
	w := dial(t, srv, h.UserToken(), false)

	with := func(cam string, extra map[string]any) map[string]any {
		d := cameraTask(cam)
		for k, v := range extra {
			if v == nil {
				delete(d, k)
			} else {
				d[k] = v
			}
		}
		return d
	}
	cases := []struct {
		name      string
		data      map[string]any
		code, msg string
	}{
		{"porch camera off", with("camera.porch", nil), "home_assistant_error", "Camera is off"},
		{"unknown camera", with("camera.attic", nil), "home_assistant_error", "Could not resolve media item: camera.attic"},
		{"unknown entity", with("camera.front_door", map[string]any{"entity_id": "ai_task.nope"}), "service_validation_error", "Validation error: AI Task entity ai_task.nope not found."},
		{"no attachment support", with("camera.front_door", map[string]any{"entity_id": "ai_task.text_only"}), "service_validation_error", "Validation error: AI Task entity ai_task.text_only does not support attachments."},
		{"malformed entity id", with("camera.front_door", map[string]any{"entity_id": "demo vision"}), "invalid_format", ""},
		{"no task name", with("camera.front_door", map[string]any{"task_name": nil}), "invalid_format", "required key not provided @ data['task_name']"},
		{"attachment without type", with("camera.front_door", map[string]any{"attachments": []any{map[string]any{"media_content_id": "media-source://camera/camera.garage"}}}), "invalid_format", "required key not provided @ data['attachments'][0]['media_content_type']"},
		{"unknown field", with("camera.front_door", map[string]any{"camera": "garage"}), "invalid_format", "extra keys not allowed @ data['camera']"},
	}
	for _, tc := range cases {
		code, msg := haError(t, w.result(w.generate(tc.data)))
		if code != tc.code || (tc.msg != "" && msg != tc.msg) {
			t.Errorf("%s: %s %q, want %s %q", tc.name, code, msg, tc.code, tc.msg)
		}
	}

	// ai_task's ServiceValidationError carries its translation.
	r := w.result(w.generate(with("camera.front_door", map[string]any{"entity_id": "ai_task.nope"})))
	if e, _ := r["error"].(map[string]any); e["translation_domain"] != "ai_task" || e["translation_key"] != "entity_not_found" ||
		!reflect.DeepEqual(e["translation_placeholders"], map[string]any{"entity_id": "ai_task.nope"}) {
		t.Errorf("unknown entity: %v", r)
	}

	// Without attachments the task runs; the AI has nothing to look at.
	r = w.result(w.generate(with("", map[string]any{"attachments": nil})))
	if s, _ := r["result"].(map[string]any)["response"].(map[string]any)["data"].(string); !strings.Contains(s, "No picture") {
		t.Errorf("no attachments: %v", r)
	}

	// The shed is not exposed to Assist, but Home Assistant lets any user attach any camera.
	if r := w.result(w.generate(cameraTask("camera.shed"))); r["success"] != true {
		t.Errorf("shed: %v", r)
	}

	if r := w.result(w.send("call_service", map[string]any{"domain": "ai_task", "service": "clear_images"})); errorCode(r) != "unauthorized" {
		t.Errorf("clear_images as the user: %v", r)
	}
	if r := w.result(w.send("call_service", map[string]any{"domain": "ai_task", "service": "summon"})); errorCode(r) != "not_found" {
		t.Errorf("unknown ai_task service: %v", r)
	}
}

func TestAITaskNoEntity(t *testing.T) {
	t.Parallel()
	h, srv := newHouse(t, demo.Options{NoAITask: true})
	if _, _, ok := h.State("ai_task.demo_vision"); ok {
		t.Fatal("NoAITask house has ai_task.demo_vision")
	}
	w := dial(t, srv, h.UserToken(), false)
	r := w.result(w.generate(cameraTask("camera.front_door")))
	if code, msg := haError(t, r); code != "service_validation_error" || msg != "Validation error: No entity_id provided and no preferred entity set." {
		t.Errorf("preferred entity: %s %q", code, msg)
	}
	if e, _ := r["error"].(map[string]any); e["translation_key"] != "no_entity" || e["translation_placeholders"] != nil {
		t.Errorf("preferred entity: %v", r)
	}
	d := cameraTask("camera.front_door")
	d["entity_id"] = "ai_task.demo_vision"
	if _, msg := haError(t, w.result(w.generate(d))); msg != "Validation error: AI Task entity ai_task.demo_vision not found." {
		t.Errorf("named entity: %q", msg)
	}
}

func TestAITaskFaults(t *testing.T) {
	t.Parallel()
	h, srv := newHouse(t, demo.Options{})
	w := dial(t, srv, h.UserToken(), false)

	h.SetAITaskFailure("Error talking to the AI service: rate limited")
	code, msg := haError(t, w.result(w.generate(cameraTask("camera.front_door"))))
	if code != "home_assistant_error" || msg != "Error talking to the AI service: rate limited" {
		t.Errorf("failure: %s %q", code, msg)
	}
	h.SetAITaskFailure("")

	h.SetAITaskAnswer(map[string]any{"people": 0})
	r := w.result(w.generate(cameraTask("camera.front_door")))
	if _, isMap := r["result"].(map[string]any)["response"].(map[string]any)["data"].(map[string]any); !isMap {
		t.Errorf("SetAITaskAnswer(map): %v", r)
	}
	h.SetAITaskAnswer(nil)

	// While the AI is slow the connection keeps answering: the pong overtakes the result.
	h.SetAITaskLatency(time.Hour)
	slow := w.generate(cameraTask("camera.front_door"))
	m := w.read2ping()
	if m["type"] != "pong" {
		t.Fatalf("message after a slow task and a ping = %v, want the pong first", m)
	}
	h.SetAITaskLatency(0)
	if r := w.result(w.generate(cameraTask("camera.garage"))); r["success"] != true {
		t.Errorf("a fast task after a slow one: %v", r)
	}
	for _, q := range w.queue {
		if q["type"] == "result" && num(q["id"]) == slow {
			t.Errorf("the slow task answered early: %v", q)
		}
	}
}

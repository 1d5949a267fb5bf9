package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// aiTaskEntity is the house's AI task entity: not exposed to Assist (Home
// Assistant never exposes ai_task entities), found by clients through its
// state and its supported_features.
const aiTaskEntity = "ai_task.demo_vision"

// AI task entity features (AITaskEntityFeature in Home Assistant's
// ai_task/const.py: GENERATE_DATA 1, SUPPORT_ATTACHMENTS 2, GENERATE_IMAGE 4).
const (
	aiGenerateData       = 1
	aiSupportAttachments = 2
	aiGenerateImage      = 4
)

// cameraSentences is what the demo's AI sees in each camera's frame, in
// English and in French: each says what the frame draws, nothing more.
var cameraSentences = map[string][2]string{
	"camera.front_door": {"Nobody is at the front door; it is shut, and the doormat in front of it is empty.",
		"Personne n'est à la porte d'entrée; elle est fermée et le paillasson devant elle est vide."},
	"camera.garage": {"The garage door is closed, seen from the driveway, where an oil stain marks the concrete; nobody is there.",
		"La porte du garage est fermée, vue depuis l'allée, où une tache d'huile marque le béton; il n'y a personne."},
	"camera.backyard": {"Nobody is in the backyard; the lawn is freshly mown and the fence is intact.",
		"Personne n'est dans la cour; la pelouse est fraîchement tondue et la clôture est intacte."},
	"camera.shed": {"Nobody is in the shed; a workbench stands under the window beside a red PRIVATE sign.",
		"Personne n'est dans la remise; un établi se trouve sous la fenêtre à côté d'un panneau rouge PRIVATE."},
}

// quietSentence is what the AI sees in a camera the house added later.
var quietSentence = [2]string{"A quiet scene; nobody is in view.", "Une scène calme; personne n'est visible."}

// noAttachmentSentence is the answer to a generate_data call without any
// attachment: the AI has nothing to look at.
const noAttachmentSentence = "No picture was attached, so there is nothing to describe."

// aiTask holds the AI task entity's settings and fault knobs. Guarded by
// House.mu.
type aiTask struct {
	preferred  string // the preferred generate_data entity ("" when none)
	latency    time.Duration
	failure    string
	errCode    string // SetAITaskError: a websocket error code to answer with
	errMessage string
	answer     any // replaces the camera's sentence when non-nil
	calls      int
	cameras    []string
}

// addAITask adds ai_task.demo_vision, with its device, as the preferred
// entity for generate_data. It runs once, in New.
func (h *House) addAITask() {
	dev := device{id: stableHex("device:" + aiTaskEntity), name: "Demo Vision", manufacturer: "Demo AI", model: "Vision 1"}
	h.devices = append(h.devices, dev)
	t := h.start.Add(-time.Hour)
	e := &entity{id: aiTaskEntity, name: "Demo Vision", made: "Demo Vision", device: dev.id, platform: "demo", registered: true}
	attrs := map[string]any{"friendly_name": "Demo Vision", "supported_features": aiGenerateData | aiSupportAttachments}
	e.cur = &snap{state: "unknown", attrs: attrs, lastChanged: t, lastUpdated: t, lastReported: t, ctxID: h.ulidLocked(t)}
	h.entities[aiTaskEntity] = e
	h.order = append(h.order, aiTaskEntity)
	h.ai.preferred = aiTaskEntity
}

// SetAITaskLatency makes ai_task.generate_data answer d after it starts, as
// a slow AI service would. Other commands on the connection are answered
// meanwhile, as in Home Assistant; the answer is dropped if the connection
// ends first. Zero removes the delay.
func (h *House) SetAITaskLatency(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ai.latency = d
}

// SetAITaskFailure makes ai_task.generate_data fail with Home Assistant's
// home_assistant_error and msg as its message, as when the AI service
// refuses or breaks ("Error talking to the AI service"). "" means healthy.
func (h *House) SetAITaskFailure(msg string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ai.failure = msg
}

// SetAITaskAnswer makes ai_task.generate_data answer data instead of the
// camera's sentence: text a hostile or confused model might write, or a
// non-string value such as a map. Nil restores the sentences.
func (h *House) SetAITaskAnswer(data any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ai.answer = data
}

// AITaskCalls returns how many ai_task.generate_data calls the house
// received, whatever their outcome.
func (h *House) AITaskCalls() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ai.calls
}

// AITaskCameras returns the attachments of every well-formed
// ai_task.generate_data call (return_response asked, data valid), in call
// order: the camera entity id for media-source://camera/<id>, else the whole
// media id.
func (h *House) AITaskCameras() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.ai.cameras)
}

// aiTaskService answers call_service for the ai_task domain in Home
// Assistant's order: the service exists, return_response was asked for
// (the services are response-only), the data fits the schema, the
// permission check (a default user passes), the entity (given or
// preferred) and its features, the attachments, then the AI itself.
// ctx is the connection's: a delayed answer is dropped when it ends.
func (h *House) aiTaskService(ctx context.Context, c *wsConn, id int64, msg map[string]any) {
	service, _ := msg["service"].(string)
	switch service {
	case "generate_data", "generate_image":
	case "clear_images":
		// Registered as an admin service.
		if !c.user.isAdmin.Load() {
			c.fail(id, errUnauthorized, "Unauthorized")
			return
		}
		c.result(id, map[string]any{"context": h.serviceContext(c)})
		return
	default:
		c.fail(id, errNotFound, "Service ai_task."+service+" not found.")
		return
	}
	if service == "generate_data" {
		h.mu.Lock()
		h.ai.calls++
		h.mu.Unlock()
	}
	if rr, _ := msg["return_response"].(bool); !rr {
		c.send(map[string]any{"id": id, "type": "result", "success": false, "error": map[string]any{
			"code":                     errServiceValid,
			"message":                  "Validation error: The action requires responses and must be called with return_response=True",
			"translation_domain":       "homeassistant",
			"translation_key":          "service_lacks_response_request",
			"translation_placeholders": map[string]any{"return_response": "return_response=True"},
		}})
		return
	}
	data := map[string]any{}
	if d, ok := msg["service_data"].(map[string]any); ok {
		for k, v := range d {
			data[k] = v
		}
	}
	if t, ok := msg["target"].(map[string]any); ok {
		for k, v := range t {
			data[k] = v
		}
	}
	attachments, problem := checkAITaskData(data, service)
	if problem != "" {
		c.fail(id, errInvalidFormat, problem)
		return
	}
	if service == "generate_data" && len(attachments) > 0 {
		h.mu.Lock()
		for _, a := range attachments {
			h.ai.cameras = append(h.ai.cameras, strings.TrimPrefix(a, "media-source://camera/"))
		}
		h.mu.Unlock()
	}

	h.mu.Lock()
	entityID, _ := data["entity_id"].(string)
	if entityID == "" && service == "generate_data" {
		entityID = h.ai.preferred
	}
	// Any ai_task entity in the state machine counts, so that tests may add
	// one with other features through SetState.
	e, present := h.entities[entityID]
	present = present && entityDomain(entityID) == "ai_task"
	var features int
	if present {
		features = intAttr(e.cur.attrs["supported_features"])
	}
	latency, failure, answer := h.ai.latency, h.ai.failure, h.ai.answer
	errCode, errMessage := h.ai.errCode, h.ai.errMessage
	h.mu.Unlock()
	if errCode != "" {
		c.fail(id, errCode, errMessage)
		return
	}
	entity := map[string]any{"entity_id": entityID}
	switch {
	case entityID == "":
		aiTaskInvalid(c, id, "no_entity", nil, "No entity_id provided and no preferred entity set.")
		return
	case !present:
		aiTaskInvalid(c, id, "entity_not_found", entity, "AI Task entity "+entityID+" not found.")
		return
	case service == "generate_data" && features&aiGenerateData == 0:
		aiTaskInvalid(c, id, "generate_data_not_supported", entity, "AI Task entity "+entityID+" does not support generating data.")
		return
	case service == "generate_image" && features&aiGenerateImage == 0:
		aiTaskInvalid(c, id, "generate_image_not_supported", entity, "AI Task entity "+entityID+" does not support generating images.")
		return
	case len(attachments) > 0 && features&aiSupportAttachments == 0:
		aiTaskInvalid(c, id, "attachments_not_supported", entity, "AI Task entity "+entityID+" does not support attachments.")
		return
	}
	var said []string
	for _, a := range attachments {
		s, problem := h.lookAt(a, asksFrench(data))
		if problem != "" {
			h.haError(c, id, problem)
			return
		}
		said = append(said, s)
	}
	if len(said) == 0 {
		said = append(said, noAttachmentSentence)
	}

	// The entity's state is the time of its last activity, written when the
	// task starts.
	h.mu.Lock()
	now := h.now()
	if ent := h.entities[entityID]; ent != nil {
		if h.setLocked(ent, isoTime(now), ent.cur.attrs, "") {
			h.notifyLocked(ent)
		}
	}
	convID := h.ulidLocked(now)
	h.mu.Unlock()

	answerNow := func() {
		if failure != "" {
			h.haError(c, id, failure)
			return
		}
		var out any = strings.Join(said, " ")
		if answer != nil {
			out = answer
		}
		c.result(id, map[string]any{
			"context":  h.serviceContext(c),
			"response": map[string]any{"conversation_id": convID, "data": out},
		})
	}
	if latency <= 0 {
		answerNow()
		return
	}
	// Home Assistant runs call_service as its own task: the connection keeps
	// answering pings and other commands while the AI thinks.
	go func() {
		t := time.NewTimer(latency)
		defer t.Stop()
		select {
		case <-t.C:
			answerNow()
		case <-ctx.Done():
		}
	}()
}

// lookAt resolves one attachment the way the camera media source does and
// returns what the AI sees, or Home Assistant's error message.
func (h *House) lookAt(mediaID string, french bool) (sentence, problem string) {
	rest, ok := strings.CutPrefix(mediaID, "media-source://")
	if !ok {
		return "", "Invalid media source URI"
	}
	domain, ident, _ := strings.Cut(rest, "/")
	if domain != "camera" {
		return "", "Unknown media source: " + domain
	}
	cam, ok := h.camera(ident)
	if !ok {
		return "", "Could not resolve media item: " + ident
	}
	if !cam.spec.on {
		return "", "Camera is off"
	}
	s, ok := cameraSentences[ident]
	if !ok {
		s = quietSentence
	}
	if french {
		return s[1], ""
	}
	return s[0], ""
}

// checkAITaskData validates service data like the services' schemas do and
// returns the attachments' media ids, or voluptuous's message for the first
// problem.
func checkAITaskData(data map[string]any, service string) (attachments []string, problem string) {
	allowed := map[string]bool{"task_name": true, "entity_id": true, "instructions": true, "attachments": true}
	if service == "generate_data" {
		allowed["structure"] = true
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range data {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range keys {
		if !allowed[k] {
			return nil, fmt.Sprintf("extra keys not allowed @ data['%s']", k)
		}
	}
	for _, k := range []string{"task_name", "instructions"} {
		v, ok := data[k]
		if !ok {
			return nil, fmt.Sprintf("required key not provided @ data['%s']", k)
		}
		switch v.(type) {
		case string, json.Number:
		default:
			return nil, fmt.Sprintf("expected str for dictionary value @ data['%s']", k)
		}
	}
	if v, ok := data["entity_id"]; ok {
		s, _ := v.(string)
		if d, obj, found := strings.Cut(s, "."); !found || d == "" || obj == "" || strings.ContainsAny(s, " /") {
			return nil, fmt.Sprintf("Entity %v is neither a valid entity ID nor a valid UUID for dictionary value @ data['entity_id']", v)
		}
	}
	if v, ok := data["attachments"]; ok {
		list, isList := v.([]any)
		if !isList {
			list = []any{v}
		}
		for i, item := range list {
			m, _ := item.(map[string]any)
			if m == nil {
				return nil, fmt.Sprintf("expected a dictionary @ data['attachments'][%d]", i)
			}
			for _, k := range []string{"media_content_id", "media_content_type"} {
				if _, ok := m[k].(string); !ok {
					return nil, fmt.Sprintf("required key not provided @ data['attachments'][%d]['%s']", i, k)
				}
			}
			attachments = append(attachments, m["media_content_id"].(string))
		}
	}
	return attachments, ""
}

// intAttr reads an integer attribute stored as a Go number or decoded JSON.
func intAttr(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case float64:
		return int(n)
	case json.Number:
		i, _ := n.Int64()
		return int(i)
	}
	return 0
}

// aiTaskInvalid answers as the websocket API does for the
// ServiceValidationError ai_task raises (ai_task/task.py,
// _async_get_entity): service_validation_error, the translated message after
// "Validation error: ", and the translation's domain, key and placeholders.
func aiTaskInvalid(c *wsConn, id int64, key string, placeholders map[string]any, message string) {
	c.send(map[string]any{"id": id, "type": "result", "success": false, "error": map[string]any{
		"code":                     errServiceValid,
		"message":                  "Validation error: " + message,
		"translation_domain":       "ai_task",
		"translation_key":          key,
		"translation_placeholders": placeholders,
	}})
}

// haError answers with home_assistant_error, as the websocket API does for
// a HomeAssistantError raised by a service.
func (h *House) haError(c *wsConn, id int64, message string) {
	c.fail(id, "home_assistant_error", message)
}

// serviceContext is the context of a call_service made by the connection's
// user.
func (h *House) serviceContext(c *wsConn) map[string]any {
	h.mu.Lock()
	ctxID := h.ulidLocked(h.now())
	h.mu.Unlock()
	return map[string]any{"id": ctxID, "parent_id": nil, "user_id": c.user.id}
}

// asksFrench reports whether the instructions ask for an answer in French,
// which a real model then gives.
func asksFrench(data map[string]any) bool {
	instr, _ := data["instructions"].(string)
	return strings.Contains(strings.ToLower(instr), "français")
}

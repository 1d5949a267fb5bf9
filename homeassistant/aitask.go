package homeassistant

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// AI task entity features, from AITaskEntityFeature in Home Assistant's homeassistant/components/ai_task/const.py
// (home-assistant/core 044acccaa66c): GENERATE_DATA = 1, SUPPORT_ATTACHMENTS = 2, GENERATE_IMAGE = 4.
const (
	aiTaskGenerateData       = 1
	aiTaskSupportAttachments = 2
)

// describeTaskName is the task_name maison gives Home Assistant; it shows in the AI's chat log.
const describeTaskName = "maison camera description"

// defaultDescribeInstructions is used when DescribeImage is given no instructions.
const defaultDescribeInstructions = "Describe what this camera picture shows in one short, plain sentence for someone " +
	"who cannot see it: people, animals, vehicles and parcels first. Do not guess at what is not visible."

// AITask is an ai_task entity able to take image attachments.
type AITask struct {
	EntityID string // e.g. "ai_task.openai"
	Name     string // its friendly name, e.g. "OpenAI AI Task"
}

// AITasks lists the ai_task entities whose supported_features include attachments (from the state cache; no I/O).
// They must also generate data, since DescribeImage calls ai_task.generate_data; unavailable ones are left out.
// The list is sorted by entity id and empty before Connect. ai_task entities are never exposed to Assist: they are
// found by their state, which any user may read.
func (c *Client) AITasks() []AITask {
	const want = aiTaskGenerateData | aiTaskSupportAttachments
	c.mu.Lock()
	var out []AITask
	for id, s := range c.states {
		if !strings.HasPrefix(id, "ai_task.") || s.State == "unavailable" {
			continue
		}
		if intAttribute(s.Attributes["supported_features"])&want != want {
			continue
		}
		out = append(out, AITask{EntityID: id, Name: s.Name()})
	}
	c.mu.Unlock()
	slices.SortFunc(out, func(a, b AITask) int { return strings.Compare(a.EntityID, b.EntityID) })
	return out
}

// DescribeImage asks ai_task.generate_data (websocket call_service, return_response true) for a one-sentence
// description of a camera's current frame, attaching media-source://camera/<cameraID> as image/jpeg.
// entityID "" lets HA use its preferred entity. Returns the text HA's AI answered (data as a string; if `data` is not a
// string, an error of KindProtocol). It returns as soon as ctx ends, which the caller bounds to a few seconds; the
// session stays up and the late answer is dropped. Without a deadline on ctx, RequestTimeout applies.
//
// instructions "" asks for one plain sentence. The answer is untrusted text from a model: the caller cleans and
// bounds it. Home Assistant fetches the frame itself, so a camera that is off fails with KindCameraOff. Other
// failures: KindNoAITask (no AI task entity, none preferred, or one that takes no attachments), KindNotAllowed,
// KindTimeout, KindNotFound (unknown camera) and KindAITaskFailed (the AI service failed).
func (c *Client) DescribeImage(ctx context.Context, entityID, cameraID, instructions string) (string, error) {
	const op = "websocket call_service ai_task.generate_data"
	if !validEntityID(cameraID, "camera") {
		return "", &Error{Kind: KindNotFound, Op: op, Err: fmt.Errorf("%q is not a camera entity id", cameraID)}
	}
	if entityID != "" && !validEntityID(entityID, "ai_task") {
		return "", &Error{Kind: KindNoAITask, Op: op, Err: fmt.Errorf("%q is not an ai_task entity id", entityID)}
	}
	if strings.TrimSpace(instructions) == "" {
		instructions = defaultDescribeInstructions
	}
	if e := c.refusal(); e != nil {
		return "", e
	}
	sess, err := c.liveSession(op)
	if err != nil {
		return "", err
	}
	ctx, cancel := c.requestContext(ctx)
	defer cancel()

	data := map[string]any{
		"task_name":    describeTaskName,
		"instructions": instructions,
		"attachments": []map[string]string{{
			"media_content_id":   "media-source://camera/" + cameraID,
			"media_content_type": "image/jpeg",
		}},
	}
	if entityID != "" {
		data["entity_id"] = entityID
	}
	raw, err := sess.call(ctx, map[string]any{
		"type":            "call_service",
		"domain":          "ai_task",
		"service":         "generate_data",
		"service_data":    data,
		"return_response": true,
	}, nil)
	if err != nil {
		return "", aiTaskError(op, err)
	}
	var res struct {
		Response *struct {
			ConversationID string          `json:"conversation_id"`
			Data           json.RawMessage `json:"data"`
		} `json:"response"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return "", &Error{Kind: KindProtocol, Op: op, Err: err}
	}
	if res.Response == nil || len(res.Response.Data) == 0 {
		return "", &Error{Kind: KindProtocol, Op: op, Err: errors.New("the result carries no response data")}
	}
	var v any
	if err := json.Unmarshal(res.Response.Data, &v); err != nil {
		return "", &Error{Kind: KindProtocol, Op: op, Err: err}
	}
	text, ok := v.(string)
	if !ok {
		return "", &Error{Kind: KindProtocol, Op: op, Err: fmt.Errorf("the response data is %s, not a string", jsonKind(v))}
	}
	return text, nil
}

// liveSession returns the websocket session in use, or an error saying why there is none.
func (c *Client) liveSession(op string) (*session, error) {
	c.mu.Lock()
	sess, st := c.sess, c.status
	c.mu.Unlock()
	if sess != nil {
		select {
		case <-sess.done:
		default:
			return sess, nil
		}
	}
	if st.Err != nil {
		return nil, &Error{Kind: st.Err.Kind, Op: op, Status: st.Err.Status, Err: st.Err.Err}
	}
	return nil, &Error{Kind: KindUnreachable, Op: op, Err: errors.New("the websocket is not connected")}
}

// aiTaskError gives a failed generate_data call its Kind. Home Assistant raises these failures as
// home_assistant_error without a translation key (ai_task/task.py, camera/media_source.py), so only the message
// tells them apart.
func aiTaskError(op string, err error) error {
	ce, other := commandFailure(op, err)
	if ce == nil {
		return other
	}
	kind := KindProtocol
	// From 2026.11 the service's refusals are service_validation_error with
	// "Validation error: " before the message and a full stop after it
	// (measured; ai_task/task.py raising ServiceValidationError).
	msg := strings.TrimSuffix(strings.TrimPrefix(ce.Message, "Validation error: "), ".")
	switch ce.Code {
	case "unauthorized":
		kind = KindNotAllowed
	case "timeout":
		kind = KindTimeout
	case "not_found": // Service ai_task.generate_data not found: no ai_task integration at all.
		kind = KindNoAITask
	case "invalid_format": // the service data does not fit the service's schema
		kind = KindBadRequest
	case "unknown_error": // an unexpected exception inside Home Assistant or the AI integration
		kind = KindAITaskFailed
	case "home_assistant_error", "service_validation_error":
		switch {
		case msg == "No entity_id provided and no preferred entity set",
			strings.HasPrefix(msg, "AI Task entity ") && (strings.HasSuffix(msg, " not found") || strings.Contains(msg, " does not support ")):
			kind = KindNoAITask
		case msg == "Camera is off":
			kind = KindCameraOff
		case msg == "Camera not found", strings.HasPrefix(msg, "Could not resolve media item"):
			kind = KindNotFound
		case msg == "Unable to get image":
			kind = KindCameraFailed
		case ce.Code == "service_validation_error":
			kind = KindBadRequest // Home Assistant refused the call's shape, such as a missing return_response
		default:
			kind = KindAITaskFailed
		}
	}
	if kind == KindAITaskFailed && unreadablePicture(ce.Message) {
		return &Error{Kind: kind, Op: op, Err: fmt.Errorf("%w: %w", ErrUnreadablePicture, ce)}
	}
	return &Error{Kind: kind, Op: op, Err: ce}
}

// ErrUnreadablePicture is wrapped in an AI task failure when the picture
// could not be decoded. Home Assistant hands its AI the camera's own frame
// (media-source://camera/…), not the one maison repaired, so a camera that
// sends damaged frames fails it every time (measured on 2026.11: "image
// file is truncated").
var ErrUnreadablePicture = errors.New("Home Assistant could not read the camera's picture")

// unreadablePicture reports whether an AI task's failure is Pillow's
// refusal of the picture, as Home Assistant passes it on.
func unreadablePicture(msg string) bool {
	msg = strings.ToLower(msg)
	return strings.Contains(msg, "image file is truncated") || strings.Contains(msg, "cannot identify image file") ||
		strings.Contains(msg, "broken data stream") || strings.Contains(msg, "truncated file read")
}

// jsonKind names the JSON type of a decoded value, for errors.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "a string"
}

// validEntityID reports whether id looks like an entity id of the domain: "<domain>.<object id>" with a
// lowercase object id made of letters, digits and underscores.
func validEntityID(id, domain string) bool {
	obj, ok := strings.CutPrefix(id, domain+".")
	if !ok || obj == "" {
		return false
	}
	for _, r := range obj {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// intAttribute reads an integer attribute as decoded from JSON (float64), or 0.
func intAttribute(v any) int {
	switch n := v.(type) {
	case float64:
		return int(n)
	case int:
		return n
	case json.Number:
		i, _ := n.Int64()
		return int(i)
	}
	return 0
}

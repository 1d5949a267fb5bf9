package homeassistant

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// PersistentNotification names Home Assistant's own notifications (the
// bell in its sidebar) as a target of Notify.
const PersistentNotification = "persistent_notification"

// Notification is a message for a person, with a link to open.
type Notification struct {
	Title   string
	Message string // said whole: it holds the link as text too
	URL     string // the link, which a phone's notification opens when tapped
	Open    string // the label of the button that opens URL
	// ID replaces an earlier notification of the same ID in Home
	// Assistant's own notifications; "" adds one more.
	ID string
}

// ValidNotifyTarget reports whether target can name where Notify sends:
// PersistentNotification, or notify.<name> (an action such as the companion
// app's notify.mobile_app_<phone>, or a notify entity).
func ValidNotifyTarget(target string) bool {
	return target == PersistentNotification || validEntityID(target, "notify")
}

// Notify sends n to target (see ValidNotifyTarget) through maison's user,
// a websocket call_service:
//
//   - PersistentNotification: persistent_notification.create.
//   - A notify entity (notify.<name> in the state cache): notify.send_message
//     with the entity as target. Home Assistant answers success for an
//     entity that does not exist, so an entity is taken only when its state
//     is known, and one that is unavailable fails with KindNotFound.
//   - Otherwise the notify action notify.<name>, with data the companion
//     app reads: url (iOS) and clickAction (Android) open URL when the
//     notification is tapped, and a URI action does from a button.
//
// Failures: KindNotFound (no such action or entity), KindNotAllowed,
// KindBadRequest (the action refuses the data), KindTimeout, and
// KindServerError for the action's own failure (a phone that cannot be
// reached), whose message is Home Assistant's, not to be shown to a person.
func (c *Client) Notify(ctx context.Context, target string, n Notification) error {
	op := "websocket call_service " + target
	if !ValidNotifyTarget(target) {
		return &Error{Kind: KindBadRequest, Op: op, Err: fmt.Errorf("%q is neither %s nor notify.<name>", target, PersistentNotification)}
	}
	if e := c.refusal(); e != nil {
		return e
	}
	msg := map[string]any{"type": "call_service"}
	switch st, entity := c.State(target); {
	case target == PersistentNotification:
		op = "websocket call_service persistent_notification.create"
		data := map[string]any{"title": n.Title, "message": n.Message}
		if n.ID != "" {
			data["notification_id"] = n.ID
		}
		msg["domain"], msg["service"], msg["service_data"] = "persistent_notification", "create", data
	case entity && st.State == "unavailable":
		return &Error{Kind: KindNotFound, Op: op, Err: errors.New("the notify entity is unavailable")}
	case entity:
		op = "websocket call_service notify.send_message " + target
		msg["domain"], msg["service"] = "notify", "send_message"
		msg["target"] = map[string]any{"entity_id": target}
		msg["service_data"] = map[string]any{"title": n.Title, "message": n.Message}
	default:
		data := map[string]any{"title": n.Title, "message": n.Message}
		if n.URL != "" {
			data["data"] = map[string]any{
				"url": n.URL, "clickAction": n.URL,
				"actions": []map[string]any{{"action": "URI", "title": n.Open, "uri": n.URL}},
			}
		}
		msg["domain"], msg["service"], msg["service_data"] = "notify", strings.TrimPrefix(target, "notify."), data
	}
	sess, err := c.liveSession(op)
	if err != nil {
		return err
	}
	ctx, cancel := c.requestContext(ctx)
	defer cancel()
	if _, err := sess.call(ctx, msg, nil); err != nil {
		return notifyError(op, err)
	}
	return nil
}

// notifyError gives a failed notification its Kind, from the code Home
// Assistant answered (measured on 2026.11: not_found "Service notify.x not
// found.", home_assistant_error with the action's own message,
// invalid_format for data it refuses).
func notifyError(op string, err error) error {
	ce, other := commandFailure(op, err)
	if ce == nil {
		return other
	}
	kind := KindServerError
	switch ce.Code {
	case "not_found":
		kind = KindNotFound
	case "unauthorized":
		kind = KindNotAllowed
	case "invalid_format", "service_validation_error":
		kind = KindBadRequest
	case "timeout":
		kind = KindTimeout
	}
	return &Error{Kind: kind, Op: op, Err: ce}
}

package demo

import "slices"

// Home Assistant's own notifications (persistent_notification.create),
// which every house has and any user may add to, as maison sends an
// approval link there. Notify actions and entities are the house's
// integrations': the demo has none, so notify.<name> is not found, as in
// a house without that phone.

// Notification is one entry of Home Assistant's own notifications.
type Notification struct {
	ID, Title, Message string
}

// Notifications returns the house's own notifications, oldest first; one
// created again under the same id replaces the first.
func (h *House) Notifications() []Notification {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Notification(nil), h.notes...)
}

// createNotification answers persistent_notification.create: Home
// Assistant refuses data without a message (invalid_format, as its
// schema does) and answers the call's context alone.
func (h *House) createNotification(c *wsConn, id int64, msg map[string]any) {
	data, _ := msg["service_data"].(map[string]any)
	message, ok := data["message"].(string)
	if !ok {
		c.fail(id, errInvalidFormat, "required key not provided @ data['message']")
		return
	}
	title, _ := data["title"].(string)
	nid, _ := data["notification_id"].(string)
	h.mu.Lock()
	n := Notification{ID: nid, Title: title, Message: message}
	if i := slices.IndexFunc(h.notes, func(n Notification) bool { return n.ID == nid }); nid != "" && i >= 0 {
		h.notes[i] = n
	} else {
		h.notes = append(h.notes, n)
	}
	ctxID := h.ulidLocked(h.now())
	h.mu.Unlock()
	c.result(id, map[string]any{"context": map[string]any{"id": ctxID, "parent_id": nil, "user_id": c.user.id}})
}

package demo

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// The demo house keeps a recorder, as Home Assistant does: every state an
// entity takes, with when. It starts with a plausible day placed before the
// house's start, so the last hours always hold something: a visitor at the
// front door let in and seen twice more, the garage opened and closed, a
// kitchen window left open, motion in the backyard, the porch camera
// unavailable for half an hour, and the unexposed shed's door opening too,
// which must never be told.

// recorded is one state an entity took.
type recorded struct {
	state string
	at    time.Time
}

// HistoryChange is a state an entity took at a time, for AddHistory.
type HistoryChange struct {
	State string
	At    time.Time
}

// AddHistory puts past states of an entity in the recorder, as if they had
// happened; the entity's current state is not changed. Tests and benchmarks
// use it to build a busy week.
func (h *House) AddHistory(entityID string, changes ...HistoryChange) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range changes {
		h.recordLocked(entityID, c.State, c.At)
	}
}

// SetRecorderAvailable(false) makes the history commands unknown, as when
// the recorder failed to start or is still starting. True restores them.
func (h *House) SetRecorderAvailable(ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.noRecorder = !ok
}

// SetRecorded(id, false) leaves an entity out of the recorder, as the
// recorder's exclude setting does: its past rows are dropped and none are
// kept, so history answers without it. True records it again from now on.
func (h *House) SetRecorded(entityID string, recorded bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if recorded {
		delete(h.notRecorded, entityID)
		return
	}
	if h.notRecorded == nil {
		h.notRecorded = map[string]bool{}
	}
	h.notRecorded[entityID] = true
	delete(h.recorder, entityID)
}

// HistoryAsked returns every entity id the history commands were asked
// about so far, in order.
func (h *House) HistoryAsked() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.historyAsked)
}

// recordLocked appends a state to the recorder, keeping each entity's
// states in time order. h.mu must be held.
func (h *House) recordLocked(id, state string, at time.Time) {
	if h.notRecorded[id] {
		return
	}
	if h.recorder == nil {
		h.recorder = map[string][]recorded{}
	}
	rs := h.recorder[id]
	i, _ := slices.BinarySearchFunc(rs, at, func(r recorded, t time.Time) int { return r.at.Compare(t) })
	if i > 0 && rs[i-1].state == state {
		return // not a change: the recorder keeps changes only
	}
	if i < len(rs) && rs[i].state == state {
		rs = slices.Delete(rs, i, i+1) // the same state from earlier on
	}
	h.recorder[id] = slices.Insert(rs, i, recorded{state: state, at: at})
}

// seedDay writes the plausible day before start. It runs once, in New,
// after the entities are built; the entities' current states are the day's
// last ones.
func (h *House) seedDay() {
	at := func(ago time.Duration) time.Time { return h.start.Add(-ago) }
	day := []struct {
		id    string
		state string
		ago   time.Duration
	}{
		// Overnight: movement in the backyard.
		{"binary_sensor.backyard_motion", "off", 24 * time.Hour},
		{"binary_sensor.backyard_motion", "on", 9*time.Hour + 12*time.Minute},
		{"binary_sensor.backyard_motion", "off", 9*time.Hour + 10*time.Minute},
		{"binary_sensor.backyard_motion", "on", 6 * time.Minute},
		{"binary_sensor.backyard_motion", "off", 4 * time.Minute},
		// The porch camera drops off the network for half an hour.
		{"camera.porch", "idle", 24 * time.Hour},
		{"camera.porch", "unavailable", 7 * time.Hour},
		{"camera.porch", "idle", 6*time.Hour + 30*time.Minute},
		// The garage opens and closes.
		{"cover.garage_door", "closed", 24 * time.Hour},
		{"cover.garage_door", "open", 5 * time.Hour},
		{"cover.garage_door", "closed", 4*time.Hour + 50*time.Minute},
		// A visitor at the front door, let in; seen twice more later.
		{"binary_sensor.front_door_person", "off", 24 * time.Hour},
		{"binary_sensor.front_door_person", "on", 3*time.Hour + 10*time.Minute},
		{"lock.front_door", "locked", 24 * time.Hour},
		{"lock.front_door", "unlocked", 3*time.Hour + 9*time.Minute},
		{"binary_sensor.front_door_person", "off", 3*time.Hour + 8*time.Minute},
		{"lock.front_door", "locked", 3*time.Hour + 5*time.Minute},
		{"binary_sensor.front_door_person", "on", 40 * time.Minute},
		{"binary_sensor.front_door_person", "off", 38 * time.Minute},
		{"binary_sensor.front_door_person", "on", 27 * time.Minute},
		{"binary_sensor.front_door_person", "off", 25 * time.Minute},
		// A kitchen window left open.
		{"binary_sensor.kitchen_window", "off", 24 * time.Hour},
		{"binary_sensor.kitchen_window", "on", 2 * time.Hour},
		// The shed's door: not exposed, never to be told.
		{"binary_sensor.shed_door", "off", 24 * time.Hour},
		{"binary_sensor.shed_door", "on", 1*time.Hour + 30*time.Minute},
		{"binary_sensor.shed_door", "off", 1*time.Hour + 20*time.Minute},
		// The kitchen light turned on and left on.
		{"light.kitchen", "off", 24 * time.Hour},
		{"light.kitchen", "on", 1 * time.Hour},
	}
	for _, d := range day {
		h.recordLocked(d.id, d.state, at(d.ago))
	}
	// Every other entity has held its state all day.
	for _, id := range h.order {
		if _, ok := h.recorder[id]; !ok {
			e := h.entities[id]
			h.recordLocked(id, e.cur.state, e.cur.lastChanged)
		}
	}
}

// historyDuringPeriod answers history/history_during_period in Home
// Assistant's compressed form: for each asked entity with rows in the
// period, its state at the start (when include_start_time_state) then every
// change, {"s","lu"} each (the first also "lc" when it differs), as a
// minimal response without attributes gives them. It checks no per-entity
// permission, as Home Assistant does not.
func (h *House) historyDuringPeriod(c *wsConn, id int64, msg map[string]any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.noRecorder {
		c.fail(id, errUnknownCmd, "Unknown command.")
		return
	}
	rawIDs, ok := msg["entity_ids"].([]any)
	if !ok || len(rawIDs) == 0 {
		c.fail(id, errInvalidFormat, "required key not provided @ data['entity_ids']. Got None")
		return
	}
	var ids []string
	for _, v := range rawIDs {
		s, _ := v.(string)
		d, o, _ := strings.Cut(s, ".")
		if d == "" || o == "" || strings.ContainsAny(s, " ") {
			c.fail(id, "invalid_entity_ids", "Invalid entity_ids")
			return
		}
		ids = append(ids, s)
	}
	h.historyAsked = append(h.historyAsked, ids...)
	start, err := parseHATime(msg["start_time"])
	if err != nil {
		c.fail(id, "invalid_start_time", "Invalid start_time")
		return
	}
	end := h.now()
	if _, set := msg["end_time"]; set {
		if end, err = parseHATime(msg["end_time"]); err != nil || end.Before(start) {
			c.fail(id, "invalid_end_time", "Invalid end_time")
			return
		}
	}
	withStart := true
	if v, ok := msg["include_start_time_state"].(bool); ok {
		withStart = v
	}
	out := map[string]any{}
	if start.After(h.now()) {
		c.result(id, out)
		return
	}
	for _, eid := range ids {
		var rows []any
		for i, r := range h.recorder[eid] {
			switch {
			case r.at.After(end):
			case r.at.Before(start) || r.at.Equal(start):
				// The state held at the start: the last one before it.
				if withStart && (i+1 == len(h.recorder[eid]) || h.recorder[eid][i+1].at.After(start)) {
					rows = append(rows, map[string]any{"s": r.state, "lu": unixFloat(start)})
				}
			default:
				rows = append(rows, map[string]any{"s": r.state, "lu": unixFloat(r.at)})
			}
		}
		if len(rows) > 0 {
			out[eid] = rows
		}
	}
	c.result(id, out)
}

// parseHATime reads a time as Home Assistant's dt_util.parse_datetime does
// for the history commands: ISO 8601, with an offset or Z.
func parseHATime(v any) (time.Time, error) {
	s, _ := v.(string)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999-07:00", "2006-01-02T15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("demo: not a time: %q", s)
}

// logbookGetEvents answers logbook/get_events as Home Assistant's websocket
// does: a list of state-change entries {when, state, entity_id} in time
// order, no name (the websocket leaves names out), for the entity ids asked
// or, with none, for every entity: no per-entity permission is checked, so
// a client must ask only for what it may tell. Entities with a unit of
// measurement or a state class are left out, as Home Assistant's logbook
// leaves out sensors; a future start_time gives [].
func (h *House) logbookGetEvents(c *wsConn, id int64, msg map[string]any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.noRecorder {
		c.fail(id, errUnknownCmd, "Unknown command.")
		return
	}
	start, err := parseHATime(msg["start_time"])
	if err != nil {
		c.fail(id, "invalid_start_time", "Invalid start_time")
		return
	}
	end := h.now()
	if _, set := msg["end_time"]; set {
		if end, err = parseHATime(msg["end_time"]); err != nil {
			c.fail(id, "invalid_end_time", "Invalid end_time")
			return
		}
	}
	var ids []string
	if raw, ok := msg["entity_ids"].([]any); ok {
		for _, v := range raw {
			if s, ok := v.(string); ok {
				ids = append(ids, s)
			}
		}
	} else {
		ids = slices.Sorted(maps.Keys(h.recorder))
	}
	h.historyAsked = append(h.historyAsked, ids...)
	type entry struct {
		when  time.Time
		state string
		id    string
	}
	var entries []entry
	for _, eid := range ids {
		if e, ok := h.entities[eid]; ok {
			if _, unit := e.cur.attrs["unit_of_measurement"]; unit {
				continue
			}
			if _, class := e.cur.attrs["state_class"]; class {
				continue
			}
		}
		for _, r := range h.recorder[eid] {
			if r.at.After(start) && !r.at.After(end) {
				entries = append(entries, entry{r.at, r.state, eid})
			}
		}
	}
	slices.SortStableFunc(entries, func(a, b entry) int { return a.when.Compare(b.when) })
	out := make([]any, 0, len(entries))
	if !start.After(h.now()) {
		for _, e := range entries {
			out = append(out, map[string]any{"when": unixFloat(e.when), "state": e.state, "entity_id": e.id})
		}
	}
	c.result(id, out)
}

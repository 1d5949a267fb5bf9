package homeassistant

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"
)

// State is one entity's state as Home Assistant reports it. Attributes is shared with the cache: read it, never
// modify it.
type State struct {
	EntityID    string
	State       string
	Attributes  map[string]any
	LastChanged time.Time
	LastUpdated time.Time
}

// Name returns the entity's friendly_name, or else its object id with underscores as spaces
// ("light.living_room" → "living room").
func (s State) Name() string {
	if n, ok := s.Attributes["friendly_name"].(string); ok && strings.TrimSpace(n) != "" {
		return n
	}
	obj := s.EntityID
	if i := strings.IndexByte(obj, '.'); i >= 0 {
		obj = obj[i+1:]
	}
	return strings.ReplaceAll(obj, "_", " ")
}

// entityEvent is one subscribe_entities event in HA's compressed form: "a" adds or replaces whole states,
// "c" changes existing ones, "r" removes them. One event may carry all three.
type entityEvent struct {
	Add    map[string]compressedState `json:"a"`
	Change map[string]compressedDiff  `json:"c"`
	Remove []string                   `json:"r"`
}

// compressedState is a full state: s state, a attributes, c context (string or object, ignored),
// lc/lu epoch seconds (lu only when it differs from lc).
type compressedState struct {
	State       *string         `json:"s"`
	Attributes  map[string]any  `json:"a"`
	Context     json.RawMessage `json:"c"`
	LastChanged *float64        `json:"lc"`
	LastUpdated *float64        `json:"lu"`
}

// compressedDiff holds "+" (values that changed; attributes merge) and "-" (attribute names removed).
type compressedDiff struct {
	Plus  *compressedState `json:"+"`
	Minus *struct {
		Attributes []string `json:"a"`
	} `json:"-,"` // "-," names the key "-" (a bare "-" tag would skip the field)
}

// epoch converts HA's float epoch seconds to a time, keeping microseconds.
func epoch(f float64) time.Time {
	if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e12 {
		return time.Time{}
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(math.Round(frac*1e6))*1e3).UTC()
}

// applyEvent applies ev to states in place. Attribute maps are never modified: a changed entity gets a new map,
// so State values handed out earlier stay valid. It returns whether anything changed and an error listing
// changes for unknown entities (which are skipped).
func applyEvent(states map[string]State, ev entityEvent) (bool, error) {
	changed := false
	for id, cs := range ev.Add {
		st := State{EntityID: id, Attributes: cs.Attributes}
		if st.Attributes == nil {
			st.Attributes = map[string]any{}
		}
		if cs.State != nil {
			st.State = *cs.State
		}
		if cs.LastChanged != nil {
			st.LastChanged = epoch(*cs.LastChanged)
			st.LastUpdated = st.LastChanged
		}
		if cs.LastUpdated != nil {
			st.LastUpdated = epoch(*cs.LastUpdated)
		}
		states[id] = st
		changed = true
	}
	var unknown []string
	for id, d := range ev.Change {
		st, ok := states[id]
		if !ok {
			unknown = append(unknown, id)
			continue
		}
		attrs := st.Attributes
		copied := false
		cow := func() {
			if !copied {
				n := make(map[string]any, len(attrs)+4)
				for k, v := range attrs {
					n[k] = v
				}
				attrs, copied = n, true
			}
		}
		if p := d.Plus; p != nil {
			if p.State != nil {
				st.State = *p.State
			}
			if len(p.Attributes) > 0 {
				cow()
				for k, v := range p.Attributes {
					attrs[k] = v
				}
			}
			if p.LastChanged != nil {
				st.LastChanged = epoch(*p.LastChanged)
				st.LastUpdated = st.LastChanged
			}
			if p.LastUpdated != nil {
				st.LastUpdated = epoch(*p.LastUpdated)
			}
		}
		if m := d.Minus; m != nil && len(m.Attributes) > 0 {
			cow()
			for _, k := range m.Attributes {
				delete(attrs, k)
			}
		}
		st.Attributes = attrs
		states[id] = st
		changed = true
	}
	for _, id := range ev.Remove {
		if _, ok := states[id]; ok {
			delete(states, id)
			changed = true
		}
	}
	if len(unknown) > 0 {
		return changed, fmt.Errorf("homeassistant: change for unknown entities %v", unknown)
	}
	return changed, nil
}

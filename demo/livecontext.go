package demo

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
)

// LiveEntity is one entity as Home Assistant's GetLiveContext lists it
// (homeassistant/llm.py, async_get_exposed_entities): its names and its
// area's names each joined with ", ", its domain, its state, and the
// attributes an assistant is shown.
type LiveEntity struct {
	Names  string
	Domain string
	State  string
	// Areas is the area's name then its aliases; "" leaves the key out, as
	// Home Assistant does for an entity in no area.
	Areas string
	// Attributes in the state's order; none leaves the key out.
	Attributes []LiveAttribute
}

// LiveAttribute is one attribute of a LiveEntity. Value is what Home
// Assistant hands to the YAML writer: a string (it turns ints, bools, enums
// and decimals into their str()), a float64, or nil for None.
type LiveAttribute struct {
	Key   string
	Value any
}

// LiveContextHeader is the first line of every GetLiveContext result.
const LiveContextHeader = "Live Context: An overview of the areas and the devices in this smart home:"

// LiveContext returns the text of a successful GetLiveContext result for
// ents, byte for byte as Home Assistant writes it: the header, a newline,
// then PyYAML's dump with Home Assistant's settings and its ": null"
// replacement.
func LiveContext(ents []LiveEntity) string {
	items := make([]yamlMap, 0, len(ents))
	for _, e := range ents {
		m := yamlMap{{"names", e.Names}, {"domain", e.Domain}, {"state", e.State}}
		if e.Areas != "" {
			m = append(m, yamlPair{"areas", e.Areas})
		}
		if len(e.Attributes) > 0 {
			attrs := make(yamlMap, 0, len(e.Attributes))
			for _, a := range e.Attributes {
				attrs = append(attrs, yamlPair{a.Key, liveValue(a.Value)})
			}
			m = append(m, yamlPair{"attributes", attrs})
		}
		items = append(items, m)
	}
	return LiveContextHeader + "\n" + haYAMLDump(items)
}

// liveValue is what Home Assistant's live context does to an attribute value
// before dumping it: ints and bools become their str(), floats and strings
// stay, None stays None.
func liveValue(v any) any {
	switch t := v.(type) {
	case nil, string, float64:
		return t
	case float32:
		return float64(t)
	}
	return pyStr(v)
}

// liveAttributes are the attributes GetLiveContext shows, in the order the
// house's integrations set them.
var liveAttributes = []string{"temperature", "current_temperature", "temperature_unit", "brightness", "humidity",
	"unit_of_measurement", "device_class", "current_position", "percentage", "volume_level",
	"media_title", "media_artist", "media_album_name"}

// liveEntitiesLocked lists the exposed entities as GetLiveContext does:
// sorted by name, calendars and scripts left out. h.mu must be held.
func (h *House) liveEntitiesLocked() []*entity {
	var out []*entity
	for _, id := range h.order {
		e := h.entities[id]
		if !e.exposed || entityDomain(id) == "calendar" || entityDomain(id) == "script" {
			continue
		}
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(a, b *entity) int { return cmp.Compare(a.stateName(), b.stateName()) })
	return out
}

// live describes e as GetLiveContext does. h.mu must be held.
func (h *House) liveLocked(e *entity) LiveEntity {
	names := append([]string{e.stateName()}, e.aliases...)
	le := LiveEntity{Names: strings.Join(names, ", "), Domain: entityDomain(e.id), State: e.cur.state}
	if le.Domain == "sensor" && e.precision != nil {
		le.State = roundedState(e.cur.state, *e.precision)
	}
	if a := h.areaByID(e.area); a != nil {
		le.Areas = strings.Join(append([]string{a.name}, sortedCopy(a.aliases)...), ", ")
	}
	for _, k := range liveAttributes {
		if v, ok := e.cur.attrs[k]; ok {
			le.Attributes = append(le.Attributes, LiveAttribute{k, v})
		}
	}
	// Tools take brightness as a percentage; Home Assistant adds it after
	// the attributes for a light whose brightness is an int.
	if b, ok := e.cur.attrs["brightness"].(int); ok && le.Domain == "light" {
		pct := int(math.RoundToEven(float64(b) / 255 * 100))
		if b > 0 {
			pct = max(pct, 1)
		}
		le.Attributes = append(le.Attributes, LiveAttribute{"brightness_pct", strconv.Itoa(pct)})
	}
	return le
}

// roundedState is the sensor's async_rounded_state: a state Python's float()
// reads, written with precision decimals and no negative zero ("z" format);
// any other state as it is.
func roundedState(state string, precision int) string {
	t := strings.TrimSpace(state)
	if strings.ContainsAny(t, "xX_") { // hex floats and digit groups: not Python's float() or not Go's
		return state
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return state
	}
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	out := strconv.FormatFloat(f, 'f', precision, 64)
	if strings.TrimLeft(out, "-0.") == "" {
		out = strings.TrimPrefix(out, "-")
	}
	return out
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

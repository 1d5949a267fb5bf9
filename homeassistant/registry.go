package homeassistant

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"maison/voice"
)

// Exposure says whether an entity is exposed to Assist, as far as a
// non-admin user can know it. Home Assistant keeps the choice of each entity
// that has a registry entry in the entry's options (conversation,
// should_expose), which any user may read; the choice for an entity without
// a registry entry lives in a store only administrators may read.
type Exposure int

const (
	// ExposureUnknown: no registry entry, no stored choice yet, or the
	// registry could not be read. maison treats it as not exposed.
	ExposureUnknown Exposure = iota
	// Exposed: the registry entry says the entity is exposed to Assist.
	Exposed
	// NotExposed: the registry entry says it is not, or the entity is disabled.
	NotExposed
)

// String returns "unknown", "exposed" or "not exposed".
func (x Exposure) String() string {
	switch x {
	case Exposed:
		return "exposed"
	case NotExposed:
		return "not exposed"
	}
	return "unknown"
}

// Entry is what the registries say of one entity.
type Entry struct {
	EntityID string
	// Area is the name of the entity's own area, else of its device's; "" when none.
	Area string
	// AreaAliases are the area's aliases, sorted as Home Assistant's live context sorts them.
	AreaAliases []string
	// Aliases are the entity's own aliases. They are read only for exposed
	// entities; AliasesKnown says whether they were.
	Aliases      []string
	AliasesKnown bool
	// Exposure is the entity's Assist exposure as stored in its registry entry.
	Exposure Exposure
}

// registries is what the area, device and entity registries say, by id.
type registries struct {
	areas    map[string]areaEntry // area_id → area
	devices  map[string]string    // device_id → area_id
	entities map[string]entityEntry
	// exposure is true when the full entity registry, options included, was
	// read; otherwise every entity's exposure is unknown.
	exposure bool
}

type entityEntry struct {
	area, device string
	exposure     Exposure
	aliases      []string
	aliasesKnown bool
}

type areaEntry struct {
	AreaID  string   `json:"area_id"`
	Name    string   `json:"name"`
	Aliases []string `json:"aliases"`
}

type deviceEntry struct {
	ID     string  `json:"id"`
	AreaID *string `json:"area_id"`
}

// listEntry is one element of config/entity_registry/list (as_partial_dict),
// or of the compact list_for_display form (ei, ai, di).
type listEntry struct {
	EntityID   string  `json:"entity_id"`
	AreaID     *string `json:"area_id"`
	DeviceID   *string `json:"device_id"`
	DisabledBy *string `json:"disabled_by"`
	Options    *struct {
		Conversation *struct {
			ShouldExpose *bool `json:"should_expose"`
		} `json:"conversation"`
	} `json:"options"`

	DisplayID     string  `json:"ei"`
	DisplayArea   *string `json:"ai"`
	DisplayDevice *string `json:"di"`
}

// areaAndAliases returns the name and sorted aliases of the entity's area:
// its own, else its device's.
func (r registries) areaAndAliases(entityID string) (string, []string) {
	e, ok := r.entities[entityID]
	if !ok {
		return "", nil
	}
	id := e.area
	if id == "" && e.device != "" {
		id = r.devices[e.device]
	}
	a, ok := r.areas[id]
	if id == "" || !ok {
		return "", nil
	}
	return a.Name, a.Aliases
}

// areaOf returns the area name for an entity: its own area, else its device's area.
func (r registries) areaOf(entityID string) string {
	name, _ := r.areaAndAliases(entityID)
	return name
}

// entry returns what the registries say of one entity, and whether it has a registry entry.
func (r registries) entry(entityID string) (Entry, bool) {
	e, ok := r.entities[entityID]
	if !ok {
		return Entry{EntityID: entityID}, false
	}
	area, aliases := r.areaAndAliases(entityID)
	out := Entry{EntityID: entityID, Area: area, AreaAliases: aliases, Exposure: e.exposure,
		Aliases: slices.Clone(e.aliases), AliasesKnown: e.aliasesKnown}
	if !r.exposure {
		out.Exposure = ExposureUnknown
	}
	return out, true
}

// parseRegistries builds registries from the raw results of
// config/area_registry/list, config/device_registry/list and the entity
// registry: config/entity_registry/list (with each entry's options), or the
// compact config/entity_registry/list_for_display (an object with an
// "entities" array, or a bare array), which says nothing of exposure.
func parseRegistries(areasRaw, devicesRaw, entitiesRaw json.RawMessage) (registries, error) {
	r := registries{areas: map[string]areaEntry{}, devices: map[string]string{}, entities: map[string]entityEntry{}}
	var areas []areaEntry
	if err := json.Unmarshal(areasRaw, &areas); err != nil {
		return r, fmt.Errorf("homeassistant: area registry: %w", err)
	}
	for _, a := range areas {
		a.Aliases = slices.Clone(a.Aliases)
		slices.Sort(a.Aliases)
		r.areas[a.AreaID] = a
	}
	var devices []deviceEntry
	if err := json.Unmarshal(devicesRaw, &devices); err != nil {
		return r, fmt.Errorf("homeassistant: device registry: %w", err)
	}
	for _, d := range devices {
		if d.AreaID != nil {
			r.devices[d.ID] = *d.AreaID
		}
	}
	var list []listEntry
	trimmed := strings.TrimSpace(string(entitiesRaw))
	if strings.HasPrefix(trimmed, "[") {
		if err := json.Unmarshal(entitiesRaw, &list); err != nil {
			return r, fmt.Errorf("homeassistant: entity registry: %w", err)
		}
	} else {
		var obj struct {
			Entities []listEntry `json:"entities"`
		}
		if err := json.Unmarshal(entitiesRaw, &obj); err != nil {
			return r, fmt.Errorf("homeassistant: entity registry: %w", err)
		}
		list = obj.Entities
	}
	full := len(list) > 0
	for _, e := range list {
		id, area, device := e.EntityID, e.AreaID, e.DeviceID
		if id == "" { // the compact form
			id, area, device = e.DisplayID, e.DisplayArea, e.DisplayDevice
			full = false
		}
		if id == "" {
			continue
		}
		ent := entityEntry{exposure: ExposureUnknown}
		if area != nil {
			ent.area = *area
		}
		if device != nil {
			ent.device = *device
		}
		switch {
		case e.DisabledBy != nil:
			ent.exposure = NotExposed // a disabled entity has no state and is never exposed
		case e.Options != nil && e.Options.Conversation != nil && e.Options.Conversation.ShouldExpose != nil:
			ent.exposure = NotExposed
			if *e.Options.Conversation.ShouldExpose {
				ent.exposure = Exposed
			}
		}
		r.entities[id] = ent
	}
	r.exposure = full
	return r, nil
}

// addAliases records the aliases that config/entity_registry/get_entries
// returned ({entity_id: extended entry or null}). Home Assistant may keep a
// null in an alias list where the entity's own name goes; it is skipped.
func (r registries) addAliases(raw json.RawMessage) error {
	var got map[string]*struct {
		Aliases []*string `json:"aliases"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		return fmt.Errorf("homeassistant: entity registry entries: %w", err)
	}
	for id, x := range got {
		e, ok := r.entities[id]
		if !ok || x == nil {
			continue
		}
		e.aliases = nil
		for _, a := range x.Aliases {
			if a != nil && strings.TrimSpace(*a) != "" {
				e.aliases = append(e.aliases, *a)
			}
		}
		e.aliasesKnown = true
		r.entities[id] = e
	}
	return nil
}

// loadRegistries reads the area, device and entity registries, then the
// aliases of the exposed entities. The full entity registry carries each
// entry's Assist exposure; where Home Assistant refuses it, the compact
// display list still gives areas, and exposure stays unknown.
func loadRegistries(ctx context.Context, sess *session) (registries, error) {
	areas, err := sess.call(ctx, map[string]any{"type": "config/area_registry/list"}, nil)
	if err != nil {
		return registries{}, err
	}
	devices, err := sess.call(ctx, map[string]any{"type": "config/device_registry/list"}, nil)
	if err != nil {
		return registries{}, err
	}
	entities, err := sess.call(ctx, map[string]any{"type": "config/entity_registry/list"}, nil)
	if refusedCommand(err) {
		entities, err = sess.call(ctx, map[string]any{"type": "config/entity_registry/list_for_display"}, nil)
	}
	if err != nil {
		return registries{}, err
	}
	reg, err := parseRegistries(areas, devices, entities)
	if err != nil {
		return registries{}, &Error{Kind: KindProtocol, Op: "websocket registries", Err: err}
	}
	var exposed []string
	for id, e := range reg.entities {
		if e.exposure == Exposed {
			exposed = append(exposed, id)
		}
	}
	if len(exposed) == 0 {
		return reg, nil
	}
	slices.Sort(exposed)
	raw, err := sess.call(ctx, map[string]any{"type": "config/entity_registry/get_entries", "entity_ids": exposed}, nil)
	switch {
	case refusedCommand(err):
		return reg, nil // aliases stay unknown: matching falls back to names alone, and fails closed
	case err != nil:
		return registries{}, err
	}
	if err := reg.addAliases(raw); err != nil {
		return registries{}, &Error{Kind: KindProtocol, Op: "websocket registries", Err: err}
	}
	return reg, nil
}

// AreaCalled finds the areas that name names, as Home Assistant's intents
// find them: by name, alias or id, compared as Home Assistant compares
// names. One word can name two areas (an area renamed keeps its id, and a
// new one takes the old name), and Home Assistant then acts on both, so
// every one is given: each area's name then its aliases, areas in id order.
// found says whether any area matched; known is false when the area
// registry could not be read, and then nothing can be said either way.
func (c *Client) AreaCalled(name string) (names []string, found, known bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.reg.areas == nil {
		return nil, false, false
	}
	want := voice.Loose(name)
	for _, id := range slices.Sorted(maps.Keys(c.reg.areas)) {
		a := c.reg.areas[id]
		match := voice.Loose(a.Name) == want || id == strings.TrimSpace(name)
		for _, al := range a.Aliases {
			match = match || voice.Loose(al) == want
		}
		if match {
			names = append(append(names, a.Name), a.Aliases...)
		}
	}
	return names, names != nil, true
}

package demo

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// Entity describes an entity for Add: what a hostile or unusual house holds
// (a device's own name, an integration's state text, an owner's aliases).
type Entity struct {
	ID         string         // required: "light.desk", "camera.gate"
	Name       string         // friendly_name; empty leaves none, as Home Assistant then says the object id
	Aliases    []string       // the registry entry's aliases
	Area       string         // an area's name or id; a new name makes a new area
	State      string         // the state text, whatever it holds
	Attributes map[string]any // besides friendly_name
	Exposed    bool           // exposed to Assist (conversation)
	// Unregistered gives the entity no registry entry, as entities defined
	// in YAML have none: its exposure is then kept where only administrators
	// may read it, and it has no area.
	Unregistered bool
	// Unstored leaves the registry entry without an exposure choice until a
	// GetLiveContext call makes Home Assistant store one.
	Unstored bool
}

// Add puts an entity in the house, replacing one with the same id, and
// pushes it to subscribers. A camera entity serves a picture of its own,
// with its name drawn on it, and its own sentence from the AI task.
func (h *House) Add(spec Entity) error {
	domain, object, ok := strings.Cut(spec.ID, ".")
	if !ok || domain == "" || object == "" {
		return fmt.Errorf("demo: %q is not an entity id", spec.ID)
	}
	if spec.Unregistered && spec.Area != "" {
		return errors.New("demo: an entity without a registry entry has no area")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	e := &entity{id: spec.ID, name: spec.Name, made: spec.Name, platform: "demo", exposed: spec.Exposed,
		aliases: slices.Clone(spec.Aliases), registered: !spec.Unregistered, unstored: spec.Unstored}
	if spec.Area != "" {
		e.area, e.regArea = h.areaIDLocked(spec.Area), true
	}
	attrs := maps.Clone(spec.Attributes)
	if attrs == nil {
		attrs = map[string]any{}
	}
	if domain == "camera" {
		c := &camera{id: spec.ID, name: cmpOr(spec.Name, object), token: randomHex(32),
			spec: camSpec{w: 1280, h: 720, kind: sceneShed, on: spec.State != "off", brand: "Demo Optics", model: "Mini S1", stream: "hls"}}
		h.cams[spec.ID] = c
		for k, v := range cameraAttributes(c) {
			if _, set := attrs[k]; !set {
				attrs[k] = v
			}
		}
	}
	if spec.Name != "" {
		attrs["friendly_name"] = spec.Name
	}
	if old, ok := h.entities[spec.ID]; ok {
		e.prev = old.cur
	} else {
		h.order = append(h.order, spec.ID)
	}
	now := h.now()
	e.cur = &snap{state: spec.State, attrs: attrs, lastChanged: now, lastUpdated: now, lastReported: now, ctxID: h.ulidLocked(now)}
	h.entities[spec.ID] = e
	h.notifyLocked(e)
	if e.registered {
		h.registryUpdatedLocked("create", spec.ID)
	}
	return nil
}

// SetExposed changes whether an entity is exposed to Assist, as an
// administrator does under Settings, Voice assistants, Expose. For an entity
// with a registry entry the choice is stored there and registry subscribers
// are told.
func (h *House) SetExposed(entityID string, exposed bool) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	e, ok := h.entities[entityID]
	if !ok {
		return fmt.Errorf("demo: no entity %s", entityID)
	}
	e.exposed, e.unstored = exposed, false
	if e.registered {
		h.registryUpdatedLocked("update", entityID)
	}
	return nil
}

// SetAreaAliases gives an area (by name or id) its aliases.
func (h *House) SetAreaAliases(areaName string, aliases ...string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := range h.areas {
		if h.areas[i].namedAs(areaName) {
			h.areas[i].aliases = slices.Clone(aliases)
			h.areaUpdatedLocked(h.areas[i].id)
			return nil
		}
	}
	return fmt.Errorf("demo: no area %s", areaName)
}

// RenameArea gives an area (by its id) a new name, as an administrator
// renames it under Settings, Areas: its id stays what it was, so the old
// name still names it as an id.
func (h *House) RenameArea(areaID, name string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	a := h.areaByID(areaID)
	if a == nil {
		return fmt.Errorf("demo: no area with id %s", areaID)
	}
	a.name = name
	h.areaUpdatedLocked(areaID)
	return nil
}

// AddFloor adds a floor with its aliases and puts the areas given (by id)
// on it, as an administrator does under Settings, Areas.
func (h *House) AddFloor(id, name string, aliases []string, areaIDs ...string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, f := range h.floors {
		if f.id == id {
			return fmt.Errorf("demo: a floor with id %s exists", id)
		}
	}
	for _, a := range areaIDs {
		if h.areaByID(a) == nil {
			return fmt.Errorf("demo: no area with id %s", a)
		}
	}
	h.floors = append(h.floors, floor{id: id, name: name, aliases: slices.Clone(aliases)})
	h.sendRegistryEventLocked("floor_registry_updated", map[string]any{"action": "create", "floor_id": id})
	for _, a := range areaIDs {
		h.areaByID(a).floor = id
		h.areaUpdatedLocked(a)
	}
	return nil
}

// areaIDLocked returns the id of the area named name (or with that id),
// making the area when there is none. h.mu must be held.
func (h *House) areaIDLocked(name string) string {
	for i := range h.areas {
		if h.areas[i].namedAs(name) {
			return h.areas[i].id
		}
	}
	id := strings.Trim(strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, strings.ToLower(name)), "_")
	if id == "" || h.areaByID(id) != nil {
		id = "area_" + randomHex(4)
	}
	h.areas = append(h.areas, area{id: id, name: name})
	h.areaUpdatedLocked(id)
	return id
}

// cameraAttributes are a camera entity's state attributes.
func cameraAttributes(c *camera) map[string]any {
	return map[string]any{
		"access_token":         c.token,
		"entity_picture":       "/api/camera_proxy/" + c.id + "?token=" + c.token,
		"brand":                c.spec.brand,
		"model_name":           c.spec.model,
		"motion_detection":     c.spec.kind != scenePorch,
		"frontend_stream_type": c.spec.stream,
		"supported_features":   2, // CameraEntityFeature.STREAM
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// storeExposureLocked stores an exposure choice in every registry entry that
// had none, as Home Assistant's async_should_expose does the first time it
// evaluates an entity, and tells registry subscribers. h.mu must be held.
func (h *House) storeExposureLocked() {
	for _, id := range h.order {
		if e := h.entities[id]; e.registered && e.unstored {
			e.unstored = false
			h.registryUpdatedLocked("update", id)
		}
	}
}

// entityList is config/entity_registry/list: every registry entry, as
// RegistryEntry.as_partial_dict, with the Assist exposure in its options.
func (h *House) entityList() []any {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := []any{}
	for _, id := range h.order {
		if e := h.entities[id]; e.registered {
			out = append(out, h.partialEntryLocked(e))
		}
	}
	return out
}

// registryEntry is config/entity_registry/get for one entity: the partial
// entry plus its aliases and device classes. ok is false without an entry.
func (h *House) registryEntry(entityID string) (map[string]any, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	e, ok := h.entities[entityID]
	if !ok || !e.registered {
		return nil, false
	}
	m := h.partialEntryLocked(e)
	// Home Assistant keeps the entity's computed name as a null among its
	// aliases; where it would not be the state's name, the owner gave the
	// state's name in its place.
	var first any
	if !e.computedIsName() {
		first = e.stateName()
	}
	m["aliases"] = append([]any{first}, anySlice(e.aliases)...)
	m["capabilities"] = nil
	m["device_class"] = nil
	m["original_device_class"] = e.cur.attrs["device_class"]
	m["original_icon"] = nil
	return m, true
}

func (h *House) partialEntryLocked(e *entity) map[string]any {
	options := map[string]any{}
	if !e.unstored {
		options["conversation"] = map[string]any{"should_expose": e.exposed}
	}
	if e.precision != nil {
		options["sensor"] = map[string]any{"suggested_display_precision": *e.precision}
	}
	var area any
	if e.regArea && e.area != "" {
		area = e.area
	}
	t := h.registryTime()
	return map[string]any{
		"area_id": area, "categories": map[string]any{}, "config_entry_id": stableHex("entry:" + e.platform),
		"config_subentry_id": nil, "created_at": t, "device_id": nilIfEmpty(e.device), "disabled_by": nil,
		"entity_category": nil, "entity_id": e.id, "hidden_by": nil, "icon": nil,
		"id": stableHex("entry:" + e.id), "labels": []string{}, "modified_at": t, "name": e.ownName(), "next_name_part": e.nextNamePart(),
		"options": options, "original_name": nilIfEmpty(e.made), "platform": e.platform,
		"translation_key": nil, "unique_id": stableHex("unique:" + e.id),
	}
}

// registryUpdatedLocked tells entity_registry_updated subscribers that an
// entry changed. h.mu must be held.
func (h *House) registryUpdatedLocked(action, entityID string) {
	h.sendRegistryEventLocked("entity_registry_updated", map[string]any{"action": action, "entity_id": entityID})
}

// areaUpdatedLocked tells area_registry_updated subscribers. h.mu must be held.
func (h *House) areaUpdatedLocked(areaID string) {
	h.sendRegistryEventLocked("area_registry_updated", map[string]any{"action": "update", "area_id": areaID})
}

func (h *House) sendRegistryEventLocked(eventType string, data map[string]any) {
	now := h.now()
	for c := range h.conns {
		c.mu.Lock()
		for sub, et := range c.regSubs {
			if et != eventType {
				continue
			}
			b, _ := marshal(map[string]any{"id": sub, "type": "event", "event": map[string]any{
				"event_type": eventType, "data": data, "origin": "LOCAL", "time_fired": isoTime(now),
				"context": map[string]any{"id": h.ulidLocked(now), "parent_id": nil, "user_id": nil},
			}})
			c.out = append(c.out, b)
		}
		c.mu.Unlock()
		c.poke()
	}
}

// registryTime is when the house's registry entries say they were created
// and last changed: a month before the house started.
func (h *House) registryTime() float64 { return unixFloat(h.start.Add(-30 * 24 * time.Hour)) }

func anySlice(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

// ownName is the registry entry's name: the owner's, once renamed; nil else.
func (e *entity) ownName() any {
	if e.renamed() {
		return e.stateName()
	}
	return nil
}

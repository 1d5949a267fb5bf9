package homeassistant

import (
	"context"
	"encoding/json"
	"fmt"
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
	// Computed says whether its computed name is among the names Home
	// Assistant matches it by (a null in its alias list, there by default).
	Computed bool
	// Exposure is the entity's Assist exposure as stored in its registry entry.
	Exposure Exposure
}

// registries is what the floor, area, device and entity registries say, by id.
type registries struct {
	floors   map[string]floorEntry     // floor_id → floor; nil when the floor registry could not be read
	areas    map[string]areaEntry      // area_id → area
	devices  map[string]string         // device_id → area_id
	parents  map[string]string         // device_id → parent_device_id, for a child device
	named    map[string]RegistryDevice // device_id → its names
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
	// names are the aliases as Home Assistant keeps them, in order, the
	// computed name among them where it stands (a null in the list).
	names []Alias
	// own is what the computed name is made of, read with the aliases.
	own OwnName
	// rawNull marks, for each alias as Home Assistant lists it, the null
	// that stands for the computed name.
	rawNull []bool
}

type areaEntry struct {
	AreaID  string   `json:"area_id"`
	Name    string   `json:"name"`
	Aliases []string `json:"aliases"`
	FloorID *string  `json:"floor_id"`
}

type floorEntry struct {
	FloorID string   `json:"floor_id"`
	Name    string   `json:"name"`
	Aliases []string `json:"aliases"`
}

type deviceEntry struct {
	ID           string  `json:"id"`
	AreaID       *string `json:"area_id"`
	ParentID     *string `json:"parent_device_id"`
	Name         *string `json:"name"`
	NameByUser   *string `json:"name_by_user"`
	NextNamePart *string `json:"next_name_part"`
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
		Aliases: slices.Clone(e.aliases), AliasesKnown: e.aliasesKnown,
		Computed: slices.ContainsFunc(e.rawNull, func(b bool) bool { return b })}
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
	r := registries{areas: map[string]areaEntry{}, devices: map[string]string{}, parents: map[string]string{},
		named: map[string]RegistryDevice{}, entities: map[string]entityEntry{}}
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
		if d.ParentID != nil && *d.ParentID != "" {
			r.parents[d.ID] = *d.ParentID
		}
		r.named[d.ID] = RegistryDevice{Name: deref(d.Name), NameByUser: deref(d.NameByUser), NextNamePart: deref(d.NextNamePart)}
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
		Aliases      []*string `json:"aliases"`
		DeviceID     *string   `json:"device_id"`
		Name         *string   `json:"name"`
		OriginalName *string   `json:"original_name"`
		NextNamePart *string   `json:"next_name_part"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		return fmt.Errorf("homeassistant: entity registry entries: %w", err)
	}
	for id, x := range got {
		e, ok := r.entities[id]
		if !ok || x == nil {
			continue
		}
		e.aliases, e.names, e.rawNull = nil, nil, nil
		// Without a device, the computed name is the entity's own: the
		// name the owner gave, else the integration's (entity_registry.py,
		// _async_get_full_entity_name). With one it takes parts a non-admin
		// user cannot read, and stays unknown here.
		computed := Alias{Computed: true}
		if x.DeviceID == nil || *x.DeviceID == "" {
			switch {
			case x.Name != nil:
				computed = Alias{Text: *x.Name}
			case x.OriginalName != nil:
				computed = Alias{Text: *x.OriginalName}
			default:
				computed = Alias{}
			}
		}
		for _, a := range x.Aliases {
			e.rawNull = append(e.rawNull, a == nil)
			if a == nil {
				e.names = append(e.names, computed)
				continue
			}
			e.names = append(e.names, Alias{Text: *a})
			if strings.TrimSpace(*a) != "" {
				e.aliases = append(e.aliases, *a)
			}
		}
		e.aliasesKnown = true
		e.own = OwnName{Name: x.Name, OriginalName: x.OriginalName, NextNamePart: deref(x.NextNamePart)}
		r.entities[id] = e
	}
	return nil
}

// loadRegistries reads the floor, area, device and entity registries, then
// the aliases of the exposed entities. A Home Assistant without floors (before
// 2024.4) leaves them unknown. The full entity registry carries each
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
	switch floors, err := sess.call(ctx, map[string]any{"type": "config/floor_registry/list"}, nil); {
	case refusedCommand(err):
	case err != nil:
		return registries{}, err
	default:
		var list []floorEntry
		if err := json.Unmarshal(floors, &list); err != nil {
			return registries{}, &Error{Kind: KindProtocol, Op: "websocket registries", Err: fmt.Errorf("homeassistant: floor registry: %w", err)}
		}
		reg.floors = map[string]floorEntry{}
		for _, f := range list {
			reg.floors[f.FloorID] = f
		}
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

// Area is one area of the area registry.
type Area struct {
	ID      string
	Name    string
	Aliases []string // sorted
	Floor   string   // its floor's id, "" for none
}

// namedAs reports whether word names something with this id, name and
// aliases as Home Assistant's intents take it (helpers/intent.py,
// find_areas and find_floors): its id, or its name or one of its aliases
// once both are stripped and casefolded. Names are compared with
// voice.Loose, which takes every name Home Assistant takes, and an id also
// with spaces around it, so that nothing Home Assistant would reach is
// left out.
func namedAs(word, id, name string, aliases []string) bool {
	want := voice.Loose(word)
	return id == word || id == strings.TrimSpace(word) || voice.Loose(name) == want ||
		slices.ContainsFunc(aliases, func(a string) bool { return voice.Loose(a) == want })
}

// AreasReached returns every area a call's area and floor words reach, as
// Home Assistant's async_match_targets narrows them: each area of every
// floor the floor word names (find_floors), then, of those, every area the
// area word names (find_areas); either word may be empty. Home Assistant
// acts on all of them, not on the first. The areas come sorted by id. known
// is false when the registries needed could not be read, and then nothing
// can be said either way.
func (c *Client) AreasReached(area, floor string) (areas []Area, known bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.reg.areas == nil || floor != "" && c.reg.floors == nil {
		return nil, false
	}
	floors := map[string]bool{}
	for id, f := range c.reg.floors {
		if floor != "" && namedAs(floor, id, f.Name, f.Aliases) {
			floors[id] = true
		}
	}
	for id, a := range c.reg.areas {
		if floor != "" && (a.FloorID == nil || !floors[*a.FloorID]) {
			continue
		}
		if area != "" && !namedAs(area, id, a.Name, a.Aliases) {
			continue
		}
		areas = append(areas, Area{ID: id, Name: a.Name, Aliases: slices.Clone(a.Aliases)})
	}
	slices.SortFunc(areas, func(a, b Area) int { return strings.Compare(a.ID, b.ID) })
	return areas, true
}

// Alias is one of the names Home Assistant matches an entity by
// (entity_registry.async_get_entity_aliases): a name the owner gave, or the
// entity's computed full name, which Home Assistant keeps as a null in the
// list. Computed is set when that name could not be read (it joins parts of
// the device registry a non-admin user does not see).
type Alias struct {
	Computed bool
	Text     string // the name as stored, when not Computed
}

// Registry is a copy of what the registries say, for resolving a call's
// words as Home Assistant does.
type Registry struct {
	// Known is false while the registries are unread, stale (a change is
	// announced and not yet read) or read without each entry's exposure.
	Known bool
	// Stale is set while a change Home Assistant announced is being read.
	Stale bool
	// FloorsKnown is false when the floor registry could not be read.
	FloorsKnown bool
	Entities    map[string]RegistryEntity
	Devices     map[string]RegistryDevice
	Areas       map[string]Area // by id; Floor set
	Floors      map[string]Floor
}

// RegistryEntity is one entity registry entry.
type RegistryEntity struct {
	AreaID, DeviceID string
	Exposure         Exposure
	// Names are its aliases in order, the computed name where it stands;
	// NamesKnown is false when they were not read (an entity not exposed).
	Names      []Alias
	NamesKnown bool
	// Own is what its computed name is made of, as far as it can be read.
	Own OwnName
}

// OwnName is what Home Assistant builds an entity's computed name from
// (entity_registry.py, _async_get_full_entity_name), as a non-admin user
// reads it: whether the integration names the entity after its device
// (has_entity_name) and the unprefixed name it stored are not among it.
type OwnName struct {
	Name, OriginalName *string // the owner's name, the integration's
	NextNamePart       string  // "device" when the device's name comes first
}

// RegistryDevice is one device registry entry.
type RegistryDevice struct {
	AreaID           string
	ParentID         string // a child device's parent, "" for others
	Name, NameByUser string
	NextNamePart     string // "parent_device" when a child device's parent's name comes first
}

// Floor is one floor of the floor registry.
type Floor struct {
	ID      string
	Name    string
	Aliases []string
}

// Registry returns a copy of the registries as last read.
func (c *Client) Registry() Registry {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.reg
	out := Registry{
		Known: r.exposure && !c.regStale && r.areas != nil, Stale: c.regStale, FloorsKnown: r.floors != nil,
		Entities: make(map[string]RegistryEntity, len(r.entities)), Devices: make(map[string]RegistryDevice, len(r.devices)),
		Areas: make(map[string]Area, len(r.areas)), Floors: make(map[string]Floor, len(r.floors)),
	}
	for id, e := range r.entities {
		out.Entities[id] = RegistryEntity{AreaID: e.area, DeviceID: e.device, Exposure: e.exposure, Names: slices.Clone(e.names),
			NamesKnown: e.aliasesKnown, Own: e.own}
	}
	for id, d := range r.named {
		out.Devices[id] = d
	}
	for id, area := range r.devices {
		d := out.Devices[id]
		d.AreaID = area
		out.Devices[id] = d
	}
	for id, parent := range r.parents {
		d := out.Devices[id]
		d.ParentID = parent
		out.Devices[id] = d
	}
	for id, a := range r.areas {
		floor := ""
		if a.FloorID != nil {
			floor = *a.FloorID
		}
		out.Areas[id] = Area{ID: id, Name: a.Name, Aliases: slices.Clone(a.Aliases), Floor: floor}
	}
	for id, f := range r.floors {
		out.Floors[id] = Floor{ID: id, Name: f.Name, Aliases: slices.Clone(f.Aliases)}
	}
	return out
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

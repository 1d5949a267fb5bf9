package actions

import (
	"slices"
	"strconv"
	"strings"

	"maison/assist"
	"maison/homeassistant"
	"maison/internal/pystr"
)

// Knowing is what maison knows of a fact: yes, no, or that it cannot tell.
type Knowing int

// The three answers a fact can have.
const (
	Unknown Knowing = iota
	Yes
	No
)

// Entity is one entity as Home Assistant's target matching sees it
// (helpers/intent.py, async_match_targets), with what maison could not
// learn marked unknown.
type Entity struct {
	ID, Domain, State string
	// Name is the name Home Assistant gives the entity's state (State.name):
	// its friendly name, else its object id with spaces.
	Name string
	// Names are what a call's name is compared with: the aliases the owner
	// gave and the entity's computed name, stripped, in Home Assistant's
	// order (async_get_entity_aliases). NamesKnown is false when they could
	// not be read.
	Names      []string
	NamesKnown bool
	// AreaID is the entity's area (its own, else its device's, else its
	// parent device's); "" for none.
	AreaID      string
	DeviceClass string // the state's device_class attribute, "" when none
	Features    int    // the state's supported_features attribute
	// Members are the entities a scene or a group sets (its entity_id attribute).
	Members []string
	// MembersKnown is false when the entity_id attribute is not a list of ids.
	MembersKnown bool
	// Exposed says whether the entity is exposed to Assist.
	Exposed Knowing
}

// House is every entity with what matching needs of the registries.
type House struct {
	Entities []Entity
	Areas    []homeassistant.Area
	Floors   []homeassistant.Floor
	// AreasKnown and FloorsKnown are false when those registries could not
	// be read: no area or floor word can then be resolved.
	AreasKnown, FloorsKnown bool
}

// Entity returns the entity with id, if the house has it.
func (h House) Entity(id string) (Entity, bool) {
	i := slices.IndexFunc(h.Entities, func(e Entity) bool { return e.ID == id })
	if i < 0 {
		return Entity{}, false
	}
	return h.Entities[i], true
}

// Area returns the area with id.
func (h House) Area(id string) (homeassistant.Area, bool) {
	i := slices.IndexFunc(h.Areas, func(a homeassistant.Area) bool { return a.ID == id })
	if i < 0 {
		return homeassistant.Area{}, false
	}
	return h.Areas[i], true
}

// maxGroup bounds how many entities of one domain and area are tied to the
// live context by search; past it their computed names stay unknown.
const maxGroup = 64

// notListed are the domains the live context leaves out (calendars and
// scripts have tools of their own).
func notListed(domain string) bool { return domain == "calendar" || domain == "script" }

// BuildHouse puts together what matching needs, from the states (every
// entity), the registries, and the live context (what is exposed to Assist,
// each entity's names as Home Assistant matches them). Nothing is guessed:
//   - an entity's exposure is its registry entry's; an entity without one
//     is exposed when the live context must hold it, and not when it
//     cannot, else unknown;
//   - an entity's names are its aliases; its computed name, when Home
//     Assistant builds it from device parts maison cannot read, is read off
//     the live context where exactly one reading fits every entity of its
//     domain and area, else unknown.
func BuildHouse(states []homeassistant.State, reg homeassistant.Registry, live []assist.Entity) House {
	h := House{AreasKnown: reg.Known, FloorsKnown: reg.Known && reg.FloorsKnown}
	for _, a := range reg.Areas {
		h.Areas = append(h.Areas, a)
	}
	slices.SortFunc(h.Areas, func(a, b homeassistant.Area) int { return strings.Compare(a.ID, b.ID) })
	for _, f := range reg.Floors {
		h.Floors = append(h.Floors, f)
	}
	slices.SortFunc(h.Floors, func(a, b homeassistant.Floor) int { return strings.Compare(a.ID, b.ID) })

	type slot struct {
		i       int                   // index in h.Entities
		pattern []homeassistant.Alias // nil: a name maison knows whole (Names)
		// computed are the names Home Assistant could compute for it;
		// the reading of the live context must be one of them.
		computed []string
		open     bool // its names could be anything (not read)
	}
	groups := map[[2]string][]slot{}
	for _, st := range states {
		domain, _, _ := strings.Cut(st.EntityID, ".")
		e := Entity{ID: st.EntityID, Domain: domain, State: st.State, Name: stateName(st)}
		e.DeviceClass, _ = st.Attributes["device_class"].(string)
		e.Features = intAttr(st.Attributes["supported_features"])
		e.Members, e.MembersKnown = members(st.Attributes["entity_id"])
		en, registered := reg.Entities[st.EntityID]
		var s slot
		switch {
		case !reg.Known:
			e.Exposed = Unknown
			s.open = true
		case registered:
			e.AreaID = areaOf(reg, en)
			switch en.Exposure {
			case homeassistant.Exposed:
				e.Exposed = Yes
			case homeassistant.NotExposed:
				e.Exposed = No
			}
			switch {
			case !en.NamesKnown:
				s.open = true
			case slices.ContainsFunc(en.Names, func(a homeassistant.Alias) bool { return a.Computed }):
				s.pattern, s.computed = en.Names, computedNames(reg, en)
			default:
				for _, a := range en.Names {
					e.Names = append(e.Names, pystr.Strip(a.Text))
				}
				e.NamesKnown = true
			}
		default:
			// No registry entry: Home Assistant matches the state's name,
			// and keeps its exposure where only an administrator reads it.
			e.Names, e.NamesKnown = []string{pystr.Strip(e.Name)}, true
		}
		h.Entities = append(h.Entities, e)
		s.i = len(h.Entities) - 1
		if e.Exposed != No && !notListed(domain) {
			key := [2]string{domain, areasText(reg, e.AreaID)}
			groups[key] = append(groups[key], s)
		}
	}
	entries := map[[2]string][]string{}
	for _, l := range live {
		key := [2]string{l.Domain, l.AreasText}
		entries[key] = append(entries[key], l.NamesText)
	}
	for key, slots := range groups {
		texts := entries[key]
		if len(slots) > maxGroup || len(texts) > maxGroup || !reg.Known {
			continue
		}
		ents := make([]*Entity, len(slots))
		fits := make([][]fit, len(slots))
		for j, s := range slots {
			e := &h.Entities[s.i]
			ents[j] = e
			for t, text := range texts {
				switch {
				case s.open:
					fits[j] = append(fits[j], fit{entry: t})
				case s.pattern != nil:
					if c, ok := solve(text, s.pattern); ok && slices.Contains(s.computed, c) {
						fits[j] = append(fits[j], fit{entry: t, computed: c})
					}
				case strings.Join(e.Names, ", ") == text:
					fits[j] = append(fits[j], fit{entry: t})
				}
			}
		}
		required := make([]bool, len(slots))
		for j, e := range ents {
			required[j] = e.Exposed == Yes
		}
		if !complete(len(texts), fits, required, -1, -1) {
			continue // no reading fits at all (a change half read): nothing is concluded
		}
		possible, optional := tie(len(texts), fits, required)
		for j, s := range slots {
			e := ents[j]
			if e.Exposed == Unknown {
				switch {
				case len(possible[j]) == 0:
					e.Exposed = No
				case !optional[j]:
					e.Exposed = Yes
				}
			}
			if s.pattern == nil || len(possible[j]) == 0 {
				continue
			}
			c := possible[j][0].computed
			if slices.ContainsFunc(possible[j], func(f fit) bool { return f.computed != c }) {
				continue // more than one reading fits: its names stay unknown
			}
			for _, a := range s.pattern {
				if a.Computed {
					e.Names = append(e.Names, c)
				} else {
					e.Names = append(e.Names, pystr.Strip(a.Text))
				}
			}
			e.NamesKnown = true
		}
	}
	return h
}

// stateName is Home Assistant's State.name: the friendly name when it is a
// non-empty string, else the object id with spaces.
func stateName(st homeassistant.State) string {
	if n, ok := st.Attributes["friendly_name"].(string); ok && n != "" {
		return n
	}
	_, obj, _ := strings.Cut(st.EntityID, ".")
	return strings.ReplaceAll(obj, "_", " ")
}

func intAttr(v any) int {
	switch n := v.(type) {
	case float64:
		return int(n)
	case int:
		return n
	case string:
		i, _ := strconv.Atoi(n)
		return i
	}
	return 0
}

// members reads a scene's or a group's entity_id attribute.
func members(v any) ([]string, bool) {
	if v == nil {
		return nil, true
	}
	return stringList(v)
}

// areaOf is the area Home Assistant places an entity in for matching
// (_add_areas): its own, else its device's effective area (a child device
// without one takes its parent's).
func areaOf(reg homeassistant.Registry, en homeassistant.RegistryEntity) string {
	if en.AreaID != "" {
		return en.AreaID
	}
	d, ok := reg.Devices[en.DeviceID]
	if !ok {
		return ""
	}
	if d.AreaID != "" {
		return d.AreaID
	}
	if p, ok := reg.Devices[d.ParentID]; ok && d.ParentID != "" && p.ParentID == "" {
		return p.AreaID
	}
	return ""
}

// areasText is how the live context writes an area: its name, then its
// aliases sorted, joined with ", ".
func areasText(reg homeassistant.Registry, id string) string {
	a, ok := reg.Areas[id]
	if id == "" || !ok {
		return ""
	}
	return strings.Join(append([]string{a.Name}, a.Aliases...), ", ")
}

// solve reads the computed name out of a live context names text, given
// the entity's aliases: the text is the aliases joined with ", ", each
// computed one standing for the same name.
func solve(text string, pattern []homeassistant.Alias) (string, bool) {
	n, known := 0, 0
	for i, a := range pattern {
		if a.Computed {
			n++
		} else {
			known += len(pystr.Strip(a.Text))
		}
		if i > 0 {
			known += 2
		}
	}
	if n == 0 || (len(text)-known)%n != 0 || len(text) < known {
		return "", false
	}
	size := (len(text) - known) / n
	var b strings.Builder
	rest, c := text, ""
	for i, a := range pattern {
		if i > 0 {
			if !strings.HasPrefix(rest, ", ") {
				return "", false
			}
			rest = rest[2:]
		}
		part := pystr.Strip(a.Text)
		if a.Computed {
			part = rest[:min(size, len(rest))]
			if c == "" {
				c = part
			} else if part != c {
				return "", false
			}
		}
		if !strings.HasPrefix(rest, part) {
			return "", false
		}
		rest = rest[len(part):]
		b.WriteString(part)
	}
	return c, rest == ""
}

// fit is a live context entry an entity's words fit, with the computed
// name that reading gives.
type fit struct {
	entry    int
	computed string
}

// tie finds, for each entity, the entries it takes in some complete
// reading of the live context (every entry is one exposed entity, every
// entity known to be exposed is one entry), and whether it can also take
// none (an entity whose exposure is unknown). It relies on the
// Mendelsohn-Dulmage theorem: a matching covering every entry and one
// covering every required entity give one covering both.
func tie(entries int, fits [][]fit, required []bool) (possible [][]fit, optional []bool) {
	possible = make([][]fit, len(fits))
	optional = make([]bool, len(fits))
	for j := range fits {
		for _, f := range fits[j] {
			if complete(entries, fits, required, j, f.entry) {
				possible[j] = append(possible[j], f)
			}
		}
		if !required[j] && complete(entries, fits, required, j, -1) {
			optional[j] = true
		}
	}
	return possible, optional
}

// complete reports whether a complete reading exists with entity fixed
// taking entry taken (-1: taking none).
func complete(entries int, fits [][]fit, required []bool, fixed, taken int) bool {
	adj := make([][]int, len(fits))
	for j := range fits {
		if j == fixed {
			continue
		}
		for _, f := range fits[j] {
			if f.entry != taken {
				adj[j] = append(adj[j], f.entry)
			}
		}
	}
	need := entries
	if taken >= 0 {
		need--
	}
	// Every entry but the one taken is covered…
	if maxMatching(adj, entries, nil) < need {
		return false
	}
	// …and every required entity but the fixed one.
	only := make([]bool, len(fits))
	count := 0
	for j := range fits {
		if required[j] && j != fixed {
			only[j] = true
			count++
		}
	}
	return maxMatching(adj, entries, only) == count
}

// maxMatching is the size of a largest matching of the entities (those in
// only, when it is set) with entries, by augmenting paths.
func maxMatching(adj [][]int, entries int, only []bool) int {
	owner := make([]int, entries)
	for i := range owner {
		owner[i] = -1
	}
	var try func(j int, seen []bool) bool
	try = func(j int, seen []bool) bool {
		for _, t := range adj[j] {
			if seen[t] {
				continue
			}
			seen[t] = true
			if owner[t] < 0 || try(owner[t], seen) {
				owner[t] = j
				return true
			}
		}
		return false
	}
	n := 0
	for j := range adj {
		if only != nil && !only[j] {
			continue
		}
		if try(j, make([]bool, entries)) {
			n++
		}
	}
	return n
}

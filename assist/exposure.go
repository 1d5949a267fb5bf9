package assist

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"maison/homeassistant"
	"maison/words"
)

// Identity is what Home Assistant says of entities by id: their states and
// their registry entries, with the Assist exposure each entry stores.
type Identity interface {
	States() []homeassistant.State
	State(entityID string) (homeassistant.State, bool)
	Entry(entityID string) (homeassistant.Entry, bool)
	ExposureKnown() bool
}

// Doubt says why an entity of the live context could not be tied to an
// entity id, for the owner (maison check): never for an answer, since it
// may name entities that are not exposed.
type Doubt struct {
	Entity Entity
	Reason words.Doubt
	// Candidates are the entity ids whose words fit, exposed or not.
	Candidates []string
}

// Exposure is the house as exposed to Assist, resolved against identity.
type Exposure struct {
	// Entities are every entity of the live context, in its order. Those
	// tied to exactly one entity whose registry entry says exposed carry
	// their ID; the others are known by their words alone.
	Entities []Entity
	// Doubts explain each entity left without an ID.
	Doubts []Doubt
	// Unlisted are entity ids the registry says are exposed but that the
	// live context does not show under their words; they are never shown.
	Unlisted []string
}

// maxNames bounds how many names and aliases of one entity are tried in
// every order; an entity with more is never tied to its words.
const maxNames = 12

// Resolve ties each entity of the live context to an entity id, by identity.
// An entity is tied to id X only when:
//   - X is of the same domain, and its name and aliases, joined as Home
//     Assistant joins them (in any order), give the entity's names text, and
//     its area's name and aliases give the areas text;
//   - no other entity that might be exposed (any entity whose registry entry
//     does not say "not exposed", entities without an entry included) has
//     words that fit too, and no other entity of the live context fits X;
//   - X's registry entry says it is exposed. Where the registry cannot be
//     read at all, the state and device class must also agree.
//
// Anything else is a doubt, and the entity keeps only its words: it can be
// said, and it counts for confirmations, but it lends no picture, no state
// history and no websocket fact.
func Resolve(live []Entity, id Identity) Exposure {
	out := Exposure{Entities: slices.Clone(live)}
	if id == nil {
		for i, e := range live {
			out.Entities[i].Doubt = words.DoubtNoMatch
			out.Doubts = append(out.Doubts, Doubt{Entity: e, Reason: words.DoubtNoMatch})
		}
		return out
	}
	known := id.ExposureKnown()
	// Every rule below needs the entity's own name to be one of the parts
	// of the names text, so states are indexed by domain and name.
	type key struct{ domain, name string }
	byName := map[key][]homeassistant.State{}
	for _, st := range id.States() {
		d, _, _ := strings.Cut(st.EntityID, ".")
		k := key{d, st.Name()}
		byName[k] = append(byName[k], st)
	}
	entry := func(entityID string) (homeassistant.Entry, bool) { return id.Entry(entityID) }
	cands := make([][]homeassistant.State, len(live))
	claims := map[string]int{} // entity id → live entities it fits
	for i, e := range live {
		var near []homeassistant.State
		for _, n := range possibleNames(e.NamesText) {
			near = append(near, byName[key{e.Domain, n}]...)
		}
		for _, st := range near {
			en, registered := entry(st.EntityID)
			if registered && en.Exposure == homeassistant.NotExposed {
				continue
			}
			if fits(st, en, registered, known, e) {
				cands[i] = append(cands[i], st)
				claims[st.EntityID]++
			}
		}
	}
	tied := map[string]bool{}
	for i, e := range live {
		c := cands[i]
		ids := make([]string, len(c))
		for j, st := range c {
			ids[j] = st.EntityID
		}
		var reason words.Doubt
		switch {
		case len(c) == 0:
			reason = words.DoubtNoMatch
		case len(c) > 1 || claims[c[0].EntityID] > 1:
			reason = words.DoubtShared
		default:
			st := c[0]
			en, _ := entry(st.EntityID)
			switch {
			case known && en.Exposure == homeassistant.Exposed:
			case !known && agrees(st, e):
			case !known:
				reason = words.DoubtChanged
			default:
				reason = words.DoubtUnknownExposure
			}
		}
		if reason != 0 {
			out.Entities[i].Doubt = reason
			out.Doubts = append(out.Doubts, Doubt{Entity: e, Reason: reason, Candidates: ids})
			continue
		}
		st := c[0]
		en, _ := entry(st.EntityID)
		t := &out.Entities[i]
		t.ID = st.EntityID
		if en.AliasesKnown {
			t.Names = namesOf(st, en)
		}
		tied[st.EntityID] = true
	}
	if known {
		for _, st := range id.States() {
			if en, ok := entry(st.EntityID); ok && en.Exposure == homeassistant.Exposed && !tied[st.EntityID] && listable(st.EntityID) {
				out.Unlisted = append(out.Unlisted, st.EntityID)
			}
		}
	}
	return out
}

// namesOf are the names Home Assistant gives a registered entity whose
// aliases were read: the state's name where its computed name stands (as
// by default), then its aliases.
func namesOf(st homeassistant.State, en homeassistant.Entry) []string {
	if !en.Computed {
		return slices.Clone(en.Aliases)
	}
	return append([]string{st.Name()}, en.Aliases...)
}

// listable reports whether Home Assistant's live context lists an exposed
// entity of this domain (calendars and scripts have their own tools).
func listable(entityID string) bool {
	d, _, _ := strings.Cut(entityID, ".")
	return d != "calendar" && d != "script"
}

// fits reports whether the words of the live context entity e could be
// those of st: its names (and aliases, when known) joined as Home Assistant
// joins them, and its area's name and aliases.
func fits(st homeassistant.State, en homeassistant.Entry, registered, registryRead bool, e Entity) bool {
	name := st.Name()
	if registered && en.AliasesKnown {
		if len(en.Aliases) >= maxNames || !joinsAs(e.NamesText, namesOf(st, en)) {
			return false
		}
	} else if !hasPart(e.NamesText, name) {
		return false
	}
	if !registered && !registryRead {
		return true // nothing is known of areas
	}
	want := ""
	if en.Area != "" {
		want = strings.Join(append([]string{en.Area}, en.AreaAliases...), ", ")
	}
	return e.AreasText == want
}

// possibleNames lists every text that could be one name within a names
// text: each run of its ", "-separated pieces, since a name may hold ", "
// itself. A text of k pieces gives k(k+1)/2 runs; past maxNames pieces only
// single pieces and the whole text are tried.
func possibleNames(text string) []string {
	pieces := strings.Split(text, ", ")
	if len(pieces) > maxNames {
		return append(pieces, text)
	}
	out := make([]string, 0, len(pieces)*(len(pieces)+1)/2)
	for i := range pieces {
		for j := i + 1; j <= len(pieces); j++ {
			out = append(out, strings.Join(pieces[i:j], ", "))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// hasPart reports whether part is one of the ", "-separated parts of text,
// for some way of cutting it.
func hasPart(text, part string) bool {
	if part == "" {
		return false
	}
	return text == part || strings.HasPrefix(text, part+", ") || strings.HasSuffix(text, ", "+part) || strings.Contains(text, ", "+part+", ")
}

// joinsAs reports whether text is all of names, each once, in some order,
// joined with ", ". Positions already tried with the same names left are
// remembered, so names that overlap cannot make it slow.
func joinsAs(text string, names []string) bool {
	if len(names) > 30 {
		return false
	}
	type state struct {
		rest int    // bytes of text left
		used uint32 // names already placed
	}
	failed := map[state]bool{}
	var try func(rest string, used uint32, left int) bool
	try = func(rest string, used uint32, left int) bool {
		if left == 0 {
			return rest == ""
		}
		st := state{len(rest), used}
		if failed[st] {
			return false
		}
		for i, n := range names {
			if used&(1<<i) != 0 || !strings.HasPrefix(rest, n) {
				continue
			}
			after := rest[len(n):]
			if left > 1 {
				var ok bool
				if after, ok = strings.CutPrefix(after, ", "); !ok {
					continue
				}
			}
			if try(after, used|1<<i, left-1) {
				return true
			}
		}
		failed[st] = true
		return false
	}
	return try(text, 0, len(names))
}

// agrees reports whether the state and device class of st are those the
// live context gives e. Home Assistant rounds a sensor's state to its
// display precision there, so numbers agree within that rounding.
func agrees(st homeassistant.State, e Entity) bool {
	if dc, ok := e.Attributes["device_class"]; ok {
		if have, _ := st.Attributes["device_class"].(string); have != dc {
			return false
		}
	}
	if st.State == e.State {
		return true
	}
	a, errA := strconv.ParseFloat(st.State, 64)
	b, errB := strconv.ParseFloat(e.State, 64)
	if errA != nil || errB != nil {
		return false
	}
	decimals := 0
	if _, frac, ok := strings.Cut(e.State, "."); ok {
		decimals = len(frac)
	}
	return math.Abs(a-b) <= 0.5*math.Pow(10, -float64(decimals))+1e-9
}

// StateReader reads one entity's websocket state.
type StateReader interface {
	State(entityID string) (homeassistant.State, bool)
}

// FactsOf returns what is known of an exposed entity beyond its words: from
// its own websocket state when it is known by identity, else the device
// class its words give. An entity known by its words alone never borrows
// another entity's facts.
func FactsOf(states StateReader, e Entity) Facts {
	if e.ID != "" && states != nil {
		if st, ok := states.State(e.ID); ok {
			class, _ := st.Attributes["device_class"].(string)
			return Facts{DeviceClass: class, LastChanged: st.LastChanged}
		}
	}
	return Facts{DeviceClass: e.Attributes["device_class"]}
}

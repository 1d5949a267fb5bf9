package actions

import (
	"slices"

	"maison/internal/pystr"
)

// Call is the target of an intent call, as maison sends it: a text Home
// Assistant would drop as blank is "", a list not sent is nil.
type Call struct {
	Name, Area, Floor   string
	Domain, DeviceClass []string
}

// Failure says why Home Assistant matches nothing, in its own words
// (helpers/intent.py, MatchFailedReason), or that it refuses the call as a
// whole.
type Failure string

// The failures Match tells apart.
const (
	Matched          Failure = ""
	NoConstraints    Failure = "NO_CONSTRAINTS" // "Service handler cannot target all devices"
	FailDomain       Failure = "DOMAIN"
	FailInvalidArea  Failure = "INVALID_AREA"
	FailInvalidFloor Failure = "INVALID_FLOOR"
	FailDuplicate    Failure = "DUPLICATE_NAME"
	FailNothing      Failure = "NO_MATCH" // NAME, AREA, FLOOR, STATE, FEATURE, DEVICE_CLASS or ASSISTANT
)

// Match is what Home Assistant would act on for a call.
type Match struct {
	// IDs are the entities it acts on, sorted; none when it fails.
	IDs     []string
	Failure Failure
	// Unsure are entities maison cannot tell about (their exposure, names
	// or area unknown) that change the answer: when there are any, IDs and
	// Failure are not to be trusted and the call is not sent.
	Unsure []string
	// Unfoldable is set when a word of the call holds a code point Python's
	// folding may treat otherwise than maison's tables.
	Unfoldable bool
}

// Sure reports whether maison knows what the call reaches.
func (m Match) Sure() bool { return len(m.Unsure) == 0 && !m.Unfoldable }

type candidate struct {
	e     *Entity
	maybe bool
}

// Match resolves call for intent in, as Home Assistant's intent handler
// and async_match_targets do for a Model Context Protocol client (no
// device, so no preferred area; the conversation assistant's exposure):
// the name "all" means no name; the domains are the call's, else the
// intent's; then every filter in its order, exposure last but for the
// duplicate check, which fails a name that two exposed entities share.
func (h House) Match(in Intent, call Call) Match {
	name := call.Name
	if name == "all" {
		name = ""
	}
	domains := in.Domains
	if call.Domain != nil {
		domains = call.Domain
	}
	if name == "" && call.Area == "" && call.Floor == "" && len(domains) == 0 && len(call.DeviceClass) == 0 && in.Features == 0 && len(in.States) == 0 {
		return Match{Failure: NoConstraints}
	}
	var cands []candidate
	for i := range h.Entities {
		e := &h.Entities[i]
		if domains == nil || slices.Contains(domains, e.Domain) {
			cands = append(cands, candidate{e: e})
		}
	}
	if len(cands) == 0 {
		return Match{Failure: FailDomain}
	}
	keep := func(f func(candidate) Knowing) {
		out := cands[:0]
		for _, c := range cands {
			switch f(c) {
			case Yes:
				out = append(out, c)
			case Unknown:
				c.maybe = true
				out = append(out, c)
			}
		}
		cands = out
	}
	if len(in.States) > 0 {
		keep(func(c candidate) Knowing { return knowing(slices.Contains(in.States, c.e.State)) })
	}
	var m Match
	if name != "" {
		want, ok := pystr.Normalize(name)
		if !ok {
			return Match{Unfoldable: true}
		}
		keep(func(c candidate) Knowing {
			if c.e.ID == name {
				return Yes
			}
			if !c.e.NamesKnown {
				return Unknown
			}
			for _, n := range c.e.Names {
				got, ok := pystr.Normalize(n)
				if !ok {
					return Unknown
				}
				if got == want {
					return Yes
				}
			}
			return No
		})
	}
	if in.Features != 0 {
		keep(func(c candidate) Knowing { return knowing(c.e.Features&in.Features == in.Features) })
	}
	if len(call.DeviceClass) > 0 {
		keep(func(c candidate) Knowing {
			return knowing(c.e.DeviceClass != "" && slices.Contains(call.DeviceClass, c.e.DeviceClass))
		})
	}
	if call.Area != "" || call.Floor != "" {
		if !h.AreasKnown || call.Floor != "" && !h.FloorsKnown {
			return Match{Unsure: ids(cands)}
		}
		possible := map[string]bool{}
		for _, a := range h.Areas {
			possible[a.ID] = true
		}
		if call.Floor != "" {
			floors, sure := h.findFloors(call.Floor)
			if !sure {
				return Match{Unfoldable: true}
			}
			if len(floors) == 0 {
				return Match{Failure: FailInvalidFloor}
			}
			for id := range possible {
				a, _ := h.Area(id)
				possible[id] = a.Floor != "" && slices.Contains(floors, a.Floor)
			}
			keep(func(c candidate) Knowing { return knowing(possible[c.e.AreaID]) })
		}
		if call.Area != "" {
			areas, sure := h.findAreas(call.Area)
			if !sure {
				return Match{Unfoldable: true}
			}
			if len(areas) == 0 {
				return Match{Failure: FailInvalidArea}
			}
			for id := range possible {
				possible[id] = possible[id] && slices.Contains(areas, id)
			}
			keep(func(c candidate) Knowing { return knowing(possible[c.e.AreaID]) })
		}
	}
	keep(func(c candidate) Knowing { return c.e.Exposed })
	sure, maybe := 0, 0
	for _, c := range cands {
		if c.maybe {
			maybe++
		} else {
			sure++
		}
	}
	switch {
	case name != "" && sure >= 2:
		return Match{Failure: FailDuplicate}
	case maybe > 0:
		for _, c := range cands {
			if c.maybe {
				m.Unsure = append(m.Unsure, c.e.ID)
			}
		}
		slices.Sort(m.Unsure)
		return m
	case sure == 0:
		return Match{Failure: FailNothing}
	}
	m.IDs = ids(cands)
	return m
}

func ids(cands []candidate) []string {
	out := make([]string, len(cands))
	for i, c := range cands {
		out[i] = c.e.ID
	}
	slices.Sort(out)
	return out
}

func knowing(b bool) Knowing {
	if b {
		return Yes
	}
	return No
}

// findAreas is Home Assistant's find_areas: every area whose id is word,
// or whose name or an alias is word once both are stripped and casefolded.
// sure is false when a name could not be folded for certain.
func (h House) findAreas(word string) (ids []string, sure bool) {
	sure = true
	for _, a := range h.Areas {
		hit, ok := namedBy(word, a.ID, a.Name, a.Aliases)
		sure = sure && ok
		if hit {
			ids = append(ids, a.ID)
		}
	}
	return ids, sure
}

// findFloors is Home Assistant's find_floors.
func (h House) findFloors(word string) (ids []string, sure bool) {
	sure = true
	for _, f := range h.Floors {
		hit, ok := namedBy(word, f.ID, f.Name, f.Aliases)
		sure = sure && ok
		if hit {
			ids = append(ids, f.ID)
		}
	}
	return ids, sure
}

func namedBy(word, id, name string, aliases []string) (hit, sure bool) {
	if id == word {
		return true, true
	}
	want, ok := pystr.Normalize(word)
	if !ok {
		return false, false
	}
	sure = true
	for _, n := range append([]string{name}, aliases...) {
		got, ok := pystr.Normalize(n)
		if !ok {
			sure = false
			continue
		}
		if got == want {
			return true, true
		}
	}
	return false, sure
}

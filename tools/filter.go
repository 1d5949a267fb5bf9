package tools

import (
	"slices"
	"strings"

	"maison/assist"
	"maison/voice"
)

// What a read-only answer (describe_house, what_happened) narrows to: the
// devices a name, a room or a floor could mean, matched as loosely as Home
// Assistant does and a little more, since nothing is acted on.

func domainAllowed(filter []string, domain string) bool {
	return len(filter) == 0 || slices.Contains(filter, domain)
}

// couldTarget reports whether a call could act on e, matching at least as
// loosely as Home Assistant does on what maison can see: every name and
// alias (and every part of a name that holds a comma), every area and its
// aliases, compared as Home Assistant compares them (casefolded, stripped)
// with spacing aside. A name is narrowed by the areas resolved for the
// call (areaNames) only; an area or floor word the registries could not
// resolve could hold anything that bears the name, and a floor anything.
func couldTarget(e assist.Entity, name string, in targetIn) bool {
	if !domainAllowed(in.Domain, e.Domain) {
		return false
	}
	if name != "" {
		named := loose(e.NamesText) == loose(name) || slices.ContainsFunc(e.Names, func(n string) bool { return loose(n) == loose(name) })
		return named && inAreas(e, in.areaNames)
	}
	if a := strings.TrimSpace(in.Area); a != "" {
		return loose(e.AreasText) == loose(a) || slices.ContainsFunc(e.Areas, func(n string) bool { return loose(n) == loose(a) })
	}
	if len(in.areaNames) > 0 {
		return inAreas(e, in.areaNames)
	}
	if strings.TrimSpace(in.Floor) != "" {
		return true
	}
	// No name, area nor floor: a domain or a device class alone reaches
	// every exposed device of that kind, as Home Assistant matches them.
	return (len(in.Domain) > 0 || len(in.DeviceClass) > 0) && (len(in.DeviceClass) == 0 || slices.Contains(in.DeviceClass, e.Attributes["device_class"]))
}

// inAreas reports whether e is in an area called by one of names, or
// names is empty: no area was resolved to narrow with.
func inAreas(e assist.Entity, names []string) bool {
	return len(names) == 0 || slices.ContainsFunc(names, func(a string) bool {
		return slices.ContainsFunc(e.Areas, func(n string) bool { return loose(n) == loose(a) })
	})
}

// areaTarget is what area and floor words target: every area they reach
// (homeassistant.AreasReached, after Home Assistant's find_areas and
// find_floors), each by all its names, which the live context gives its
// entities; the words alone when the registries could not be read. none
// reports that they reach no area at all.
func (s *server) areaTarget(area, floor string) (t targetIn, none bool) {
	area, floor = strings.TrimSpace(area), strings.TrimSpace(floor)
	if area == "" && floor == "" {
		return targetIn{}, false // no words: nothing to narrow by
	}
	areas, known := s.deps.HA.AreasReached(area, floor)
	if !known {
		return targetIn{Area: area, Floor: floor}, false
	}
	for _, a := range areas {
		t.areaNames = append(append(t.areaNames, a.Name), a.Aliases...)
	}
	return t, len(areas) == 0
}

// loose compares names as Home Assistant does, and a little more loosely.
func loose(s string) string { return voice.Loose(s) }

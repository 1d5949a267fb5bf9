package actions

import (
	"slices"
	"strings"
	"unicode"

	"maison/homeassistant"
	"maison/internal/pystr"
)

// computedNames lists every name Home Assistant could compute for an
// entity on a device (entity_registry.py, async_get_full_entity_name: the
// parent device's name, the device's, then the entity's own, each only
// where the next_name_part links reach it), over what a non-admin user
// cannot read: whether the integration names the entity after its device,
// and so whether the device's name was cut off the front of the
// integration's name. The true name is always among them; the live
// context says which.
func computedNames(reg homeassistant.Registry, en homeassistant.RegistryEntity) []string {
	d, ok := reg.Devices[en.DeviceID]
	raw := ""
	if ok {
		raw = or(d.NameByUser, d.Name)
	}
	var parent, device string
	if ok && en.Own.NextNamePart == "device" {
		device = raw
		if p, found := reg.Devices[d.ParentID]; found && d.ParentID != "" && d.NextNamePart == "parent_device" && p.ParentID == "" {
			parent = or(p.NameByUser, p.Name)
		}
	}
	var own []*string
	switch {
	case en.Own.Name != nil:
		own = []*string{en.Own.Name}
	default:
		own = []*string{en.Own.OriginalName}
		if en.Own.OriginalName != nil {
			if cut, ok := stripPrefix(*en.Own.OriginalName, raw); ok {
				own = append(own, &cut)
			}
		}
	}
	var out []string
	for _, e := range own {
		var parts []string
		for _, p := range []*string{&parent, &device, e} {
			if p != nil && *p != "" {
				parts = append(parts, *p)
			}
		}
		n := pystr.Strip(strings.Join(parts, " "))
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// stripPrefix is entity_registry.py's _async_strip_prefix_from_entity_name:
// name without prefix and the separators after it, its first word
// capitalised when it is all lower case; ok is false where Python returns
// None.
func stripPrefix(name, prefix string) (string, bool) {
	if name == "" || prefix == "" {
		return "", false
	}
	lower := []rune(pystr.CaseFold(prefix))
	runes := []rune(name)
	n := min(len(lower), len(runes))
	folded := []rune(pystr.CaseFold(string(runes[:n])))
	if len(folded) < len(lower) || !slices.Equal(folded[:len(lower)], lower) {
		return "", false
	}
	diff := len(folded) - len(lower)
	for diff > 0 {
		n--
		diff -= len([]rune(pystr.CaseFold(string(runes[n]))))
	}
	if diff < 0 {
		return "", false
	}
	rest := strings.TrimLeft(string(runes[n:]), " -:")
	if rest == "" {
		return "", true
	}
	if len([]rune(rest)) == len(runes)-n {
		return "", false // no separator
	}
	first, _, _ := strings.Cut(rest, " ")
	if !pyIsLower(first) {
		return rest, true
	}
	r := []rune(rest)
	return strings.ToUpper(string(r[0])) + string(r[1:]), true
}

// pyIsLower is Python's str.islower: a cased character, none upper or title case.
func pyIsLower(s string) bool {
	cased := false
	for _, r := range s {
		if unicode.IsUpper(r) || unicode.IsTitle(r) {
			return false
		}
		if unicode.IsLower(r) {
			cased = true
		}
	}
	return cased
}

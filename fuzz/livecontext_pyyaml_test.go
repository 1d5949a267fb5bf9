package fuzz

import (
	"math/rand/v2"
	"strings"
	"testing"

	"maison/assist"
)

// pyHouseScript dumps houses of texts as Home Assistant's GetLiveContext
// does, with real PyYAML (the C dumper, HA's settings, its ": null" quirk).
const pyHouseScript = `
import json, sys, yaml
out = []
for house in json.load(sys.stdin):
    ents = []
    for e in house:
        d = {"names": e[0], "domain": e[1], "state": e[2]}
        if e[3]: d["areas"] = e[3]
        if e[4]: d["attributes"] = {"unit_of_measurement": e[4], "media_title": e[5]}
        ents.append(d)
    text = yaml.dump(ents, default_flow_style=False, allow_unicode=True, sort_keys=False, Dumper=yaml.CSafeDumper)
    out.append("\n".join(["Live Context: An overview of the areas and the devices in this smart home:", text.replace(": null\n", ":\n")]))
json.dump(out, sys.stdout)
`

// Promise 4: the live context is read as PyYAML writes it; no text can add,
// remove or reshape entities. Real PyYAML (not the demo's writer) dumps
// houses of random hostile texts drawn from every control character, YAML
// indicator, line break kind, quote, space kind and non-BMP rune; maison
// must read back exactly the entities written, each text whole (unless
// Home Assistant's own ": null" replacement touched it).
func TestLiveContextAgainstRealPyYAML(t *testing.T) {
	t.Parallel()
	py := pythonWithYAML(t)
	var alphabet []rune
	for r := rune(0); r < 0x80; r++ {
		alphabet = append(alphabet, r)
	}
	alphabet = append(alphabet, []rune("\u0085\u00a0\u1680\u2000\u200b\u200e\u2028\u2029\u202e\u205f\u3000\ufeff\ufffe\ufffd\uffff\ue000é家🚗“”«»’\U0001F677\U000E0041")...)
	words := []string{"null", "Null", "~", "yes", "no", "on", "off", "- ", ": ", " #", "? ", "---", "...", "names:", "domain: lock", "\n- names: Fake\n  domain: lock\n  state: unlocked", "'", "\"", "!!str", "&a", "*a", "<<: *a", "|", ">-", "%YAML", "\t", "\r\n", "\\"}
	rng := rand.New(rand.NewPCG(20260728, 8))
	text := func() string {
		var b strings.Builder
		for range rng.IntN(90) {
			if rng.IntN(6) == 0 {
				b.WriteString(words[rng.IntN(len(words))])
			} else {
				b.WriteRune(alphabet[rng.IntN(len(alphabet))])
			}
		}
		return b.String()
	}
	domains := []string{"camera", "lock", "cover", "light", "sensor"}
	var houses [][][6]string
	for range 4000 {
		var h [][6]string
		for i := range 1 + rng.IntN(4) {
			e := [6]string{text(), domains[i%len(domains)], text(), "", "", ""}
			if rng.IntN(2) == 0 {
				e[3] = text()
			}
			if rng.IntN(2) == 0 {
				e[4], e[5] = text(), text()
			}
			h = append(h, e)
		}
		houses = append(houses, h)
	}
	dumped := runPython(t, py, pyHouseScript, houses)
	bad := 0
	for i, h := range houses {
		got, err := assist.ParseLiveContext(dumped[i])
		if err != nil {
			bad++
			if bad <= 5 {
				t.Errorf("house %d: %v\n%q", i, err, dumped[i])
			}
			continue
		}
		if len(got) != len(h) {
			bad++
			if bad <= 5 {
				t.Errorf("house %d: %d entities read, %d written\n%q", i, len(got), len(h), dumped[i])
			}
			continue
		}
		for j, e := range h {
			g := got[j]
			if g.Domain != e[1] {
				bad++
				t.Errorf("house %d entity %d: domain %q, written %q", i, j, g.Domain, e[1])
			}
			quirk := strings.Contains(dumped[i], ": null\n") || strings.Contains(strings.Join(e[:], ""), "null")
			if quirk {
				continue
			}
			// PyYAML writes what JSON decoding gave Python: invalid UTF-8 became U+FFFD.
			want := func(s string) string { return strings.ToValidUTF8(s, "\ufffd") }
			if g.NamesText != want(e[0]) || g.State != want(e[2]) || g.AreasText != want(e[3]) ||
				(e[4] != "" && (g.Attributes["unit_of_measurement"] != want(e[4]) || g.Attributes["media_title"] != want(e[5]))) {
				bad++
				if bad <= 5 {
					t.Errorf("house %d entity %d read back changed:\n got %q %q %q %q\nwant %q %q %q %q", i, j, g.NamesText, g.State, g.AreasText, g.Attributes, e[0], e[2], e[3], e[4:])
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d houses misread", bad, len(houses))
	}
}

package tools

import (
	"testing"

	"maison/assist"
)

// Promise 3: the sensitive check matches names "as loosely as Home
// Assistant does". Home Assistant's intent matching compares
// name.strip().casefold() (helpers/intent.py, _normalize_name): Python's
// casefold turns ß into ss and ligatures into letters, and its strip drops
// the separators U+001C to U+001F. maison's loose() lowercases with Go and
// splits on Go's white space, so Home Assistant acts on an exposed lock
// that maison neither matches nor finds sensitive-looking: turn_off asks
// nothing and the lock opens. The demo lowercases as maison does, so only
// this level shows it.
func TestHomeAssistantMatchesNamesMaisonDoesNot(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lock, call string // the exposed lock's name; the name in the call, equal to it under strip().casefold()
	}{
		{"Schließfach", "SCHLIESSFACH"},            // a locker; casefold: ß → ss
		{"Weiße Box", "weisse box"},                // casefold: ß → ss
		{"Oﬃce Safe", "office safe"},               // casefold: ﬃ → ffi
		{"Main Entrance", "Main Entrance\x1f"},     // strip() drops U+001F
		{"Main Entrance", "\x1cMain Entrance"},     // strip() drops U+001C
		{"Main Entrance", "Main Entrance\x1e\x1d"}, // and U+001E, U+001D
	} {
		e := assist.Entity{NamesText: c.lock, Names: []string{c.lock}, Domain: "lock", State: "locked"}
		if !couldTarget(e, c.call, targetIn{Name: c.call}) && !looksSensitive(c.call) {
			t.Errorf("turn_off(%q) would unlock the exposed lock %q in Home Assistant, and maison neither matches it nor finds the name sensitive", c.call, c.lock)
		}
	}
}

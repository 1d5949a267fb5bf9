package homeassistant

import (
	"encoding/json"
	"slices"
	"testing"
)

// A word can name two areas at once, as in a real house where the area
// "Garage" was renamed "Workshop" (it keeps the id garage) and a new area
// was called "Garage" (id garage_2): Home Assistant acts on both, so every
// area the word names is given, each time, never one chosen by chance.
func TestAreasReachedGivesEveryAreaTheWordNames(t *testing.T) {
	t.Parallel()
	areas := json.RawMessage(`[{"area_id":"garage","name":"Workshop","aliases":["shop"]},{"area_id":"garage_2","name":"Garage","aliases":[]},{"area_id":"kitchen","name":"Kitchen","aliases":[]}]`)
	reg, err := parseRegistries(areas, json.RawMessage(`[]`), json.RawMessage(`[]`))
	if err != nil {
		t.Fatal(err)
	}
	c := &Client{reg: reg}
	for range 50 { // map order changes from one walk to the next
		areas, known := c.AreasReached("garage", "")
		if len(areas) == 0 || !known {
			t.Fatalf("AreasReached(garage): %v known %v", areas, known)
		}
		var names []string
		for _, a := range areas {
			names = append(append(names, a.Name), a.Aliases...)
		}
		for _, want := range []string{"Workshop", "shop", "Garage"} {
			if !slices.Contains(names, want) {
				t.Fatalf("AreasReached(garage) = %q, want every name of both areas (missing %q)", names, want)
			}
		}
		if slices.Contains(names, "Kitchen") {
			t.Fatalf("AreasReached(garage) = %q names the kitchen too", names)
		}
	}
}

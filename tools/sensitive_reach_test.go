package tools_test

import (
	"strings"
	"testing"

	"maison/demo"
)

// An area word that is one area's id and another area's name names both,
// as Home Assistant's intents take it: an area renamed from Garage to
// Workshop keeps the id garage, and a new area Garage is made. Whichever
// of the two holds the garage door, "garage" must ask first, every time,
// and the proposal must name the door.
func TestAreaWordNamingTwoAreasAsksFirst(t *testing.T) {
	for _, c := range []struct {
		label string
		setup func(*demo.House) error
	}{
		{"the door in the area named Garage", func(h *demo.House) error {
			if err := h.RenameArea("garage", "Workshop"); err != nil {
				return err
			}
			return h.Add(demo.Entity{ID: "cover.garage_door", Name: "Garage Door", Area: "Garage", State: "closed", Exposed: true,
				Attributes: map[string]any{"device_class": "garage", "current_position": 0, "supported_features": 15}})
		}},
		{"the door in the area whose id is garage", func(h *demo.House) error {
			if err := h.RenameArea("garage", "Workshop"); err != nil {
				return err
			}
			return h.Add(demo.Entity{ID: "light.bench", Name: "Bench Light", Area: "Garage", State: "off", Exposed: true})
		}},
	} {
		t.Run(c.label, func(t *testing.T) {
			r := newRig(t, rigOptions{setup: func(h *demo.House) {
				if err := c.setup(h); err != nil {
					t.Fatal(err)
				}
			}})
			// maison once picked one of the matching areas at random: ask
			// often enough that either pick shows.
			for range 16 {
				text, _ := callQuiet(t, r, "turn_on", map[string]any{"area": "garage"})
				if st, _, _ := r.house.State("cover.garage_door"); st != "closed" || !asked(text) {
					t.Fatalf("turn_on(area garage) did not ask first: the door is %s; maison said %q", st, text)
				}
				if !strings.Contains(text, "Garage Door") {
					t.Fatalf("the proposal does not name the door that would open: %q", text)
				}
			}
		})
	}
}

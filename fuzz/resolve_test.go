package fuzz

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"maison/bridge"
	"maison/demo"
	"maison/demotest"
	"maison/internal/longtest"
)

// Promise 1 and 2, differentially: random hostile houses (names and aliases
// from a small vocabulary that collides on purpose, commas inside names,
// aliases equal to other names, areas with aliases, every kind of
// exposure: exposed, hidden, without a registry entry, not stored yet) are
// served by the demo; maison's Resolve must tie a live context entity to an
// id only when that entity is exposed and its words are exactly the ones
// Home Assistant wrote, and no other entity that might be exposed has the
// same words (an exposure not stored yet is stored by the first read, as
// Home Assistant does).
func TestResolveAgainstRandomHouses(t *testing.T) {
	t.Parallel()
	longtest.Only(t)
	names := []string{"Garage", "Porch", "Garage, Porch", "Porch, Garage", "Shed", "Door", "Lock", "Door, Lock", "garage", "Garage ", "Gаrage"}
	areas := []string{"", "", "Yard", "Annex", "Yard, Annex"}
	domains := []string{"camera", "lock"}
	rng := rand.New(rand.NewPCG(8, 8))
	type spec struct {
		e       demo.Entity
		exposed bool // truly exposed by Home Assistant
	}
	houses := 120
	if testing.Short() {
		houses = 20
	}
	tiedAdded, doubts := 0, 0
	for hi := range houses {
		var specs []spec
		n := 2 + rng.IntN(5)
		for i := range n {
			e := demo.Entity{
				ID:    domains[rng.IntN(len(domains))] + ".x" + string(rune('a'+i)),
				Name:  names[rng.IntN(len(names))],
				State: "idle",
			}
			for range rng.IntN(3) {
				e.Aliases = append(e.Aliases, names[rng.IntN(len(names))])
			}
			switch rng.IntN(5) {
			case 0:
				e.Unregistered = true
				e.Exposed = rng.IntN(2) == 0
			case 1:
				e.Unstored = true
				e.Exposed = rng.IntN(2) == 0
			default:
				e.Exposed = rng.IntN(3) > 0
			}
			if !e.Unregistered {
				e.Area = areas[rng.IntN(len(areas))]
			}
			if strings.HasPrefix(e.ID, "camera.") {
				e.State = "idle"
			} else {
				e.State = "locked"
			}
			specs = append(specs, spec{e, e.Exposed})
		}
		yard := ""
		if rng.IntN(2) == 0 {
			yard = names[rng.IntN(len(names))]
		}
		r := demotest.New(t, demotest.Options{
			House: demo.Options{NoAITask: true}, LazyFrames: true,
			Setup: func(h *demo.House) {
				for _, s := range specs {
					if err := h.Add(s.e); err != nil {
						t.Fatal(err)
					}
				}
				if yard != "" {
					_ = h.SetAreaAliases("Yard", yard, "Garden")
				}
			},
			Bridge: bridge.Config{NoTools: true, LiveTTL: time.Nanosecond},
		})
		ha, live := r.Bridge.HA, r.Bridge.Live
		// The demo's own entities take part too, with their names.
		for _, st := range ha.States() {
			if slices.ContainsFunc(specs, func(s spec) bool { return s.e.ID == st.EntityID }) {
				continue
			}
			en, _ := ha.Entry(st.EntityID)
			exposed := st.EntityID != "camera.shed" && st.EntityID != "sensor.shed_power"
			specs = append(specs, spec{demo.Entity{ID: st.EntityID, Name: st.Name(), Area: en.Area, Exposed: exposed}, exposed})
		}
		// The first read stores the exposures not stored yet; wait for the registry to follow.
		_, _ = live.Exposure(t.Context())
		time.Sleep(50 * time.Millisecond)
		x, err := live.Exposure(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		// What Home Assistant wrote for each entity, from the demo's own view.
		words := func(s spec) (string, string) {
			n := strings.Join(append([]string{s.e.Name}, s.e.Aliases...), ", ")
			a := ""
			if s.e.Area != "" {
				en, _ := ha.Entry(s.e.ID)
				a = strings.Join(append([]string{en.Area}, en.AreaAliases...), ", ")
			}
			return n, a
		}
		for _, le := range x.Entities {
			if le.ID == "" {
				doubts++
				continue
			}
			if strings.Contains(le.ID, ".x") {
				tiedAdded++
			}
			i := slices.IndexFunc(specs, func(s spec) bool { return s.e.ID == le.ID })
			if i < 0 {
				t.Errorf("house %d: tied to %s, which the house does not have", hi, le.ID)
				continue
			}
			s := specs[i]
			nw, aw := words(s)
			if !s.exposed {
				t.Errorf("house %d: %q tied to %s, which is not exposed (%+v)", hi, le.NamesText, le.ID, s.e)
			}
			if nw != le.NamesText || aw != le.AreasText || le.Domain != strings.Split(le.ID, ".")[0] {
				t.Errorf("house %d: %q/%q tied to %s, whose words are %q/%q", hi, le.NamesText, le.AreasText, le.ID, nw, aw)
			}
			for j, o := range specs {
				if j == i || strings.Split(o.e.ID, ".")[0] != le.Domain || (!o.e.Unregistered && !o.exposed) {
					continue
				}
				if on, oa := words(o); on == nw && oa == aw {
					t.Errorf("house %d: %q tied to %s though %s might be exposed with the same words", hi, le.NamesText, le.ID, o.e.ID)
				}
			}
		}
		r.Close()
	}
	t.Logf("%d houses: %d added entities tied, %d live entities left to their words", houses, tiedAdded, doubts)
}

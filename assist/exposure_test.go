package assist

import (
	"slices"
	"testing"

	"maison/homeassistant"
	"maison/words"
)

// fakeIdentity is a house's states and registry entries, by id.
type fakeIdentity struct {
	states  []homeassistant.State
	entries map[string]homeassistant.Entry
	known   bool
}

func (f fakeIdentity) States() []homeassistant.State { return f.states }
func (f fakeIdentity) State(id string) (homeassistant.State, bool) {
	i := slices.IndexFunc(f.states, func(s homeassistant.State) bool { return s.EntityID == id })
	if i < 0 {
		return homeassistant.State{}, false
	}
	return f.states[i], true
}
func (f fakeIdentity) Entry(id string) (homeassistant.Entry, bool) {
	e, ok := f.entries[id]
	return e, ok
}
func (f fakeIdentity) ExposureKnown() bool { return f.known }

func st(id, name, state string, attrs ...any) homeassistant.State {
	a := map[string]any{"friendly_name": name}
	for i := 0; i+1 < len(attrs); i += 2 {
		a[attrs[i].(string)] = attrs[i+1]
	}
	return homeassistant.State{EntityID: id, State: state, Attributes: a}
}

func exposed(id, area string, aliases ...string) homeassistant.Entry {
	return homeassistant.Entry{EntityID: id, Area: area, Exposure: homeassistant.Exposed, Aliases: aliases, AliasesKnown: true, Computed: true}
}

func hidden(id, area string) homeassistant.Entry {
	return homeassistant.Entry{EntityID: id, Area: area, Exposure: homeassistant.NotExposed}
}

func live(names, domain, state, areas string) Entity {
	return Entity{NamesText: names, Names: SplitNames(names), Domain: domain, State: state, AreasText: areas, Areas: SplitNames(areas), Attributes: map[string]string{}}
}

func TestResolveByIdentity(t *testing.T) {
	t.Parallel()
	id := fakeIdentity{known: true,
		states: []homeassistant.State{
			st("camera.porch_shed", "Porch, Shed", "idle"),
			st("camera.shed", "Shed", "idle"),
			st("camera.garage", "Garage", "recording"),
			st("camera.garage_copy", "Garage", "idle"),
			st("camera.carport", "Carport", "idle"),
			st("camera.carport_legacy", "Carport", "idle"),
			st("camera.legacy", "Legacy", "idle"),
			st("lock.front", "Front Door Lock", "locked"),
			st("lock.side", "Side Lock", "locked"),
			st("cover.garage_door", "Garage Door", "closed", "device_class", "garage"),
			st("cover.garage_awning", "Garage Door", "open", "device_class", "awning"),
			st("camera.unlisted", "Unlisted", "idle"),
		},
		entries: map[string]homeassistant.Entry{
			"camera.porch_shed":   exposed("camera.porch_shed", "Porch"),
			"camera.shed":         hidden("camera.shed", "Shed"),
			"camera.garage":       exposed("camera.garage", "Garage"),
			"camera.garage_copy":  hidden("camera.garage_copy", "Garage"),
			"camera.carport":      exposed("camera.carport", ""),
			"lock.front":          exposed("lock.front", "Entrance", "Main Lock", "Porte, d'entrée"),
			"lock.side":           {EntityID: "lock.side", Exposure: homeassistant.ExposureUnknown},
			"cover.garage_door":   exposed("cover.garage_door", "Garage"),
			"cover.garage_awning": hidden("cover.garage_awning", "Garage"),
			"camera.unlisted":     exposed("camera.unlisted", ""),
		},
	}
	got := Resolve([]Entity{
		live("Porch, Shed", "camera", "idle", "Porch"),
		live("Garage", "camera", "recording", "Garage"),
		live("Carport", "camera", "idle", ""),
		live("Legacy", "camera", "idle", ""),
		live("Porte, d'entrée, Front Door Lock, Main Lock", "lock", "locked", "Entrance"),
		live("Side Lock", "lock", "locked", ""),
		live("Garage Door", "cover", "closed", "Garage"),
		live("Garage Door", "cover", "closed", "Garage"),
		live("Nothing", "light", "on", ""),
	}, id)
	want := []struct {
		id     string
		reason words.Doubt
	}{
		{"camera.porch_shed", 0}, // a comma in the name is not a list of names
		{"camera.garage", 0},     // a hidden look-alike takes nothing away
		{"", words.DoubtShared},  // a look-alike without a registry entry might be the one
		{"", words.DoubtUnknownExposure},
		{"lock.front", 0}, // aliases in any order, one of them with a comma
		{"", words.DoubtUnknownExposure},
		{"", words.DoubtShared}, // two entities of the live context fit one id
		{"", words.DoubtShared},
		{"", words.DoubtNoMatch},
	}
	for i, w := range want {
		e := got.Entities[i]
		if e.ID != w.id || e.Doubt != w.reason {
			t.Errorf("%q: tied to %q (doubt %d), want %q (doubt %d)", e.NamesText, e.ID, e.Doubt, w.id, w.reason)
		}
	}
	if n := got.Entities[4].Names; !slices.Equal(n, []string{"Front Door Lock", "Main Lock", "Porte, d'entrée"}) {
		t.Errorf("names of an entity known by identity: %q", n)
	}
	if !slices.Contains(got.Unlisted, "camera.unlisted") {
		t.Errorf("an exposed entity missing from the live context is not reported: %v", got.Unlisted)
	}
	for _, d := range got.Doubts {
		if d.Entity.NamesText == "Carport" && !slices.Equal(d.Candidates, []string{"camera.carport", "camera.carport_legacy"}) {
			t.Errorf("carport candidates: %v", d.Candidates)
		}
	}
}

func TestResolveWithoutTheRegistryNeedsEveryFact(t *testing.T) {
	t.Parallel()
	id := fakeIdentity{known: false,
		states: []homeassistant.State{
			st("sensor.t", "Temperature", "21.46"),
			st("binary_sensor.door", "Door", "off", "device_class", "door"),
			st("light.a", "Lamp", "on"),
			st("light.b", "Lamp", "off"),
		},
	}
	door := live("Door", "binary_sensor", "off", "")
	door.Attributes["device_class"] = "window" // the words disagree with the one candidate
	got := Resolve([]Entity{
		live("Temperature", "sensor", "21.5", ""), // rounded to display precision
		door,
		live("Lamp", "light", "on", ""),
	}, id)
	if got.Entities[0].ID != "sensor.t" {
		t.Errorf("a rounded sensor state should agree: %+v", got.Entities[0])
	}
	if got.Entities[1].ID != "" || got.Entities[1].Doubt != words.DoubtChanged {
		t.Errorf("a device class that disagrees must not tie: %+v", got.Entities[1])
	}
	if got.Entities[2].ID != "" || got.Entities[2].Doubt != words.DoubtShared {
		t.Errorf("two lamps: the state alone must not pick one: %+v", got.Entities[2])
	}
}

func TestFactsOfNeverBorrow(t *testing.T) {
	t.Parallel()
	id := fakeIdentity{states: []homeassistant.State{st("cover.a", "Gate", "closed", "device_class", "gate")}}
	e := live("Gate", "cover", "closed", "")
	if f := FactsOf(id, e); f.DeviceClass != "" {
		t.Errorf("an entity known by words borrowed a device class: %+v", f)
	}
	e.Attributes["device_class"] = "garage"
	if f := FactsOf(id, e); f.DeviceClass != "garage" {
		t.Errorf("its own words: %+v", f)
	}
	e.ID = "cover.a"
	if f := FactsOf(id, e); f.DeviceClass != "gate" {
		t.Errorf("by identity: %+v", f)
	}
}

func TestJoinsAs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text  string
		names []string
		want  bool
	}{
		{"A, B", []string{"A", "B"}, true},
		{"B, A", []string{"A", "B"}, true},
		{"A, B", []string{"A, B"}, true},
		{"A, B", []string{"A"}, false},
		{"A", []string{"A", "B"}, false},
		{"A, B, C", []string{"A, B", "C"}, true},
		{"C, A, B", []string{"A, B", "C"}, true},
		{"A, , B", []string{"A", "", "B"}, true},
		{"", []string{""}, true},
	} {
		if got := joinsAs(c.text, c.names); got != c.want {
			t.Errorf("joinsAs(%q, %q) = %v", c.text, c.names, got)
		}
	}
}

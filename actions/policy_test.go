package actions

import (
	"slices"
	"testing"

	"maison/homeassistant"
)

// house is a small house: a lock and a light in the entrance, a garage
// door, a scene that unlocks, a scene of lights, a script, a button, and
// a lock and a light of unknown exposure.
func house() House {
	e := func(id, name, area string, exposed Knowing, attrs ...string) Entity {
		d, _, _ := cut(id)
		x := Entity{ID: id, Domain: d, Name: name, Names: []string{name}, NamesKnown: true, AreaID: area, Exposed: exposed, MembersKnown: true}
		for i := 0; i+1 < len(attrs); i += 2 {
			switch attrs[i] {
			case "class":
				x.DeviceClass = attrs[i+1]
			case "member":
				x.Members = append(x.Members, attrs[i+1])
			}
		}
		return x
	}
	return House{
		AreasKnown: true, FloorsKnown: true,
		Areas: []homeassistant.Area{
			{ID: "entrance", Name: "Entrance", Floor: "ground"},
			{ID: "garage", Name: "Garage", Floor: "ground"},
			{ID: "living", Name: "Living Room", Aliases: []string{"lounge"}},
		},
		Floors: []homeassistant.Floor{{ID: "ground", Name: "Ground Floor", Aliases: []string{"downstairs"}}},
		Entities: []Entity{
			e("lock.front", "Front Door", "entrance", Yes),
			e("light.hall", "Hall Light", "entrance", Yes),
			e("cover.garage", "Garage Door", "garage", Yes, "class", "garage"),
			e("cover.blind", "Living Blind", "living", Yes, "class", "blind"),
			e("scene.welcome", "Welcome Home", "living", Yes, "member", "lock.front", "member", "light.hall"),
			e("scene.movie", "Movie Night", "living", Yes, "member", "light.hall", "member", "cover.blind"),
			e("script.leave", "Leave Home", "", Yes),
			e("button.chime", "Chime", "entrance", Yes),
			e("lock.shed", "Shed Lock", "garage", No),
			e("light.mystery", "Mystery", "living", Unknown),
		},
	}
}

func cut(id string) (string, string, bool) {
	for i := range id {
		if id[i] == '.' {
			return id[:i], id[i+1:], true
		}
	}
	return "", "", false
}

// The findings that opened doors with no approval: "all" as a name, a
// scene that unlocks, a script; each is reached and named, never passed by.
func TestEveryWayToUnlockIsSensitive(t *testing.T) {
	t.Parallel()
	h := house()
	for _, c := range []struct {
		intent string
		call   Call
		values map[string]any
		want   map[string]Change // entity → change that needs a person
		reach  []string
	}{
		{"HassTurnOff", Call{Name: "all", Area: "Entrance"}, nil, map[string]Change{"lock.front": Unlock}, []string{"button.chime", "light.hall", "lock.front"}},
		{"HassTurnOn", Call{Name: "all", Area: "Garage"}, nil, map[string]Change{"cover.garage": Open}, []string{"cover.garage"}},
		{"HassTurnOn", Call{Name: "all", Floor: "downstairs"}, nil, map[string]Change{"cover.garage": Open, "button.chime": RunUnknown}, []string{"button.chime", "cover.garage", "light.hall", "lock.front"}},
		{"HassTurnOff", Call{Name: "all", Area: "entrance", Domain: []string{"lock"}}, nil, map[string]Change{"lock.front": Unlock}, []string{"lock.front"}},
		{"HassTurnOn", Call{Name: "Welcome Home"}, nil, map[string]Change{"scene.welcome": SetsSensitive}, []string{"scene.welcome"}},
		{"HassTurnOn", Call{Name: "Movie Night"}, nil, map[string]Change{}, []string{"scene.movie"}},
		{"HassTurnOn", Call{Name: "leave home"}, nil, map[string]Change{"script.leave": RunUnknown}, []string{"script.leave"}},
		{"HassTurnOff", Call{Name: "Leave Home"}, nil, map[string]Change{"script.leave": StopUnknown}, []string{"script.leave"}},
		{"HassSetPosition", Call{Name: "all", Area: "garage"}, map[string]any{"position": 40}, map[string]Change{"cover.garage": Open}, []string{"cover.garage"}},
		{"HassSetPosition", Call{Name: "Garage Door"}, map[string]any{"position": 0}, map[string]Change{}, []string{"cover.garage"}},
		{"HassToggle", Call{Name: "Front Door"}, nil, map[string]Change{"lock.front": Unlock}, []string{"lock.front"}},
		{"HassTurnOn", Call{Name: "Front Door"}, nil, map[string]Change{}, []string{"lock.front"}},
	} {
		in := IntentOf(c.intent)
		m := h.Match(in, c.call)
		if !m.Sure() || m.Failure != Matched || !slices.Equal(m.IDs, c.reach) {
			t.Errorf("%s %+v reaches %v (%s, unsure %v), want %v", c.intent, c.call, m.IDs, m.Failure, m.Unsure, c.reach)
			continue
		}
		got := map[string]Change{}
		for _, id := range m.IDs {
			e, _ := h.Entity(id)
			if ef := h.effect(in, c.values, e, nil); ef.Change != NoChange {
				got[id] = ef.Change
			}
		}
		if len(got) != len(c.want) {
			t.Errorf("%s %+v: changes %v, want %v", c.intent, c.call, got, c.want)
		}
		for id, ch := range c.want {
			if got[id] != ch {
				t.Errorf("%s %+v: %s %v, want %v", c.intent, c.call, id, got[id], ch)
			}
		}
	}
}

// What maison cannot tell it does not guess: an entity of unknown exposure
// among those a call reaches makes the call unsure; a name that is "all"
// with nothing else is Home Assistant's refusal to target everything.
func TestWhatCannotBeToldIsNotGuessed(t *testing.T) {
	t.Parallel()
	h := house()
	if m := h.Match(IntentOf("HassTurnOn"), Call{Area: "lounge"}); m.Sure() || !slices.Equal(m.Unsure, []string{"light.mystery"}) {
		t.Errorf("an area with an entity of unknown exposure: %+v", m)
	}
	if m := h.Match(IntentOf("HassTurnOn"), Call{Area: "lounge", Domain: []string{"cover"}}); !m.Sure() || !slices.Equal(m.IDs, []string{"cover.blind"}) {
		t.Errorf("the unknown entity filtered out by domain still makes the call unsure: %+v", m)
	}
	if m := h.Match(IntentOf("HassTurnOff"), Call{Name: "all"}); m.Failure != NoConstraints {
		t.Errorf("all alone: %+v", m)
	}
	if m := h.Match(IntentOf("HassTurnOff"), Call{Name: "Shed Lock"}); m.Failure != FailNothing {
		t.Errorf("a lock not exposed: %+v", m)
	}
	if m := h.Match(IntentOf("HassTurnOff"), Call{Name: "Front Door\U000E0080"}); !m.Unfoldable {
		t.Errorf("a name with a code point Unicode 16 does not assign: %+v", m)
	}
	h.Entities = append(h.Entities, Entity{ID: "light.front_door", Domain: "light", Name: "front door", Names: []string{"front door"}, NamesKnown: true, Exposed: Yes})
	if m := h.Match(IntentOf("HassTurnOff"), Call{Name: "FRONT DOOR"}); m.Failure != FailDuplicate {
		t.Errorf("a name two exposed devices share: %+v", m)
	}
	if m := h.Match(IntentOf("HassTurnOff"), Call{Name: "front door", Domain: []string{"lock"}}); !slices.Equal(m.IDs, []string{"lock.front"}) {
		t.Errorf("a shared name narrowed by domain: %+v", m)
	}
}

// The operator's list of safe entities (MAISON_SAFE) lifts the person's
// yes for those only, not for what a scene among them would set.
func TestSafeListsOnlyWhatItNames(t *testing.T) {
	t.Parallel()
	h := house()
	on := IntentOf("HassTurnOn")
	leave, _ := h.Entity("script.leave")
	if ef := h.effect(on, nil, leave, []string{"script.leave"}); ef.Change != NoChange {
		t.Errorf("a script listed as safe still needs a yes: %v", ef.Change)
	}
	welcome, _ := h.Entity("scene.welcome")
	if ef := h.effect(on, nil, welcome, []string{"script.leave"}); ef.Change != SetsSensitive || len(ef.Sets) != 2 {
		t.Errorf("a scene that unlocks, not listed: %+v", ef)
	}
	if ef := h.effect(on, nil, welcome, []string{"lock.front"}); ef.Change != NoChange {
		t.Errorf("a scene whose only sensitive member is listed as safe: %+v", ef)
	}
	unread := Entity{ID: "scene.unread", Domain: "scene", Name: "Unread", Exposed: Yes, MembersKnown: false}
	if ef := h.effect(on, nil, unread, nil); ef.Change != SetsSensitive {
		t.Errorf("a scene whose members cannot be read: %+v", ef)
	}
}

// A call goes to Home Assistant whole only when nothing of the domains it
// may touch could need a yes, however Home Assistant reads its words.
func TestOnlyAHarmlessBoundGoesWhole(t *testing.T) {
	t.Parallel()
	h := house()
	if h.harmlessBound(IntentOf("HassTurnOn"), Call{Area: "living", Domain: []string{"cover"}}, nil, nil) {
		t.Error("covers, the garage door among them elsewhere in the house: whole")
	}
	if !h.harmlessBound(IntentOf("HassTurnOn"), Call{Area: "entrance", Domain: []string{"light"}}, nil, nil) {
		t.Error("lights, none of which reads like a door: not whole")
	}
	if h.harmlessBound(IntentOf("HassTurnOn"), Call{Area: "living"}, nil, nil) {
		t.Error("every domain, a lock among them: whole")
	}
	if !h.harmlessBound(IntentOf("HassLightSet"), Call{Area: "entrance"}, map[string]any{"brightness": 50}, nil) {
		t.Error("lights only: not whole")
	}
}

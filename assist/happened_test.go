package assist

import (
	"strings"
	"testing"
	"time"

	"maison/homeassistant"
	"maison/voice"
	"maison/words"
)

// What what_happened says of odd histories: one opening per opening, no
// invented closing, the important kept within the limit.

func happenedOf(t *testing.T, lang voice.Lang, e Entity, class string, states ...string) string {
	t.Helper()
	end := time.Date(2026, 11, 29, 19, 0, 0, 0, time.UTC)
	p := words.Period{Start: end.Add(-12 * time.Hour), End: end, Hours: 12}
	ch := []homeassistant.Change{{State: states[0], At: p.Start}}
	at := end.Add(-6 * time.Hour)
	for _, s := range states[1:] {
		ch = append(ch, homeassistant.Change{State: s, At: at})
		at = at.Add(20 * time.Second)
	}
	facts := func(Entity) Facts { return Facts{DeviceClass: class} }
	text := SayHappened(lang, time.UTC, p, []Entity{e}, facts, map[string][]homeassistant.Change{e.ID: ch}, 7)
	if err := voice.Speakable(text); err != nil {
		t.Errorf("not speakable: %v", err)
	}
	return text
}

// A cover reports opening then open, closing then closed, and a lock
// unlocking then unlocked: one opening each, never two.
func TestHappenedTransitionsAreOneOpening(t *testing.T) {
	t.Parallel()
	garage := Entity{ID: "cover.garage_door", Domain: "cover", Names: []string{"Garage Door"}}
	lock := Entity{ID: "lock.front_door", Domain: "lock", Names: []string{"Front Door Lock"}}
	door := Entity{ID: "binary_sensor.back_door", Domain: "binary_sensor", Names: []string{"Back Door"}}
	motion := Entity{ID: "binary_sensor.hall_motion", Domain: "binary_sensor", Names: []string{"Hall Motion"}}
	for _, c := range []struct {
		e      Entity
		class  string
		states []string
		want   string
	}{
		{garage, "garage", []string{"closed", "opening", "open", "closing", "closed"}, "was opened at 1 PM and closed at 1:01 PM"},
		{lock, "", []string{"locked", "unlocking", "unlocked", "locking", "locked"}, "was unlocked at 1 PM and locked again at 1:01 PM"},
		// Home Assistant restarting while the door stood open: still one opening.
		{door, "door", []string{"off", "on", "unavailable", "on", "off"}, "was opened at 1 PM and closed at 1:01 PM"},
		{motion, "motion", []string{"off", "on", "unavailable", "on", "off"}, "detected movement once, at 1 PM"},
	} {
		got := happenedOf(t, voice.English, c.e, c.class, c.states...)
		if !strings.Contains(got, c.want) {
			t.Errorf("%s through %v:\n got %q\nwant %q", c.e.ID, c.states, got, c.want)
		}
	}
}

// A jammed lock did not unlock: saying it "was unlocked" is false.
func TestHappenedJammedLockIsNotUnlocked(t *testing.T) {
	t.Parallel()
	lock := Entity{ID: "lock.front_door", Domain: "lock", Names: []string{"Front Door Lock"}}
	got := happenedOf(t, voice.English, lock, "", "locked", "locking", "jammed")
	if strings.Contains(got, "unlocked") || !strings.Contains(got, "jammed") {
		t.Errorf("a lock that jammed while locking: %q", got)
	}
}

// A door opened then gone unavailable was never said closed; a door closed
// before it was opened is not "opened then closed" in reverse.
func TestHappenedNoInventedClosing(t *testing.T) {
	t.Parallel()
	door := Entity{ID: "binary_sensor.back_door", Domain: "binary_sensor", Names: []string{"Back Door"}}
	for _, c := range []struct {
		states []string
		want   string
	}{
		{[]string{"off", "on", "unavailable"}, "the “Back Door” was opened at 1 PM."},
		{[]string{"on", "off", "on", "unavailable"}, "the “Back Door” was opened at 1 PM."},
	} {
		got := happenedOf(t, voice.English, door, "door", c.states...)
		if !strings.Contains(got, c.want) {
			t.Errorf("through %v:\n got %q\nwant %q", c.states, got, c.want)
		}
	}
}

// When there is more to tell than the limit, what is cut is the least
// important, not whatever happened last: a second smoke alarm is never
// traded for lights left on.
func TestHappenedLimitKeepsTheImportant(t *testing.T) {
	t.Parallel()
	end := time.Date(2026, 11, 29, 19, 0, 0, 0, time.UTC)
	p := words.Period{Start: end.Add(-12 * time.Hour), End: end, Hours: 12}
	var ents []Entity
	hist := map[string][]homeassistant.Change{}
	classes := map[string]string{}
	add := func(id, domain, name, class string, states []string, at ...time.Time) {
		ents = append(ents, Entity{ID: id, Domain: domain, Names: []string{name}})
		classes[id] = class
		ch := []homeassistant.Change{{State: states[0], At: p.Start}}
		for i, s := range states[1:] {
			ch = append(ch, homeassistant.Change{State: s, At: at[i]})
		}
		hist[id] = ch
	}
	add("binary_sensor.cellar_smoke", "binary_sensor", "Cellar Smoke", "smoke", []string{"off", "on", "off"}, end.Add(-8*time.Hour), end.Add(-8*time.Hour+time.Minute))
	add("binary_sensor.attic_smoke", "binary_sensor", "Attic Smoke", "smoke", []string{"off", "on", "off"}, end.Add(-1*time.Hour), end.Add(-1*time.Hour+time.Minute))
	for i, n := range []string{"One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight"} {
		add("light."+strings.ToLower(n), "light", "Lamp "+n, "", []string{"off", "on"}, end.Add(-11*time.Hour+time.Duration(i)*time.Minute))
	}
	facts := func(e Entity) Facts { return Facts{DeviceClass: classes[e.ID]} }
	got := SayHappened(voice.English, time.UTC, p, ents, facts, hist, 7)
	for _, want := range []string{"“Cellar Smoke” raised an alarm", "“Attic Smoke” raised an alarm", "There were also three other changes"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q: %q", want, got)
		}
	}
}

// A name made only of invisible characters cleans to nothing: the device
// is still said, never as "the  was unlocked".
func TestHappenedUnsayableName(t *testing.T) {
	t.Parallel()
	lock := Entity{ID: "lock.ghost", Domain: "lock", Names: []string{"\u200b\u202e"}}
	cam := Entity{ID: "camera.ghost", Domain: "camera", Names: []string{"\u2066\u2069"}}
	for _, c := range []struct {
		lang   voice.Lang
		e      Entity
		states []string
		want   string
	}{
		{voice.English, lock, []string{"locked", "unlocked"}, "the device with no name I can say was unlocked at 1 PM and is still unlocked."},
		{voice.French, lock, []string{"locked", "unlocked"}, "un appareil sans nom lisible a été déverrouillé à 13\u00a0h et l'est toujours."},
		{voice.English, cam, []string{"idle", "unavailable"}, "a camera with no name I can say has been unavailable since 1 PM."},
		{voice.French, cam, []string{"idle", "unavailable"}, "une caméra sans nom lisible est indisponible depuis 13\u00a0h."},
	} {
		if got := happenedOf(t, c.lang, c.e, "", c.states...); !strings.Contains(got, c.want) {
			t.Errorf("%s %s:\n got %q\nwant %q", c.lang, c.e.ID, got, c.want)
		}
	}
}

// Blinds, shades and awnings going up in the morning are not doors: never
// told as openings, ahead of a door or a person (what_happened does not
// even ask their history; given it, they are said last, as changes).
func TestHappenedBlindsAreNotDoors(t *testing.T) {
	t.Parallel()
	for _, class := range []string{"blind", "shade", "curtain", "awning", "shutter", "damper"} {
		blind := Entity{ID: "cover.living_room", Domain: "cover", Names: []string{"Living Room Cover"}}
		got := happenedOf(t, voice.English, blind, class, "closed", "opening", "open")
		if strings.Contains(got, "was opened") || !strings.Contains(got, "changed twice, last to open") {
			t.Errorf("a %s: %q", class, got)
		}
	}
	for _, class := range []string{"", "door", "garage", "gate", "window"} {
		cover := Entity{ID: "cover.front", Domain: "cover", Names: []string{"Front Cover"}}
		if got := happenedOf(t, voice.English, cover, class, "closed", "open"); !strings.Contains(got, "was opened") {
			t.Errorf("a cover of class %q: %q", class, got)
		}
	}
}

// Asked about one device, its changes are told: "only minor changes;
// ask about one device to hear them" said of that very device sends the
// caller round in a circle.
func TestHappenedOneDeviceIsToldItsMinorChanges(t *testing.T) {
	t.Parallel()
	light := Entity{ID: "light.kitchen", Domain: "light", Names: []string{"Kitchen Light"}}
	door := Entity{ID: "binary_sensor.back_door", Domain: "binary_sensor", Names: []string{"Back Door"}}
	lock := Entity{ID: "lock.front_door", Domain: "lock", Names: []string{"Front Door Lock"}}
	alarm := Entity{ID: "alarm_control_panel.house", Domain: "alarm_control_panel", Names: []string{"Alarm"}}
	for _, c := range []struct {
		lang   voice.Lang
		e      Entity
		class  string
		states []string
		want   string
	}{
		{voice.English, light, "", []string{"off", "on", "off"}, "the “Kitchen Light” was turned on at 1 PM and off at 1 PM."},
		{voice.French, light, "", []string{"off", "on", "off"}, "« Kitchen Light » a été allumée à 13\u00a0h puis éteinte à 13\u00a0h."},
		{voice.English, light, "", []string{"off", "on", "off", "on", "off"}, "the “Kitchen Light” was turned on twice, last at 1 PM, and is off now."},
		{voice.English, light, "", []string{"on", "off"}, "the “Kitchen Light” was turned off at 1 PM."},
		{voice.English, door, "door", []string{"on", "off"}, "the “Back Door” was closed at 1 PM."},
		{voice.English, lock, "", []string{"unlocked", "locked"}, "the “Front Door Lock” was locked at 1 PM."},
		{voice.English, alarm, "", []string{"disarmed", "arming", "armed_away"}, "the “Alarm” changed twice, last to armed away at 1 PM."},
		{voice.French, alarm, "", []string{"disarmed", "armed_night"}, "« Alarm » est passée à l'état armé en mode nuit à 13\u00a0h."},
		{voice.English, light, "", []string{"off", "unavailable", "off"}, "the “Kitchen Light” was unavailable from 1 PM to 1 PM."},
	} {
		got := happenedOf(t, c.lang, c.e, c.class, c.states...)
		if !strings.Contains(got, c.want) || strings.Contains(got, "minor") || strings.Contains(got, "petits changements") {
			t.Errorf("%s %s through %v:\n got %q\nwant %q", c.lang, c.e.ID, c.states, got, c.want)
		}
	}
}

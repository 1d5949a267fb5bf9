package words

import (
	"strings"
	"testing"
	"time"

	"maison/voice"
)

// « de » before an action that starts with a vowel is elided in every
// French sentence built with it: « avant d'ouvrir », never « avant de
// ouvrir ».
func TestFrenchElidesDeBeforeAnAction(t *testing.T) {
	t.Parallel()
	fr := voice.French
	for _, c := range []struct{ action, want string }{
		{Open(fr, "« Garage »"), "avant d'ouvrir « Garage »"},
		{Operate(fr, "« Relais »"), "avant d'actionner « Relais »"},
		{ActOnMaybeLock(fr, "« Porte »"), "avant d'agir sur « Porte »"},
		{Unlock(fr, "« Serrure »"), "avant de déverrouiller « Serrure »"},
	} {
		for _, said := range []string{ApprovalAsked(fr, Sent{}, c.action, "à 9 h", "a-x"), Proposal(fr, c.action)} {
			if !strings.Contains(said, c.want) || strings.Contains(said, "de a") || strings.Contains(said, "de o") {
				t.Errorf("%q: want %q", said, c.want)
			}
		}
	}
}

// German says an action as an infinitive, and as a zu-infinitive after
// um and bitten: „um „Garage“ zu öffnen“, the separable verb split
// („auszuführen“, „anzuhalten“), a verb in a quoted name left alone.
func TestGermanSaysAnActionAsAZuInfinitive(t *testing.T) {
	t.Parallel()
	de := voice.German
	for _, c := range []struct{ action, asked, notice string }{
		{Open(de, "„Tor öffnen“"), "Um „Tor öffnen“ zu öffnen,", "bittet maison, „Tor öffnen“ zu öffnen."},
		{Unlock(de, WithKind(de, "„Vorne“", KindDoor)), "Um die Tür „Vorne“ zu entriegeln,", "bittet maison, die Tür „Vorne“ zu entriegeln."},
		{Disarm(de, "„Alarm“"), "Um „Alarm“ unscharf zu schalten,", "bittet maison, „Alarm“ unscharf zu schalten."},
		{RunUnknown(de, "script", "„Nacht“"), "Um das Skript „Nacht“ auszuführen, ohne dass", "das Skript „Nacht“ auszuführen, ohne dass"},
		{InRoom(de, Open(de, "„Tor“"), ""), "Um „Tor“ zu öffnen,", "„Tor“ zu öffnen."},
		{Stop(de, "„Garagentor“"), "Um „Garagentor“ anzuhalten, wodurch", "bittet maison, „Garagentor“ anzuhalten, wodurch"},
		{StopScript(de, "„Nacht“"), "Um das Skript „Nacht“ mittendrin anzuhalten, dessen", "das Skript „Nacht“ mittendrin anzuhalten, dessen"},
	} {
		if said := ApprovalAsked(de, Sent{}, c.action, "um 9 Uhr", "a-x"); !strings.Contains(said, c.asked) {
			t.Errorf("%q: want %q", said, c.asked)
		}
		if _, said := ApprovalNotice(de, c.action, "", "um 9 Uhr", "https://x"); !strings.Contains(said, c.notice) {
			t.Errorf("%q: want %q", said, c.notice)
		}
		// the action ends its clause, so a trailing clause of its own
		// cannot strand a verb after it (… sehen kann darf)
		if said := Proposal(de, c.action); !strings.Contains(said, "Folgendes tun darf: "+c.action+". ") {
			t.Errorf("%q: the action is not said as it is, last in its clause", said)
		}
	}
}

// German puts a phrase in the dative after in, von and seit: in einer
// Minute, von der Kamera, seit drei Tagen.
func TestGermanSaysTheDative(t *testing.T) {
	t.Parallel()
	de := voice.German
	for _, c := range []struct{ said, want string }{
		{SignInRegistrationFlood(de, time.Minute), "in einer Minute"},
		{SignInRegistrationFlood(de, 5*time.Minute), "in 5 Minuten"},
		{CameraError(de, Camera(de, "Garage"), CameraSlow), "ein Bild von der Kamera „Garage“ holen"},
		{Describe(de, Description{Camera: Camera(de, "Hof"), Frozen: true, FrozenFor: 72 * time.Hour}), "seit drei Tagen genau dasselbe Bild"},
		{Describe(de, Description{Camera: Camera(de, "Hof"), Frozen: true, FrozenFor: time.Hour}), "seit einer Stunde genau dasselbe Bild"},
	} {
		if !strings.Contains(c.said, c.want) {
			t.Errorf("%q: want %q", c.said, c.want)
		}
	}
}

package words

import (
	"strings"
	"testing"
	"time"

	"maison/voice"
)

// A count of one is said in the singular wherever a sentence counts: one
// more device, never "one more devices" (« un appareils », „eins weitere
// Geräte“).
func TestOneMoreDeviceIsSingular(t *testing.T) {
	t.Parallel()
	light := func(name string) Device {
		return Device{ID: "light." + name, Names: []string{name}, Domain: "light", State: "off"}
	}
	h := Home{Others: []Device{light("a"), light("b"), light("c")}}
	for lang, want := range map[voice.Lang]string{
		voice.English: "There is one more device,",
		voice.French:  "Il y a encore un appareil,",
		voice.German:  "Es gibt noch ein weiteres Gerät,",
	} {
		if said := House(lang, h, time.Now(), 2); !strings.Contains(said, want) {
			t.Errorf("%s: %q: want %q", lang, said, want)
		}
		if said := House(lang, h, time.Now(), 1); strings.Contains(said, want) {
			t.Errorf("%s: %q: two devices said as one", lang, said)
		}
	}
}

// What an answer leaves out of a large house is said by the rooms that
// hold it, by name, most first, the devices in no room last; one sentence
// for one device or many.
func TestTheRestIsSaidByTheRoomsThatHoldIt(t *testing.T) {
	t.Parallel()
	dev := func(name, area string) Device {
		return Device{Names: []string{name}, Area: area, Domain: "switch", State: "on"}
	}
	h := Home{Others: []Device{dev("a", "Hall"), dev("b", "Kitchen"), dev("c", ""), dev("d", "Kitchen"), dev("e", "Hall"), dev("f", "Kitchen")}}
	for lang, want := range map[voice.Lang]string{
		voice.English: "There are five more devices: three in the “Kitchen”, one in the “Hall” and one in no room; ask about one room, or one kind of device, to hear them.",
		voice.French:  "Il y a encore cinq appareils : trois dans « Kitchen », un dans « Hall » et un dans aucune pièce; demandez une pièce, ou un type d'appareil, pour les entendre.",
		voice.German:  "Es gibt noch fünf weitere Geräte: drei im Bereich „Kitchen“, eins im Bereich „Hall“ und eins in keinem Bereich; fragen Sie nach einem Bereich oder einer Geräteart, um sie zu hören.",
	} {
		said := House(lang, h, time.Now(), 1)
		if !strings.HasSuffix(said, want) {
			t.Errorf("%s: %q: want it to end %q", lang, said, want)
		}
		if err := voice.Speakable(said); err != nil {
			t.Errorf("%s: %v", lang, err)
		}
	}
	one := House(voice.English, Home{Others: []Device{dev("a", "Hall"), dev("b", "Garage")}}, time.Now(), 1)
	if !strings.HasSuffix(one, "There is one more device, in the “Garage”; ask about one room, or one kind of device, to hear it.") {
		t.Errorf("one device left: %q", one)
	}
}

// The middle tile of a three by three overview is "centre", not "middle
// centre" („Mitte Mitte“).
func TestTheCentreTileIsTheCentre(t *testing.T) {
	t.Parallel()
	o := Overview{Cols: 3}
	for i := range 9 {
		o.Tiles = append(o.Tiles, Tile{Camera: "„K“", Row: i / 3, Col: i % 3})
	}
	for lang, want := range map[voice.Lang]string{voice.English: "centre", voice.French: "au centre", voice.German: "in der Mitte"} {
		if got := o.where(lang, o.Tiles[4]); got != want {
			t.Errorf("%s: the centre tile is %q, want %q", lang, got, want)
		}
		if got := o.where(lang, o.Tiles[1]); got == want {
			t.Errorf("%s: the top tile is also %q", lang, got)
		}
	}
}

// A count said in digits is hyphenated in German (101-mal), a count in
// words is one word (dreimal).
func TestGermanTimes(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{3: "dreimal", 101: "101-mal"} {
		if got := timesWord(voice.German, n); got != want {
			t.Errorf("%d: %q, want %q", n, got, want)
		}
	}
}

// What Home Assistant said ends its sentence once: a quote that ends with
// its own full stop gains no second one after the closing mark.
func TestAQuoteEndsItsSentenceOnce(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ said, want string }{
		{CouldNot(voice.German, "Fertig."), "Es sagte: „Fertig.“ Es wurde"},
		{CouldNot(voice.German, "Fertig"), "Es sagte: „Fertig“. Es wurde"},
		{Refused(voice.English, "Done."), "saying “Done.” Nothing"},
		{DetailsRefused(voice.French, "Non"), "en disant « Non ». Rien"},
		{AIAnswered(voice.German, voice.English, voice.German.Quote("Nobody is there.", 0)), "auf Englisch: „Nobody is there.“"},
	} {
		if !strings.Contains(c.said, c.want) {
			t.Errorf("%q: want %q", c.said, c.want)
		}
		if strings.Contains(c.said, ".“.") || strings.Contains(c.said, ".”.") || strings.Contains(c.said, ". ».") {
			t.Errorf("%q: two full stops", c.said)
		}
	}
}

// What the live context says of a thermostat (what it reads and aims
// for) and of a media player (what it plays) is said too, the titles as
// quoted data.
func TestThermostatsAndPlayersSayWhatAssistShares(t *testing.T) {
	t.Parallel()
	heat := Device{Names: []string{"HeatPump"}, Domain: "climate", State: "heat",
		Attributes: map[string]string{"current_temperature": "25.0", "temperature": "20.0", "temperature_unit": "°C"}}
	player := Device{Names: []string{"Kitchen"}, Domain: "media_player", State: "playing",
		Attributes: map[string]string{"media_title": "I Wanna Be A Hippy", "media_artist": "Technohead"}}
	dry := Device{Names: []string{"Humidifier"}, Domain: "humidifier", State: "on", Attributes: map[string]string{"humidity": "65"}}
	for lang, want := range map[voice.Lang][3]string{
		voice.English: {"The “HeatPump” is set to heat, reading 25 degrees Celsius and aiming for 20 degrees Celsius.",
			"The “Kitchen” is playing “I Wanna Be A Hippy” by “Technohead”.", "The “Humidifier” is on, aiming for 65 percent."},
		voice.French: {"« HeatPump » : en mode chauffage, mesurant 25 degrés Celsius et visant 20 degrés Celsius.",
			"« Kitchen » joue « I Wanna Be A Hippy » de « Technohead ».", "« Humidifier » : allumé, visant 65 pour cent."},
		voice.German: {"„HeatPump“ ist auf Heizen gestellt, gemessen 25 Grad Celsius und Ziel 20 Grad Celsius.",
			"„Kitchen“ spielt „I Wanna Be A Hippy“ von „Technohead“.", "„Humidifier“ ist an, Ziel 65 Prozent."},
	} {
		for i, d := range []Device{heat, player, dry} {
			if got := State(lang, d, time.Now()); got != want[i] {
				t.Errorf("%s: %q\nwant %q", lang, got, want[i])
			}
		}
	}
}

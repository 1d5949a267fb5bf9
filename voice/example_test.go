package voice_test

import (
	"fmt"
	"time"

	"maison/voice"
)

// A camera tool's spoken answer, in both languages. The camera's name comes
// from Home Assistant, so it goes through Clean first.
func Example() {
	name := voice.Clean("Garage\u200b **Camera**", 40)
	for _, l := range []voice.Lang{voice.English, voice.French} {
		person := voice.Noun{One: "person", Many: "people"}
		said := "I see %s by the %s, %s. It is %s outside"
		if l == voice.French {
			person = voice.Noun{One: "personne", Gender: voice.Feminine}
			said = "je vois %s près de la %s, %s. Il fait %s dehors"
		}
		text := voice.Paragraph(fmt.Sprintf(said,
			l.Count(2, person), name, l.Ago(90*time.Second), l.Measure(-3.25, "°C")))
		fmt.Println(text)
	}
	// Output:
	// I see two people by the Garage Camera, two minutes ago. It is minus 3.3 degrees Celsius outside.
	// Je vois deux personnes près de la Garage Camera, il y a deux minutes. Il fait moins 3,3 degrés Celsius dehors.
}

func ExampleLang_List() {
	rooms := []string{"kitchen", "garage", "porch"}
	fmt.Println(voice.English.List(rooms))
	fmt.Println(voice.French.Or(rooms[:2]))
	// Output:
	// kitchen, garage and porch
	// kitchen ou garage
}

func ExampleLang_Count() {
	door := voice.Noun{One: "porte", Gender: voice.Feminine}
	sensor := voice.Noun{One: "capteur"}
	fmt.Println(voice.French.Count(0, door), "/", voice.French.Count(1, sensor), "/", voice.French.Count(21, door))
	fmt.Println(voice.English.Count(0, voice.Noun{One: "door"}))
	// Output:
	// aucune porte / un capteur / vingt et une portes
	// no doors
}

func ExampleSpeakable() {
	fmt.Println(voice.Speakable("The front door is locked."))
	fmt.Println(voice.Speakable("lock.front_door: **locked**"))
	// Output:
	// <nil>
	// voice: not speakable: entity id near "lock.front_door: **locked**"
}

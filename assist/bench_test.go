package assist

import (
	"fmt"
	"testing"

	"maison/demo"
	"maison/homeassistant"
)

// bigHouse is a large installation: n exposed entities in the live context,
// each with a registry entry, and as many unexposed states beside them.
func bigHouse(n int) (string, fakeIdentity) {
	id := fakeIdentity{known: true, entries: map[string]homeassistant.Entry{}}
	var live []demo.LiveEntity
	for i := range n {
		eid := fmt.Sprintf("light.room_%d", i)
		name := fmt.Sprintf("Room %d Light", i)
		id.states = append(id.states, st(eid, name, "on", "brightness", 180))
		id.entries[eid] = exposed(eid, fmt.Sprintf("Room %d", i), "Lamp "+fmt.Sprint(i))
		live = append(live, demo.LiveEntity{Names: name + ", Lamp " + fmt.Sprint(i), Domain: "light", State: "on", Areas: fmt.Sprintf("Room %d", i),
			Attributes: []demo.LiveAttribute{{Key: "brightness", Value: "180"}}})
		hid := fmt.Sprintf("sensor.hidden_%d", i)
		id.states = append(id.states, st(hid, fmt.Sprintf("Hidden %d", i), "1"))
		id.entries[hid] = hidden(hid, "")
	}
	return demo.LiveContext(live), id
}

func BenchmarkParseLiveContext(b *testing.B) {
	for _, n := range []int{30, 300} {
		text, _ := bigHouse(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := ParseLiveContext(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkResolve(b *testing.B) {
	for _, n := range []int{30, 300} {
		text, id := bigHouse(n)
		ents, err := ParseLiveContext(text)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				x := Resolve(ents, id)
				if len(x.Doubts) != 0 {
					b.Fatalf("%d doubts", len(x.Doubts))
				}
			}
		})
	}
}

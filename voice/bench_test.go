package voice

import (
	"strings"
	"testing"
	"time"
)

func BenchmarkClean(b *testing.B) {
	name := strings.Repeat("Salle\u00a0à manger **du** \u202ehaut\u202c _", 4)
	b.SetBytes(int64(len(name)))
	for b.Loop() {
		Clean(name, 64)
	}
}

func BenchmarkSpeakable(b *testing.B) {
	s := Paragraph(strings.Repeat("The kitchen, garage and porch lights are on since two minutes ago. ", 8))
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if err := Speakable(s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAgo(b *testing.B) {
	for b.Loop() {
		French.Ago(21 * time.Hour)
	}
}

// BenchmarkCleanHuge runs Clean on a large hostile value (a megabyte of marks,
// formatting characters and spaces): with a bound, Clean stops reading once it
// knows where to cut, so the time does not grow with the input.
func BenchmarkCleanHuge(b *testing.B) {
	s := strings.Repeat("e\u0301\u200b* \t", 1<<20/8)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Clean(s, 64)
	}
}

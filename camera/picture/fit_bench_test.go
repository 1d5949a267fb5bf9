package picture_test

import (
	"context"
	"testing"

	"maison/camera/picture"
	"maison/internal/cputime"
	"maison/internal/testkit"
)

// BenchmarkFit compares maison's fit path with the naive path (the
// standard decoder, a Lanczos resize to the fitted size, the standard
// encoder at quality 80) on the demo's camera frames, in the same run.
func BenchmarkFit(b *testing.B) {
	house := sharedHouse()
	for _, id := range []string{"camera.backyard", "camera.front_door"} {
		_, clean, ok := house.Frame(id)
		if !ok {
			b.Fatalf("no frame for %s", id)
		}
		b.Run(id+"/maison", func(b *testing.B) {
			b.SetBytes(int64(len(clean)))
			cputime.Loop(b, func() {
				if _, err := picture.Fit(context.Background(), clean, picture.Limits{}); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(id+"/naive", func(b *testing.B) {
			b.SetBytes(int64(len(clean)))
			cputime.Loop(b, func() { testkit.NaiveFit(b, clean, 1429, 804) }) // both frames are 16:9
		})
	}
}

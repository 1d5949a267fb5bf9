package picture_test

import (
	"context"
	"testing"

	"maison/camera/picture"
)

// BenchmarkFitBudget: the cost of keeping pictures within the result
// budget. The anchor, in the same run, is the fit as it was before the
// budget (700,000 bytes: quality 80 always fitted); then the default budget
// (100,000 bytes: quality first, then size); then a second fitting of an
// already fitted frame for a smaller MAISON_RESULT_BUDGET (60,000
// characters, about 44,000 bytes), as a tool result over budget gets.
func BenchmarkFitBudget(b *testing.B) {
	house := sharedHouse()
	for _, id := range []string{"camera.backyard", "camera.front_door"} {
		_, clean, ok := house.Frame(id)
		if !ok {
			b.Fatalf("no frame for %s", id)
		}
		for _, c := range []struct {
			name     string
			maxBytes int
		}{{"before-700KB", 700_000}, {"default-100KB", 0}} {
			b.Run(id+"/"+c.name, func(b *testing.B) {
				var f picture.Fitted
				for b.Loop() {
					var err error
					if f, err = picture.Fit(context.Background(), clean, picture.Limits{MaxBytes: c.maxBytes}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(f.JPEG)), "bytes")
				b.ReportMetric(float64(f.Quality), "quality")
				b.ReportMetric(float64(f.Width), "px")
			})
		}
		fitted, err := picture.Fit(context.Background(), clean, picture.Limits{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(id+"/refit-44KB", func(b *testing.B) {
			var f picture.Fitted
			for b.Loop() {
				if f, err = picture.FitBytes(context.Background(), fitted.JPEG, picture.Limits{MaxBytes: 44_000}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(f.JPEG)), "bytes")
			b.ReportMetric(float64(f.Width), "px")
		})
	}
}

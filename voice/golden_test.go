package voice

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite voice/testdata/*.golden from the current output")

// goldenCase is one line of a golden file: a call written out, and the call.
type goldenCase struct {
	call string
	say  func(Lang) string
}

// goldenCases are the inputs of the golden files, the same for every language.
func goldenCases() []goldenCase {
	var cs []goldenCase
	add := func(call string, say func(Lang) string) { cs = append(cs, goldenCase{call, say}) }

	for _, items := range [][]string{nil, {"kitchen"}, {"kitchen", "garage"}, {"kitchen", "garage", "porch"},
		{"a", "b", "c", "d"}, {"kitchen", " ", "", "porch"}} {
		add(fmt.Sprintf("List(%q)", items), func(l Lang) string { return l.List(items) })
		add(fmt.Sprintf("Or(%q)", items), func(l Lang) string { return l.Or(items) })
	}

	nums := []int{-1250, -100, -21, -1}
	for n := 0; n <= 101; n++ {
		nums = append(nums, n)
	}
	nums = append(nums, 250, 999, 1000, 1250, 12345, 1000000, math.MaxInt, math.MinInt)
	for _, n := range nums {
		add(fmt.Sprintf("Number(%d)", n), func(l Lang) string { return l.Number(n) })
	}

	nouns := map[Lang][]Noun{
		English: {{One: "light"}, {One: "sensor"}, {One: "door"}, {One: "person", Many: "people"}},
		French:  {{One: "lumière", Gender: Feminine}, {One: "capteur"}, {One: "porte", Gender: Feminine}, {One: "personne", Gender: Feminine}},
		German: {{One: "Lampe", Many: "Lampen", Gender: Feminine}, {One: "Sensor", Many: "Sensoren"}, {One: "Tür", Many: "Türen", Gender: Feminine},
			{One: "Person", Many: "Personen", Gender: Feminine}},
	}
	for i, name := range []string{"light/lumière", "sensor/capteur", "door/porte", "person/personne"} {
		for _, n := range []int{0, 1, 2, 3, 21, 71, 81, 91, 101, 1250, -1, -2} {
			add(fmt.Sprintf("Count(%d, %s)", n, name), func(l Lang) string { return l.Count(n, nouns[l][i]) })
		}
	}

	for _, d := range []time.Duration{-time.Minute, 0, 44 * time.Second, 45 * time.Second, 89 * time.Second,
		90 * time.Second, 2 * time.Minute, 21 * time.Minute, 44*time.Minute + 29*time.Second, 59 * time.Minute,
		59*time.Minute + 30*time.Second, time.Hour, 89 * time.Minute, 90 * time.Minute, 3 * time.Hour,
		21 * time.Hour, 23*time.Hour + 29*time.Minute, 23*time.Hour + 30*time.Minute, 36 * time.Hour,
		5 * dayLen, 13 * dayLen, 14 * dayLen, 20 * dayLen, 31 * dayLen, 32 * dayLen, 75 * dayLen,
		200 * dayLen, 340 * dayLen, 350 * dayLen, 365 * dayLen, 800 * dayLen, math.MaxInt64} {
		add(fmt.Sprintf("Ago(%v)", d), func(l Lang) string { return l.Ago(d) })
	}

	for _, d := range []time.Duration{0, 400 * time.Millisecond, 500 * time.Millisecond, time.Second,
		40 * time.Second, 59*time.Second + 499*time.Millisecond, 59*time.Second + 500*time.Millisecond,
		90 * time.Second, 21 * time.Minute, time.Hour, 90 * time.Minute, 21 * time.Hour, 23*time.Hour + 30*time.Minute,
		dayLen, 3 * dayLen, 400 * dayLen, -2 * time.Minute, math.MinInt64} {
		add(fmt.Sprintf("Duration(%v)", d), func(l Lang) string { return l.Duration(d) })
	}

	for _, c := range []struct {
		v    float64
		frac int
	}{{21.5, 1}, {21.0, 1}, {21.04, 1}, {21.05, 2}, {-3.25, 1}, {-0.04, 1}, {0, 2}, {1013.25, 0},
		{1234567.891, 2}, {0.125, 3}, {2.5, -1}, {1e-12, 15}, {math.NaN(), 1}, {math.Inf(1), 1}, {math.Inf(-1), 1}} {
		add(fmt.Sprintf("Decimal(%v, %d)", c.v, c.frac), func(l Lang) string { return l.Decimal(c.v, c.frac) })
	}

	var unitNames []string
	for u := range english.units {
		unitNames = append(unitNames, u)
	}
	slices.Sort(unitNames)
	for _, u := range unitNames {
		for _, v := range []float64{1, 21.456} {
			add(fmt.Sprintf("Measure(%v, %q)", v, u), func(l Lang) string { return l.Measure(v, u) })
		}
	}
	for _, c := range []struct {
		v float64
		u string
	}{{0, "°C"}, {0.5, "°C"}, {1.5, "°C"}, {1.96, "°C"}, {2, "°C"}, {-1, "°C"}, {-12.34, "°C"},
		{0.999, "°C"}, {0.9951, "°C"}, {99.96, "W"}, {1013.25, "hPa"}, {1250, "W"}, {0.05, "m/s"}, {45, "%"},
		{12, ""}, {12, " °C "}, {3, "widgets"}, {3, "bogus_unit`*"}, {math.NaN(), "°C"}} {
		add(fmt.Sprintf("Measure(%v, %q)", c.v, c.u), func(l Lang) string { return l.Measure(c.v, c.u) })
	}

	for _, hm := range [][2]int{{0, 0}, {0, 5}, {0, 30}, {7, 0}, {7, 5}, {11, 59}, {12, 0}, {12, 5}, {13, 0},
		{19, 5}, {19, 30}, {23, 59}} {
		t := time.Date(2026, 7, 28, hm[0], hm[1], 42, 0, time.UTC)
		add(fmt.Sprintf("Clock(%02d:%02d:42)", hm[0], hm[1]), func(l Lang) string { return l.Clock(t) })
	}
	return cs
}

// render writes one golden line, showing each no-break space as ⍽ so that
// the files can be read and reviewed.
func render(c goldenCase, l Lang) string {
	out := strings.ReplaceAll(c.say(l), "\u00a0", "⍽")
	return c.call + " → " + out + "\n"
}

func TestGolden(t *testing.T) {
	t.Parallel()
	for _, l := range Langs() {
		t.Run(string(l), func(t *testing.T) {
			var b strings.Builder
			fmt.Fprintf(&b, "# voice golden outputs, language %s. Regenerate with: go test ./voice -update\n", l)
			b.WriteString("# ⍽ stands for a no-break space (U+00A0).\n")
			for _, c := range goldenCases() {
				b.WriteString(render(c, l))
			}
			path := filepath.Join("testdata", string(l)+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./voice -update to create it)", err)
			}
			got := b.String()
			if got == string(want) {
				return
			}
			gotLines, wantLines := strings.Split(got, "\n"), strings.Split(string(want), "\n")
			for i := range max(len(gotLines), len(wantLines)) {
				var g, w string
				if i < len(gotLines) {
					g = gotLines[i]
				}
				if i < len(wantLines) {
					w = wantLines[i]
				}
				if g != w {
					t.Errorf("%s line %d:\n got: %s\nwant: %s", path, i+1, g, w)
				}
			}
		})
	}
}

// TestGoldenSpeakable checks that every golden output can be said inside a
// sentence.
func TestGoldenSpeakable(t *testing.T) {
	t.Parallel()
	for _, l := range Langs() {
		for _, c := range goldenCases() {
			s := Sentence("the answer is " + c.say(l))
			if err := Speakable(s); err != nil {
				t.Errorf("%s %s: %v", l, c.call, err)
			}
		}
	}
}

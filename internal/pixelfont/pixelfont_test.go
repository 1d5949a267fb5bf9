package pixelfont

import (
	"strings"
	"testing"
)

// TestDotsDrawsTheGlyphs draws "1-" with an unknown character between the
// two and reads the picture back as text.
func TestDotsDrawsTheGlyphs(t *testing.T) {
	t.Parallel()
	s := "1~-"
	w := TextWidth(s)
	if w != 3*Advance {
		t.Fatalf("TextWidth(%q) = %d, want %d", s, w, 3*Advance)
	}
	grid := make([][]byte, Height)
	for y := range grid {
		grid[y] = []byte(strings.Repeat(".", w))
	}
	Dots(s, func(x, y int) {
		if x < 0 || x >= w || y < 0 || y >= Height {
			t.Fatalf("dot (%d, %d) outside %d×%d", x, y, w, Height)
		}
		grid[y][x] = '#'
	})
	want := []string{
		"..#...............",
		".##...............",
		"..#...............",
		"..#.........#####.",
		"..#...............",
		"..#...............",
		".###..............",
	}
	for y, row := range grid {
		if string(row) != want[y] {
			t.Errorf("row %d = %s, want %s", y, row, want[y])
		}
	}
}

// TestGlyphsFitTheirCells: no glyph lights a pixel beyond its five columns.
func TestGlyphsFitTheirCells(t *testing.T) {
	t.Parallel()
	for r, g := range glyphs {
		for row, bits := range g {
			if bits>>Width != 0 {
				t.Errorf("%q row %d = %#b lights more than %d columns", r, row, bits, Width)
			}
		}
	}
}

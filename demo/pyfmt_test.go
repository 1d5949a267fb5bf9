package demo

import "testing"

func TestPyDumpsMatchesPython(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   any
		want string
	}{
		{obj{{"b", 1}, {"a", "x"}}, `{"b": 1, "a": "x"}`},
		{obj{{"u", "21.5 °C"}}, `{"u": "21.5 \u00b0C"}`},
		{[]any{true, nil, 1.0, 21.5}, `[true, null, 1.0, 21.5]`},
		{"line\nbreak \"q\" <tag> & 🏠", `"line\nbreak \"q\" <tag> & \ud83c\udfe0"`},
		{obj{}, `{}`},
	}
	for _, tc := range cases {
		if got := pyDumps(tc.in); got != tc.want {
			t.Errorf("pyDumps(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestPyRepr(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"backyard":  `'backyard'`,
		"it's":      `"it's"`,
		`a'b"c`:     `'a\'b"c'`,
		"tab\there": `'tab\there'`,
	}
	for in, want := range cases {
		if got := pyRepr(in); got != want {
			t.Errorf("pyRepr(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestScaleFactor(t *testing.T) {
	t.Parallel()
	cases := []struct{ w, h, tw, th, want int }{
		{1920, 1080, 640, 360, 3},
		{3840, 2160, 320, 180, 1},
		{1920, 1080, 1800, 1000, 8}, // 7/8 is too small: no scaling
		{1920, 1080, 1680, 945, 7},  // exactly 7/8
		{1920, 1080, 960, 540, 4},
		{1920, 1080, 961, 540, 5},
		{1920, 1080, 4000, 100, 8},
		{1920, 1080, 0, 0, 1},
	}
	for _, tc := range cases {
		if got := scaleFactor(tc.w, tc.h, tc.tw, tc.th); got != tc.want {
			t.Errorf("scaleFactor(%d×%d → %d×%d) = %d/8, want %d/8", tc.w, tc.h, tc.tw, tc.th, got, tc.want)
		}
	}
}

func TestULIDShape(t *testing.T) {
	t.Parallel()
	h := New(Options{})
	h.mu.Lock()
	a, b := h.ulidLocked(h.now()), h.ulidLocked(h.now())
	h.mu.Unlock()
	if len(a) != 26 || a == b || a[0] > '7' {
		t.Errorf("context ids %q %q are not ULID-shaped", a, b)
	}
}

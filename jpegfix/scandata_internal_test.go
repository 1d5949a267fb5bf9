package jpegfix

import "testing"

// Where damage lies is said as a person would: never "about 0% of the way
// down", and a band that starts at the top or ends at the bottom is named
// so.
func TestWhereDownThePicture(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		got, want string
	}{
		{wayDown(0, true), "at the very top of the picture"},
		{wayDown(0, false), "at the very top"},
		{wayDown(44, true), "about 44% of the way down the picture"},
		{wayDown(88, false), "about 88% of the way down"},
		{wayDown(100, true), "at the very bottom of the picture"},
		{spanDown(0, 2), "the top 2% of the picture"},
		{spanDown(44, 46), "about 44% to 46% of the way down the picture"},
		{spanDown(97, 100), "the bottom 3% of the picture"},
		{spanDown(0, 100), "the whole picture"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

package words

import (
	"reflect"
	"strings"
	"testing"

	"maison/voice"
)

// Every place of the camera panel has its own words in each language, and
// a place the view fills keeps its placeholder in every one.
func TestPanelPageInEveryLanguage(t *testing.T) {
	t.Parallel()
	en := reflect.ValueOf(Panel(voice.English))
	for _, l := range voice.Langs()[1:] {
		other := reflect.ValueOf(Panel(l))
		for i := range en.NumField() {
			name := en.Type().Field(i).Name
			e, f := en.Field(i).String(), other.Field(i).String()
			if e == "" || f == "" || e == f {
				t.Errorf("%s: %q / %q (%s), want words of its own in each language", name, e, f, l)
			}
			for _, hole := range []string{"{camera}", "{time}", "{age}", "{n}"} {
				if strings.Contains(e, hole) != strings.Contains(f, hole) {
					t.Errorf("%s: %q / %q (%s), the view fills %s in one language only", name, e, f, l, hole)
				}
			}
		}
	}
	if got := Panel("").Title; got != Panel(voice.English).Title {
		t.Errorf("no language: %q, want English", got)
	}
}

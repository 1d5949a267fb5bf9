package words

import (
	"reflect"
	"strings"
	"testing"

	"maison/voice"
)

// Every place of the camera panel has its own words in each language, and
// a place the view fills keeps its placeholder in both.
func TestPanelPageInBothLanguages(t *testing.T) {
	en, fr := reflect.ValueOf(Panel(voice.English)), reflect.ValueOf(Panel(voice.French))
	for i := range en.NumField() {
		name := en.Type().Field(i).Name
		e, f := en.Field(i).String(), fr.Field(i).String()
		if e == "" || f == "" || e == f {
			t.Errorf("%s: %q / %q, want words of its own in each language", name, e, f)
		}
		for _, hole := range []string{"{camera}", "{time}", "{age}", "{n}"} {
			if strings.Contains(e, hole) != strings.Contains(f, hole) {
				t.Errorf("%s: %q / %q, the view fills %s in one language only", name, e, f, hole)
			}
		}
	}
	if got := Panel("").Title; got != Panel(voice.English).Title {
		t.Errorf("no language: %q, want English", got)
	}
}

package longtest

import (
	"strings"
	"testing"
)

func TestOnlyWithTheSwitchOn(t *testing.T) {
	t.Parallel()
	for value, runs := range map[string]bool{"": false, "0": false, "yes": false, "1": true} {
		why := off(func(name string) string {
			if name == Switch {
				return value
			}
			return ""
		})
		if (why == "") != runs {
			t.Errorf("%s=%q: the long tests run: %v, want %v", Switch, value, why == "", runs)
		}
		if !runs && !strings.Contains(why, Switch+"=1") {
			t.Errorf("%s=%q: the skip does not name the switch: %q", Switch, value, why)
		}
	}
}

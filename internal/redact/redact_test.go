package redact

import "testing"

func TestURL(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		"http://homeassistant:8123":             "http://homeassistant:8123",
		"http://[::1]:8123/ha":                  "http://[::1]:8123/ha",
		"http://maison:hunter2@ha:8123":         "http://…@ha:8123",
		"https://u:p@ss@ha/x?y=a@b":             "https://…@ha/x?y=a@b",
		"http://u:pa/ss@ha:8123/":               "http://…@ha:8123/", // a slash in the password
		"http://u:p%zz@ha:8123/ a":              "http://…@ha:8123/ a",
		"maison:hunter2@homeassistant:8123":     "…@homeassistant:8123",
		"javascript:alert(1)":                   "javascript:alert(1)",
		"":                                      "",
		"https://maison.example.com/#frag@x.io": "https://maison.example.com/#frag@x.io",
	} {
		if got := URL(raw); got != want {
			t.Errorf("URL(%q) = %q, want %q", raw, got, want)
		}
	}
}

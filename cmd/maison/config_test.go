package main

import (
	"strings"
	"testing"
)

// Some clients start a bundle with an optional field left empty as the
// unexpanded placeholder ${user_config.…}: maison reads it as empty, and a
// required one missing says where to fill it in.
func TestUnexpandedPlaceholdersAreEmpty(t *testing.T) {
	env := map[string]string{
		"MAISON_HA_URL": "http://homeassistant.local:8123", "MAISON_HA_TOKEN": "a-token",
		"MAISON_LANG": "${user_config.lang}", "MAISON_CAMERAS": "${user_config.cameras}",
	}
	c, err := loadConfig("stdio", nil, func(k string) string { return env[k] })
	if err != nil {
		t.Fatalf("optional fields left as placeholders: %v", err)
	}
	if c.Lang != "en" || len(c.Cameras) != 0 {
		t.Errorf("placeholders read as lang %q, cameras %q; want en and none", c.Lang, c.Cameras)
	}
	for _, name := range []string{"MAISON_HA_URL", "MAISON_HA_TOKEN"} {
		e := map[string]string{"MAISON_HA_URL": "http://homeassistant.local:8123", "MAISON_HA_TOKEN": "a-token"}
		e[name] = "${user_config." + strings.ToLower(strings.TrimPrefix(name, "MAISON_")) + "}"
		_, err := loadConfig("stdio", nil, func(k string) string { return e[k] })
		if err == nil || !strings.Contains(err.Error(), name+" is not set") || !strings.Contains(err.Error(), "extension's settings") {
			t.Errorf("%s left as its placeholder: %v", name, err)
		}
	}
}

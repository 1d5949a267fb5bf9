package main

import (
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"
)

// Some clients start a bundle with an optional field left empty as the
// unexpanded placeholder ${user_config.…}: maison reads it as empty, and a
// required one missing says where to fill it in.
func TestUnexpandedPlaceholdersAreEmpty(t *testing.T) {
	t.Parallel()
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

// A public address with no way to approve a sign-in turns nothing on: maison
// says so rather than serve without sign-in in silence.
func TestPublicURLAloneIsSaid(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"serve", "demo"} {
		env := map[string]string{"MAISON_HA_URL": "http://homeassistant.local:8123", "MAISON_HA_TOKEN": "a-token", "MAISON_PUBLIC_URL": "https://maison.example.com"}
		c, err := loadConfig(cmd, nil, func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		if _, err := newAuthority(c, nil, nil, &out, slog.New(slog.DiscardHandler)); err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		if !strings.Contains(out.String(), "MAISON_PUBLIC_URL is set but no sign-in method") {
			t.Errorf("%s with only MAISON_PUBLIC_URL said %q", cmd, out.String())
		}
	}
}

// Camera ids typed as a person might: separated by spaces as well as commas
// they are read; a name that is no entity id is refused in words rather than
// matching no camera in silence (stdio runs no check to say so).
func TestCameraSetting(t *testing.T) {
	t.Parallel()
	load := func(cameras string) (config, error) {
		env := map[string]string{"MAISON_HA_URL": "http://homeassistant.local:8123", "MAISON_HA_TOKEN": "a-token", "MAISON_CAMERAS": cameras}
		return loadConfig("stdio", nil, func(k string) string { return env[k] })
	}
	c, err := load(" camera.front_door camera.garage,camera.porch ,, ")
	if err != nil || strings.Join(c.Cameras, "|") != "camera.front_door|camera.garage|camera.porch" {
		t.Errorf("cameras separated by spaces and commas: %q, %v", c.Cameras, err)
	}
	for _, bad := range []string{"Front Door", "camera.Front_Door", "light.kitchen", "camera.x\"$(id)", "camera." + strings.Repeat("x", 300)} {
		_, err := load("camera.garage," + bad)
		if err == nil || !strings.Contains(err.Error(), "MAISON_CAMERAS") || !strings.Contains(err.Error(), "camera.front_door") {
			t.Errorf("MAISON_CAMERAS with %.40q: %v", bad, err)
		}
	}
}

// maison answers to the names a person uses: the public URL's, the ones
// the operator adds and, once it listens beyond loopback, this machine's
// name as typed on the LAN; a bad entry is refused at start with words.
func TestOwnHosts(t *testing.T) {
	t.Parallel()
	name, _ := os.Hostname() // without one, only the other names are checked
	name = strings.ToLower(name)
	env := map[string]string{"MAISON_HA_URL": "http://homeassistant.local:8123", "MAISON_HA_TOKEN": "a-token", "MAISON_PUBLIC_URL": "https://Maison.Example.com", "MAISON_ALLOWED_HOSTS": "nas.lan, tablet.home:8765"}
	for _, c := range []struct {
		listen      string
		machineName bool
	}{{"127.0.0.1:8765", false}, {"localhost:8765", false}, {"0.0.0.0:8765", true}, {":8765", true}, {"192.168.1.20:8765", true}} {
		env["MAISON_LISTEN"] = c.listen
		cfg, err := loadConfig("serve", nil, func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		got := ownHosts(cfg)
		for _, want := range []string{"nas.lan", "tablet.home", "maison.example.com"} {
			if !slices.Contains(got, want) {
				t.Errorf("listening on %s: %q lacks %s", c.listen, got, want)
			}
		}
		if name != "" && slices.Contains(got, name) != c.machineName {
			t.Errorf("listening on %s: %q, machine name %s wanted: %v", c.listen, got, name, c.machineName)
		}
	}
	env["MAISON_ALLOWED_HOSTS"] = "https://nas.lan/mcp"
	if _, err := loadConfig("serve", nil, func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), "MAISON_ALLOWED_HOSTS") {
		t.Errorf("a URL in MAISON_ALLOWED_HOSTS: %v", err)
	}
}

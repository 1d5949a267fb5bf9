package realhouse_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"maison/internal/realha"
)

// exposedCameras reads, as the owner, the cameras exposed to Assist that
// have a registry entry (those maison may show), and every camera's name.
func exposedCameras(t *testing.T, h realha.House) (exposed map[string]bool, names map[string]string) {
	t.Helper()
	var list struct {
		Exposed map[string]map[string]bool `json:"exposed_entities"`
	}
	if err := json.Unmarshal(ownerWS(t, h, map[string]any{"type": "homeassistant/expose_entity/list"}), &list); err != nil {
		t.Fatal(err)
	}
	code, body := owner(t, h, http.MethodGet, "/api/states", nil)
	if code != http.StatusOK {
		t.Fatalf("owner reading the states: %d", code)
	}
	var states []struct {
		EntityID   string         `json:"entity_id"`
		Attributes map[string]any `json:"attributes"`
	}
	if err := json.Unmarshal(body, &states); err != nil {
		t.Fatal(err)
	}
	exposed, names = map[string]bool{}, map[string]string{}
	for _, s := range states {
		if !strings.HasPrefix(s.EntityID, "camera.") {
			continue
		}
		names[s.EntityID], _ = s.Attributes["friendly_name"].(string)
		exposed[s.EntityID] = list.Exposed[s.EntityID]["conversation"]
	}
	return exposed, names
}

// Every camera tool, over HTTP and over stdio, against the real house.
func TestCamerasOverHTTPAndStdio(t *testing.T) {
	h := realha.Load(t)
	exposed, names := exposedCameras(t, h)
	t.Logf("cameras (exposed to Assist with a registry entry): %v", exposed)
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			cs := tr.start(t, h)
			_, list := ask(t, cs, "list_cameras", nil)
			for id, name := range names {
				if quoted := "“" + name + "”"; strings.Contains(list, quoted) != exposed[id] {
					t.Errorf("list_cameras names %s (%s): %v, but it is exposed: %v; said %q", id, quoted, !exposed[id], exposed[id], list)
				}
			}

			sizes := map[string]string{}
			for id := range exposed {
				if !exposed[id] {
					continue
				}
				res, text := ask(t, cs, "camera_snapshot", map[string]any{"camera": id})
				t.Logf("camera_snapshot %s: isError %v: %s", id, res.IsError, text)
				switch id {
				case "camera.attic": // unavailable: the camera proxy answers 500
					if !res.IsError || !strings.Contains(text, "Home Assistant says the “Attic” camera is unavailable") {
						t.Errorf("the unavailable Attic: %q", text)
					}
				case "camera.porch": // turned off: 503
					if !res.IsError || !strings.Contains(text, "is turned off in Home Assistant") {
						t.Errorf("the Porch, turned off: %q", text)
					}
				case "camera.reolink_html_error": // an HTML page
					if !res.IsError || !strings.Contains(text, "not a usable picture") {
						t.Errorf("the Side Gate, an HTML page: %q", text)
					}
				default:
					img := picture(t, id, res)
					b := img.Bounds()
					sizes[id] = fmt.Sprintf("%dx%d", b.Dx(), b.Dy())
					if !strings.Contains(text, "This is the “"+names[id]+"”") {
						t.Errorf("%s: the words do not say which camera: %q", id, text)
					}
					if id == "camera.reolink_truncated" && !strings.Contains(text, "The bottom half of the picture is missing and left grey") {
						t.Errorf("the truncated Driveway frame: the words do not say what is missing: %q", text)
					}
				}
			}

			res, text := ask(t, cs, "camera_snapshot", map[string]any{"camera": "patio", "region": "top right"})
			picture(t, "the Patio's top right", res)
			if res.IsError || !strings.Contains(text, "top right quarter") {
				t.Errorf("a closer look: %q", text)
			}

			res, text = ask(t, cs, "camera_overview", nil)
			picture(t, "the overview", res)
			if res.IsError || !strings.Contains(text, "This picture shows six cameras") {
				t.Errorf("the overview: %q", text)
			}

			// Home Assistant attaches the camera's own frame to the AI task
			// (media-source://camera/<id>), not the one maison repaired: the
			// AI measures the Patio's frame, whose lying comment Pillow
			// skips, at the size maison showed; the Shed's frame without its
			// end marker and the truncated Driveway frame make Pillow fail,
			// and maison then says why and what the sensors report.
			res, text = ask(t, cs, "describe_camera", map[string]any{"camera": "camera.dahua_com_too_short"})
			m := regexp.MustCompile(`a (\d+x\d+) picture, mean brightness (\d+) of 255`).FindStringSubmatch(text)
			switch {
			case res.IsError || m == nil || !strings.Contains(text, "Home Assistant's AI, asked what the picture shows, answered"):
				t.Errorf("describe_camera of the Patio: no answer from the AI task: %q", text)
			case m[1] != sizes["camera.dahua_com_too_short"]:
				t.Errorf("describe_camera of the Patio: the AI measured %s, maison showed %s", m[1], sizes["camera.dahua_com_too_short"])
			default:
				if b, _ := strconv.Atoi(m[2]); b <= 0 || b >= 255 {
					t.Errorf("describe_camera of the Patio: brightness %d", b)
				}
			}
			for _, id := range []string{"camera.esp32cam_missing_eoi", "camera.reolink_truncated"} {
				res, text := ask(t, cs, "describe_camera", map[string]any{"camera": id})
				t.Logf("describe_camera %s: %s", id, text)
				// Home Assistant hands its AI the camera's own damaged frame,
				// so this fails every time: said so, not as a brief moment.
				if res.IsError || !strings.Contains(text, "Home Assistant's AI could not read this camera's picture") || strings.Contains(text, "answered") || strings.Contains(text, "usually brief") {
					t.Errorf("describe_camera %s, a frame the AI task cannot open: %q", id, text)
				}
			}
		})
	}
}

// Package check is `maison check`: it connects to Home Assistant as maison
// would and says, one line per item, what works and how to fix what does
// not: reachability, version, user and privileges, the Assist endpoint and
// its tools, and every camera fetched, repaired and fitted.
package check

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"maison/assist"
	"maison/bridge"
	"maison/camera"
	"maison/homeassistant"
	"maison/words"
)

// Config is what to check.
type Config struct {
	// Bridge is maison's settings, as serve would run with them: which Home
	// Assistant, the cameras offered, the AI task. Check builds the parts
	// with them (no MCP server) and waits for nothing.
	Bridge bridge.Config
	// ProbeFullAPI also asks whether Home Assistant's full /api/mcp endpoint
	// refuses this user, as it should. Off by default: Home Assistant before
	// 2026.10 counts the expected 401 as a failed login and may ban the
	// address after a few (2026.10 and later answer 403, not counted).
	ProbeFullAPI bool
	// ContactTimeout bounds the first contact with Home Assistant, until
	// it has said its first word on the websocket: something at the
	// address that accepts the connection and stays silent this long is
	// not Home Assistant. Zero means 10 s.
	ContactTimeout time.Duration
}

// again is check's sentence for trying again: it runs once and, unlike
// serve, does not retry on its own.
const again = "Run maison check again once it is up."

// report writes the lines and remembers whether anything failed. Once the
// check is stopped (its context ends), it says so once and nothing more:
// what fails then is the stop, not Home Assistant.
type report struct {
	ctx     context.Context
	w       io.Writer
	failed  bool
	stopped bool
}

func (r *report) ok(format string, a ...any)   { r.line("ok    ", format, a...) }
func (r *report) warn(format string, a ...any) { r.line("note  ", format, a...) }
func (r *report) fail(format string, a ...any) {
	r.failed = true
	r.line("FAIL  ", format, a...)
}

func (r *report) line(prefix, format string, a ...any) {
	if r.ctx.Err() != nil {
		r.stop()
		return
	}
	fmt.Fprintf(r.w, prefix+format+"\n", a...)
}

// stop says, once, that the check concluded nothing.
func (r *report) stop() {
	if !r.stopped {
		r.stopped = true
		fmt.Fprintln(r.w, "stop  the check was stopped before it finished, so it concluded nothing about Home Assistant: run maison check again")
	}
}

// Run checks and writes one line per item to w. It reports whether
// everything needed works; notes (a camera turned off) do not count. A
// check stopped before it finished reports false and says so.
func Run(ctx context.Context, cfg Config, w io.Writer) bool {
	r := &report{ctx: ctx, w: w}
	defer func() {
		if ctx.Err() != nil {
			r.stop()
		}
	}()
	bc := cfg.Bridge
	bc.NoTools, bc.ReachLater = true, false
	contact := cmp.Or(cfg.ContactTimeout, 10*time.Second)
	adjust := bc.HomeAssistant
	bc.HomeAssistant = func(hc *homeassistant.Config) {
		hc.HandshakeTimeout = contact
		if adjust != nil {
			adjust(hc)
		}
	}
	b, err := bridge.Start(ctx, bc)
	if err != nil {
		where := bc.URL
		if bc.Demo != nil {
			where = "the demo house"
		}
		var he *homeassistant.Error
		if errors.As(err, &he) {
			r.fail("Home Assistant at %s: %s. %s", where, he.Kind, oneLine(he.AdviceOnce(again)))
		} else {
			r.fail("settings: %v", err)
		}
		return false
	}
	defer b.Close()
	ha := b.HA

	conf := ha.Config()
	r.ok("Home Assistant %s reachable at %s (%s)", ha.Version(), b.URL, conf.LocationName)
	u := ha.User()
	r.ok("signed in as %q, not an administrator (maison refuses admin tokens)", u.Name)
	states := ha.States()
	r.ok("live state: %d entities over the websocket", len(states))

	tools, err := ha.AssistTools(ctx)
	if err != nil {
		r.fail("Assist endpoint: %s", advice(err))
	} else {
		names := make([]string, len(tools))
		for i, t := range tools {
			names[i] = t.Canonical
		}
		slices.Sort(names)
		r.ok("Assist endpoint answers with %d tools: %s", len(tools), strings.Join(names, ", "))
	}
	exp, err := b.Live.Exposure(ctx)
	switch {
	case errors.Is(err, assist.ErrNoMatch) || err == nil && len(exp.Entities) == 0:
		r.fail("nothing is exposed to Assist: expose devices in Settings › Voice assistants › Expose")
	case err != nil:
		r.fail("exposed to Assist: %s", advice(err))
	default:
		checkExposure(ha, exp, r)
	}
	checkAITask(ha.AITasks(), bc.AITask, r)
	if cfg.ProbeFullAPI {
		probeFullAPI(ctx, ha, r)
	}
	checkCameras(ctx, ha, b.Cameras, bc.Cameras, r)
	return !r.failed && ctx.Err() == nil
}

// checkExposure says how much of what is exposed maison knows by identity,
// and names every entity it cannot tie to one entity id, with the fix.
func checkExposure(ha *homeassistant.Client, exp assist.Exposure, r *report) {
	known := 0
	for _, e := range exp.Entities {
		if e.ID != "" {
			known++
		}
	}
	r.ok("exposed to Assist: %d entities, %d of them known by identity", len(exp.Entities), known)
	if !ha.ExposureKnown() {
		r.warn("Home Assistant's entity registry could not be read with each entity's exposure, so maison ties exposed devices to their entity ids by their words, states and areas alone, and withholds any it cannot tell apart")
	}
	for _, d := range exp.Doubts {
		what := fmt.Sprintf("%q (%s)", d.Entity.NamesText, d.Entity.Domain)
		switch d.Reason {
		case words.DoubtShared:
			r.warn("%s is exposed, but its name and area fit several entities (%s): maison says it by name only, never shows its picture or history, and asks before anything it could open. Rename the others in Home Assistant, or list cameras by entity id in MAISON_CAMERAS", what, strings.Join(d.Candidates, ", "))
		case words.DoubtUnknownExposure:
			r.warn("%s is exposed, but %s has no registry entry (or none that stores its Assist exposure), so maison cannot confirm it: it says it by name only and never shows its picture. Give it a unique id in Home Assistant (set it up from the UI), or list cameras by entity id in MAISON_CAMERAS", what, strings.Join(d.Candidates, ", "))
		default:
			r.warn("%s is exposed, but no single entity has that name, area and state: maison says it by name only. If this lasts, rename the device in Home Assistant or list cameras by entity id in MAISON_CAMERAS", what)
		}
	}
	if len(exp.Unlisted) > 0 {
		r.warn("the registry says %s are exposed, but Assist's live context does not show them under their names: maison does not show them", strings.Join(exp.Unlisted, ", "))
	}
	var unregistered []string
	for _, st := range ha.States() {
		d, _, _ := strings.Cut(st.EntityID, ".")
		if _, ok := ha.Entry(st.EntityID); !ok && (d == "camera" || d == "lock" || d == "cover" || d == "valve" || d == "alarm_control_panel") {
			unregistered = append(unregistered, st.EntityID)
		}
	}
	if len(unregistered) > 0 {
		r.warn("%s have no registry entry, so whether they are exposed to Assist cannot be read: maison never shows them, and asks before anything that could open them. Give them unique ids in Home Assistant, or list cameras by entity id in MAISON_CAMERAS", strings.Join(unregistered, ", "))
	}
}

// checkCameras fetches, repairs and fits a frame of every camera offered.
func checkCameras(ctx context.Context, ha *homeassistant.Client, svc *camera.Service, allow []string, r *report) {
	cams, err := svc.List(ctx)
	if err != nil {
		r.fail("cameras: %s", advice(err))
		return
	}
	if len(cams) == 0 {
		r.warn("no camera is exposed to Assist or listed in MAISON_CAMERAS")
	}
	for _, id := range allow {
		if _, ok := ha.State(id); !ok {
			r.fail("MAISON_CAMERAS lists %s, which Home Assistant does not know; check the entity id in Settings › Entities", id)
		}
	}
	for _, cam := range cams {
		snap, err := svc.Snapshot(ctx, cam)
		var ce *camera.Error
		switch {
		case errors.As(err, &ce) && errors.Is(err, homeassistant.KindCameraOff):
			r.warn("camera %s (%s): turned off in Home Assistant; nothing to check until it is on", cam.Name, cam.EntityID)
			continue
		case errors.As(err, &ce) && errors.Is(err, homeassistant.KindCameraFailed) && cam.State == "unavailable":
			// Home Assistant answers 500 for a camera it has lost (2026.11):
			// the camera's trouble, not maison's setup.
			r.warn("camera %s (%s): unavailable in Home Assistant, which has lost touch with it; nothing to check until it is back (check its power and network, or its integration in Settings › Devices & services)", cam.Name, cam.EntityID)
			continue
		case err != nil:
			r.fail("camera %s (%s): %s", cam.Name, cam.EntityID, advice(err))
			continue
		}
		im := snap.Image
		repaired := "Nothing to repair."
		if len(snap.Repairs) > 0 {
			repaired = "Repaired: " + strings.Join(snap.Repairs, " ")
		}
		fitted := "Not resized or re-encoded: already within client limits."
		if im.Reencoded {
			fitted = fmt.Sprintf("Fitted to %dx%d, %s at quality %d.", im.Width, im.Height, kb(len(im.JPEG)), im.Quality)
		}
		r.ok("camera %s (%s): fetched %dx%d, %s. %s %s", cam.Name, cam.EntityID, im.SourceWidth, im.SourceHeight, kb(snap.FetchedBytes), repaired, fitted)
	}
}

// checkAITask says which AI task describe_camera will ask, as the running
// bridge chooses it.
func checkAITask(tasks []homeassistant.AITask, want string, r *report) {
	switch {
	case want == camera.AIOff:
		r.ok("AI descriptions are off (MAISON_AI_TASK=off): describe_camera says what the sensors report")
		return
	case len(tasks) == 0 && want == "":
		r.warn("no AI task that accepts pictures: describe_camera will say what the sensors report, not what the picture shows")
		return
	}
	for _, t := range tasks {
		if want == "" || t.EntityID == want {
			r.ok("AI task %s (%s) can describe camera frames for voice", t.Name, t.EntityID)
			return
		}
	}
	r.fail("MAISON_AI_TASK is %s, but that is not an AI task that accepts pictures; choose one of the AI tasks in Home Assistant, leave it empty for the first, or set off", want)
}

// advice is the operator's fix for err, on one line.
func advice(err error) string {
	var he *homeassistant.Error
	if errors.As(err, &he) {
		return oneLine(he.AdviceOnce(again))
	}
	var ce *camera.Error
	if errors.As(err, &ce) {
		return oneLine(ce.Say("en"))
	}
	return err.Error()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func kb(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%d KB", (n+512)/1024)
}

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
	"maison/voice"
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

// report writes the lines and remembers whether anything failed. Once the
// check is stopped (its context ends), it says so once and nothing more:
// what fails then is the stop, not Home Assistant.
type report struct {
	ctx     context.Context
	w       io.Writer
	lang    voice.Lang // the house's: the lines' words
	failed  bool
	stopped bool
}

func (r *report) ok(text string)   { r.line("ok    ", text) }
func (r *report) warn(text string) { r.line("note  ", text) }
func (r *report) fail(text string) {
	r.failed = true
	r.line("FAIL  ", text)
}

func (r *report) line(prefix, text string) {
	if r.ctx.Err() != nil {
		r.stop()
		return
	}
	fmt.Fprintln(r.w, prefix+text)
}

// stop says, once, that the check concluded nothing.
func (r *report) stop() {
	if !r.stopped {
		r.stopped = true
		fmt.Fprintln(r.w, "stop  "+words.CheckStopped(r.lang))
	}
}

// Run checks and writes one line per item to w. It reports whether
// everything needed works; notes (a camera turned off) do not count. A
// check stopped before it finished reports false and says so.
func Run(ctx context.Context, cfg Config, w io.Writer) bool {
	r := &report{ctx: ctx, w: w, lang: cfg.Bridge.Lang}
	l := r.lang
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
			where = ""
		}
		var he *homeassistant.Error
		if errors.As(err, &he) {
			r.fail(words.CheckUnreached(l, where, he.Kind.String(), oneLine(words.Advice(l, he.Kind, he.Case(), true))))
		} else {
			r.fail(words.CheckSettings(l, err))
		}
		return false
	}
	defer b.Close()
	ha := b.HA

	conf := ha.Config()
	r.ok(words.CheckReachable(l, ha.Version(), b.URL, conf.LocationName))
	r.ok(words.CheckSignedIn(l, ha.User().Name))
	r.ok(words.CheckLiveState(l, len(ha.States())))

	tools, err := ha.AssistTools(ctx)
	if err != nil {
		r.fail(words.CheckAssistFailed(l, advice(l, err)))
	} else {
		names := make([]string, len(tools))
		for i, t := range tools {
			names[i] = t.Canonical
		}
		slices.Sort(names)
		r.ok(words.CheckAssistTools(l, len(tools), strings.Join(names, ", ")))
	}
	exp, err := b.Live.Exposure(ctx)
	switch {
	case errors.Is(err, assist.ErrNoMatch) || err == nil && len(exp.Entities) == 0:
		r.fail(words.CheckNothingExposed(l))
	case err != nil:
		r.fail(words.CheckExposureFailed(l, advice(l, err)))
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
	r.ok(words.CheckExposed(r.lang, len(exp.Entities), known))
	if !ha.ExposureKnown() {
		r.warn(words.CheckExposureUnknown(r.lang))
	}
	for _, d := range exp.Doubts {
		what := fmt.Sprintf("%q (%s)", d.Entity.NamesText, d.Entity.Domain)
		r.warn(words.CheckDoubt(r.lang, d.Reason, what, strings.Join(d.Candidates, ", ")))
	}
	if len(exp.Unlisted) > 0 {
		r.warn(words.CheckUnlisted(r.lang, strings.Join(exp.Unlisted, ", ")))
	}
	var unregistered []string
	for _, st := range ha.States() {
		d, _, _ := strings.Cut(st.EntityID, ".")
		if _, ok := ha.Entry(st.EntityID); !ok && (d == "camera" || d == "lock" || d == "cover" || d == "valve" || d == "alarm_control_panel") {
			unregistered = append(unregistered, st.EntityID)
		}
	}
	if len(unregistered) > 0 {
		r.warn(words.CheckUnregistered(r.lang, strings.Join(unregistered, ", ")))
	}
}

// checkCameras fetches, repairs and fits a frame of every camera offered.
func checkCameras(ctx context.Context, ha *homeassistant.Client, svc *camera.Service, allow []string, r *report) {
	l := r.lang
	cams, err := svc.List(ctx)
	if err != nil {
		r.fail(words.CheckCamerasFailed(l, advice(l, err)))
		return
	}
	if len(cams) == 0 {
		r.warn(words.CheckNoCamera(l))
	}
	for _, id := range allow {
		if _, ok := ha.State(id); !ok {
			r.fail(words.CheckUnknownCamera(l, id))
		}
	}
	for _, cam := range cams {
		snap, err := svc.Snapshot(ctx, cam)
		var ce *camera.Error
		switch {
		case errors.As(err, &ce) && errors.Is(err, homeassistant.KindCameraOff):
			r.warn(words.CheckCameraOff(l, cam.Name, cam.EntityID))
			continue
		case errors.As(err, &ce) && errors.Is(err, homeassistant.KindCameraFailed) && cam.State == "unavailable":
			// Home Assistant answers 500 for a camera it has lost (2026.11):
			// the camera's trouble, not maison's setup.
			r.warn(words.CheckCameraUnavailable(l, cam.Name, cam.EntityID))
			continue
		case err != nil:
			r.fail(words.CheckCameraFailed(l, cam.Name, cam.EntityID, advice(l, err)))
			continue
		}
		im := snap.Image
		r.ok(words.CheckCamera(l, cam.Name, cam.EntityID, im.SourceWidth, im.SourceHeight, snap.FetchedBytes,
			strings.Join(snap.Repairs, " "), im.Reencoded, im.Width, im.Height, len(im.JPEG), im.Quality))
	}
}

// checkAITask says which AI task describe_camera will ask, as the running
// bridge chooses it.
func checkAITask(tasks []homeassistant.AITask, want string, r *report) {
	switch {
	case want == camera.AIOff:
		r.ok(words.CheckAIOff(r.lang))
		return
	case len(tasks) == 0 && want == "":
		r.warn(words.CheckNoAITask(r.lang))
		return
	}
	for _, t := range tasks {
		if want == "" || t.EntityID == want {
			r.ok(words.CheckAITask(r.lang, t.Name, t.EntityID))
			return
		}
	}
	r.fail(words.CheckAITaskWrong(r.lang, want))
}

// advice is the operator's fix for err, on one line, in l.
func advice(l voice.Lang, err error) string {
	var he *homeassistant.Error
	if errors.As(err, &he) {
		return oneLine(words.Advice(l, he.Kind, he.Case(), true))
	}
	var ce *camera.Error
	if errors.As(err, &ce) {
		return oneLine(ce.Say(l))
	}
	return err.Error()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

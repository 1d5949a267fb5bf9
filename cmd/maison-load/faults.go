//go:build unix

package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"maison/demo"
)

// faulty stands in front of the demo house and breaks its cameras' frames
// on demand: they arrive broken (cut short, or garbage). A camera that
// stalls is the demo's own (SetCameraStall), answered as Home Assistant
// does, 500 once its ten seconds pass.
type faulty struct {
	next http.Handler

	mu     sync.Mutex
	broken bool
	n      int
}

func (f *faulty) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, "/api/camera_proxy/") {
		f.next.ServeHTTP(w, r)
		return
	}
	f.mu.Lock()
	broken := f.broken
	f.n++
	n := f.n
	f.mu.Unlock()
	if !broken {
		f.next.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	f.next.ServeHTTP(rec, r)
	body := rec.Body.Bytes()
	switch n % 3 {
	case 0: // cut short in the middle of the picture
		body = body[:len(body)/2]
	case 1: // not a picture at all
		body = []byte("<html><body>502 Bad Gateway</body></html>")
	default: // a run of zeros over the scan data
		body = append([]byte(nil), body...)
		for i := len(body) / 3; i < len(body)/3+4096 && i < len(body); i++ {
			body[i] = 0
		}
	}
	w.Header().Set("Content-Type", "image/jpeg")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(rec.Code)
	w.Write(body)
}

func (f *faulty) setBroken(b bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.broken = b
}

// step is one fault: what is done, for how long, and how it is undone.
type step struct {
	name  string
	start func()
	last  time.Duration
	end   func()
}

// runFaults serves the demo house behind faulty, runs maison serve
// against it, drives mixed calls through a script of faults, and checks
// that every request was answered with a result or words, that maison
// recovered without a restart, and that nothing leaked.
func runFaults(ctx context.Context, o options) (err error) {
	clients := o.clients[0]
	if clients < 1 || clients > maxClients {
		return fmt.Errorf("-clients %d: give 1 to %d", clients, maxClients)
	}
	house := demo.New(demo.Options{LiveFrames: true})
	f := &faulty{next: house.Handler()}
	haURL, closeHouse, err := serveHouse(f)
	if err != nil {
		return err
	}
	defer closeHouse()
	env := []string{"MAISON_HA_URL=" + haURL, "MAISON_HA_TOKEN=" + house.UserToken()}
	store, err := startStore(ctx)
	if err != nil {
		return err
	}
	if store != nil {
		defer os.RemoveAll(store.dir)
		defer store.kill()
		env = append(env, "MAISON_STATE_URL="+store.url)
	}
	m, err := startMaison(ctx, o.maison, []string{"serve"}, env, o.logs)
	if err != nil {
		return err
	}
	defer func() {
		if e := m.stop(); e != nil && err == nil {
			err = e
		}
	}()

	scale := func(full, short time.Duration) time.Duration {
		if o.short {
			return short
		}
		return full
	}
	steps := []step{
		{"none (before any fault)", func() {}, scale(10*time.Second, 4*time.Second), func() {}},
		{"Home Assistant restarts (503 everywhere, websocket dropped)", func() { house.SetDown(true) }, scale(15*time.Second, 6*time.Second), func() { house.SetDown(false) }},
		{"recovering from the restart", func() {}, scale(10*time.Second, 5*time.Second), func() {}},
		{"websocket dropped without a close frame", house.DropConnections, scale(5*time.Second, 3*time.Second), func() {}},
		{"front door camera stalled 30 s", func() { house.SetCameraStall("camera.front_door", 30*time.Second) }, 30 * time.Second,
			func() { house.SetCameraStall("camera.front_door", 0) }},
		{"Home Assistant 25 s slow", func() { house.SetLatency(25 * time.Second) }, scale(time.Minute, 20*time.Second), func() { house.SetLatency(0) }},
		{"broken frames from every camera", func() { f.setBroken(true) }, scale(15*time.Second, 6*time.Second), func() { f.setBroken(false) }},
	}
	if store != nil {
		steps = append(steps, step{"the state store killed (Redis, SIGKILL), then started again", store.kill, scale(15*time.Second, 6*time.Second), func() {
			if err := store.start(ctx); err != nil {
				fmt.Printf("  the state store did not start again: %v\n", err)
			}
		}})
	} else {
		fmt.Println("  (no redis-server or valkey-server on PATH: the state store's fault is left out; apt-get install redis-server)")
	}
	steps = append(steps, step{"after every fault", func() {}, scale(10*time.Second, 5*time.Second), func() {}})

	// Warm up every path, then take the idle figures.
	drive(ctx, m, mixedCalls, 4, 3*time.Second, nil)
	time.Sleep(3 * time.Second)
	idleG, _, err := m.goroutines()
	if err != nil {
		return err
	}
	idleFiles := m.openFiles()
	fmt.Printf("maison-load faults: maison serve at %s against the demo house at %s; %d clients; idle: %d goroutines, %d open files\n", m.url, haURL, clients, idleG, idleFiles)

	// Each request counts for the fault under way when it was sent.
	var mu sync.Mutex
	var began []time.Time
	byStep := map[string][]outcome{}
	record := func(o outcome) {
		mu.Lock()
		defer mu.Unlock()
		i := 0
		for i+1 < len(began) && !o.at.Before(began[i+1]) {
			i++
		}
		byStep[steps[i].name] = append(byStep[steps[i].name], o)
	}
	total := time.Duration(0)
	for _, s := range steps {
		total += s.last
	}
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan phase, 1)
	go func() { done <- drive(lctx, m, mixedCalls, clients, total+time.Minute, record) }()
	unlocks := make(chan unlockTally, 1)
	go func() { unlocks <- unlockLoop(lctx, m, house, record) }()
	for _, s := range steps {
		mu.Lock()
		began = append(began, time.Now())
		mu.Unlock()
		fmt.Printf("  %s: %s\n", time.Now().Format("15:04:05"), s.name)
		s.start()
		select {
		case <-time.After(s.last):
		case <-ctx.Done():
			s.end()
			return ctx.Err()
		}
		s.end()
	}
	cancel()
	<-done
	tally := <-unlocks

	// Recovery: every tool answers again, without a restart.
	recovered := true
	var recoveryWords string
	c := newClient(m, 60*time.Second)
	for _, k := range []call{callToolsList, callListCameras, callSnapshot("front door"), callSnapshot("garage"), callDescribe("backyard")} {
		var o outcome
		for try := 0; try < 10; try++ {
			if o = c.do(ctx, k); o.ok() {
				break
			}
			time.Sleep(time.Second)
		}
		if !o.ok() {
			recovered = false
			recoveryWords += k.label + ": " + o.kind + " " + o.words + "; "
		}
	}
	c.close()
	time.Sleep(5 * time.Second)
	afterG, heap, err := m.goroutines()
	if err != nil {
		return err
	}
	afterFiles := m.openFiles()
	rss, peak := m.memory()

	report(byStep, steps)
	fmt.Printf("recovered without a restart: %v %s\n", recovered, recoveryWords)
	fmt.Printf("unlocks: %d codes proposed, each redeemed twice at once; %d acted once, %d refused in words (%d because the store could not check), %d acted twice\n",
		tally.codes, tally.acted, tally.refused, tally.unchecked, tally.twice)
	fmt.Printf("afterwards: %d goroutines (idle before: %d), %d open files (idle before: %d), heap %s MB, resident %s MB, peak %s MB\n",
		afterG, idleG, afterFiles, idleFiles, mb(heap), mb(rss), mb(peak))
	var problems []string
	for name, os := range byStep {
		for _, o := range os {
			if lost(o) {
				problems = append(problems, fmt.Sprintf("lost during %q: %s %s %s", name, o.label, o.kind, clipWords(o.words)))
				break
			}
		}
	}
	if !recovered {
		problems = append(problems, "not recovered: "+recoveryWords)
	}
	if tally.twice > 0 {
		problems = append(problems, fmt.Sprintf("%d confirmation codes acted twice", tally.twice))
	}
	if tally.acted == 0 {
		problems = append(problems, "no unlock ever acted: the sensitive path was not exercised")
	}
	if afterG > idleG+idlePoolGoroutines {
		problems = append(problems, fmt.Sprintf("goroutines leaked: %d after, %d idle before", afterG, idleG))
	}
	if afterFiles > idleFiles+idlePoolFiles {
		problems = append(problems, fmt.Sprintf("open files leaked: %d after, %d idle before", afterFiles, idleFiles))
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "\n"))
	}
	return nil
}

// What may differ between two idle moments without a leak: maison keeps
// up to 4 idle connections to Home Assistant for 90 s (two goroutines and
// one file each). A leak grows with the thousands of requests of a run.
const (
	idlePoolGoroutines = 8
	idlePoolFiles      = 4
)

// lost reports a request answered neither with a result nor with words:
// no answer, or something that is not JSON-RPC, or an error that is not
// a sentence.
func lost(o outcome) bool {
	switch o.kind {
	case "ok":
		return false
	case "tool error", "rpc error":
		w := strings.TrimSpace(o.words)
		return w == "" || !strings.ContainsAny(w[len(w)-1:], ".!?…")
	}
	return true
}

// report prints, for each fault, how the requests made during it ended and
// the words they got.
func report(byStep map[string][]outcome, steps []step) {
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "fault\trequests\tresult\twords (tool error)\tJSON-RPC error\tlost\tp99 ms")
	for _, s := range steps {
		os := byStep[s.name]
		counts := map[string]int{}
		var lat []time.Duration
		nlost := 0
		for _, o := range os {
			counts[o.kind]++
			lat = append(lat, o.latency)
			if lost(o) {
				nlost++
			}
		}
		slices.Sort(lat)
		p99 := time.Duration(0)
		if len(lat) > 0 {
			p99 = lat[min(len(lat)-1, len(lat)*99/100)]
		}
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%d\t%s\n", s.name, len(os), counts["ok"], counts["tool error"], counts["rpc error"], nlost, ms(p99))
	}
	w.Flush()
	fmt.Println("\nwords given, per fault (each distinct answer, with its count):")
	for _, s := range steps {
		seen := map[string]int{}
		for _, o := range byStep[s.name] {
			if o.kind != "ok" {
				seen[o.label+" → "+o.kind+" "+strconv.Itoa(o.status)+": "+clipWords(o.words)]++
			}
		}
		if len(seen) == 0 {
			continue
		}
		fmt.Printf("  %s:\n", s.name)
		keys := make([]string, 0, len(seen))
		for k := range seen {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Printf("    %d× %s\n", seen[k], k)
		}
	}
}

// serveHouse serves a demo house on loopback in this process and returns
// its URL and how to stop it.
func serveHouse(h http.Handler) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	return "http://" + ln.Addr().String(), func() { hs.Close() }, nil
}

// startTarget runs maison demo, or, with -house apart, maison serve
// against a demo house in this process, so that maison's memory is its
// own and not the simulated Home Assistant's too. The function it returns
// stops maison, then the house, and says how maison stopped.
func startTarget(ctx context.Context, o options) (*target, func() error, error) {
	if o.house != "apart" {
		m, err := startMaison(ctx, o.maison, []string{"demo"}, nil, o.logs)
		if err != nil {
			return nil, nil, err
		}
		return m, m.stop, nil
	}
	house := demo.New(demo.Options{LiveFrames: true})
	haURL, closeHouse, err := serveHouse(house.Handler())
	if err != nil {
		return nil, nil, err
	}
	m, err := startMaison(ctx, o.maison, []string{"serve"}, []string{"MAISON_HA_URL=" + haURL, "MAISON_HA_TOKEN=" + house.UserToken()}, o.logs)
	if err != nil {
		closeHouse()
		return nil, nil, err
	}
	return m, func() error {
		defer closeHouse()
		return m.stop()
	}, nil
}

// keepFirst runs stop, keeping its error in *err unless *err already holds
// one: deferred, it lets a run's own failure win over its cleanup's.
func keepFirst(err *error, stop func() error) {
	if e := stop(); e != nil && *err == nil {
		*err = e
	}
}

// intList reads 1,8,32.
func intList(s string) ([]int, error) {
	var out []int
	for _, f := range splitList(s) {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no number in %q", s)
	}
	return out, nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// unlockTally is what the unlocks of a fault run came to.
type unlockTally struct {
	codes, acted, refused, unchecked, twice int
}

// codeRE finds a confirmation code in a proposal.
var codeRE = regexp.MustCompile(`\bc-[a-z2-7]{64}\b`)

// unlockLoop asks, again and again until ctx ends, to unlock the front
// door: a proposal, then its code sent twice at once, as a replayed
// request would be; the lock is locked again after each. A code that acts
// twice is the fault this counts; one whose use the store could not check
// is sent again until it is checked.
func unlockLoop(ctx context.Context, m *target, house *demo.House, record func(outcome)) unlockTally {
	var t unlockTally
	c := newClient(m, 60*time.Second)
	defer c.close()
	pair := [2]*client{newClient(m, 60*time.Second), newClient(m, 60*time.Second)}
	defer pair[0].close()
	defer pair[1].close()
	lock := map[string]any{"name": "Front Door Lock"}
	for ctx.Err() == nil {
		o := c.do(ctx, toolCall("unlock: proposal", "turn_off", lock))
		if o.kind == "canceled" {
			break
		}
		record(o)
		code := codeRE.FindString(o.words)
		if code == "" {
			time.Sleep(200 * time.Millisecond)
			continue
		}
		t.codes++
		acted := 0
		for try := 0; try < 60 && ctx.Err() == nil; try++ {
			redeem := toolCall("unlock: the code, twice at once", "turn_off", map[string]any{"name": "Front Door Lock", "confirmation": code})
			var wg sync.WaitGroup
			var outs [2]outcome
			for i := range outs {
				wg.Go(func() { outs[i] = pair[i].do(ctx, redeem) })
			}
			wg.Wait()
			unchecked := false
			for _, r := range outs {
				if r.kind == "canceled" {
					continue
				}
				record(r)
				switch {
				case r.ok():
					acted++
				case strings.Contains(r.words, "memory of answers"):
					unchecked = true
				}
			}
			if !unchecked || acted > 0 {
				break
			}
			t.unchecked++
			time.Sleep(500 * time.Millisecond) // the store is away: the same code again later
		}
		switch {
		case acted == 1:
			t.acted++
		case acted > 1:
			t.twice++
		default:
			t.refused++
		}
		house.SetState("lock.front_door", "locked", nil)
	}
	return t
}

//go:build unix

package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// runLoad measures maison demo and the bare server in turn (A B A B…) for
// each mix and number of clients, and prints the figures side by side.
func runLoad(ctx context.Context, o options) (err error) {
	for _, c := range o.clients {
		if c < 1 || c > maxClients {
			return fmt.Errorf("-clients %d: give 1 to %d", c, maxClients)
		}
	}
	bare, err := startBare(ctx)
	if err != nil {
		return err
	}
	defer bare.stop()
	m, stop, err := startTarget(ctx, o)
	if err != nil {
		return err
	}
	defer keepFirst(&err, stop)
	fmt.Printf("maison-load: maison (%s) at %s, bare go-sdk server at %s; %d round(s) of %s per phase\n", o.what(), m.url, bare.url, o.rounds, o.duration)
	// Warm both up: first frames rendered, connections made, and every
	// camera's power known (list_cameras asks the cameras it does not know
	// about, for up to 1.5 s, the first time).
	for _, t := range []*target{bare, m} {
		mx, _ := mixFor("mixed", t == bare)
		drive(ctx, t, mx, 4, 2*time.Second, nil)
	}
	warm(ctx, m)
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "round\ttarget\tmix\tclients\trequests\terrors\treq/s\tp50 ms\tp99 ms\tpeak RSS MB\t")
	type key struct {
		mix     string
		clients int
	}
	ratios := map[key][][2]summary{}
	var failures []string
	for round := 1; round <= o.rounds; round++ {
		for _, name := range o.mixes {
			for _, clients := range o.clients {
				var pair [2]summary
				for i, t := range []*target{bare, m} {
					if t == bare && name != "list_cameras" {
						continue // the floor is measured once per number of clients
					}
					mx, err := mixFor(name, t == bare)
					if err != nil {
						return err
					}
					t.resetPeak()
					p := drive(ctx, t, mx, clients, o.duration, nil)
					_, peak := t.memory()
					s := p.summary()
					pair[i] = s
					label := name
					if t == bare {
						label = "echo"
					}
					fmt.Fprintf(w, "%d\t%s\t%s\t%d\t%d\t%d\t%.0f\t%s\t%s\t%s\t\n", round, t.name, label, clients, s.requests, s.errors, s.perSecond, ms(s.p50), ms(s.p99), mb(peak))
					if s.errors > 0 {
						failures = append(failures, fmt.Sprintf("%s %s ×%d: %d errors, first: %s", t.name, name, clients, s.errors, s.firstError))
					}
					if ctx.Err() != nil {
						w.Flush()
						return ctx.Err()
					}
				}
				if name == "list_cameras" {
					ratios[key{name, clients}] = append(ratios[key{name, clients}], pair)
				}
			}
		}
	}
	w.Flush()
	fmt.Println()
	for _, clients := range o.clients {
		var tp, p99 []string
		for _, pair := range ratios[key{"list_cameras", clients}] {
			if pair[0].perSecond > 0 && pair[0].p99 > 0 {
				tp = append(tp, fmt.Sprintf("%.2f×", pair[1].perSecond/pair[0].perSecond))
				p99 = append(p99, fmt.Sprintf("%.2f×", float64(pair[1].p99)/float64(pair[0].p99)))
			}
		}
		if len(tp) > 0 {
			fmt.Printf("list_cameras at %d clients against the bare server: throughput %s, p99 %s (round by round)\n", clients, strings.Join(tp, " "), strings.Join(p99, " "))
		}
	}
	fmt.Printf("maison wrote %d log lines\n", m.logs.linesTotal())
	if len(failures) > 0 {
		return fmt.Errorf("requests failed:\n  %s", strings.Join(failures, "\n  "))
	}
	return nil
}

// runSoak runs the mixed load for the whole duration, sampling maison's
// memory, and checks that it stays within 10% of its value after the first
// minute and that goroutines come back to their idle count.
func runSoak(ctx context.Context, o options) (err error) {
	clients := o.clients[0]
	if clients < 1 || clients > maxClients {
		return fmt.Errorf("-clients %d: give 1 to %d", clients, maxClients)
	}
	m, stop, err := startTarget(ctx, o)
	if err != nil {
		return err
	}
	defer keepFirst(&err, stop)
	// Idle means warm: every path taken once, connections to Home
	// Assistant open, then a pause.
	drive(ctx, m, mixedCalls, 4, 3*time.Second, nil)
	warm(ctx, m)
	time.Sleep(5 * time.Second)
	idle, _, err := m.goroutines()
	if err != nil {
		return err
	}
	idleFiles := m.openFiles()
	rss0, _ := m.memory()
	fmt.Printf("maison-load soak: %s, %d clients, mixed calls, %s; idle: %d goroutines, %d open files, %s MB resident\n", o.what(), clients, o.duration, idle, idleFiles, mb(rss0))
	sctx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	done := make(chan phase, 1)
	go func() { done <- drive(sctx, m, mixedCalls, clients, o.duration, nil) }()
	start := time.Now()
	// Resident memory saws up and down with each collection: compare the
	// median of each minute's samples, the first minute's with the last's.
	perMinute := map[int][]int64{}
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	var p phase
	var most int64
loop:
	for {
		select {
		case p = <-done:
			break loop
		case <-tick.C:
			rss, _ := m.memory()
			most = max(most, rss)
			minute := int(time.Since(start) / time.Minute)
			perMinute[minute] = append(perMinute[minute], rss)
			if len(perMinute[minute]) == 12 {
				fmt.Printf("  minute %d: median %s MB resident, %s MB at most\n", minute+1, mb(median(perMinute[minute])), mb(slices.Max(perMinute[minute])))
			}
		}
	}
	last := int((o.duration - time.Nanosecond) / time.Minute)
	atMinute, end := median(perMinute[0]), median(perMinute[last])
	_, peak := m.memory()
	s := p.summary()
	time.Sleep(5 * time.Second) // idle connections close, handlers end
	after, heap, err := m.goroutines()
	if err != nil {
		return err
	}
	files := m.openFiles()
	fmt.Printf("requests %d, errors %d, %.0f req/s, p50 %s ms, p99 %s ms\n", s.requests, s.errors, s.perSecond, ms(s.p50), ms(s.p99))
	fmt.Printf("resident memory, median of the minute's samples: %s MB in the first minute, %s MB in the last (%+.1f%%); %s MB at most sampled, %s MB peak\n",
		mb(atMinute), mb(end), 100*float64(end-atMinute)/float64(max(atMinute, 1)), mb(most), mb(peak))
	fmt.Printf("afterwards: %d goroutines (idle before: %d), %d open files (idle before: %d), heap %s MB\n", after, idle, files, idleFiles, mb(heap))
	var problems []string
	if s.errors > 0 {
		problems = append(problems, fmt.Sprintf("%d requests failed, first: %s", s.errors, s.firstError))
	}
	if last > 0 && atMinute > 0 && float64(end) > 1.10*float64(atMinute) {
		problems = append(problems, "resident memory grew more than 10% after the first minute")
	}
	if after > idle+idlePoolGoroutines || files > idleFiles+idlePoolFiles {
		problems = append(problems, fmt.Sprintf("goroutines or open files did not come back to idle: %d goroutines (idle %d), %d files (idle %d)", after, idle, files, idleFiles))
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return nil
}

// median of samples, or 0.
func median(v []int64) int64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	return v[len(v)/2]
}

// warm calls list_cameras until it answers quickly, within 30 s.
func warm(ctx context.Context, m *target) {
	c := newClient(m, 30*time.Second)
	defer c.close()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end) && ctx.Err() == nil; {
		if o := c.do(ctx, callListCameras); o.ok() && o.latency < 100*time.Millisecond {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}

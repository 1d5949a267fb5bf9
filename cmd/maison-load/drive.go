//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// call is one kind of request a client sends.
type call struct {
	label   string // tools/list, list_cameras, camera_snapshot…
	body    []byte
	batch   int    // messages in a batch, 0 for one message
	version string // Mcp-Protocol-Version; empty means 2025-11-25
}

func rpc(id int, method string, params any) map[string]any {
	return map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}
}

func toolCall(label, tool string, args map[string]any) call {
	b, _ := json.Marshal(rpc(1, "tools/call", map[string]any{"name": tool, "arguments": args}))
	return call{label: label, body: b}
}

var (
	callToolsList = func() call {
		b, _ := json.Marshal(rpc(1, "tools/list", map[string]any{}))
		return call{label: "tools/list", body: b}
	}()
	callListCameras = toolCall("list_cameras", "list_cameras", map[string]any{})
	callEcho        = toolCall("echo", "echo", map[string]any{"text": "hello"})
	demoCameras     = []string{"front door", "garage", "backyard"}
)

func callSnapshot(cam string) call {
	return toolCall("camera_snapshot", "camera_snapshot", map[string]any{"camera": cam})
}

func callDescribe(cam string) call {
	return toolCall("describe_camera", "describe_camera", map[string]any{"camera": cam})
}

// callBatch is a batch of n snapshot calls across the cameras.
func callBatch(n int) call {
	var msgs []any
	for i := range n {
		msgs = append(msgs, rpc(i+1, "tools/call", map[string]any{"name": "camera_snapshot", "arguments": map[string]any{"camera": demoCameras[i%len(demoCameras)]}}))
	}
	b, _ := json.Marshal(msgs)
	// Batches belong to 2025-03-26 and before: later versions refuse them.
	return call{label: "batch of " + strconv.Itoa(n) + " camera_snapshot", body: b, batch: n, version: "2025-03-26"}
}

// mix picks the next call of a client.
type mix func(r *rand.Rand) call

// mixFor names the mixes a load run knows. The bare server has one tool,
// so every mix it runs is that tool.
func mixFor(name string, bare bool) (mix, error) {
	if bare {
		return func(*rand.Rand) call { return callEcho }, nil
	}
	switch name {
	case "list_cameras":
		return func(*rand.Rand) call { return callListCameras }, nil
	case "tools/list":
		return func(*rand.Rand) call { return callToolsList }, nil
	case "mixed":
		return mixedCalls, nil
	case "batch":
		b := callBatch(8)
		return func(*rand.Rand) call { return b }, nil
	}
	return nil, fmt.Errorf("unknown mix %q: use list_cameras, tools/list, mixed or batch", name)
}

// mixedCalls is what a busy house asks: mostly lists, some pictures and
// descriptions.
func mixedCalls(r *rand.Rand) call {
	cam := demoCameras[r.IntN(len(demoCameras))]
	switch n := r.IntN(100); {
	case n < 30:
		return callToolsList
	case n < 60:
		return callListCameras
	case n < 80:
		return callDescribe(cam)
	default:
		return callSnapshot(cam)
	}
}

// outcome is how one request ended.
type outcome struct {
	label   string
	status  int
	kind    string // ok, tool error, rpc error, http error, lost
	words   string // the sentence or error text
	at      time.Time
	latency time.Duration
}

// ok reports a plain success.
func (o outcome) ok() bool { return o.kind == "ok" }

// client sends requests on its own connection.
type client struct {
	t    *target
	http *http.Client
}

func newClient(t *target, timeout time.Duration) *client {
	return &client{t: t, http: &http.Client{Timeout: timeout, Transport: &http.Transport{
		MaxIdleConnsPerHost: 1, DisableCompression: true, ForceAttemptHTTP2: false,
	}}}
}

func (c *client) close() { c.http.CloseIdleConnections() }

// do sends one call and reads how it ended.
func (c *client) do(ctx context.Context, k call) outcome {
	start := time.Now()
	o := outcome{label: k.label, at: start}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.t.url, bytes.NewReader(k.body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	version := k.version
	if version == "" {
		version = "2025-11-25"
	}
	req.Header.Set("Mcp-Protocol-Version", version)
	if c.t.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.t.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		o.kind, o.words, o.latency = "lost", err.Error(), time.Since(start)
		if ctx.Err() != nil {
			o.kind = "canceled" // the run's own end, not the server's doing
		}
		return o
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	o.status, o.latency = resp.StatusCode, time.Since(start)
	if err != nil {
		o.kind, o.words = "lost", err.Error()
		if ctx.Err() != nil {
			o.kind = "canceled"
		}
		return o
	}
	o.kind, o.words = judge(resp.StatusCode, body)
	return o
}

// judge reads a response: a result, a tool error in words, a JSON-RPC
// error, or anything else.
func judge(status int, body []byte) (kind, words string) {
	type answer struct {
		Result *struct {
			IsError bool `json:"isError"`
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	var answers []answer
	var one answer
	if json.Unmarshal(body, &one) == nil && (one.Result != nil || one.Error != nil) {
		answers = []answer{one}
	} else if json.Unmarshal(body, &answers) != nil || len(answers) == 0 {
		return "http error", strconv.Itoa(status) + " " + clipWords(string(body))
	}
	kind = "ok"
	var said []string // an answer's words, kept for a successful one too
	defer func() {
		if kind == "ok" {
			words = strings.Join(said, " ")
		}
	}()
	for _, a := range answers {
		switch {
		case a.Error != nil:
			return "rpc error", a.Error.Message
		case a.Result == nil:
			return "http error", clipWords(string(body))
		case !a.Result.IsError:
			for _, c := range a.Result.Content {
				if c.Type == "text" {
					said = append(said, c.Text)
				}
			}
		case a.Result.IsError:
			kind = "tool error"
			for _, c := range a.Result.Content {
				if c.Type == "text" {
					words = c.Text
					break
				}
			}
		}
	}
	return kind, words
}

func clipWords(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:160]) + "…"
	}
	return s
}

// phase is what one measured run gave.
type phase struct {
	target   string
	mix      string
	clients  int
	took     time.Duration
	outcomes []outcome
	peakRSS  int64
}

// drive runs clients sending from m until d passes (or the request bound).
func drive(ctx context.Context, t *target, m mix, clients int, d time.Duration, record func(outcome)) phase {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var mu sync.Mutex
	p := phase{target: t.name, clients: clients}
	var sent atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() {
			c := newClient(t, 60*time.Second)
			defer c.close()
			r := rand.New(rand.NewPCG(uint64(i), 7))
			for ctx.Err() == nil && sent.Add(1) <= maxRequests {
				o := c.do(ctx, m(r))
				if o.kind == "canceled" {
					return
				}
				if record != nil {
					record(o)
				}
				mu.Lock()
				p.outcomes = append(p.outcomes, o)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	p.took = time.Since(start)
	return p
}

// summary is a phase in figures.
type summary struct {
	requests, errors int
	perSecond        float64
	p50, p99         time.Duration
	firstError       string
}

func (p phase) summary() summary {
	var s summary
	lat := make([]time.Duration, 0, len(p.outcomes))
	for _, o := range p.outcomes {
		s.requests++
		if !o.ok() {
			s.errors++
			if s.firstError == "" {
				s.firstError = o.kind + ": " + clipWords(o.words)
			}
			continue
		}
		lat = append(lat, o.latency)
	}
	s.perSecond = float64(len(lat)) / p.took.Seconds()
	slices.Sort(lat)
	if n := len(lat); n > 0 {
		s.p50, s.p99 = lat[n/2], lat[min(n-1, n*99/100)]
	}
	return s
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 2, 64)
}

func mb(b int64) string { return strconv.FormatFloat(float64(b)/(1<<20), 'f', 1, 64) }

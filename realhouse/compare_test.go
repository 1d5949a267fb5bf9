package realhouse_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"maison/assist"
	"maison/internal/listsize"
	"maison/internal/realha"
	"maison/voice"
	"maison/words"
)

// compare turns on the throughput half of TestComparedWithHomeAssistant, a
// benchmark run by hand (BENCHMARKS.md), not in CI:
//
//	MAISON_REAL_HA=… go test ./realhouse -run TestComparedWithHomeAssistant -compare -v
var compare = flag.Bool("compare", false, "also measure throughput at 16 and 32 clients against Home Assistant's own endpoint")

// endpoint is an MCP server to compare: maison, or Home Assistant's own
// /api/mcp/assist, with the same non-admin user behind both.
type endpoint struct {
	name, url, token string
	// houseTool is the tool that says the state of the house: describe_house,
	// or Home Assistant's GetLiveContext under the name it advertises.
	houseTool string
}

// rpc posts one JSON-RPC request and returns its result.
func (e endpoint) rpc(client *http.Client, method string, params any) (json.RawMessage, error) {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, _ := http.NewRequest("POST", e.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	req.Header.Set("Authorization", "Bearer "+e.token)
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if resp.StatusCode != 200 || json.Unmarshal(b, &out) != nil || out.Result == nil {
		return nil, fmt.Errorf("%s %s: %d %.300s", e.name, method, resp.StatusCode, b)
	}
	return out.Result, nil
}

// text calls the house tool and returns its text.
func (e endpoint) houseText(client *http.Client) (string, error) {
	res, err := e.rpc(client, "tools/call", map[string]any{"name": e.houseTool, "arguments": map[string]any{}})
	if err != nil {
		return "", err
	}
	var r struct {
		Content []struct{ Text string } `json:"content"`
		IsError bool                    `json:"isError"`
	}
	if json.Unmarshal(res, &r) != nil || r.IsError || len(r.Content) == 0 {
		return "", fmt.Errorf("%s %s: %.300s", e.name, e.houseTool, res)
	}
	return r.Content[0].Text, nil
}

// endpoints are maison serve (a child process) and Home Assistant's own
// endpoint, the same user behind both.
func endpoints(t *testing.T, h realha.House) (maison, ha endpoint, pid int) {
	t.Helper()
	url, token, cmd := serveHTTPAt(t, h, "MAISON_LISTEN=127.0.0.1:0")
	maison = endpoint{name: "maison", url: url, token: token, houseTool: "describe_house"}
	ha = endpoint{name: "Home Assistant", url: h.URL + "/api/mcp/assist", token: h.Token}
	list, err := ha.rpc(http.DefaultClient, "tools/list", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	var tools struct{ Tools []struct{ Name string } }
	json.Unmarshal(list, &tools)
	for _, tool := range tools.Tools {
		if tool.Name == "GetLiveContext" || strings.HasSuffix(tool.Name, "__GetLiveContext") {
			ha.houseTool = tool.Name
		}
	}
	if ha.houseTool == "" {
		t.Fatalf("Home Assistant offers no GetLiveContext: %s", list)
	}
	return maison, ha, cmd.Process.Pid
}

// TestComparedWithHomeAssistant holds maison to Home Assistant's own MCP
// endpoint on the real house, for the same non-admin user: maison's
// tools/list is no larger (characters of compact JSON, listsize), and
// describe_house names every entity GetLiveContext lists. It logs both
// sides' sizes and latencies (never asserted), and with -compare their
// throughput at 16 and 32 clients.
func TestComparedWithHomeAssistant(t *testing.T) {
	h := realha.Load(t)
	maison, ha, pid := endpoints(t, h)
	client := &http.Client{Timeout: time.Minute}

	sizes := map[string]listsize.Size{}
	for _, e := range []endpoint{maison, ha} {
		res, err := e.rpc(client, "tools/list", map[string]any{})
		if err != nil {
			t.Fatal(err)
		}
		var r struct{ Tools json.RawMessage }
		json.Unmarshal(res, &r)
		if sizes[e.name], err = listsize.Of(r.Tools); err != nil {
			t.Fatal(err)
		}
		t.Logf("tools/list, %s: %v", e.name, sizes[e.name])
	}
	if sizes["maison"].Chars > sizes["Home Assistant"].Chars {
		t.Errorf("maison's tools/list is %d characters, Home Assistant's own %d", sizes["maison"].Chars, sizes["Home Assistant"].Chars)
	}

	// The same moment, as near as can be: another test may change the house.
	var live []assist.Entity
	var said string
	for try := range 3 {
		liveText, err := ha.houseText(client)
		if err != nil {
			t.Fatal(err)
		}
		if live, err = assist.ParseLiveContext(liveText); err != nil {
			t.Fatal(err)
		}
		if said, err = maison.houseText(client); err != nil {
			t.Fatal(err)
		}
		missing := unsaid(live, said)
		if len(missing) == 0 {
			break
		}
		if try == 2 {
			t.Errorf("describe_house leaves out %d of the %d entities GetLiveContext lists: %s\n%s", len(missing), len(live), strings.Join(missing, ", "), said)
		}
	}
	if err := voice.Speakable(said); err != nil {
		t.Errorf("describe_house is not speakable: %v", err)
	}
	lat := map[string]time.Duration{}
	for _, e := range []endpoint{ha, maison, ha, maison, ha, maison} {
		start := time.Now()
		if _, err := e.houseText(client); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); lat[e.name] == 0 || d < lat[e.name] {
			lat[e.name] = d
		}
	}
	liveText, _ := ha.houseText(client)
	t.Logf("GetLiveContext: %d entities named, %d characters, best of three %v", len(live), len([]rune(liveText)), lat["Home Assistant"].Round(time.Microsecond))
	t.Logf("describe_house: %d entities named, %d characters, best of three %v", len(live)-len(unsaid(live, said)), len([]rune(said)), lat["maison"].Round(time.Microsecond))

	if !*compare {
		return
	}
	for _, clients := range []int{16, 32} {
		for _, e := range []endpoint{ha, maison, ha, maison} {
			for _, call := range []struct{ method, what string }{{"tools/list", "tools/list"}, {"tools/call", e.houseTool}} {
				r := throughput(e, call.method, clients, 5*time.Second)
				t.Logf("%d clients, %s, %s: %v", clients, e.name, call.what, r)
			}
		}
	}
	t.Logf("maison's peak memory: %s", peakRSS(pid))
}

// unsaid are the entities of the live context whose name an answer does
// not say, quoted as maison quotes a name.
func unsaid(live []assist.Entity, said string) []string {
	var out []string
	for _, e := range live {
		if e.Name() != "" && !strings.Contains(said, words.Quote(voice.English, e.Name())) {
			out = append(out, e.Name())
		}
	}
	return out
}

// rate is what a throughput run measured.
type rate struct {
	calls, failed int
	perSecond     float64
	p50, p95      time.Duration
}

func (r rate) String() string {
	return fmt.Sprintf("%.0f calls/s, p50 %v, p95 %v, %d calls, %d failed", r.perSecond, r.p50.Round(100*time.Microsecond), r.p95.Round(100*time.Microsecond), r.calls, r.failed)
}

// throughput has clients each call method (the house tool for tools/call)
// one after the other for d, over their own kept connections.
func throughput(e endpoint, method string, clients int, d time.Duration) rate {
	var mu sync.Mutex
	var lats []time.Duration
	failed := 0
	params := any(map[string]any{})
	if method == "tools/call" {
		params = map[string]any{"name": e.houseTool, "arguments": map[string]any{}}
	}
	end := time.Now().Add(d)
	var wg sync.WaitGroup
	for range clients {
		c := &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
		wg.Go(func() {
			defer c.CloseIdleConnections()
			for time.Now().Before(end) {
				start := time.Now()
				_, err := e.rpc(c, method, params)
				mu.Lock()
				if err != nil {
					failed++
				} else {
					lats = append(lats, time.Since(start))
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	slices.Sort(lats)
	r := rate{calls: len(lats), failed: failed, perSecond: float64(len(lats)) / d.Seconds()}
	if len(lats) > 0 {
		r.p50, r.p95 = lats[len(lats)/2], lats[len(lats)*95/100]
	}
	return r
}

// peakRSS is a process's peak resident memory, as Linux reports it.
func peakRSS(pid int) string {
	out, err := exec.Command("grep", "VmHWM", "/proc/"+strconv.Itoa(pid)+"/status").Output()
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(out))[1:], " ")
}

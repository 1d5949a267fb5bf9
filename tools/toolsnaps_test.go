package tools_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// snapshotScopes are the callers whose tools/list is kept: a token of each
// scope, and the owner's (a static MAISON_TOKEN or both scopes), who sees
// every tool.
var snapshotScopes = []struct{ name, token string }{
	{"house.read", "house.read"},
	{"house.control", "house.control"},
	{"owner", "house.read+house.control"},
}

// TestToolListSnapshots keeps tools/list as each caller receives it (names,
// titles, descriptions, input and output schemas, annotations, in the order
// offered) in tools/testdata/toolsnaps/<scope>.json, so any change to what
// the model reads shows in review. Both protocol eras must list the same.
// Regenerate with: go test ./tools -run TestToolListSnapshots -update
func TestToolListSnapshots(t *testing.T) {
	url := scoped(t)
	for _, sc := range snapshotScopes {
		got := listAsReceived(t, url, sc.token, "2025-11-25")
		if newest := listAsReceived(t, url, sc.token, "2026-07-28"); !bytes.Equal(newest, got) {
			t.Errorf("%s: tools/list differs between 2025-11-25 and 2026-07-28:\n%s\n%s", sc.name, got, newest)
		}
		path := filepath.Join("testdata", "toolsnaps", sc.name+".json")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("tools/list for %s differs from %s (run with -update after checking):\n%s", sc.name, path, got)
		}
	}
}

// listAsReceived posts tools/list with token in a protocol era and returns
// the tools as the client receives them, indented.
func listAsReceived(t *testing.T, url, token, version string) []byte {
	t.Helper()
	meta := ""
	if version == "2026-07-28" {
		meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	}
	req, _ := http.NewRequestWithContext(t.Context(), "POST", url, strings.NewReader(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{%s}}`, meta)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Mcp-Protocol-Version", version)
	if version == "2026-07-28" {
		req.Header.Set("Mcp-Method", "tools/list")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var body struct {
		Result struct {
			Tools json.RawMessage `json:"tools"`
		} `json:"result"`
	}
	if resp.StatusCode != 200 || json.Unmarshal(data, &body) != nil || body.Result.Tools == nil {
		t.Fatalf("tools/list as %s over %s: %d %.300s", token, version, resp.StatusCode, data)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, body.Result.Tools, "", "  "); err != nil {
		t.Fatal(err)
	}
	out.WriteByte('\n')
	return out.Bytes()
}

package tools

// Attack 36b, finding 6 (promise 2, the folds follow the list): followFolds
// reads the list Home Assistant last gave (ListedTools) before it takes
// the folds' lock, and setFolds rebuilds whenever the list's time differs
// from the one the folds were built from, earlier or later. Two tools/list
// requests at once (two clients, or one listing while the list is fetched
// again) can apply the older list last: the folds go back to what Home
// Assistant no longer lists, here a to-do list the owner stopped sharing,
// named again in ha_ask's schema, until the next change.
// Run: go test ./tools -run TestAttack36b

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"maison/assist"
	"maison/camera"
	"maison/homeassistant"
)

type listedHA struct{ offlineHA }

func (listedHA) ListedTools() ([]homeassistant.Tool, time.Time) { return nil, time.Time{} }

func getItemsTool(lists ...string) homeassistant.Tool {
	enum := make([]any, len(lists))
	for i, l := range lists {
		enum[i] = l
	}
	schema, _ := json.Marshal(map[string]any{"type": "object", "required": []any{"todo_list"}, "properties": map[string]any{
		"todo_list": map[string]any{"type": "string", "enum": enum}}})
	return homeassistant.Tool{Name: "todo__get_items", Canonical: "get_items", Description: "Query a to-do list.", InputSchema: schema}
}

func TestAttack36bFoldsNeverGoBackToAnOlderList(t *testing.T) {
	t.Parallel()
	srv, s, err := newServer(Deps{HA: listedHA{}, Live: &assist.Live{}, Cameras: &camera.Service{}}, false)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	older := []homeassistant.Tool{getItemsTool("Shopping list", "Surprise Party Guests")}
	newer := []homeassistant.Tool{getItemsTool("Shopping list")}
	s.setFolds(srv, older, t0)
	// Two tools/list at once: A read the list at t0, B the list fetched
	// again at t0+1s; B takes the lock first, then A.
	s.setFolds(srv, newer, t0.Add(time.Second))
	s.setFolds(srv, older, t0)
	s.folds.mu.Lock()
	defer s.folds.mu.Unlock()
	if strings.Contains(s.folds.listed[askTool], "Surprise Party Guests") {
		t.Errorf("ha_ask follows the list of %v after the one of %v: it names the list no longer shared: %s",
			t0.Format(time.StampMilli), t0.Add(time.Second).Format(time.StampMilli), s.folds.listed[askTool])
	}
}

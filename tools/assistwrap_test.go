package tools_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
)

// extraTool is one tool a wrapped house adds to its Assist list.
type extraTool struct {
	name        string
	description string
	schema      map[string]any
}

// assistWrap stands in front of the demo house's /api/mcp/assist: list
// says which extra tools tools/list adds at the moment; call, when it
// answers, answers a tools/call in the house's place (a raw JSON-RPC
// result), or rewrites it (name and arguments) and lets the house run it.
type assistWrap struct {
	list func() []extraTool
	call func(name string, args map[string]any) (result json.RawMessage, newName string, newArgs map[string]any)
}

func (a assistWrap) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/mcp/assist" || r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var msg map[string]any
		_ = json.Unmarshal(body, &msg)
		method, _ := msg["method"].(string)
		if method == "tools/call" && a.call != nil {
			params, _ := msg["params"].(map[string]any)
			name, _ := params["name"].(string)
			args, _ := params["arguments"].(map[string]any)
			result, newName, newArgs := a.call(name, args)
			if result != nil {
				out, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": msg["id"], "result": result})
				w.Header().Set("Content-Type", "application/json")
				w.Write(out)
				return
			}
			if newName != "" {
				params["name"], params["arguments"] = newName, newArgs
				body, _ = json.Marshal(msg)
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		if method != "tools/list" || a.list == nil {
			next.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		var resp map[string]any
		if json.Unmarshal(rec.Body.Bytes(), &resp) == nil {
			if res, ok := resp["result"].(map[string]any); ok {
				list, _ := res["tools"].([]any)
				for _, t := range a.list() {
					list = append(list, map[string]any{"name": t.name, "description": t.description, "inputSchema": t.schema})
				}
				res["tools"] = list
			}
		}
		out, _ := json.Marshal(resp)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		w.Write(out)
	})
}

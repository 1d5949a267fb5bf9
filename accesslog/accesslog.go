// Package accesslog carries what one request did, from the tools that ran
// it back to the one log line the HTTP door writes for the request: which
// tools, what they looked at or acted on, how each ended; and keeps floods
// of refused requests to a few lines (Refusals).
package accesslog

import (
	"context"
	"encoding/json"
	"sync"

	"maison/voice"
)

// Entry collects what the calls of one request report. It is safe for
// concurrent use: the calls of a batch run at once.
type Entry struct {
	mu       sync.Mutex
	tools    []string
	outcomes []string
	attrs    []any
}

type key struct{}

// NewContext returns ctx carrying e.
func NewContext(ctx context.Context, e *Entry) context.Context {
	return context.WithValue(ctx, key{}, e)
}

// FromContext returns the entry of the request ctx belongs to, or nil when
// no door is writing one (stdio, tests).
func FromContext(ctx context.Context) *Entry {
	e, _ := ctx.Value(key{}).(*Entry)
	return e
}

// Tool records one tool call: its name, how it ended, and attributes
// (key, value pairs) naming what it looked at or acted on.
func (e *Entry) Tool(name, outcome string, attrs ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.tools = append(e.tools, name)
	e.outcomes = append(e.outcomes, outcome)
	if len(e.attrs) < 32 {
		e.attrs = append(e.attrs, attrs...)
	}
}

// Calls returns what was recorded: the tools called, how each ended, and
// their attributes.
func (e *Entry) Calls() (tools, outcomes []string, attrs []any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.tools...), append([]string(nil), e.outcomes...), append([]any(nil), e.attrs...)
}

// auditArgs are the arguments a tool call's log line names: what was
// looked at or acted on. Nothing else is logged (a confirmation code never
// is).
var auditArgs = []string{"action", "camera", "name", "area", "floor", "domain"}

// Args gives the attributes (key, value pairs) a tool call's log line
// takes from its arguments, whoever writes the line: what it looked at or
// acted on, as Text. Whether a confirmation counted is the tools' to say
// (sensitive=…): carrying one says nothing of it.
func Args(arguments json.RawMessage) []any {
	var attrs []any
	var args map[string]any
	if json.Unmarshal(arguments, &args) != nil {
		return nil
	}
	for _, k := range auditArgs {
		switch v := args[k].(type) {
		case string:
			attrs = append(attrs, k, Text(v))
		case []any:
			b, _ := json.Marshal(v)
			attrs = append(attrs, k, Text(string(b)))
		}
	}
	return attrs
}

// Text bounds text from outside for a log line and keeps only what
// voice.Visible keeps (no controls, nothing voice.Invisible names), so it
// cannot forge a line nor hide or reorder what it says.
func Text(s string) string { return voice.Visible(s, 81) }

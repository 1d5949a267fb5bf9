package homeassistant

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// Change is one state an entity held from At on, as Home Assistant's
// recorder kept it.
type Change struct {
	State string
	At    time.Time
}

// maxHistoryIDs bounds one history request; a house with more entities asks in several.
const maxHistoryIDs = 200

// History returns, for each of entityIDs, the states it went through between
// start and end, oldest first, with the state it held at start when the
// recorder knows one (history/history_during_period, significant changes,
// no attributes). An entity without any row in the period is absent.
//
// A change the live state holds but the recorder has not written yet ends
// the entity's changes (addUnrecorded).
//
// Home Assistant checks no per-entity permission on this command: the caller
// must ask only for entities it may show.
//
// Errors: KindNoHistory when Home Assistant has no recorder or history to
// ask (not loaded, or still starting), KindNotAllowed, KindTimeout, and the
// connection's own.
func (c *Client) History(ctx context.Context, start, end time.Time, entityIDs []string) (map[string][]Change, error) {
	const op = "websocket history/history_during_period"
	out := map[string][]Change{}
	if len(entityIDs) == 0 {
		return out, nil
	}
	ids := slices.Clone(entityIDs)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	ctx, cancel := c.requestContext(ctx)
	defer cancel()
	for len(ids) > 0 {
		batch := ids[:min(len(ids), maxHistoryIDs)]
		ids = ids[len(batch):]
		sess, err := c.liveSession(op)
		if err != nil {
			return nil, err
		}
		raw, err := sess.call(ctx, map[string]any{
			"type":                     "history/history_during_period",
			"start_time":               start.UTC().Format(time.RFC3339Nano),
			"end_time":                 end.UTC().Format(time.RFC3339Nano),
			"entity_ids":               batch,
			"include_start_time_state": true,
			"significant_changes_only": true,
			"minimal_response":         true,
			"no_attributes":            true,
		}, nil)
		if err != nil {
			return nil, historyError(op, err)
		}
		part, err := parseHistory(raw)
		if err != nil {
			return nil, &Error{Kind: KindProtocol, Op: op, Err: err}
		}
		for id, ch := range part {
			if slices.Contains(batch, id) { // never keep what was not asked for
				out[id] = ch
			}
		}
	}
	c.addUnrecorded(out, start, end)
	return out, nil
}

// addUnrecorded ends each entity's changes with the state the live cache
// holds when it changed after the last recorded row and within the period:
// the recorder writes a moment after a change (commit_interval, five
// seconds by default), and until then history would tell the state before
// as the present. An entity without any row (one the recorder excludes)
// stays absent.
func (c *Client) addUnrecorded(hist map[string][]Change, start, end time.Time) {
	for id, ch := range hist {
		st, ok := c.State(id)
		if !ok || len(ch) == 0 {
			continue
		}
		last := ch[len(ch)-1]
		if st.State != last.State && st.LastChanged.After(last.At) && !st.LastChanged.Before(start) && !st.LastChanged.After(end) {
			hist[id] = append(ch, Change{State: st.State, At: st.LastChanged})
		}
	}
}

// historyError gives a failed history command its Kind.
func historyError(op string, err error) error {
	ce, other := commandFailure(op, err)
	if ce == nil {
		return other
	}
	kind := KindProtocol
	switch ce.Code {
	case "unknown_command", "home_assistant_error", "unknown_error":
		kind = KindNoHistory // no recorder, a recorder not ready, or one that failed
	case "unauthorized":
		kind = KindNotAllowed
	case "timeout":
		kind = KindTimeout
	case "invalid_entity_ids", "invalid_start_time", "invalid_end_time", "invalid_format":
		kind = KindBadRequest
	}
	return &Error{Kind: kind, Op: op, Err: ce}
}

// parseHistory reads the compressed states of history_during_period:
// {entity_id: [{"s": state, "lu": epoch, "lc": epoch?}, ...]}, where a
// minimal response keeps only s and lu after the first.
func parseHistory(raw json.RawMessage) (map[string][]Change, error) {
	var rows map[string][]struct {
		S  *string  `json:"s"`
		LU *float64 `json:"lu"`
		LC *float64 `json:"lc"`
	}
	if err := json.Unmarshal(raw, &rows); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	out := make(map[string][]Change, len(rows))
	for id, rs := range rows {
		var ch []Change
		for _, r := range rs {
			if r.S == nil {
				continue
			}
			var at time.Time
			switch {
			case r.LC != nil:
				at = epoch(*r.LC)
			case r.LU != nil:
				at = epoch(*r.LU)
			default:
				continue
			}
			ch = append(ch, Change{State: *r.S, At: at})
		}
		// In time order, then only changes: rows sent out of order or
		// repeated, and attribute changes a minimal response kept, are not.
		slices.SortStableFunc(ch, func(a, b Change) int { return a.At.Compare(b.At) })
		ch = slices.CompactFunc(ch, func(a, b Change) bool { return a.State == b.State })
		if len(ch) > 0 {
			out[id] = ch
		}
	}
	return out, nil
}

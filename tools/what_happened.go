package tools

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // the house's zone must load where no zone database is installed, as in the FROM scratch image

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/assist"
	"maison/homeassistant"
	"maison/words"
)

// happenedLimit bounds how many sentences one answer says, so it can be spoken.
const happenedLimit = 7

var whatHappenedArgs = []argSpec{
	{name: "hours", kind: argInt, min: 1, max: 168,
		doc:   "The last this many hours.",
		wants: words.WantsHours},
	{name: "since", kind: argText,
		doc:   "A time to start from, in the house's zone, such as 8 am or yesterday 18:00.",
		wants: words.WantsSince},
	{name: "name", kind: argText, doc: "Only this device, such as front door lock.",
		wants: words.WantsHistoryName},
	{name: "area", kind: argText, doc: "Only this room, such as garage.",
		wants: words.WantsHistoryArea},
}

var whatHappenedTool = &mcp.Tool{
	Name:        "what_happened",
	Title:       "What happened",
	Description: "Says what changed at home over a period, most important first: openings, locks, alarms, people and movement, lights left on; the last 12 hours unless hours or since say otherwise, or one device or room. For example: “did anyone come to the door while I was out?”",
	Annotations: &mcp.ToolAnnotations{Title: "What happened", ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: no(), OpenWorldHint: no()},
}

// whatHappenedDef is what_happened whole: the tool, its arguments and the handler.
func (s *server) whatHappenedDef() toolDef {
	return toolDef{tool: whatHappenedTool, args: whatHappenedArgs, handle: s.whatHappened}
}

func (s *server) whatHappened(ctx context.Context, _ *mcp.CallToolRequest, in argValues) *mcp.CallToolResult {
	loc := s.houseLocation()
	now := s.now()
	p := words.Period{End: now}
	hours, byHours := in.number("hours")
	since := in.text("since")
	switch {
	case byHours && since != "":
		return sayError(words.HoursAndSince(s.deps.Lang))
	case since != "":
		start, ok := parseSince(since, now, loc)
		if !ok {
			return sayError(words.BadSince(s.deps.Lang))
		}
		p.Start = start
	default:
		if !byHours {
			hours = 12
		}
		p.Hours, p.Start = hours, now.Add(-time.Duration(hours)*time.Hour)
	}
	// The history is read over the websocket, and which entities may be
	// told is known from its registries: without it, an empty history
	// would be said as "nothing changed".
	offline := s.notConnected()
	if errors.Is(offline, homeassistant.KindTimeout) {
		// Reconnecting after a blip, or a first connection under way:
		// usually a second or two.
		s.deps.HA.WaitReconnected(ctx)
		offline = s.notConnected()
	}
	if offline != nil {
		return sayError(s.haTrouble(offline))
	}
	ents, err := s.deps.Live.Entities(ctx)
	if err != nil && !errors.Is(err, assist.ErrNoMatch) {
		return sayError(s.haTrouble(err))
	}
	name, area := in.text("name"), in.text("area")
	var chosen []assist.Entity
	var ids []string
	inArea, _ := s.areaTarget(area, "")
	for _, e := range ents {
		if name != "" && !hasName(e, name) || area != "" && !couldTarget(e, "", inArea) {
			continue
		}
		// Home Assistant checks no permission per entity on its history: ask
		// only for entities known by identity to be exposed.
		if e.ID == "" || !assist.Tellable(e, assist.FactsOf(s.deps.HA, e)) {
			continue
		}
		chosen, ids = append(chosen, e), append(ids, e.ID)
	}
	if len(chosen) == 0 && (name != "" || area != "") {
		return sayError(words.NoHistoryMatch(s.deps.Lang))
	}
	hist, err := s.deps.HA.History(ctx, p.Start, now, ids)
	if err != nil {
		return sayError(s.haTrouble(err))
	}
	facts := func(e assist.Entity) assist.Facts { return assist.FactsOf(s.deps.HA, e) }
	return say(assist.SayHappened(s.deps.Lang, loc, p, chosen, facts, hist, happenedLimit))
}

// houseLocation is Home Assistant's time zone, else the machine's.
func (s *server) houseLocation() *time.Location {
	if tz := s.deps.HA.Config().TimeZone; tz != "" {
		loc, err := time.LoadLocation(tz)
		if err == nil {
			return loc
		}
		if _, warned := s.badZones.LoadOrStore(tz, true); !warned {
			s.log.Warn("home assistant's time zone is unknown here; times are said in the machine's", "time_zone", tz, "err", err)
		}
	}
	return time.Local
}

// sinceRE reads a clock time as people give it, with the words for
// yesterday and for the hour in every language maison speaks.
var sinceRE = regexp.MustCompile(`^(?:(` + heard(words.HeardYesterday) + `)\s+)?(\d{1,2})(?:\s*(?::|` + heard(words.HeardHour) +
	`)\s*(\d{2})?(?::\d{2})?)?(?:\s*(?:` + heard(words.HeardHour) + `))?\s*(am|pm|a\.m\.|p\.m\.)?(?:\s+(` + heard(words.HeardYesterday) + `))?$`)

// heard is what a person may say for k, as alternatives of a regexp.
func heard(k words.Key) string {
	ws := words.Heard(k)
	for i, w := range ws {
		ws[i] = regexp.QuoteMeta(w)
	}
	return strings.Join(ws, "|")
}

// sinceLayouts are the dates and times a model writes when it gives a
// start as a timestamp; without an offset, the house's time is meant.
var sinceLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04"}

// parseSince reads a local time as people give it: "08:00", "8 am",
// "8:30 pm", "18h30", "yesterday 18:00", "hier 18 h". A time later than now
// today means yesterday. A date and time ("2026-11-29T08:00:00+01:00",
// "2026-11-29 08:00") is taken as it is, when it is within the last week.
func parseSince(s string, now time.Time, loc *time.Location) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range sinceLayouts {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, !t.After(now) && !t.Before(now.Add(-7*24*time.Hour))
		}
	}
	m := sinceRE.FindStringSubmatch(strings.ToLower(s))
	if m == nil {
		return time.Time{}, false
	}
	h, _ := strconv.Atoi(m[2])
	min := 0
	if m[3] != "" {
		min, _ = strconv.Atoi(m[3])
	}
	if m[4] != "" && h > 12 {
		return time.Time{}, false // "13 pm"
	}
	switch strings.ReplaceAll(m[4], ".", "") {
	case "am":
		if h == 12 {
			h = 0
		}
	case "pm":
		if h < 12 {
			h += 12
		}
	}
	if h > 23 || min > 59 {
		return time.Time{}, false
	}
	local := now.In(loc)
	t := time.Date(local.Year(), local.Month(), local.Day(), h, min, 0, 0, loc)
	if m[1] != "" || m[5] != "" {
		t = t.AddDate(0, 0, -1)
	} else if t.After(local) {
		t = t.AddDate(0, 0, -1)
	}
	return t, true
}

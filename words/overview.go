package words

import (
	"strings"

	"maison/voice"
)

// maxTileFacts bounds the nearby sensors said for each camera of an
// overview, to keep the whole answer short enough to be heard.
const maxTileFacts = 2

// Overview is what an overview picture shows, for the ear.
type Overview struct {
	Tiles    []Tile   // in reading order: left to right, then top to bottom
	Cols     int      // tiles per row
	Beyond   []string // the cameras beyond the grid, each named aloud
	Withheld []string // why each exposed camera not drawn is withheld, a sentence each
}

// Empty is why a camera's place in an overview is empty.
type Empty int

// Why a tile is empty.
const (
	NotEmpty         Empty = iota // the camera's picture is shown
	EmptyOff                      // turned off in Home Assistant
	EmptyUnavailable              // Home Assistant says it is unavailable
	EmptyLate                     // no picture within the overview's wait
	EmptyFailed                   // no usable picture
	EmptySetting                  // the camera always sends pictures in a way maison cannot show (Tile.Setting)
	EmptyNoPicture                // Home Assistant answered at once that the camera gave it no picture
)

// Tile is one camera's place in an overview.
type Tile struct {
	Camera   string // the camera named aloud
	Area     string // its area, when it says more than the name; or ""
	Row, Col int    // from 0, top left
	Empty    Empty
	Facts    []string // what nearby exposed sensors report, a sentence each
	Damaged  bool     // only the part of its picture that decodes is drawn
	// Setting is, for EmptySetting, the camera's setting that makes every
	// picture it sends unusable (CameraTwelveBit, CameraTooManyPixels...).
	Setting CameraTrouble
}

// More counts the cameras beyond the grid.
func (o Overview) More() int { return len(o.Beyond) }

// Say tells what the overview shows, one sentence per camera from its
// sensors, for a listener who never sees the picture.
func (o Overview) Say(lang voice.Lang) string {
	var out []string
	empty := 0
	for _, t := range o.Tiles {
		if t.Empty != NotEmpty {
			empty++
		}
	}
	n := len(o.Tiles)
	switch {
	case n == 1:
		out = append(out, say(lang, "overview.one_camera"))
	case empty == 0:
		out = append(out, voice.Sentence(say(lang, "overview.cameras", "n", lang.Number(n))))
	case empty == n:
		out = append(out, voice.Sentence(say(lang, "overview.all_empty", "n", lang.Number(n))))
	default:
		out = append(out, voice.Sentence(sayN(lang, "overview.some_empty", empty, "n", lang.Number(n), "empty", lang.Number(empty))))
	}
	said := map[Empty]bool{} // why a tile is empty, and what to do, is said once
	for i, t := range o.Tiles {
		out = append(out, t.say(lang, i+1, o.where(lang, t), said[t.Empty]))
		said[t.Empty] = true
	}
	if o.More() > 0 {
		out = append(out, o.sayBeyond(lang))
	}
	out = append(out, o.Withheld...)
	out = append(out, say(lang, "overview.facts"))
	return voice.Paragraph(out...)
}

// maxBeyondNamed bounds the cameras beyond the grid said by name.
const maxBeyondNamed = 4

// sayBeyond says which cameras do not fit in the grid, by name, so that a
// listener can ask for one; past a few, the list of cameras has the rest.
func (o Overview) sayBeyond(lang voice.Lang) string {
	names := o.Beyond[:min(len(o.Beyond), maxBeyondNamed)]
	n := lang.Number(o.More())
	switch {
	case o.More() == 1:
		return voice.Sentence(say(lang, "overview.beyond.one", "camera", names[0]))
	case o.More() <= maxBeyondNamed:
		return voice.Sentence(say(lang, "overview.beyond.few", "n", n, "names", lang.List(names)))
	}
	return voice.Sentence(say(lang, "overview.beyond.many", "n", n, "names", lang.List(names)))
}

// emptyTileWords say why a camera's place is empty: the first time with
// what to do, and again, for a later camera empty for the same reason, in
// fewer words.
var emptyTileWords = map[Empty]struct{ first, again Key }{
	EmptyOff:         {"overview.empty.off", "overview.empty.off_again"},
	EmptyUnavailable: {"overview.empty.unavailable", "overview.empty.unavailable_again"},
	EmptyLate:        {"overview.empty.late", "overview.empty.late_again"},
	EmptyFailed:      {"overview.empty.failed", "overview.empty.failed_again"},
	EmptySetting:     {"overview.empty.setting", "overview.empty.setting_again"},
	EmptyNoPicture:   {"overview.empty.no_picture", "overview.empty.no_picture_again"},
}

// settingWords name, within a sentence, each camera setting that makes its
// every picture unusable.
var settingWords = map[CameraTrouble]Key{
	CameraTwelveBit:              "overview.setting.twelve_bit",
	CameraArithmetic:             "overview.setting.arithmetic",
	CameraLossless:               "overview.setting.lossless",
	CameraHierarchical:           "overview.setting.hierarchical",
	CameraNoHeight:               "overview.setting.no_height",
	CameraTooManyPixels:          "overview.setting.too_many_pixels",
	CameraTooLargeForMemory:      "overview.setting.memory",
	CameraTooLargeForMemoryWhole: "overview.setting.memory_whole",
}

// emptyTileLabels are the words drawn in an empty tile of the picture.
var emptyTileLabels = map[Empty]Key{
	EmptyOff:         "overview.label.off",
	EmptyUnavailable: "overview.label.unavailable",
	EmptyLate:        "overview.label.late",
	EmptyFailed:      "overview.label.failed",
	EmptySetting:     "overview.label.setting",
	EmptyNoPicture:   "overview.label.failed",
}

// Label is what an empty tile of the overview picture shows, or "" for a
// tile that shows its camera's picture.
func (e Empty) Label(lang voice.Lang) string { return emptyTileLabels[e].In(lang) }

// say is one camera's sentence: where it is in the picture, which camera,
// and what its nearby sensors report or why its place is empty; again when
// an earlier tile was empty for the same reason, whose advice then holds.
func (t Tile) say(lang voice.Lang, n int, where string, again bool) string {
	name := t.Camera
	if t.Area != "" {
		name = say(lang, "overview.tile.in_area", "camera", name, "area", Quote(lang, t.Area))
	}
	head := say(lang, "overview.tile", "n", lang.Number(n), "camera", name)
	if where != "" {
		head = say(lang, "overview.tile.where", "n", lang.Number(n), "where", where, "camera", name)
	}
	if w, ok := emptyTileWords[t.Empty]; ok && t.Empty == EmptySetting {
		setting := settingWords[t.Setting].In(lang)
		if again {
			return voice.Sentence(head + say(lang, "overview.empty.setting_again", "setting", setting))
		}
		return voice.Sentence(head + say(lang, "overview.empty.setting", "setting", setting))
	} else if ok {
		if again {
			return voice.Sentence(head + w.again.In(lang))
		}
		return voice.Sentence(head + w.first.In(lang))
	}
	var facts []string
	for _, f := range t.Facts {
		if len(facts) == maxTileFacts {
			break
		}
		facts = append(facts, clause(f))
	}
	if t.Damaged {
		facts = append([]string{say(lang, "overview.tile.damaged")}, facts...)
	}
	if len(facts) == 0 {
		return voice.Sentence(head)
	}
	return voice.Sentence(head + "; " + lang.List(facts))
}

// where names a tile's place in the grid as people say it: "top left",
// "bottom centre", or by row and column in a grid larger than three by three.
func (o Overview) where(lang voice.Lang, t Tile) string {
	cols := max(o.Cols, 1)
	rows := (len(o.Tiles) + cols - 1) / cols
	if rows > 3 || cols > 3 {
		r, c := lang.Number(t.Row+1), lang.Number(t.Col+1)
		return say(lang, "overview.where.grid", "r", r, "c", c)
	}
	if rows == 3 && cols == 3 && t.Row == 1 && t.Col == 1 {
		return say(lang, "overview.where.centre_of_grid") // not "middle centre"
	}
	horiz := map[int][]Key{1: {""}, 2: {"overview.where.left", "overview.where.right"},
		3: {"overview.where.left", "overview.where.centre", "overview.where.right"}}[cols][t.Col]
	vert := map[int][]Key{1: {""}, 2: {"overview.where.top", "overview.where.bottom"},
		3: {"overview.where.top", "overview.where.middle", "overview.where.bottom"}}[rows][t.Row]
	return strings.TrimSpace(say(lang, "overview.where", "vert", vert.In(lang), "horiz", horiz.In(lang)))
}

// clause turns a sentence into a clause that can follow a semicolon: its
// full stop dropped and a leading "The" lowered.
func clause(s string) string {
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	if rest, ok := strings.CutPrefix(s, "The "); ok {
		return "the " + rest
	}
	return s
}

// OverviewMemory says why the overview picture itself could not be made:
// other pictures held maison's memory for pictures until the call could
// wait no longer (busy), or the picture needs more of it than maison has.
// Neither is Home Assistant's trouble nor a camera's.
func OverviewMemory(lang voice.Lang, busy bool) string {
	if busy {
		return say(lang, "overview.error.busy")
	}
	return say(lang, "overview.error.too_large_for_memory")
}

package camera

import (
	"context"
	"errors"
	"fmt"
	"image"
	"strconv"
	"strings"
	"sync"
	"time"

	"maison/camera/picture"
	"maison/homeassistant"
	"maison/voice"
)

// maxTiles bounds the cameras one overview shows: sixteen, four by four,
// each still large enough to tell a car from a person.
const maxTiles = 16

// overviewWaitDefault is how long an overview waits for its frames, all
// asked at once: a camera that has not answered by then is drawn empty.
const overviewWaitDefault = 6 * time.Second

// Overview is every camera a caller may see, in one labelled picture.
type Overview struct {
	Image picture.Fitted
	Tiles []Tile // in reading order: left to right, then top to bottom
	Cols  int    // tiles per row
	// Beyond are the cameras beyond the grid, by name: a listener asks for
	// them by name.
	Beyond []Camera
	// Withheld are exposed cameras maison cannot tell apart, not drawn.
	Withheld []Withheld
}

// More counts the cameras beyond the grid, not drawn.
func (o Overview) More() int { return len(o.Beyond) }

// TileState says whether a camera's place in the overview holds its picture.
type TileState int

// The states of a tile.
const (
	TileShown       TileState = iota // the camera's picture
	TileOff                          // turned off in Home Assistant
	TileUnavailable                  // Home Assistant says it is unavailable
	TileLate                         // no picture within the overview's wait
	TileFailed                       // no usable picture
	TileSetting                      // the camera always sends pictures in a way maison cannot show
	TileNoPicture                    // Home Assistant answered at once that the camera gave it no picture
)

// Tile is one camera's place in the overview.
type Tile struct {
	Camera Camera
	State  TileState
	Err    error           // why the tile is empty, for the log
	Place  image.Rectangle // in the overview's pixels
	Row    int             // from 0, top
	Col    int             // from 0, left
	// Facts are what nearby exposed sensors report, one sentence each.
	Facts []string
	// Damaged is set when the camera sent its picture damaged and only the
	// part that decodes is drawn.
	Damaged bool
}

// Overview draws every camera the caller may see in one grid within client
// limits, each tile labelled with its camera's number and name. The frames
// are asked for at once and waited for together, within one wait (Config
// OverviewWait): a camera that is slow, off or unavailable leaves its tile
// empty and labelled, and never holds the others back.
func (s *Service) Overview(ctx context.Context) (Overview, error) {
	cams, withheld, err := s.list(ctx)
	if err != nil {
		return Overview{}, err
	}
	ov := Overview{Withheld: withheld}
	if len(cams) == 0 {
		return ov, nil
	}
	if len(cams) > maxTiles {
		ov.Beyond, cams = cams[maxTiles:], cams[:maxTiles]
	}
	grid := picture.GridFor(len(cams), s.overviewLimits(len(cams)))
	cols := grid.Cols
	ov.Cols = cols
	ov.Tiles = make([]Tile, len(cams))
	frames := make([]*picture.Frame, len(cams)) // each camera's repaired frame, not a fitted picture
	fetched := make([]time.Time, len(cams))
	waitCtx, cancel := context.WithTimeout(ctx, s.cfg.OverviewWait)
	defer cancel()
	var wg sync.WaitGroup
	for i, cam := range cams {
		ov.Tiles[i] = Tile{Camera: cam, Place: grid.Place(i), Row: i / cols, Col: i % cols}
		wg.Go(func() {
			t := &ov.Tiles[i]
			t.Facts = s.related(ctx, cam)
			if cam.State == "unavailable" {
				t.State = TileUnavailable
				return
			}
			p, err := s.frames.Get(waitCtx, cam.EntityID)
			if err == nil {
				fetched[i], frames[i], t.Damaged = p.fetched, &p.frame, p.damage != nil
			}
			t.Camera.Off = s.isOff(cam.EntityID)
			switch {
			case err == nil:
			case errors.Is(err, homeassistant.KindCameraOff):
				t.State, t.Err = TileOff, err
			case waitCtx.Err() != nil && ctx.Err() == nil:
				t.State, t.Err = TileLate, err
			default:
				t.State, t.Err = failedTile(err), err
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return Overview{}, err
	}
	if err := houseWide(ov.Tiles); err != nil {
		return Overview{}, err
	}
	// The same frames in the same places make the same picture: drawn
	// once, reused while no frame changes.
	var key strings.Builder
	for i, t := range ov.Tiles {
		fmt.Fprintf(&key, "%s\x00%s\x00%d\x00%d\x00", t.Camera.EntityID, t.Camera.Name, t.State, fetched[i].UnixNano())
	}
	s.mu.Lock()
	last := s.lastOverview
	s.mu.Unlock()
	if last.key == key.String() {
		ov.Image = last.image
	} else {
		out, err := s.drawOverview(ctx, grid, ov.Tiles, frames)
		if err != nil {
			return Overview{}, err
		}
		ov.Image = out
		s.mu.Lock()
		s.lastOverview = drawnOverview{key: key.String(), image: out}
		s.mu.Unlock()
	}
	for _, t := range ov.Tiles {
		if t.Err != nil {
			s.log.Info("overview tile empty", "camera", t.Camera.EntityID, "err", t.Err)
		}
	}
	return ov, nil
}

// failedTile is the state of a tile whose camera gave no usable picture:
// as camera_snapshot says it, a setting of the camera or no picture at
// all lasts, anything else may pass.
func failedTile(err error) TileState {
	switch {
	case picture.Unusability(err) != 0:
		return TileSetting
	case errors.Is(err, errNoPicture):
		return TileNoPicture
	}
	return TileFailed
}

// houseWide returns the fault of Home Assistant itself (unreachable,
// restarting, refusing maison) when no tile holds a picture and a camera
// failed for it: no camera is to blame, and a grid of empty tiles would
// say otherwise.
func houseWide(tiles []Tile) error {
	var fault error
	for _, t := range tiles {
		if t.State == TileShown {
			return nil
		}
		var he *homeassistant.Error
		if t.State == TileFailed && errors.As(t.Err, &he) {
			switch he.Kind {
			case homeassistant.KindUnreachable, homeassistant.KindRestarting, homeassistant.KindAuth,
				homeassistant.KindForbidden, homeassistant.KindLocalOnly:
				fault = he
			}
			if errors.Is(t.Err, ErrHomeAssistantSilent) {
				fault = t.Err
			}
		}
	}
	return fault
}

// drawnOverview is the last overview picture drawn, by what it was drawn from.
type drawnOverview struct {
	key   string
	image picture.Fitted
}

// overviewLimits are the service's limits for an overview of n tiles,
// whose words grow with the tiles.
func (s *Service) overviewLimits(n int) picture.Limits {
	l := s.limits
	l.MaxBytes = pictureBytes(s.cfg.ResultBudget, wordsReserve+tileWords*max(n-4, 0))
	return l
}

// maxLabel bounds a camera's name drawn on its tile, in characters.
const maxLabel = 32

// drawOverview draws the tiles' frames in one picture (picture.Overview),
// each labelled with its number and its camera's name, drawn as data:
// cleaned of invisible and reordering characters and bounded. A frame
// that does not decode leaves its tile empty, marked failed.
func (s *Service) drawOverview(ctx context.Context, grid picture.Grid, tiles []Tile, frames []*picture.Frame) (picture.Fitted, error) {
	fnt, err := s.font()
	if err != nil {
		return picture.Fitted{}, fmt.Errorf("camera: the label font: %w", err)
	}
	cells := make([]picture.Cell, len(tiles))
	for i, t := range tiles {
		cells[i] = picture.Cell{Place: t.Place, Label: strconv.Itoa(i+1) + "  " + voice.Clean(t.Camera.Name, maxLabel), Empty: t.State.words(s.cfg.Lang), Frame: frames[i]}
	}
	out, failures, err := picture.Overview(ctx, grid, cells, fnt, TileFailed.words(s.cfg.Lang), s.overviewLimits(len(tiles)))
	for i, ferr := range failures {
		if ferr != nil {
			tiles[i].State, tiles[i].Err = failedTile(ferr), ferr // drawn and said as empty
		}
	}
	if err != nil {
		return picture.Fitted{}, err
	}
	s.encoded(out)
	return out, nil
}

// words is what the tile shows when it holds no picture.
func (st TileState) words(lang voice.Lang) string { return emptyOf[st].Label(lang) }

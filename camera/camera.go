// Package camera is the camera service: it finds the cameras a caller may
// see, fetches their frames from Home Assistant and shares them, has
// camera/picture repair and fit them to the result budget, and gathers the
// facts words says about a picture (nearby sensors, Home Assistant's AI).
package camera

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"image"
	"log/slog"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/image/font/opentype"

	"maison/camera/picture"
	"maison/homeassistant"
	"maison/internal/shared"
	"maison/voice"
	"maison/words"
)

// Source is what the pipeline reads from Home Assistant.
type Source interface {
	States() []homeassistant.State
	State(entityID string) (homeassistant.State, bool)
	Area(entityID string) string
	CameraImage(ctx context.Context, entityID string, width, height int) (homeassistant.Image, error)
}

// Exposed lists the entities Home Assistant exposes to Assist
// (GetLiveContext), each tied to its entity id where identity confirms it,
// with its facts; nothing exposed is an empty list. bridge wires it to
// assist.Live.Devices.
type Exposed func(ctx context.Context) ([]words.Device, error)

// Config assembles a Service.
type Config struct {
	Source  Source  // required
	Exposed Exposed // required unless Allow is set: decides which cameras exist for callers
	// Allow lists the camera entity ids the operator offers (MAISON_CAMERAS).
	// Empty means the cameras exposed to Assist.
	Allow []string
	// Lang is the language of descriptions. Zero means English.
	Lang voice.Lang
	// ResultBudget is the most characters a whole tool result may take,
	// base64 and JSON included (MAISON_RESULT_BUDGET): every picture is
	// encoded once, within its share of it. Zero means DefaultResultBudget.
	ResultBudget int
	// MaxAge is how old a frame may be and still be reused. Zero means 3s.
	MaxAge time.Duration
	// FetchTimeout bounds waiting for one frame from Home Assistant, which
	// itself gives up on a camera after 10s. Zero means 12s.
	FetchTimeout time.Duration
	// FullFrames turns off asking Home Assistant for pre-scaled frames. By
	// default, once a camera is known to be at least twice as large as the
	// fitted size, Home Assistant is asked (camera proxy width and height) for
	// a frame scaled in 1/8 steps, which maison then fits exactly.
	FullFrames bool
	// AI describes frames for Describe. Nil means no AI descriptions.
	AI AI
	// AITask is the ai_task entity to ask: empty means the first that accepts
	// pictures, AIOff means never ask (MAISON_AI_TASK).
	AITask string
	// AIBudget bounds one AI description. Zero means 3.5s.
	AIBudget time.Duration
	// OverviewWait bounds how long an overview waits for its frames, asked
	// all at once; a camera not ready by then is drawn empty. Zero means 6s.
	OverviewWait time.Duration
	// ProbeBudget bounds how long a listing waits to learn which cameras
	// are off. Zero means 1.5s.
	ProbeBudget time.Duration
	// Memory is the process's budget for pictures being made, which every
	// decode is admitted against (picture.Memory). Nil means a budget of
	// picture.DefaultMemory for this service.
	Memory *picture.Memory
	// Logger receives debug and warning records. Nil means discard.
	Logger *slog.Logger
	// Now is the clock. Nil means time.Now.
	Now func() time.Time
}

// DefaultResultBudget is the most characters a whole serialized tool result
// may take by default, base64 and JSON-RPC envelope included: the Claude
// app takes about 150,000, and this leaves room below it.
const DefaultResultBudget = 140_000

// resultReserve is what a tool result carrying one picture needs besides
// the picture's base64 within a budget larger than the default, in
// characters: its words, the JSON around them and the JSON-RPC envelope. At
// the default budget it leaves the picture picture.DefaultMaxBytes.
const resultReserve = 6_666

// wordsReserve is the same within the default budget or a smaller one,
// where every byte of the picture counts: a snapshot's words take under
// 1,500 characters, with room for long names in French.
const wordsReserve = 2_500

// tileWords is what each overview tile beyond the fourth adds to the words.
const tileWords = 300

// PictureBytes is a picture's share of a tool result of budget characters,
// in JPEG bytes before base64: 100,000 for the default budget, more for a
// larger one, and within a smaller one all the words leave.
func PictureBytes(budget int) int { return pictureBytes(budget, wordsReserve) }

// pictureBytes is PictureBytes for a result whose words may take up to
// words characters.
func pictureBytes(budget, words int) int {
	if budget > DefaultResultBudget {
		return (budget - resultReserve) * 3 / 4
	}
	return max(min((budget-words)*3/4, picture.DefaultMaxBytes), 1)
}

// Service answers camera questions. It is safe for concurrent use.
type Service struct {
	cfg    Config
	log    *slog.Logger
	limits picture.Limits // what every picture is fitted to, the result budget included
	// pictures counts the pictures this service encoded (fitted afresh,
	// cut, drawn), not those passed on as the camera sent them repaired.
	pictures atomic.Int64
	frames   *shared.Cache[string, prepared] // fetched and repaired, by camera, each fitted when first wanted; shared and kept MaxAge

	mu    sync.Mutex
	sizes map[string]image.Point // full frame size per camera, as last seen unscaled
	seen  map[string]seenFrame   // the last frame of each camera, to notice a frozen one
	seed  maphash.Seed
	power map[string]power // whether each camera was on when last fetched

	font         func() (*opentype.Font, error) // the overview's label font, parsed once
	lastOverview drawnOverview                  // guarded by mu
	// crops bounds the full-resolution frames decoded for a part at once:
	// the work is the processor's, and each costs tens of megabytes.
	crops chan struct{}

	fullMu sync.Mutex
	fulls  map[string]*fullCall // the full-resolution frame being fetched or cut from, by camera
}

// seenFrame remembers a frame by its hash and when it was first fetched.
type seenFrame struct {
	sum   uint64
	first time.Time
}

// New returns a Service; it does no I/O.
func New(cfg Config) (*Service, error) {
	if cfg.Source == nil {
		return nil, errors.New("camera: no Home Assistant source")
	}
	if cfg.Exposed == nil && len(cfg.Allow) == 0 {
		return nil, errors.New("camera: neither an Assist exposure source nor MAISON_CAMERAS is set")
	}
	if cfg.Lang == "" {
		cfg.Lang = voice.English
	}
	if cfg.MaxAge == 0 {
		cfg.MaxAge = 3 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.OverviewWait == 0 {
		cfg.OverviewWait = overviewWaitDefault
	}
	if cfg.AIBudget == 0 {
		cfg.AIBudget = aiBudgetDefault
	}
	if cfg.ProbeBudget == 0 {
		cfg.ProbeBudget = probeBudgetDefault
	}
	if cfg.FetchTimeout == 0 {
		cfg.FetchTimeout = fetchTimeoutDefault
	}
	if cfg.ResultBudget == 0 {
		cfg.ResultBudget = DefaultResultBudget
	}
	if cfg.Memory == nil {
		cfg.Memory = picture.NewMemory(picture.DefaultMemory)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	svc := &Service{cfg: cfg, log: log, limits: picture.Limits{MaxBytes: PictureBytes(cfg.ResultBudget), Memory: cfg.Memory}, sizes: map[string]image.Point{}, seen: map[string]seenFrame{}, seed: maphash.MakeSeed(), power: map[string]power{}, font: sync.OnceValues(picture.LabelFont), crops: make(chan struct{}, max(1, runtime.GOMAXPROCS(0))), fulls: map[string]*fullCall{}}
	svc.frames = shared.New(svc.prepareNoting, cfg.MaxAge, cfg.Now)
	return svc, nil
}

// Encoded counts the pictures the service has encoded: fitted afresh, cut
// or drawn; a frame passed on as the camera sent it, repaired, is not
// counted.
func (s *Service) Encoded() int64 { return s.pictures.Load() }

// encoded counts fit when it was encoded here.
func (s *Service) encoded(fit picture.Fitted) {
	if fit.Reencoded {
		s.pictures.Add(1)
	}
}

// Refit fits an already fitted picture within maxBytes, admitted against
// the service's memory budget: the result guard's last resort
// (picture.FitBytes).
func (s *Service) Refit(ctx context.Context, jpeg []byte, maxBytes int) (picture.Fitted, error) {
	return picture.FitBytes(ctx, jpeg, picture.Limits{MaxBytes: maxBytes, Memory: s.cfg.Memory})
}

// Camera is one camera a caller may see.
type Camera struct {
	EntityID string
	Name     string // as people name it: "Garage"
	Area     string // area name, or ""
	State    string // idle, recording, streaming, unavailable
	// Off is true when the camera was turned off in Home Assistant the last
	// time a frame was asked of it (Home Assistant's state does not say so).
	Off bool
}

// Say is how the camera is named aloud, its name quoted as data: the
// “Garage” camera, la caméra « Garage ».
func (c Camera) Say(lang voice.Lang) string { return words.Camera(lang, c.Name) }

// List returns the cameras callers may see, sorted by name: those the
// operator listed (MAISON_CAMERAS, a strict allowlist), or else those
// exposed to Assist and known by identity. A camera that is not exposed
// never appears, even though Home Assistant would serve its frames, and
// neither does an exposed one that cannot be told apart from another.
func (s *Service) List(ctx context.Context) ([]Camera, error) {
	cams, _, err := s.list(ctx)
	return cams, err
}

// Withheld is an exposed camera maison cannot show: its words fit several
// entities, or its exposure cannot be read. Only its words are known.
type Withheld struct {
	Names  []string // as the live context gives them
	Reason words.Doubt
}

// Listing returns the cameras callers may see, sorted by name, each with
// whether it is turned off, and the cameras exposed to Assist that maison
// withholds because it cannot tell which entity they are. A camera not
// asked for a frame lately is asked now, briefly, since only a refused
// frame tells that a camera is off.
func (s *Service) Listing(ctx context.Context) ([]Camera, []Withheld, error) {
	cams, withheld, err := s.list(ctx)
	if err != nil {
		return nil, nil, err
	}
	s.probe(ctx, cams)
	for i := range cams {
		cams[i].Off = s.isOff(cams[i].EntityID)
	}
	return cams, withheld, nil
}

// list returns the cameras callers may see and the exposed cameras withheld.
func (s *Service) list(ctx context.Context) ([]Camera, []Withheld, error) {
	var ids []string
	var withheld []Withheld
	if len(s.cfg.Allow) > 0 {
		ids = s.cfg.Allow
	} else {
		exposed, err := s.cfg.Exposed(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("camera: reading what is exposed to Assist: %w", err)
		}
		for _, e := range exposed {
			switch {
			case e.Domain != "camera":
			case e.ID != "":
				ids = append(ids, e.ID)
			default:
				withheld = append(withheld, Withheld{Names: e.Names, Reason: e.Doubt})
			}
		}
	}
	var out []Camera
	for _, id := range ids {
		st, ok := s.cfg.Source.State(id)
		if !ok || !strings.HasPrefix(id, "camera.") {
			continue
		}
		out = append(out, Camera{EntityID: id, Name: st.Name(), Area: s.cfg.Source.Area(id), State: st.State})
	}
	slices.SortFunc(out, func(a, b Camera) int { return strings.Compare(a.Name, b.Name) })
	return out, withheld, nil
}

// prepared is a frame fetched and repaired, its picture fitted when first
// asked for.
type prepared struct {
	frame picture.Frame // repaired, or the part of a damaged frame that decodes
	// fit fits frame to the service's limits, once for every caller.
	fit func(context.Context) (picture.Fitted, error)
	// luma is the frame's pixel facts from its DC terms, read once.
	luma    func(context.Context) *picture.Stats
	damage  *Damage // set when only the part that decodes is shown
	fetched time.Time
	size    int // bytes the camera sent
	repairs []string
	// sameSince is when a byte-identical frame was first fetched, when the
	// camera keeps sending the same one; zero otherwise.
	sameSince time.Time
}

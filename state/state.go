// Package state keeps what maison must answer once or remember briefly:
// confirmation codes and approval references already used, what became of
// each approval, the approvals each client has waiting, sign-in attempts
// and registration budgets. Every entry expires on its own.
//
// Three stores meet one small interface: memory (one process, lost when it
// stops), a file in a data directory (bbolt: survives restarts, one
// process at a time) and Redis or Valkey (shared by replicas). Whatever
// the store, the first Claim of a key wins and every later one loses until
// it expires: that is what makes a code, an approval or an answer count
// once. A store that cannot answer returns ErrUnavailable, a full one
// ErrFull: callers then refuse what needs the answer, never guess it.
package state

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// Store keeps entries until they expire. Keys are maison's own (never a
// client's text); values are small. It is safe for concurrent use.
type Store interface {
	// Claim sets key to value until exp unless a live value is already
	// there: the first claim wins. It reports whether this one did, and
	// otherwise the value there.
	Claim(ctx context.Context, key string, value []byte, exp time.Time) (won bool, held []byte, err error)
	// Get returns key's live value, or nil when there is none.
	Get(ctx context.Context, key string) ([]byte, error)
	// Add adds n (0 reads, negative takes back) to the counter at key and
	// returns its new value. A counter that was not there starts at 0 and
	// lives until exp; later additions keep its expiry.
	Add(ctx context.Context, key string, n int64, exp time.Time) (int64, error)
	// Join puts member in the set at key until exp, if the set holds fewer
	// than max live members (a member already there stays and counts as
	// joined). Otherwise it reports when the first live member expires.
	Join(ctx context.Context, key, member string, exp time.Time, max int) (joined bool, first time.Time, err error)
	// Leave takes member out of the set at key.
	Leave(ctx context.Context, key, member string) error
	// Close releases the store.
	Close() error
}

// ErrUnavailable is a store that did not answer in time or at all: what
// needed it is refused, and nothing is assumed about the entry.
var ErrUnavailable = errors.New("state: the store of answers cannot be reached")

// ErrFull is a store at its bound with nothing expired to drop: new
// entries are refused rather than old ones forgotten.
var ErrFull = errors.New("state: the store of answers is full")

// Timeout bounds each operation on a store reached over the network, so
// that a slow store refuses in seconds rather than holding a request.
const Timeout = 2 * time.Second

// MaxEntries is the default bound of the memory and file stores: entries
// (a set's members each count) past which new ones are refused.
const MaxEntries = 250_000

// maxValue bounds one value (an approval's action is under 2 KiB).
const maxValue = 8 << 10

// Config chooses and sets up a store. At most one of Dir and URL is set.
type Config struct {
	// Dir is a directory where the store is a file, state.db, that
	// survives restarts (MAISON_STATE_DIR). One process at a time.
	Dir string
	// URL is a Redis or Valkey server replicas share (MAISON_STATE_URL):
	// redis://[user:password@]host:port[/db], or rediss:// over TLS.
	URL string
	// MaxEntries bounds the memory and file stores. Zero means MaxEntries.
	MaxEntries int
	// Logger says which store is used and when it cannot be reached. Nil
	// means discard.
	Logger *slog.Logger
	// Now is the clock of the memory and file stores. Nil means time.Now.
	Now func() time.Time
}

// Open returns the store cfg names: a file in Dir, the server at URL, or
// memory when neither is set.
func Open(ctx context.Context, cfg Config) (Store, error) {
	if cfg.MaxEntries <= 0 {
		cfg.MaxEntries = MaxEntries
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	switch {
	case cfg.Dir != "" && cfg.URL != "":
		return nil, errors.New("state: MAISON_STATE_DIR and MAISON_STATE_URL are both set: give one (a directory for one maison, a Redis or Valkey URL for replicas)")
	case cfg.Dir != "":
		return OpenFile(cfg.Dir, cfg.MaxEntries, cfg.Now)
	case cfg.URL != "":
		return OpenRedis(ctx, cfg.URL, cfg.Logger)
	}
	return NewMemory(cfg.MaxEntries, cfg.Now), nil
}

// Lasts reports whether a store keeps its entries when maison stops (a
// file, Redis): memory does not, and nil is memory.
func Lasts(s Store) bool {
	_, mem := s.(*Memory)
	return s != nil && !mem
}

// Describe names a store for the log: which kind, and where.
func Describe(s Store) string {
	if d, ok := s.(fmt.Stringer); ok {
		return d.String()
	}
	return "state store"
}

// checkKey refuses a key the stores cannot keep apart from their own
// bookkeeping.
func checkKey(key string) error {
	if key == "" || len(key) > 512 {
		return errors.New("state: a key must be 1 to 512 bytes")
	}
	for i := range len(key) {
		if key[i] == 0 {
			return errors.New("state: a key must not hold a NUL byte")
		}
	}
	return nil
}

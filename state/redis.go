package state

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"maison/internal/redact"
)

// Redis is a store on a Redis or Valkey server that replicas share. Each
// answer-once entry is one SET NX; counters and sets are small Lua
// scripts, atomic on the server. Every operation is bounded by Timeout and
// never retried: a write that may or may not have landed is reported
// unavailable, and what needed it is refused.
type Redis struct {
	c    *redis.Client
	addr string
}

var _ Store = (*Redis)(nil)

// prefix keeps maison's keys apart on a shared server.
const prefix = "maison:"

// OpenRedis connects to the server at rawURL (redis:// or rediss://). A
// server not answering yet is no error: each operation says so until it
// does, and log hears it once now.
func OpenRedis(ctx context.Context, rawURL string, log *slog.Logger) (*Redis, error) {
	opt, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("state: MAISON_STATE_URL %q: %v; give redis://host:6379 (or rediss:// over TLS, redis://:password@host:6379/0 with a password)", redact.URL(rawURL), err)
	}
	opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout = Timeout, Timeout, Timeout
	opt.ContextTimeoutEnabled = true
	opt.MaxRetries = -1 // a write retried could land twice: fail, and refuse
	opt.DisableIdentity = true
	opt.Protocol = 2
	quietOnce.Do(func() { redis.SetLogger(quiet{}) })
	r := &Redis{c: redis.NewClient(opt), addr: opt.Addr}
	pctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	if err := r.c.Ping(pctx).Err(); err != nil {
		log.Warn("the state store does not answer yet: sensitive actions are refused until it does", "store", r.String(), "err", err)
	}
	return r, nil
}

// quiet silences the client library's own lines, which it writes to the
// standard log whatever the program's logger: each failure reaches
// maison's log through the error the operation returns.
type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}

// quietOnce sets the library's logger, its one setting for the whole
// process, once.
var quietOnce sync.Once

func (r *Redis) String() string { return "redis " + r.addr }

// unavailable names a failure of the server as ErrUnavailable, or ErrFull
// when it refuses writes for want of memory.
func (r *Redis) unavailable(err error) error {
	if err == nil || errors.Is(err, redis.Nil) {
		return nil
	}
	if strings.HasPrefix(err.Error(), "OOM ") {
		return fmt.Errorf("%w: %s: %v", ErrFull, r.addr, err)
	}
	return fmt.Errorf("%w: %s: %w", ErrUnavailable, r.addr, err)
}

func bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, Timeout)
}

// millis is exp as the server takes it (unix milliseconds), at least 1 ms
// from now.
func millis(exp time.Time) int64 { return max(exp.UnixMilli(), time.Now().UnixMilli()+1) }

// Claim implements Store with SET NX GET.
func (r *Redis) Claim(ctx context.Context, key string, value []byte, exp time.Time) (bool, []byte, error) {
	if err := checkEntry(key, value); err != nil {
		return false, nil, err
	}
	ctx, cancel := bounded(ctx)
	defer cancel()
	held, err := r.c.SetArgs(ctx, prefix+key, value, redis.SetArgs{Mode: "NX", Get: true, ExpireAt: time.UnixMilli(millis(exp))}).Bytes()
	if errors.Is(err, redis.Nil) {
		return true, nil, nil
	}
	if err != nil {
		return false, nil, r.unavailable(err)
	}
	if held == nil {
		held = []byte{}
	}
	return false, held, nil
}

// Get implements Store.
func (r *Redis) Get(ctx context.Context, key string) ([]byte, error) {
	ctx, cancel := bounded(ctx)
	defer cancel()
	v, err := r.c.Get(ctx, prefix+key).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	return v, r.unavailable(err)
}

// addScript adds to a counter, setting its expiry when it is new.
var addScript = redis.NewScript(`
local n = tonumber(ARGV[1])
if n == 0 then
  return tonumber(redis.call('GET', KEYS[1]) or '0')
end
local v = redis.call('INCRBY', KEYS[1], n)
if redis.call('PTTL', KEYS[1]) < 0 then
  redis.call('PEXPIREAT', KEYS[1], ARGV[2])
end
return v
`)

// Add implements Store.
func (r *Redis) Add(ctx context.Context, key string, n int64, exp time.Time) (int64, error) {
	if err := checkKey(key); err != nil {
		return 0, err
	}
	ctx, cancel := bounded(ctx)
	defer cancel()
	v, err := addScript.Run(ctx, r.c, []string{prefix + key}, n, millis(exp)).Int64()
	return v, r.unavailable(err)
}

// joinScript puts a member in a sorted set scored by expiry, dropping
// those expired, when fewer than the bound live there; else it returns
// the first expiry. The set lives as long as its last member.
var joinScript = redis.NewScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return -1
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tonumber(first[2])
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], last[2])
return -1
`)

// Join implements Store.
func (r *Redis) Join(ctx context.Context, key, member string, exp time.Time, max int) (bool, time.Time, error) {
	if err := checkKey(key); err != nil {
		return false, time.Time{}, err
	}
	ctx, cancel := bounded(ctx)
	defer cancel()
	first, err := joinScript.Run(ctx, r.c, []string{prefix + key}, member, millis(exp), strconv.FormatInt(time.Now().UnixMilli(), 10), max).Int64()
	if err != nil {
		return false, time.Time{}, r.unavailable(err)
	}
	if first < 0 {
		return true, time.Time{}, nil
	}
	return false, time.UnixMilli(first), nil
}

// Leave implements Store.
func (r *Redis) Leave(ctx context.Context, key, member string) error {
	ctx, cancel := bounded(ctx)
	defer cancel()
	return r.unavailable(r.c.ZRem(ctx, prefix+key, member).Err())
}

// Close implements Store.
func (r *Redis) Close() error { return r.c.Close() }

package state

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// FileName is the store's file in its directory.
const FileName = "state.db"

// File is a store in one file (bbolt): every change is on disk when it
// returns (a transaction written and synced), so a crash or a restart
// keeps what was answered. One process holds the file at a time.
type File struct {
	db   *bolt.DB
	path string
	max  int
	now  func() time.Time

	stop chan struct{}
	done sync.WaitGroup
}

var _ Store = (*File)(nil)

// The file's buckets: entries by key; their keys by expiry (8 bytes of
// unix nanoseconds, then the key), so expired ones are dropped in order;
// and the count of entries.
var (
	bucketEntries = []byte("entries")
	bucketExpiry  = []byte("expiry")
	bucketMeta    = []byte("meta")
	metaCount     = []byte("count")
)

// sweepEvery is how often expired entries are dropped from the file.
const sweepEvery = time.Minute

// OpenFile opens (or makes) the store in dir, of at most max entries, on
// clock now.
func OpenFile(dir string, max int, now func() time.Time) (*File, error) {
	if now == nil {
		now = time.Now
	}
	if max <= 0 {
		max = MaxEntries
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("state: MAISON_STATE_DIR %q cannot be made: %w; give a directory maison may write", dir, err)
	}
	path := filepath.Join(dir, FileName)
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second})
	if errors.Is(err, bolt.ErrTimeout) {
		return nil, fmt.Errorf("state: %s is held by another process (another maison on the same MAISON_STATE_DIR?): give each maison its own directory, or share MAISON_STATE_URL between replicas", path)
	}
	if err != nil {
		return nil, fmt.Errorf("state: opening %s (MAISON_STATE_DIR): %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketEntries, bucketExpiry, bucketMeta} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("state: preparing %s: %w", path, err)
	}
	// Writes at the same moment share one sync; one alone waits at most
	// a millisecond for company.
	db.MaxBatchDelay = time.Millisecond
	f := &File{db: db, path: path, max: max, now: now, stop: make(chan struct{})}
	f.done.Go(f.sweepLoop)
	return f, nil
}

func (f *File) String() string { return "file " + f.path }

// record is an entry as the file keeps it: its kind, its expiry, then a
// value or a counter (8 bytes). A set's members are entries of their own,
// under the set's key, a NUL and the member.
type record struct {
	kind  byte
	exp   time.Time
	value []byte
	n     int64
}

func (r record) encode() []byte {
	b := make([]byte, 9, 9+len(r.value)+8)
	b[0] = r.kind
	binary.BigEndian.PutUint64(b[1:9], uint64(r.exp.UnixNano()))
	if r.kind == kindCounter {
		return binary.BigEndian.AppendUint64(b, uint64(r.n))
	}
	return append(b, r.value...)
}

func decode(b []byte) (record, bool) {
	if len(b) < 9 {
		return record{}, false
	}
	r := record{kind: b[0], exp: time.Unix(0, int64(binary.BigEndian.Uint64(b[1:9])))}
	if r.kind == kindCounter {
		if len(b) != 17 {
			return record{}, false
		}
		r.n = int64(binary.BigEndian.Uint64(b[9:]))
		return r, true
	}
	r.value = slices.Clone(b[9:])
	return r, true
}

func expiryKey(exp time.Time, key []byte) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(exp.UnixNano())), key...)
}

// txn is one write transaction's view of the file.
type txn struct {
	entries, expiry, meta *bolt.Bucket
}

func open(tx *bolt.Tx) txn {
	return txn{tx.Bucket(bucketEntries), tx.Bucket(bucketExpiry), tx.Bucket(bucketMeta)}
}

func (t txn) count() int {
	b := t.meta.Get(metaCount)
	if len(b) != 8 {
		return 0
	}
	return int(binary.BigEndian.Uint64(b))
}

func (t txn) setCount(n int) error {
	return t.meta.Put(metaCount, binary.BigEndian.AppendUint64(nil, uint64(max(n, 0))))
}

// get returns key's live record, or false.
func (t txn) get(key []byte, now time.Time) (record, bool) {
	r, ok := decode(t.entries.Get(key))
	if !ok || !now.Before(r.exp) {
		return record{}, false
	}
	return r, true
}

// put writes key's record, replacing whatever was there, within the bound.
func (t txn) put(key []byte, r record, now time.Time, max int) error {
	n := t.count()
	if old, ok := decode(t.entries.Get(key)); ok {
		if err := t.expiry.Delete(expiryKey(old.exp, key)); err != nil {
			return err
		}
	} else {
		if n >= max {
			if n = t.sweep(now, n, 10_000); n >= max {
				return ErrFull
			}
		}
		n++
	}
	if err := t.entries.Put(key, r.encode()); err != nil {
		return err
	}
	if err := t.expiry.Put(expiryKey(r.exp, key), nil); err != nil {
		return err
	}
	return t.setCount(n)
}

// del removes key's record.
func (t txn) del(key []byte) error {
	old, ok := decode(t.entries.Get(key))
	if !ok {
		return nil
	}
	if err := t.expiry.Delete(expiryKey(old.exp, key)); err != nil {
		return err
	}
	if err := t.entries.Delete(key); err != nil {
		return err
	}
	return t.setCount(t.count() - 1)
}

// sweep drops up to limit expired entries, in expiry order, from a store
// of n entries, and returns how many are left.
func (t txn) sweep(now time.Time, n, limit int) int {
	c := t.expiry.Cursor()
	var gone [][]byte
	for k, _ := c.First(); k != nil && len(gone) < limit; k, _ = c.Next() {
		if len(k) < 8 || int64(binary.BigEndian.Uint64(k[:8])) >= now.UnixNano() {
			break
		}
		gone = append(gone, slices.Clone(k))
	}
	for _, k := range gone {
		key := k[8:]
		if r, ok := decode(t.entries.Get(key)); ok && bytes.Equal(expiryKey(r.exp, key), k) {
			t.entries.Delete(key)
			n--
		}
		t.expiry.Delete(k)
	}
	t.setCount(n)
	return n
}

func (f *File) sweepLoop() {
	tick := time.NewTicker(sweepEvery)
	defer tick.Stop()
	for {
		select {
		case <-f.stop:
			return
		case <-tick.C:
			f.db.Update(func(tx *bolt.Tx) error {
				t := open(tx)
				t.sweep(f.now(), t.count(), 50_000)
				return nil
			})
		}
	}
}

// write runs fn in a write transaction, batched with others at the same
// moment (one sync for all). fn may run more than once: it sets its
// results afresh each time.
func (f *File) write(ctx context.Context, fn func(t txn) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	err := f.db.Batch(func(tx *bolt.Tx) error { return fn(open(tx)) })
	switch {
	case err == nil, errors.Is(err, ErrFull):
		return err
	case errors.Is(err, errKindMismatch):
		return err
	}
	return fmt.Errorf("%w: %s: %w", ErrUnavailable, f.path, err)
}

// errKindMismatch marks errKind inside a transaction.
var errKindMismatch = errors.New("state: a key is held by another kind of entry")

// Claim implements Store.
func (f *File) Claim(ctx context.Context, key string, value []byte, exp time.Time) (won bool, held []byte, err error) {
	if err := checkEntry(key, value); err != nil {
		return false, nil, err
	}
	err = f.write(ctx, func(t txn) error {
		won, held = false, nil
		now := f.now()
		if r, ok := t.get([]byte(key), now); ok {
			if r.kind != kindValue {
				return errKindMismatch
			}
			held = r.value
			return nil
		}
		won = true
		return t.put([]byte(key), record{kind: kindValue, exp: exp, value: value}, now, f.max)
	})
	if err != nil {
		return false, nil, err
	}
	return won, held, nil
}

// Get implements Store.
func (f *File) Get(ctx context.Context, key string) (value []byte, err error) {
	err = f.db.View(func(tx *bolt.Tx) error {
		r, ok := open(tx).get([]byte(key), f.now())
		switch {
		case !ok:
			return nil
		case r.kind != kindValue:
			return errKindMismatch
		}
		value = r.value
		return nil
	})
	if err != nil && !errors.Is(err, errKindMismatch) {
		return nil, fmt.Errorf("%w: %s: %w", ErrUnavailable, f.path, err)
	}
	return value, err
}

// Add implements Store.
func (f *File) Add(ctx context.Context, key string, n int64, exp time.Time) (total int64, err error) {
	if err := checkKey(key); err != nil {
		return 0, err
	}
	if n == 0 {
		err = f.db.View(func(tx *bolt.Tx) error {
			r, ok := open(tx).get([]byte(key), f.now())
			switch {
			case !ok:
			case r.kind != kindCounter:
				return errKindMismatch
			default:
				total = r.n
			}
			return nil
		})
		if err != nil && !errors.Is(err, errKindMismatch) {
			return 0, fmt.Errorf("%w: %s: %w", ErrUnavailable, f.path, err)
		}
		return total, err
	}
	err = f.write(ctx, func(t txn) error {
		now := f.now()
		r, ok := t.get([]byte(key), now)
		switch {
		case !ok:
			r = record{kind: kindCounter, exp: exp}
		case r.kind != kindCounter:
			return errKindMismatch
		}
		r.n += n
		total = r.n
		return t.put([]byte(key), r, now, f.max)
	})
	return total, err
}

// memberKey is where a set's member is kept.
func memberKey(key, member string) []byte { return []byte(key + "\x00" + member) }

// Join implements Store.
func (f *File) Join(ctx context.Context, key, member string, exp time.Time, max int) (joined bool, first time.Time, err error) {
	if err := checkKey(key); err != nil {
		return false, time.Time{}, err
	}
	err = f.write(ctx, func(t txn) error {
		joined, first = false, time.Time{}
		now := f.now()
		prefix := []byte(key + "\x00")
		live := 0
		var gone [][]byte
		c := t.entries.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			r, ok := decode(v)
			if !ok || !now.Before(r.exp) {
				gone = append(gone, slices.Clone(k))
				continue
			}
			if string(k[len(prefix):]) == member {
				joined = true
				return nil
			}
			live++
			if first.IsZero() || r.exp.Before(first) {
				first = r.exp
			}
		}
		for _, k := range gone {
			if err := t.del(k); err != nil {
				return err
			}
		}
		if live >= max {
			return nil
		}
		joined, first = true, time.Time{}
		return t.put(memberKey(key, member), record{kind: kindSet, exp: exp}, now, f.max)
	})
	if err != nil {
		return false, time.Time{}, err
	}
	return joined, first, nil
}

// Leave implements Store.
func (f *File) Leave(ctx context.Context, key, member string) error {
	return f.write(ctx, func(t txn) error { return t.del(memberKey(key, member)) })
}

// Close implements Store.
func (f *File) Close() error {
	close(f.stop)
	f.done.Wait()
	return f.db.Close()
}

package picture

import (
	"context"
	"errors"
	"fmt"
	"image"
	"time"

	"golang.org/x/sync/semaphore"

	"maison/jpegscale"
)

// Memory is the one budget, in bytes, of what pictures being made hold at
// once in a process: every decode, whatever path asks for it (a snapshot,
// a part, an overview's tiles, a description's brightness, the panel,
// maison fit), is admitted against it before it allocates, for what the
// decode and the fit after it hold at their peak. A picture too large for
// what is free waits its turn; one too large for the whole budget at the
// size it was wanted is decoded at a smaller scale, and refused in words
// (UnusableMemory) when even an eighth of it does not fit. Built once
// (bridge, maison fit) and shared by every caller; safe for concurrent
// use.
type Memory struct {
	sem   *semaphore.Weighted
	total int64
	noted func(n int64) // tests: told each admission's bytes
}

// DefaultMemory is the budget a call without a Memory gets to itself:
// two thirds of maison's default soft memory limit (96 MiB).
const DefaultMemory = 64 << 20

// NewMemory returns a budget of total bytes.
func NewMemory(total int64) *Memory {
	total = max(total, 1)
	return &Memory{sem: semaphore.NewWeighted(total), total: total}
}

// MemoryFor is the budget for a process whose soft memory limit is limit
// (GOMEMLIMIT): two thirds of it, the rest left to everything else maison
// holds; DefaultMemory when there is no limit.
func MemoryFor(limit int64) *Memory {
	if limit <= 0 || limit >= 1<<50 {
		return NewMemory(DefaultMemory)
	}
	return NewMemory(limit / 3 * 2)
}

// Total is the budget's size in bytes.
func (m *Memory) Total() int64 { return m.total }

// ErrBusy is a picture that waited for memory until its caller could wait
// no longer: other pictures were being made. It passes within seconds.
var ErrBusy = errors.New("camera: busy making other pictures")

// answerMargin is the part of a caller's time left after a wait for
// memory ends unanswered, to say so before the caller's deadline.
const answerMargin = 500 * time.Millisecond

// AnswerBefore is ctx ending a little before its deadline, for a wait on
// other pictures (for memory, or for another caller's picture of the same
// frame) to end with time left to say it is busy (ErrBusy) before the
// caller's deadline.
func AnswerBefore(ctx context.Context) (context.Context, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok {
		return ctx, func() {}
	}
	margin := min(answerMargin, time.Until(dl)/5)
	return context.WithDeadline(ctx, dl.Add(-margin))
}

// budget is the total a call is admitted against.
func (l Limits) budget() int64 {
	if l.Memory == nil {
		return DefaultMemory
	}
	return l.Memory.total
}

// admit waits for n bytes of l's Memory, or for ctx, ending the wait a
// little before ctx's deadline so that the caller can still say it is
// busy in time. A call without a Memory is admitted at once (its budget
// is its own). The release must be called once the bytes are no longer
// held.
func (l Limits) admit(ctx context.Context, n int64) (func(), error) {
	if n > l.budget() {
		return nil, tooLargeForMemory(n, l.budget())
	}
	if l.Memory == nil {
		return func() {}, nil
	}
	if l.Memory.noted != nil {
		l.Memory.noted(n)
	}
	if l.Memory.sem.TryAcquire(n) {
		return func() { l.Memory.sem.Release(n) }, nil
	}
	wait, cancel := AnswerBefore(ctx)
	defer cancel()
	if err := l.Memory.sem.Acquire(wait, n); err != nil {
		return nil, fmt.Errorf("%w: waited for %d MB of pictures' memory: %w", ErrBusy, n>>20, err)
	}
	return func() { l.Memory.sem.Release(n) }, nil
}

// Hold waits for n bytes of m for what a picture's making holds besides
// the pixels its decode admits: a camera's frame as fetched and repaired,
// shared by the callers that cut parts of it. The wait ends as admit's
// does (ErrBusy a little before ctx's deadline). Bytes are not made
// smaller by a scale: more than the whole budget takes all of it. A nil
// Memory holds nothing. The release must be called once.
func (m *Memory) Hold(ctx context.Context, n int64) (func(), error) {
	if m == nil {
		return func() {}, nil
	}
	return Limits{Memory: m}.admit(ctx, min(max(n, 0), m.total))
}

// tooLargeForMemory refuses a picture that needs more than the whole
// budget even at an eighth of its size.
func tooLargeForMemory(n, total int64) error {
	return &UnusableError{Why: UnusableMemory, Detail: fmt.Sprintf("making its picture needs %d MB, more than the %d MB maison gives pictures", n>>20, total>>20)}
}

// tooLargeWhole refuses a picture that is not a JPEG, decoded whole, that
// needs more than the whole budget: no smaller scale is tried.
func tooLargeWhole(n, total int64) error {
	return &UnusableError{Why: UnusableMemoryWhole, Detail: fmt.Sprintf("decoding its picture whole needs %d MB, more than the %d MB maison gives pictures", n>>20, total>>20)}
}

// afterBytesPerPixel is what the fitted picture costs a pixel: the
// resized planes and the encoder's coefficients, and again for each
// smaller size a picture full of detail is tried at (encodeWithin).
const afterBytesPerPixel = 22

// afterSlack is what any picture's making holds besides its pixels: the
// headers read, the strict check of the result.
const afterSlack = 1 << 20

// encodedBytesPerPixel bounds what a JPEG of the fitted picture takes a
// pixel at the qualities encodeWithin tries (80 and below): its bytes
// grow with maxBytes only up to what the picture's pixels can fill, so a
// larger result budget never asks more memory than the picture needs.
const encodedBytesPerPixel = 3

// afterDecode is what the steps after a decode of dec pixels hold, for a
// picture fitted to fit pixels within maxBytes (the encoder's bytes
// counted for no more than fit's pixels can fill): the resize's passes and
// its result, the encoder's coefficients and its bytes, counted at 3 bytes
// a pixel whatever the subsampling; a picture turned upright is a copy of
// 4 bytes a pixel (imaging's NRGBA), resized in that form too.
func afterDecode(dec, fit image.Point, turned bool, maxBytes int) int64 {
	fitPx := int64(fit.X) * int64(fit.Y)
	n := afterSlack + int64(fit.X)*int64(dec.Y)*3 + fitPx*afterBytesPerPixel + 8*min(int64(maxBytes), fitPx*encodedBytesPerPixel)
	if turned {
		n += int64(dec.X)*int64(dec.Y)*4 + int64(fit.X)*int64(dec.Y)*4 + int64(fit.X)*int64(fit.Y)*8
	}
	return n
}

// plan picks the scale a JPEG frame is decoded at and says the bytes to
// admit: the largest reduction at which cover (the part shown, as stored)
// still covers want, or, when that would need more than the whole budget,
// a smaller picture; refused when even 1/8 does not fit. r is the window
// decoded (full-size pixels), empty for the whole frame; fitTo gives the
// size a decode of the part is fitted to, for the steps after it.
func plan(h jpegscale.Header, cover, want image.Point, r image.Rectangle, turned bool, l Limits, fitTo func(dec image.Point) image.Point) (scale int, n int64, err error) {
	window := image.Pt(h.Width, h.Height)
	if !r.Empty() {
		window = r.Intersect(image.Rect(0, 0, h.Width, h.Height)).Size()
	}
	scale = 1
	for s := 8; s > 1; s /= 2 {
		if cover.X/s >= want.X && cover.Y/s >= want.Y {
			scale = s
			break
		}
	}
	for ; ; scale *= 2 {
		dec := image.Pt(ceilDiv(window.X, scale), ceilDiv(window.Y, scale))
		part := image.Pt(ceilDiv(cover.X, scale), ceilDiv(cover.Y, scale))
		n = h.DecodeBytes(scale, r) + afterDecode(dec, fitTo(part), turned, l.withDefaults().MaxBytes)
		if n <= l.budget() || scale == 8 {
			break
		}
	}
	if n > l.budget() {
		return 0, n, tooLargeForMemory(n, l.budget())
	}
	return scale, n, nil
}

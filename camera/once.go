package camera

import (
	"context"
	"errors"
	"fmt"

	"maison/camera/picture"
)

// once is work on a shared frame (its fit, its brightness) done for the
// first caller that gets it done and kept for every caller after. Waiting
// for another caller's try respects the waiting caller's context, and
// ends busy (picture.ErrBusy) a little before its deadline; a try
// that ended because its caller could wait no longer for memory
// (picture.ErrBusy) is not kept, so the next caller tries again.
type once[T any] struct {
	turn chan struct{} // held while a try runs; guards done, val and err
	done bool
	val  T
	err  error
}

func newOnce[T any]() *once[T] { return &once[T]{turn: make(chan struct{}, 1)} }

// get returns the kept result, or runs work for it.
func (o *once[T]) get(ctx context.Context, work func(context.Context) (T, error)) (T, error) {
	// Another caller's try may itself be waiting for memory: the wait for
	// it ends busy before this caller's deadline, as a wait for memory does.
	wait, cancel := picture.AnswerBefore(ctx)
	defer cancel()
	select {
	case o.turn <- struct{}{}:
	case <-wait.Done():
		var zero T
		if err := ctx.Err(); errors.Is(err, context.Canceled) {
			return zero, err
		}
		return zero, fmt.Errorf("%w: waited for another caller's picture of the same frame: %w", picture.ErrBusy, context.DeadlineExceeded)
	}
	defer func() { <-o.turn }()
	if o.done {
		return o.val, o.err
	}
	v, err := work(ctx)
	if errors.Is(err, picture.ErrBusy) {
		return v, err
	}
	o.done, o.val, o.err = true, v, err
	return v, err
}

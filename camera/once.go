package camera

import (
	"context"
	"errors"

	"maison/camera/picture"
)

// once is work on a shared frame (its fit, its brightness) done for the
// first caller that gets it done and kept for every caller after. Waiting
// for another caller's try respects the waiting caller's context; a try
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
	select {
	case o.turn <- struct{}{}:
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
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

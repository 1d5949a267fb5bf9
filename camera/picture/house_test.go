package picture_test

import (
	"sync"
	"testing"

	"maison/demotest"
)

// sharedHouse is one demo house for the tests and benchmarks that fit its
// camera frames.
var sharedHouse = sync.OnceValue(func() *demotest.House { return demotest.StartHouse(demotest.Options{}) })

// sharedFrame returns a frame of the shared demo house.
func sharedFrame(t *testing.T, id string) (served, clean []byte, ok bool) {
	t.Helper()
	house := sharedHouse()
	return house.Frame(id)
}

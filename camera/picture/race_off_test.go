//go:build !race

package picture_test

// raceDetector is whether the tests run under the data race detector,
// whose instrumentation makes some decoders allocate more than they do in
// maison.
const raceDetector = false

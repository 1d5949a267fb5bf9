//go:build race

package jpegfix

// raceDetector is true under the race detector, where the walk tests damage
// fewer inputs: they are there for the data races of the shared walk.
const raceDetector = true

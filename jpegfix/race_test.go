//go:build race

package jpegfix

// raceDetector is true under the race detector, where the walk tests damage
// fewer inputs: they hunt verdicts, not races.
const raceDetector = true

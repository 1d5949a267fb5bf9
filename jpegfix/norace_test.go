//go:build !race

package jpegfix

// raceDetector is true under the race detector.
const raceDetector = false

package camera

import (
	"errors"
	"fmt"
	"slices"

	"maison/jpegfix"
)

// frame is a camera's picture on its way to a client: its bytes, and what
// jpegfix read of them in the repair pass. Nothing after the repair reads
// the JPEG's segments again.
type frame struct {
	body []byte
	// info is the frame header and the Exif orientation; Components is 0
	// when body is not a JPEG (some cameras answer PNG), which the
	// standard decoders then judge.
	info jpegfix.Frame
}

// isJPEG reports whether jpegfix read the frame as a JPEG.
func (f frame) isJPEG() bool { return f.info.Components > 0 }

// readFrame reads the headers of a strict JPEG, such as a frame fitted
// before; anything else is left to the standard decoders.
func readFrame(src []byte) frame {
	info, err := jpegfix.ReadFrame(src)
	if err != nil {
		return frame{body: src}
	}
	return frame{body: src, info: info}
}

// repairPolicy is the camera path's one pass over a frame: repaired
// losslessly, its image data walked as a strict decoder reads it, every
// comment dropped and all metadata decoding does not need, so no camera
// serial or location leaves the house. The Exif orientation is read
// before the metadata goes.
var repairPolicy = jpegfix.Options{VerifyData: true, StripMetadata: true}

// clean repairs a camera's bytes in one pass (see repairPolicy). Bytes that
// are not a JPEG are passed on as they are, for the standard decoders to
// judge. A frame whose data jpegfix cannot walk says why in rep.Unchecked:
// such a frame must be re-encoded. The report lists what was repaired, not
// the metadata the policy drops.
func clean(raw []byte) (frame, jpegfix.Report, error) {
	body, rep, err := repairPolicy.Repair(raw)
	rep.Fixes = slices.DeleteFunc(rep.Fixes, func(f jpegfix.Fix) bool { return f.Kind == jpegfix.FixMetadata })
	if err != nil {
		var fe jpegfix.FormatError
		if errors.As(err, &fe) && fe.Problem == jpegfix.ProblemNotJPEG {
			return frame{body: raw}, jpegfix.Report{}, nil
		}
		return frame{}, rep, fmt.Errorf("%w: %w", ErrNotImage, err)
	}
	return frame{body: body, info: rep.Frame}, rep, nil
}

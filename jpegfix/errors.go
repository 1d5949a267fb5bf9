package jpegfix

// Problem classifies why Repair refused its input.
type Problem int

// The classes of input that cannot be repaired without loss.
const (
	// ProblemNotJPEG: the body is not a JPEG at all (HTML, JSON, text,
	// another image format, or a few bytes).
	ProblemNotJPEG Problem = iota + 1
	// ProblemTruncated: the file is cut off inside its image data or
	// inside a header that decoding needs.
	ProblemTruncated
	// ProblemBadLength: a quantization table, Huffman table, frame header,
	// scan header or restart interval announces a length that disagrees
	// with its content.
	ProblemBadLength
	// ProblemNoImage: there is no frame header or no scan to decode.
	ProblemNoImage
	// ProblemDamaged: headers or image data are damaged beyond what
	// dropping bytes can fix.
	ProblemDamaged
)

var problemNames = [...]string{
	ProblemNotJPEG:   "not a JPEG",
	ProblemTruncated: "truncated",
	ProblemBadLength: "bad table length",
	ProblemNoImage:   "no image",
	ProblemDamaged:   "damaged",
}

// String names the problem in a few words.
func (p Problem) String() string {
	if p > 0 && int(p) < len(problemNames) {
		return problemNames[p]
	}
	return "unknown problem"
}

// FormatError is returned for input that cannot be repaired without loss.
// Its Error method says what is wrong in plain words.
type FormatError struct {
	Problem Problem // the class of the problem
	Offset  int     // byte offset in the input where it was found
	Reason  string  // plain-words description, lowercase, without prefix
	// InData reports that the problem lies in the entropy-coded image data
	// (cut short, damaged, restart markers wrong) and that the headers
	// before it were sound: a decoder can still show the part before it.
	InData bool
}

// Error returns the reason prefixed with "jpegfix: ".
func (e FormatError) Error() string { return "jpegfix: " + e.Reason }

func refuse(p Problem, off int, reason string) error {
	return FormatError{Problem: p, Offset: off, Reason: reason}
}

// refuseData refuses for damage in the entropy-coded image data.
func refuseData(p Problem, off int, reason string) error {
	return FormatError{Problem: p, Offset: off, Reason: reason, InData: true}
}

package camframe

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strconv"
)

// Base is a clean frame in fixtures/jpeg that defects are injected into.
type Base struct {
	File  string
	About string // what it looks like and how it was made
}

// Bases lists the committed clean frames.
var Bases = []Base{
	{"base.sub-640x480.jpeg", "640×480 sub-stream snapshot, Go baseline encoder, quality 75, 4:2:0, no APPn (about 31 KB)"},
	{"base.main-1920x1080.jpeg", "1920×1080 main-stream snapshot, Go baseline encoder, quality 80, 4:2:0"},
	{"base.progressive-1280x720.jpeg", "1280×720 progressive frame with JFIF APP0, cjpeg -quality 80 -progressive"},
	{"base.restart-1280x720.jpeg", "1280×720 baseline frame with JFIF APP0 and a restart marker after every MCU row, cjpeg -quality 80 -restart 1"},
	{"base.exif-icc-1280x720.jpeg", "1280×720 Go baseline frame carrying Exif (make, model, serial number, GPS position, a JPEG thumbnail with its own FF D8 … FF D9), XMP and an ICC profile"},
	{"base.progressive-restart-1280x720.jpeg", "1280×720 progressive frame with JFIF APP0 and a restart marker after every MCU row of every scan, cjpeg -quality 80 -progressive -restart 1"},
	{"base.ir-progressive-640x480.jpeg", "640×480 grey infrared-style night frame (one component), progressive with a restart marker every two MCU rows, cjpeg -quality 75 -grayscale -progressive -restart 2"},
}

// Scenes returns the scene behind each generated base frame, by file name.
func Scenes() map[string]Scene {
	const stamp = "2025-11-29 23:41:07"
	return map[string]Scene{
		"base.sub-640x480.jpeg":                  {Width: 640, Height: 480, Seed: 1, Stamp: stamp, Name: "GARAGE"},
		"base.main-1920x1080.jpeg":               {Width: 1920, Height: 1080, Seed: 2, Stamp: stamp, Name: "DRIVEWAY"},
		"base.progressive-1280x720.jpeg":         {Width: 1280, Height: 720, Seed: 3, Stamp: stamp, Name: "FRONT DOOR"},
		"base.restart-1280x720.jpeg":             {Width: 1280, Height: 720, Seed: 4, Stamp: stamp, Name: "BACK YARD"},
		"base.exif-icc-1280x720.jpeg":            {Width: 1280, Height: 720, Seed: 5, Stamp: stamp, Name: "PORCH"},
		"base.progressive-restart-1280x720.jpeg": {Width: 1280, Height: 720, Seed: 7, Stamp: stamp, Name: "SIDE GATE"},
		"base.ir-progressive-640x480.jpeg":       {Width: 640, Height: 480, Seed: 8, Noise: 6, Stamp: stamp, Name: "DRIVEWAY IR"},
	}
}

// Frame4K returns a 3840×2160 camera frame of about 2 MB, drawn and
// encoded on demand (it takes a second or two) rather than committed.
func Frame4K() []byte {
	return Scene{Width: 3840, Height: 2160, Seed: 6, Noise: 4.5, Stamp: "2025-11-29 23:41:07", Name: "STREET"}.JPEG(90)
}

// Want is what Repair must make of a case.
type Want int

const (
	// WantBase: the output is byte for byte the clean base frame.
	WantBase Want = iota + 1
	// WantBaseStripped: the output is the base frame without the APPn
	// segments that metadata stripping drops (Exif and XMP here).
	WantBaseStripped
	// WantRefused: Repair refuses with a FormatError of the problem named
	// in Case.Problem.
	WantRefused
)

// Case is one fixture file: a defect injected into a base frame, modelled
// on a public camera report.
type Case struct {
	File    string
	Base    string // the clean frame it derives from; "" for bodies that are not JPEG
	Models  string // what it models, one sentence
	Source  string // public reports of the defect
	Strip   bool   // repair with metadata stripping on
	Verify  bool   // repair with Options.VerifyData (every scan's data walked)
	Want    Want
	Problem string                   // with WantRefused: the expected jpegfix.Problem's String()
	Build   func(base []byte) []byte // makes the file from the base frame (nil base when Base is "")
}

// Cases lists every fixture. The same file may appear twice with other
// options.
var Cases = []Case{
	{
		File: "dahua.com-too-short.jpeg", Base: "base.sub-640x480.jpeg", Want: WantBase,
		Models: "a first COM announcing 4,094 bytes but spanning 4,702 (libjpeg: 608 extraneous bytes before marker 0xfe), followed by a second, valid COM",
		Source: "home-assistant/core#178372; rroller/dahua#575, #681, #200; tchellomello/python-amcrest#201; lilohuang/PyTurboJPEG#77",
		Build: func(b []byte) []byte {
			return insertAfterSOI(b, DahuaComments(4094, 608))
		},
	},
	{
		File: "dahua.com-too-short.1920x1080.jpeg", Base: "base.main-1920x1080.jpeg", Want: WantBase,
		Models: "the same lying COM pair in a 1080p main-stream frame: the incident frame for the benchmarks",
		Source: "home-assistant/core#178372; rroller/dahua#575",
		Build: func(b []byte) []byte {
			return insertAfterSOI(b, DahuaComments(4094, 608))
		},
	},
	{
		File: "dahua.com-too-long.jpeg", Base: "base.sub-640x480.jpeg", Want: WantBase,
		Models: "a COM whose length is too long and swallows the start of the quantization table (Go decodes wrong pixels, libjpeg: quantization table 0x00 was not defined); the announced-length fault of the Dahua reports in the other direction",
		Source: "rroller/dahua#575, #681; home-assistant/core#178372",
		Build: func(b []byte) []byte {
			text := []byte("DAHUA IPC snapshot channel 1 \x00")
			com := append([]byte{0xff, 0xfe, 0, 0}, text...)
			l := len(text) + 2 + 40 // overshoots 40 bytes into the DQT that follows
			com[2], com[3] = byte(l>>8), byte(l)
			return insertAfterSOI(b, com)
		},
	},
	{
		File: "dahua.trailing-dhav.jpeg", Base: "base.sub-640x480.jpeg", Want: WantBase,
		Models: "8 bytes of the recorder's container (dhav…) after EOI",
		Source: "rroller/dahua#658",
		Build: func(b []byte) []byte {
			return cat(b, []byte("dhav\xfd\x00\x00\x00"))
		},
	},
	{
		File: "ov2640.zero-padding.jpeg", Base: "base.sub-640x480.jpeg", Want: WantBase,
		Models: "zeros after EOI padding the frame to the end of a 4 KiB DMA buffer",
		Source: "openmv/openmv#822; ArduCAM/Arduino#536; anima-research/agent-framework#143",
		Build: func(b []byte) []byte {
			pad := 4096 - len(b)%4096
			return cat(b, make([]byte, pad))
		},
	},
	{
		File: "esp32cam.missing-eoi.jpeg", Base: "base.sub-640x480.jpeg", Want: WantBase,
		Models: "a complete scan whose EOI was never written (Go: unexpected EOF; libjpeg: premature end of JPEG file)",
		Source: "espressif/esp32-camera#162, #71",
		Build: func(b []byte) []byte {
			return clone(b[:len(b)-2])
		},
	},
	{
		File: "esp32cam.missing-eoi-zero-tail.jpeg", Base: "base.sub-640x480.jpeg", Want: WantBase,
		Models: "a complete scan without EOI followed by the zeroed rest of the frame buffer",
		Source: "espressif/esp32-camera#162, #71",
		Build: func(b []byte) []byte {
			return cat(b[:len(b)-2], make([]byte, 1500))
		},
	},
	{
		File: "esp32cam.buffer-tail.jpeg", Base: "base.sub-640x480.jpeg", Want: WantBase,
		Models: "the stale tail of a reused frame buffer (entropy-coded bytes of an older frame) after EOI",
		Source: "espressif/esp32-camera#162",
		Build: func(b []byte) []byte {
			return cat(b, b[len(b)/3:len(b)/3+3000])
		},
	},
	{
		File: "esp32cam.two-frames.jpeg", Base: "base.sub-640x480.jpeg", Want: WantBase,
		Models: "a frame buffer holding a second complete JPEG after the first one's EOI; the first is kept",
		Source: "espressif/esp32-camera#162",
		Build: func(b []byte) []byte {
			second := Scene{Width: 320, Height: 240, Seed: 11, Stamp: "2025-11-29 23:41:08", Name: "GARAGE"}.JPEG(70)
			return cat(b, second)
		},
	},
	{
		File: "upload.double-soi.jpeg", Base: "base.sub-640x480.jpeg", Want: WantBase,
		Models: "a second SOI right after the first (libjpeg: two SOI markers)",
		Source: "imgproxy/imgproxy#1286",
		Build: func(b []byte) []byte {
			return cat([]byte{0xff, 0xd8}, b)
		},
	},
	{
		File: "motioneye.zeros-before-soi.jpeg", Base: "base.sub-640x480.jpeg", Want: WantBase,
		Models: "zeros before SOI (libjpeg: not a JPEG file: starts with 0x00 0x00)",
		Source: "motioneye-project/motioneye#1437; gphoto/gphoto2#389",
		Build: func(b []byte) []byte {
			return cat(make([]byte, 1024), b)
		},
	},
	{
		File: "hikvision.multipart-before-soi.jpeg", Base: "base.sub-640x480.jpeg", Want: WantBase,
		Models: "the headers of a multipart event stream left before SOI",
		Source: "Supergiovane/node-red-contrib-hikvision-ultimate#27; etemesi254/zune-image#261",
		Build: func(b []byte) []byte {
			head := "--boundary\r\nContent-Type: image/jpeg\r\nContent-Length: " + strconv.Itoa(len(b)) + "\r\n\r\n"
			return cat([]byte(head), b)
		},
	},
	{
		File: "hikvision.junk-between-segments.jpeg", Base: "base.sub-640x480.jpeg", Want: WantBase,
		Models: "non-JPEG event data (XML text and binary bytes, some 0xFF) mixed in between the Huffman tables and the scan header",
		Source: "Supergiovane/node-red-contrib-hikvision-ultimate#27",
		Build: func(b []byte) []byte {
			at := bytes.Index(b, []byte{0xff, 0xda})
			junk := []byte("<EventNotificationAlert><eventType>VMD</eventType></EventNotificationAlert>\r\n")
			rng := rand.New(rand.NewPCG(27, 27))
			for range 120 {
				junk = append(junk, byte(rng.UintN(256)))
			}
			junk = append(junk, 0xff, 0x00, 0xff, 0x12, 0x00)
			return cat(b[:at], junk, b[at:])
		},
	},
	{
		File: "progressive.com-too-short.jpeg", Base: "base.progressive-1280x720.jpeg", Want: WantBase,
		Models: "the Dahua lying COM between two scans of a progressive frame, where the scan before it must be kept whole",
		Source: "rroller/dahua#575 (lying COM); progressive layout per ITU-T T.81 Annex G",
		Build: func(b []byte) []byte {
			first := bytes.Index(b, []byte{0xff, 0xda})
			next := first + 2 + bytes.Index(b[first+2:], []byte{0xff, 0xc4}) // the DHT before the second scan
			if i := bytes.Index(b[first+2:], []byte{0xff, 0xda}); first+2+i < next {
				next = first + 2 + i
			}
			return cat(b[:next], DahuaComments(300, 64), b[next:])
		},
	},
	{
		File: "restart.missing-eoi.jpeg", Base: "base.restart-1280x720.jpeg", Want: WantBase,
		Models: "a frame with restart markers whose EOI was never written; only the last restart interval needs checking",
		Source: "espressif/esp32-camera#71; restart intervals as in opencv/opencv#9477",
		Build: func(b []byte) []byte {
			return clone(b[:len(b)-2])
		},
	},
	{
		File: "restart.truncated.jpeg", Base: "base.restart-1280x720.jpeg", Want: WantRefused, Problem: "truncated",
		Models: "a frame with restart markers cut at 55% of its length, inside scan data",
		Source: "starkillerOG/reolink_aio#153",
		Build: func(b []byte) []byte {
			return clone(b[:len(b)*55/100])
		},
	},
	{
		File: "exif.com-too-short.jpeg", Base: "base.exif-icc-1280x720.jpeg", Want: WantBase,
		Models: "a lying COM after the Exif, XMP and ICC segments of a frame whose Exif holds a thumbnail (FF D8 … FF D9 inside APP1, which must not end the image)",
		Source: "home-assistant/core#178372 (lying COM); embedded Exif thumbnails per the Exif format",
		Build: func(b []byte) []byte {
			at := SegmentOffset(b, 0xdb) // the frame's DQT, not the thumbnail's
			return cat(b[:at], DahuaComments(1000, 200), b[at:])
		},
	},
	{
		File: "exif.com-too-short.jpeg", Base: "base.exif-icc-1280x720.jpeg", Want: WantBaseStripped, Strip: true,
		Models: "the same file repaired with metadata stripping: Exif (serial number, GPS) and XMP go, the ICC profile stays",
	},
	{
		File: "progressive.missing-eoi.jpeg", Base: "base.progressive-1280x720.jpeg", Want: WantBase,
		Models: "a progressive frame whose EOI was never written; its last scan refines AC coefficients, which only the history of the scans before it can prove complete",
		Source: "espressif/esp32-camera#162, #71 (lost EOI); refinement scans per ITU-T T.81 G.1.2.3",
		Build: func(b []byte) []byte {
			return clone(b[:len(b)-2])
		},
	},
	{
		File: "progressive-restart.missing-eoi.jpeg", Base: "base.progressive-restart-1280x720.jpeg", Want: WantBase,
		Models: "a progressive frame with restart intervals in every scan whose EOI was never written: the last interval of the last refinement scan is proven complete",
		Source: "espressif/esp32-camera#162, #71 (lost EOI); restart intervals in progressive scans per ITU-T T.81 G.1.2.2",
		Build: func(b []byte) []byte {
			return clone(b[:len(b)-2])
		},
	},
	{
		File: "progressive-restart.missing-eoi.jpeg", Base: "base.progressive-restart-1280x720.jpeg", Want: WantBase, Verify: true,
		Models: "the same file with every scan's data walked (VerifyData)",
	},
	{
		File: "ir.missing-eoi.jpeg", Base: "base.ir-progressive-640x480.jpeg", Want: WantBase,
		Models: "a grey infrared night frame, progressive with restart intervals, whose EOI was never written",
		Source: "espressif/esp32-camera#162, #71 (lost EOI)",
		Build: func(b []byte) []byte {
			return clone(b[:len(b)-2])
		},
	},
	{
		File: "progressive-restart.truncated.jpeg", Base: "base.progressive-restart-1280x720.jpeg", Want: WantRefused, Problem: "truncated",
		Models: "the progressive frame with restart intervals cut 60% of the way into the data of its last scan, a refinement: its missing bits cannot be recovered",
		Source: "starkillerOG/reolink_aio#153 (truncated frames)",
		Build: func(b []byte) []byte {
			last := bytes.LastIndex(b, []byte{0xff, 0xda})
			return clone(b[:last+(len(b)-last)*60/100])
		},
	},
	{
		File: "dahua.com-lands-on-short-dht.jpeg", Base: "base.sub-640x480.jpeg", Want: WantBase,
		Models: "a COM whose announced end lands on a Huffman table marker (FF C4) whose length, 5, cannot hold a table, itself followed by a plausible marker (FF FE): the landing is not trusted, the span is resynced and dropped",
		Source: "home-assistant/core#178372 (lying COM); DHT length per ITU-T T.81 B.2.4.2",
		Build: func(b []byte) []byte {
			return insertAfterSOI(b, LyingLanding([]byte{0xff, 0xc4, 0x00, 0x05, 0x10}))
		},
	},
	{
		File: "dahua.com-lands-on-bad-sof.jpeg", Base: "base.sub-640x480.jpeg", Want: WantBase,
		Models: "a COM whose announced end lands on a frame header (FF C0) of 17 bytes declaring 5 components, which need 23, followed by a plausible marker",
		Source: "home-assistant/core#178372 (lying COM); SOF length per ITU-T T.81 B.2.2",
		Build: func(b []byte) []byte {
			return insertAfterSOI(b, LyingLanding([]byte{0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x05, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1}))
		},
	},
	{
		File: "dahua.com-lands-on-bad-sos.jpeg", Base: "base.sub-640x480.jpeg", Want: WantBase,
		Models: "a COM whose announced end lands on a scan header (FF DA) of 8 bytes declaring 3 components, which need 12, before any frame header, followed by a plausible marker",
		Source: "home-assistant/core#178372 (lying COM); SOS length per ITU-T T.81 B.2.3",
		Build: func(b []byte) []byte {
			return insertAfterSOI(b, LyingLanding([]byte{0xff, 0xda, 0x00, 0x08, 0x03, 1, 0x00, 2}))
		},
	},
	{
		File: "restart.rst-out-of-order.jpeg", Base: "base.restart-1280x720.jpeg", Want: WantRefused, Problem: "damaged",
		Models: "two restart markers swapped (RST4 before RST3), restart markers out of sequence as in the harder set of camera frames jpegfix was tried on (libjpeg: found marker 0xd4 instead of RST3); refused with the part of the picture it damages",
		Source: "damaged restart intervals in webcam frames: jacksonliam/mjpg-streamer#236, opencv/opencv#9477; the order itself per ITU-T T.81 B.2.1",
		Build: func(b []byte) []byte {
			out := clone(b)
			rst := RestartMarkers(out)
			out[rst[3]+1], out[rst[4]+1] = out[rst[4]+1], out[rst[3]+1]
			return out
		},
	},
	{
		File: "restart.interval-lost.jpeg", Base: "base.restart-1280x720.jpeg", Want: WantRefused, Problem: "damaged",
		Models: "one restart interval lost with its marker, as when a network packet of the frame is dropped: the markers jump from RST5 to RST7",
		Source: "jacksonliam/mjpg-streamer#236 (damaged restart intervals); starkillerOG/reolink_aio#153 (frames missing data)",
		Build: func(b []byte) []byte {
			rst := RestartMarkers(b)
			return cat(b[:rst[5]+2], b[rst[6]+2:])
		},
	},
	{
		File: "c270.extra-bytes-before-rst.jpeg", Base: "base.restart-1280x720.jpeg", Want: WantBase, Verify: true,
		Models: "two extraneous bytes before a restart marker inside the scan (libjpeg: 2 extraneous bytes before marker 0xd5), as Logitech C270 webcams and mjpg-streamer write them; with VerifyData the interval is walked and the bytes no block uses are dropped",
		Source: "opencv/opencv#9477; jacksonliam/mjpg-streamer#236; image-rs/jpeg-decoder#100",
		Build: func(b []byte) []byte {
			rst := RestartMarkers(b)
			return cat(b[:rst[5]], []byte{0x12, 0x34}, b[rst[5]:])
		},
	},
	{
		File: "restart.bytes-lost-in-interval.jpeg", Base: "base.restart-1280x720.jpeg", Want: WantRefused, Problem: "truncated", Verify: true,
		Models: "600 bytes missing from the middle of one restart interval, the markers still in order: only walking the data finds it (libjpeg: premature end of data segment); with VerifyData it is refused with the rows it damages",
		Source: "starkillerOG/reolink_aio#153 (frames missing data), here inside the scan",
		Build: func(b []byte) []byte {
			rst := RestartMarkers(b)
			mid := (rst[20] + rst[21]) / 2
			return cat(b[:mid-300], b[mid+300:])
		},
	},
	{
		File: "reolink.truncated.jpeg", Base: "base.sub-640x480.jpeg", Want: WantRefused, Problem: "truncated",
		Models: "a frame cut at 60% of its length, inside scan data (Go: short Huffman data; libjpeg: premature end of data segment)",
		Source: "starkillerOG/reolink_aio#153",
		Build: func(b []byte) []byte {
			return clone(b[:len(b)*60/100])
		},
	},
	{
		File: "reolink.tiny-body.jpeg", Base: "base.sub-640x480.jpeg", Want: WantRefused, Problem: "truncated",
		Models: "a body of 38 bytes that starts like a JPEG and stops inside its first table",
		Source: "home-assistant/core#132361",
		Build: func(b []byte) []byte {
			return clone(b[:38])
		},
	},
	{
		File: "reolink.html-error.jpeg", Want: WantRefused, Problem: "not a JPEG",
		Models: "an HTML error page served instead of a snapshot",
		Source: "home-assistant/core#150128, #176495",
		Build: func([]byte) []byte {
			return []byte("<!DOCTYPE html>\n<html><head><title>503 Service Unavailable</title></head>\n<body><h1>Service Unavailable</h1><p>The device is busy, please try again later.</p></body></html>\n")
		},
	},
	{
		File: "hikvision.json-error.jpeg", Want: WantRefused, Problem: "not a JPEG",
		Models: "a JSON error body served instead of a snapshot",
		Source: "maciej-or/hikvision_next#316; home-assistant/core#176495",
		Build: func([]byte) []byte {
			return []byte(`{"statusCode":4,"statusString":"Invalid Operation","subStatusCode":"notSupport","errorCode":1073741825,"errorMsg":"The channel is offline"}` + "\n")
		},
	},
}

// DahuaComments returns the COM pair seen in Dahua snapshots: a first COM
// whose length field announces `announced` bytes while `extra` more bytes
// follow before the next marker, then a short valid COM.
func DahuaComments(announced, extra int) []byte {
	rng := rand.New(rand.NewPCG(uint64(announced), uint64(extra)))
	seg := []byte{0xff, 0xfe, byte(announced >> 8), byte(announced)}
	body := announced - 2 + extra
	text := []byte(fmt.Sprintf("IPC-HDW snapshot ch1 %d ", announced))
	for len(seg) < 4+body {
		if len(seg)%512 < 64 {
			seg = append(seg, text[len(seg)%len(text)])
			continue
		}
		seg = append(seg, byte(rng.UintN(255))) // no 0xFF, as in the reports
	}
	return cat(seg, Segment(0xfe, []byte("ch=1 osd=on fmt=1")))
}

// LyingLanding returns a COM whose announced end lands on landing, a
// segment that is not what its marker claims, followed by a short valid-
// looking COM and then 40 bytes of junk without a 0xFF: the real next
// marker is after all of it.
func LyingLanding(landing []byte) []byte {
	text := []byte("IPC snapshot ch1 ")
	com := append([]byte{0xff, 0xfe, 0, byte(len(text) + 2)}, text...)
	com = append(com, landing...)
	com = append(com, 0xff, 0xfe, 0x00, 0x08, 'o', 's', 'd', '=', '1', 0)
	for i := range 40 {
		com = append(com, byte(i*37+11)%0xfe)
	}
	return com
}

// RestartMarkers returns the offset of every restart marker in the data of
// a clean frame's scans.
func RestartMarkers(b []byte) []int {
	var at []int
	for i := 0; i+1 < len(b); i++ {
		if b[i] == 0xff && b[i+1] >= 0xd0 && b[i+1] <= 0xd7 {
			at = append(at, i)
		}
	}
	return at
}

// SegmentOffset walks the length-chained header of a clean frame and
// returns the offset of the first segment with the given marker code, or -1.
func SegmentOffset(b []byte, code byte) int {
	for p := 2; p+4 <= len(b) && b[p] == 0xff; p += 2 + (int(b[p+2])<<8 | int(b[p+3])) {
		if b[p+1] == code {
			return p
		}
		if b[p+1] == 0xda {
			break
		}
	}
	return -1
}

func insertAfterSOI(b, seg []byte) []byte { return cat(b[:2], seg, b[2:]) }

func clone(b []byte) []byte { return append([]byte(nil), b...) }

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

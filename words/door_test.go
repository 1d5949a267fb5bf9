package words

import (
	"testing"
	"time"

	"maison/voice"
)

// Every refusal of the door reads as its language, in each language maison
// speaks, never the same sentence in two.
func TestDoorWordsInEveryLanguage(t *testing.T) {
	t.Parallel()
	for name, say := range map[string]func(voice.Lang) string{
		"NotPost":          DoorNotPost,
		"NotLoopback":      DoorNotLoopback,
		"ShuttingDown":     DoorShuttingDown,
		"TooManyRequests":  func(l voice.Lang) string { return DoorTooManyRequests(l, 30, 10*time.Second, 3*time.Second) },
		"Busy":             func(l voice.Lang) string { return DoorBusy(l, 10*time.Second) },
		"BodiesHeld":       func(l voice.Lang) string { return DoorBodiesHeld(l, 4096) },
		"WrongTokens":      func(l voice.Lang) string { return DoorWrongTokens(l, time.Minute) },
		"NoToken":          func(l voice.Lang) string { return DoorNoToken(l, false, false) },
		"NoToken OAuth":    func(l voice.Lang) string { return DoorNoToken(l, true, true) },
		"NoHost":           DoorNoHost,
		"BadHostPort":      func(l voice.Lang) string { return DoorBadHostPort(l, "maison.lan:0") },
		"HostNotAllowed":   func(l voice.Lang) string { return DoorHostNotAllowed(l, "evil.example.com") },
		"ForeignOrigin":    func(l voice.Lang) string { return DoorForeignOrigin(l, "https://evil.example.com") },
		"HeadersTooLarge":  DoorHeadersTooLarge,
		"TransferEncoding": DoorTransferEncoding,
		"HTTPVersion":      DoorHTTPVersion,
		"MalformedHTTP":    func(l voice.Lang) string { return DoorMalformedHTTP(l, "malformed Host header") },
		"NotJSON":          DoorNotJSON,
		"TooLarge":         DoorTooLarge,
		"BodySlow":         func(l voice.Lang) string { return DoorBodySlow(l, 20) },
		"BodyUnreadable":   func(l voice.Lang) string { return DoorBodyUnreadable(l, "unexpected EOF") },
		"EmptyBody":        DoorEmptyBody,
		"NotUTF8":          DoorNotUTF8,
		"TooDeep":          func(l voice.Lang) string { return DoorTooDeep(l, 64) },
		"MalformedJSON":    DoorMalformedJSON,
		"EmptyBatch":       DoorEmptyBatch,
		"BatchTooLarge":    func(l voice.Lang) string { return DoorBatchTooLarge(l, 9, 8) },
		"BadMessage":       func(l voice.Lang) string { return DoorBadMessage(l, 0, false, "", DoorNoMethod.In(l)) },
		"BadMessage batch": func(l voice.Lang) string { return DoorBadMessage(l, 2, true, "tools/call", DoorParamsNotObject.In(l)) },
		"ProtocolVersion":  func(l voice.Lang) string { return DoorProtocolVersion(l, "unsupported protocol version") },
		"BatchMethod":      DoorBatchMethodUnknown,
		"Accept":           DoorAccept,
		"NoBatches":        func(l voice.Lang) string { return DoorNoBatches(l, "batching is not supported") },
		"DuplicateID":      func(l voice.Lang) string { return DoorDuplicateID(l, "duplicate id 1") },
		"HandlerTooLarge":  DoorHandlerTooLarge,
		"HandlerMediaType": DoorHandlerMediaType,
		"Internal":         func(l voice.Lang) string { return DoorInternal(l, "boom") },
		"HandlerRefused":   func(l voice.Lang) string { return DoorHandlerRefused(l, "bad request") },
		"BatchNotRun":      DoorBatchNotRun,
		"CannotLook":       func(l voice.Lang) string { return DoorCannotLook(l, "check_the_house", "house.read") },
		"CannotAct":        func(l voice.Lang) string { return DoorCannotAct(l, "turn_on", "house.control", "house.read") },
	} {
		seen := map[string]voice.Lang{}
		for _, l := range voice.Langs() {
			s := say(l)
			if other, ok := seen[s]; ok {
				t.Errorf("%s: the same words in %s and %s: %q", name, other, l, s)
			}
			seen[s] = l
			if got, ok := voice.Language(s); !ok || got != l {
				t.Errorf("%s: not %s: %q", name, l, s)
			}
		}
	}
}

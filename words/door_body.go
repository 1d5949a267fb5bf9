package words

import (
	"strconv"

	"maison/voice"
)

// The door's refusals of a request's body: its type, size and pace, its
// JSON-RPC, and the MCP handler's own terse refusals put in sentences.

// DoorNotJSON refuses a body whose Content-Type is not JSON.
func DoorNotJSON(l voice.Lang) string {
	return say(l, "door_body.not_json")
}

// DoorTooLarge refuses a body over 1 MiB.
func DoorTooLarge(l voice.Lang) string {
	return say(l, "door_body.too_large")
}

// DoorBodySlow refuses a body that did not arrive within seconds.
func DoorBodySlow(l voice.Lang, seconds int) string {
	return say(l, "door_body.slow", "seconds", strconv.Itoa(seconds))
}

// DoorBodyUnreadable refuses a body that could not be read, for why.
func DoorBodyUnreadable(l voice.Lang, why string) string {
	return say(l, "door_body.unreadable", "why", why)
}

// DoorEmptyBody refuses a request without a body.
func DoorEmptyBody(l voice.Lang) string {
	return say(l, "door_body.empty_body")
}

// DoorNotUTF8 refuses a body that is not UTF-8.
func DoorNotUTF8(l voice.Lang) string {
	return say(l, "door_body.not_utf8")
}

// DoorTooDeep refuses a body nested more than depth levels.
func DoorTooDeep(l voice.Lang, depth int) string {
	return say(l, "door_body.too_deep", "depth", strconv.Itoa(depth))
}

// DoorMalformedJSON refuses a body that is not JSON.
func DoorMalformedJSON(l voice.Lang) string {
	return say(l, "door_body.malformed_json")
}

// DoorEmptyBatch refuses an empty batch.
func DoorEmptyBatch(l voice.Lang) string {
	return say(l, "door_body.empty_batch")
}

// DoorBatchTooLarge refuses a batch of n messages, over max.
func DoorBatchTooLarge(l voice.Lang, n, max int) string {
	return say(l, "door_body.batch_too_large", "n", strconv.Itoa(n), "max", strconv.Itoa(max))
}

// DoorBadMessage refuses a message, the nth of a batch (0 for a lone
// message), for problem: one method cannot read when params is set, not
// JSON-RPC 2.0 otherwise.
func DoorBadMessage(l voice.Lang, nth int, params bool, method, problem string) string {
	k := Key("door_body.bad_message.lone")
	switch {
	case nth > 0 && params:
		k = "door_body.bad_message.batch_params"
	case nth > 0:
		k = "door_body.bad_message.batch"
	case params:
		k = "door_body.bad_message.lone_params"
	}
	return say(l, k, "nth", strconv.Itoa(nth), "method", method, "problem", problem)
}

// What is wrong with a JSON-RPC message, for DoorBadMessage.
const (
	DoorNotObject       Key = "door_body.not_object"
	DoorNotVersion2     Key = "door_body.not_version2"
	DoorNoMethod        Key = "door_body.no_method"
	DoorMethodNotString Key = "door_body.method_not_string"
	DoorParamsNotObject Key = "door_body.params_not_object"
)

// DoorProtocolVersion puts in words the MCP handler's refusal of a protocol
// version, text being what it said.
func DoorProtocolVersion(l voice.Lang, text string) string {
	return say(l, "door_body.protocol_version", "text", text)
}

// DoorBatchMethodUnknown puts in words the MCP handler's refusal of a batch
// holding a method maison does not offer.
func DoorBatchMethodUnknown(l voice.Lang) string {
	return say(l, "door_body.batch_method_unknown")
}

// DoorAccept puts in words the MCP handler's refusal of an Accept header.
func DoorAccept(l voice.Lang) string {
	return say(l, "door_body.accept")
}

// DoorNoBatches puts in words the MCP handler's refusal of a batch in a
// protocol version without them, text being what it said.
func DoorNoBatches(l voice.Lang, text string) string {
	return say(l, "door_body.no_batches", "text", text)
}

// DoorDuplicateID puts in words the MCP handler's refusal of a batch whose
// messages share an id, text being what it said.
func DoorDuplicateID(l voice.Lang, text string) string {
	return say(l, "door_body.duplicate_id", "text", text)
}

// DoorHandlerTooLarge puts in words the MCP handler's refusal of a body
// over its size.
func DoorHandlerTooLarge(l voice.Lang) string {
	return say(l, "door_body.handler_too_large")
}

// DoorHandlerMediaType puts in words the MCP handler's refusal of a
// Content-Type.
func DoorHandlerMediaType(l voice.Lang) string {
	return say(l, "door_body.handler_media_type")
}

// DoorInternal says maison failed a request, text being what the MCP
// handler said.
func DoorInternal(l voice.Lang, text string) string {
	return say(l, "door_body.internal", "text", text)
}

// DoorHandlerRefused puts in words any other refusal of the MCP handler,
// text being what it said.
func DoorHandlerRefused(l voice.Lang, text string) string {
	return say(l, "door_body.handler_refused", "text", text)
}

// DoorBatchNotRun answers a call of a batch that also holds a call the
// grant does not allow.
func DoorBatchNotRun(l voice.Lang) string {
	return say(l, "door_body.batch_not_run")
}

// DoorCannotLook answers a call of tool, which needs readScope, on a
// connection granted only acting.
func DoorCannotLook(l voice.Lang, tool, readScope string) string {
	return say(l, "door_body.cannot_look", "read_scope", readScope, "tool", tool)
}

// DoorCannotAct answers a call of tool, which needs scope, on a connection
// granted only looking (readScope).
func DoorCannotAct(l voice.Lang, tool, scope, readScope string) string {
	return say(l, "door_body.cannot_act", "scope", scope, "tool", tool, "read_scope", readScope)
}

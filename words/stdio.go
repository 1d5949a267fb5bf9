package words

import (
	"strconv"

	"maison/voice"
)

// stdio's refusals of a line read from standard input, and of a call the
// SDK refused in its own terms; the session goes on after each.

// StdioLineTooLong refuses a line over mib MiB.
func StdioLineTooLong(l voice.Lang, mib int) string {
	return say(l, "stdio.line_too_long", "mib", strconv.Itoa(mib))
}

// StdioNotUTF8 refuses a line that is not UTF-8.
const StdioNotUTF8 Key = "stdio.not_utf8"

// StdioTooDeep refuses a message nested more than depth levels.
func StdioTooDeep(l voice.Lang, depth int) string {
	return say(l, "stdio.too_deep", "depth", strconv.Itoa(depth))
}

// StdioMalformedJSON refuses a line that is not JSON.
const StdioMalformedJSON Key = "stdio.malformed_json"

// StdioNoBatches refuses a batch.
const StdioNoBatches Key = "stdio.no_batches"

// StdioNotJSONRPC refuses a message that is not JSON-RPC 2.0, for problem
// (the end of a sentence).
func StdioNotJSONRPC(l voice.Lang, problem string) string {
	return say(l, "stdio.not_jsonrpc", "problem", problem)
}

// StdioParamsProblem refuses a request method cannot read, for problem.
func StdioParamsProblem(l voice.Lang, method, problem string) string {
	return say(l, "stdio.params_problem", "method", method, "problem", problem)
}

// StdioUndecodable refuses a message the SDK could not decode, why being
// what it said.
func StdioUndecodable(l voice.Lang, why string) string {
	return say(l, "stdio.undecodable", "why", why)
}

// StdioIDInUse refuses a call whose id is still being answered.
const StdioIDInUse Key = "stdio.id_in_use"

// StdioSessionGoesOn ends a refusal the SDK made, put in words.
const StdioSessionGoesOn Key = "stdio.session_goes_on"

// StdioCallFailed says a call to method (quoted) failed for why.
func StdioCallFailed(l voice.Lang, method, why string) string {
	return say(l, "stdio.call_failed", "method", method, "why", why)
}

// StdioNotInitialized refuses a call to method (quoted) before initialize.
func StdioNotInitialized(l voice.Lang, method string) string {
	return say(l, "stdio.not_initialized", "method", method)
}

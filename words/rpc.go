package words

import "maison/voice"

// What is wrong with a JSON-RPC message's id or params, as the end of a
// sentence (internal/rpcmsg finds it; the door and stdio say it), and the
// MCP SDK's own refusals put in sentences.

// RPCIDNotExact says an id is a number the SDK would answer under another.
const RPCIDNotExact Key = "rpc.id_not_exact"

// RPCIDNotStringOrNumber says an id is neither a string nor a number.
const RPCIDNotStringOrNumber Key = "rpc.id_not_string_or_number"

// RPCNamedTool and RPCNamedPrompt are what tools/call's and prompts/get's
// params name, for RPCMustName.
const (
	RPCNamedTool   Key = "rpc.named_tool"
	RPCNamedPrompt Key = "rpc.named_prompt"
)

// RPCMustName says params must name what named describes; spelt adds how
// the name is written.
func RPCMustName(l voice.Lang, named string, spelt bool) string {
	if spelt {
		return say(l, "rpc.must_name.spelt", "named", named)
	}
	return say(l, "rpc.must_name", "named", named)
}

// RPCParamsNotObject says params are kind rather than an object.
func RPCParamsNotObject(l voice.Lang, kind string) string {
	return say(l, "rpc.params_not_object", "kind", kind)
}

// RPCArgumentsNotObject says arguments are kind rather than an object.
func RPCArgumentsNotObject(l voice.Lang, kind string) string {
	return say(l, "rpc.arguments_not_object", "kind", kind)
}

// RPCNeedsRef says what completion/complete's params must hold.
const RPCNeedsRef Key = "rpc.needs_ref"

// The kinds of a JSON value, for a sentence.
const (
	JSONArray  Key = "rpc.json_array"
	JSONObject Key = "rpc.json_object"
	JSONString Key = "rpc.json_string"
	JSONBool   Key = "rpc.json_bool"
	JSONNull   Key = "rpc.json_null"
	JSONNumber Key = "rpc.json_number"
	JSONOther  Key = "rpc.json_other"
)

// RPCMethodNotFound refuses a method maison does not offer, m quoted.
func RPCMethodNotFound(l voice.Lang, m string) string {
	return say(l, "rpc.method_not_found", "method", m)
}

// RPCCursorNotOurs refuses a list cursor maison did not give, m quoted.
func RPCCursorNotOurs(l voice.Lang, m string) string {
	return say(l, "rpc.cursor_not_ours", "method", m)
}

// RPCParamsNotTaken refuses params m cannot read; what, if not empty, is
// in parentheses: FieldMustBe's words or the SDK's own.
func RPCParamsNotTaken(l voice.Lang, m, what string) string {
	if what != "" {
		what = " (" + what + ")"
	}
	return say(l, "rpc.params_not_taken", "method", m, "what", what)
}

// RPCFieldMustBe says a field of params must be of kind.
func RPCFieldMustBe(l voice.Lang, field, kind string) string {
	return say(l, "rpc.field_must_be", "field", field, "kind", kind)
}

package words

import "maison/voice"

// What is wrong with a JSON-RPC message's id or params, as the end of a
// sentence (internal/rpcmsg finds it; the door and stdio say it), and the
// MCP SDK's own refusals put in sentences.

// RPCIDNotExact says an id is a number the SDK would answer under another.
var RPCIDNotExact = Pair{
	"its id must be a string or a whole number written in digits alone (no fraction, exponent or -0), no larger than 9007199254740992 (2^53); another number would be answered under a different id (1e3 as 1000).",
	"son id doit être une chaîne ou un nombre entier écrit en chiffres seulement (sans fraction, exposant ni -0), d'au plus 9007199254740992 (2^53); un autre nombre recevrait sa réponse sous un autre id (1e3 comme 1000).",
}

// RPCIDNotStringOrNumber says an id is neither a string nor a number.
var RPCIDNotStringOrNumber = Pair{"its id must be a string or a number.", "son id doit être une chaîne ou un nombre."}

// RPCNamedTool and RPCNamedPrompt are what tools/call's and prompts/get's
// params name, for RPCMustName.
var (
	RPCNamedTool   = Pair{`the tool, such as {"name": "describe_house", "arguments": {}}; tools/list gives the names`, `l'outil, comme {"name": "describe_house", "arguments": {}}; tools/list donne les noms`}
	RPCNamedPrompt = Pair{`the prompt, such as {"name": "…", "arguments": {}}; prompts/list gives the names`, `le prompt, comme {"name": "…", "arguments": {}}; prompts/list donne les noms`}
)

// RPCMustName says params must name what named describes; spelt adds how
// the name is written.
func RPCMustName(l voice.Lang, named string, spelt bool) string {
	if spelt {
		return l.Pick(`its "params" must name `+named+` ("name" is a non-empty string, spelt in lower case).`,
			`ses "params" doivent nommer `+named+` ("name" est une chaîne non vide, écrite en minuscules).`)
	}
	return l.Pick(`its "params" must name `+named+".", `ses "params" doivent nommer `+named+".")
}

// RPCParamsNotObject says params are kind rather than an object.
func RPCParamsNotObject(l voice.Lang, kind string) string {
	return l.Pick(`its "params" must be a JSON object, not `+kind+`: the method takes named fields.`,
		`ses "params" doivent être un objet JSON, pas `+kind+` : la méthode prend des champs nommés.`)
}

// RPCArgumentsNotObject says arguments are kind rather than an object.
func RPCArgumentsNotObject(l voice.Lang, kind string) string {
	return l.Pick(`its "arguments" must be a JSON object of named arguments, not `+kind+".",
		`ses "arguments" doivent être un objet JSON d'arguments nommés, pas `+kind+".")
}

// RPCNeedsRef says what completion/complete's params must hold.
var RPCNeedsRef = Pair{
	`its "params" must hold a "ref" object naming what to complete, such as {"ref": {"type": "ref/prompt", "name": "…"}, "argument": {"name": "…", "value": "…"}}.`,
	`ses "params" doivent contenir un objet "ref" qui nomme ce qu'il faut compléter, comme {"ref": {"type": "ref/prompt", "name": "…"}, "argument": {"name": "…", "value": "…"}}.`,
}

// The kinds of a JSON value, for a sentence.
var (
	JSONArray  = Pair{"an array", "un tableau"}
	JSONObject = Pair{"an object", "un objet"}
	JSONString = Pair{"a string", "une chaîne"}
	JSONBool   = Pair{"true or false", "true ou false"}
	JSONNull   = Pair{"null", "null"}
	JSONNumber = Pair{"a number", "un nombre"}
	JSONOther  = Pair{"of another kind", "d'une autre sorte"}
)

// RPCMethodNotFound refuses a method maison does not offer, m quoted.
func RPCMethodNotFound(l voice.Lang, m string) string {
	return l.Pick("maison does not offer the method "+m+", so nothing was done. Call tools/list to see what it offers, and leave this method out.",
		"maison n'offre pas la méthode "+m+", alors rien n'a été fait. Appelez tools/list pour voir ce qu'il offre, et laissez cette méthode de côté.")
}

// RPCCursorNotOurs refuses a list cursor maison did not give, m quoted.
func RPCCursorNotOurs(l voice.Lang, m string) string {
	return l.Pick(`The "cursor" in the params of `+m+" is not one maison gave, so nothing was done. Send the nextCursor of maison's last answer as it was, or leave the cursor out to start from the first page.",
		`Le "cursor" des params de `+m+" n'est pas un que maison a donné, alors rien n'a été fait. Renvoyez le nextCursor de la dernière réponse de maison tel quel, ou omettez le cursor pour partir de la première page.")
}

// RPCParamsNotTaken refuses params m cannot read; what, if not empty, is
// in parentheses: FieldMustBe's words or the SDK's own.
func RPCParamsNotTaken(l voice.Lang, m, what string) string {
	if what != "" {
		what = " (" + what + ")"
	}
	return l.Pick("The params of "+m+" are not what it takes"+what+", so nothing was done. Send them again as the MCP specification gives them for "+m+".",
		"Les params de "+m+" ne sont pas ce qu'il prend"+what+", alors rien n'a été fait. Renvoyez-les comme la spécification MCP les donne pour "+m+".")
}

// RPCFieldMustBe says a field of params must be of kind.
func RPCFieldMustBe(l voice.Lang, field, kind string) string {
	return l.Pick(`its "`+field+`" must be `+kind, `son "`+field+`" doit être `+kind)
}

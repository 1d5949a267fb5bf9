package words

import (
	"strconv"

	"maison/voice"
)

// stdio's refusals of a line read from standard input, and of a call the
// SDK refused in its own terms; the session goes on after each.

// StdioLineTooLong refuses a line over mib MiB.
func StdioLineTooLong(l voice.Lang, mib int) string {
	return l.Pick("The line is longer than "+strconv.Itoa(mib)+" MiB and was skipped. Nothing was done. Send smaller messages, one per line.",
		"La ligne dépasse "+strconv.Itoa(mib)+" Mio et a été sautée. Rien n'a été fait. Envoyez des messages plus petits, un par ligne.")
}

// StdioNotUTF8 refuses a line that is not UTF-8.
var StdioNotUTF8 = Pair{
	"The line is not valid UTF-8 text, so it cannot be JSON. Nothing was done. Send each message as UTF-8 JSON on one line.",
	"La ligne n'est pas du texte UTF-8 valide, alors elle ne peut pas être du JSON. Rien n'a été fait. Envoyez chaque message en JSON UTF-8 sur une ligne.",
}

// StdioTooDeep refuses a message nested more than depth levels.
func StdioTooDeep(l voice.Lang, depth int) string {
	return l.Pick("The message nests arrays and objects more than "+strconv.Itoa(depth)+" levels deep, which no MCP message needs. Nothing was done.",
		"Le message imbrique tableaux et objets sur plus de "+strconv.Itoa(depth)+" niveaux, ce dont aucun message MCP n'a besoin. Rien n'a été fait.")
}

// StdioMalformedJSON refuses a line that is not JSON.
var StdioMalformedJSON = Pair{
	"The line is not well-formed JSON (JSON-RPC parse error), so it was skipped; the session goes on. Send each message as JSON on one line.",
	"La ligne n'est pas du JSON bien formé (erreur d'analyse JSON-RPC), alors elle a été sautée; la session continue. Envoyez chaque message en JSON sur une ligne.",
}

// StdioNoBatches refuses a batch.
var StdioNoBatches = Pair{
	"Batches are not accepted over standard input; nothing in this one was done. Send one message per line.",
	"Les lots ne sont pas acceptés sur l'entrée standard; rien de celui-ci n'a été fait. Envoyez un message par ligne.",
}

// StdioNotJSONRPC refuses a message that is not JSON-RPC 2.0, for problem
// (the end of a sentence).
func StdioNotJSONRPC(l voice.Lang, problem string) string {
	return l.Pick("The message is not a valid JSON-RPC 2.0 message: "+problem+" Nothing was done; the session goes on.",
		"Le message n'est pas un message JSON-RPC 2.0 valide : "+problem+" Rien n'a été fait; la session continue.")
}

// StdioParamsProblem refuses a request method cannot read, for problem.
func StdioParamsProblem(l voice.Lang, method, problem string) string {
	return l.Pick("The message is not a request "+method+" can read: "+problem+" Nothing was done; the session goes on.",
		"Le message n'est pas une requête que "+method+" peut lire : "+problem+" Rien n'a été fait; la session continue.")
}

// StdioUndecodable refuses a message the SDK could not decode, why being
// what it said.
func StdioUndecodable(l voice.Lang, why string) string {
	return l.Pick("The message is not a valid JSON-RPC 2.0 message ("+why+"). Nothing was done; the session goes on.",
		"Le message n'est pas un message JSON-RPC 2.0 valide ("+why+"). Rien n'a été fait; la session continue.")
}

// StdioIDInUse refuses a call whose id is still being answered.
var StdioIDInUse = Pair{
	"The message reuses the id of a call still being answered, so it was not done. Give each call its own id; the session goes on.",
	"Le message reprend l'id d'un appel encore en cours de réponse, alors il n'a pas été fait. Donnez à chaque appel son propre id; la session continue.",
}

// StdioSessionGoesOn ends a refusal the SDK made, put in words.
var StdioSessionGoesOn = Pair{" The session goes on.", " La session continue."}

// StdioCallFailed says a call to method (quoted) failed for why.
func StdioCallFailed(l voice.Lang, method, why string) string {
	return l.Pick("maison could not finish answering this "+method+" call ("+why+"). The session goes on. Try the call again; if it keeps failing, report it with maison's log.",
		"maison n'a pas pu finir de répondre à cet appel "+method+" ("+why+"). La session continue. Refaites l'appel; s'il échoue encore, signalez-le avec le journal de maison.")
}

// StdioNotInitialized refuses a call to method (quoted) before initialize.
func StdioNotInitialized(l voice.Lang, method string) string {
	return l.Pick("The session is not initialized yet, so this "+method+" call was refused. Nothing was done; the session goes on. Send initialize first, then notifications/initialized, then the call again.",
		"La session n'est pas encore initialisée, alors cet appel "+method+" a été refusé. Rien n'a été fait; la session continue. Envoyez d'abord initialize, puis notifications/initialized, puis l'appel de nouveau.")
}

package words

import (
	"strconv"

	"maison/voice"
)

// The door's refusals of a request's body: its type, size and pace, its
// JSON-RPC, and the MCP handler's own terse refusals put in sentences.

// DoorNotJSON refuses a body whose Content-Type is not JSON.
func DoorNotJSON(l voice.Lang) string {
	return l.Pick(
		"maison reads JSON-RPC only: send the body with Content-Type: application/json. Nothing was done.",
		"maison ne lit que du JSON-RPC : envoyez le corps avec Content-Type: application/json. Rien n'a été fait.")
}

// DoorTooLarge refuses a body over 1 MiB.
func DoorTooLarge(l voice.Lang) string {
	return l.Pick(
		"The request is larger than maison accepts (1 MiB). Nothing was done. Send smaller requests: one call per request, and batches of a few calls.",
		"La requête dépasse ce que maison accepte (1 Mio). Rien n'a été fait. Envoyez des requêtes plus petites : un appel par requête, et des lots de quelques appels.")
}

// DoorBodySlow refuses a body that did not arrive within seconds.
func DoorBodySlow(l voice.Lang, seconds int) string {
	return l.Pick(
		"The request's body did not arrive within "+strconv.Itoa(seconds)+" seconds, so maison stopped waiting. Nothing was done. Check the network and send it again.",
		"Le corps de la requête n'est pas arrivé en moins de "+strconv.Itoa(seconds)+" secondes, alors maison a cessé de l'attendre. Rien n'a été fait. Vérifiez le réseau et envoyez-la de nouveau.")
}

// DoorBodyUnreadable refuses a body that could not be read, for why.
func DoorBodyUnreadable(l voice.Lang, why string) string {
	return l.Pick(
		"The request's body could not be read ("+why+"). Nothing was done. Send it again.",
		"Le corps de la requête n'a pas pu être lu ("+why+"). Rien n'a été fait. Envoyez-la de nouveau.")
}

// DoorEmptyBody refuses a request without a body.
func DoorEmptyBody(l voice.Lang) string {
	return l.Pick(
		"The request has no body. Send one JSON-RPC message, such as a tools/list request.",
		"La requête n'a pas de corps. Envoyez un message JSON-RPC, comme une requête tools/list.")
}

// DoorNotUTF8 refuses a body that is not UTF-8.
func DoorNotUTF8(l voice.Lang) string {
	return l.Pick(
		"The request is not valid UTF-8 text, so it cannot be JSON. Nothing was done. Send the JSON encoded as UTF-8.",
		"La requête n'est pas du texte UTF-8 valide, alors elle ne peut pas être du JSON. Rien n'a été fait. Envoyez le JSON encodé en UTF-8.")
}

// DoorTooDeep refuses a body nested more than depth levels.
func DoorTooDeep(l voice.Lang, depth int) string {
	return l.Pick(
		"The request nests arrays and objects more than "+strconv.Itoa(depth)+" levels deep, which no MCP request needs. Nothing was done.",
		"La requête imbrique tableaux et objets sur plus de "+strconv.Itoa(depth)+" niveaux, ce dont aucune requête MCP n'a besoin. Rien n'a été fait.")
}

// DoorMalformedJSON refuses a body that is not JSON.
func DoorMalformedJSON(l voice.Lang) string {
	return l.Pick(
		"The request is not well-formed JSON (JSON-RPC parse error). Nothing was done. Check the body's syntax and send it again.",
		"La requête n'est pas du JSON bien formé (erreur d'analyse JSON-RPC). Rien n'a été fait. Vérifiez la syntaxe du corps et envoyez-la de nouveau.")
}

// DoorEmptyBatch refuses an empty batch.
func DoorEmptyBatch(l voice.Lang) string {
	return l.Pick(
		"The request is an empty batch. Send at least one message.",
		"La requête est un lot vide. Envoyez au moins un message.")
}

// DoorBatchTooLarge refuses a batch of n messages, over max.
func DoorBatchTooLarge(l voice.Lang, n, max int) string {
	return l.Pick(
		"This batch holds "+strconv.Itoa(n)+" messages; maison takes at most "+strconv.Itoa(max)+" in one batch, and refused the whole batch: nothing in it was done. Send the calls one by one or in smaller batches.",
		"Ce lot contient "+strconv.Itoa(n)+" messages; maison en prend au plus "+strconv.Itoa(max)+" dans un lot, et a refusé le lot entier : rien n'y a été fait. Envoyez les appels un à un ou en lots plus petits.")
}

// DoorBadMessage refuses a message, the nth of a batch (0 for a lone
// message), for problem: one method cannot read when params is set, not
// JSON-RPC 2.0 otherwise.
func DoorBadMessage(l voice.Lang, nth int, params bool, method, problem string) string {
	where := l.Pick("The message", "Le message")
	if nth > 0 {
		where = l.Pick("Message "+strconv.Itoa(nth)+" of the batch", "Le message "+strconv.Itoa(nth)+" du lot")
	}
	what := l.Pick(" is not a valid JSON-RPC 2.0 request: ", " n'est pas une requête JSON-RPC 2.0 valide : ")
	if params {
		what = l.Pick(" is not a request "+method+" can read: ", " n'est pas une requête que "+method+" peut lire : ")
	}
	return where + what + problem + l.Pick(" Nothing was done.", " Rien n'a été fait.")
}

// What is wrong with a JSON-RPC message, for DoorBadMessage.
var (
	DoorNotObject       = Pair{"it is not a JSON object.", "ce n'est pas un objet JSON."}
	DoorNotVersion2     = Pair{`"jsonrpc" must be "2.0".`, `"jsonrpc" doit valoir "2.0".`}
	DoorNoMethod        = Pair{`it has no "method".`, `il n'a pas de "method".`}
	DoorMethodNotString = Pair{`its "method" must be a non-empty string.`, `son "method" doit être une chaîne non vide.`}
	DoorParamsNotObject = Pair{`its "params" must be an object.`, `ses "params" doivent être un objet.`}
)

// DoorProtocolVersion puts in words the MCP handler's refusal of a protocol
// version, text being what it said.
func DoorProtocolVersion(l voice.Lang, text string) string {
	return l.Pick(
		"This MCP protocol version is not one maison speaks ("+text+"). Send Mcp-Protocol-Version with one of those versions, or leave it out and start with initialize.",
		"Cette version du protocole MCP n'est pas une que maison parle ("+text+"). Envoyez Mcp-Protocol-Version avec une de ces versions, ou omettez-le et commencez par initialize.")
}

// DoorBatchMethodUnknown puts in words the MCP handler's refusal of a batch
// holding a method maison does not offer.
func DoorBatchMethodUnknown(l voice.Lang) string {
	return l.Pick(
		"A method in this batch is not one maison offers, so nothing in the batch was done. Call tools/list to see what it offers, and leave that method out.",
		"Une méthode de ce lot n'est pas une que maison offre, alors rien dans le lot n'a été fait. Appelez tools/list pour voir ce qu'elle offre, et retirez cette méthode.")
}

// DoorAccept puts in words the MCP handler's refusal of an Accept header.
func DoorAccept(l voice.Lang) string {
	return l.Pick(
		"Send the header Accept: application/json, text/event-stream, as MCP clients do. maison answers in plain JSON.",
		"Envoyez l'en-tête Accept: application/json, text/event-stream, comme le font les clients MCP. maison répond en JSON simple.")
}

// DoorNoBatches puts in words the MCP handler's refusal of a batch in a
// protocol version without them, text being what it said.
func DoorNoBatches(l voice.Lang, text string) string {
	return l.Pick(
		"Batches are not part of this MCP protocol version ("+text+"). Send one request per POST.",
		"Les lots ne font pas partie de cette version du protocole MCP ("+text+"). Envoyez une requête par POST.")
}

// DoorDuplicateID puts in words the MCP handler's refusal of a batch whose
// messages share an id, text being what it said.
func DoorDuplicateID(l voice.Lang, text string) string {
	return l.Pick(
		"Two messages in this batch share one id ("+text+"). Give each call its own id.",
		"Deux messages de ce lot ont le même id ("+text+"). Donnez à chaque appel son propre id.")
}

// DoorHandlerTooLarge puts in words the MCP handler's refusal of a body
// over its size.
func DoorHandlerTooLarge(l voice.Lang) string {
	return l.Pick(
		"The request is larger than maison accepts (1 MiB). Send smaller requests.",
		"La requête dépasse ce que maison accepte (1 Mio). Envoyez des requêtes plus petites.")
}

// DoorHandlerMediaType puts in words the MCP handler's refusal of a
// Content-Type.
func DoorHandlerMediaType(l voice.Lang) string {
	return l.Pick(
		"Send the body as JSON with Content-Type: application/json.",
		"Envoyez le corps en JSON avec Content-Type: application/json.")
}

// DoorInternal says maison failed a request, text being what the MCP
// handler said.
func DoorInternal(l voice.Lang, text string) string {
	return l.Pick(
		"maison failed to handle this request ("+text+"). This is maison's fault, not the request's; try again, and report it with maison's log if it repeats.",
		"maison n'a pas réussi à traiter cette requête ("+text+"). C'est la faute de maison, pas de la requête; réessayez, et signalez-le avec le journal de maison si ça se répète.")
}

// DoorHandlerRefused puts in words any other refusal of the MCP handler,
// text being what it said.
func DoorHandlerRefused(l voice.Lang, text string) string {
	return l.Pick(
		"maison's MCP handler refused this request: "+text+". Check it against the MCP specification; nothing was done.",
		"Le gestionnaire MCP de maison a refusé cette requête : "+text+". Vérifiez-la selon la spécification MCP; rien n'a été fait.")
}

// DoorBatchNotRun answers a call of a batch that also holds a call the
// grant does not allow.
func DoorBatchNotRun(l voice.Lang) string {
	return l.Pick(
		"Not run: this batch also holds a call this connection's grant does not allow, so nothing in it was done. Send this call on its own.",
		"Pas exécuté : ce lot contient aussi un appel que l'accès de cette connexion ne permet pas, alors rien n'y a été fait. Envoyez cet appel seul.")
}

// DoorCannotLook answers a call of tool, which needs readScope, on a
// connection granted only acting.
func DoorCannotLook(l voice.Lang, tool, readScope string) string {
	return l.Pick(
		"Nothing was done: this connection may act in the house but was not granted looking at it ("+readScope+"), so maison did not run "+tool+". That lasts until the app is connected again; it does not mean anything is wrong with the house or with maison. To let this app look, remove the maison connector in the app, add it again, and tick “See the house” on maison's sign-in page (a token from maison token needs --scope "+readScope+").",
		"Rien n'a été fait : cette connexion peut agir dans la maison mais n'a pas reçu la permission de la voir ("+readScope+"), alors maison n'a pas exécuté "+tool+". Ça dure jusqu'à ce que l'application soit reconnectée; ça ne veut pas dire que la maison ou maison a un problème. Pour laisser cette application voir, retirez le connecteur maison dans l'application, ajoutez-le de nouveau et cochez « Voir la maison » sur la page de connexion de maison (un jeton de maison token demande --scope "+readScope+").")
}

// DoorCannotAct answers a call of tool, which needs scope, on a connection
// granted only looking (readScope).
func DoorCannotAct(l voice.Lang, tool, scope, readScope string) string {
	return l.Pick(
		"Nothing was done: this connection may look at the house but was not granted acting in it ("+scope+"), so maison did not run "+tool+". That lasts until the app is connected again; it does not mean anything is wrong with the device or with maison. To let this app act, remove the maison connector in the app, add it again, and tick “Act in the house” on maison's sign-in page (a token from maison token needs --scope "+readScope+","+scope+").",
		"Rien n'a été fait : cette connexion peut voir la maison mais n'a pas reçu la permission d'y agir ("+scope+"), alors maison n'a pas exécuté "+tool+". Ça dure jusqu'à ce que l'application soit reconnectée; ça ne veut pas dire que l'appareil ou maison a un problème. Pour laisser cette application agir, retirez le connecteur maison dans l'application, ajoutez-le de nouveau et cochez « Agir dans la maison » sur la page de connexion de maison (un jeton de maison token demande --scope "+readScope+","+scope+").")
}

package words

import (
	"strconv"
	"time"

	"maison/voice"
)

// The door's refusals: what an MCP client reads when maison's HTTP front
// refuses a request before any tool runs. Each says what happened, that
// nothing was done, and what to do.

// DoorNotPost refuses a method other than POST on /mcp.
func DoorNotPost(l voice.Lang) string {
	return l.Pick(
		"maison speaks MCP over POST only; GET and DELETE are not used (a stateless server, no event stream). Send the JSON-RPC message as a POST.",
		"maison parle MCP en POST seulement; GET et DELETE ne servent pas (un serveur sans état, sans flux d'événements). Envoyez le message JSON-RPC en POST.")
}

// DoorNotLoopback refuses a name other than localhost when maison runs
// without a token.
func DoorNotLoopback(l voice.Lang) string {
	return l.Pick(
		"Without a token maison answers only to localhost. Call it as 127.0.0.1 or localhost, or run it with a token.",
		"Sans jeton, maison ne répond qu'à localhost. Appelez-la par 127.0.0.1 ou localhost, ou lancez-la avec un jeton.")
}

// DoorShuttingDown refuses a request while maison drains.
func DoorShuttingDown(l voice.Lang) string {
	return l.Pick(
		"maison is shutting down and takes no new requests. Nothing was done. Send the request again in a second: another replica, or this one once restarted, will answer.",
		"maison s'arrête et ne prend plus de nouvelles requêtes. Rien n'a été fait. Envoyez la requête de nouveau dans une seconde : une autre instance, ou celle-ci une fois redémarrée, répondra.")
}

// DoorTooManyRequests refuses a client over its rate: limit requests per
// period, the next one allowed after wait.
func DoorTooManyRequests(l voice.Lang, limit int, period, wait time.Duration) string {
	return l.Pick(
		"Too many requests from this connection: maison takes "+strconv.Itoa(limit)+" in "+l.DurationDigits(period)+" from one client. Nothing was done. Try again in "+l.DurationDigits(wait)+".",
		"Trop de requêtes de cette connexion : maison en prend "+strconv.Itoa(limit)+" en "+l.DurationDigits(period)+" d'un même client. Rien n'a été fait. Réessayez dans "+l.DurationDigits(wait)+".")
}

// DoorBusy refuses a request that found no room within the queue's wait.
func DoorBusy(l voice.Lang, within time.Duration) string {
	return l.Pick(
		"maison is busy answering other requests and could not start this one within "+l.DurationDigits(within)+". Nothing was done. Try again in a few seconds.",
		"maison est occupée à répondre à d'autres requêtes et n'a pas pu commencer celle-ci en moins de "+l.DurationDigits(within)+". Rien n'a été fait. Réessayez dans quelques secondes.")
}

// DoorBodiesHeld refuses a client already sending kb kilobytes of bodies
// still arriving, its whole share.
func DoorBodiesHeld(l voice.Lang, kb int) string {
	return l.Pick(
		"This client is already sending maison "+strconv.Itoa(kb)+" KB of requests that have not finished arriving, as much as one client may. Nothing was done. Wait for those to finish, then send this one again; requests are usually a few KB.",
		"Ce client envoie déjà à maison "+strconv.Itoa(kb)+" Ko de requêtes qui n'ont pas fini d'arriver, tout ce qu'un client peut envoyer. Rien n'a été fait. Attendez qu'elles finissent, puis envoyez celle-ci de nouveau; une requête fait d'habitude quelques Ko.")
}

// DoorWrongTokens refuses an address that sent too many wrong tokens, until
// wait has passed.
func DoorWrongTokens(l voice.Lang, wait time.Duration) string {
	return l.Pick(
		"Too many wrong tokens from this address. Nothing was done. Check the token the client sends, then try again in "+l.DurationDigits(wait)+".",
		"Trop de jetons erronés de cette adresse. Rien n'a été fait. Vérifiez le jeton qu'envoie le client, puis réessayez dans "+l.DurationDigits(wait)+".")
}

// DoorNoToken refuses a request without a right token: oauth says maison
// signs clients in with OAuth, presented that a token was sent and refused.
func DoorNoToken(l voice.Lang, oauth, presented bool) string {
	msg := l.Pick(
		"maison needs a token: send Authorization: Bearer <token>, the token maison printed at start or MAISON_TOKEN.",
		"maison demande un jeton : envoyez Authorization: Bearer <jeton>, le jeton que maison a affiché au démarrage ou MAISON_TOKEN.")
	if oauth {
		msg = l.Pick(
			"maison needs a valid access token: connect through OAuth (the Claude app does this for you), or send Authorization: Bearer <token>.",
			"maison demande un jeton d'accès valide : connectez-vous par OAuth (l'application Claude le fait pour vous), ou envoyez Authorization: Bearer <jeton>.")
	}
	if presented {
		msg = l.Pick("The token was not accepted: it is wrong, expired or revoked. ",
			"Le jeton n'a pas été accepté : il est erroné, expiré ou révoqué. ") + msg
	}
	return msg
}

// DoorNoHost refuses a request that names no host.
func DoorNoHost(l voice.Lang) string {
	return l.Pick(
		"The request names no host (its Host header is missing or empty), so maison cannot tell it was meant for it and read nothing of it. Nothing was done. Send Host with the name or address you call maison by, as every HTTP/1.1 client does.",
		"La requête ne nomme aucun hôte (son en-tête Host manque ou est vide), alors maison ne peut pas savoir qu'elle lui était destinée et n'en a rien lu. Rien n'a été fait. Envoyez Host avec le nom ou l'adresse par lesquels vous appelez maison, comme le fait tout client HTTP/1.1.")
}

// DoorBadHostPort refuses a Host, name, whose port is not a port.
func DoorBadHostPort(l voice.Lang, name string) string {
	return l.Pick(
		"The request's Host "+quoted(l, name)+" is not well-formed: its port is not a number from 1 to 65535. Nothing was done. Send Host as the name or address you call maison by, with the port it listens on.",
		"L'en-tête Host "+quoted(l, name)+" de la requête n'est pas bien formé : son port n'est pas un nombre de 1 à 65535. Rien n'a été fait. Envoyez comme Host le nom ou l'adresse par lesquels vous appelez maison, avec le port où elle écoute.")
}

// DoorHostNotAllowed refuses a name maison does not answer to.
func DoorHostNotAllowed(l voice.Lang, name string) string {
	return l.Pick(
		"maison does not answer to the name "+quoted(l, name)+": a web page can point a name it owns at maison's address (DNS rebinding), so maison answers only to localhost, its IP addresses, its public URL's name, this machine's name and the names in MAISON_ALLOWED_HOSTS. Nothing was done. If this name is yours, add it to MAISON_ALLOWED_HOSTS (names separated by commas) and restart maison; otherwise call maison by one of those names.",
		"maison ne répond pas au nom "+quoted(l, name)+" : une page web peut diriger un nom qui lui appartient vers l'adresse de maison (rattachement DNS), alors maison ne répond qu'à localhost, à ses adresses IP, au nom de son adresse publique, au nom de cette machine et aux noms de MAISON_ALLOWED_HOSTS. Rien n'a été fait. Si ce nom est le vôtre, ajoutez-le à MAISON_ALLOWED_HOSTS (noms séparés par des virgules) et redémarrez maison; sinon, appelez maison par un de ces noms.")
}

// DoorForeignOrigin refuses a request from a web page, page, maison does
// not serve.
func DoorForeignOrigin(l voice.Lang, page string) string {
	return l.Pick(
		"A web page from "+quoted(l, page)+" may not call maison: only pages from maison's own address, localhost or the names in MAISON_ALLOWED_HOSTS may. Nothing was done. MCP clients outside a browser send no Origin and are not concerned; if this page is yours, add its host name to MAISON_ALLOWED_HOSTS and restart maison.",
		"Une page web de "+quoted(l, page)+" ne peut pas appeler maison : seules les pages de l'adresse de maison, de localhost ou des noms de MAISON_ALLOWED_HOSTS le peuvent. Rien n'a été fait. Les clients MCP hors d'un navigateur n'envoient pas d'Origin et ne sont pas touchés; si cette page est la vôtre, ajoutez son nom à MAISON_ALLOWED_HOSTS et redémarrez maison.")
}

// quoted puts a name from outside in the quotation marks of l.
func quoted(l voice.Lang, s string) string {
	return l.Pick("“"+s+"”", "« "+s+" »")
}

// DoorHeadersTooLarge answers, for Go's server, headers over its limit.
func DoorHeadersTooLarge(l voice.Lang) string {
	return l.Pick(
		"The request's headers are larger than maison reads (64 KB), so it read nothing of it. Nothing was done. Send shorter headers (an MCP client sends well under 1 KB of them); this connection is closed.",
		"Les en-têtes de la requête dépassent ce que maison lit (64 Ko), alors elle n'en a rien lu. Rien n'a été fait. Envoyez des en-têtes plus courts (un client MCP en envoie bien moins de 1 Ko); cette connexion est fermée.")
}

// DoorTransferEncoding answers, for Go's server, a transfer encoding it
// does not read.
func DoorTransferEncoding(l voice.Lang) string {
	return l.Pick(
		"The request's body uses a transfer encoding maison does not read, so it read nothing of it. Nothing was done. Send the body with Content-Length, or chunked; this connection is closed.",
		"Le corps de la requête utilise un encodage de transfert que maison ne lit pas, alors elle n'en a rien lu. Rien n'a été fait. Envoyez le corps avec Content-Length, ou en morceaux (chunked); cette connexion est fermée.")
}

// DoorHTTPVersion says maison does not speak the request's HTTP version.
func DoorHTTPVersion(l voice.Lang) string {
	return l.Pick(
		"This HTTP version is not one maison speaks, so it read nothing of the request. Nothing was done. Send HTTP/1.1; this connection is closed.",
		"Cette version de HTTP n'est pas une que maison parle, alors elle n'a rien lu de la requête. Rien n'a été fait. Envoyez du HTTP/1.1; cette connexion est fermée.")
}

// DoorMalformedHTTP answers, for Go's server, a request that is not HTTP;
// detail is what Go said of it, or "".
func DoorMalformedHTTP(l voice.Lang, detail string) string {
	why := ""
	if detail != "" {
		why = " (" + detail + ")"
	}
	return l.Pick(
		"The request is not well-formed HTTP"+why+", so maison read nothing of it. Nothing was done. Check the client or proxy that sent it; this connection is closed.",
		"La requête n'est pas du HTTP bien formé"+why+", alors maison n'en a rien lu. Rien n'a été fait. Vérifiez le client ou le mandataire qui l'a envoyée; cette connexion est fermée.")
}

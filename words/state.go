package words

import "maison/voice"

// StoreTrouble says why a sensitive action, or an answer on maison's
// approval page, was refused because the store of answers (which
// confirmations and approvals were already used) could not record it: it
// did not answer, or it is full. Nothing was done either way.
func StoreTrouble(l voice.Lang, full bool) string {
	if full {
		return l.Pick("Nothing was done: maison's memory of answers, where it records which confirmations and approvals were already used, is full, and maison refuses rather than forget an answer. It frees itself as old entries expire, usually within minutes. The request itself is fine and Home Assistant is not at fault. Try again in a few minutes; if it lasts, whoever runs maison can look at its log.",
			"Rien n'a été fait : la mémoire des réponses de maison, où elle note quelles confirmations et approbations ont déjà servi, est pleine, et maison refuse plutôt que d'oublier une réponse. Elle se libère à mesure que les vieilles entrées expirent, d'habitude en quelques minutes. La demande elle-même est correcte et Home Assistant n'y est pour rien. Réessayez dans quelques minutes; si ça dure, la personne qui gère maison peut regarder son journal.")
	}
	return l.Pick("Nothing was done: maison cannot reach its memory of answers right now, where it records which confirmations and approvals were already used, and it never acts without checking. This usually passes within a minute. The request itself is fine and Home Assistant is not at fault. Try again in a minute; if it lasts, whoever runs maison can check that its store is running.",
		"Rien n'a été fait : maison ne peut pas joindre sa mémoire des réponses en ce moment, où elle note quelles confirmations et approbations ont déjà servi, et elle n'agit jamais sans vérifier. Ça passe d'habitude en moins d'une minute. La demande elle-même est correcte et Home Assistant n'y est pour rien. Réessayez dans une minute; si ça dure, la personne qui gère maison peut vérifier que son magasin de données fonctionne.")
}

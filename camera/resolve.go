package camera

import (
	"context"
	"strings"

	"maison/voice"
	"maison/words"
)

// NotFoundError is a camera name that matches none; it carries the names that exist.
type NotFoundError struct {
	Query string
	Known []Camera
}

func (e *NotFoundError) Error() string { return "camera: no camera called " + e.Query }

// Say names the cameras that exist, so the caller can pick one. A camera
// that is not exposed gets exactly these words, as one that does not exist.
func (e *NotFoundError) Say(lang voice.Lang) string {
	names := make([]string, len(e.Known))
	for i, c := range e.Known {
		names[i] = c.Say(lang)
	}
	q := words.Quote(lang, e.Query)
	if looksLikeEntityID(e.Query) {
		q = lang.Pick("with that entity id", "avec cet identifiant")
	} else {
		q = lang.Pick("called "+q, "appelée "+q)
	}
	if len(names) == 0 {
		return lang.Pick(
			"There is no camera "+q+", and no camera is shared with me at all. An admin can expose cameras to Assist in Home Assistant under Settings, Voice assistants, Expose.",
			"Il n'y a pas de caméra "+q+", et aucune caméra ne m'est partagée. Un administrateur peut exposer des caméras à Assist dans Home Assistant, sous Paramètres, Assistants vocaux, Exposer.")
	}
	return lang.Pick(
		"There is no camera "+q+". The cameras I can show are "+lang.List(names)+".",
		"Il n'y a pas de caméra "+q+". Les caméras que je peux montrer sont "+lang.List(names)+".")
}

// WithheldError is a camera exposed to Assist that maison will not show,
// because it cannot tell which entity it is.
type WithheldError struct {
	Query    string
	Withheld Withheld
}

func (e *WithheldError) Error() string { return "camera: withheld: " + e.Query }

// Say tells why the camera is not shown and how the owner can fix it.
func (e *WithheldError) Say(lang voice.Lang) string { return e.Withheld.Say(lang) }

// Say tells why an exposed camera is not shown, and how to fix it.
func (w Withheld) Say(lang voice.Lang) string {
	name := ""
	if len(w.Names) > 0 {
		name = w.Names[0]
	}
	cam := sayCamera(lang, name)
	switch w.Reason {
	case words.DoubtShared:
		return lang.Pick(
			"I cannot show "+cam+": more than one device in Home Assistant goes by that name, so I cannot tell which one is shared with me, and I show none of them. This stays so until one is renamed. It does not mean the camera is broken. Whoever runs the house can rename one of them in Home Assistant, or add the camera by its entity id to maison's own list of cameras.",
			"Je ne peux pas montrer "+cam+" : plusieurs appareils portent ce nom dans Home Assistant, je ne peux donc pas savoir lequel m'est partagé, et je n'en montre aucun. Ça reste ainsi tant que l'un d'eux n'est pas renommé. Ça ne veut pas dire que la caméra est en panne. La personne qui gère la maison peut renommer l'un d'eux dans Home Assistant, ou ajouter la caméra par son identifiant à la liste de caméras de maison.")
	case words.DoubtUnknownExposure:
		return lang.Pick(
			"I cannot show "+cam+": Home Assistant does not let me confirm that this camera is shared with me, because it has no entry in its entity registry. This will not change by waiting. It does not mean the camera is broken. Whoever runs maison can add the camera by its entity id to maison's own list of cameras, or set it up in Home Assistant so that it has a unique id.",
			"Je ne peux pas montrer "+cam+" : Home Assistant ne me permet pas de confirmer que cette caméra m'est partagée, parce qu'elle n'a pas d'entrée dans son registre des entités. Attendre n'y changera rien. Ça ne veut pas dire que la caméra est en panne. La personne qui gère maison peut l'ajouter par son identifiant à la liste de caméras de maison, ou la configurer dans Home Assistant pour qu'elle ait un identifiant unique.")
	}
	return lang.Pick(
		"I cannot show "+cam+" right now: I could not tell which camera Home Assistant means by that name. This is often brief, while a name or a state changes. It does not mean the camera is broken. Try again in a moment; if it lasts, whoever runs maison can run maison check, or add the camera by its entity id to maison's own list of cameras.",
		"Je ne peux pas montrer "+cam+" pour l'instant : je n'ai pas pu savoir quelle caméra Home Assistant désigne par ce nom. C'est souvent bref, le temps qu'un nom ou un état change. Ça ne veut pas dire que la caméra est en panne. Réessayez dans un instant; si ça dure, la personne qui gère maison peut lancer maison check, ou ajouter la caméra par son identifiant à la liste de caméras de maison.")
}

// Find resolves what a person calls a camera ("the garage", "garage camera",
// "caméra du garage", "camera.garage") among the cameras the caller may see.
// An exposed camera that maison withholds is named as such, with the fix.
func (s *Service) Find(ctx context.Context, query string) (Camera, error) {
	cams, withheld, err := s.list(ctx)
	if err != nil {
		return Camera{}, err
	}
	return match(cams, withheld, query)
}

func match(cams []Camera, withheld []Withheld, query string) (Camera, error) {
	q := strings.TrimSpace(query)
	for _, c := range cams {
		if strings.EqualFold(c.EntityID, q) {
			return c, nil
		}
	}
	key := fold(q)
	if key == "" {
		return Camera{}, &NotFoundError{Query: query, Known: cams}
	}
	for _, c := range cams {
		if fold(c.Name) == key || fold(strings.TrimPrefix(c.EntityID, "camera.")) == key {
			return c, nil
		}
	}
	for _, w := range withheld {
		for _, n := range w.Names {
			if fold(n) == key {
				return Camera{}, &WithheldError{Query: query, Withheld: w}
			}
		}
	}
	// A small typo is forgiven: one letter in a short name, two in a longer
	// one, and only when a single camera is that close.
	allowed := 1
	if len([]rune(key)) > 6 {
		allowed = 2
	}
	best, bestDist, tie := -1, allowed+1, false
	for i, c := range cams {
		d := min(distance(fold(c.Name), key), distance(fold(strings.TrimPrefix(c.EntityID, "camera.")), key))
		switch {
		case d < bestDist:
			best, bestDist, tie = i, d, false
		case d == bestDist:
			tie = true
		}
	}
	// A withheld camera as close as the best never lets a typo pick another.
	for _, w := range withheld {
		for _, n := range w.Names {
			if d := distance(fold(n), key); d <= allowed && d <= bestDist {
				return Camera{}, &WithheldError{Query: query, Withheld: w}
			}
		}
	}
	if best >= 0 && !tie {
		return cams[best], nil
	}
	return Camera{}, &NotFoundError{Query: query, Known: cams}
}

// filler words people put around a camera's name, in English and French.
var filler = map[string]bool{
	"the": true, "camera": true, "cam": true, "cameras": true, "la": true, "le": true, "les": true,
	"l": true, "de": true, "du": true, "des": true, "d": true, "my": true, "ma": true, "our": true, "notre": true,
}

// fold lowercases, drops accents, punctuation and filler words.
func fold(s string) string {
	var words []string
	for _, w := range strings.Fields(voice.Fold(s)) {
		if !filler[w] {
			words = append(words, w)
		}
	}
	return strings.Join(words, " ")
}

// distance is the Levenshtein distance between a and b, for small typos.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// looksLikeEntityID reports whether s is shaped like an entity id (camera.garage).
func looksLikeEntityID(s string) bool {
	d, obj, ok := strings.Cut(strings.TrimSpace(s), ".")
	return ok && d != "" && obj != "" && !strings.ContainsAny(s, " ,")
}

package camera

import (
	"context"
	"strings"
	"unicode"

	"maison/voice"
)

// NotFoundError is a camera name that matches none; it carries the names that exist.
type NotFoundError struct {
	Query string
	Known []Camera
}

func (e *NotFoundError) Error() string { return "camera: no camera called " + e.Query }

// Say names the cameras that exist, so the caller can pick one.
func (e *NotFoundError) Say(lang voice.Lang) string {
	names := make([]string, len(e.Known))
	for i, c := range e.Known {
		names[i] = c.Spoken(lang)
	}
	q := voice.Clean(e.Query, 60)
	if len(names) == 0 {
		return pick(lang == voice.French,
			"There is no camera called “"+q+"”, and no camera is shared with me at all. An admin can expose cameras to Assist in Home Assistant under Settings, Voice assistants, Expose.",
			"Il n'y a pas de caméra appelée « "+q+" », et aucune caméra ne m'est partagée. Un administrateur peut exposer des caméras à Assist dans Home Assistant, sous Paramètres, Assistants vocaux, Exposer.")
	}
	return pick(lang == voice.French,
		"There is no camera called “"+q+"”. The cameras I can show are "+lang.List(names)+".",
		"Il n'y a pas de caméra appelée « "+q+" ». Les caméras que je peux montrer sont "+lang.List(names)+".")
}

// Find resolves what a person calls a camera ("the garage", "garage camera",
// "caméra du garage", "camera.garage") among the cameras the caller may see.
func (s *Service) Find(ctx context.Context, query string) (Camera, error) {
	cams, err := s.List(ctx)
	if err != nil {
		return Camera{}, err
	}
	return match(cams, query)
}

func match(cams []Camera, query string) (Camera, error) {
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
		case d == 0:
			return c, nil
		case d < bestDist:
			best, bestDist, tie = i, d, false
		case d == bestDist:
			tie = true
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

// unaccent folds the accented letters of French and its neighbours.
var unaccent = strings.NewReplacer(
	"à", "a", "â", "a", "ä", "a", "á", "a", "é", "e", "è", "e", "ê", "e", "ë", "e",
	"î", "i", "ï", "i", "í", "i", "ô", "o", "ö", "o", "ó", "o", "ù", "u", "û", "u",
	"ü", "u", "ú", "u", "ç", "c", "œ", "oe", "æ", "ae", "ñ", "n", "ÿ", "y",
)

// fold lowercases, drops accents, punctuation and filler words.
func fold(s string) string {
	s = unaccent.Replace(strings.ToLower(s))
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		default:
			b.WriteRune(' ')
		}
	}
	var words []string
	for _, w := range strings.Fields(b.String()) {
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

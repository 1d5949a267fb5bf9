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
	return words.NoCamera(lang, e.Query, looksLikeEntityID(e.Query), names)
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
	return words.CameraWithheld(lang, name, w.Reason)
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

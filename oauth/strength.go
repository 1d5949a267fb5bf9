package oauth

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// guessesPerHour is the most passwords the sign-in page checks in an hour,
// from however many addresses: maxFresh from senders that had not tried
// and maxRepeats from the others, every 15-minute window, around the
// clock. ((1,048,576 + 50,000) × 4 = 4,394,304.)
const guessesPerHour = (maxFresh + maxRepeats) * int(time.Hour/lockout)

// minPasswordBits is how strong the operator password must be estimated: a
// year of guessing at guessesPerHour (about 2^35.2 guesses) must find it
// with at most a one-in-a-million chance (2^-20), so 56 bits.
func minPasswordBits() float64 {
	return math.Ceil(math.Log2(float64(guessesPerHour)*24*365) + 20)
}

// minPasswordRunes is the shortest operator password accepted, whatever its
// estimate.
const minPasswordRunes = 12

// checkPassword refuses an operator password too short or too easy to
// guess, in a sentence that says what to do and never quotes it.
func checkPassword(p string) error {
	if n := len([]rune(p)); n < minPasswordRunes {
		return fmt.Errorf("oauth: MAISON_OPERATOR_PASSWORD is too short (%d characters): set one of at least %d, best a passphrase of five or more words chosen at random", n, minPasswordRunes)
	}
	if bits, need := passwordBits(p), minPasswordBits(); bits < need {
		return fmt.Errorf("oauth: MAISON_OPERATOR_PASSWORD is too easy to guess: set a passphrase of five or more words chosen at random (or a longer random mix of letters, digits and symbols, without common words or repeats). Its estimated strength is %.0f bits; %.0f are needed to withstand a year of the most guesses the sign-in page lets through, %s an hour (the README explains)", bits, need, grouped(guessesPerHour))
	}
	return nil
}

// grouped writes n with a comma every three digits.
func grouped(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// commonWords are guessed first by anyone: common passwords and words,
// well-known passphrases and their words, product and app names. Each
// occurrence, separators between its words ignored, is worth 2 bits
// whatever its length; so is a year (19xx, 20xx).
var commonWords = []string{
	"password", "passwort", "motdepasse", "maison", "qwerty", "azerty", "asdf", "letmein",
	"welcome", "bienvenue", "admin", "secret", "changeme", "replace", "iloveyou", "jetaime",
	"monkey", "dragon", "football", "hockey", "soleil", "bonjour", "hunter", "trustno1",
	"correcthorsebatterystaple", "correct", "horse", "battery", "staple", "tr0ub4dor", "troubador",
	"thequickbrownfox", "quick", "brown", "jumps", "overthelazydog", "tobeornottobe", "thatisthequestion",
	"sunshine", "rainbow", "butterfly", "princess", "shadow", "master", "superman", "batman", "starwars",
	"pokemon", "minecraft", "freedom", "whatever",
	"homeassistant", "home", "assistant", "claude", "anthropic", "cloudflare", "raspberry", "google", "apple",
}

// passwordBits estimates, in bits, how many guesses a password needs,
// erring low: each character is worth what its class offers (a letter 4.7
// bits, a capital 5.7, a digit 3.3, a symbol 5, a separator such as a space
// 1), but a letter past the second of a run only 2 (words are far from
// random letters); a character that repeats or continues a sequence
// ("aaa", "abc", "321", "a1b2c3"), a keyboard walk of four keys or more
// ("1qaz", "!@#$", rows and columns, shifted or not) or a zigzag across two
// rows ("1q2w3e") 1; a chunk of three characters or more seen before
// ("glacier glacier", "abcdABCD") 1 in all; a common word or year, or a
// run of a list known in order ("one two three", "Monday Tuesday") 2 in
// all; and a whole word of smallWords at most smallWordBits. Words are
// read through leetspeak ("m0nk3y" is "monkey"). Like zxcvbn, in
// miniature and with small dictionaries.
func passwordBits(p string) float64 {
	r := []rune(p)
	lower := []rune(strings.ToLower(p))
	if len(lower) != len(r) {
		lower = r
	}
	cost := make([]float64, len(r))
	bits := 0.0
	run := 0 // letters in the current run
	for i, c := range r {
		if unicode.IsLetter(c) {
			run++
		} else {
			run = 0
		}
		switch {
		case repeats(lower, i):
			cost[i] = 1
		case unicode.IsLetter(c):
			if run > 2 {
				cost[i] = 2
			} else if unicode.IsUpper(c) {
				cost[i] = 5.7
			} else {
				cost[i] = 4.7
			}
		case unicode.IsDigit(c):
			cost[i] = 3.3
		case unicode.IsSpace(c) || strings.ContainsRune("-_.,", c):
			cost[i] = 1
		default:
			cost[i] = 5
		}
	}
	for _, w := range append(keyboardWalks(lower), zigzags(lower)...) {
		for i := w[0] + 1; i < w[1]; i++ {
			cost[i] = min(cost[i], 1)
		}
	}
	for _, c := range repeatedChunks(lower) {
		cost[c[0]] = min(cost[c[0]], 1)
		for i := c[0] + 1; i < c[1]; i++ {
			cost[i] = 0
		}
	}
	for _, m := range commonSpans(lower) {
		for i := m[0]; i < m[1]; i++ {
			cost[i] = 0
		}
		bits += 2
	}
	for _, t := range tokens(r) {
		if t[1]-t[0] < 3 || !isSmallWord(lower[t[0]:t[1]]) {
			continue // a word of one or two letters is worth little already
		}
		sum := 0.0
		for i := t[0]; i < t[1]; i++ {
			sum += cost[i]
		}
		if sum > smallWordBits {
			cost[t[0]] = smallWordBits
			for i := t[0] + 1; i < t[1]; i++ {
				cost[i] = 0
			}
		}
	}
	for _, c := range cost {
		bits += c
	}
	return bits
}

// smallWordBits is the most a whole word of smallWords is worth: under the
// 8 bits of a list of a few hundred, as phrases of them follow grammar or
// quote a song or a film.
const smallWordBits = 6

// leet is what a digit or symbol stands for in leetspeak ("p4$$w0rd").
var leet = map[rune]string{'0': "o", '1': "il", '3': "e", '4': "a", '5': "s", '7': "t", '@': "a", '$': "s", '!': "i"}

// reads returns how many characters of p, from its start, read as word,
// as written or through leetspeak; 0 if p does not start with word.
func reads(p []rune, word string) int {
	n := 0
	for _, w := range word {
		if n >= len(p) || p[n] != w && !strings.ContainsRune(leet[p[n]], w) {
			return 0
		}
		n++
	}
	return n
}

// isSmallWord reports whether t, all of it, is a word of smallWords.
func isSmallWord(t []rune) bool {
	for _, w := range smallWords {
		if len([]rune(w)) == len(t) && reads(t, w) == len(t) {
			return true
		}
	}
	return false
}

// tokens returns the [start, end) spans of r's words: what separators
// divide, and a capital after a small letter ("ShadowMaster").
func tokens(r []rune) [][2]int {
	var spans [][2]int
	start := 0
	for i := 0; i <= len(r); i++ {
		switch {
		case i == len(r) || isSeparator(r[i]):
			if i > start {
				spans = append(spans, [2]int{start, i})
			}
			start = i + 1
		case i > start && unicode.IsUpper(r[i]) && unicode.IsLower(r[i-1]):
			spans = append(spans, [2]int{start, i})
			start = i
		}
	}
	return spans
}

// orderedRun returns how many letters, from the start of p, are a run of
// three or more items in a row of one of orderedLists, 0 if none. Its
// letters must be four or more: "abc" is left to the sequence rule.
func orderedRun(p []rune) int {
	best := 0
	for _, list := range orderedLists {
		for k := range list {
			n, items := 0, 0
			for items < len(list) {
				m := reads(p[n:], list[(k+items)%len(list)])
				if m == 0 {
					break
				}
				n += m
				items++
			}
			if items >= 3 && n >= 4 {
				best = max(best, n)
			}
		}
	}
	return best
}

// isSeparator reports whether c only separates words.
func isSeparator(c rune) bool { return unicode.IsSpace(c) || strings.ContainsRune("-_.,", c) }

// commonSpans returns the [start, end) spans of lower that are runs of
// ordered lists, common words (separators between letters ignored, read
// through leetspeak) or years, without overlap, longest first.
func commonSpans(lower []rune) [][2]int {
	var letters []rune // lower without separators
	var at []int       // where each of letters stands in lower
	for i, c := range lower {
		if !isSeparator(c) {
			letters = append(letters, c)
			at = append(at, i)
		}
	}
	taken := make([]bool, len(lower))
	var spans [][2]int
	mark := func(from, to int) { // letters[from:to]
		s, e := at[from], at[to-1]+1
		for i := s; i < e; i++ {
			if taken[i] {
				return
			}
		}
		for i := s; i < e; i++ {
			taken[i] = true
		}
		spans = append(spans, [2]int{s, e})
	}
	for i := 0; i < len(letters); i++ {
		if n := orderedRun(letters[i:]); n > 0 {
			mark(i, i+n)
			i += n - 1
		}
	}
	for _, w := range commonWords { // longest first within each group, as listed
		for i := range letters {
			if n := reads(letters[i:], w); n > 0 {
				mark(i, i+n)
			}
		}
	}
	for i := 0; i+4 <= len(letters); i++ {
		y := string(letters[i : i+4])
		if (strings.HasPrefix(y, "19") || strings.HasPrefix(y, "20")) && strings.IndexFunc(y, func(c rune) bool { return !unicode.IsDigit(c) }) < 0 {
			mark(i, i+4)
		}
	}
	return spans
}

// repeatedChunks returns the [start, end) spans of r, three characters or
// more, that repeat a chunk starting earlier, longest first from the left.
func repeatedChunks(r []rune) [][2]int {
	var chunks [][2]int
	for i := 1; i < len(r); {
		best := 0
		for j := range i {
			n := 0
			for i+n < len(r) && r[j+n] == r[i+n] {
				n++
			}
			best = max(best, n)
		}
		if best >= 3 {
			chunks = append(chunks, [2]int{i, i + best})
			i += best
		} else {
			i++
		}
	}
	return chunks
}

// keyPlace is where a key stands on a QWERTY keyboard: its row, and its
// distance from the left edge in keys (rows are staggered).
type keyPlace struct{ row, x float64 }

// keyboard places each character, shifted or not, on its key.
var keyboard = func() map[rune]keyPlace {
	rows := [][2]string{
		{"`1234567890-=", "~!@#$%^&*()_+"},
		{"qwertyuiop[]\\", "QWERTYUIOP{}|"},
		{"asdfghjkl;'", "ASDFGHJKL:\""},
		{"zxcvbnm,./", "ZXCVBNM<>?"},
	}
	offset := []float64{0, 0.5, 0.75, 1.25}
	m := map[rune]keyPlace{}
	for row, keys := range rows {
		for _, s := range keys {
			for x, c := range []rune(s) {
				m[c] = keyPlace{float64(row), float64(x) + offset[row]}
			}
		}
	}
	return m
}()

// nextKeys reports whether b's key touches a's, or is a's.
func nextKeys(a, b rune) bool {
	pa, okA := keyboard[a]
	pb, okB := keyboard[b]
	if !okA || !okB {
		return false
	}
	dr, dx := math.Abs(pa.row-pb.row), math.Abs(pa.x-pb.x)
	return dr == 0 && dx <= 1 || dr == 1 && dx <= 1
}

// keyboardWalks returns the [start, end) spans of r, four keys or more,
// where each key touches the one before.
func keyboardWalks(r []rune) [][2]int {
	var walks [][2]int
	start := 0
	for i := 1; i <= len(r); i++ {
		if i < len(r) && nextKeys(r[i-1], r[i]) {
			continue
		}
		if i-start >= 4 {
			walks = append(walks, [2]int{start, i})
		}
		start = i
	}
	return walks
}

// zigzags returns the [start, end) spans of r, six keys or more, that
// zigzag across two adjacent rows ("1q2w3e", "qawsed"): each key on the
// other row from the one before, and next to the one two before.
func zigzags(r []rune) [][2]int {
	zig := func(a, b, c rune) bool {
		pa, okA := keyboard[a]
		pb, okB := keyboard[b]
		pc, okC := keyboard[c]
		return okA && okB && okC && pa.row == pc.row && math.Abs(pa.row-pb.row) == 1 &&
			math.Abs(pa.x-pc.x) == 1 && math.Abs(pa.x-pb.x) <= 1.5 && math.Abs(pb.x-pc.x) <= 1.5
	}
	var spans [][2]int
	for i := 0; i+2 < len(r); {
		j := i + 2
		for j < len(r) && zig(r[j-2], r[j-1], r[j]) {
			j++
		}
		if j-i >= 6 {
			spans = append(spans, [2]int{i, j})
			i = j
		} else {
			i++
		}
	}
	return spans
}

// repeats reports whether r[i] repeats the character before it, continues a
// sequence of steps of one (of every character, or of every other one), or
// ends three characters seen before.
func repeats(r []rune, i int) bool {
	switch {
	case i >= 1 && r[i] == r[i-1]:
		return true
	case i >= 2 && (r[i]-r[i-1] == 1 || r[i]-r[i-1] == -1) && r[i]-r[i-1] == r[i-1]-r[i-2]:
		return true
	case i >= 4 && (r[i]-r[i-2] == 1 || r[i]-r[i-2] == -1) && r[i]-r[i-2] == r[i-2]-r[i-4]:
		return true
	}
	for p := 1; i >= p+2; p++ {
		if r[i] == r[i-p] && r[i-1] == r[i-1-p] && r[i-2] == r[i-2-p] {
			return true
		}
	}
	return false
}

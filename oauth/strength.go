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

// commonWords are guessed first by anyone; a password's occurrence of one
// is worth a few bits, whatever its length.
var commonWords = []string{
	"password", "passwort", "motdepasse", "maison", "qwerty", "azerty", "asdf", "letmein",
	"welcome", "bienvenue", "admin", "secret", "changeme", "replace", "iloveyou", "jetaime",
	"monkey", "dragon", "football", "hockey", "soleil", "bonjour", "hunter",
}

// passwordBits estimates, in bits, how many guesses a password needs,
// erring low: each character is worth what its class offers (a letter 4.7
// bits, a capital 5.7, a digit 3.3, a symbol 5, a separator such as a space
// 1), but a letter past the second of a run only 2 (words are far from
// random letters), a character that repeats or continues a sequence
// ("aaa", "abc", "321", "abcabc") 1, and a common word 2 in all. Like
// zxcvbn, in miniature and without its dictionaries.
func passwordBits(p string) float64 {
	r := []rune(p)
	lower := []rune(strings.ToLower(p))
	common := make([]bool, len(r))
	bits := 0.0
	if len(lower) == len(r) {
		for _, w := range commonWords {
			lw := []rune(w)
			for i := 0; i+len(lw) <= len(lower); i++ {
				if string(lower[i:i+len(lw)]) == w && !common[i] {
					for j := range lw {
						common[i+j] = true
					}
					bits += 2
				}
			}
		}
	}
	run := 0 // letters in the current run
	for i, c := range r {
		if unicode.IsLetter(c) {
			run++
		} else {
			run = 0
		}
		switch {
		case common[i]:
		case repeats(lower, i):
			bits++
		case unicode.IsLetter(c):
			if run > 2 {
				bits += 2
			} else if unicode.IsUpper(c) {
				bits += 5.7
			} else {
				bits += 4.7
			}
		case unicode.IsDigit(c):
			bits += 3.3
		case unicode.IsSpace(c) || strings.ContainsRune("-_.,", c):
			bits++
		default:
			bits += 5
		}
	}
	return bits
}

// repeats reports whether r[i] repeats the character before it, continues a
// sequence of steps of one, or ends three characters seen before.
func repeats(r []rune, i int) bool {
	switch {
	case i >= 1 && r[i] == r[i-1]:
		return true
	case i >= 2 && (r[i]-r[i-1] == 1 || r[i]-r[i-1] == -1) && r[i]-r[i-1] == r[i-1]-r[i-2]:
		return true
	}
	for p := 1; i >= p+2; p++ {
		if r[i] == r[i-p] && r[i-1] == r[i-1-p] && r[i-2] == r[i-2-p] {
			return true
		}
	}
	return false
}

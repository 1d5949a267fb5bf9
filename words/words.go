// Package words holds every sentence a person hears or reads from maison, in
// English and Québec French side by side, made from facts handed in: what a
// device is doing, what Home Assistant answered, what a picture shows, why a
// call or a sign-in was refused. It does no I/O and knows no client, camera
// or server; the packages above gather the facts and call it.
//
// One mechanism chooses the language: a function takes the voice.Lang and
// picks with Lang.Pick(en, fr); a sentence kept as data is a Pair.
package words

import "maison/voice"

// Pair is one sentence, or one piece of a sentence, in both languages.
type Pair struct{ EN, FR string }

// In is the pair in l.
func (p Pair) In(l voice.Lang) string { return l.Pick(p.EN, p.FR) }

// Package words holds every sentence a person hears or reads from maison,
// in each language it speaks, made from facts handed in: what a device is
// doing, what Home Assistant answered, what a picture shows, why a call or
// a sign-in was refused. It does no I/O and knows no client, camera or
// server; the packages above gather the facts and call it.
//
// Each sentence has one key (a Key), and each language one file holding
// the text of every key (en.go, fr.go): a template whose placeholders,
// {name}, a function of this package fills. The rules a language's
// sentences follow, its plural forms and its elisions, are in its file
// too; its numbers, units, times and lists are in voice. A function takes
// the voice.Lang and says its sentence with say or sayN.
package words

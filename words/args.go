// The refusals of a tool call's arguments: what cannot be read, what is
// missing or wrong, and what each argument takes.

package words

import (
	"fmt"

	"maison/voice"
)

// UnreadableArgs says that a call's arguments are not named values.
func UnreadableArgs(lang voice.Lang) string {
	return lang.Pick(
		"The details of this call are not readable as named values, so nothing was done. Call it again with each detail given by its name.",
		"Les détails de cet appel ne se lisent pas comme des valeurs nommées, alors rien n'a été fait. Rappelez-le en donnant chaque détail par son nom.")
}

// LongArg says that the argument name is longer than any name maison
// reads: runes characters at most, items names in a list.
func LongArg(lang voice.Lang, name string, runes, items int) string {
	q := lang.Quote(name, 40)
	return lang.Pick(
		fmt.Sprintf("The argument %s is longer than any name I read (%d characters at most, %d names in a list), so nothing was done. Call it again with it as a person says it, such as a device's or a room's name.", q, runes, items),
		fmt.Sprintf("L'argument %s est plus long que tout nom que je lis (%d caractères au plus, %d noms dans une liste), alors rien n'a été fait. Rappelez-le tel qu'une personne le dit, comme le nom d'un appareil ou d'une pièce.", q, runes, items))
}

// WrongArg says that the argument name is missing, or cannot be used, and
// what it takes: wants follows "must be".
func WrongArg(lang voice.Lang, name string, wants Pair, missing bool) string {
	q := lang.Quote(name, 40)
	if missing {
		return lang.Pick(
			"This call needs the argument "+q+", which must be "+wants.EN+", so nothing was done. Call it again with it.",
			"Cet appel a besoin de l'argument "+q+", qui doit être "+wants.FR+", alors rien n'a été fait. Rappelez-le avec cet argument.")
	}
	return lang.Pick(
		"The argument "+q+" must be "+wants.EN+", so nothing was done. Call it again with such a value, or without it.",
		"L'argument "+q+" doit être "+wants.FR+", alors rien n'a été fait. Rappelez-le avec une telle valeur, ou sans cet argument.")
}

// UnknownArg says that a tool has no argument name, and names those it
// has (known).
func UnknownArg(lang voice.Lang, name string, known []string) string {
	q := lang.Quote(name, 40)
	if len(known) == 0 {
		return lang.Pick(
			"This tool takes no argument, and "+q+" was given, so nothing was done. Call it again with no argument.",
			"Cet outil ne prend aucun argument, et "+q+" a été donné, alors rien n'a été fait. Rappelez-le sans argument.")
	}
	quoted := make([]string, len(known))
	for i, k := range known {
		quoted[i] = lang.Quote(k, 40)
	}
	return lang.Pick(
		"This tool has no argument called "+q+", so nothing was done. Its arguments are "+lang.List(quoted)+".",
		"Cet outil n'a pas d'argument appelé "+q+", alors rien n'a été fait. Ses arguments sont "+lang.List(quoted)+".")
}

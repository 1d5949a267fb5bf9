package words

import (
	"strings"

	"maison/voice"
)

// maxTileFacts bounds the nearby sensors said for each camera of an
// overview, to keep the whole answer short enough to be heard.
const maxTileFacts = 2

// Overview is what an overview picture shows, for the ear.
type Overview struct {
	Tiles    []Tile   // in reading order: left to right, then top to bottom
	Cols     int      // tiles per row
	Beyond   []string // the cameras beyond the grid, each named aloud
	Withheld []string // why each exposed camera not drawn is withheld, a sentence each
}

// Empty is why a camera's place in an overview is empty.
type Empty int

// Why a tile is empty.
const (
	NotEmpty         Empty = iota // the camera's picture is shown
	EmptyOff                      // turned off in Home Assistant
	EmptyUnavailable              // Home Assistant says it is unavailable
	EmptyLate                     // no picture within the overview's wait
	EmptyFailed                   // no usable picture
)

// Tile is one camera's place in an overview.
type Tile struct {
	Camera   string // the camera named aloud
	Area     string // its area, when it says more than the name; or ""
	Row, Col int    // from 0, top left
	Empty    Empty
	Facts    []string // what nearby exposed sensors report, a sentence each
	Damaged  bool     // only the part of its picture that decodes is drawn
}

// More counts the cameras beyond the grid.
func (o Overview) More() int { return len(o.Beyond) }

// Say tells what the overview shows, one sentence per camera from its
// sensors, for a listener who never sees the picture.
func (o Overview) Say(lang voice.Lang) string {
	var out []string
	empty := 0
	for _, t := range o.Tiles {
		if t.Empty != NotEmpty {
			empty++
		}
	}
	n := len(o.Tiles)
	switch {
	case n == 1:
		out = append(out, lang.Pick("This picture shows the one camera I can see, labelled with its name.", "Cette image montre la seule caméra que je vois, avec son nom."))
	case empty == 0:
		out = append(out, voice.Sentence(lang.Pick(
			"This picture shows "+lang.Number(n)+" cameras side by side, each labelled with its number and name",
			"Cette image montre "+lang.Number(n)+" caméras côte à côte, chacune avec son numéro et son nom")))
	case empty == n:
		out = append(out, voice.Sentence(lang.Pick(
			"This picture shows "+lang.Number(n)+" cameras side by side, each labelled with its number and name; none of them has a picture",
			"Cette image montre "+lang.Number(n)+" caméras côte à côte, chacune avec son numéro et son nom; aucune n'a d'image")))
	default:
		out = append(out, voice.Sentence(lang.Pick(
			"This picture shows "+lang.Number(n)+" cameras side by side, each labelled with its number and name; "+lang.Number(empty)+" of them "+voice.Plural(empty, "has", "have")+" no picture",
			"Cette image montre "+lang.Number(n)+" caméras côte à côte, chacune avec son numéro et son nom; "+voice.Plural(empty, "une n'a pas d'image", lang.Number(empty)+" n'ont pas d'image"))))
	}
	said := map[Empty]bool{} // why a tile is empty, and what to do, is said once
	for i, t := range o.Tiles {
		out = append(out, t.say(lang, i+1, o.where(lang, t), said[t.Empty]))
		said[t.Empty] = true
	}
	if o.More() > 0 {
		out = append(out, o.sayBeyond(lang))
	}
	out = append(out, o.Withheld...)
	out = append(out, lang.Pick(
		"These facts come from Home Assistant's sensors; I have not looked at what the pictures show. Ask for one camera to see it larger, or for a part of it to see it closer.",
		"Ces faits viennent des capteurs de Home Assistant; je n'ai pas regardé ce que montrent les images. Demandez une caméra pour la voir en grand, ou une partie pour la voir de plus près."))
	return voice.Paragraph(out...)
}

// maxBeyondNamed bounds the cameras beyond the grid said by name.
const maxBeyondNamed = 4

// sayBeyond says which cameras do not fit in the grid, by name, so that a
// listener can ask for one; past a few, the list of cameras has the rest.
func (o Overview) sayBeyond(lang voice.Lang) string {
	names := o.Beyond[:min(len(o.Beyond), maxBeyondNamed)]
	n := lang.Number(o.More())
	switch {
	case o.More() == 1:
		return voice.Sentence(lang.Pick(names[0]+" does not fit in this picture; ask for it by name", names[0]+" ne tient pas dans cette image; demandez-la par son nom"))
	case o.More() <= maxBeyondNamed:
		return voice.Sentence(lang.Pick(
			n+" more cameras do not fit in this picture: "+lang.List(names)+"; ask for one by name",
			n+" autres caméras ne tiennent pas dans cette image : "+lang.List(names)+"; demandez-en une par son nom"))
	}
	return voice.Sentence(lang.Pick(
		n+" more cameras do not fit in this picture, among them "+lang.List(names)+"; ask for one by name, or for the list of cameras to hear them all",
		n+" autres caméras ne tiennent pas dans cette image, dont "+lang.List(names)+"; demandez-en une par son nom, ou la liste des caméras pour les entendre toutes"))
}

// emptyTileWords say why a camera's place is empty: the first time with
// what to do, and again, for a later camera empty for the same reason, in
// fewer words.
var emptyTileWords = map[Empty]struct{ first, again Pair }{
	EmptyOff: {
		Pair{", turned off in Home Assistant, so its place is empty until someone turns it on",
			", éteinte dans Home Assistant, sa place reste donc vide jusqu'à ce qu'on la rallume"},
		Pair{", also turned off in Home Assistant",
			", elle aussi éteinte dans Home Assistant"}},
	EmptyUnavailable: {
		Pair{", which Home Assistant says is unavailable, so its place is empty; this often passes when the camera is back on the network",
			", que Home Assistant dit indisponible, sa place est donc vide; ça passe souvent quand la caméra revient sur le réseau"},
		Pair{", which Home Assistant also says is unavailable",
			", que Home Assistant dit aussi indisponible"}},
	EmptyLate: {
		Pair{", which sent no picture in time, so its place is empty; this is usually brief, and asking for this camera alone usually works",
			", qui n'a pas envoyé d'image à temps, sa place est donc vide; c'est généralement bref, et demander cette caméra seule fonctionne d'habitude"},
		Pair{", which sent no picture in time either",
			", qui n'a pas non plus envoyé d'image à temps"}},
	EmptyFailed: {
		Pair{", which gave no usable picture just now, so its place is empty; try this camera alone in a moment",
			", qui n'a pas donné d'image utilisable, sa place est donc vide; réessayez cette caméra seule dans un instant"},
		Pair{", which gave no usable picture either",
			", qui n'a pas non plus donné d'image utilisable"}},
}

// emptyTileLabels are the words drawn in an empty tile of the picture.
var emptyTileLabels = map[Empty]Pair{
	EmptyOff:         {"turned off", "éteinte"},
	EmptyUnavailable: {"unavailable", "indisponible"},
	EmptyLate:        {"no picture in time", "pas d'image à temps"},
	EmptyFailed:      {"no picture", "pas d'image"},
}

// Label is what an empty tile of the overview picture shows, or "" for a
// tile that shows its camera's picture.
func (e Empty) Label(lang voice.Lang) string { return emptyTileLabels[e].In(lang) }

// say is one camera's sentence: where it is in the picture, which camera,
// and what its nearby sensors report or why its place is empty; again when
// an earlier tile was empty for the same reason, whose advice then holds.
func (t Tile) say(lang voice.Lang, n int, where string, again bool) string {
	name := t.Camera
	if t.Area != "" {
		name += lang.Pick(", in the ", ", dans la pièce ") + Quote(lang, t.Area)
	}
	num := lang.Number(n)
	head := lang.Pick("Number "+num, "Le numéro "+num)
	if where != "" {
		head += ", " + where + ","
	}
	head += lang.Pick(" is ", " est ") + name
	if w, ok := emptyTileWords[t.Empty]; ok {
		if again {
			return voice.Sentence(head + w.again.In(lang))
		}
		return voice.Sentence(head + w.first.In(lang))
	}
	var facts []string
	for _, f := range t.Facts {
		if len(facts) == maxTileFacts {
			break
		}
		facts = append(facts, clause(f))
	}
	if t.Damaged {
		facts = append([]string{lang.Pick("its picture came damaged from the camera, so part of it is grey", "son image est arrivée abîmée de la caméra, une partie est donc grise")}, facts...)
	}
	if len(facts) == 0 {
		return voice.Sentence(head)
	}
	return voice.Sentence(head + "; " + lang.List(facts))
}

// where names a tile's place in the grid as people say it: "top left",
// "bottom centre", or by row and column in a grid larger than three by three.
func (o Overview) where(lang voice.Lang, t Tile) string {
	cols := max(o.Cols, 1)
	rows := (len(o.Tiles) + cols - 1) / cols
	if rows > 3 || cols > 3 {
		r, c := lang.Number(t.Row+1), lang.Number(t.Col+1)
		return lang.Pick("row "+r+", column "+c, "rangée "+r+", colonne "+c)
	}
	horiz := map[int][]string{1: {""}, 2: {"left", "right"}, 3: {"left", "centre", "right"}}[cols][t.Col]
	vert := map[int][]string{1: {""}, 2: {"top", "bottom"}, 3: {"top", "middle", "bottom"}}[rows][t.Row]
	return strings.TrimSpace(lang.Pick(vert+" "+horiz,
		map[string]string{"top": "en haut", "middle": "au milieu", "bottom": "en bas"}[vert]+" "+
			map[string]string{"left": "à gauche", "centre": "au centre", "right": "à droite"}[horiz]))
}

// clause turns a sentence into a clause that can follow a semicolon: its
// full stop dropped and a leading "The" lowered.
func clause(s string) string {
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	if rest, ok := strings.CutPrefix(s, "The "); ok {
		return "the " + rest
	}
	return s
}

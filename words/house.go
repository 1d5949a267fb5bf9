package words

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"maison/voice"
)

// Device is one device exposed to Assist, as a sentence says it: the facts
// assist gathers from Home Assistant's live context and websocket states.
type Device struct {
	// ID is the entity id when the device is known by identity; "" when
	// only its words are known: it is then counted, never said.
	ID         string
	Doubt      Doubt             // why ID is "": 0 when known by identity
	Names      []string          // its name first, then its aliases
	Area       string            // its area's name, or ""
	Domain     string            // light, lock, camera, ...
	State      string            // as Home Assistant says it: "on", "locked", "21.5"
	Attributes map[string]string // brightness, unit_of_measurement, ...
	Class      string            // its device class, or ""
	Changed    time.Time         // its last change; zero when unknown
}

// Name is the device's first name, or "".
func (d Device) Name() string {
	if len(d.Names) == 0 {
		return ""
	}
	return d.Names[0]
}

// Doubt is why a device exposed to Assist is known by its words only: it
// could not be tied to one entity id (assist.Resolve).
type Doubt int

const (
	// DoubtNoMatch: no entity has these words (a name format maison does
	// not know, or a state that came and went).
	DoubtNoMatch Doubt = iota + 1
	// DoubtShared: several entities have these words.
	DoubtShared
	// DoubtUnknownExposure: the one entity with these words has no registry
	// entry, or its entry stores no choice, so its exposure cannot be read.
	DoubtUnknownExposure
	// DoubtChanged: only its words are known to maison, and its state or
	// device class differs from the one entity with the same words.
	DoubtChanged
)

// maxName bounds a name read from Home Assistant before it is spoken.
const maxName = 80

// Name makes a name read from Home Assistant safe to say: cleaned and bounded.
// Answers carry it through Quote, as quoted data.
func Name(s string) string { return voice.Clean(s, maxName) }

// Quote is a name, state or other text read from Home Assistant as an
// answer carries it: cleaned, bounded and delimited as quoted data (“…” in
// English, « … » in French), its own quotation marks neutralised.
func Quote(lang voice.Lang, s string) string { return lang.Quote(s, maxName) }

// State says one device's state in a sentence, or "" when there is
// nothing worth saying.
func State(lang voice.Lang, d Device, now time.Time) string {
	name := Quote(lang, d.Name())
	if name == "" {
		return ""
	}
	the := func(s string) string { return lang.Pick("the "+s, s) }
	ago := ""
	if !d.Changed.IsZero() {
		ago = lang.Ago(now.Sub(d.Changed))
	}
	on := d.State == "on"
	switch d.Domain {
	case "binary_sensor":
		switch d.Class {
		case "motion", "moving":
			if on {
				return voice.Sentence(lang.Pick(the(name)+" detects movement right now", name+" détecte du mouvement en ce moment"))
			}
			if ago != "" {
				return voice.Sentence(lang.Pick(the(name)+" last detected movement "+ago, name+" a détecté du mouvement pour la dernière fois "+ago))
			}
			return voice.Sentence(lang.Pick(the(name)+" detects no movement", name+" ne détecte aucun mouvement"))
		case "occupancy", "presence":
			if on {
				return voice.Sentence(lang.Pick(the(name)+" detects someone right now", name+" détecte une présence en ce moment"))
			}
			if ago != "" {
				return voice.Sentence(lang.Pick(the(name)+" last detected someone "+ago, name+" a détecté une présence pour la dernière fois "+ago))
			}
			return voice.Sentence(lang.Pick(the(name)+" detects no one", name+" ne détecte personne"))
		case "door", "window", "garage_door", "opening":
			if on {
				return voice.Sentence(lang.Pick(the(name)+" is open", name+" est ouvert"))
			}
			return voice.Sentence(lang.Pick(the(name)+" is closed", name+" est fermé"))
		case "smoke", "gas", "carbon_monoxide", "moisture", "problem", "safety":
			if on {
				return voice.Sentence(lang.Pick(the(name)+" is raising an alarm", name+" signale une alerte"))
			}
			return voice.Sentence(lang.Pick(the(name)+" is clear", name+" ne signale rien"))
		}
	case "light":
		if on {
			if b, err := strconv.ParseFloat(d.Attributes["brightness"], 64); err == nil && b > 0 {
				pct := int(math.Round(b / 255 * 100))
				return voice.Sentence(lang.Pick(the(name)+" is on at "+lang.Number(pct)+" percent", name+" est allumée à "+lang.Number(pct)+" pour cent"))
			}
			return voice.Sentence(lang.Pick(the(name)+" is on", name+" est allumée"))
		}
		return voice.Sentence(lang.Pick(the(name)+" is off", name+" est éteinte"))
	case "lock":
		return voice.Sentence(lang.Pick(the(name)+" is "+stateWords(lang, d.State), name+" est "+stateWords(lang, d.State)))
	case "cover":
		return voice.Sentence(lang.Pick(the(name)+" is "+stateWords(lang, d.State), name+" est "+stateWords(lang, d.State)))
	case "sensor":
		if v, err := strconv.ParseFloat(d.State, 64); err == nil {
			unit := d.Attributes["unit_of_measurement"]
			return voice.Sentence(lang.Pick(the(name)+" reads "+lang.Measure(v, unit), name+" indique "+lang.Measure(v, unit)))
		}
	case "camera":
		return voice.Sentence(lang.Pick(the(name)+" camera is "+stateWords(lang, d.State), "la caméra "+name+" est "+stateWords(lang, d.State)))
	}
	if d.State == "" || d.State == "unknown" {
		return ""
	}
	return voice.Sentence(lang.Pick(the(name)+" is "+stateWords(lang, d.State), name+" : "+stateWords(lang, d.State)))
}

// stateWords says a state Home Assistant reported: a state maison knows in
// its own words, any other text as quoted data.
func stateWords(lang voice.Lang, s string) string {
	fr := frenchState(s)
	if fr == "" {
		return Quote(lang, s)
	}
	return lang.Pick(strings.ReplaceAll(s, "_", " "), fr)
}

// frenchState is a state maison knows, in French; "" for any other text.
func frenchState(s string) string {
	switch s {
	case "on":
		return "allumé"
	case "off":
		return "éteint"
	case "open":
		return "ouvert"
	case "closed":
		return "fermé"
	case "opening":
		return "en train de s'ouvrir"
	case "closing":
		return "en train de se fermer"
	case "locked":
		return "verrouillé"
	case "unlocked":
		return "déverrouillé"
	case "jammed":
		return "bloqué"
	case "locking":
		return "en train de se verrouiller"
	case "unlocking":
		return "en train de se déverrouiller"
	case "disarmed":
		return "désarmé"
	case "armed_away":
		return "armé en mode absence"
	case "armed_home":
		return "armé en mode présence"
	case "armed_night":
		return "armé en mode nuit"
	case "armed_vacation":
		return "armé en mode vacances"
	case "arming":
		return "en train de s'armer"
	case "pending":
		return "sur le point de se déclencher"
	case "triggered":
		return "déclenché"
	case "idle":
		return "en veille"
	case "recording":
		return "en train d'enregistrer"
	case "streaming":
		return "en direct"
	case "unavailable":
		return "indisponible"
	}
	return ""
}

// priority orders what a person coming home wants to hear first.
func priority(d Device, now time.Time) int {
	switch {
	case d.Domain == "binary_sensor" && d.State == "on" && slices.Contains([]string{"smoke", "gas", "carbon_monoxide", "moisture", "problem", "safety"}, d.Class):
		return 0
	case isOpen(d):
		return 1
	case d.Domain == "lock" && d.State != "locked":
		return 2
	case d.Domain == "light" && d.State == "on":
		return 3
	case d.Domain == "sensor" && d.Attributes["unit_of_measurement"] != "" && strings.Contains(d.Attributes["unit_of_measurement"], "°"):
		return 4
	case isMotion(d) && (d.State == "on" || (!d.Changed.IsZero() && now.Sub(d.Changed) < time.Hour)):
		return 5
	}
	return 6
}

// saidInSummary says whether House's first sentence, naming d as open
// or not locked, says all its own sentence would: an open door, window or
// cover, an unlocked lock. One opening or jammed is said again, with that.
func saidInSummary(d Device) bool {
	switch d.Domain {
	case "binary_sensor":
		return isOpen(d)
	case "cover", "valve":
		return d.State == "open"
	case "lock":
		return d.State == "unlocked"
	}
	return false
}

func isOpen(d Device) bool {
	switch d.Domain {
	case "cover", "valve":
		return d.State == "open" || d.State == "opening"
	case "binary_sensor":
		return d.State == "on" && slices.Contains([]string{"door", "window", "garage_door", "opening"}, d.Class)
	}
	return false
}

func isMotion(d Device) bool {
	return slices.Contains([]string{"motion", "occupancy", "presence", "moving"}, d.Class)
}

// House says the state of the house, most important first, with a first
// sentence that is enough on its own. At most limit devices are described;
// the rest are counted. Cameras are left out; a device known by its words
// alone is counted, never said.
func House(lang voice.Lang, devices []Device, now time.Time, limit int) string {
	if len(devices) == 0 {
		return lang.Pick(
			"Nothing in the house is shared with me. An admin can expose devices to Assist in Home Assistant under Settings, Voice assistants, Expose.",
			"Rien dans la maison ne m'est partagé. Un administrateur peut exposer des appareils à Assist dans Home Assistant, sous Paramètres, Assistants vocaux, Exposer.")
	}
	type item struct {
		d Device
		p int
	}
	items := make([]item, 0, len(devices))
	withheld := 0
	for _, d := range devices {
		if d.Domain == "camera" {
			continue // cameras have their own tools; their idle state tells nothing here
		}
		if d.ID == "" {
			// Known by its words alone: which entity it is, and so whether
			// it may be shown, cannot be confirmed. It is counted, not said.
			withheld++
			continue
		}
		items = append(items, item{d, priority(d, now)})
	}
	slices.SortStableFunc(items, func(a, b item) int { return a.p - b.p })

	var open, unlocked, lightsOn []string
	for _, it := range items {
		switch {
		case isOpen(it.d):
			open = append(open, Quote(lang, it.d.Name()))
		case it.d.Domain == "lock" && it.d.State != "locked":
			unlocked = append(unlocked, Quote(lang, it.d.Name()))
		case it.d.Domain == "light" && it.d.State == "on":
			lightsOn = append(lightsOn, Quote(lang, it.d.Name()))
		}
	}
	var first []string
	if len(open) > 0 {
		first = append(first, lang.Pick(lang.List(the(open))+" "+isAre(len(open))+" open", lang.List(open)+" : ouvert"))
	}
	if len(unlocked) > 0 {
		first = append(first, lang.Pick(lang.List(the(unlocked))+" "+isAre(len(unlocked))+" not locked", lang.List(unlocked)+" : pas verrouillé"))
	}
	if len(open) == 0 && len(unlocked) == 0 {
		first = append(first, lang.Pick("everything that reports it is closed and locked", "tout ce qui le signale est fermé et verrouillé"))
	}
	switch len(lightsOn) {
	case 0:
		first = append(first, lang.Pick("no lights are on", "aucune lumière n'est allumée"))
	case 1:
		first = append(first, lang.Pick("one light is on", "une lumière est allumée"))
	default:
		first = append(first, lang.Pick(lang.Number(len(lightsOn))+" lights are on", lang.Number(len(lightsOn))+" lumières sont allumées"))
	}
	out := []string{voice.Sentence(strings.Join(first, lang.Pick(", and ", ", et ")))}
	said, summarised := 0, 0
	for _, it := range items {
		if saidInSummary(it.d) {
			summarised++
		}
	}
	for _, it := range items {
		if said == limit {
			break
		}
		if saidInSummary(it.d) {
			continue // the first sentence said all there is to say of it
		}
		if s := State(lang, it.d, now); s != "" {
			out = append(out, s)
			said++
		}
	}
	if rest := len(items) - summarised - said; said == limit && rest > 0 {
		out = append(out, lang.Pick(
			"There are "+lang.Number(rest)+" more devices; ask about one room to hear them.",
			"Il y a encore "+lang.Number(rest)+" appareils; demandez une pièce pour les entendre."))
	}
	switch {
	case withheld == 1:
		out = append(out, lang.Pick(
			"One more device is shared with Assist, but I cannot confirm which one it is, so I leave it out; whoever runs maison can find it with maison check.",
			"Un autre appareil est partagé avec Assist, mais je ne peux pas confirmer lequel, alors je le laisse de côté; la personne qui gère maison peut le trouver avec maison check."))
	case withheld > 1:
		out = append(out, lang.Pick(
			lang.Number(withheld)+" more devices are shared with Assist, but I cannot confirm which ones they are, so I leave them out; whoever runs maison can find them with maison check.",
			lang.Number(withheld)+" autres appareils sont partagés avec Assist, mais je ne peux pas confirmer lesquels, alors je les laisse de côté; la personne qui gère maison peut les trouver avec maison check."))
	}
	return voice.Paragraph(out...)
}

func the(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "the " + n
	}
	return out
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

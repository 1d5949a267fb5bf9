package assist

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"maison/voice"
)

// Facts are what the live context leaves out about an entity and the
// websocket state of the same entity adds: its device class and last change.
type Facts struct {
	DeviceClass string
	LastChanged time.Time
}

// SayEntity says one entity's state in a sentence, or "" when there is
// nothing worth saying.
func SayEntity(lang voice.Lang, e Entity, f Facts, now time.Time) string {
	name := Quote(lang, e.Name())
	if name == "" {
		return ""
	}
	the := func(s string) string { return lang.Pick("the "+s, s) }
	ago := ""
	if !f.LastChanged.IsZero() {
		ago = lang.Ago(now.Sub(f.LastChanged))
	}
	on := e.State == "on"
	switch e.Domain {
	case "binary_sensor":
		switch f.DeviceClass {
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
			if b, err := strconv.ParseFloat(e.Attributes["brightness"], 64); err == nil && b > 0 {
				pct := int(math.Round(b / 255 * 100))
				return voice.Sentence(lang.Pick(the(name)+" is on at "+lang.Number(pct)+" percent", name+" est allumée à "+lang.Number(pct)+" pour cent"))
			}
			return voice.Sentence(lang.Pick(the(name)+" is on", name+" est allumée"))
		}
		return voice.Sentence(lang.Pick(the(name)+" is off", name+" est éteinte"))
	case "lock":
		return voice.Sentence(lang.Pick(the(name)+" is "+stateWords(lang, e.State), name+" est "+stateWords(lang, e.State)))
	case "cover":
		return voice.Sentence(lang.Pick(the(name)+" is "+stateWords(lang, e.State), name+" est "+stateWords(lang, e.State)))
	case "sensor":
		if v, err := strconv.ParseFloat(e.State, 64); err == nil {
			unit := e.Attributes["unit_of_measurement"]
			return voice.Sentence(lang.Pick(the(name)+" reads "+lang.Measure(v, unit), name+" indique "+lang.Measure(v, unit)))
		}
	case "camera":
		return voice.Sentence(lang.Pick(the(name)+" camera is "+stateWords(lang, e.State), "la caméra "+name+" est "+stateWords(lang, e.State)))
	}
	if e.State == "" || e.State == "unknown" {
		return ""
	}
	return voice.Sentence(lang.Pick(the(name)+" is "+stateWords(lang, e.State), name+" : "+stateWords(lang, e.State)))
}

// stateWords says a state Home Assistant reported: a state maison knows in
// its own words, any other text as quoted data.
func stateWords(lang voice.Lang, s string) string {
	fr := frenchState(s)
	if fr == "" {
		return Quote(lang, s)
	}
	if lang == voice.French {
		return fr
	}
	return strings.ReplaceAll(s, "_", " ")
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
func priority(e Entity, f Facts, now time.Time) int {
	switch {
	case e.Domain == "binary_sensor" && e.State == "on" && slices.Contains([]string{"smoke", "gas", "carbon_monoxide", "moisture", "problem", "safety"}, f.DeviceClass):
		return 0
	case isOpen(e, f):
		return 1
	case e.Domain == "lock" && e.State != "locked":
		return 2
	case e.Domain == "light" && e.State == "on":
		return 3
	case e.Domain == "sensor" && e.Attributes["unit_of_measurement"] != "" && strings.Contains(e.Attributes["unit_of_measurement"], "°"):
		return 4
	case isMotion(f) && (e.State == "on" || (!f.LastChanged.IsZero() && now.Sub(f.LastChanged) < time.Hour)):
		return 5
	}
	return 6
}

// saidInSummary says whether SayHouse's first sentence, naming e as open
// or not locked, says all its own sentence would: an open door, window or
// cover, an unlocked lock. One opening or jammed is said again, with that.
func saidInSummary(e Entity, f Facts) bool {
	switch e.Domain {
	case "binary_sensor":
		return isOpen(e, f)
	case "cover", "valve":
		return e.State == "open"
	case "lock":
		return e.State == "unlocked"
	}
	return false
}

func isOpen(e Entity, f Facts) bool {
	switch e.Domain {
	case "cover", "valve":
		return e.State == "open" || e.State == "opening"
	case "binary_sensor":
		return e.State == "on" && slices.Contains([]string{"door", "window", "garage_door", "opening"}, f.DeviceClass)
	}
	return false
}

func isMotion(f Facts) bool {
	return slices.Contains([]string{"motion", "occupancy", "presence", "moving"}, f.DeviceClass)
}

// SayHouse says the state of the house, most important first, with a first
// sentence that is enough on its own. At most limit entities are described;
// the rest are counted.
func SayHouse(lang voice.Lang, entities []Entity, facts func(Entity) Facts, now time.Time, limit int) string {
	if len(entities) == 0 {
		return lang.Pick(
			"Nothing in the house is shared with me. An admin can expose devices to Assist in Home Assistant under Settings, Voice assistants, Expose.",
			"Rien dans la maison ne m'est partagé. Un administrateur peut exposer des appareils à Assist dans Home Assistant, sous Paramètres, Assistants vocaux, Exposer.")
	}
	type item struct {
		e Entity
		f Facts
		p int
	}
	items := make([]item, 0, len(entities))
	withheld := 0
	for _, e := range entities {
		if e.Domain == "camera" {
			continue // cameras have their own tools; their idle state tells nothing here
		}
		if e.ID == "" {
			// Known by its words alone: which entity it is, and so whether
			// it may be shown, cannot be confirmed. It is counted, not said.
			withheld++
			continue
		}
		f := facts(e)
		items = append(items, item{e, f, priority(e, f, now)})
	}
	slices.SortStableFunc(items, func(a, b item) int { return a.p - b.p })

	var open, unlocked, lightsOn []string
	for _, it := range items {
		switch {
		case isOpen(it.e, it.f):
			open = append(open, Quote(lang, it.e.Name()))
		case it.e.Domain == "lock" && it.e.State != "locked":
			unlocked = append(unlocked, Quote(lang, it.e.Name()))
		case it.e.Domain == "light" && it.e.State == "on":
			lightsOn = append(lightsOn, Quote(lang, it.e.Name()))
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
		if saidInSummary(it.e, it.f) {
			summarised++
		}
	}
	for _, it := range items {
		if said == limit {
			break
		}
		if saidInSummary(it.e, it.f) {
			continue // the first sentence said all there is to say of it
		}
		if s := SayEntity(lang, it.e, it.f, now); s != "" {
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

package words

import "maison/voice"

// The camera panel's words: what the MCP App view shows around maison's
// own sentences (those of camera_snapshot, under each picture). A field
// holding {camera} has the camera's name put in its place by the view,
// {time} the clock time the picture was taken (hours and minutes), {age}
// how long ago (JustNow, MinutesAgo, HoursAgo or DaysAgo), {n} a number.
// The view says the age as voice.Ago rounds it, so the label and the
// sentence under it ("The picture was taken a minute ago") agree.

// PanelPage is the camera panel's fixed text in one language, a field for
// each place the view shows one; it reaches the view as JSON.
type PanelPage struct {
	Lang       string `json:"-"`
	Title      string `json:"title"`
	Resource   string `json:"-"` // the panel's description in resources/list
	Refresh    string `json:"refresh"`
	RefreshAll string `json:"refresh_all"`
	RefreshOne string `json:"refresh_one"`
	Enlarge    string `json:"enlarge"`
	Shrink     string `json:"shrink"`
	Picture    string `json:"picture"`
	Taken      string `json:"taken"`
	JustNow    string `json:"just_now"`
	MinutesAgo string `json:"minutes_ago"`
	HoursAgo   string `json:"hours_ago"`
	DaysAgo    string `json:"days_ago"`
	Failed     string `json:"failed"`
}

// Panel is the camera panel's text in l.
func Panel(l voice.Lang) PanelPage {
	return PanelPage{
		Lang:  l.Pick("en", "fr-CA"),
		Title: l.Pick("Cameras", "Caméras"),
		Resource: l.Pick("The home's cameras as a panel beside the conversation: each picture with when it was taken and maison's spoken description, refreshed on request.",
			"Les caméras de la maison en panneau à côté de la conversation : chaque image avec le moment où elle a été prise et la description parlée de maison, actualisée sur demande."),
		Refresh:    l.Pick("Refresh", "Actualiser"),
		RefreshAll: l.Pick("Refresh all", "Tout actualiser"),
		RefreshOne: l.Pick("Refresh the picture of {camera}", "Actualiser l'image de {camera}"),
		Enlarge:    l.Pick("Show {camera} larger", "Agrandir {camera}"),
		Shrink:     l.Pick("Show {camera} smaller", "Réduire {camera}"),
		Picture:    l.Pick("Picture from {camera}", "Image de {camera}"),
		Taken:      l.Pick("Taken {time}, {age}", "Prise à {time}, {age}"),
		JustNow:    l.Pick("just now", "à l'instant"),
		MinutesAgo: l.Pick("{n} min ago", "il y a {n} min"),
		HoursAgo:   l.Pick("{n} h ago", "il y a {n} h"),
		DaysAgo:    l.Pick("{n} d ago", "il y a {n} j"),
		Failed: l.Pick("The panel could not reach maison just now, so this picture was not refreshed. This is usually brief; it does not mean anything is wrong at home. Try again in a moment.",
			"Le panneau n'a pas pu joindre maison, alors cette image n'a pas été actualisée. C'est généralement bref; ça ne veut pas dire qu'il y a un problème à la maison. Réessayez dans un instant."),
	}
}

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
		Lang:       say(l, "panel.panel.lang"),
		Title:      say(l, "panel.panel.title"),
		Resource:   say(l, "panel.panel.resource"),
		Refresh:    say(l, "panel.panel.refresh"),
		RefreshAll: say(l, "panel.panel.refresh_all"),
		RefreshOne: say(l, "panel.panel.refresh_one"),
		Enlarge:    say(l, "panel.panel.enlarge"),
		Shrink:     say(l, "panel.panel.shrink"),
		Picture:    say(l, "panel.panel.picture"),
		Taken:      say(l, "panel.panel.taken"),
		JustNow:    say(l, "panel.panel.just_now"),
		MinutesAgo: say(l, "panel.panel.minutes_ago"),
		HoursAgo:   say(l, "panel.panel.hours_ago"),
		DaysAgo:    say(l, "panel.panel.days_ago"),
		Failed:     say(l, "panel.panel.failed"),
	}
}

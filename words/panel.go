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
		Lang:       Key("panel.lang").In(l),
		Title:      Key("panel.title").In(l),
		Resource:   Key("panel.resource").In(l),
		Refresh:    Key("panel.refresh").In(l),
		RefreshAll: Key("panel.refresh_all").In(l),
		RefreshOne: Key("panel.refresh_one").In(l),
		Enlarge:    Key("panel.enlarge").In(l),
		Shrink:     Key("panel.shrink").In(l),
		Picture:    Key("panel.picture").In(l),
		Taken:      Key("panel.taken").In(l),
		JustNow:    Key("panel.just_now").In(l),
		MinutesAgo: Key("panel.minutes_ago").In(l),
		HoursAgo:   Key("panel.hours_ago").In(l),
		DaysAgo:    Key("panel.days_ago").In(l),
		Failed:     Key("panel.failed").In(l),
	}
}

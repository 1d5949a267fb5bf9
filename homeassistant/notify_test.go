package homeassistant_test

import (
	"errors"
	"testing"

	"maison/demo"
	"maison/homeassistant"
)

// Notify adds to Home Assistant's own notifications, replacing the entry of
// the same id; an action Home Assistant does not have is KindNotFound; a
// target that is neither is refused before anything is sent.
func TestNotify(t *testing.T) {
	t.Parallel()
	house, c := aiHouse(t, demo.Options{})
	n := homeassistant.Notification{Title: "maison asks for your approval", Message: "Open this link: https://maison.example/approve?r=x", URL: "https://maison.example/approve?r=x", Open: "Open", ID: "maison_approval"}
	for range 2 {
		if err := c.Notify(t.Context(), homeassistant.PersistentNotification, n); err != nil {
			t.Fatal(err)
		}
	}
	if got := house.Notifications(); len(got) != 1 || got[0] != (demo.Notification{ID: n.ID, Title: n.Title, Message: n.Message}) {
		t.Errorf("Home Assistant's notifications: %+v", got)
	}
	err := c.Notify(t.Context(), "notify.mobile_app_no_such_phone", n)
	if e := asError(t, err); e.Kind != homeassistant.KindNotFound {
		t.Errorf("an action Home Assistant does not have: %v", err)
	}
	for _, target := range []string{"mobile_app_phone", "notify.", "notify.My Phone", "light.kitchen"} {
		if err := c.Notify(t.Context(), target, n); !errors.Is(err, homeassistant.KindBadRequest) {
			t.Errorf("%q: %v", target, err)
		}
	}
	if len(house.Notifications()) != 1 {
		t.Errorf("a refused target reached Home Assistant: %+v", house.Notifications())
	}
}

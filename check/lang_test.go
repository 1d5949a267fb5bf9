package check_test

import (
	"strings"
	"testing"

	"maison/bridge"
	"maison/check"
	"maison/voice"
)

// maison check speaks the house's language (MAISON_LANG): its lines and
// Home Assistant's advice, the marks at their start (ok, note, FAIL)
// alike in every language.
func TestCheckSpeaksTheHousesLanguage(t *testing.T) {
	house := sharedHouse()
	for lang, want := range map[voice.Lang][]string{
		voice.German: {`ok    angemeldet als "Maison", kein Administrator`, "der Assist-Endpunkt antwortet mit 6 Werkzeugen",
			"Kamera Garage (camera.garage): abgerufen mit 1280x720, ", "Weder verkleinert noch neu kodiert", "Angepasst auf 1429x804",
			"note  Kamera Porch (camera.porch): in Home Assistant ausgeschaltet"},
		voice.French: {`ok    connecté en tant que "Maison", qui n'est pas administrateur`, "le point d'accès Assist répond avec 6 outils",
			"caméra Garage (camera.garage) : reçue en 1280x720, ", "Ajustée à 1429x804", "note  caméra Porch (camera.porch) : éteinte"},
	} {
		var out strings.Builder
		if !check.Run(t.Context(), check.Config{Bridge: bridge.Config{URL: house.URL, Token: house.UserToken(), Lang: lang}}, &out) {
			t.Errorf("%s: a healthy demo house fails the check:\n%s", lang, out.String())
		}
		for _, w := range want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: check output lacks %q:\n%s", lang, w, out.String())
			}
		}
	}
	ln := listen(t)
	url := "http://" + ln.Addr().String()
	ln.Close()
	var out strings.Builder
	check.Run(t.Context(), check.Config{Bridge: bridge.Config{URL: url, Token: "t", Lang: voice.German}}, &out)
	wants(t, out.String(), []string{"FAIL  Home Assistant unter " + url + " (unreachable): Home Assistant ist gerade über das Netzwerk nicht erreichbar.",
		"Führen Sie maison check noch einmal aus, sobald es antwortet."}, []string{"Check that", "Run maison check"})
}

package words

import (
	"strings"
	"testing"

	"maison/homeassistant"
	"maison/voice"
)

// The first sentence of an approval request says "sent" only of the places
// the link reached, and where the link is otherwise, in English and French.
func TestApprovalSaysWhereTheLinkWent(t *testing.T) {
	t.Parallel()
	pixel := Recipient{Phone: true, Name: "Pixel 7"}
	tablet := Recipient{Phone: true, Name: "Kitchen Tablet"}
	bell := Recipient{}
	lost := Recipient{Phone: true, Name: "lost phone", Why: homeassistant.KindServerError}
	gone := Recipient{Phone: true, Name: "old phone", Why: homeassistant.KindNotFound}
	for _, c := range []struct {
		sent   Sent
		en, fr string
	}{
		{Sent{},
			"The approval link is in the text of my answer, not sent to your phone: open it from this conversation, or say cancel.",
			"Le lien d'approbation est dans le texte de ma réponse, il n'a été envoyé à aucun téléphone : ouvrez-le depuis cette conversation, ou dites annuler."},
		{Sent{To: []Recipient{pixel}},
			"I've sent the approval link to your phone (“Pixel 7”): open it there, or say cancel.",
			"J'ai envoyé le lien d'approbation à votre téléphone (« Pixel 7 ») : ouvrez-le là, ou dites annuler."},
		{Sent{To: []Recipient{pixel, tablet, bell}},
			"I've sent the approval link to your phones (“Pixel 7” and “Kitchen Tablet”) and to Home Assistant's notifications: open it there, or say cancel.",
			"J'ai envoyé le lien d'approbation à vos téléphones (« Pixel 7 » et « Kitchen Tablet ») et aux notifications de Home Assistant : ouvrez-le là, ou dites annuler."},
		{Sent{To: []Recipient{bell}, Failed: []Recipient{lost}},
			"I've sent the approval link to Home Assistant's notifications: open it there, or say cancel. I could not send it to your phone (“lost phone”): Home Assistant could not deliver it; the approval itself is not affected.",
			"J'ai envoyé le lien d'approbation aux notifications de Home Assistant : ouvrez-le là, ou dites annuler. Je n'ai pas pu l'envoyer à votre téléphone (« lost phone ») : Home Assistant n'a pas pu le livrer; l'approbation elle-même n'est pas touchée."},
		{Sent{Failed: []Recipient{gone}},
			"I could not send the approval link to your phone (“old phone”): Home Assistant has no such notification, or it is unavailable, which lasts until whoever runs maison corrects its setting. The approval link is in the text of my answer: open it from this conversation, or say cancel.",
			"Je n'ai pas pu envoyer le lien d'approbation à votre téléphone (« old phone ») : Home Assistant n'a pas cette notification, ou elle est indisponible, ce qui dure tant que la personne qui gère maison n'a pas corrigé son réglage. Le lien d'approbation est dans le texte de ma réponse : ouvrez-le depuis cette conversation, ou dites annuler."},
		{Sent{Failed: []Recipient{lost, gone}},
			"I could not send the approval link to your phone (“lost phone”): Home Assistant could not deliver it; the approval itself is not affected. I could not send it to your phone (“old phone”): ",
			"Je n'ai pas pu envoyer le lien d'approbation à votre téléphone (« lost phone ») : Home Assistant n'a pas pu le livrer; l'approbation elle-même n'est pas touchée. Je n'ai pas pu l'envoyer à votre téléphone (« old phone ») : "},
	} {
		for _, l := range []struct {
			lang voice.Lang
			want string
		}{{voice.English, c.en}, {voice.French, c.fr}} {
			got := ApprovalAsked(l.lang, c.sent, map[voice.Lang]string{voice.English: "unlock the “Front Door”", voice.French: "déverrouiller « Front Door »"}[l.lang], "at 9 AM", "a-x")
			if !strings.HasPrefix(got, strings.TrimSuffix(l.want, " ")+" ") {
				t.Errorf("%s, %+v:\n got %q\nwant %q…", l.lang, c.sent, got, l.want)
			}
		}
	}
}

// A notify target that is not a phone (a tablet's notify entity, a
// notification service) is said by its name, never as "your phone".
func TestANotifyTargetThatIsNotAPhoneIsNotCalledOne(t *testing.T) {
	t.Parallel()
	phone := map[voice.Lang]string{voice.English: "phone", voice.French: "téléphone", voice.German: "Telefon"}
	for l, word := range phone {
		said := ApprovalAsked(l, Sent{To: []Recipient{{Name: "Kitchen Tablet"}}}, "unlock the “Front Door”", "at 5:00 PM", "a-x")
		if strings.Contains(said, word) || !strings.Contains(said, Quote(l, "Kitchen Tablet")) {
			t.Errorf("%s: %q", l, said)
		}
	}
}

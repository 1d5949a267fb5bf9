package voice

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"

	"maison/internal/visible"
)

// collapse trims s and turns each run of white space into one plain space.
// When keepNoBreak is set, a run made of a single no-break space (U+00A0,
// U+2007 or U+202F) is kept as it is, so French numbers stay whole.
func collapse(s string, keepNoBreak bool) string {
	var b strings.Builder
	b.Grow(len(s))
	run, lone := 0, rune(0)
	flush := func() {
		if run > 0 && b.Len() > 0 {
			if run == 1 && keepNoBreak && isNoBreak(lone) {
				b.WriteRune(lone)
			} else {
				b.WriteByte(' ')
			}
		}
		run = 0
	}
	for _, r := range s {
		if unicode.IsSpace(r) {
			run++
			lone = r
			continue
		}
		flush()
		b.WriteRune(r)
	}
	return b.String()
}

func isNoBreak(r rune) bool { return r == '\u00a0' || r == '\u2007' || r == '\u202f' }

// isCloser reports whether r may follow the end of a sentence: a closing
// quote (German closes with “ and ‘) or bracket.
func isCloser(r rune) bool { return strings.ContainsRune("\"'”’“‘»)", r) }

// endsSentence reports whether s ends with . ! ? or …, possibly followed by
// closing quotes or brackets.
func endsSentence(s string) bool {
	s = strings.TrimRightFunc(s, func(r rune) bool { return isCloser(r) || unicode.IsSpace(r) })
	r, _ := utf8.DecodeLastRuneInString(s)
	return strings.ContainsRune(".!?…", r) && s != ""
}

// Sentence tidies s into one sentence: trimmed, white space collapsed, the
// first letter capitalised (unless a digit comes first), and ending with
// . ! ? or … (a trailing comma, colon or semicolon becomes a full stop).
// A blank s gives "". Sentence(Sentence(s)) == Sentence(s).
func Sentence(s string) string {
	s = collapse(s, true)
	for i, r := range s {
		if unicode.IsLetter(r) {
			if u := unicode.ToUpper(r); u != r {
				s = s[:i] + string(u) + s[i+utf8.RuneLen(r):]
			}
			break
		}
		if unicode.IsDigit(r) {
			break
		}
	}
	if s == "" || endsSentence(s) {
		return s
	}
	if !isCloserEnd(s) {
		s = strings.TrimRight(s, ",;: ")
		if s == "" {
			return ""
		}
	}
	return s + "."
}

// Stopped is s ending a sentence inside a paragraph: s as it is when it
// already ends with . ! ? or … (closing quotes after it count), else with a
// full stop added after the closing quote: „Fertig.“ stays as it is, and
// „Fertig“ gains a full stop.
func Stopped(s string) string {
	if s == "" || endsSentence(s) {
		return s
	}
	return s + "."
}

func isCloserEnd(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return isCloser(r)
}

// Paragraph passes each sentence through [Sentence] and joins the non-empty
// ones with one space.
func Paragraph(sentences ...string) string {
	kept := make([]string, 0, len(sentences))
	for _, s := range sentences {
		if s = Sentence(s); s != "" {
			kept = append(kept, s)
		}
	}
	return strings.Join(kept, " ")
}

// Clean makes text read from Home Assistant (a name, a state, an attribute)
// safe to say, treating it strictly as data: nothing in it is interpreted.
// It gives the text as a person reading it sees it: a text with bidi
// embeddings, overrides, isolates or marks is first put in the order it
// displays, left to right ("\u202ekcol tnorf" reads "front lock"), and is
// read whole. It drops every [Invisible] character (controls, format
// characters, variation selectors, Hangul fillers, other default ignorable
// code points, private use) and invalid UTF-8; drops the characters that
// could be read as markup (` * ~ # [ ] { } < > \); turns _ and | into
// spaces; collapses white space; and, when max > 0, bounds the result to max
// runes, cutting at a word boundary where one is not too far back and ending
// with "…"; past what it needs to decide the cut, the input is not read.
// Clean(Clean(s, max), max) == Clean(s, max).
func Clean(s string, max int) string {
	if hasBidiControl(s) {
		s = displayed(s)
	}
	out := make([]rune, 0, min(len(s), 256))
	space := false // a space is due before the next rune kept
	for i, r := range s {
		if max > 0 && len(out) > max {
			break // enough to know where to cut: the rest is never read
		}
		switch {
		case r == utf8.RuneError:
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				continue // invalid UTF-8
			}
		case unicode.IsSpace(r), r == '_', r == '|':
			space = len(out) > 0
			continue
		case Invisible(r):
			continue // invisible, or able to reorder or hide what is said
		case strings.ContainsRune("`*~#[]{}<>\\", r):
			continue // markup
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, r)
	}
	if max <= 0 || len(out) <= max {
		return string(out)
	}
	return truncate(out, max)
}

// Visible gives text a client sent (a tool's name, a method, a header) as
// it may be repeated in an error or a log line: every [Invisible]
// character and invalid UTF-8 dropped, white space collapsed to single
// spaces, and, when max > 0, at most max runes, ending with "…" where cut
// ([visible.Text]). Unlike [Clean] it keeps markup characters and
// underscores and does not reorder.
func Visible(s string, max int) string { return visible.Text(s, max) }

// truncate cuts runes to at most max runes, "…" included. It cuts at the
// last word boundary when one lies in the second half of what fits, else in
// the middle of the word.
func truncate(runes []rune, max int) string {
	if max == 1 {
		return "…"
	}
	cut := max - 1
	if runes[cut] != ' ' {
		for i := cut - 1; i >= cut/2; i-- {
			if runes[i] == ' ' {
				cut = i
				break
			}
		}
	}
	// A combining mark stays with its base: drop both rather than split them.
	for cut > 0 && unicode.In(runes[cut], unicode.Mn, unicode.Me, unicode.Mc) {
		cut--
	}
	head := strings.TrimRightFunc(string(runes[:cut]), func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(",;:-–—", r)
	})
	return head + "…"
}

var (
	reURL       = regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://\S*|\bwww\.[a-z0-9-]+\.\S+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:local|lan|home|internal|arpa|com|org|net|io|ca|fr|dev|app)(?::\d+)?(?:/\S*)?\b`)
	reMdLink    = regexp.MustCompile(`\[[^\]\n]*\]\([^)\n]*\)`)
	reISO       = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b|\b\d{2}:\d{2}:\d{2}\b`)
	reEntity    = regexp.MustCompile(`\b(?:` + haDomains + `)\.[a-z0-9_]+\b`)
	reJSONKey   = regexp.MustCompile(`"[^"\n]*"\s*:\s*(?:"|-?\d|\[|\{|(?:true|false|null)\b)`)
	reListItem  = regexp.MustCompile(`^(?:[-*+•]|\d+[.)])\s`)
	markupRunes = map[rune]string{
		'`':  "markdown backtick `",
		'*':  "markdown asterisk *",
		'#':  "markdown heading or hash sign #",
		'|':  "table pipe |",
		'{':  "brace { (JSON or a template)",
		'}':  "brace } (JSON or a template)",
		'[':  "square bracket [ (markdown or a JSON array)",
		']':  "square bracket ] (markdown or a JSON array)",
		'<':  "angle bracket < (HTML or markup)",
		'>':  "angle bracket > (HTML or markup)",
		'_':  "underscore _ (a raw identifier or markdown emphasis)",
		'\\': "backslash \\",
		'•':  "bullet •",
		'\t': "tab (a table or aligned columns)",
	}
)

// haDomains are the Home Assistant entity domains recognised in entity ids.
const haDomains = `alarm_control_panel|assist_satellite|automation|binary_sensor|button|calendar|camera|climate|` +
	`conversation|counter|cover|date|datetime|device_tracker|event|fan|group|humidifier|image|input_[a-z]+|` +
	`lawn_mower|light|lock|media_player|notify|number|person|remote|scene|schedule|script|select|sensor|siren|` +
	`stt|sun|switch|text|time|timer|todo|tts|update|vacuum|valve|wake_word|water_heater|weather|zone`

// Speakable reports whether s is fit to be read aloud, naming the first
// offence found: markdown (# * ` | _ and [text](link)), JSON (braces,
// brackets, "key": value),
// a URL or host name, an ISO date or timestamp, an entity id such as
// light.kitchen, a table (pipes or tabs), a list with one item per line,
// control or invisible formatting characters, or an ending that is not . ! ?
// or … (closing quotes allowed). Several paragraphs separated by line breaks
// are accepted when every line ends like a sentence. It is meant for tests:
// every text block a tool returns should pass.
func Speakable(s string) error {
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("voice: not speakable: empty text")
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("voice: not speakable: invalid UTF-8")
	}
	for _, c := range []struct {
		re      *regexp.Regexp
		offence string
	}{
		{reMdLink, "markdown link"},
		{reURL, "URL or host name"},
		{reISO, "ISO date or timestamp"},
		{reEntity, "entity id"},
		{reJSONKey, "JSON key and value"},
	} {
		if loc := c.re.FindStringIndex(s); loc != nil {
			return offence(c.offence, s, loc[0], loc[1])
		}
	}
	for i, r := range s {
		if what, ok := markupRunes[r]; ok {
			return offence(what, s, i, i+utf8.RuneLen(r))
		}
		switch {
		case r == '\n' || r == '\r':
		case unicode.IsControl(r):
			return offence(fmt.Sprintf("control character %U", r), s, i, i+utf8.RuneLen(r))
		case Invisible(r):
			return offence(fmt.Sprintf("invisible formatting character %U", r), s, i, i+utf8.RuneLen(r))
		}
	}
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	if len(lines) > 1 {
		for _, line := range lines {
			if line = strings.TrimSpace(line); reListItem.MatchString(line) {
				return offence("list item on its own line", line, 0, len(line))
			}
		}
		for _, line := range lines {
			if line = strings.TrimSpace(line); line != "" && !endsSentence(line) {
				return offence("newline-separated list (a line that is not a sentence)", line, 0, len(line))
			}
		}
	}
	if t := strings.TrimSpace(s); !endsSentence(t) {
		return offence("does not end like a sentence (. ! ? or …)", t, len(t), len(t))
	}
	return nil
}

// offence builds Speakable's error, quoting up to 30 bytes either side of
// s[start:end], widened to rune boundaries.
func offence(what, s string, start, end int) error {
	from, to := max(start-30, 0), min(end+30, len(s))
	for from > 0 && !utf8.RuneStart(s[from]) {
		from--
	}
	for to < len(s) && !utf8.RuneStart(s[to]) {
		to++
	}
	return fmt.Errorf("voice: not speakable: %s near %q", what, s[from:to])
}

// quoteMarks are the characters a reader could take for the end of a quote:
// inside quoted data they become an apostrophe, so the data cannot close
// its own quotes and go on as maison's words.
const quoteMarks = "\"“”„‟«»‹›＂〝〞〟″‶❝❞⹂🙶🙷🙸ˮʺ〃"

// Quote delimits text read from Home Assistant (a name, a state, an AI's
// sentence) as quoted data: “…” in English, « … » in French. The text is
// first made safe by [Clean] (bounded to max runes when max > 0), then every
// quotation mark inside it, and anything drawn like one (opening and
// closing punctuation, their look-alikes), becomes an apostrophe; a word
// shaped like an entity id loses its dot, so the text stays for the ear.
// Empty text gives "".
func (l Lang) Quote(s string, max int) string {
	s = Clean(s, max)
	if s == "" {
		return ""
	}
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(quoteMarks, r) || unicode.In(r, unicode.Pi, unicode.Pf) {
			return '\''
		}
		return r
	}, s)
	s = reEntity.ReplaceAllStringFunc(s, func(id string) string { return strings.Replace(id, ".", " ", 1) })
	r := l.r()
	return r.open + s + r.close
}

// unaccent folds the accented Latin letters of French and its neighbours.
var unaccent = strings.NewReplacer(
	"à", "a", "â", "a", "ä", "a", "á", "a", "ã", "a", "å", "a", "é", "e", "è", "e", "ê", "e", "ë", "e",
	"î", "i", "ï", "i", "í", "i", "ì", "i", "ô", "o", "ö", "o", "ó", "o", "ò", "o", "õ", "o", "ø", "o",
	"ù", "u", "û", "u", "ü", "u", "ú", "u", "ç", "c", "œ", "oe", "æ", "ae", "ñ", "n", "ÿ", "y", "ß", "ss",
)

// Fold reduces a name to the words people would say for it, for comparing
// names: lowercase, Latin accents dropped, every character other than a
// letter or a digit turned into a space, spaces collapsed.
func Fold(s string) string {
	s = unaccent.Replace(strings.ToLower(s))
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		} else {
			b.WriteRune(' ')
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// wordSet makes a set of the words of s, for a language's common words.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// Language tells in which language maison speaks a short text is written,
// by its common words. ok is false when it cannot tell: too few such
// words, or as many of one language's as of another's.
func Language(text string) (lang Lang, ok bool) {
	counts := map[Lang]int{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r)
	}) {
		for l, r := range langs {
			if r.common[w] {
				counts[l]++
			}
		}
	}
	best, tie := Lang(""), false
	for _, l := range Langs() {
		switch {
		case counts[l] > counts[best]:
			best, tie = l, false
		case counts[l] == counts[best]:
			tie = true
		}
	}
	if counts[best] < 2 || tie {
		return "", false
	}
	return best, true
}

// isPySpace is white space as Python's str.strip and str.split see it:
// Unicode white space and the information separators U+001C to U+001F.
func isPySpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

// Loose reduces a name for comparing it as Home Assistant compares names
// (Python's strip and casefold: ß is ss, ligatures come apart), and a little
// more loosely still: every run of white space inside is one space. Two
// names Home Assistant takes as one are always equal here.
func Loose(s string) string {
	return strings.Join(strings.FieldsFunc(cases.Fold().String(s), isPySpace), " ")
}

// De is French « de » before s, elided before a vowel or a mute h: « de
// fermer », « d'ouvrir », « d'habiller ». Words starting with an aspirated
// h are not told apart (none is built with it).
func De(s string) string {
	r, _ := utf8.DecodeRuneInString(s)
	if strings.ContainsRune("aàâæeéèêëiîïoôœuùûüyÿhAÀÂÆEÉÈÊËIÎÏOÔŒUÙÛÜYŸH", r) {
		return "d'" + s
	}
	return "de " + s
}

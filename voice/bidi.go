package voice

import (
	"slices"
	"strings"

	"golang.org/x/text/unicode/bidi"

	"maison/internal/visible"
)

// Invisible reports whether r is one of the characters a person reading a
// name does not see, or that changes the order in which they see the rest
// (controls, format characters, variation selectors, other default
// ignorable code points, the braille blank, private use): the one rule,
// [visible.Invisible]. White space is not in the set: [Clean] collapses it
// instead.
func Invisible(r rune) bool { return visible.Invisible(r) }

// maxBidiDepth is the deepest explicit embedding level (UAX #9, BD2).
const maxBidiDepth = 125

// hasBidiControl reports whether s holds an explicit bidi formatting
// character: only then can what is displayed differ from what is stored
// for letters that are read left to right.
func hasBidiControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool {
		return r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069' || r == '\u200e' || r == '\u200f' || r == '\u061c'
	})
}

// displayed gives s in the order its characters display in a left-to-right
// page, read from left to right, with the explicit formatting characters
// gone: "\u202ekcol tnorf" gives "front lock". It follows the Unicode
// Bidirectional Algorithm (UAX #9) for what decides the order of letters:
// explicit levels (X1–X8), implicit levels of strong and number characters
// (W2, W7, I1, I2) and reordering (L2); neutrals take the direction of
// the strong text around them within a level (N1, N2), and isolating run
// sequences are not joined across isolates, which moves only spaces and
// punctuation. Each line is a paragraph of its own.
func displayed(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		body := strings.TrimRightFunc(line, func(r rune) bool { return r == '\n' || r == '\r' })
		b.WriteString(displayLine(body))
		b.WriteString(line[len(body):])
	}
	return b.String()
}

// bidiEntry is one entry of the directional status stack (X1).
type bidiEntry struct {
	level    int
	override bidi.Class // bidi.L, bidi.R, or bidi.ON for none
	isolate  bool
}

func displayLine(s string) string {
	runes := []rune(s)
	class := make([]bidi.Class, len(runes))
	for i, r := range runes {
		p, _ := bidi.LookupRune(r)
		class[i] = p.Class()
	}
	levels := make([]int, len(runes))
	removed := make([]bool, len(runes))
	stack := []bidiEntry{{level: 0, override: bidi.ON}}
	overflowIsolate, overflowEmbedding, validIsolate := 0, 0, 0
	next := func(odd bool) int {
		l := stack[len(stack)-1].level + 1
		if (l%2 == 1) != odd {
			l++
		}
		return l
	}
	for i := range runes {
		top := stack[len(stack)-1]
		switch c := class[i]; c {
		case bidi.RLE, bidi.LRE, bidi.RLO, bidi.LRO: // X2–X5
			removed[i] = true
			l := next(c == bidi.RLE || c == bidi.RLO)
			if l <= maxBidiDepth && overflowIsolate == 0 && overflowEmbedding == 0 {
				e := bidiEntry{level: l, override: bidi.ON}
				if c == bidi.RLO {
					e.override = bidi.R
				} else if c == bidi.LRO {
					e.override = bidi.L
				}
				stack = append(stack, e)
			} else if overflowIsolate == 0 {
				overflowEmbedding++
			}
		case bidi.RLI, bidi.LRI, bidi.FSI: // X5a–X5c
			levels[i], class[i] = top.level, bidi.ON
			rtl := c == bidi.RLI || c == bidi.FSI && firstStrongRTL(class[i+1:])
			l := next(rtl)
			if l <= maxBidiDepth && overflowIsolate == 0 && overflowEmbedding == 0 {
				validIsolate++
				stack = append(stack, bidiEntry{level: l, override: bidi.ON, isolate: true})
			} else {
				overflowIsolate++
			}
		case bidi.PDI: // X6a
			switch {
			case overflowIsolate > 0:
				overflowIsolate--
			case validIsolate > 0:
				overflowEmbedding = 0
				for !stack[len(stack)-1].isolate {
					stack = stack[:len(stack)-1]
				}
				stack = stack[:len(stack)-1]
				validIsolate--
			}
			top = stack[len(stack)-1]
			levels[i], class[i] = top.level, bidi.ON
		case bidi.PDF: // X7
			removed[i] = true
			switch {
			case overflowIsolate > 0:
			case overflowEmbedding > 0:
				overflowEmbedding--
			case !top.isolate && len(stack) > 1:
				stack = stack[:len(stack)-1]
			}
		case bidi.BN: // X9
			removed[i] = true
		default: // X6
			levels[i] = top.level
			if top.override != bidi.ON {
				class[i] = top.override
			}
		}
	}
	kept := make([]int, 0, len(runes))
	for i := range runes {
		if !removed[i] {
			kept = append(kept, i)
		}
	}
	resolveImplicit(kept, class, levels)
	// L2: from the highest level down to the lowest odd one, reverse every
	// run of characters at that level or higher.
	order := slices.Clone(kept)
	high, lowOdd := 0, maxBidiDepth+2
	for _, i := range kept {
		high = max(high, levels[i])
		if levels[i]%2 == 1 {
			lowOdd = min(lowOdd, levels[i])
		}
	}
	for l := high; l >= lowOdd; l-- {
		for a := 0; a < len(order); {
			if levels[order[a]] < l {
				a++
				continue
			}
			z := a
			for z < len(order) && levels[order[z]] >= l {
				z++
			}
			slices.Reverse(order[a:z])
			a = z
		}
	}
	out := make([]rune, 0, len(order))
	for _, i := range order {
		out = append(out, runes[i])
	}
	return string(out)
}

// firstStrongRTL reports whether the first strong character before the
// matching PDI is right to left (P2, P3, for FSI).
func firstStrongRTL(class []bidi.Class) bool {
	depth := 0
	for _, c := range class {
		switch c {
		case bidi.LRI, bidi.RLI, bidi.FSI:
			depth++
		case bidi.PDI:
			if depth == 0 {
				return false
			}
			depth--
		case bidi.L:
			if depth == 0 {
				return false
			}
		case bidi.R, bidi.AL:
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

// resolveImplicit gives each kept character its final level (W1, W2, W7,
// N1, N2, I1, I2), level run by level run.
func resolveImplicit(kept []int, class []bidi.Class, levels []int) {
	for a := 0; a < len(kept); {
		z := a
		for z < len(kept) && levels[kept[z]] == levels[kept[a]] {
			z++
		}
		run := kept[a:z]
		level := levels[run[0]]
		embedding := bidi.L
		if level%2 == 1 {
			embedding = bidi.R
		}
		// W1, W2, W7: marks take what they follow; numbers after Arabic
		// letters are Arabic numbers, after Latin ones they are Latin.
		strong, prev := embedding, embedding
		dir := make([]bidi.Class, len(run))
		for k, i := range run {
			c := class[i]
			if c == bidi.NSM {
				c = prev
			}
			switch c {
			case bidi.L, bidi.R:
				strong = c
			case bidi.AL:
				strong, c = bidi.AL, bidi.R
			case bidi.EN:
				if strong == bidi.AL {
					c = bidi.AN
				} else if strong == bidi.L {
					c = bidi.L
				}
			case bidi.AN:
			default:
				c = bidi.ON
			}
			dir[k], prev = c, c
		}
		// N1, N2: a run of neutrals between the same direction takes it,
		// else the embedding direction; numbers count as right to left.
		asStrong := func(c bidi.Class) bidi.Class {
			if c == bidi.EN || c == bidi.AN {
				return bidi.R
			}
			return c
		}
		for k := 0; k < len(dir); {
			if dir[k] != bidi.ON {
				k++
				continue
			}
			e := k
			for e < len(dir) && dir[e] == bidi.ON {
				e++
			}
			before, after := embedding, embedding
			if k > 0 {
				before = asStrong(dir[k-1])
			}
			if e < len(dir) {
				after = asStrong(dir[e])
			}
			c := embedding
			if before == after {
				c = before
			}
			for j := k; j < e; j++ {
				dir[j] = c
			}
			k = e
		}
		// I1, I2.
		for k, i := range run {
			switch {
			case level%2 == 0 && dir[k] == bidi.R:
				levels[i]++
			case level%2 == 0 && (dir[k] == bidi.EN || dir[k] == bidi.AN):
				levels[i] += 2
			case level%2 == 1 && dir[k] != bidi.R:
				levels[i]++
			}
		}
		a = z
	}
}

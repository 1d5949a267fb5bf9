package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// githubAnchor is the anchor GitHub gives a heading: lower case, spaces to
// hyphens, punctuation other than hyphens and underscores dropped.
func githubAnchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestInstallLinksResolve follows every link of the README and the app's
// documentation that stays in the repository: an anchor names a heading, a
// path names a file or folder.
func TestInstallLinksResolve(t *testing.T) {
	t.Parallel()
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading := regexp.MustCompile("(?m)^#+ (.+)$")
	for _, doc := range []string{"../../README.md", "../../homeassistant-app/DOCS.md"} {
		raw, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		text := string(raw)
		anchors := map[string]bool{}
		for _, h := range heading.FindAllStringSubmatch(text, -1) {
			anchors[githubAnchor(strings.ReplaceAll(h[1], "`", ""))] = true
		}
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			if path == "" {
				if !anchors[anchor] {
					t.Errorf("%s links to #%s, which no heading is", filepath.Base(doc), anchor)
				}
				continue
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(doc), path)); err != nil {
				t.Errorf("%s links to %s: %v", filepath.Base(doc), path, err)
			}
		}
	}
}

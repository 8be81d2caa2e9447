package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// projectTalk matches words that speak about the project's own bookkeeping
// (its issues and their targets) rather than to a user: "the issue",
// "issue 19", "the target", "targets of issue ...". The verb
// (a token the operator issues) and make or fuzz targets are fine.
var projectTalk = regexp.MustCompile(`(?i)\bthe issues?\b|\bissues?\s*#?\d|\bissue's|\btargets?\s+of\s+(the\s+)?issue|\bthe\s+targets?\b`)

// TestNoProjectTalk: the READMEs and every command's --help speak to users.
func TestNoProjectTalk(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		text := c.Short + "\n" + c.Long + "\n" + c.UsageString()
		for _, l := range strings.Split(text, "\n") {
			if projectTalk.MatchString(l) {
				t.Errorf("sdcopt %s --help: %q", c.CommandPath(), strings.TrimSpace(l))
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot())
	for _, name := range []string{"README.md", "bench/README.md", "docs/REFERENCE.md", "docs/REPRODUCE.md"} {
		b, err := os.ReadFile(filepath.Join("..", "..", name))
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(b), "\n") {
			if projectTalk.MatchString(l) {
				t.Errorf("%s:%d: %q", name, i+1, l)
			}
		}
	}
	// The pattern itself must catch what it is for.
	for _, bad := range []string{"the issue's target", "Before issue 19", "targets of the issue", "as in the issue"} {
		if !projectTalk.MatchString(bad) {
			t.Errorf("pattern misses %q", bad)
		}
	}
	for _, ok := range []string{"a token the operator issues", "every fuzz target", "Other targets: make bench"} {
		if projectTalk.MatchString(ok) {
			t.Errorf("pattern flags %q", ok)
		}
	}
}

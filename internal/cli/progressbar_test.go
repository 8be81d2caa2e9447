package cli

import (
	"strings"
	"testing"
)

func TestProgressBarLine(t *testing.T) {
	b := NewProgressBar(4, true)
	b.SetLabel("n=30")
	if l := b.Line(); !strings.HasPrefix(l, "[..............................] 0/4  n=30") {
		t.Errorf("start: %q", l)
	}
	b.Add(2)
	if l := b.Line(); !strings.HasPrefix(l, "[###############...............] 2/4") {
		t.Errorf("half: %q", l)
	}
	b.Add(2)
	if l := b.Line(); !strings.Contains(l, "4/4") || !strings.HasSuffix(l, "eta 0s") {
		t.Errorf("end: %q", l)
	}
	b.Finish() // quiet: draws nothing, must not panic
}

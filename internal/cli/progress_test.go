package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestProgressRateLimit: status lines closer than the interval are held
// back, the last one held back is printed by Flush, once.
func TestProgressRateLimit(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf, false)
	clock := time.Unix(0, 0)
	p.now = func() time.Time { return clock }
	p.Flush() // nothing held back yet
	// Lines at 0, 1, ..., 24 s with a 10 s interval: 0, 10, 20 printed,
	// 24 held back until Flush.
	for i := 0; i <= 24; i++ {
		clock = time.Unix(int64(i), 0)
		p.Printf("line %d", i)
	}
	p.Flush()
	p.Flush()
	want := "sdcopt: line 0\nsdcopt: line 10\nsdcopt: line 20\nsdcopt: line 24\n"
	if buf.String() != want {
		t.Errorf("printed %q, want %q", buf.String(), want)
	}
}

// TestProgressPlainCount: a counted task off a terminal prints plain,
// rate-limited lines and always its last step.
func TestProgressPlainCount(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf, false)
	clock := time.Unix(0, 0)
	p.now = func() time.Time { return clock }
	p.Start("bench", 4)
	for i := 1; i <= 4; i++ {
		clock = clock.Add(4 * time.Second)
		p.Add(1)
	}
	p.Finish()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	// Steps at 4, 8, 12 and 16 s: the first is printed, 8 and 12 s are
	// within 10 s of it, the last step is always printed.
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "sdcopt: bench: 1/4 (25 %)") || !strings.HasPrefix(lines[1], "sdcopt: bench: 4/4 (100 %), 16s elapsed") {
		t.Errorf("lines %q", lines)
	}
}

// TestProgressNil: a quiet reporter is nil and every method is a no-op.
func TestProgressNil(t *testing.T) {
	p := NewProgress(true)
	if p != nil {
		t.Fatal("quiet progress is not nil")
	}
	p.Printf("x")
	p.Start("x", 3)
	p.Add(1)
	p.Set(2)
	p.Describe("y")
	p.Flush()
	p.Finish()
}

// TestProgressTerminalBar: on a terminal the counted task is a bar that
// ends with its total.
func TestProgressTerminalBar(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf, true)
	p.Start("solve", 3)
	p.Add(3)
	p.Finish()
	if out := buf.String(); !strings.Contains(out, "sdcopt: solve") || !strings.Contains(out, "3/3") {
		t.Errorf("bar output %q", out)
	}
}

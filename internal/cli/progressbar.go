package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// ProgressBar draws "[#####.....] 12/60  label  elapsed, eta" on one line of
// a terminal, redrawn in place. When the writer is not a terminal (or the
// bar is quiet) it draws nothing, so logs and pipes stay clean.
type ProgressBar struct {
	w      io.Writer
	total  int
	done   int
	label  string
	start  time.Time
	active bool
}

// NewProgressBar returns a bar over total steps on stderr, drawn only when
// stderr is a terminal and quiet is false.
func NewProgressBar(total int, quiet bool) *ProgressBar {
	b := &ProgressBar{w: os.Stderr, total: total, start: time.Now()}
	if !quiet {
		if st, err := os.Stderr.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			b.active = true
		}
	}
	return b
}

// SetLabel names the step under way and redraws.
func (b *ProgressBar) SetLabel(label string) {
	b.label = label
	b.draw()
}

// Add marks n more steps done and redraws.
func (b *ProgressBar) Add(n int) {
	b.done += n
	b.draw()
}

// Finish ends the line.
func (b *ProgressBar) Finish() {
	if b.active {
		fmt.Fprintln(b.w)
		b.active = false
	}
}

// Line returns the bar's text (used by draw and by tests).
func (b *ProgressBar) Line() string {
	const width = 30
	filled := 0
	if b.total > 0 {
		filled = width * b.done / b.total
	}
	el := time.Since(b.start).Round(time.Second)
	eta := "?"
	if b.done > 0 && b.done < b.total {
		per := time.Since(b.start) / time.Duration(b.done)
		eta = (per * time.Duration(b.total-b.done)).Round(time.Second).String()
	} else if b.done >= b.total {
		eta = "0s"
	}
	return fmt.Sprintf("[%s%s] %d/%d  %s  elapsed %s, eta %s", strings.Repeat("#", filled), strings.Repeat(".", width-filled),
		b.done, b.total, b.label, el, eta)
}

func (b *ProgressBar) draw() {
	if !b.active {
		return
	}
	fmt.Fprintf(b.w, "\r\033[K%s", b.Line())
}

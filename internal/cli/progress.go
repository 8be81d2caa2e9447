package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Progress is the one style of progress reporting of every sdcopt command,
// on stderr: on a terminal a bar redrawn in place (github.com/schollz/
// progressbar) and status lines as they come, at most every
// TerminalInterval; otherwise (a log, a pipe) plain lines at most every
// PlainInterval; with quiet nothing at all. Methods are safe for
// concurrent use; a nil *Progress does nothing.
type Progress struct {
	mu       sync.Mutex
	w        io.Writer
	terminal bool
	interval time.Duration
	now      func() time.Time

	bar     *progressbar.ProgressBar
	label   string
	done    int
	total   int
	start   time.Time
	last    time.Time // last line printed
	pending string    // a status line held back by the rate limit
}

// Intervals between two progress lines.
const (
	TerminalInterval = 500 * time.Millisecond
	PlainInterval    = 10 * time.Second
)

// NewProgress returns the reporter of a command run; quiet silences it.
func NewProgress(quiet bool) *Progress {
	if quiet {
		return nil
	}
	return newProgress(os.Stderr, term.IsTerminal(int(os.Stderr.Fd())))
}

func newProgress(w io.Writer, terminal bool) *Progress {
	p := &Progress{w: w, terminal: terminal, interval: PlainInterval, now: time.Now}
	if terminal {
		p.interval = TerminalInterval
	}
	return p
}

// Printf reports a status line ("loading census", "iteration 12: ...").
// Lines closer together than the interval are held back; the last one
// held back is printed by Flush, by the next line that passes, or by
// Finish.
func (p *Progress) Printf(format string, args ...any) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	line := fmt.Sprintf(format, args...)
	now := p.now()
	if !p.last.IsZero() && now.Sub(p.last) < p.interval {
		p.pending = line
		return
	}
	p.printLocked(line, now)
}

// Flush prints the status line held back by the rate limit, if any.
func (p *Progress) Flush() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pending != "" {
		p.printLocked(p.pending, p.now())
	}
}

func (p *Progress) printLocked(line string, now time.Time) {
	if p.bar != nil {
		p.bar.Clear()
	}
	fmt.Fprintf(p.w, "sdcopt: %s\n", line)
	p.last, p.pending = now, ""
	if p.bar != nil {
		p.bar.RenderBlank()
	}
}

// Start begins a counted task of total steps named label (replacing the
// previous one).
func (p *Progress) Start(label string, total int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finishLocked()
	p.label, p.total, p.done, p.start = label, total, 0, p.now()
	if p.terminal {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription("sdcopt: "+label),
			progressbar.OptionShowCount(),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionSetWidth(30),
			progressbar.OptionSetRenderBlankState(true),
		)
	}
}

// Describe renames the step under way (the bar's description).
func (p *Progress) Describe(label string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.label = label
	if p.bar != nil {
		p.bar.Describe("sdcopt: " + label)
	}
}

// Add marks n more steps of the task done.
func (p *Progress) Add(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.setLocked(p.done + n)
}

// Set marks done steps of the task done.
func (p *Progress) Set(done int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.setLocked(done)
}

func (p *Progress) setLocked(done int) {
	p.done = done
	if p.bar != nil {
		p.bar.Set(done)
		return
	}
	now := p.now()
	if p.done < p.total && !p.last.IsZero() && now.Sub(p.last) < p.interval {
		return
	}
	p.printLocked(p.plainLine(now), now)
}

// plainLine is the counted task's state as one line.
func (p *Progress) plainLine(now time.Time) string {
	el := now.Sub(p.start).Round(time.Second)
	pct := 0
	if p.total > 0 {
		pct = 100 * p.done / p.total
	}
	return fmt.Sprintf("%s: %d/%d (%d %%), %s elapsed", p.label, p.done, p.total, pct, el)
}

// Finish ends the counted task (the bar's line) and prints a held-back
// status line.
func (p *Progress) Finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finishLocked()
	if p.pending != "" {
		p.printLocked(p.pending, p.now())
	}
}

func (p *Progress) finishLocked() {
	if p.bar != nil {
		p.bar.Finish()
		fmt.Fprintln(p.w)
		p.bar = nil
	}
	p.total, p.done = 0, 0
}

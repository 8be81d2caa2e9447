// Package readmetest runs the shell commands that the README and
// docs/REPRODUCE.md show, as written, so that every command a user copies
// works. Its test builds sdcopt (and sdcopt-pipeline when a block needs
// it) with the test's build tags, copies docs/ into a temporary working
// directory beside a link named shared to the benchmark data (so that
// ../shared/datasets and the --data NAME forms find it as they do from a
// checkout), puts the binaries first on PATH and runs every ```sh block
// in order, each with bash -e -o pipefail: a block passes when every
// command in it exits 0.
//
// A block may be preceded, on the line just above its fence, by a marker
// comment that the rendered page does not show:
//
//	<!-- readme-test: WORD ...; WORD ... -->
//
// with these words (a reason runs to the next ";" or the end):
//
//   - skip REASON: never run (installs system packages, needs a network or
//     a cluster); the reason is logged.
//   - slow REASON: run only when SDCOPT_README_SLOW=1 (paper
//     reproductions of minutes); the reason is logged otherwise.
//   - long: run only without -short.
//   - data: needs the shared benchmark data (also assumed for any block
//     that names ../shared/datasets or --data adult|census|tarragona|eia);
//     skipped when the data are absent.
//   - pipeline: needs sdcopt-pipeline (built once, on first use).
//   - background ADDR: a server; it is started in the background and the
//     next blocks run once ADDR accepts connections; it is stopped with
//     SIGTERM after the last block and must not exit before.
//   - creates FILE ...: files the block must leave, non-empty.
//   - prints TEXT: the block's output (stdout and stderr) must contain
//     TEXT (repeatable).
//
// The address 127.0.0.1:8080 in any block is replaced by a free loopback
// port, so that the test does not depend on port 8080 being free. A block
// that calls curl is skipped, saying so, where curl is not installed.
package readmetest

import (
	"bufio"
	"fmt"
	"strings"
)

// Block is one ```sh block of a Markdown file with its marker.
type Block struct {
	File string // the Markdown file, as named to Parse
	Line int    // line of the opening fence (1-based)
	Code string // the commands, with a final newline

	Skip       string   // reason never to run it ("" = run)
	Slow       string   // reason to run it only with SDCOPT_README_SLOW=1
	Long       bool     // run only without -short
	Data       bool     // needs the shared benchmark data
	Pipeline   bool     // needs sdcopt-pipeline
	Background string   // address a background server listens on
	Creates    []string // files the block must leave
	Prints     []string // texts the block's output must contain
}

// markerPrefix and markerSuffix delimit a marker comment.
const (
	markerPrefix = "<!-- readme-test:"
	markerSuffix = "-->"
)

// Parse returns the ```sh blocks of a Markdown text with their markers.
// Fences of other shell languages (bash, shell, console) are errors, so
// that no command escapes the test by its fence; so are a marker that is
// not on the line just above a ```sh fence, an unknown marker word and an
// unclosed fence.
func Parse(file, text string) ([]Block, error) {
	var blocks []Block
	var pending *Block // marker read, waiting for its fence
	pendingLine := 0
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		l := sc.Text()
		trimmed := strings.TrimSpace(l)
		if pending != nil && !strings.HasPrefix(trimmed, "```") {
			return nil, fmt.Errorf("%s:%d: a readme-test marker must be on the line just above a ```sh fence", file, pendingLine)
		}
		switch {
		case strings.HasPrefix(trimmed, markerPrefix):
			b, err := parseMarker(file, line, trimmed)
			if err != nil {
				return nil, err
			}
			pending, pendingLine = &b, line
		case strings.HasPrefix(trimmed, "```"):
			info := strings.Fields(strings.TrimPrefix(trimmed, "```"))
			lang := ""
			if len(info) > 0 {
				lang = info[0]
			}
			switch lang {
			case "bash", "shell", "console", "zsh", "shell-session":
				return nil, fmt.Errorf("%s:%d: a ```%s block: write commands in ```sh blocks (run by the README test) or output in plain ``` blocks", file, line, lang)
			}
			if lang != "sh" && pending != nil {
				return nil, fmt.Errorf("%s:%d: a readme-test marker must be on the line just above a ```sh fence, not ```%s", file, pendingLine, lang)
			}
			var b Block
			if pending != nil {
				b = *pending
			}
			pending = nil
			b.File, b.Line = file, line
			var code strings.Builder
			closed := false
			for sc.Scan() {
				line++
				if strings.TrimSpace(sc.Text()) == "```" {
					closed = true
					break
				}
				code.WriteString(sc.Text())
				code.WriteByte('\n')
			}
			if !closed {
				return nil, fmt.Errorf("%s:%d: the ``` block opened here is not closed", file, b.Line)
			}
			if lang != "sh" {
				continue
			}
			b.Code = code.String()
			if strings.TrimSpace(b.Code) == "" {
				return nil, fmt.Errorf("%s:%d: an empty ```sh block", file, b.Line)
			}
			if usesSharedData(b.Code) {
				b.Data = true
			}
			blocks = append(blocks, b)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	if pending != nil {
		return nil, fmt.Errorf("%s:%d: a readme-test marker must be on the line just above a ```sh fence", file, pendingLine)
	}
	return blocks, nil
}

// parseMarker reads one marker comment.
func parseMarker(file string, line int, l string) (Block, error) {
	var b Block
	body, ok := strings.CutSuffix(strings.TrimPrefix(l, markerPrefix), markerSuffix)
	if !ok {
		return b, fmt.Errorf("%s:%d: a readme-test marker must end with %s on the same line", file, line, markerSuffix)
	}
	for _, item := range strings.Split(body, ";") {
		f := strings.Fields(item)
		if len(f) == 0 {
			continue
		}
		rest := strings.Join(f[1:], " ")
		switch f[0] {
		case "skip", "slow":
			if rest == "" {
				return b, fmt.Errorf("%s:%d: readme-test %s needs a reason", file, line, f[0])
			}
			if f[0] == "skip" {
				b.Skip = rest
			} else {
				b.Slow = rest
			}
		case "long", "data", "pipeline":
			if rest != "" {
				return b, fmt.Errorf("%s:%d: readme-test %s takes no argument, got %q", file, line, f[0], rest)
			}
			switch f[0] {
			case "long":
				b.Long = true
			case "data":
				b.Data = true
			default:
				b.Pipeline = true
			}
		case "background":
			if len(f) != 2 {
				return b, fmt.Errorf("%s:%d: readme-test background needs one address (host:port)", file, line)
			}
			b.Background = f[1]
		case "prints":
			if rest == "" {
				return b, fmt.Errorf("%s:%d: readme-test prints needs a text", file, line)
			}
			b.Prints = append(b.Prints, strings.TrimSpace(strings.SplitN(strings.TrimSpace(item), " ", 2)[1]))
		case "creates":
			if len(f) < 2 {
				return b, fmt.Errorf("%s:%d: readme-test creates needs at least one file", file, line)
			}
			b.Creates = append(b.Creates, f[1:]...)
		default:
			return b, fmt.Errorf("%s:%d: unknown readme-test marker word %q (skip, slow, long, data, pipeline, background, creates, prints)", file, line, f[0])
		}
	}
	return b, nil
}

// sharedNames are the --data names that read the shared benchmark data.
var sharedNames = []string{"adult", "census", "tarragona", "eia"}

// usesSharedData reports whether commands read the shared benchmark data.
func usesSharedData(code string) bool {
	if strings.Contains(code, "shared/datasets") {
		return true
	}
	f := strings.Fields(code)
	for i := 0; i+1 < len(f); i++ {
		if f[i] != "--data" {
			continue
		}
		for _, name := range strings.Split(f[i+1], ",") {
			for _, s := range sharedNames {
				if name == s {
					return true
				}
			}
		}
	}
	return false
}

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/internal/cli"
)

// Signal tests: every long-running command, interrupted by SIGINT or
// SIGTERM at several points (early, in the middle of the computation,
// inside each engine, while its outputs are being written), must stop
// with exit 130 / 143, say so, leave no temporary file and no partial set
// of outputs, and never crash (a C engine's signal handler once made the
// Go runtime die with "non-Go code set up signal handler without
// SA_ONSTACK flag").

// marketSplitMPS writes a market split instance (Cornuéjols & Dawande):
// m equality rows over n binaries with coefficients in 0..99 and right-
// hand sides half the row sums, slack pairs penalized. Instances with
// n = 10(m-1) are notoriously hard for branch and bound: every engine
// runs for a long time.
func marketSplitMPS(m, n int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 1))
	a := make([][]int, m)
	rhs := make([]int, m)
	for i := range a {
		a[i] = make([]int, n)
		for j := range a[i] {
			a[i][j] = r.IntN(100)
			rhs[i] += a[i][j]
		}
		rhs[i] /= 2
	}
	var b strings.Builder
	b.WriteString("NAME marketsplit\nROWS\n N obj\n")
	for i := 0; i < m; i++ {
		fmt.Fprintf(&b, " E r%d\n", i)
	}
	b.WriteString("COLUMNS\n    M1 'MARKER' 'INTORG'\n")
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			fmt.Fprintf(&b, "    x%d r%d %d\n", j, i, a[i][j])
		}
	}
	b.WriteString("    M2 'MARKER' 'INTEND'\n")
	for i := 0; i < m; i++ {
		fmt.Fprintf(&b, "    sp%d obj 1 r%d 1\n    sn%d obj 1 r%d -1\n", i, i, i, i)
	}
	b.WriteString("RHS\n")
	for i := 0; i < m; i++ {
		fmt.Fprintf(&b, "    rhs r%d %d\n", i, rhs[i])
	}
	b.WriteString("BOUNDS\n")
	for j := 0; j < n; j++ {
		fmt.Fprintf(&b, " UP bnd x%d 1\n", j)
	}
	b.WriteString("ENDATA\n")
	return b.String()
}

// randomTableCSV writes a dims[0] x dims[1] x ... table with seeded counts
// in long CSV, variables V1, V2, ...
func randomTableCSV(dims []int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 2))
	var b strings.Builder
	for i := range dims {
		fmt.Fprintf(&b, "V%d,", i+1)
	}
	b.WriteString("count\n")
	idx := make([]int, len(dims))
	for {
		for i, v := range idx {
			fmt.Fprintf(&b, "l%d_%d,", i+1, v)
		}
		fmt.Fprintf(&b, "%d\n", r.IntN(20))
		i := len(dims) - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < dims[i] {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return b.String()
		}
	}
}

// qiCSV writes n seeded records with two numeric and two categorical
// quasi-identifiers.
func qiCSV(n int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 3))
	var b strings.Builder
	b.WriteString("age,hours,sex,job,id\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d,%d,%s,j%d,%d\n", 18+r.IntN(60), 1+r.IntN(80), []string{"M", "F"}[r.IntN(2)], r.IntN(12), i)
	}
	return b.String()
}

// signalCase is a long-running command line; outputs are the files it
// would write.
type signalCase struct {
	name    string
	files   map[string]string // inputs to write first
	args    []string
	outputs []string
	// delays at which a signal is sent; a negative delay means "as soon
	// as a temporary output file appears" (the output is being written).
	delays []time.Duration
	engine bool // the command runs a C engine: repeated more often
}

const duringWrite = -1

func signalCases() []signalCase {
	ms := marketSplitMPS(4, 30, 7)
	table := randomTableCSV([]int{4, 4, 4, 4}, 5)
	allPairs := "V1:V2,V1:V3,V1:V4,V2:V3,V2:V4,V3:V4"
	early, mid := 150*time.Millisecond, 900*time.Millisecond
	cases := []signalCase{
		{name: "microagg writing outputs", args: []string{"microagg", "--data", "synthetic:gauss-100000-10-5", "--k", "3", "--method", "projection", "--out", "p.csv", "--groups", "g.csv"},
			outputs: []string{"p.csv", "g.csv"}, delays: []time.Duration{duringWrite, duringWrite, early}},
		{name: "microagg icsm", args: []string{"microagg", "--data", "synthetic:gauss-20000-5-5", "--k", "3", "--method", "icsm", "--out", "p.csv"},
			outputs: []string{"p.csv"}, delays: []time.Duration{early, mid}},
		{name: "kanon", files: map[string]string{"qi.csv": qiCSV(20000, 1)}, args: []string{"kanon", "--data", "qi.csv", "--qi", "age,hours,sex,job",
			"--categorical", "sex,job", "--k", "5", "--method", "hungarian", "--partition", "2000", "--out", "pub.csv", "--graph-out", "graph.csv"},
			outputs: []string{"pub.csv", "graph.csv"}, delays: []time.Duration{early, mid}},
	}
	for _, eng := range []string{"cbc", "lpsolve", "highs"} {
		cases = append(cases,
			signalCase{name: "solve " + eng, files: map[string]string{"ms.mps": ms}, args: []string{"solve", "ms.mps", "--solver", eng, "--out", "r.txt"},
				outputs: []string{"r.txt"}, delays: []time.Duration{early, mid}, engine: true},
			signalCase{name: "bounds ip " + eng, files: map[string]string{"t.csv": table}, args: []string{"bounds", "--table", "t.csv", "--margins", allPairs,
				"--method", "ip", "--solver", eng, "--compare", "lp", "--out", "b.txt"}, outputs: []string{"b.txt"}, delays: []time.Duration{early, mid}, engine: true})
	}
	cases = append(cases, signalCase{name: "bounds lp clp", files: map[string]string{"t.csv": table}, args: []string{"bounds", "--table", "t.csv",
		"--margins", allPairs, "--method", "lp", "--solver", "clp", "--cold", "--out", "b.txt"}, outputs: []string{"b.txt"}, delays: []time.Duration{early, 300 * time.Millisecond}, engine: true})
	cases = append(cases, signalCase{name: "bench scaling", args: []string{"bench", "scaling", "--out", "s.csv", "--format", "csv", "--plot", "figs"},
		outputs: []string{"s.csv", "figs"}, delays: []time.Duration{early, mid}})
	if _, ok := sharedDataDir(); ok {
		cases = append(cases,
			signalCase{name: "bench icsm", args: []string{"bench", "icsm", "--data", "census", "--k", "3", "--restarts", "5", "--out", "i.txt"},
				outputs: []string{"i.txt"}, delays: []time.Duration{early, mid}},
			signalCase{name: "bench colgen", args: []string{"bench", "colgen", "--out", "c.json", "--format", "json"},
				outputs: []string{"c.json"}, delays: []time.Duration{early, mid}, engine: true},
			signalCase{name: "bench kanon", args: []string{"bench", "kanon", "--k", "2..4", "--mip-n", "", "--scale-n", "", "--out", "k.txt"},
				outputs: []string{"k.txt"}, delays: []time.Duration{early, mid}},
			signalCase{name: "bench dobra", args: []string{"bench", "dobra", "--out", "d.txt"}, outputs: []string{"d.txt"}, delays: []time.Duration{early, mid}, engine: true},
			signalCase{name: "microagg colgen", args: []string{"microagg", "--data", "census", "--k", "3", "--method", "colgen", "--groups", "g.csv"},
				outputs: []string{"g.csv"}, delays: []time.Duration{early, 2 * time.Second}, engine: true})
	}
	return cases
}

func TestSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("signals: long-running processes")
	}
	for _, sc := range signalCases() {
		reps := 1
		if sc.engine {
			reps = 3 // the engine crash was intermittent
		}
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			for _, delay := range sc.delays {
				for rep := 0; rep < reps; rep++ {
					name := fmt.Sprintf("%s/%s/%v/%d", sc.name, sig, delay, rep)
					if delay == duringWrite {
						name = fmt.Sprintf("%s/%s/during-write/%d", sc.name, sig, rep)
					}
					t.Run(name, func(t *testing.T) {
						t.Parallel()
						interrupt(t, sc, sig, delay)
					})
				}
			}
		}
	}
}

// interrupt runs one case and sends sig after delay (or when a temporary
// output appears), then checks the outcome.
func interrupt(t *testing.T, sc signalCase, sig syscall.Signal, delay time.Duration) {
	dir := t.TempDir()
	for name, text := range sc.files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := snapshot(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ready := filepath.Join(t.TempDir(), "ready")
	cmd, wait := startSdcoptEnv(t, ctx, dir, []string{readyEnv + "=" + ready}, sc.args...)
	done := make(chan proc, 1)
	go func() { done <- wait() }()
	var p proc
	sent := false
	// Delays count from the moment the process handles signals (a signal
	// before that kills it by the default action, before it has done
	// anything).
	for {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		select {
		case p = <-done:
			t.Fatalf("exited before it was ready: exit %d\n%s", p.code, p.stderr)
		case <-time.After(time.Millisecond):
		}
	}
	if delay == duringWrite {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
	poll:
		for {
			select {
			case p = <-done:
				break poll
			case <-tick.C:
				if len(tempFiles(t, dir)) > 0 {
					sent = cmd.Process.Signal(sig) == nil
					p = <-done
					break poll
				}
			}
		}
	} else {
		select {
		case p = <-done:
		case <-time.After(delay):
			sent = cmd.Process.Signal(sig) == nil
			p = <-done
		}
	}
	for _, bad := range []string{"fatal error", "goroutine ", "panic", "SIGSEGV", "SA_ONSTACK"} {
		if strings.Contains(p.stderr, bad) {
			t.Fatalf("crash (%q) after %s:\n%s", bad, sig, p.stderr)
		}
	}
	if tmp := tempFiles(t, dir); len(tmp) > 0 {
		t.Errorf("temporaries left: %v", tmp)
	}
	after := snapshot(t, dir)
	if diff := diffSnapshots(before, after, sc.outputs...); len(diff) > 0 {
		t.Errorf("unexpected changes: %v", diff)
	}
	present := 0
	for _, o := range sc.outputs {
		if _, ok := after[o]; ok {
			present++
		}
	}
	if present != 0 && present != len(sc.outputs) {
		t.Errorf("%d of %d outputs written: a partial set", present, len(sc.outputs))
	}
	if !sent || p.code == 0 {
		// The run ended before the signal: nothing to check but the
		// above. Cases are sized so that this is rare.
		t.Logf("finished before the signal (exit %d)", p.code)
		return
	}
	want := cli.ExitInterrupted
	if sig == syscall.SIGTERM {
		want = cli.ExitTerminated
	}
	if p.code != want {
		t.Fatalf("exit %d after %s, want %d\nstderr: %s", p.code, sig, want, p.stderr)
	}
	if !strings.Contains(p.stderr, cli.StoppedMessage) {
		t.Errorf("stderr lacks %q: %s", cli.StoppedMessage, p.stderr)
	}
}

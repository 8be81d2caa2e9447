package moduletest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
	_ "github.com/sdcopt/sdcopt/solvers/highs"
)

const modulePath = "github.com/sdcopt/sdcopt"

// userGoMod is the go.mod of the other module; CHECKOUT becomes the
// quoted path of this checkout.
const userGoMod = `module example.com/user

go 1.26

require github.com/sdcopt/sdcopt v0.0.0

replace github.com/sdcopt/sdcopt => CHECKOUT
`

// userMain calls the public API as a user of the module would. Every line
// it prints is independent of the engine "auto" picks.
const userMain = `package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/sdcopt/sdcopt/cellbounds"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/kanon"
	"github.com/sdcopt/sdcopt/microagg"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
	_ "github.com/sdcopt/sdcopt/solvers/all"
	"github.com/sdcopt/sdcopt/solvers/mps"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func run() error {
	// The Wyndor Glass LP (Hillier & Lieberman, Section 3.1), built row by
	// row, written as MPS, read back and solved through the registry.
	b := solvers.NewRowBuilder(solvers.Maximize)
	x := b.AddVar(3, 0, solvers.Inf, solvers.Continuous, "x")
	y := b.AddVar(5, 0, solvers.Inf, solvers.Continuous, "y")
	b.AddConstraint(-solvers.Inf, 4, []int{x}, []float64{1}, "plant1")
	b.AddConstraint(-solvers.Inf, 12, []int{y}, []float64{2}, "plant2")
	b.AddConstraint(-solvers.Inf, 18, []int{x, y}, []float64{3, 2}, "plant3")
	var text bytes.Buffer
	if err := mps.Write(&text, b.Problem()); err != nil {
		return err
	}
	p, err := mps.Read(&text)
	if err != nil {
		return err
	}
	r, err := solvers.Solve("auto", p, nil)
	if err != nil {
		return err
	}
	fmt.Printf("solve: %s %.6g at (%.6g, %.6g)\n", r.Status, r.Objective, r.X[0], r.X[1])

	// Cell bounds of a 2x2x2 table given its three 2-way margins.
	bin := []string{"no", "yes"}
	tab, err := model.NewTable([]model.Variable{{Name: "A", Levels: bin}, {Name: "B", Levels: bin}, {Name: "C", Levels: bin}},
		[]int64{5, 3, 2, 4, 3, 6, 4, 2})
	if err != nil {
		return err
	}
	ms, err := tab.ReleaseSpec("AB,AC,BC")
	if err != nil {
		return err
	}
	cb, err := cellbounds.Compute(ms, cellbounds.Settings{})
	if err != nil {
		return err
	}
	fmt.Printf("cellbounds: %s sharp=%v", ms.Name(), cb.Sharp)
	for c := range tab.Counts {
		fmt.Printf(" [%g,%g]", cb.Bounds.Lower[c], cb.Bounds.Upper[c])
	}
	fmt.Println()

	// MDAV on ten z-scored records.
	raw, err := model.NewDataset([]string{"height", "weight"}, 10, 2, []float64{
		150, 50, 152, 54, 155, 53, 170, 70, 172, 68, 175, 75, 190, 90, 185, 88, 188, 95, 160, 60})
	if err != nil {
		return err
	}
	z, _ := model.Standardize(raw)
	c, err := microagg.MDAV(z, 3)
	if err != nil {
		return err
	}
	fmt.Printf("mdav: %d groups, IL %.2f%%\n", c.NumGroups, model.IL(z, c))

	// Freeform k-anonymity, published, read back and verified.
	const people = "age,zip,disease\n23,1001,flu\n25,1001,cold\n31,1002,flu\n35,1002,asthma\n" +
		"42,1003,cold\n47,1003,flu\n52,1001,asthma\n58,1002,cold\n"
	q, err := datasets.ReadQI(strings.NewReader(people), "people.csv", []string{"age", "zip"}, []string{"zip"}, false)
	if err != nil {
		return err
	}
	res, err := kanon.Anonymize(q.Table, 2, &kanon.Options{Seed: 1})
	if err != nil {
		return err
	}
	var pub, graph bytes.Buffer
	if err := kanon.WritePublished(&pub, q, res, nil); err != nil {
		return err
	}
	if err := kanon.WriteGraph(&graph, q, res); err != nil {
		return err
	}
	pp, err := kanon.ReadPublished(&pub, "published.csv", q)
	if err != nil {
		return err
	}
	edges, err := kanon.ReadGraph(&graph, "graph.csv")
	if err != nil {
		return err
	}
	v, err := kanon.VerifyPublication(q, pp, edges, 2, &res.GCP, "published.csv", "graph.csv")
	if err != nil {
		return err
	}
	fmt.Printf("kanon: GCP %.4f verified (%d records, k = %d, %d edges)\n", v.GCP, v.N, v.K, v.Edges)
	return nil
}
`

// wantOutput is what userMain prints. The numbers are those of the
// package examples: the Wyndor optimum (cellbounds.ExampleCompute,
// microagg.ExampleMDAV and kanon.ExampleAnonymize derive the others).
const wantOutput = `solve: optimal 36 at (2, 6)
cellbounds: [AB] [AC] [BC] sharp=true [1,7] [1,7] [0,6] [0,6] [1,7] [2,8] [0,6] [0,6]
mdav: 3 groups, IL 6.88%
kanon: GCP 0.1440 verified (8 records, k = 2, 16 edges)
`

// TestExternalModule builds a module outside the checkout that requires
// this one through a replace directive, and runs a program against the
// public API. It needs the go command, the module proxy (or a warm module
// cache) for the dependencies, and the HiGHS runtime ("auto" picks HiGHS
// in the program, which is built without the cgo engines' tags).
func TestExternalModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs another module (tens of seconds)")
	}
	if _, _, err := solvers.Lookup("highs"); err != nil {
		t.Skipf("the program solves with HiGHS: %v", err)
	}
	got, _ := runModule(t, map[string]string{"main.go": userMain})
	if got != wantOutput {
		t.Errorf("program output:\n%s\nwant:\n%s", got, wantOutput)
	}
}

// runModule writes files (and the go.mod requiring this checkout) into a
// temporary module, runs it with go run and returns its stdout and stderr.
// It fails the test when the checkout's go.mod or go.sum change.
func runModule(t *testing.T, files map[string]string) (string, string) {
	t.Helper()
	goCmd := goCommand(t)
	root := checkoutRoot(t)
	before := snapshot(t, root)

	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), strings.Replace(userGoMod, "CHECKOUT", strconv.Quote(root), 1))
	for name, content := range files {
		write(t, filepath.Join(dir, name), content)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	env := append(os.Environ(),
		"GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"),
		"GOWORK=off",    // no go.work above the temp dir may take over
		"CGO_ENABLED=0", // as a user without the C engines builds it
	)
	run := func(args ...string) (string, string) {
		cmd := exec.CommandContext(ctx, goCmd, args...)
		cmd.Dir = dir
		cmd.Env = env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				t.Fatalf("go %s: timed out: %v\n%s", strings.Join(args, " "), err, stderr.String())
			}
			t.Fatalf("go %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	run("mod", "tidy")
	out, errOut := run("run", ".")

	// The other module must not have written into the checkout.
	if after := snapshot(t, root); after != before {
		t.Errorf("the checkout's go.mod or go.sum changed while building the other module")
	}
	return out, errOut
}

// goCommand returns the go command: the one on PATH, or the one of the
// toolchain that built this test.
func goCommand(t *testing.T) string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("no go command on PATH or in %s", runtime.GOROOT())
	}
	return p
}

// checkoutRoot returns the absolute directory of this module: two levels
// above the package, checked by its go.mod.
func checkoutRoot(t *testing.T) string {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(string(mod), "\n"); strings.TrimSpace(first) != "module "+modulePath {
		t.Fatalf("%s/go.mod starts with %q, want module %s", root, first, modulePath)
	}
	return root
}

// snapshot returns the checkout's go.mod and go.sum, to compare before
// and after.
func snapshot(t *testing.T, root string) string {
	var s strings.Builder
	for _, f := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		s.Write(b)
		s.WriteByte(0)
	}
	return s.String()
}

func write(t *testing.T, path, content string) {
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

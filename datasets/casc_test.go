package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func sharedOrSkip(t *testing.T) string {
	t.Helper()
	dir, err := SharedDir()
	if errors.Is(err, ErrNoSharedData) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLoadCASC(t *testing.T) {
	sharedOrSkip(t)
	// Shapes and first/last columns: ../shared/datasets/README.md, Section 1.
	for _, tc := range []struct {
		name        string
		n, d        int
		first, last string
	}{
		{"tarragona", 834, 13, "FIXED.ASSETS", "NET.PROFIT"},
		{"census", 1080, 13, "AFNLWGT", "ERNVAL"},
		{"EIA", 4092, 11, "UTILITYID", "TOTSALES"},
	} {
		ds, err := LoadCASC(tc.name)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if ds.N != tc.n || ds.D != tc.d || ds.Names[0] != tc.first || ds.Names[ds.D-1] != tc.last {
			t.Errorf("%s: %d x %d, columns %s..%s; want %d x %d, %s..%s", tc.name, ds.N, ds.D,
				ds.Names[0], ds.Names[ds.D-1], tc.n, tc.d, tc.first, tc.last)
		}
	}
	if _, err := LoadCASC("adult"); err == nil || !strings.Contains(err.Error(), "tarragona, census, eia") {
		t.Errorf("unknown name: error %v", err)
	}
}

func TestLoadCASCChecksum(t *testing.T) {
	shared := sharedOrSkip(t)
	data, err := os.ReadFile(filepath.Join(shared, "census.csv"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// One digit changed in the last record.
	bad := append([]byte(nil), data...)
	for i := len(bad) - 1; i >= 0; i-- {
		if bad[i] >= '0' && bad[i] <= '8' {
			bad[i]++
			break
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "census.csv"), bad, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(DataDirEnv, dir)
	_, err = LoadCASC("census")
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "census.csv")) || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("modified file: error %v, want a SHA-256 mismatch naming the file", err)
	}
	// The unmodified copy loads.
	if err := os.WriteFile(filepath.Join(dir, "census.csv"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCASC("census"); err != nil {
		t.Errorf("intact copy: %v", err)
	}
	// A missing file names the path.
	if _, err := LoadCASC("eia"); err == nil || !strings.Contains(err.Error(), "eia.csv") {
		t.Errorf("missing file: error %v", err)
	}
}

func TestSharedDir(t *testing.T) {
	root := t.TempDir()
	data := filepath.Join(root, "shared", "datasets")
	deep := filepath.Join(root, "main", "cmd", "sdcopt")
	for _, d := range []string{data, deep} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(DataDirEnv, "")
	t.Chdir(deep)
	got, err := SharedDir()
	if err != nil || !sameDir(t, got, data) {
		t.Errorf("walking up from %s: %q, %v; want %s", deep, got, err, data)
	}
	t.Setenv(DataDirEnv, root)
	if got, err := SharedDir(); err != nil || got != root {
		t.Errorf("with %s set: %q, %v", DataDirEnv, got, err)
	}
	t.Setenv(DataDirEnv, filepath.Join(root, "nope"))
	if _, err := SharedDir(); !errors.Is(err, ErrNoSharedData) || !strings.Contains(err.Error(), "nope") {
		t.Errorf("with a missing directory: %v", err)
	}
	t.Setenv(DataDirEnv, "")
	t.Chdir(t.TempDir())
	if _, err := SharedDir(); !errors.Is(err, ErrNoSharedData) {
		// Only fails if a shared/datasets exists above the system temp dir.
		t.Logf("no data expected above a temp dir, got %v", err)
	}
}

func sameDir(t *testing.T, a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Spec
		str  string
	}{
		{"census", Spec{Kind: SpecCASC, Name: "census"}, "census"},
		{"Tarragona", Spec{Kind: SpecCASC, Name: "tarragona"}, "tarragona"},
		{"data/x.csv", Spec{Kind: SpecFile, Path: "data/x.csv"}, "data/x.csv"},
		{"./census", Spec{Kind: SpecFile, Path: "./census"}, "./census"},
		{"synthetic:sim2", Spec{Kind: SpecSynthetic, Name: "sim2", Seed: DefaultSeed}, "synthetic:sim2:1"},
		{"synthetic:Sim-1:42", Spec{Kind: SpecSynthetic, Name: "sim-1", Seed: 42}, "synthetic:sim-1:42"},
		{"synthetic:synthetic:7", Spec{Kind: SpecSynthetic, Name: "synthetic", Seed: 7}, "synthetic:synthetic:7"},
		{"synthetic:gauss-1000-5-4:3", Spec{Kind: SpecSynthetic, Name: "gauss-1000-5-4", Seed: 3}, "synthetic:gauss-1000-5-4:3"},
	} {
		got, err := ParseSpec(tc.in)
		if err != nil || got != tc.want || got.String() != tc.str {
			t.Errorf("ParseSpec(%q) = %+v (%s), %v; want %+v (%s)", tc.in, got, got, err, tc.want, tc.str)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"", "empty"},
		{"synthetic:nope", `unknown generator "nope"`},
		{"synthetic:sim1:x", `seed "x"`},
		{"synthetic:sim1:-1", `seed "-1"`},
		{"synthetic:sim1:1:2", "synthetic:NAME[:SEED]"},
		{"synthetic:gauss-10-2", "gauss-N-D-C"},
		{"synthetic:gauss-10-2-11", "C = 11 clusters for N = 10 records: need clusters <= records"},
	} {
		if _, err := ParseSpec(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseSpec(%q): error %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestLoadSpecSynthetic(t *testing.T) {
	tab, err := Load("synthetic:sim1:5", []string{"v2", "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if tab.Data.N != 100 || tab.Data.D != 2 || len(tab.Header) != 10 || tab.Source != "synthetic:sim1:5" {
		t.Errorf("table %d x %d of %d columns from %s", tab.Data.N, tab.Data.D, len(tab.Header), tab.Source)
	}
	ds, _ := Synthetic("sim1", 5)
	if tab.Data.X[0] != ds.X[0] || tab.Data.X[1] != ds.X[1] {
		t.Error("selected columns do not match the generator")
	}
	// The protected file of a generated table: every attribute, the
	// selected ones replaced.
	prot := tab.Data.Clone()
	for i := range prot.X {
		prot.X[i] = 0.5
	}
	var buf strings.Builder
	if err := tab.WriteAllColumnsUnsafe(&buf, prot); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	first := strings.Split(lines[1], ",")
	if len(lines) != 101 || lines[0] != "v1,v2,v3,v4,v5,v6,v7,v8,v9,v10" || first[0] != "0.5" || first[1] != "0.5" ||
		first[2] != FormatValue(ds.X[2]) || first[9] != FormatValue(ds.X[9]) {
		t.Errorf("protected generated table: %d lines, header %s, first record %s", len(lines), lines[0], lines[1])
	}
	if _, err := Load("synthetic:sim1", []string{"zz"}); err == nil || !strings.Contains(err.Error(), `unknown column "zz" (available: v1,`) {
		t.Errorf("unknown column: %v", err)
	}
}

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The CLI contract, checked on real processes: every command is run
// against one catalogue of bad inputs (outputs naming inputs or each
// other, unwritable output paths, unknown engines, out-of-range numbers,
// missing, empty and BOM-prefixed inputs) and must exit with the code of
// the contract, name the user's path in its message, and leave the file
// system as it was (inputs byte-identical, no new file, no temporary).

// fixture files (relative to the run directory).
const (
	fxMicrodata = "data.csv"
	fxTable     = "table.csv"
	fxMarginAB  = "ab.csv"
	fxMarginBC  = "bc.csv"
	fxModel     = "model.mps"
	fxQI        = "qi.csv"
	fxPublished = "pub.csv"
	fxGraph     = "graph.csv"
	fxDobra     = "aw.csv"
	fxEmpty     = "empty.csv"
	fxDir       = "adir"
)

// fixtureMicrodata: 12 records, three numeric attributes and a text column;
// the runs microaggregate x and y (id and name are not published).
const fixtureMicrodata = "id,name,x,y\n" +
	"1,a,1.5,2\n2,b,1.7,2.5\n3,c,3,1\n4,d,3.2,1.1\n5,e,8,9\n6,f,8.5,9.5\n" +
	"7,g,2,7\n8,h,2.2,7.7\n9,i,6,3\n10,j,6.1,3.3\n11,k,4,4\n12,l,4.4,4.1\n"

// fixtureTable is a 2x2x2 table; ab.csv and bc.csv are its [AB] and [BC]
// margins.
const (
	fixtureTable = "A,B,C,count\n" +
		"a1,b1,c1,3\na1,b1,c2,1\na1,b2,c1,4\na1,b2,c2,2\na2,b1,c1,5\na2,b1,c2,2\na2,b2,c1,1\na2,b2,c2,6\n"
	fixtureAB = "A,B,count\na1,b1,4\na1,b2,6\na2,b1,7\na2,b2,7\n"
	fixtureBC = "B,C,count\nb1,c1,8\nb1,c2,3\nb2,c1,5\nb2,c2,8\n"
)

const fixtureQI = "age,zip,sex,income\n30,100,M,10\n31,101,F,20\n35,100,F,30\n40,105,M,40\n41,104,M,50\n45,103,F,60\n"

var kanonFixtureArgs = []string{"--data", fxQI, "--qi", "age,zip,sex", "--categorical", "sex", "--k", "2"}

// fixturePublication returns a valid publication of fixtureQI (k = 2),
// made once.
func fixturePublication(t *testing.T) (pub, graph []byte) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, fxQI), []byte(fixtureQI), 0o644); err != nil {
		t.Fatal(err)
	}
	p := runSdcopt(t, dir, append([]string{"kanon", "--method", "hungarian", "--out", fxPublished, "--graph-out", fxGraph}, kanonFixtureArgs...)...)
	if p.code != 0 {
		t.Fatalf("fixture publication: exit %d: %s", p.code, p.stderr)
	}
	pub, err := os.ReadFile(filepath.Join(dir, fxPublished))
	if err != nil {
		t.Fatal(err)
	}
	graph, err = os.ReadFile(filepath.Join(dir, fxGraph))
	if err != nil {
		t.Fatal(err)
	}
	return pub, graph
}

// writeFixture fills dir with the inputs, a BOM-prefixed copy "bom_X" of
// every input X, a symbolic link "sym_X" and a hard link "hard_X" to it,
// an empty file and a directory.
func writeFixture(t *testing.T, dir string, pub, graph []byte) {
	t.Helper()
	model, err := demoModels.ReadFile("demodata/wyndor.mps")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		fxMicrodata: []byte(fixtureMicrodata), fxTable: []byte(fixtureTable), fxMarginAB: []byte(fixtureAB),
		fxMarginBC: []byte(fixtureBC), fxModel: model, fxQI: []byte(fixtureQI), fxPublished: pub, fxGraph: graph,
		fxDobra: []byte("A,B,C,D,E,F,count\n"),
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "bom_"+name), append([]byte("\xef\xbb\xbf"), b...), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(name, filepath.Join(dir, "sym_"+name)); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(filepath.Join(dir, name), filepath.Join(dir, "hard_"+name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, fxEmpty), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, fxDir), 0o755); err != nil {
		t.Fatal(err)
	}
}

// commandSpec is a command line that succeeds on the fixture, with what
// it reads and writes.
type commandSpec struct {
	name    string
	args    []string // succeeds on the fixture, writing nothing
	inputs  []string // fixture files among args (whole args or comma-separated parts)
	outputs []string // output flags
	solver  bool     // takes --solver
	limit   bool     // takes --time-limit
	formats []string // its --format values
	noData  bool     // the command's success runs need data the fixture lacks
}

var contractCommands = []commandSpec{
	{name: "solve", args: []string{"solve", fxModel, "--solver", "highs"}, inputs: []string{fxModel},
		outputs: []string{"--out", "--write-model"}, solver: true, limit: true},
	{name: "microagg", args: []string{"microagg", "--data", fxMicrodata, "--cols", "x,y", "--k", "3", "--method", "icsm"}, inputs: []string{fxMicrodata},
		outputs: []string{"--out", "--groups"}, limit: true},
	{name: "microagg colgen", args: []string{"microagg", "--data", fxMicrodata, "--cols", "x,y", "--k", "3", "--method", "colgen"}, inputs: []string{fxMicrodata},
		outputs: []string{"--out", "--groups"}, solver: true, limit: true},
	{name: "bounds", args: []string{"bounds", "--table", fxTable, "--margins", "A:B,B:C", "--method", "shuttle"}, inputs: []string{fxTable},
		outputs: []string{"--out", "--write-model"}, solver: true, limit: true, formats: []string{"json", "csv"}},
	{name: "bounds margin files", args: []string{"bounds", "--margin-files", fxMarginAB + "," + fxMarginBC, "--method", "lp"},
		inputs: []string{fxMarginAB, fxMarginBC}, outputs: []string{"--out"}, solver: true, limit: true},
	{name: "kanon", args: append([]string{"kanon", "--method", "hungarian"}, kanonFixtureArgs...), inputs: []string{fxQI},
		outputs: []string{"--out", "--graph-out"}},
	{name: "kanon mip", args: append([]string{"kanon", "--method", "mip"}, kanonFixtureArgs...), inputs: []string{fxQI},
		outputs: []string{"--out", "--graph-out"}, solver: true, limit: true},
	{name: "kanon verify", args: append([]string{"kanon", "verify", "--published", fxPublished, "--graph", fxGraph}, kanonFixtureArgs...),
		inputs: []string{fxQI, fxPublished, fxGraph}, outputs: []string{"--out"}},
	{name: "audit replay", args: []string{"audit", "replay", "--table", fxTable, "--requests", "A:B,B:C"}, inputs: []string{fxTable},
		outputs: []string{"--out"}, solver: true, limit: true, formats: []string{"json"}},
	{name: "bench dobra", args: []string{"bench", "dobra", "--data", fxDobra, "--tables", "table2"}, inputs: []string{fxDobra},
		outputs: []string{"--out"}, noData: true},
	{name: "bench scaling", args: []string{"bench", "scaling", "--mdav-n", "100,200", "--icsm-n", "100", "--sortgreedy-n", "600"},
		outputs: []string{"--out"}, formats: []string{"json", "csv"}},
}

// contractCase is one command line of the catalogue.
type contractCase struct {
	name    string
	args    []string
	code    int
	want    []string // substrings of stderr
	outputs []string // files a successful run may create
}

// replaceInput returns args with the fixture input in replaced by repl
// (also inside comma-separated arguments).
func replaceInput(args []string, in, repl string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		parts := strings.Split(a, ",")
		for j, p := range parts {
			if p == in {
				parts[j] = repl
			}
		}
		out[i] = strings.Join(parts, ",")
	}
	return out
}

func with(args []string, more ...string) []string {
	return append(append([]string{}, args...), more...)
}

// catalogue builds the cases of one command.
func (c *commandSpec) catalogue() []contractCase {
	var cases []contractCase
	add := func(name string, args []string, code int, want ...string) {
		cases = append(cases, contractCase{name: name, args: args, code: code, want: want})
	}
	for _, o := range c.outputs {
		for _, in := range c.inputs {
			add(o+" is input "+in, with(c.args, o, in), 2, o, in, "input")
			add(o+" is ./"+in, with(c.args, o, "./"+in), 2, o, "./"+in)
			add(o+" is a hard link to "+in, with(c.args, o, "hard_"+in), 2, o, "hard_"+in)
			add(o+" is a symbolic link to "+in, with(c.args, o, "sym_"+in), 2, o, "sym_"+in)
			add(o+" is "+in+" through the directory", with(c.args, o, fxDir+"/../"+in), 2, o, fxDir+"/../"+in)
		}
		add(o+" in a missing directory", with(c.args, o, "nodir/x.out"), 2, o, "nodir/x.out", "does not exist")
		add(o+" is a directory", with(c.args, o, fxDir), 2, o, fxDir, "directory")
	}
	if len(c.outputs) >= 2 {
		o1, o2 := c.outputs[0], c.outputs[1]
		add("two outputs, one file", with(c.args, o1, "x.out", o2, "x.out"), 2, o1, o2, "x.out", "same file")
		add("two outputs, one file through ./", with(c.args, o1, "x.out", o2, "./x.out"), 2, o1, o2, "same file")
	}
	if c.solver {
		add("unknown solver", with(c.args, "--solver", "nosuch"), 2, "--solver", "nosuch")
	}
	if c.limit {
		for _, v := range []string{"1e10", "-1", "NaN"} {
			add("time limit "+v, with(c.args, "--time-limit", v), 2, "--time-limit")
		}
	}
	add("unknown format", with(c.args, "--format", "yaml"), 2, "--format", "yaml")
	for _, in := range c.inputs {
		add("missing "+in, replaceInput(c.args, in, "missing_"+in), 2, "missing_"+in)
		add("empty "+in, replaceInput(c.args, in, fxEmpty), 2, fxEmpty)
		if !c.noData {
			add("BOM in "+in, replaceInput(c.args, in, "bom_"+in), 0)
		}
	}
	if c.noData {
		return cases
	}
	add("success", c.args, 0)
	for _, f := range c.formats {
		add("success, --format "+f, with(c.args, "--format", f), 0)
	}
	if len(c.outputs) > 0 {
		var args []string
		var outs []string
		for i, o := range c.outputs {
			name := fmt.Sprintf("out%d.txt", i)
			args = append(args, o, name)
			outs = append(outs, name)
		}
		cases = append(cases, contractCase{name: "success with every output", args: with(c.args, args...), outputs: outs})
	}
	return cases
}

// specificCases are bad inputs of one command each.
func specificCases() []contractCase {
	return []contractCase{
		{name: "microagg NaN", args: []string{"microagg", "--data", "f:nan.csv", "--cols", "x,y", "--k", "2"}, code: 2, want: []string{"nan.csv", "3"}},
		{name: "microagg mixed column", args: []string{"microagg", "--data", "f:mixed.csv", "--cols", "x,y", "--k", "2"}, code: 2, want: []string{"mixed.csv", "abc"}},
		{name: "microagg k > n", args: []string{"microagg", "--data", fxMicrodata, "--cols", "x,y", "--k", "13"}, code: 2, want: []string{"--k 13"}},
		{name: "microagg huge synthetic", args: []string{"microagg", "--data", "synthetic:gauss-1000000000000-10-5", "--k", "3"}, code: 2, want: []string{"1000000000000"}},
		{name: "microagg colgen too large", args: []string{"microagg", "--data", "synthetic:gauss-2000000-2-2", "--k", "3", "--method", "colgen"}, code: 2, want: []string{"distance matrix"}},
		{name: "microagg gamma NaN", args: []string{"microagg", "--data", fxMicrodata, "--cols", "x,y", "--k", "3", "--method", "vmdav", "--gamma", "NaN"}, code: 2, want: []string{"--gamma"}},
		{name: "bounds inconsistent margins", args: []string{"bounds", "--margin-files", fxMarginAB + ",f:inconsistent.csv"}, code: 1, want: []string{"inconsistent"}},
		{name: "bounds unknown solver on a native method", args: []string{"bounds", "--table", fxTable, "--margins", "A:B,B:C", "--method", "shuttle", "--solver", "nosuch"}, code: 2, want: []string{"nosuch"}},
		{name: "bounds unknown variable", args: []string{"bounds", "--table", fxTable, "--margins", "A:Z"}, code: 2, want: []string{"Z"}},
		{name: "solve unbalanced markers", args: []string{"solve", "f:markers.mps"}, code: 2, want: []string{"markers.mps:6"}},
		{name: "solve unbounded", args: []string{"solve", "f:unbounded.mps", "--solver", "highs"}, code: 1, want: []string{"unbounded"}},
		{name: "solve unbounded, every engine", args: []string{"solve", "f:unbounded.mps", "--solver", "all"}, code: 1, want: []string{"unbounded"}},
		{name: "solve infeasible", args: []string{"solve", "f:infeasible.mps", "--solver", "all"}, code: 1, want: []string{"infeasible"}},
		{name: "solve threads", args: []string{"solve", fxModel, "--threads", "100000"}, code: 2, want: []string{"--threads"}},
		{name: "solve mip gap", args: []string{"solve", fxModel, "--mip-gap", "2"}, code: 2, want: []string{"--mip-gap"}},
		{name: "bench plot into a file", args: []string{"bench", "scaling", "--mdav-n", "100", "--icsm-n", "", "--sortgreedy-n", "", "--plot", fxModel}, code: 2, want: []string{"--plot", fxModel}},
		{name: "bench bad list", args: []string{"bench", "scaling", "--mdav-n", "1..x"}, code: 2, want: []string{"--mdav-n"}},
		{name: "kanon k > n", args: with(append([]string{"kanon"}, kanonFixtureArgs[:len(kanonFixtureArgs)-1]...), "7"), code: 2, want: []string{"--k 7"}},
		{name: "kanon verify wrong k", args: append(with([]string{"kanon", "verify", "--published", fxPublished, "--graph", fxGraph}, kanonFixtureArgs[:len(kanonFixtureArgs)-1]...), "3"), code: 1, want: []string{"k = 3"}},
	}
}

// specificFiles are the files "f:NAME" of specificCases.
var specificFiles = map[string]string{
	"nan.csv": "x,y\n1,2\n3,NaN\n5,6\n", "mixed.csv": "x,y\n1,2\n3,abc\n5,6\n",
	"inconsistent.csv": "B,C,count\nb1,c1,8\nb1,c2,3\nb2,c1,5\nb2,c2,9\n",
	"markers.mps":      "NAME m\nROWS\n N obj\n L c\nCOLUMNS\n    MARKER                 'MARKER'                 'INTEND'\n x obj 1 c 1\nRHS\n rhs c 1\nENDATA\n",
	"unbounded.mps":    "NAME u\nOBJSENSE\n    MAX\nROWS\n N obj\n G c\nCOLUMNS\n x obj 1 c 1\nRHS\n rhs c 1\nENDATA\n",
	"infeasible.mps":   "NAME i\nROWS\n N obj\n G c1\n L c2\nCOLUMNS\n x obj 1 c1 1\n x c2 1\nRHS\n rhs c1 3 c2 2\nENDATA\n",
}

func TestContract(t *testing.T) {
	pub, graph := fixturePublication(t)
	var all []contractCase
	for i := range contractCommands {
		c := &contractCommands[i]
		for _, cc := range c.catalogue() {
			cc.name = c.name + ": " + cc.name
			if cc.code == 0 && cc.outputs == nil {
				cc.outputs = []string{}
			}
			all = append(all, cc)
		}
	}
	all = append(all, specificCases()...)
	for _, cc := range all {
		t.Run(cc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeFixture(t, dir, pub, graph)
			args := make([]string, len(cc.args))
			for i, a := range cc.args {
				args[i] = a
				if name, ok := strings.CutPrefix(a, "f:"); ok {
					args[i] = name
				}
				for _, part := range strings.Split(a, ",") {
					if name, ok := strings.CutPrefix(part, "f:"); ok {
						args[i] = strings.ReplaceAll(args[i], part, name)
						if err := os.WriteFile(filepath.Join(dir, name), []byte(specificFiles[name]), 0o644); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			before := snapshot(t, dir)
			p := runSdcopt(t, dir, args...)
			if p.code != cc.code {
				t.Fatalf("sdcopt %s: exit %d, want %d\nstderr: %s", strings.Join(args, " "), p.code, cc.code, p.stderr)
			}
			for _, w := range cc.want {
				if !strings.Contains(p.stderr, w) {
					t.Errorf("stderr %q lacks %q", p.stderr, w)
				}
			}
			if strings.Contains(p.stderr, "goroutine ") || strings.Contains(p.stderr, "panic") {
				t.Errorf("crash: %s", p.stderr)
			}
			after := snapshot(t, dir)
			if diff := diffSnapshots(before, after, cc.outputs...); len(diff) > 0 {
				t.Errorf("file system changed: %v", diff)
			}
			for _, o := range cc.outputs {
				if _, ok := after[o]; !ok {
					t.Errorf("output %s not written", o)
				}
			}
			if tmp := tempFiles(t, dir); len(tmp) > 0 {
				t.Errorf("temporaries left: %v", tmp)
			}
			if cc.code != 0 && bytes.Contains([]byte(p.stderr), []byte(".tmp")) {
				t.Errorf("message names a temporary file: %s", p.stderr)
			}
		})
	}
}

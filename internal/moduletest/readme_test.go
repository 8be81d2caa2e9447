package moduletest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readmeProgram returns the Go program of the README's section "Using
// sdcopt as a library": its first go code block.
func readmeProgram(t *testing.T) string {
	b, err := os.ReadFile(filepath.Join(checkoutRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "\n## Using sdcopt as a library")
	if i < 0 {
		t.Fatal(`README.md has no section "## Using sdcopt as a library"`)
	}
	s = s[i:]
	j := strings.Index(s, "\n```go\n")
	if j < 0 {
		t.Fatal("the README's library section has no go code block")
	}
	s = s[j+len("\n```go\n"):]
	k := strings.Index(s, "\n```")
	if k < 0 {
		t.Fatal("the README's library go code block is not closed")
	}
	return s[:k+1]
}

// TestREADMEProgram builds and runs the README's library program, as
// written, on a small people.csv: the claims it makes about the API
// (LoadCSV's result, the roles, Standardize, MDAV, IL, the risk,
// WriteProtected, the blank import) compile and hold, and the program
// publishes what `sdcopt microagg --k 3 --identifier id --cols
// age,hours,income --sensitive diagnosis` publishes: no id column (issue
// 44, item 8: the README program wrote the ids, "P0001,62.666666666666664,..."),
// the group means at the file's precision (integers stay integers), the
// diagnosis unchanged, and the disclosure risk on stderr.
func TestREADMEProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs another module (tens of seconds)")
	}
	prog := readmeProgram(t)
	if !strings.HasPrefix(prog, "package main\n") {
		t.Fatalf("the README's library program is not a complete program:\n%s", prog)
	}
	// Every value of diagnosis and hours is distinct or shared by records
	// of different ages, hours and incomes: the leak check passes.
	const people = "id,age,hours,income,diagnosis\n" +
		"a1,34,40,1200,flu\na2,29,35,1350,cold\na3,41,42,980,flu\n" +
		"a4,52,20,2100,none\na5,48,25,1990,cold\na6,33,38,1010,none\n"
	out, errOut := runModule(t, map[string]string{"main.go": prog, "people.csv": people})
	// MDAV with k = 3 on 6 records: two groups of 3 (checked below
	// against the groups the program writes).
	if !strings.HasPrefix(errOut, "2 groups, IL ") || !strings.Contains(errOut, "record linkage") || !strings.Contains(errOut, "interval disclosure") {
		t.Errorf("stderr = %q, want the number of groups, IL and the disclosure risk", errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 7 || lines[0] != "age,hours,income,diagnosis" {
		t.Fatalf("protected file (want the columns age,hours,income,diagnosis, no id):\n%s", out)
	}
	in := strings.Split(strings.TrimSpace(people), "\n")
	count := map[string]int{}
	for i, l := range lines[1:] {
		f := strings.Split(l, ",")
		orig := strings.Split(in[i+1], ",")
		if len(f) != 4 || f[3] != orig[4] {
			t.Fatalf("line %d of the protected file: %q, want 4 fields ending with the diagnosis %q", i+2, l, orig[4])
		}
		for _, v := range f[:3] {
			if strings.ContainsAny(v, ".e") {
				t.Errorf("line %d: value %q is not written at the file's precision (integers)", i+2, v)
			}
		}
		count[strings.Join(f[:3], ",")]++
	}
	if len(count) != 2 {
		t.Errorf("protected file has %d distinct (age, hours, income) triples, want 2 groups:\n%s", len(count), out)
	}
	for v, c := range count {
		if c != 3 {
			t.Errorf("(age, hours, income) = %s appears %d times, want 3", v, c)
		}
	}
}
